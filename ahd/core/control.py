"""Control (§9): the update at the end of every half-turn; 9.b reversions live in State.place."""
from __future__ import annotations

from .sides import Side
from .state import State


def update_control(state: State) -> list[tuple[str, Side | None, Side | None]]:
    """9.a: each box holding units of one side only passes to that side — firmly with infantry,
    cavalry-held with cavalry alone (unless printed owner or already firm). Returns the changes."""
    changes = []
    for box, units in state.by_box.items():
        if not units:
            continue
        sides = {u.side for u in units}
        if len(sides) != 1:
            continue
        side = next(iter(sides))
        before = state.control[box]
        has_infantry = any(u.type.is_infantry for u in units)
        already_firm = before is side and box not in state.cavalry_held
        firm = has_infantry or already_firm or state.board.boxes[box].owner is side
        if state.set_control(box, side, cavalry_held=not firm):
            changes.append((box, before, side))
    return changes


def has_marker(state: State, box: str) -> bool:
    """9.c: a control marker shows wherever the controller differs from the printed owner."""
    return state.control[box] is not state.board.boxes[box].owner
