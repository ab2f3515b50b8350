"""Exact battle odds (§5) by a Markov chain over battle states.

A battle state is the round class (1, 2, or 3 = any later round: from round 3 on nothing depends on
the round), whose firing moment it is, each side's units (type, strength, entrenched, crossing) and the
reinforcements used. A firing moment's result factorises over targets: the hits on one target are a
sum of independent shots, capped by what the target can take. Rounds 3+ can repeat a state only when
every shot of a whole round misses; that two-step cycle is solved in closed form. Everything else
strictly loses strength points or uses reserves, so the recursion terminates.

Policies (the defaults are the engine's automatic choices): firing = the engine's ``FireAuto``
spread (``combat.greedy_targets``); retreat = ``"never"`` (the engine never retreats on its own),
``"outnumbered"`` (retreat from round 2 when the enemy has at least twice your units) or a callable
``(own_units, enemy_units, round) -> bool``; reinforcements = ``reserves`` arriving one per own firing
moment from round 2; leader points (AO-8.2.2) = ``attacker_leaders`` / ``defender_leaders`` points each
firing moment, spread over the shots by ``combat.leader_points_plan`` (the heuristic bot's choice too).
A-7 command limits and AO-8.1 morale (with AO-8.11 rally) are left to the simulation
(:mod:`ahd.montecarlo`): with one of them on, ``battle_odds`` refuses and ``odds``/``odds_for``
simulate (``SIMULATED``, ``not_modelled``). tests/ check both methods against 3,000 battles fought by
the engine itself.

Where exact stops: states are multisets (each side's units sorted), so identical units are never
told apart, yet a battle of 5-8 mixed units a side still has from tens of thousands to millions
of reachable states, and the exact method takes seconds to minutes there; up to 4 a side it takes a
few milliseconds. ``odds(...)`` (and ``odds_for``) therefore answer exactly up to
``AUTO_MAX_STATES`` states and otherwise by ``simulate_battles``, saying which in ``result.method``.
So exact stops at ``AUTO_MAX_STATES`` (2,000) states: nearly every battle of up to 4 units a side, almost
no mixed battle of 5-8. Beyond it the sampled answer (5,000 battles in numpy, a standard error of at
most 0.7 points) takes about 20-50 ms for 5-8 units a side (``python -m ahd bench --odds`` prints the
figures).
"""
from __future__ import annotations

import heapq
import math
from collections import defaultdict
from functools import lru_cache
from typing import Sequence

from ..core import combat
from ..core.options import Options
from ..core.units import REDUCED, UNIT_TYPES
from .battle import (ATTACKER, DEFAULT_MAX_STATES, DEFENDER, SIMULATED, SURVIVORS, BattleOdds, Fighter,  # noqa: F401
                     OddsError, _CODES, _CRACK, _CROSSING, _ENTRENCHED, _REDUCED, _TYPE_VALUE, _decode, _encode,
                     _expand, _fighters, _never, _retreat_policy, leader_points, not_modelled)


class _Unit:
    """What ``combat.greedy_targets`` needs of a unit."""

    __slots__ = ("id", "type", "strength", "fighter")

    def __init__(self, uid: str, code: int) -> None:
        self.id = uid
        self.type = UNIT_TYPES[_CODES[code >> 3]]
        self.strength = REDUCED if code & _REDUCED else "full"
        self.fighter = code


def _as_units(prefix: str, fighters: Sequence[int]) -> list[_Unit]:
    counters: dict[int, int] = defaultdict(int)
    units = []
    for f in fighters:
        counters[f >> 3] += 1
        units.append(_Unit(f"{prefix}-{_CODES[f >> 3]}-{counters[f >> 3]:02d}", f))
    return units


# --------------------------------------------------------------------------- the chain
def _points(units: tuple[int, ...]) -> int:
    return sum(1 if u & _REDUCED else 2 for u in units)


class _Chain:
    """Forward propagation of probability mass over battle states, in an order where every state is
    processed after all states that can lead to it: reinforcements used (ascending), strength points
    (descending), round class, then the defender's moment before the attacker's."""

    def __init__(self, options: Options, retreat: dict, reserves: dict, max_states: int,
                 points: dict | None = None) -> None:
        self.options = options
        self.points = points or {ATTACKER: 0, DEFENDER: 0}
        self.h2 = "H-2" in options
        self.retreat = retreat
        self.reserves = reserves
        self.max_states = max_states
        self.mass: dict[tuple, float] = {}
        self.queue: list = []
        self.ends: dict[tuple, float] = defaultdict(float)  # (winner, attackers, defenders) -> p
        self.round_starts = 0.0  # expected number of new rounds begun
        self.seen = 0

    @staticmethod
    def key(state: tuple) -> tuple:
        rnd, firing, att, dfn, used_a, used_d, _ = state
        return (used_a + used_d, -(_points(att) + _points(dfn)), rnd, firing != DEFENDER, state)

    def add(self, state: tuple, p: float) -> None:
        if p == 0.0:
            return
        if state in self.mass:
            self.mass[state] += p
            return
        self.mass[state] = p
        self.seen += 1
        if self.seen > self.max_states:
            raise OddsError(f"battle too large for exact odds (over {self.max_states} states); "
                            f"use ahd.odds.simulate_battles")
        heapq.heappush(self.queue, self.key(state))

    def end(self, winner: str, att: tuple, dfn: tuple, p: float) -> None:
        self.ends[(winner, att, dfn)] += p

    def run(self, start: tuple) -> None:
        self.add(start, 1.0)
        while self.queue:
            state = heapq.heappop(self.queue)[-1]
            p = self.mass.pop(state, 0.0)
            if p:
                self.step(state, p)

    def opening(self, state: tuple, p: float) -> bool:
        """The firing side's options at the start of its moment: retreat, then reinforcement.
        Returns True if the mass was passed on (the moment itself does not happen here)."""
        rnd, firing, att, dfn, used_a, used_d, reinforced = state
        if reinforced:  # this moment's reinforcement has come: no retreat, no second one
            return False
        own, enemy = (att, dfn) if firing == ATTACKER else (dfn, att)
        if rnd >= 2 and self.retreat[firing](len(own), len(enemy), rnd):
            self.end(DEFENDER if firing == ATTACKER else ATTACKER, att, dfn, p)
            return True
        used = used_a if firing == ATTACKER else used_d
        pool = self.reserves[firing]
        if rnd >= 2 and used < len(pool):
            arrival = pool[used]
            if firing == ATTACKER:
                self.add((rnd, firing, tuple(sorted(att + (arrival,))), dfn, used_a + 1, used_d, True), p)
            else:
                self.add((rnd, firing, att, tuple(sorted(dfn + (arrival,))), used_a, used_d + 1, True), p)
            return True
        return False

    def fire(self, state: tuple, p: float, skip_same: bool = False) -> float:
        """Pass the mass of one firing moment on; returns the probability that nothing changed
        (that part is passed on too unless ``skip_same``)."""
        rnd, firing, att, dfn, used_a, used_d, _ = state
        shooters, enemies = (att, dfn) if firing == ATTACKER else (dfn, att)
        same = 0.0
        for q, after in _volley(self.options, self.h2, firing, rnd, shooters, enemies, self.points[firing]):
            if after == enemies:
                same += q
                if skip_same:
                    continue
            if not after:
                if firing == ATTACKER:
                    self.end(ATTACKER, att, (), p * q)
                else:
                    self.end(DEFENDER, (), dfn, p * q)
            elif firing == DEFENDER:
                self.add((rnd, ATTACKER, after, dfn, used_a, used_d, False), p * q)
            else:
                self.round_starts += p * q
                self.add((min(rnd + 1, 3), DEFENDER, att, after, used_a, used_d, False), p * q)
        return same

    def step(self, state: tuple, p: float) -> None:
        if self.opening(state, p):
            return
        rnd, firing, att, dfn, used_a, used_d, reinforced = state
        if rnd < 3 or reinforced:
            self.fire(state, p)
            return
        if firing == ATTACKER:
            # reached only if the defender's moment of the same units was never visited at round 3+
            self.fire(state, p)
            return
        # rounds 3+: defender's moment D and attacker's moment A of the same units form a block; all
        # misses in both send the mass round the loop. Visits: V_D = m_D + q_A V_A, V_A = m_A + q_D V_D.
        a_state = (3, ATTACKER, att, dfn, used_a, used_d, False)
        m_a = self.mass.pop(a_state, 0.0)
        q_d = sum(q for q, after in _volley(self.options, self.h2, DEFENDER, 3, dfn, att, self.points[DEFENDER])
                  if after == att)
        if self.opening(a_state, 1.0):  # the attacker retreats or is reinforced at A: no loop
            self._undo_opening(a_state)
            self.fire(state, p)
            if m_a:
                self.add(a_state, m_a)
            return
        q_a = sum(q for q, after in _volley(self.options, self.h2, ATTACKER, 3, att, dfn, self.points[ATTACKER])
                  if after == dfn)
        loop = q_d * q_a
        if loop >= 1.0:
            raise OddsError("neither side can ever hit the other: the battle never ends")
        v_d = (p + q_a * m_a) / (1.0 - loop)
        v_a = m_a + q_d * v_d
        self.fire(state, v_d, skip_same=True)
        self.fire(a_state, v_a, skip_same=True)
        self.round_starts += v_a * q_a  # every all-miss attacker moment begins a new round

    def _undo_opening(self, a_state: tuple) -> None:
        """``opening`` was called with a probe mass of 1 to test for a retreat/reinforcement; take it back."""
        rnd, firing, att, dfn, used_a, used_d, _ = a_state
        if self.retreat[ATTACKER](len(att), len(dfn), rnd):
            self.ends[(DEFENDER, att, dfn)] -= 1.0
            if abs(self.ends[(DEFENDER, att, dfn)]) < 1e-15:
                del self.ends[(DEFENDER, att, dfn)]
            return
        arrival = self.reserves[ATTACKER][used_a]
        nxt = (rnd, ATTACKER, tuple(sorted(att + (arrival,))), dfn, used_a + 1, used_d, True)
        self.mass[nxt] -= 1.0
        if abs(self.mass[nxt]) < 1e-15:
            del self.mass[nxt]


def _ids(prefix: str, fighters: Sequence[int]) -> list[str]:
    counters: dict[int, int] = defaultdict(int)
    out = []
    for f in fighters:
        counters[f >> 3] += 1
        out.append(f"{prefix}-{_CODES[f >> 3]}-{counters[f >> 3]:02d}")
    return out




@lru_cache(maxsize=200_000)
def _assignment(options: Options, firing: str, rnd: int, shooters: tuple, enemies: tuple, points: int = 0) -> tuple:
    """The default firing policy for int-encoded units: ((shooter index, target index, hit chance), ...),
    with ``points`` leader points (AO-8.2.2) spread over the shots by ``combat.leader_points_plan``.

    Without O-2.2 this is ``combat.greedy_targets`` computed directly on the codes (its legality
    filter under 5.1.a never changes the greedy choice: uncovered targets come first, and once none is
    left every target is legal); ``tests/test_odds.py`` checks the two agree. With O-2.2 it calls
    the engine's function."""
    if "O-2.2" in options:
        return _assignment_engine(options, firing, rnd, shooters, enemies, points)
    bonus = firing == DEFENDER and rnd <= 2
    h2 = "H-2" in options
    e_ids = _ids("E", enemies)
    # an effective value is the shooter's value plus a term of the target's alone (5.2.a), so every
    # shooter ranks the enemies alike: by that term, then reduced, more valuable, by id
    term = [combat.shot_value(0, crossing_bonus=bonus and bool(t & _CROSSING), target_entrenched=bool(t & _ENTRENCHED),
                              target_crack_infantry=_CRACK[t >> 3]) for t in enemies]
    ranking = sorted(range(len(enemies)), reverse=True,
                     key=lambda j: (term[j], bool(enemies[j] & _REDUCED), _TYPE_VALUE[enemies[j] >> 3], e_ids[j]))
    # best shot first (stable: ties keep the shooters' order); each takes the best enemy not yet
    # covered, and once all are covered the best one
    order = sorted(range(len(shooters)), key=lambda i: -_TYPE_VALUE[shooters[i] >> 3])
    shots = []
    for rank, i in enumerate(order):
        j = ranking[rank] if rank < len(ranking) else ranking[0]
        shots.append((i, j, _TYPE_VALUE[shooters[i] >> 3] + term[j]))
    return _with_points(shots, points, h2)


def _with_points(shots: list[tuple[int, int, int]], points: int, h2: bool) -> tuple:
    """(shooter, target, effective value) shots -> (shooter, target, hit chance), leader points given."""
    values = combat.leader_points_plan([v for _, _, v in shots], points, h2)
    return tuple((i, j, combat.hit_probability(v, h2)) for (i, j, _), v in zip(shots, values))


def _assignment_engine(options: Options, firing: str, rnd: int, shooters: tuple, enemies: tuple,
                       points: int = 0) -> tuple:
    """``_assignment`` by the engine's own ``combat.greedy_targets`` (any options)."""
    shooter_units = _as_units("S", shooters)
    enemy_units = _as_units("E", enemies)
    bonus = firing == DEFENDER and rnd <= 2

    def value(s: _Unit, t: _Unit) -> int:
        return combat.shot_value(s.type.value, crossing_bonus=bonus and bool(t.fighter & _CROSSING),
                                 target_entrenched=bool(t.fighter & _ENTRENCHED),
                                 target_crack_infantry=t.type.is_crack_infantry)

    targets = combat.greedy_targets(shooter_units, enemy_units, [], value,
                                    lambda ts: combat.declaration_feasible(options, shooter_units, enemy_units, ts))
    index = {u.id: i for i, u in enumerate(shooter_units)} | {u.id: i for i, u in enumerate(enemy_units)}
    by_id = {u.id: u for u in shooter_units + enemy_units}
    return _with_points([(index[s], index[t], value(by_id[s], by_id[t])) for s, t in targets], points, "H-2" in options)


@lru_cache(maxsize=200_000)
def _volley(options: Options, h2: bool, firing: str, rnd: int, shooters: tuple, enemies: tuple, points: int = 0):
    """[(p, enemies after)] for one firing moment of ``shooters`` at ``enemies`` (int-encoded).

    Targets alike (same code, same shots at them) are taken together: how many of them come out
    intact, reduced or destroyed is multinomial, so n alike targets give at most (n+2)(n+1)/2
    outcomes instead of 3^n."""
    shots: dict[int, list[float]] = defaultdict(list)
    for _, target, p in _assignment(options, firing, rnd, shooters, enemies, points):
        shots[target].append(p)
    alike: dict[tuple, int] = defaultdict(int)
    for index, code in enumerate(enemies):
        alike[(code, tuple(sorted(shots.get(index, ()))))] += 1
    results: dict[tuple, float] = {(): 1.0}
    for (code, ps), count in alike.items():
        hits = [1.0]  # distribution of the number of hits on one such target
        for p in ps:
            nxt = [0.0] * (len(hits) + 1)
            for k, q in enumerate(hits):
                nxt[k] += q * (1 - p)
                nxt[k + 1] += q * p
            hits = nxt
        if code & _REDUCED:  # one hit destroys a reduced unit
            intact, reduced, gone = hits[0], 0.0, sum(hits[1:])
        else:
            intact, reduced, gone = hits[0], sum(hits[1:2]), sum(hits[2:])
        damage: dict[tuple, float] = {}
        for k0 in range(count + 1):
            for k1 in range(count - k0 + 1):
                k2 = count - k0 - k1
                q = (math.comb(count, k0) * math.comb(count - k0, k1)
                     * intact ** k0 * reduced ** k1 * gone ** k2)
                if q:
                    part = (code,) * k0 + (code | _REDUCED,) * k1
                    damage[part] = damage.get(part, 0.0) + q
        combined: dict[tuple, float] = defaultdict(float)
        for rest, p in results.items():
            for part, q in damage.items():
                combined[rest + part] += p * q
        results = combined
    merged: dict[tuple, float] = defaultdict(float)
    for after, p in results.items():
        merged[tuple(sorted(after))] += p
    return [(p, after) for after, p in merged.items()]


def battle_odds(attacker: Sequence, defender: Sequence, *, round: int = 1, firing: str = DEFENDER,
                options=None, attacker_retreat="never", defender_retreat="never",
                attacker_reserves: Sequence = (), defender_reserves: Sequence = (),
                attacker_leaders: int = 0, defender_leaders: int = 0,
                year: int = 1861, attacker_side: str = "union", command: dict | None = None,
                max_states: int = DEFAULT_MAX_STATES) -> BattleOdds:
    """Exact odds of a battle as it stands.

    ``attacker`` / ``defender``: units as ``Fighter`` or strings like ``"FV"``, ``"MF:entrenched"``,
    ``"FS:crossing"``, ``"CV:reduced"``. ``round`` and ``firing`` say where the battle is (default: its
    start, the defender about to fire). Reserves arrive one per own firing moment from round 2 (5.2.4).
    ``attacker_leaders`` / ``defender_leaders``: the summed values of a side's leaders present (AO-8.2.2),
    that many +1 points each firing moment, spread by ``combat.leader_points_plan``.
    ``year``, ``attacker_side`` and ``command`` serve only the rules the chain does not model (A-7,
    AO-8.1: ``SIMULATED``); with one of those on it refuses, and ``odds`` simulates instead.
    """
    points = leader_points(attacker_leaders, defender_leaders)
    opts = Options.parse(options)
    if not_modelled(opts):
        raise OddsError(f"exact odds do not model {', '.join(not_modelled(opts))}: "
                        f"use odds() or simulate_battles, which simulate them")
    att, dfn = _fighters(attacker, "attacker"), _fighters(defender, "defender")
    if not isinstance(round, int) or isinstance(round, bool) or round < 1:
        raise OddsError(f"round must be a positive integer, got {round!r}")
    if firing not in (ATTACKER, DEFENDER):
        raise OddsError(f"firing must be 'attacker' or 'defender', got {firing!r}")
    if not att or not dfn:
        raise OddsError("both sides need at least one unit: a battle with an empty side is already over")
    reserves = {ATTACKER: tuple(Fighter.parse(u) for u in _expand(attacker_reserves, "attacker's reserves")),
                DEFENDER: tuple(Fighter.parse(u) for u in _expand(defender_reserves, "defender's reserves"))}
    for side in reserves:  # reinforcements are never entrenched or crossing
        reserves[side] = tuple(_encode(Fighter(f.code, f.reduced)) for f in reserves[side])
    chain = _Chain(opts, {ATTACKER: _retreat_policy(attacker_retreat), DEFENDER: _retreat_policy(defender_retreat)},
                   reserves, max_states, points)
    chain.run((min(round, 3), firing, tuple(sorted(map(_encode, att))), tuple(sorted(map(_encode, dfn))), 0, 0, False))
    att_w = sum(p for (w, *_), p in chain.ends.items() if w == ATTACKER)
    def_w = sum(p for (w, *_), p in chain.ends.items() if w == DEFENDER)
    survivors: dict[str, dict] = {ATTACKER: defaultdict(float), DEFENDER: defaultdict(float)}
    for (w, a, d), p in chain.ends.items():
        survivors[ATTACKER][tuple(map(_decode, a))] += p
        survivors[DEFENDER][tuple(map(_decode, d))] += p
    extra = chain.round_starts
    return BattleOdds(att_w, def_w, max(0.0, 1.0 - att_w - def_w), round + extra,
                      {k: dict(v) for k, v in survivors.items()}, chain.seen)


# --------------------------------------------------------------------------- exact or sampled
#: Where ``odds`` stops computing exactly. The exact chain costs roughly 0.02-0.1 ms per battle state
#: with cold caches (2-core Xeon), so up to this many states it answers within about the time of
#: ``AUTO_SAMPLES`` simulated battles (10-50 ms): battles of up to 4 units a side nearly all fit
#: (median ~1 ms). At 5-8 units a side almost none do (tens of thousands to millions of states:
#: seconds to minutes exactly), and they are sampled instead, a standard error of at most 0.7 points.
AUTO_MAX_STATES = 2_000
AUTO_SAMPLES = 5_000


def estimate_states(attacker: Sequence, defender: Sequence, attacker_reserves: Sequence = (),
                    defender_reserves: Sequence = ()) -> int:
    """An upper bound on the battle states the exact method can visit: the units taken as multisets
    (identical units grouped into counts per class: full/reduced/gone), times round classes, firing
    moments and reinforcements used."""
    total = 6 * (len(_expand(attacker_reserves, "attacker's reserves")) + 1) \
        * (len(_expand(defender_reserves, "defender's reserves")) + 1)
    for units, side in ((attacker, "attacker"), (defender, "defender")):
        classes: dict[tuple, list[int]] = defaultdict(lambda: [0, 0])
        for f in _fighters(units, side):
            classes[(f.code, f.entrenched, f.crossing)][f.reduced] += 1
        for full, reduced in classes.values():
            # full units end full, reduced or gone; reduced units reduced or gone; the side must be alive
            total *= math.comb(full + 2, 2) * (reduced + 1)
    return total
