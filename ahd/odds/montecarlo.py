"""Vectorised Monte Carlo battles (numpy): many battles advanced together, one firing moment at a
time, under the same firing and retreat policies as the exact odds of :mod:`ahd.odds` (which
re-exports ``simulate_battles`` and ``SimulatedOdds``). For battles beyond the exact method's size,
and for the rules the exact chain leaves out: A-7 daily command (T-4 rolls per day, at most
``command`` units fire, the best first) and AO-8.1 battlefield morale with AO-8.11 rally (the best
routed unit of each side after every day).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np

from .battle import (ATTACKER, DEFENDER, SURVIVORS, Fighter, OddsError, _CODES, _CRACK, _CROSSING, _ENTRENCHED,
                     _REDUCED, _TYPE_VALUE, _encode, _expand, _fighters, _never, _retreat_policy, leader_points)
from .exact import _assignment
from ..core.display import html_table, percent
from ..core.i18n import Msg, Num, _
from ..core.options import Options
from ..core.units import UNIT_TYPES

#: A-7 (a), AO-8.11: a day is four rounds. (T-4 and T-5 are the engine's own tables, ``advanced.T4``
#: and ``combat.MORALE``, indexed for numpy in ``_advanced_tables``.)
_DAY = 4

@dataclass(slots=True)
class SimulatedOdds:
    """Monte Carlo estimate of a battle: frequencies with their standard errors."""

    n: int
    attacker_wins: float
    defender_wins: float
    neither: float
    expected_rounds: float
    expected_survivors: dict[str, float]
    method: str = "monte carlo"

    def stderr(self, p: float) -> float:
        return math.sqrt(max(p * (1 - p), 0.0) / self.n)

    def summary(self) -> Msg:
        """'attacker wins 41.2% ± 0.5%, ... (10000 simulated battles)', as a message."""
        return Msg("attacker wins {attacker:.1%} ± {error:.1%}, defender wins {defender:.1%}, neither {neither:.1%}; "
                   "expected rounds {rounds:.2f} ({n} simulated battles)", attacker=self.attacker_wins,
                   error=self.stderr(self.attacker_wins), defender=self.defender_wins, neither=self.neither,
                   rounds=self.expected_rounds, n=Num(self.n))

    def __str__(self) -> str:
        return self.summary().render()

    def _repr_html_(self) -> str:
        rows = [(label, f"{percent(p)} ± {percent(self.stderr(p))}") for label, p in (
            (_("attacker wins"), self.attacker_wins), (_("defender wins"), self.defender_wins),
            (_("neither"), self.neither))]
        rows.append((_("expected rounds"), f"{self.expected_rounds:.2f}"))
        rows += [(_(SURVIVORS[side]) if side in SURVIVORS else f"expected {side} survivors", f"{value:.2f}")
                 for side, value in self.expected_survivors.items()]
        return html_table(_("Battle odds (simulated)"), rows, _("{method}, {n} battles; ± one standard error").format(
            method=self.method, n=f"{self.n:,}"))


def simulate_battles(attacker: Sequence, defender: Sequence, n: int = 100_000, *, seed: int | None = None,
                     rng: "np.random.Generator | None" = None, round: int = 1, firing: str = DEFENDER,
                     options=None, attacker_retreat="never", defender_retreat="never",
                     attacker_reserves: Sequence = (), defender_reserves: Sequence = (),
                     attacker_leaders: int = 0, defender_leaders: int = 0,
                     year: int = 1861, attacker_side: str = "union", command: dict | None = None,
                     max_rounds: int = 1000) -> SimulatedOdds:
    """Simulate ``n`` independent battles at once with numpy, under the same policies as
    ``battle_odds`` (whose arguments it takes). Battles still going after ``max_rounds`` count as
    'neither'. Serves battles beyond the exact method's size.

    With A-7 on, each day's command is rolled on T-4 for ``year`` and each side (``attacker_side``
    says which the attacker is), plus half the previous day's command from day 2 and the leaders'
    values, at most 8; ``command`` ({"attacker": c, "defender": d}) gives the current day's commands
    of a battle already under way. With AO-8.1 on, units just reduced test their morale (T-5 for
    ``year``; routed units are out of the fighting and count as eliminated), and with AO-8.11 the best
    routed unit of each side rallies after each day. Desertion (AO-8.12) after the battle is not
    simulated: survivors are counted as the battle ends."""
    opts = Options.parse(options)
    points = leader_points(attacker_leaders, defender_leaders)
    tables = _advanced_tables(opts, year, attacker_side, command)
    if not isinstance(n, int) or n < 1:
        raise OddsError(f"n must be a positive integer, got {n!r}")
    att, dfn = _fighters(attacker, "attacker"), _fighters(defender, "defender")
    if not att or not dfn:
        raise OddsError("both sides need at least one unit: a battle with an empty side is already over")
    if firing not in (ATTACKER, DEFENDER):
        raise OddsError(f"firing must be 'attacker' or 'defender', got {firing!r}")
    if not isinstance(round, int) or isinstance(round, bool) or round < 1:
        raise OddsError(f"round must be a positive integer, got {round!r}")
    rng = rng if rng is not None else np.random.default_rng(seed)
    retreat = {ATTACKER: _retreat_policy(attacker_retreat), DEFENDER: _retreat_policy(defender_retreat)}
    sides = {}
    for side, units, reserves in ((ATTACKER, att, attacker_reserves), (DEFENDER, dfn, defender_reserves)):
        codes = [_encode(f) for f in units] + [_encode(Fighter(Fighter.parse(r).code, Fighter.parse(r).reduced))
                                               for r in _expand(reserves, f"{side}'s reserves")]
        base = np.array([c & ~_REDUCED for c in codes], dtype=np.int64)  # static part: type and flags
        hp = np.array([1 if c & _REDUCED else 2 for c in codes], dtype=np.int8)
        present = np.array([True] * len(units) + [False] * (len(codes) - len(units)))
        sides[side] = {"base": base, "hp": np.tile(hp, (n, 1)), "present": np.tile(present, (n, 1)),
                       "reserves": len(codes) - len(units), "arrived": 0, "first_reserve": len(units),
                       "command": np.zeros(n, dtype=np.int64)}
        if "morale" in tables:  # AO-8.1
            sides[side]["morale"] = tables["morale"][base >> 3]
            sides[side]["routed"] = np.zeros((n, len(codes)), dtype=bool)
    winner = np.zeros(n, dtype=np.int8)  # 0 running, 1 attacker, 2 defender, 3 stopped
    rounds = np.full(n, round, dtype=np.int64)
    current = firing
    rnd = round
    day = (round - 1) // _DAY + 1 if command is not None else 0
    if command is not None and "T4" in tables:
        for side in (ATTACKER, DEFENDER):
            sides[side]["command"][:] = command[side]
    for _ in range(2 * max_rounds):
        active = winner == 0
        if not active.any():
            break
        if "T4" in tables and (rnd - 1) // _DAY + 1 > day:  # A-7 (b): a new day's commands
            day = (rnd - 1) // _DAY + 1
            for side in (DEFENDER, ATTACKER):
                s = sides[side]
                rolled = tables["T4"][side][rng.integers(0, 6, size=n)]
                carried = -(-s["command"] // 2) if day > 1 else 0
                s["command"] = np.minimum(rolled + carried + points[side], 8)
        own, enemy = sides[current], sides[ATTACKER if current == DEFENDER else DEFENDER]
        enemy_code = 2 if current == ATTACKER else 1
        own_code = 1 if current == ATTACKER else 2
        if rnd >= 2 and retreat[current] is not _never:
            alive_own = _fighting(own).sum(axis=1)
            alive_enemy = _fighting(enemy).sum(axis=1)
            pairs = np.unique(np.stack([alive_own[active], alive_enemy[active]], axis=1), axis=0)
            leave = np.zeros(n, dtype=bool)
            for o, e in pairs:
                if retreat[current](int(o), int(e), rnd):
                    leave |= active & (alive_own == o) & (alive_enemy == e)
            winner[leave] = enemy_code
            active &= ~leave
        if rnd >= 2 and own["arrived"] < own["reserves"]:
            own["present"][active, own["first_reserve"] + own["arrived"]] = True
            own["arrived"] += 1
        limit = own["command"] if "T4" in tables else None
        flipped = _fire(opts, current, rnd, own, enemy, active, rng, points[current], limit)
        if flipped is not None and flipped.any():  # AO-8.1: the units just reduced test their morale
            modified = rng.integers(1, 7, size=flipped.shape) - ((enemy["base"] & _ENTRENCHED) > 0)
            enemy["routed"] |= flipped & (modified > enemy["morale"][None, :])
        wiped = active & ~_fighting(enemy).any(axis=1)
        winner[wiped] = own_code
        if current == ATTACKER and "rally" in tables and rnd % _DAY == 0:  # AO-8.11: after each day
            for s in sides.values():
                _rally(s, winner == 0)
        if current == ATTACKER:
            rounds[winner == 0] += 1
            rnd += 1
        current = ATTACKER if current == DEFENDER else DEFENDER
    winner[winner == 0] = 3
    a = float(np.mean(winner == 1))
    d = float(np.mean(winner == 2))
    survivors = {}
    for side in (ATTACKER, DEFENDER):
        s = sides[side]
        survivors[side] = float(((s["hp"] > 0) & s["present"]).sum(axis=1).mean())
    return SimulatedOdds(n, a, d, max(0.0, 1.0 - a - d), float(rounds.mean()), survivors)


def _fighting(side: dict, idx=None):
    """(battles, units): in the battle and fighting (not eliminated, arrived, and under AO-8.1 not
    routed); only the battles ``idx`` if given."""
    rows = slice(None) if idx is None else idx
    fighting = (side["hp"][rows] > 0) & side["present"][rows]
    if "routed" in side:
        fighting &= ~side["routed"][rows]
    return fighting


def _advanced_tables(options: Options, year: int, attacker_side: str, command: dict | None) -> dict:
    """The T-4 columns (A-7) and T-5 morale by type code (AO-8.1) the battles need, checked."""
    from ..core.advanced import T4
    from ..core.combat import MORALE
    from ..core.sides import Side
    tables: dict = {}
    if ("A-7" in options or "AO-8.1" in options) and year not in T4:
        raise OddsError(f"year must be one of {min(T4)}-{max(T4)}, got {year!r}")
    if "A-7" in options:
        if attacker_side not in ("union", "confederate"):
            raise OddsError(f"attacker_side must be 'union' or 'confederate', got {attacker_side!r}")
        union = attacker_side == "union"
        column = {ATTACKER: Side.UNION if union else Side.CONFEDERATE, DEFENDER: Side.CONFEDERATE if union else Side.UNION}
        tables["T4"] = {side: np.array(T4[year][column[side]], dtype=np.int64) for side in column}
        if command is not None and (set(command) != {ATTACKER, DEFENDER} or not all(
                isinstance(c, int) and not isinstance(c, bool) and 1 <= c <= 8 for c in command.values())):
            raise OddsError(f"command gives the current day's command of both sides, 1 to 8: "
                            f"{{'attacker': 3, 'defender': 4}}; got {command!r}")
    if "AO-8.1" in options:
        militia = 2 if year == 1861 else 3
        tables["morale"] = np.array([MORALE.get(UNIT_TYPES[c].quality, militia) for c in _CODES], dtype=np.int64)
        if "AO-8.11" in options:
            tables["rally"] = True
    return tables


def _rally(side: dict, running) -> None:
    """AO-8.11: in each running battle the side's best routed unit (highest value, then first) returns."""
    candidates = side["routed"] & (side["hp"] > 0) & side["present"] & running[:, None]
    if not candidates.any():
        return
    key = np.where(candidates, _VALUES[side["base"] >> 3][None, :] * 64 - np.arange(candidates.shape[1]), -1)
    best = key.argmax(axis=1)
    rows = np.flatnonzero(candidates.any(axis=1))
    side["routed"][rows, best[rows]] = False


def _fire(options: Options, firing: str, rnd: int, own: dict, enemy: dict, active, rng, points: int = 0,
          limit=None):
    """One firing moment for every active battle: targets by the default policy (with ``points``
    leader points; under A-7 only the best ``limit`` units fire), all dice, damage. Returns the
    (battles, enemy units) mask of units just flipped from full to reduced if AO-8.1 asks for it
    (the enemy has morale), else None."""
    flipped = np.zeros(enemy["hp"].shape, dtype=bool) if "morale" in enemy else None
    idx = np.flatnonzero(active)
    if idx.size == 0:
        return flipped
    count = idx.size
    if count == active.size:  # every battle still running: a slice, not a gathering copy
        idx = slice(None)
    limit = None if limit is None else limit[idx]
    if "O-2.2" in options:  # the order of priorities needs the engine's search: one plan per position
        plan = _plans_by_position(options, firing, rnd, own, enemy, idx, points, limit)
    else:
        plan = _greedy_plans(options, firing, rnd, own, enemy, idx, points, limit)
    targets, p = plan
    hits = (rng.random(targets.shape) < p) & (targets >= 0)
    enemy_hp = enemy["hp"][idx]
    n_enemy = enemy_hp.shape[1]
    flat = (np.arange(count)[:, None] * n_enemy + targets)[hits]
    damage = np.bincount(flat, minlength=count * n_enemy).reshape(count, n_enemy)
    after = np.maximum(enemy_hp - damage, 0).astype(np.int8)
    if flipped is not None:  # before the update: with a slice, enemy_hp is a view of it
        flipped[idx] = (enemy_hp == 2) & (after == 1)
    enemy["hp"][idx] = after
    return flipped


#: type codes in the order of their names: the engine breaks the last ties by unit id ("E-CV-01" < "E-MF-01")
_NAME_RANK = np.array([sorted(_CODES).index(c) for c in _CODES], dtype=np.int64)
_VALUES = np.array(_TYPE_VALUE, dtype=np.int64)
_IS_CRACK = np.array(_CRACK, dtype=np.int64)


def _greedy_plans(options: Options, firing: str, rnd: int, own: dict, enemy: dict, idx, points: int = 0,
                  limit=None) -> tuple:
    """``odds._assignment`` for every battle at once. Returns (target column per shooter or -1, hit
    chance per shooter), each (battles, shooters).

    An effective value (5.2.a) is the shooter's value plus a term of the target's alone (crossing
    bonus, entrenched, crack infantry), so every shooter ranks the enemies alike: by that term, then
    reduced, more valuable, by id. Shooters go best first (ties by unit code) and each takes the
    best uncovered enemy; once all are covered the rest take the best one."""
    own_base, enemy_base = own["base"], enemy["base"]
    own_hp, enemy_hp = own["hp"][idx], enemy["hp"][idx]
    own_alive = _fighting(own, idx)
    enemy_alive = _fighting(enemy, idx)
    bonus = firing == DEFENDER and rnd <= 2
    shooter_value = _VALUES[own_base >> 3]
    target_term = ((bonus & ((enemy_base & _CROSSING) > 0)).astype(np.int64)
                   - ((enemy_base & _ENTRENCHED) > 0) - _IS_CRACK[enemy_base >> 3])
    value = shooter_value[:, None] + target_term[None, :]
    cap = 5 if "H-2" in options else 6
    # shooters: best value first, then by unit code (which a reduction raises by _REDUCED); the absent last
    order = np.argsort((-shooter_value * 64 + own_base) + (own_hp == 1) * _REDUCED + (~own_alive) * (1 << 20),
                       axis=1, kind="stable")
    # enemies, best first: the target term, reduced, value, type name, unit code; the dead last
    rank_key = ((((target_term + 8) * 2 * 8 + _VALUES[enemy_base >> 3]) * 8 + _NAME_RANK[enemy_base >> 3]) * 64
                + enemy_base)
    ranking = np.argsort(-rank_key - (enemy_hp == 1) * (8 * 8 * 64 + _REDUCED) + (~enemy_alive) * (1 << 20),
                         axis=1, kind="stable")
    alive = enemy_alive.sum(axis=1, keepdims=True)
    ranks = np.arange(own_alive.shape[1])[None, :]
    pick = np.where(ranks < alive, np.minimum(ranks, enemy_alive.shape[1] - 1), 0)
    targets = np.take_along_axis(ranking, pick, axis=1)
    shoots = np.take_along_axis(own_alive, order, axis=1)
    if limit is not None:  # A-7 (c): the best `command` units fire
        shoots &= ranks < limit[:, None]
    if points:  # AO-8.2.2: the shots' values with the leader points, then their chances
        values = _with_points(np.where(shoots, value[order, targets], _NO_SHOT), points, "H-2" in options)
        p = np.where(shoots & (values > 0), np.minimum(values, cap) / 6, 0.0)
    else:
        chance = np.where(value > 0, np.minimum(value, cap) / 6, 0.0)
        p = np.where(shoots, chance[order, targets], 0.0)
    return np.where(shoots, targets, -1), p


_NO_SHOT = -99


def _with_points(values, points: int, h2: bool):
    """``combat.leader_points_plan`` for every battle at once: ``values`` (battles, shots) in the shots'
    order, ``_NO_SHOT`` where a column does not shoot."""
    cap = 5 if h2 else 6
    values, given = values.copy(), np.zeros_like(values)
    rows, columns = np.arange(values.shape[0]), np.arange(values.shape[1])
    for _ in range(points):
        gains = (values >= 0) & (values < cap)
        # a gaining shot first, then the fewest points given, then the first
        best = np.argmax(gains * (1 << 20) - given * 64 - columns, axis=1)
        take = gains[rows, best]
        values[rows[take], best[take]] += 1
        given[rows[take], best[take]] += 1
    return values


def _plans_by_position(options: Options, firing: str, rnd: int, own: dict, enemy: dict, idx,
                       points: int = 0, limit=None) -> tuple:
    """The firing plan of each distinct position among the battles, by ``odds._assignment``."""
    own_hp, enemy_hp = own["hp"][idx], enemy["hp"][idx]
    own_alive = _fighting(own, idx)
    enemy_alive = _fighting(enemy, idx)
    # a configuration = who is fighting and how strong, on both sides (and under A-7 how many may fire)
    own_state = np.where(own_alive, own_hp, 0)
    enemy_state = np.where(enemy_alive, enemy_hp, 0)
    n_own, n_enemy = own_hp.shape[1], enemy_hp.shape[1]
    fire = (np.minimum(limit, n_own)[:, None] if limit is not None else np.zeros((own_hp.shape[0], 0))).astype(np.int64)
    states = np.concatenate([own_state, enemy_state, fire], axis=1).astype(np.int64)
    digits = 3 ** np.arange(states.shape[1], dtype=np.int64)  # the last digit (A-7: at most 8) is the top one
    codes, first, inverse = np.unique(states @ digits, return_index=True, return_inverse=True)
    configs = states[first]
    inverse = inverse.reshape(-1)
    shot_target = np.full((configs.shape[0], n_own), -1, dtype=np.int64)
    shot_p = np.zeros((configs.shape[0], n_own))
    rnd_class = min(rnd, 3)
    for c, config in enumerate(configs):
        o_cols = [i for i in range(n_own) if config[i] > 0]
        e_cols = [j for j in range(n_enemy) if config[n_own + j] > 0]
        if not o_cols or not e_cols:
            continue
        if limit is not None:  # A-7 (c): the best `command` units fire (by value, then code)
            o_cols = sorted(o_cols, key=lambda i: (-_VALUES[own["base"][i] >> 3], own["base"][i] | (config[i] == 1) * _REDUCED))
            o_cols = o_cols[:config[n_own + n_enemy]]
        o_codes = [int(own["base"][i]) | (_REDUCED if config[i] == 1 else 0) for i in o_cols]
        e_codes = [int(enemy["base"][j]) | (_REDUCED if config[n_own + j] == 1 else 0) for j in e_cols]
        o_order = sorted(range(len(o_cols)), key=lambda k: o_codes[k])
        e_order = sorted(range(len(e_cols)), key=lambda k: e_codes[k])
        plan = _assignment(options, firing, rnd_class, tuple(o_codes[k] for k in o_order),
                           tuple(e_codes[k] for k in e_order), points)
        for shot, (s, t, p) in enumerate(plan):
            shot_target[c, shot] = e_cols[e_order[t]]
            shot_p[c, shot] = p
    return shot_target[inverse], shot_p[inverse]
