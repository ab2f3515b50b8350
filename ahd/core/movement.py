"""Movement (§4): march allowance, paths (T-3), jumps, naval moves, invasions, entrenchment.

``check_*`` functions return None or the IllegalActionError that applying would raise; they are the
single source of truth, and ``legal_*`` enumerations only offer what they accept.
"""
from __future__ import annotations

from typing import Iterator

from . import leaders
from .errors import IllegalActionError
from .board import LINE_TERMS  # noqa: F401  (re-exported)
from .i18n import Joined, Msg, Msgn, Term, render
from .sides import Side
from .state import State
from .units import EUROPE, REDUCED, Unit, unit_name  # noqa: F401  (unit_name: re-exported)

SEA = "@sea"  # entered_from of an invading unit



def lines_term(lines) -> Joined:
    """``{"rail", "road"}`` -> "rail/road", each line type in the message's language."""
    return Joined((LINE_TERMS.get(kind, kind) for kind in sorted(set(lines))), "/")


def march_allowance(natural: int) -> int:
    """4.a: the die gives the marches, a 1 counting as 2."""
    return max(2, natural)


# --------------------------------------------------------------------------- unit readiness
def _ready(state: State, unit: Unit) -> IllegalActionError | None:
    """Can this unit take part in another march at all (4.f, 4.g, 4.2.3, 4.2.4)?"""
    if unit.naval:  # the rule it moved by sea under: "4.2.3" naval move or "4.2.4" invasion
        return IllegalActionError(unit.naval, Msg("{unit} moved by sea this turn and may not move again", unit=unit_name(unit)))
    if unit.stopped:
        return IllegalActionError("4.g", Msg("{unit} entered a box with enemy units and may not move again this turn",
                                               unit=unit_name(unit)))
    if unit.marches >= 2:
        return IllegalActionError("4.f", Msg("{unit} has already taken part in two marches this turn", unit=unit_name(unit)))
    return None


def _in_march(state: State, unit_id: str) -> tuple[Unit | None, IllegalActionError | None]:
    unit = state.units.get(unit_id)
    if unit is None:
        return None, IllegalActionError("4.b", Msg("there is no unit {id}", id=repr(unit_id)))
    if unit.side is not state.phasing:
        return None, IllegalActionError("4.b", Msg("{unit} is not a unit of the side to move", unit=unit_name(unit)))
    if unit.location != state.march_origin:
        return None, IllegalActionError(
            "4.b", Msg("{unit} is not in {box}, the origin of this march", unit=unit_name(unit),
                       box=state.board.term(state.march_origin or '?')))
    if unit.id in state.march_ordered:
        return None, IllegalActionError("4.b", Msg("{unit} already has its order in this march", unit=unit_name(unit)))
    return unit, _ready(state, unit)


# --------------------------------------------------------------------------- paths
def moves_like_cavalry(state: State, unit: Unit) -> bool:
    """Cavalry, and crack infantry under O-2.1 (road/rail only; it never jumps)."""
    return unit.type.is_cavalry or ("O-2.1" in state.options and unit.type.is_crack_infantry)


def first_turn_limits(state: State) -> bool:
    """O-4.1 is in force: turn 1 with the first-turn restrictions on."""
    return state.turn == 1 and "O-4.1" in state.options


def max_links(state: State, unit: Unit, lines: frozenset[str]) -> int:
    """T-3: the longest path for this unit over these line types."""
    if "river" in lines and first_turn_limits(state):
        return 1  # O-4.1
    if lines == {"rail"} and unit.side is Side.UNION and "O-3.2" in state.options:
        return 3  # O-3.2: the third link only over friendly rail, checked in check_path
    if unit.type.is_cavalry:
        return 2
    if moves_like_cavalry(state, unit) and "river" not in lines:
        return 2  # O-2.1
    if lines == {"river"}:
        return 2
    if lines == {"rail"}:
        return 2  # the second link only over friendly rail (4.d), checked separately
    return 1


def check_path(state: State, unit: Unit, path: tuple[str, ...], lines: tuple[str, ...]) -> IllegalActionError | None:
    """Is moving ``unit`` along ``path`` (boxes from its own) by ``lines`` legal now? (4.c–4.g, 4.2.1, 4.2.2, 4.2.6)"""
    board = state.board
    side = unit.side
    n = len(lines)
    if len(path) < 2 or path[0] != unit.location:
        return IllegalActionError("4.c", Msg("a path starts at the unit's box and crosses at least one link"))
    if n != len(path) - 1:
        return IllegalActionError("4.c", Msg("a path names one line type per link"))
    if len(set(path)) != len(path):
        return IllegalActionError("4.c", Msg("a path may not pass the same box twice"))
    for box in path:
        if box not in board.boxes:
            return IllegalActionError("1.2", Msg("there is no box {id}", id=repr(box)))
    for a, b, kind in zip(path, path[1:], lines):
        if kind not in board.link_kinds(a, b):
            return IllegalActionError("1.2", Msg("no {line} line joins {a} and {b}", line=LINE_TERMS.get(kind, kind),
                                                  a=board.term(a), b=board.term(b)))
        if side is Side.CONFEDERATE and kind == "river" and board.is_potomac(a, b):
            return IllegalActionError("4.2.6", Msg("Confederate units may never use the Potomac line"))
    if side is Side.UNION and "A-4" in state.options and path[0] in state.contained \
            and state.has_units(path[0], Side.CONFEDERATE):
        return IllegalActionError("A-4", Msg("Union units contained in {box} leave by land only after "
                                             "winning a break-out battle (or by sea)", box=board.term(path[0])))
    first_turn = first_turn_limits(state)
    if first_turn:
        for box in path[1:]:
            if board.boxes[box].owner is None:
                return IllegalActionError("O-4.1", Msg("on turn 1 no unit enters Kentucky"))
    if n == 1:
        return None  # one link of any type, no box passed: T-3 always allows it
    kinds = frozenset(lines)
    if first_turn and "river" in kinds:
        return IllegalActionError("O-4.1", Msg("on turn 1 river moves are one link per march"))
    cavalry_like = moves_like_cavalry(state, unit)
    if cavalry_like:
        if "river" in kinds and len(kinds) > 1:
            return IllegalActionError("4.e", Msg("cavalry may mix road and rail, but a path with a river uses only rivers"))
    elif len(kinds) > 1:
        return IllegalActionError("4.e", Msg("infantry uses one line type per march"))
    limit = max_links(state, unit, kinds)
    if n > limit:
        return IllegalActionError("4.c", Msgn("{kind} may move at most {n} link by {lines}",
                                        "{kind} may move at most {n} links by {lines}", n=limit,
                                       kind=Term("unit", unit.type.name), limit=limit, lines=lines_term(kinds)))
    if kinds == {"rail"} and (n > 2 or n == 2 and not cavalry_like):
        rule = "O-3.2" if n > 2 else "4.d"
        for box in path:
            if state.control[box] is not side:
                if n > 2:
                    why = Msg("three rail links only over friendly rail; {box} is not controlled by the {side} side",
                              box=board.term(box), side=side)
                else:
                    why = Msg("two rail links only over friendly rail; {box} is not controlled by the {side} side",
                              box=board.term(box), side=side)
                return IllegalActionError(rule, why)
    enemy = side.enemy
    blocked = [box for box in path[1:-1] if state.has_units(box, enemy)]
    if blocked:
        if len(blocked) > 1:
            return IllegalActionError("4.g", Msg("a path may pass at most one box holding enemy units, by a jump"))
        jumped = blocked[0]
        downstream = kinds == {"river"} and all(board.is_downstream(a, b) for a, b in zip(path, path[1:]))
        if side is Side.UNION and downstream:
            rule = "4.2.2"
        elif unit.type.is_cavalry:
            rule = "4.2.1"
            if "river" in kinds:
                return IllegalActionError(rule, Msg("a cavalry jump may not use a river link"))
            if any(u.type.is_cavalry for u in state.by_box[jumped] if u.side is enemy):
                return IllegalActionError(rule, Msg("cavalry may not jump {box}: enemy cavalry is there",
                                                  box=board.term(jumped)))
        else:
            return IllegalActionError(
                "4.g", Msg("{kind} may not pass {box}, which holds enemy units", kind=Term("unit", unit.type.name),
                           box=board.term(jumped)))
        if unit.jumped:
            return IllegalActionError(rule, Msg("{unit} has already jumped this turn", unit=unit_name(unit)))
        if state.has_units(path[-1], enemy):
            return IllegalActionError(rule, Msg("a jump must end in a box without enemy units"))
    return None


def _lines_compatible(state: State, unit: Unit, lines: tuple[str, ...]) -> bool:
    """4.e: infantry keeps one line type; cavalry mixes road and rail but not rivers."""
    if moves_like_cavalry(state, unit):
        return len({kind == "river" for kind in lines}) == 1
    return len(set(lines)) == 1


def _candidate_paths(state: State, unit: Unit) -> Iterator[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Path shapes the unit could take: line types compatible (4.e) and no longer than T-3 allows.
    Each is still confirmed by check_path."""
    board = state.board

    def extend(path: tuple[str, ...], lines: tuple[str, ...]) -> Iterator:
        for step in board.steps(path[-1]):
            if step.to in path:
                continue
            new_path, new_lines = path + (step.to,), lines + (step.kind,)
            if not _lines_compatible(state, unit, new_lines):
                continue
            if len(new_lines) > max_links(state, unit, frozenset(new_lines)):
                continue
            yield new_path, new_lines
            yield from extend(new_path, new_lines)

    yield from extend((unit.location,), ())


def legal_paths(state: State, unit: Unit) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    return [(p, k) for p, k in _candidate_paths(state, unit) if check_path(state, unit, p, k) is None]


def has_one_link_move(state: State, unit: Unit) -> bool:
    """Quick test used to decide whether a box can start a march."""
    for step in state.board.steps(unit.location):
        if check_path(state, unit, (unit.location, step.to), (step.kind,)) is None:
            return True
    return False


def check_move(state: State, unit_id: str, path: tuple[str, ...], lines: tuple[str, ...]) -> IllegalActionError | None:
    unit, error = _in_march(state, unit_id)
    return error or check_path(state, unit, tuple(path), tuple(lines))


def jump_rule(state: State, unit: Unit, path: tuple[str, ...], lines: tuple[str, ...]) -> str | None:
    """The jump a legal path makes, if it passes a box with enemy units: "4.2.2" (Union downstream
    river jump) or "4.2.1" (cavalry jump); None without a jump. Call before the unit moves."""
    if not any(state.has_units(b, unit.side.enemy) for b in path[1:-1]):
        return None
    board = state.board
    downstream = set(lines) == {"river"} and all(board.is_downstream(a, b) for a, b in zip(path, path[1:]))
    return "4.2.2" if unit.side is Side.UNION and downstream else "4.2.1"


def apply_move(state: State, unit: Unit, path: tuple[str, ...]) -> None:
    dest = path[-1]
    state.place(unit, dest)
    unit.marches += 1
    unit.entered_from = path[-2]
    unit.crossing = state.board.enters_over_water(dest, path[-2])
    if any(state.has_units(b, unit.side.enemy) for b in path[1:-1]):
        unit.jumped = True
    if state.has_units(dest, unit.side.enemy):
        unit.stopped = True


# --------------------------------------------------------------------------- entrenchment
def check_entrench(state: State, unit_id: str) -> IllegalActionError | None:
    unit, error = _in_march(state, unit_id)
    return error or entrench_barrier(state, unit)


def entrench_barrier(state: State, unit: Unit) -> IllegalActionError | None:
    """Why ``unit`` may not entrench where it stands (4.2.5), march context aside."""
    error = _ready(state, unit)
    if error:
        return error
    box = state.board.boxes[unit.location]
    if state.has_units(box.id, unit.side.enemy) and not _may_entrench_beside_enemy(state, unit):
        return IllegalActionError("4.2.5", Msg("units may not entrench in a box holding enemy units"))
    if state.is_entrenched(unit):
        return IllegalActionError("4.2.5", Msg("{unit} is already entrenched", unit=unit_name(unit)))
    if not box.is_recruiting_city and unit.entrench_progress == 0 and unit.marches > 0:
        return IllegalActionError(
            "4.2.5", Msg("outside a recruiting city a unit entrenches only by taking part in two marches, "
                         "both ordering it to entrench; it has already used a march this turn"))
    return None


def _may_entrench_beside_enemy(state: State, unit: Unit) -> bool:
    """A-4 (c): Confederates may entrench in a contained box despite the enemy."""
    return "A-4" in state.options and unit.side is Side.CONFEDERATE and unit.location in state.contained


def apply_entrench(state: State, unit: Unit) -> bool:
    """Returns True if the unit is now entrenched, False if it spent the first of two marches."""
    unit.marches += 1
    if state.board.boxes[unit.location].is_recruiting_city or unit.entrench_progress == 1:
        unit.entrenched = True
        unit.entrench_progress = 0
        return True
    unit.entrench_progress = 1
    return False


# --------------------------------------------------------------------------- naval moves and invasions
def confederate_navy(state: State) -> bool:
    """AO-8.4 (b): after foreign intervention the Confederacy makes naval moves too."""
    return "AO-8.4" in state.options and state.intervention


def _check_sea_unit(state: State, unit_id: str, rule: str) -> tuple[Unit | None, IllegalActionError | None]:
    unit = state.units.get(unit_id)
    from_europe = unit is not None and unit.location == EUROPE and rule == "4.2.3"
    if unit is None or not (unit.on_map or from_europe):
        return None, IllegalActionError(rule, Msg("there is no unit {id} on the map", id=repr(unit_id)))
    navy = unit.side is Side.UNION or (rule == "4.2.3" and confederate_navy(state))
    if not navy or unit.side is not state.phasing:
        return None, IllegalActionError(rule, Msg("only the Union moves by sea (the Confederacy too after foreign "
                                                  "intervention, AO-8.4), in its own half-turn"))
    if state.marches_left < 1:
        return None, IllegalActionError("4.b", Msg("no marches are left"))
    if from_europe:
        return unit, None
    if unit.marches > 0 or unit.naval or unit.location != unit.start_box:
        return None, IllegalActionError(rule, Msg("{unit} has already moved this turn; a unit moving by sea "
                                                  "makes no other movement that turn", unit=unit_name(unit)))
    return unit, None


def check_naval_move(state: State, unit_id: str, to: str) -> IllegalActionError | None:
    unit, error = _check_sea_unit(state, unit_id, "4.2.3")
    if error:
        return error
    board = state.board
    side = unit.side
    if to not in board or not board.boxes[to].port:
        return IllegalActionError("4.2.3", Msg("{id} is not a port", id=repr(to)))
    if side is Side.CONFEDERATE:  # AO-8.4 (b), (c)
        if unit.location != EUROPE and (not board.boxes[unit.location].port
                                        or state.control[unit.location] is not Side.CONFEDERATE):
            return IllegalActionError("AO-8.4", Msg("{unit} did not begin the turn in a Confederate port", unit=unit_name(unit)))
        if unit.location == EUROPE and not unit.is_foreign:
            return IllegalActionError("AO-8.4", Msg("only foreign units come from Europe"))
        if state.control[to] is not Side.CONFEDERATE:
            return IllegalActionError("AO-8.4", Msg("{box} is not Confederate-controlled", box=board.term(to)))
        if to == unit.location:
            return IllegalActionError("4.2.3", Msg("a naval move goes to another port"))
        if state.has_units(to, Side.UNION):
            return IllegalActionError("4.2.3", Msg("{box} holds enemy units", box=board.term(to)))
        return None
    if not board.boxes[unit.location].port:
        return IllegalActionError("4.2.3", Msg("{unit} did not begin the turn in a port", unit=unit_name(unit)))
    if to == unit.location:
        return IllegalActionError("4.2.3", Msg("a naval move goes to another port"))
    if state.control[to] is not Side.UNION:
        return IllegalActionError("4.2.3", Msg("{box} is not Union-controlled; naval moves go to Union ports",
                                           box=board.term(to)))
    if first_turn_limits(state):
        return IllegalActionError("O-4.1", Msg("on turn 1 the Union makes no naval moves"))
    if state.has_units(to, Side.CONFEDERATE) and not ("A-4" in state.options and to in state.contained):
        return IllegalActionError("4.2.3", Msg("{box} holds enemy units", box=board.term(to)))
    return None


def check_invade(state: State, unit_id: str, port: str) -> IllegalActionError | None:
    unit, error = _check_sea_unit(state, unit_id, "4.2.4")
    if error:
        return error
    board = state.board
    if state.march_roll != 6:
        return IllegalActionError("4.2.4", Msg("a naval invasion needs a natural 6 on this half-turn's march die"))
    if unit.location != "washington":
        return IllegalActionError("4.2.4", Msg("only units that began the turn in Washington may invade"))
    if port not in board or not board.boxes[port].port:
        return IllegalActionError("4.2.4", Msg("{box} is not a port", box=board.term(port)))
    if state.control[port] is Side.UNION:
        return IllegalActionError("4.2.4", Msg("{box} is Union-controlled; invasions target other ports",
                                           box=board.term(port)))
    if ("O-4.2" in state.options and port in ("yorktown", "norfolk")
            and state.control["fort_monroe"] is Side.CONFEDERATE):
        return IllegalActionError("O-4.2", Msg("while the Confederacy holds Fort Monroe there is no invasion of {box}",
                                               box=board.term(port)))
    if state.invasion_port is not None and port != state.invasion_port:
        return IllegalActionError("4.2.4", Msg("this turn's invasion goes to {box}: one destination port per turn",
                                               box=board.term(state.invasion_port)))
    return None


def apply_sea_move(state: State, unit: Unit, to: str, invasion: bool) -> None:
    state.place(unit, to)
    unit.naval = "4.2.4" if invasion else "4.2.3"
    unit.marches = 2
    unit.entered_from = SEA
    unit.crossing = invasion
    unit.stopped = state.has_units(to, unit.side.enemy)
    if invasion:
        state.invasion_port = to


def legal_sea_moves(state: State) -> Iterator[tuple[str, Unit, str]]:
    """(kind, unit, destination) for every legal naval move and invasion."""
    if state.marches_left < 1:
        return
    if state.phasing is Side.CONFEDERATE:
        if confederate_navy(state):  # AO-8.4 (b), (c)
            ports = [p for p in sorted(state.board.ports) if state.control[p] is Side.CONFEDERATE
                     and not state.has_units(p, Side.UNION)]
            movers = state.units_of(Side.CONFEDERATE) + state.units_of(Side.CONFEDERATE, EUROPE)
            for unit in sorted(movers, key=lambda u: u.id):
                if unit.on_map and (unit.marches or unit.naval or unit.location != unit.start_box
                                    or not state.board.boxes[unit.location].port):
                    continue
                for port in ports:
                    if check_naval_move(state, unit.id, port) is None:
                        yield "naval", unit, port
        return
    board = state.board
    ports = sorted(board.ports)
    # cheap filters first; every yielded move is still confirmed by its check function
    union_ports = [p for p in ports if state.control[p] is Side.UNION
                   and (not state.has_units(p, Side.CONFEDERATE) or p in state.contained)]
    invasion_ports = [p for p in ports if state.control[p] is not Side.UNION] if state.march_roll == 6 else []
    for unit in state.units_of(Side.UNION):
        if unit.marches or unit.naval or unit.location != unit.start_box or not board.boxes[unit.location].port:
            continue
        for port in union_ports:
            if check_naval_move(state, unit.id, port) is None:
                yield "naval", unit, port
        if unit.location == "washington":
            for port in invasion_ports:
                if check_invade(state, unit.id, port) is None:
                    yield "invade", unit, port


# --------------------------------------------------------------------------- march origins
def can_act_in_march(state: State, unit: Unit) -> bool:
    """Has this unit at least one legal order (move or entrench) from its box?"""
    if _ready(state, unit) is not None:
        return False
    if has_one_link_move(state, unit):
        return True
    box = state.board.boxes[unit.location]
    if (not state.has_units(box.id, unit.side.enemy) or _may_entrench_beside_enemy(state, unit)) \
            and not state.is_entrenched(unit):
        if box.is_recruiting_city or unit.entrench_progress == 1 or unit.marches == 0:
            return True
    return bool(legal_paths(state, unit))


def march_origins(state: State) -> list[str]:
    """Boxes from which a march can start: holding a phasing unit with a legal order."""
    origins = set()
    for unit in state.units_of(state.phasing):
        if unit.location not in origins and can_act_in_march(state, unit):
            origins.add(unit.location)
    return sorted(origins)


# --------------------------------------------------------------------------- leaders alone (AO-8.2.1)
def check_leader_move(state, name: str, path: tuple[str, ...], lines: tuple[str, ...]) -> IllegalActionError | None:
    """AO-8.2.1: a leader moving alone moves as a militia infantry (C-3), never into enemy units."""
    leader, error = leaders.movable(state, name)
    if error:
        return error
    if len(path) >= 2 and path[-1] in state.board and state.has_units(path[-1], leader.side.enemy):
        return IllegalActionError("AO-8.2.1", Msg("a leader alone never moves into enemy units (except to reinforce)"))
    return check_path(state, leaders.as_infantry(state, leader), tuple(path), tuple(lines))


def legal_leader_moves(state, leader: "leaders.Leader") -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    if leader.marches >= leaders.MAX_LEADER_MARCHES:
        return []
    return [(p, k) for p, k in legal_paths(state, leaders.as_infantry(state, leader))
            if not state.has_units(p[-1], leader.side.enemy)]
