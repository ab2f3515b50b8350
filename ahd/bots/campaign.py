"""A campaign plan for the search bot: gather the army next to the enemy's strongest objective, then
storm it with everything that can reach it.

Why: the heuristic weighs each unit's move alone, so it never gathers the army a fortress needs. Over
60 1861 games of the heuristic against itself the Union held six of its seven victory cities at the
end in 26 and took Richmond at some point in 3: from turn 15 on, 8 entrenched veterans and crack
units sat in Richmond, 9 Union veterans next door and 8 in Washington, and nothing moved for 25 turns.
9 veterans storming Richmond win 1% of the time; 15 win 80% (``ahd.odds``).

The plan, at each movement decision of its side:

- *objective*: of the enemy-held objectives (Union: the seven cities of 11.a; Confederacy:
  Washington, 11.b(1)) the one with the most enemy units; none if it is empty (the heuristic takes
  empty cities by itself);
- *storm*: the units able to reach it this turn, one march per box and no more boxes than marches
  left, biggest stacks first. If together they have at least ``odds`` to win (Monte Carlo odds, a
  fixed seed), the biggest stack marches in, every unit that can; the next movement decision sends
  the next stack (the battle is fought after the Movement segment);
- *gather*: otherwise, if the heuristic's best option is worth less than ``idle`` (it would end
  movement, or nearly), the box that can bring most units nearest the *staging box* (the one of ours
  next to the objective with the most of our units) marches them toward it; a box sends only the
  units above the garrison the heuristic wants it to keep.

A plan is a march: its ``Orders`` name the origin and each unit's destination; ``follow`` gives the
next order of it (shortest path first) and ends the march when none is left.
"""
from __future__ import annotations

from typing import NamedTuple

from ..core import movement
from ..core.actions import Action, BeginMarch, EndMarch, EndMovement, Move
from ..core.board import VICTORY_CITIES
from ..core.game import Game
from ..core.i18n import Msg, Msgn, Term
from .heuristic import CAPITAL, HeuristicBot, _distances, attack_forces
from ..odds import odds
from ..core.sides import Side
from ..core.state import State


class Orders(NamedTuple):
    """One planned march: ``side`` marches from ``origin`` in ``turn``, each named unit to its box."""

    side: Side
    turn: int
    origin: str
    moves: dict[str, str]


def objectives(side: Side) -> tuple[str, ...]:
    """The boxes whose capture wins the war for ``side`` (11.a, 11.b(1))."""
    return VICTORY_CITIES if side is Side.UNION else ("washington",)


def follow(orders: Orders | None, game: Game, actions: list[Action] | None = None) -> Action | None:
    """The next order of a planned march, ``EndMarch`` when its orders are done, or None when the
    plan is not for this march."""
    if orders is None or game.decision != "march":
        return None
    state = game.state
    if game.current_player is not orders.side or state.turn != orders.turn or game.march_origin != orders.origin:
        return None
    actions = game.legal_actions() if actions is None else actions
    moves = [a for a in actions if isinstance(a, Move) and orders.moves.get(a.unit) == a.path[-1]]
    if moves:
        return min(moves, key=lambda a: (len(a.path), a.unit, a.lines))
    return EndMarch() if EndMarch() in actions else None


class CampaignPlan:
    """Storm the enemy's strongest objective when the odds allow, gather toward it when idle."""

    def __init__(self, heuristic: HeuristicBot, *, odds: float = 0.6, idle: float = 2.0, samples: int = 2_000,
                 guard: bool = False, choose: str = "strongest") -> None:
        if choose not in ("strongest", "weakest"):
            raise ValueError(f"choose must be 'strongest' or 'weakest', got {choose!r}")
        self.heuristic = heuristic
        self.odds = odds
        self.idle = idle
        self.samples = samples
        self.guard = guard
        self.choose = choose
        self.last: str | None = None  # the last objective (``choose="weakest"`` keeps it)
        self.plan: Msg | None = None  # the last plan in words, e.g. "gathering at Fredericksburg to storm ..."
        self.plan_key: tuple[str, str, str] | None = None  # what the plan is, without its odds and size

    def objective(self, state: State, side: Side) -> str | None:
        """The box to storm: with ``guard`` on, an enemy stack next to our capital first (the biggest);
        else the enemy-held objective with the most enemy units (``choose="strongest"``) or the one
        where our units within three links outnumber its defenders most (``choose="weakest"``,
        keeping the last objective while it is still one)."""
        enemy = side.enemy
        if self.guard:
            capital = CAPITAL[side]
            near = [b for b in state.board.neighbours(capital) if state.has_units(b, enemy)]
            if near:
                return max(near, key=lambda box: (state.count_in(box, enemy), box))
        held = [box for box in objectives(side) if state.control[box] is not side and state.has_units(box, enemy)]
        if self.choose == "strongest" or not held:
            return max(held, key=lambda box: (state.count_in(box, enemy), box), default=None)
        if self.last in held:
            return self.last
        dist = _distances(state.board)

        def margin(box: str) -> tuple:
            ours = sum(1 for u in state.units_of(side) if u.on_map and dist[u.location].get(box, 99) <= 3)
            return ours - state.count_in(box, enemy), box
        self.last = max(held, key=margin)
        return self.last

    def march(self, game: Game, actions: list[Action], best_score: float) -> tuple[BeginMarch, Orders] | None:
        """At a movement decision: the march to begin and its orders, or None. ``best_score`` is the
        heuristic's score of its own choice (0 if it would end movement)."""
        state = game.state
        side = state.phasing
        target = self.objective(state, side)
        if target is None:
            return None
        begins = {a.origin: a for a in actions if isinstance(a, BeginMarch)}
        return self._storm(state, side, target, begins) or (
            self._gather(state, side, target, begins) if best_score < self.idle else None)

    def storm_odds(self, state: State, side: Side, target: str, stacks: list[tuple[str, list]]) -> float:
        """The attacker's odds if these stacks (origin, units) all march into ``target`` this turn."""
        attackers, defenders = attack_forces(state, target, side, [
            (u, state.board.enters_over_water(target, origin)) for origin, units in stacks for u in units])
        return odds(attackers, defenders, samples=self.samples).attacker_wins

    def _storm(self, state: State, side: Side, target: str, begins: dict[str, BeginMarch]):
        dist = _distances(state.board)
        stacks = []
        for origin in sorted(begins):
            if dist[origin].get(target, 99) > 3:  # no move reaches further (T-3)
                continue
            units = [u for u in state.units_in(origin, side) if movement._ready(state, u) is None
                     and any(path[-1] == target for path, _ in movement.legal_paths(state, u))]
            if self.guard and state.control[origin] is side:  # a city keeps its garrison (the capital above all)
                keep = self.heuristic._garrison_need(state, origin, side) - (state.count_in(origin, side) - len(units))
                if keep > 0:
                    units = sorted(units, key=lambda u: (-u.type.value, u.id))[:max(0, len(units) - keep)]
            if units:
                stacks.append((origin, units))
        stacks.sort(key=lambda s: -len(s[1]))
        stacks = stacks[:state.marches_left]
        if not stacks:
            return None
        already = state.has_units(target, side)  # a storm begun this turn goes on
        if not already and self.storm_odds(state, side, target, stacks) < self.odds:
            return None
        origin, units = stacks[0]
        if not already:
            chance = self.storm_odds(state, side, target, stacks)
            count = sum(len(u) for _, u in stacks)  # (not in the call: Babel's extraction reads its comma)
            self.plan = Msgn("storming {target} from {origin}, {chance:.0%} with {n} units",
                             "storming {target} from {origin}, {chance:.0%} with {n} units",
                             n=count, target=_name(state, target), origin=_name(state, origin), chance=chance)
            self.plan_key = ("storm", target, origin)
        return begins[origin], Orders(side, state.turn, origin, {u.id: target for u in units})

    def _gather(self, state: State, side: Side, target: str, begins: dict[str, BeginMarch]):
        staging = [b for b in state.board.neighbours(target)
                   if state.control[b] is side and not state.has_units(b, side.enemy)]
        if not staging:
            return None
        stage = max(staging, key=lambda b: (state.count_in(b, side), b))
        to_stage = _distances(state.board)[stage]
        best = None
        for origin in sorted(begins):
            if origin in (stage, target):
                continue
            spare = state.count_in(origin, side) - self.heuristic._garrison_need(state, origin, side)
            if spare <= 0:
                continue
            here = to_stage.get(origin, 99)
            moves = []
            for unit in state.units_in(origin, side):
                if movement._ready(state, unit) is not None:
                    continue
                reach = [(to_stage.get(path[-1], 99), path[-1]) for path, _ in movement.legal_paths(state, unit)
                         if not state.has_units(path[-1], side.enemy)]
                if reach:
                    d, box = min(reach)
                    if d < here:
                        moves.append((here - d, unit.id, box))
            moves = sorted(moves, key=lambda m: (-m[0], m[1]))[:spare]
            gain = sum(m[0] for m in moves)
            if gain and (best is None or gain > best[0]):
                best = (gain, origin, {uid: box for _, uid, box in moves})
        if best is None:
            return None
        _, origin, moves = best
        gathered = state.units_in(stage, side) + [state.units[uid] for uid in moves]
        attackers, defenders = attack_forces(state, target, side, [
            (u, state.board.enters_over_water(target, stage)) for u in gathered])
        chance = odds(attackers, defenders, samples=min(self.samples, 500)).attacker_wins
        self.plan = Msgn("gathering at {stage} to storm {target}, {chance:.0%} with {n} units",
                         "gathering at {stage} to storm {target}, {chance:.0%} with {n} units",
                         n=len(gathered), stage=_name(state, stage), target=_name(state, target), chance=chance)
        self.plan_key = ("gather", stage, target)
        return begins[origin], Orders(side, state.turn, origin, moves)


def _name(state: State, box: str) -> Term:
    """A box's name as a message parameter (said in the language the plan line is read in)."""
    return state.board.term(box)


def idle_score(ranked: list[tuple[float, Action]]) -> float:
    """The heuristic's score of its choice, 0 when it would end movement."""
    score, action = ranked[0]
    return 0.0 if isinstance(action, EndMovement) else score
