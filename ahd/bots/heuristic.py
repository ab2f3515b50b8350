"""A heuristic opponent: plays like a sensible human, quickly, without search.

It scores each legal action from the position itself:
- a *potential field* pulls units toward objectives (enemy recruiting cities, the victory cities for
  the Union, Washington and the Union's cities for the Confederacy) and toward their own threatened
  cities, decaying with distance on the board;
- moving into an empty enemy recruiting city is worth its values; attacking is worth the exact odds
  of the battle (``ahd.odds``) times what is at stake;
- leaving a threatened city of one's own, or the capital, costs what it would risk;
- in battle it fires by the default spread, reinforces when losing, retreats when the odds are bad;
- it promotes where fighting is likely and recruits in its most threatened cities.
"""
from __future__ import annotations

from collections import deque
from functools import lru_cache

import numpy as np

from ..core import combat, movement
from ..core.actions import (Action, BeginMarch, CavalryRetreat, ChooseFirer, EndMarch, EndMovement, EndRecruitment,
                      Entrench, FireAuto, HoldGround, Invade, LeaderPoint, Move, NavalMove, NoPromotion, OpenFire,
                      Promote, Rally, Recruit, Reinforce, Retreat)
from ..core.board import VICTORY_CITIES, Board
from ..core.game import Game
from .base import without_losing_moves
from ..odds import OddsError, battle_odds, odds
from ..core.sides import Side
from ..core.state import State
from ..core.units import Unit

CAPITAL = {Side.UNION: "washington", Side.CONFEDERATE: "richmond"}
#: how enemy threats set the garrisons: ``each`` city counts every enemy unit within two links (the
#: heuristic as measured in the README), ``shared`` counts each enemy stack at one city (and the capital)
GARRISONS = ("each", "shared")


#: ``0.6 ** d`` for every distance in links (the field's decay; the same floats, looked up)
_DECAY = tuple(0.6 ** d for d in range(512))


@lru_cache(maxsize=4)
def _distances(board: Board) -> dict[str, dict[str, int]]:
    """All-pairs distances in links (any line type)."""
    result = {}
    for start in board.boxes:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for there in board.neighbours(here):
                if there not in dist:
                    dist[there] = dist[here] + 1
                    queue.append(there)
        result[start] = dist
    return result


@lru_cache(maxsize=4)
def _near(board: Board) -> dict[str, tuple[str, ...]]:
    """The boxes within two links of each box (itself included)."""
    return {box: tuple(b for b, d in dist.items() if d <= 2) for box, dist in _distances(board).items()}


@lru_cache(maxsize=50_000)
def _win_chance(attackers: tuple[str, ...], defenders: tuple[str, ...]) -> float:
    """Attacker's chance to win (exact when small; a strength ratio otherwise)."""
    try:
        return battle_odds(list(attackers), list(defenders), max_states=4_000).attacker_wins
    except OddsError:
        a = sum(int(s.split(":")[0] in ("FV", "FS", "CS")) + 2 for s in attackers)
        d = sum(int(s.split(":")[0] in ("FV", "FS", "CS")) + 2 + (":entrenched" in s) for s in defenders)
        return a * a / (a * a + d * d)


def attack_forces(state: State, target: str, side: Side,
                  movers: list[tuple[Unit, bool]]) -> tuple[list[str], list[str]]:
    """The battle specs if ``movers`` ((unit, crossing) pairs of ``side``) march into ``target``: our
    units already there, then the movers, none of them entrenched; against the defenders as they stand."""
    attackers = [_spec(state, u, crossing=u.crossing, entrenched=False) for u in state.units_in(target, side)]
    attackers += [_spec(state, u, crossing=crossing, entrenched=False) for u, crossing in movers]
    return attackers, [_spec(state, u) for u in state.units_in(target, side.enemy)]


def _spec(state: State, unit: Unit, *, crossing: bool = False, entrenched: bool | None = None) -> str:
    if unit.is_coastal:  # evaluated as the militia/veteran infantry of its value, entrenched
        return "FV:entrenched" if unit.type.value >= 3 else "MF:entrenched"
    flags = [unit.type.code]
    if unit.strength == "reduced":
        flags.append("reduced")
    if entrenched if entrenched is not None else state.is_entrenched(unit):
        flags.append("entrenched")
    if crossing:
        flags.append("crossing")
    return ":".join(flags)


class HeuristicBot:
    """Sensible play from simple, explainable scores. ``choose(game) -> action``."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, rng: np.random.Generator | None = None, *,
                 garrison: str = "each") -> None:
        if garrison not in GARRISONS:
            raise ValueError(f"garrison must be one of {', '.join(GARRISONS)}, got {garrison!r}")
        self.rng = rng if rng is not None else np.random.default_rng(seed)
        self.garrison = garrison
        self.plan: "Msg | None" = None  # one line on what it is doing (``ahd.bots.plan``); the heuristic has none
        self._field_key = None
        self._field: dict[str, float] = {}
        self._shared_key = None
        self._shared: dict[str, int] = {}

    # ------------------------------------------------------------------ entry point
    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        if len(actions) == 1:
            return actions[0]
        actions = without_losing_moves(game, actions)
        if len(actions) == 1:
            return actions[0]
        handler = getattr(self, f"_{game.decision}", None)
        if handler is None:
            return actions[0]
        return handler(game, actions)

    # ------------------------------------------------------------------ evaluation helpers
    def _threat(self, state: State, box: str, side: Side) -> int:
        """Enemy units within two links of ``box``."""
        enemy, by_box = side.enemy, state.by_box
        return sum(1 for b in _near(state.board)[box] for u in by_box[b] if u.side is enemy)

    def _shared_threat(self, state: State, box: str, side: Side) -> int:
        """``garrison="shared"``: the enemy units that threaten ``box``, each enemy stack counted at one
        city of ours only (the nearest within two links, the most valuable on ties), and at the capital
        always (it is guarded against every stack within reach). With ``"each"`` a stack of 13 next to
        four cities asked each of them for 7 defenders: the whole army became garrisons and stood still
        (the Union's stall from turn 15, ``scripts/union_stall.py``)."""
        key = (id(state), state.turn, state.phasing, side, tuple(u.location for u in state.units.values()))
        if key != self._shared_key:
            dist = _distances(state.board)
            near = _near(state.board)
            counts: dict[str, int] = {}
            mine = [b.id for b in state.board if state.control[b.id] is side and self._value(state, b.id, side) > 0]
            enemy = side.enemy
            for where, units in state.by_box.items():
                n = sum(1 for u in units if u.side is enemy)
                if not n:
                    continue
                reach = [b for b in mine if where in near[b]]
                if not reach:
                    if dist[where].get(CAPITAL[side], 99) <= 3:
                        counts[CAPITAL[side]] = counts.get(CAPITAL[side], 0) + n
                    continue
                first = min(reach, key=lambda b: (dist[where].get(b, 99), -self._value(state, b, side), b))
                counts[first] = counts.get(first, 0) + n
                capital = CAPITAL[side]
                if dist[where].get(capital, 99) <= 3 and capital != first:  # a rail move reaches it
                    counts[capital] = counts.get(capital, 0) + n
            self._shared_key, self._shared = key, counts
        return self._shared.get(box, 0)

    def _value(self, state: State, box: str, side: Side) -> float:
        """What holding ``box`` is worth to ``side`` (its own value plus the enemy's loss)."""
        b = state.board.boxes[box]
        value = 3.0 * b.value_for(side) + 2.0 * b.value_for(side.enemy)
        if side is Side.UNION and box in VICTORY_CITIES:
            value += 8.0
        if box == CAPITAL[side.enemy]:
            value += 6.0 if side is Side.UNION else 25.0
        if box == CAPITAL[side]:
            value += 25.0 if side is Side.UNION else 6.0
        return value

    def field(self, state: State, side: Side) -> dict[str, float]:
        """The potential of every box for ``side`` (cached per half-turn and control)."""
        key = (id(state), state.turn, side, tuple(state.control.values()))
        if key == self._field_key:
            return self._field
        dist = _distances(state.board)
        targets: list[tuple[str, float]] = []
        for box in state.board:
            owner = state.control[box.id]
            worth = self._value(state, box.id, side)
            if worth <= 0:
                continue
            if owner is not side:
                targets.append((box.id, worth))
            else:
                missing = self._garrison_need(state, box.id, side) - state.count_in(box.id, side)
                if missing > 0:
                    targets.append((box.id, 0.6 * worth * min(missing, 3) / 3))
        potential = {}
        for box in state.board.boxes:
            d = dist[box]
            potential[box] = sum(w * _DECAY[d.get(t, 20)] for t, w in targets)
        self._field_key, self._field = key, potential
        return potential

    def _garrison_need(self, state: State, box: str, side: Side) -> int:
        """Defenders a city of ours should keep: about half the enemy units within two links."""
        if self._value(state, box, side) <= 0:
            return 0
        threat = self._threat(state, box, side) if self.garrison == "each" else self._shared_threat(state, box, side)
        base = 2 if box == CAPITAL[side] else 0
        if self.garrison == "shared" and box == CAPITAL[side] and threat:
            return max(base, (threat + 1) // 2 + 1)  # the capital loses the war: one more
        return max(base, (threat + 1) // 2) if threat else min(base, 1)

    def _leave_cost(self, state: State, unit: Unit, origin: str) -> float:
        """Cost of taking ``unit`` out of ``origin``: a city of ours left below its garrison."""
        side = unit.side
        if state.control[origin] is not side:
            return 0.0
        staying = state.count_in(origin, side) - 1
        if staying >= self._garrison_need(state, origin, side):
            return 0.0
        return self._value(state, origin, side) * 0.8

    def _attack_chance(self, state: State, dest: str, unit: Unit, crossing: bool) -> float:
        attackers, defenders = attack_forces(state, dest, unit.side, [(unit, crossing)])
        if len(attackers) + len(defenders) > 9:
            attackers, defenders = attackers[:5], defenders[:4]
        return _win_chance(tuple(sorted(attackers)), tuple(sorted(defenders)))

    def _move_score(self, state: State, unit: Unit, path: tuple[str, ...]) -> float:
        side = unit.side
        dest, origin = path[-1], path[0]
        potential = self.field(state, side)
        score = potential[dest] - potential[origin] - self._leave_cost(state, unit, origin)
        enemies = state.count_in(dest, side.enemy)
        if enemies:
            chance = self._attack_chance(state, dest, unit, state.board.enters_over_water(dest, path[-2]))
            stake = self._value(state, dest, side) + 4.0 * enemies
            score += chance * stake - (1 - chance) * 6.0 * (1 + unit.type.value / 3)
        elif state.control[dest] is not side:
            score += self._value(state, dest, side) * (1.2 if unit.type.is_infantry else 0.6)
        return score

    def _best_orders(self, game: Game, origin: str) -> list[tuple[float, Action]]:
        state = game.state
        orders = []
        moves: dict[tuple, tuple | None] = {}  # units alike in all a move's legality and score read
        for unit in state.units_in(origin, state.phasing):
            if movement._ready(state, unit) is not None:
                continue
            alike = (unit.type.code, unit.strength, unit.jumped)
            if alike not in moves:
                moves[alike] = max(((self._move_score(state, unit, path), path, lines)
                                    for path, lines in movement.legal_paths(state, unit)),
                                   key=lambda m: m[0], default=None)
            best: tuple[float, Action] | None = None
            if moves[alike] is not None:
                score, path, lines = moves[alike]
                best = (score, Move(unit.id, path, lines))
            entrench = self._entrench_score(state, unit)
            if entrench is not None and (best is None or entrench > best[0]):
                best = (entrench, Entrench(unit.id))
            if best is not None:
                orders.append(best)
        return orders

    def _entrench_score(self, state: State, unit: Unit) -> float | None:
        if movement.entrench_barrier(state, unit) is not None:
            return None
        box = unit.location
        threat = self._threat(state, box, unit.side)
        if not threat:
            return None
        worth = self._value(state, box, unit.side)
        cheap = state.board.boxes[box].is_recruiting_city
        return (0.5 if cheap else 0.25) * threat + 0.1 * worth

    # ------------------------------------------------------------------ movement
    def ranked(self, game: Game, actions: list[Action] | None = None) -> list[tuple[float, Action]]:
        """The options the bot weighs at a movement or march decision, best first, with its scores;
        the first is its choice. Other decisions: its choice alone (score 0). Used by the search bot."""
        actions = game.legal_actions() if actions is None else actions
        if game.decision == "movement":
            return self._movement_ranked(game, actions)
        if game.decision == "march":
            return self._march_ranked(game, actions)
        return [(0.0, self.choose(game))]

    def _movement_ranked(self, game: Game, actions: list[Action]) -> list[tuple[float, Action]]:
        state = game.state
        scored: list[tuple[float, Action]] = [(1.0, EndMovement())]
        for action in actions:
            if isinstance(action, BeginMarch):
                orders = self._best_orders(game, action.origin)
                scored.append((sum(s for s, _ in orders if s > 0.5), action))
        potential = self.field(state, state.phasing)
        for action in actions:
            if isinstance(action, NavalMove):
                unit = state.units[action.unit]
                if not unit.on_map:  # AO-8.4: from Europe
                    score = potential[action.to]
                else:
                    score = potential[action.to] - potential[unit.location] - self._leave_cost(state, unit,
                                                                                                unit.location)
                scored.append((score * 0.5, action))  # a march per unit: dearer than land moves
            elif isinstance(action, Invade):
                unit = state.units[action.unit]
                defenders = [_spec(state, u) for u in state.units_in(action.port, Side.CONFEDERATE)]
                invaders = [_spec(state, u, crossing=True, entrenched=False)
                            for u in state.units_in(action.port, Side.UNION)] + [_spec(state, unit, crossing=True)]
                chance = _win_chance(tuple(sorted(invaders)), tuple(sorted(defenders))) if defenders else 1.0
                scored.append((chance * self._value(state, action.port, Side.UNION)
                               - self._leave_cost(state, unit, "washington"), action))
        # the first of equal scores wins (EndMovement unless something beats it)
        order = sorted(range(len(scored)), key=lambda i: (-scored[i][0], i))
        return [scored[i] for i in order]

    def _movement(self, game: Game, actions: list[Action]) -> Action:
        return self._movement_ranked(game, actions)[0][1]

    def _march_ranked(self, game: Game, actions: list[Action]) -> list[tuple[float, Action]]:
        legal = set(actions)
        orders = [(s, a) for s, a in self._best_orders(game, game.march_origin) if a in legal]
        orders.sort(key=lambda sa: -sa[0])
        end = [(0.3, EndMarch() if EndMarch() in legal else actions[0])]
        if orders and orders[0][0] > 0.3:
            return orders + end
        return end + orders

    def _march(self, game: Game, actions: list[Action]) -> Action:
        return self._march_ranked(game, actions)[0][1]

    # ------------------------------------------------------------------ combat
    def _odds_now(self, game: Game, side: Side) -> float:
        state = game.state
        battle = state.battle
        mine = [_spec(state, u, crossing=u.crossing and side is battle.attacker and battle.round <= 2)
                for u in combat.battle_units(state, battle, side)]
        theirs = [_spec(state, u, crossing=u.crossing and side is battle.defender and battle.round <= 2)
                  for u in combat.battle_units(state, battle, side.enemy)]
        attackers, defenders = (mine, theirs) if side is battle.attacker else (theirs, mine)
        if len(attackers) > 5 or len(defenders) > 4:  # the whole of both forces, simulated (fixed seed)
            chance = odds(attackers, defenders, method="monte carlo", samples=2_000).attacker_wins
        else:
            chance = _win_chance(tuple(sorted(attackers)), tuple(sorted(defenders)))
        return chance if side is battle.attacker else 1.0 - chance

    def _battle_options(self, game: Game, actions: list[Action]) -> Action:
        side = game.state.battle.firing
        chance = self._odds_now(game, side)
        reinforcements = [a for a in actions if isinstance(a, Reinforce)]
        if reinforcements and chance < 0.75:
            state = game.state
            return max(reinforcements, key=lambda a: (state.units[a.unit].type.value,
                                                      -self._leave_cost(state, state.units[a.unit],
                                                                        state.units[a.unit].location), a.unit))
        retreats = [a for a in actions if isinstance(a, Retreat)]
        if retreats and chance < 0.2:
            potential = self.field(game.state, side)
            return max(retreats, key=lambda a: (potential[a.to], a.to))
        return OpenFire() if OpenFire() in actions else actions[-1]

    def _targets(self, game: Game, actions: list[Action]) -> Action:
        return FireAuto()

    def _leader_points(self, game: Game, actions: list[Action]) -> Action:
        """AO-8.2.2: each point where ``combat.leader_point_shot`` puts it (the odds assume the same)."""
        state, battle = game.state, game.state.battle
        values = [combat.effective_value(state, battle, state.units[s], state.units[t]) for s, t in battle.targets]
        given = [sum(1 for _, uid in battle.leader_points if uid == s) for s, _ in battle.targets]
        shot = combat.leader_point_shot(values, given, "H-2" in state.options)
        if shot is not None:
            shooter = battle.targets[shot][0]
            for action in actions:
                if isinstance(action, LeaderPoint) and action.unit == shooter:
                    return action
        return actions[0]  # every point must be given (AO-8.2.2), even where it cannot help

    def _firers(self, game: Game, actions: list[Action]) -> Action:
        """A-7 (c): the most valuable units fire (as the odds assume), as many as the command allows."""
        return self._best_unit(game, [a for a in actions if isinstance(a, ChooseFirer)]) or actions[-1]

    def _rally(self, game: Game, actions: list[Action]) -> Action:
        """AO-8.11: the most valuable routed unit returns to the fighting (as the odds assume)."""
        return self._best_unit(game, [a for a in actions if isinstance(a, Rally)]) or actions[-1]

    @staticmethod
    def _best_unit(game: Game, actions: list[Action]) -> Action | None:
        """Of actions naming a unit, the one of the most valuable unit (the first on ties)."""
        units = game.state.units
        return max(actions, key=lambda a: units[a.unit].type.value, default=None)

    def _cavalry_retreat(self, game: Game, actions: list[Action]) -> Action:
        if self._odds_now(game, game.state.battle.defender) < 0.4:
            potential = self.field(game.state, game.state.battle.defender)
            retreats = [a for a in actions if isinstance(a, CavalryRetreat)]
            return max(retreats, key=lambda a: (potential[a.to], a.to))
        return HoldGround()

    # ------------------------------------------------------------------ promotion and recruitment
    def _promote_choice(self, game: Game, actions: list[Action]) -> Action:
        state = game.state
        promotions = [a for a in actions if isinstance(a, Promote)]
        if not promotions:
            return NoPromotion()

        def score(action: Promote) -> tuple:
            unit = state.units[action.unit]
            threat = self._threat(state, unit.location, unit.side)
            gain = 2 if unit.type.quality == "militia" else 1
            return (gain * (1 + threat), self._value(state, unit.location, unit.side), action.unit)
        return max(promotions, key=score)

    _promotion = _battle_promotion = _promote_choice

    def _recruitment(self, game: Game, actions: list[Action]) -> Action:
        state = game.state
        recruits = [a for a in actions if isinstance(a, Recruit)]
        if not recruits:
            return EndRecruitment()
        side = state.phasing

        def score(action: Recruit) -> tuple:
            threat = self._threat(state, action.box, side)
            front = self.field(state, side)[action.box]
            return (threat * 3 + front + self._value(state, action.box, side) * 0.2 + (action.unit_type == "MF"),
                    action.box, action.unit_type)
        return max(recruits, key=score)
