"""Recruitment (§7) and drafts (§8)."""
from __future__ import annotations

from .calendar import DRAFT_TURNS
from .errors import IllegalActionError
from .sides import Side
from .state import State
from .units import POOL, RESERVE

DRAFT_SIZE = 4


def recruit_limit(natural: int) -> int:
    """7.a: the die gives the maximum number of recruits, a 1 counting as 2."""
    return max(2, natural)


def eligible_boxes(state: State, side: Side) -> list[str]:
    """7.b: boxes the side controls now, with an own-colour value, no enemy units, unused this segment."""
    return [b.id for b in state.board
            if b.value_for(side) > 0 and state.control[b.id] is side
            and not state.has_units(b.id, side.enemy) and b.id not in state.recruit_boxes]


def room(state: State, side: Side) -> int:
    """7.c: how many more units the side may have on the map."""
    return state.army_max(side) - state.units_on_map(side)


def can_recruit_any(state: State, side: Side) -> bool:
    return bool(state.pool(side)) and room(state, side) > 0 and bool(eligible_boxes(state, side))


def check_recruit(state: State, box: str, code: str) -> IllegalActionError | None:
    side = state.phasing
    board = state.board
    if state.recruits_placed >= state.recruit_limit:
        return IllegalActionError("7.d", f"the recruitment die allows {state.recruit_limit} recruits, all placed")
    if room(state, side) <= 0:
        return IllegalActionError("7.c", f"the {side.adjective} army is at its maximum of {state.army_max(side)} units")
    if code not in ("MF", "MC"):
        return IllegalActionError("7.b", "recruits are militia infantry (MF) or militia cavalry (MC)")
    if not state.pool(side, code):
        return IllegalActionError("7.d", f"no {code} counter is left in the {side.adjective} pool")
    if box not in board:
        return IllegalActionError("7.b", f"there is no box {box!r}")
    b = board.boxes[box]
    if b.value_for(side) <= 0:
        return IllegalActionError("7.b", f"{b.name} is not a {side.adjective} recruiting city")
    if state.control[box] is not side:
        return IllegalActionError("7.b", f"{b.name} is not controlled by the {side.adjective} side")
    if state.has_units(box, side.enemy):
        return IllegalActionError("7.b", f"{b.name} holds enemy units")
    if box in state.recruit_boxes:
        return IllegalActionError("7.b", f"{b.name} has already received a recruit this segment")
    return None


def recruit(state: State, box: str, code: str):
    unit = min(state.pool(state.phasing, code), key=lambda u: u.id)
    state.place(unit, box)
    state.recruit_boxes.add(box)
    state.recruits_placed += 1
    return unit


def draft(state: State) -> int:
    """§8: at the start of turns 8, 18 and 28, four reserve MF join the Union pool."""
    if state.turn not in DRAFT_TURNS:
        return 0
    reserve = sorted(state.units_of(Side.UNION, RESERVE), key=lambda u: u.id)[:DRAFT_SIZE]
    for unit in reserve:
        state.place(unit, POOL)
    return len(reserve)
