"""Recruitment (§7) and drafts (§8)."""
from __future__ import annotations

from .calendar import DRAFT_TURNS
from .errors import IllegalActionError
from .i18n import Msg
from .sides import Side
from .state import State
from .units import POOL, RESERVE

DRAFT_SIZE = 4


def recruit_limit(state: State, side: Side, natural: int) -> int:
    """7.a: the die gives the maximum number of recruits, a 1 counting as 2.
    O-3.3: the Union recruits at least 3, the Confederacy at most 4."""
    limit = max(2, natural)
    if "O-3.3" in state.options:
        limit = max(3, limit) if side is Side.UNION else min(4, limit)
    return limit


def recruits_allowed_in(state: State, side: Side, box: str) -> int:
    """7.b: one recruit per box per segment; O-3.3: two in a box with own-colour value 3 or more."""
    return 2 if "O-3.3" in state.options and state.board.boxes[box].value_for(side) >= 3 else 1


def eligible_boxes(state: State, side: Side) -> list[str]:
    """7.b: boxes the side controls now, with an own-colour value, no enemy units, not yet full this segment."""
    return [b.id for b in state.board
            if b.value_for(side) > 0 and state.control[b.id] is side
            and not state.has_units(b.id, side.enemy)
            and state.recruit_boxes.get(b.id, 0) < recruits_allowed_in(state, side, b.id)]


def unit_limit(state: State, side: Side) -> int:
    """7.c: the army maximum; O-3.4: the Union +4 per draft held (+4 from turn 8, +8 from 18, +12 from 28)."""
    limit = state.army_max(side)
    if side is Side.UNION and "O-3.4" in state.options:
        limit += 4 * sum(1 for turn in DRAFT_TURNS if state.turn >= turn)
    return limit


def room(state: State, side: Side) -> int:
    """7.c: how many more units the side may have on the map."""
    return unit_limit(state, side) - state.units_on_map(side)


def can_recruit_any(state: State, side: Side) -> bool:
    return bool(state.pool(side)) and room(state, side) > 0 and bool(eligible_boxes(state, side))


def check_recruit(state: State, box: str, code: str) -> IllegalActionError | None:
    side = state.phasing
    board = state.board
    if state.recruits_placed >= state.recruit_limit:
        return IllegalActionError("7.d", Msg("the recruitment die allows {limit} recruits, all placed",
                                              limit=state.recruit_limit))
    if room(state, side) <= 0:
        rule = "O-3.4" if unit_limit(state, side) != state.army_max(side) else "7.c"
        return IllegalActionError(rule, Msg("the {side} army is at its limit of {limit} units", side=side,
                                                 limit=unit_limit(state, side)))
    if code not in ("MF", "MC"):
        return IllegalActionError("7.b", Msg("recruits are militia infantry (MF) or militia cavalry (MC)"))
    if not state.pool(side, code):
        return IllegalActionError("7.d", Msg("no {code} counter is left in the {side} pool", code=code, side=side))
    if box not in board:
        return IllegalActionError("7.b", Msg("there is no box {id}", id=repr(box)))
    b = board.boxes[box]
    if b.value_for(side) <= 0:
        return IllegalActionError("7.b", Msg("{box} is not a {side} recruiting city", box=board.term(box), side=side))
    if state.control[box] is not side:
        return IllegalActionError("7.b", Msg("{box} is not controlled by the {side} side", box=board.term(box), side=side))
    if state.has_units(box, side.enemy):
        return IllegalActionError("7.b", Msg("{box} holds enemy units", box=board.term(box)))
    if state.recruit_boxes.get(box, 0) >= recruits_allowed_in(state, side, box):
        two = recruits_allowed_in(state, side, box) == 2
        if two:
            return IllegalActionError("O-3.3", Msg("{box} has already received two recruits this segment",
                                                   box=board.term(box)))
        return IllegalActionError("7.b", Msg("{box} has already received a recruit this segment", box=board.term(box)))
    return None


def recruit(state: State, box: str, code: str):
    unit = min(state.pool(state.phasing, code), key=lambda u: u.id)
    state.place(unit, box)
    state.recruit_boxes[box] = state.recruit_boxes.get(box, 0) + 1
    state.recruits_placed += 1
    return unit


def draft_schedule(options) -> dict[int, int]:
    """§8: turn -> militia infantry drafted at its start; O-4.4 spreads 1863 over turns 18–21."""
    schedule = {turn: DRAFT_SIZE for turn in DRAFT_TURNS}
    if "O-4.4" in options:
        del schedule[18]
        schedule.update({turn: 1 for turn in (18, 19, 20, 21)})
    return schedule


def draft(state: State) -> int:
    """§8: at the start of turns 8, 18 and 28, four reserve MF join the Union pool [O-4.4]."""
    count = draft_schedule(state.options).get(state.turn, 0)
    if not count:
        return 0
    reserve = sorted(state.units_of(Side.UNION, RESERVE), key=lambda u: u.id)[:count]
    for unit in reserve:
        state.place(unit, POOL)
    return len(reserve)
