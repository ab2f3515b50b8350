"""Advanced rules (A-2 … A-7): the command table T-4, supply, coastal defences, the Washington
penalty and battle-day command. Pure functions over a State; the engine orders them (3.b)."""
from __future__ import annotations

from collections import deque

from .calendar import Turn
from .sides import Side
from .state import State

#: T-4 Command / march table: year -> side -> values for die 1..6.
T4: dict[int, dict[Side, tuple[int, ...]]] = {
    1861: {Side.UNION: (2, 2, 2, 3, 3, 4), Side.CONFEDERATE: (2, 3, 3, 4, 4, 5)},
    1862: {Side.UNION: (2, 2, 3, 3, 4, 4), Side.CONFEDERATE: (3, 3, 4, 4, 5, 5)},
    1863: {Side.UNION: (2, 3, 3, 4, 4, 5), Side.CONFEDERATE: (3, 4, 4, 5, 5, 6)},
    1864: {Side.UNION: (3, 3, 4, 4, 5, 5), Side.CONFEDERATE: (3, 3, 4, 4, 5, 5)},
    1865: {Side.UNION: (3, 4, 4, 5, 5, 6), Side.CONFEDERATE: (2, 3, 3, 4, 4, 5)},
}


def command_value(turn: int, side: Side, natural: int) -> int:
    """T-4: the value read for ``natural`` in the current year's column of ``side`` (A-3, A-7)."""
    return T4[Turn.of(turn).year][side][natural - 1]


# --------------------------------------------------------------------------- A-5 coastal defences
def coastal_defence_value(state: State, box: str | None = None) -> int:
    """A-5 (a): value of the coastal defence met by this half-turn's invasion at ``box`` (default: the
    invasion port), or 0: Union invaders there, the port Confederate-controlled with red_value V > 0."""
    port = state.invasion_port if box is None else box
    if "A-5" not in state.options or port is None or port != state.invasion_port:
        return 0
    if state.control[port] is not Side.CONFEDERATE:
        return 0
    if not any(u.naval == "4.2.4" and u.side is Side.UNION for u in state.by_box[port]):
        return 0
    return state.board.boxes[port].red_value
