"""A campaign plan for the search bot: gather the army next to the enemy's strongest objective, then
storm it with everything that can reach it (the heuristic weighs each unit's move alone, so it never
gathers the army a fortress needs).

At each movement decision of its side: the *objective* (an enemy-held objective with defenders: 11.a's
seven cities for the Union, Washington for the Confederacy); *storm* it when the units that can reach it
this turn have ``odds`` to win, the biggest stack first; else *gather* spare units (above the garrison
the heuristic wants kept) at the staging box next to it when the heuristic is idle. Options, all off by
default (``ahd.bots.levels`` says which level uses which): ``guard``, ``choose``, ``grab``,
``grab_fight``, ``push``, ``endgame``, ``sally``, ``capital``, ``finish``, ``retake``, ``clear``; each is
described where it acts below. Why each exists and the games that measured it:
``docs/bots/campaign.md`` and ``docs/bots/hard_union_probe.txt``.

A plan is a march: its ``Orders`` name the origin and each unit's destination; ``follow`` gives the
next order of it (shortest path first) and ends the march when none is left.
"""
from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from ..core import movement
from ..core.actions import Action, BeginMarch, EndMarch, EndMovement, Move, OpenFire, Reinforce
from ..core.board import VICTORY_CITIES
from ..core.game import Game
from ..core.i18n import Msg, Msgn, Term
from .plan_lines import gather_line
from .heuristic import CAPITAL, HeuristicBot, _distances, _win_chance, attack_forces
from ..odds import odds
from ..core.sides import Side
from ..core.state import State
from ..core.units import Unit


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
                 guard: bool = False, choose: str = "strongest", grab: bool = False, endgame: int = 0,
                 push: bool = False, sally: bool = False, grab_fight: bool = False, capital: bool = False,
                 finish: bool = False, retake: bool = False, clear: bool = False) -> None:
        if choose not in ("strongest", "weakest"):
            raise ValueError(f"choose must be 'strongest' or 'weakest', got {choose!r}")
        self.heuristic = heuristic
        self.odds = odds
        self.idle = idle
        self.samples = samples
        self.guard = guard
        self.choose = choose
        self.grab = grab  # also take enemy-held objectives left empty (see _grab)
        self.grab_fight = grab_fight  # ... and attack a stack of one or two in the way (the odds a storm needs)
        self.endgame = endgame  # from this turn on, gather whenever no storm is possible (0: never)
        self.push = push  # when the objective can be neither stormed nor gathered for, try the others
        self.sally = sally  # the capital storms a stack near it without keeping a garrison against it
        self.capital = capital  # the capital keeps its garrison when a battle next door asks for reinforcements
        self.retake = retake  # storm the enemy-held recruiting cities worth 2 or more to the maxima (see march)
        self.finish = finish  # in the endgame: gather for the objectives before the guard's stack (see march)
        self.clear = clear  # in the endgame: storm an enemy stack that bars spare units from the staging box
        self.last: str | None = None  # the last objective (``choose="weakest"`` keeps it)
        self.plan: Msg | None = None  # the last plan in words, e.g. "gathering at Fredericksburg to storm ..."

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
        begins = {a.origin: a for a in actions if isinstance(a, BeginMarch)}
        target = self.objective(state, side)
        targets = [] if target is None else [target]
        if self.push and target is not None:
            targets += self._others(state, side, target)
        late = self._late(state)
        idle = late or best_score < self.idle
        retake = self._retake(state, side, targets) if self.retake else []
        for box in targets[:1] + retake + targets[1:]:
            storm = self._storm(state, side, box, begins)
            if storm is not None:
                return storm
        if self.finish and late:
            # the war is won only by the objectives: stacks next to our capital that cannot be stormed are
            # gathered for last (the capital's garrison stays: only spare units gather)
            targets = sorted(targets, key=lambda box: box not in objectives(side))
        if self.grab:
            grab = self._grab(state, side, begins, idle)
            if grab is not None:
                return grab
        if not idle:
            return None
        ends: dict[str, list[str]] = {}  # each unit's moves, worked out once for every target
        if self.clear and late:
            for box in targets:
                clear = self._clear(state, side, box, begins, ends)
                if clear is not None:
                    return clear
        for box in targets:
            gather = self._gather(state, side, box, begins, ends)
            if gather is not None:
                return gather
        return None

    def _retake(self, state: State, side: Side, targets: list[str]) -> list[str]:
        """``retake``: the recruiting cities the enemy holds with units in them that move the army maxima by 2
        or more (ours lost to a raid, Philadelphia, Baltimore, or theirs), the biggest swing first."""
        boxes = state.board.boxes
        swing = {box: boxes[box].value_for(side) + boxes[box].value_for(side.enemy)
                 for box, units in state.by_box.items() if box not in targets and boxes[box].is_recruiting_city
                 and state.control[box] is not side and any(u.side is side.enemy for u in units)}
        return sorted((box for box, worth in swing.items() if worth >= 2), key=lambda box: (-swing[box], box))

    def _others(self, state: State, side: Side, first: str) -> list[str]:
        """The other enemy-held objectives with defenders, the weakest (fewest defenders) first."""
        held = [box for box in objectives(side) if box != first and state.control[box] is not side
                and state.has_units(box, side.enemy)]
        return sorted(held, key=lambda box: (state.count_in(box, side.enemy), box))

    def _grab(self, state: State, side: Side, begins: dict[str, BeginMarch], idle: bool):
        """An objective the enemy holds with no units in it: send one spare unit that can reach it this
        march (the heuristic weighs cities near its units only, so it leaves far ones, reached by river or
        rail, to the end of the war); when ``idle`` and none can reach one, bring the nearest spare unit
        closer. An objective of ours keeps one unit (a lone raider would walk in)."""
        empty = [box for box in objectives(side) if state.control[box] is not side
                 and not state.has_units(box, side.enemy)]
        if not empty:
            return None
        dist = _distances(state.board)
        best = None
        for origin in sorted(begins):
            keep = self.heuristic._garrison_need(state, origin, side)
            if origin in objectives(side) and state.control[origin] is side:
                keep = max(keep, 1)
            spare = state.count_in(origin, side) - keep
            if spare <= 0:
                continue
            here = min(dist[origin].get(box, 99) for box in empty)
            reach: dict[str, list[tuple[Unit, bool]]] = {}  # with ``grab_fight``: who can attack each enemy box
            for unit in sorted(state.units_in(origin, side), key=lambda u: (u.type.value, u.id)):
                if movement._ready(state, unit) is not None:
                    continue
                for path, _ in movement.legal_paths(state, unit):
                    end = path[-1]
                    if state.has_units(end, side.enemy):
                        if self.grab_fight and state.count_in(end, side.enemy) <= 2:
                            reach.setdefault(end, []).append((unit, state.board.enters_over_water(end, path[-2])))
                        continue
                    left = min(dist[end].get(box, 99) for box in empty)
                    if left and left >= here:  # no nearer (another unit may be: do not let this one hide it)
                        continue
                    key = (left, 0, len(path), origin, unit.id)
                    if best is None or key < best[0]:
                        best = (key, origin, {unit.id: end}, end)
            for end, movers in sorted(reach.items()):
                # a small enemy stack on the way (a raider in Jackson between our units and New Orleans):
                # the spare units that can reach it attack together, the strongest first, at the odds a
                # storm needs
                group = sorted({u.id: (u, c) for u, c in movers}.values(), key=lambda m: (-m[0].type.value, m[0].id))
                group = group[:spare]
                attackers, defenders = attack_forces(state, end, side, group)
                if _win_chance(tuple(sorted(attackers[:5])), tuple(sorted(defenders[:4]))) < self._needed(state):
                    continue
                left = min(dist[end].get(box, 99) for box in empty)
                if left and left >= here:
                    continue
                key = (left, 1, 1, origin, group[0][0].id)
                if best is None or key < best[0]:
                    best = (key, origin, {u.id: end for u, _ in group}, end)
        if best is None:
            return None
        (left, *_), origin, moves, end = best
        if left > 0 and not idle:
            return None
        target = min(empty, key=lambda box: (dist[end].get(box, 99), box))
        self.plan = (Msg("taking {box}, left without defenders", box=state.board.term(target)) if left == 0 else
                     Msg("marching on {box}, left without defenders", box=state.board.term(target)))
        return begins[origin], Orders(side, state.turn, origin, moves)

    def reinforcement(self, game: Game, actions: list[Action], choice: Action) -> Action:
        """With ``capital``: the heuristic's battle choice, unless it is a reinforcement from the capital that
        leaves fewer units there than the heuristic's garrison for it (counting the enemy stacks near it,
        the one in the battle too); then the strongest reinforcement from elsewhere, else open fire (the
        heuristic reinforces a losing battle with every unit that can; the games that measured it:
        ``docs/bots/campaign.md``)."""
        state = game.state
        side = state.battle.firing
        capital = CAPITAL[side]
        if not isinstance(choice, Reinforce) or state.units[choice.unit].location != capital:
            return choice
        if state.count_in(capital, side) - 1 >= self.heuristic._garrison_need(state, capital, side):
            return choice
        others = [a for a in actions if isinstance(a, Reinforce) and state.units[a.unit].location != capital]
        if others:
            return max(others, key=lambda a: (state.units[a.unit].type.value, a.unit))
        return OpenFire() if OpenFire() in actions else choice

    def storm_odds(self, state: State, side: Side, target: str, stacks: list[tuple[str, list]]) -> float:
        """The attacker's odds if these stacks (origin, units) all march into ``target`` this turn."""
        attackers, defenders = attack_forces(state, target, side, [
            (u, state.board.enters_over_water(target, origin)) for origin, units in stacks for u in units])
        return _chance(tuple(attackers), tuple(defenders), self.samples)

    def _late(self, state: State) -> bool:
        """From the ``endgame`` turn on (never without it)."""
        return bool(self.endgame) and state.turn >= self.endgame

    def _needed(self, state: State) -> float:
        """The odds a storm needs: ``odds``; near the last turn a long chance beats the certain loss of
        11.b(3), so from turn ``endgame`` they fall evenly to 30% at turn 38."""
        if not self._late(state):
            return self.odds
        step = (state.turn - self.endgame + 1) / max(1, 38 - self.endgame + 1)
        return max(min(self.odds, 0.3), self.odds - (self.odds - 0.3) * step)

    def _storm(self, state: State, side: Side, target: str, begins: dict[str, BeginMarch]):
        dist = _distances(state.board)
        stacks = []
        for origin in sorted(begins):
            if dist[origin].get(target, 99) > 3:  # no move reaches further (T-3)
                continue
            units = [u for u in state.units_in(origin, side) if movement._ready(state, u) is None
                     and any(path[-1] == target for path, _ in movement.legal_paths(state, u))]
            if self.guard and state.control[origin] is side:  # a city keeps its garrison (the capital above all)
                keep = self._keep(state, origin, side, target) - (state.count_in(origin, side) - len(units))
                if keep > 0:
                    units = sorted(units, key=lambda u: (-u.type.value, u.id))[:max(0, len(units) - keep)]
            if units:
                stacks.append((origin, units))
        stacks.sort(key=lambda s: -len(s[1]))
        stacks = stacks[:state.marches_left]
        if not stacks:
            return None
        already = state.has_units(target, side)  # a storm begun this turn goes on
        chance = None if already else self.storm_odds(state, side, target, stacks)
        if chance is not None and chance < self._needed(state):
            return None
        origin, units = stacks[0]
        if chance is not None:
            count = sum(len(u) for _, u in stacks)  # (not in the call: Babel's extraction reads its comma)
            self.plan = Msgn("storming {target} from {origin}, {chance:.0%} with {n} unit",
                             "storming {target} from {origin}, {chance:.0%} with {n} units",
                             n=count, target=_name(state, target), origin=_name(state, origin), chance=chance)
        return begins[origin], Orders(side, state.turn, origin, {u.id: target for u in units})

    def _keep(self, state: State, origin: str, side: Side, target: str) -> int:
        """The garrison ``origin`` keeps when its units storm ``target``: the heuristic's, but with
        ``sally`` the capital does not count the stack it storms among its threats (with shared
        garrisons a stack of 4 next to Washington kept 5 of its 6 units home, and grew there to 13)."""
        heuristic = self.heuristic
        need = heuristic._garrison_need(state, origin, side)
        if self.sally and origin == CAPITAL[side] and heuristic.garrison == "shared":
            threat = heuristic._shared_threat(state, origin, side) - state.count_in(target, side.enemy)
            need = min(need, max(2, (threat + 1) // 2 + 1) if threat > 0 else 1)
        return need

    def _stage(self, state: State, side: Side, target: str) -> str | None:
        """The box next to ``target`` to gather at: ours with the most of our units (in the endgame with
        ``finish``, an empty box next to it if none is ours); None if every box next to it has enemy units."""
        free = [b for b in state.board.neighbours(target) if not state.has_units(b, side.enemy)]
        staging = [b for b in free if state.control[b] is side]
        if not staging and self.finish and self._late(state):
            staging = free  # in the endgame a box next to it we do not hold will do
        return max(staging, key=lambda b: (state.count_in(b, side), b), default=None)

    def _clear(self, state: State, side: Side, target: str, begins: dict[str, BeginMarch],
               ends: dict[str, list[str]]):
        """``clear``: a box with spare units none of which can come nearer the staging box for ``target``
        (an enemy stack bars the way) storms the enemy stack next to it that lies nearer, at the odds a storm
        needs, the smallest stack first."""
        stage = self._stage(state, side, target)
        if stage is None:
            return None
        to_stage = _distances(state.board)[stage]
        barring = set()
        for origin in sorted(begins):
            here = to_stage.get(origin, 99)
            if here <= 1 or state.count_in(origin, side) <= self.heuristic._garrison_need(state, origin, side):
                continue
            if any(to_stage.get(end, 99) < here for unit in state.units_in(origin, side)
                   if movement._ready(state, unit) is None for end in _free_ends(state, side, unit, ends)):
                continue
            barring.update(b for b in state.board.neighbours(origin)
                           if state.has_units(b, side.enemy) and to_stage.get(b, 99) < here)
        for box in sorted(barring, key=lambda b: (state.count_in(b, side.enemy), b)):
            storm = self._storm(state, side, box, begins)
            if storm is not None:
                return storm
        return None

    def _gather(self, state: State, side: Side, target: str, begins: dict[str, BeginMarch],
                ends: dict[str, list[str]]):
        stage = self._stage(state, side, target)
        if stage is None:
            return None
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
                reach = [(to_stage.get(end, 99), end) for end in _free_ends(state, side, unit, ends)]
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
        chance = _chance(tuple(attackers), tuple(defenders), min(self.samples, 500))
        self.plan = gather_line(state, side, stage, target, len(gathered), chance)
        return begins[origin], Orders(side, state.turn, origin, moves)


def _free_ends(state: State, side: Side, unit, ends: dict[str, list[str]]) -> list[str]:
    """The boxes without enemy units where ``unit`` can end a move, kept in ``ends`` (one decision's)."""
    if unit.id not in ends:
        ends[unit.id] = [path[-1] for path, _ in movement.legal_paths(state, unit)
                         if not state.has_units(path[-1], side.enemy)]
    return ends[unit.id]


@lru_cache(maxsize=4096)
def _chance(attackers: tuple[str, ...], defenders: tuple[str, ...], samples: int) -> float:
    """The attacker's odds of a battle (``ahd.odds``: exact when small, else ``samples`` battles simulated
    with a fixed seed), kept: a storm asks for the same battle at each march of the turn, and a game asked
    for it 141 times at 40 ms each."""
    return odds(list(attackers), list(defenders), samples=samples).attacker_wins


def _name(state: State, box: str) -> Term:
    """A box's name as a message parameter (said in the language the plan line is read in)."""
    return state.board.term(box)


def idle_score(ranked: list[tuple[float, Action]]) -> float:
    """The heuristic's score of its choice, 0 when it would end movement."""
    score, action = ranked[0]
    return 0.0 if isinstance(action, EndMovement) else score
