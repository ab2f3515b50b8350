"""Leaders (AO-8.2, T-6, C-2, C-3): Grant, Sherman and Lee.

Leaders are not units: they live in ``State.leaders`` (never in ``State.units``), so they never
count for control, maxima, supply, targeting or elimination. Pure functions over a State; the
engine orders the decisions.
"""
from __future__ import annotations

from dataclasses import dataclass

from .errors import IllegalActionError
from .i18n import Msg, Msgn
from .sides import Side
from .units import UNIT_TYPES, Unit, unit_name

#: Where a leader is while off the map: not yet arrived, or removed and waiting to return.
OFF = "@off"
REMOVED = "@removed"

#: T-6: leader -> side and (from turn, value) steps.
T6: dict[str, tuple[Side, tuple[tuple[int, int], ...]]] = {
    "grant": (Side.UNION, ((6, 1), (20, 2))),
    "sherman": (Side.UNION, ((9, 1), (22, 2))),
    "lee": (Side.CONFEDERATE, ((10, 3), (23, 2))),
}
MAX_LEADER_MARCHES = 2


def t6_value(name: str, turn: int) -> int:
    """The leader's value at ``turn`` (0 before his first date)."""
    value = 0
    for start, v in T6[name][1]:
        if turn >= start:
            value = v
    return value


@dataclass(slots=True)
class Leader:
    name: str
    side: Side
    value: int = 0
    location: str = OFF
    marches: int = 0       # AO-8.2.1: marches this turn (alone or with units), at most two

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @property
    def on_map(self) -> bool:
        return self.location[0] != "@"

    def clone(self) -> "Leader":
        return Leader(self.name, self.side, self.value, self.location, self.marches)


def new_leaders() -> dict[str, "Leader"]:
    return {name: Leader(name, side) for name, (side, _) in T6.items()}


def leaders_in(state, box: str, side: Side | None = None) -> list[Leader]:
    return [l for l in state.leaders.values() if l.location == box and (side is None or l.side is side)]


def leader_value_in(state, box: str, side: Side) -> int:
    """Σ values of ``side``'s leaders in ``box`` (AO-8.2.2 command, AO-8.2.3 desertion)."""
    return sum(l.value for l in leaders_in(state, box, side))


def friendly_boxes(state, side: Side) -> list[str]:
    """AO-8.2.0: boxes holding the side's units (where arriving or returning leaders may be placed)."""
    return sorted(box for box, units in state.by_box.items() if any(u.side is side for u in units))


def arrivals(state, side: Side) -> list[Leader]:
    """AO-8.2.0 / C-2: the side's leaders whose date has come and who have never been on the map."""
    return [l for l in state.leaders.values()
            if l.side is side and l.location == OFF and t6_value(l.name, state.turn) > 0]


def returning(state, side: Side) -> list[Leader]:
    """AO-8.2.2: the side's removed leaders, back in its Recruitment segment."""
    return [l for l in state.leaders.values() if l.side is side and l.location == REMOVED]


def check_place(state, name: str, box: str, pending: list[Leader], rule: str) -> IllegalActionError | None:
    leader = state.leaders.get(name)
    if leader is None or leader not in pending:
        return IllegalActionError(rule, Msg("{leader} is not a leader to be placed now", leader=repr(name)))
    if box not in state.board or not state.has_units(box, leader.side):
        return IllegalActionError(rule, Msg("{leader} must be placed in a box with {side} units", leader=leader.title,
                                            side=leader.side))
    return None


# --------------------------------------------------------------------------- movement (AO-8.2.1, C-3)
def as_infantry(state, leader: Leader) -> Unit:
    """C-3: a stand-in militia infantry counter for path checks (never added to the State)."""
    return Unit(f"leader-{leader.name}", leader.side, UNIT_TYPES["MF"], leader.location)


def movable(state, name: str) -> tuple[Leader | None, IllegalActionError | None]:
    leader = state.leaders.get(name)
    if leader is None or not leader.on_map:
        return None, IllegalActionError("AO-8.2.1", Msg("{leader} is not a leader on the map", leader=repr(name)))
    if leader.side is not state.phasing:
        return None, IllegalActionError("AO-8.2.1", Msg("{leader} is not a leader of the side to move",
                                                         leader=leader.title))
    if leader.marches >= MAX_LEADER_MARCHES:
        return None, IllegalActionError("AO-8.2.1", Msg("{leader} has already made two marches this turn",
                                                         leader=leader.title))
    return leader, None


def note_departure(state, unit: Unit, origin: str, cavalry_jump: bool) -> None:
    """AO-8.2.1: ``unit`` leaves ``origin``; the leaders of its side there then may go with it
    (recorded as it moves), unless it moves by cavalry jump."""
    present = tuple(sorted(l.name for l in leaders_in(state, origin, unit.side)))
    state.followers[unit.id] = (present, cavalry_jump)


def note_leader_moved(state, leader: Leader) -> None:
    """AO-8.2.1: a leader who leaves a box no longer goes with the units that left it before."""
    for uid, (present, jump) in list(state.followers.items()):
        if leader.name in present:
            state.followers[uid] = (tuple(n for n in present if n != leader.name), jump)


def check_follow(state, name: str, unit_id: str) -> IllegalActionError | None:
    """AO-8.2.1: a leader moves free with a unit of his box as it moves (march, naval move,
    invasion): only if he was in its box when it left (and has not moved since), never by cavalry
    jump."""
    leader, error = movable(state, name)
    if error:
        return error
    unit = state.units.get(unit_id)
    origin = state.moved_from.get(unit_id)
    if unit is None or not unit.on_map or unit.side is not leader.side or origin is None:
        return IllegalActionError("AO-8.2.1", Msg("{unit} has not moved this half-turn", unit=unit_id))
    if origin != leader.location or unit.location == leader.location:
        return IllegalActionError("AO-8.2.1", Msg("{leader} may only go with a unit that moved from his box",
                                                   leader=leader.title))
    present, cavalry_jump = state.followers.get(unit_id, ((), False))
    if cavalry_jump:
        return IllegalActionError("AO-8.2.1", Msg("{unit} moved by cavalry jump; a leader never moves by "
                                                  "cavalry jump", unit=unit_name(unit)))
    if leader.name not in present:
        return IllegalActionError("AO-8.2.1", Msg("{leader} was not in {box} when {unit} left; a leader goes only "
                                                  "with units of his box as they move", leader=leader.title,
                                                  box=state.board.term(origin), unit=unit_name(unit)))
    return None


def legal_follows(state, leader: Leader) -> list[str]:
    if leader.marches >= MAX_LEADER_MARCHES or not leader.on_map:
        return []
    return sorted(uid for uid, origin in state.moved_from.items()
                  if origin == leader.location and check_follow(state, leader.name, uid) is None)


# --------------------------------------------------------------------------- battle (AO-8.2.2)
def battle_leaders(state, battle, side: Side) -> list[Leader]:
    return sorted(leaders_in(state, battle.box, side), key=lambda l: l.name)


def points_left(state, battle, leader: Leader) -> int:
    given = sum(1 for name, _ in battle.leader_points if name == leader.name)
    return leader.value - given


def check_point(state, battle, name: str, unit_id: str) -> IllegalActionError | None:
    """AO-8.2.2: +1 of a present leader's value to one firing unit with a declared target."""
    leader = state.leaders.get(name)
    if leader is None or leader.location != battle.box or leader.side is not battle.firing:
        return IllegalActionError("AO-8.2.2", Msg("{leader} is not a leader of the firing side in this battle",
                                                   leader=repr(name)))
    if points_left(state, battle, leader) <= 0:
        return IllegalActionError("AO-8.2.2", Msgn("{leader} has given his {n} point",
                                                    "{leader} has given all his {n} points", n=leader.value,
                                                    leader=leader.title))
    if unit_id not in {s for s, _ in battle.targets}:
        return IllegalActionError("AO-8.2.2", Msg("{unit} is not a unit firing this moment", unit=unit_id))
    return None


def removal_check(state) -> list[Leader]:
    """AO-8.2.2: leaders alone with enemy units are removed (they return in a Recruitment segment)."""
    removed = []
    for leader in state.leaders.values():
        if leader.on_map and state.has_units(leader.location, leader.side.enemy) \
                and not state.has_units(leader.location, leader.side):
            leader.location = REMOVED
            removed.append(leader)
    return removed
