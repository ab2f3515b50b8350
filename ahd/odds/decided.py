"""What the rules have already decided: positions whose result no play can change (issue 34).

``decided(state, scenario, play_on)`` is 0.0 when the Union can no longer win and None otherwise. Only
what the rules prove is used, with generous bounds, so a position called decided is decided:

- **11.a by turn 40 (11.b(3))** — a victory city the Union does not hold becomes Union only at a 9.a
  update finding Union units alone in it. A Union unit cannot enter a Confederate-held victory city in
  the Confederate half-turn (a retreat may not end in an enemy recruiting city of the enemy's colour,
  5.2.5 (b); recruits go to boxes the Union already controls, 7.b), so only Union half-turns can gain
  one. In a Union half-turn a unit moves at most 2 marches (4.f) of at most 2 links (T-3; 3 with
  O-3.2), may join a battle next door (5.2.4) and, in a Confederate half, retreat one box (5.2.5):
  ``reach_per_union_half`` links per Union half-turn left; a naval move reaches only a port the Union
  holds (4.2.3), an invasion one port per turn from Washington (4.2.4) — over several half-turns any
  port is counted as reached — and a recruit (7.b) starts from a box the Union controls. If some missing city is out of reach of every
  Union unit, or (in the last Union half-turn, when no recruit can move any more) the missing cities
  cannot each get a different unit, the Union cannot win: 0.
- **S-13 / S-0 scoring** (a short game or a scored year scenario not played on), in the Confederate
  half of the deciding turn: the Union maximum can only grow by boxes of its colour a Union unit
  retreats into (next to a Union unit) and by Confederate cavalry-held boxes the Union owns reverting
  to it when the cavalry leaves (9.b), the Confederate maximum only fall by a Confederate cavalry-held
  box reverting (9.b; a Union retreat never enters a Confederate-held box of the Confederacy's colour,
  5.2.5 (b)). If even the best case leaves the Union short, it has lost: 0. (Until stop 54 the Union's
  gain by reversion was missing: on the held-out game 1032707, 1864 normal v easy, the odds said 0 at
  turn 37 and a cavalry leaving Fort Wayne gave the Union a draw.)

Never 1.0 before the end: the rules almost never prove that the Union cannot lose. A Union win ends the
game at once (11.a), and in the last Confederate half of a scored game a Confederate unit within two
marches of Washington could take it (11.b(1)), since every battle can go either way on the dice. That
was the case in 809 of the 810 deciding Confederate halves of the stored short-game and 1862-1864 games
944000+ and 946000+ (stop 48: scripts/war_odds_washington.py, docs/bots/war_odds_calibration.txt).

Not claimed (None): positions under H-4 (six cities), A-4 (both sides in a box) or the foreign
intervention and border events (AO-8.3, AO-8.4), whose extra ways to place units are not bounded here.
"""
from __future__ import annotations

from collections import deque

from ..core.board import VICTORY_CITIES
from ..core.calendar import LAST_TURN
from ..core.sides import Side
from ..core.victory import SCORE_TABLE, SHORT_GAME_MARGIN

def reach_per_union_half(state) -> int:
    """Links a Union unit can cover in one Union half-turn and the Confederate half before it: 2 marches
    (4.f) of at most 2 links (T-3; 3 on friendly rail with O-3.2), a reinforcement (5.2.4) and a retreat
    (5.2.5) - generous on purpose."""
    return 2 * (3 if "O-3.2" in state.options else 2) + 1 + 1


#: rule switches under which units can appear or share boxes in ways not bounded here
UNBOUNDED = ("H-4", "A-4", "AO-8.3", "AO-8.4")


def _unbounded(state) -> bool:
    return any(rule in state.options for rule in UNBOUNDED)


def union_halves_left(state, deadline: int) -> int:
    """Union half-turns still to end (with their 9.a update) before the deadline's turn ends."""
    return max(0, deadline - state.turn + (1 if state.phasing is Side.UNION else 0))


def _distances(board, sources: set[str], limit: int) -> dict[str, int]:
    seen = {box: 0 for box in sources}
    queue = deque(sources)
    while queue:
        box = queue.popleft()
        if seen[box] >= limit:
            continue
        for nxt in board.neighbours(box):
            if nxt not in seen:
                seen[nxt] = seen[box] + 1
                queue.append(nxt)
    return seen


def _reachable(state, start: str, halves: int, naval: bool = True) -> set[str]:
    """Boxes a unit now in ``start`` might stand in after ``halves`` more Union half-turns (``naval``:
    counting naval moves and invasions, 4.2.3-4.2.4, as reaching any port)."""
    board = state.board
    step = reach_per_union_half(state)
    reach = set(_distances(board, {start}, step * halves))
    if naval and halves >= 1:  # a naval move or invasion lands in a port; from there the halves after it
        ports = {box.id for box in board if box.port}
        reach |= set(_distances(board, ports, step * (halves - 1)))
    return reach


def _matching(options: dict[str, set[str]]) -> int:
    """The most missing cities that can each get a different unit (augmenting paths; at most 7 cities)."""
    owner: dict[str, str] = {}

    def assign(city: str, tried: set[str]) -> bool:
        for unit in options[city]:
            if unit in tried:
                continue
            tried.add(unit)
            if unit not in owner or assign(owner[unit], tried):
                owner[unit] = city
                return True
        return False
    return sum(1 for city in options if assign(city, set()))


def campaign_decided(state) -> float | None:
    """0.0 when the Union can no longer take the seven cities by turn 40 (see the module), else None."""
    if _unbounded(state):
        return None
    missing = [c for c in VICTORY_CITIES if state.control[c] is not Side.UNION]
    if not missing:
        return None
    halves = union_halves_left(state, LAST_TURN)
    if halves == 0:
        return 0.0
    units = [u for u in state.units_of(Side.UNION) if not u.is_foreign]
    board, step = state.board, reach_per_union_half(state)
    if halves >= 2:  # some unit, a recruit placed in a box the Union controls, or a landing in a port
        reach = set(_distances(board, {u.location for u in units}, step * halves))
        later = {b.id for b in board if b.port or (state.control[b.id] is Side.UNION and b.blue_value > 0)}
        reach |= set(_distances(board, later, step * (halves - 1)))
        return None if all(c in reach for c in missing) else 0.0
    by_unit = {u.id: _reachable(state, u.location, halves, naval=False) for u in units}
    options = {city: {uid for uid, reach in by_unit.items() if city in reach} for city in missing}
    # the last Union half-turn: every missing city needs its own unit there at the update. A naval move
    # only reaches a port the Union holds (4.2.3); one invasion (4.2.4) takes units that began the turn
    # in Washington to one port: counted as giving any one missing port, whoever else is used.
    best = _matching(options)
    if any(u.location == "washington" for u in units):
        for port in (c for c in missing if state.board[c].port):
            best = max(best, 1 + _matching({c: o for c, o in options.items() if c != port}))
    return 0.0 if best < len(missing) else None


def deciding_need(state, scenario, play_on: bool) -> int | None:
    """In the Confederate half that decides a scored game (the short game's last turn, S-13, or the scenario's
    scored turn, S-0, when not played on): the lead over the Confederate maximum the Union needs; else None."""
    if state.phasing is not Side.CONFEDERATE:
        return None
    if scenario.end == "short" and state.turn >= scenario.last_turn:
        return SHORT_GAME_MARGIN          # Union max ≥ Confederate max + 5
    if scenario.end == "table" and not play_on and state.turn >= scenario.score_turn:
        return SCORE_TABLE[scenario.score_turn] + 1  # a Union edge at least; a draw is half
    return None


def scored_decided(state, scenario, play_on: bool) -> float | None:
    """0.0 when the short game (S-13) or the scenario score (S-0) can no longer go the Union's way."""
    need = None if _unbounded(state) else deciding_need(state, scenario, play_on)
    if need is None:
        return None
    board = state.board
    near = set()
    for unit in state.units_of(Side.UNION):
        near |= board.neighbours(unit.location) | {unit.location}
    reverting = {b for b in state.cavalry_held  # 9.b: back to the printed owner when the cavalry leaves
                 if state.control[b] is Side.CONFEDERATE and board[b].owner is not Side.CONFEDERATE}
    union_gains = {b for b in near if state.control[b] is not Side.UNION}
    union_gains |= {b for b in reverting if board[b].owner is Side.UNION}
    gain = sum(board[b].blue_value for b in union_gains)
    loss = sum(board[b].red_value for b in reverting)
    best = state.army_max(Side.UNION) + gain - (state.army_max(Side.CONFEDERATE) - loss)
    if scenario.end == "table" and best == need - 1:
        return None  # a draw (½) is still possible: not decided
    return 0.0 if best < need else None


def decided(state, scenario, play_on: bool = False) -> float | None:
    """0.0 if the rules have already decided that the Union loses, else None (see the module)."""
    if scenario.end == "short" or (scenario.end == "table" and not play_on):
        return scored_decided(state, scenario, play_on)
    return campaign_decided(state)
