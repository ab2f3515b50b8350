"""Advanced rules (A-2 … A-7): the command table T-4, supply, coastal defences, the Washington
penalty and battle-day command. Pure functions over a State; the engine orders them (3.b)."""
from __future__ import annotations

from collections import deque

from .calendar import Turn
from .i18n import Joined, Msg, N_
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


# --------------------------------------------------------------------------- A-2 supply
def supply_reach(state: State, box: str, side: Side) -> set[str]:
    """A-2.2: the boxes a supply line from ``box`` reaches: rail and river links only (Confederates:
    not the Potomac), through boxes ``side`` controls that hold no enemy units; ``box`` included."""
    board = state.board
    seen = {box}
    queue = deque([box])
    while queue:
        here = queue.popleft()
        for step in board.steps(here):
            there = step.to
            if there in seen or step.kind not in ("rail", "river"):
                continue
            if side is Side.CONFEDERATE and board.is_potomac(here, there):
                continue  # 4.2.6
            if state.control[there] is not side or state.has_units(there, side.enemy):
                continue
            seen.add(there)
            queue.append(there)
    return seen


def supply_components(state: State, side: Side) -> dict[str, int]:
    """A-2.2: the graph G of the boxes ``side`` controls that hold no enemy units, joined by rail and
    river links (Confederates: not the Potomac). Returns each box of G -> the number of its component."""
    component: dict[str, int] = {}
    for box in state.board.boxes:
        if box in component or state.control[box] is not side or state.has_units(box, side.enemy):
            continue
        number = len(set(component.values()))
        for reached in supply_reach(state, box, side):  # from a box of G: exactly its component
            component[reached] = number
    return component


def is_supplied(state: State, box: str, side: Side, components: dict[str, int] | None = None) -> bool:
    """A-2.1 by the test of A-2.2 (as corrected): a stack in an own RC is supplied if its component
    of G holds another own RC; a stack elsewhere if a line from its box (which need not be friendly)
    reaches an own RC whose component of G holds another own RC; (Union) standing in or reaching a
    Union-controlled port also supplies. Two RCs joined only through the stack's box when that box
    is not in G do not supply each other, so they do not supply the stack (the old "two RCs
    reachable" test wrongly supplied it). ``components``: supply_components(state, side), if known."""
    board = state.board
    reach = supply_reach(state, box, side)  # the stack's box and the boxes of G a line reaches
    if side is Side.UNION and any(board.boxes[b].port and state.control[b] is Side.UNION for b in reach):
        return True
    if components is None:
        components = supply_components(state, side)
    cities: dict[int, int] = {}  # own RCs per component of G
    for b, number in components.items():
        if board.boxes[b].value_for(side) > 0:  # every box of G is controlled by the side
            cities[number] = cities.get(number, 0) + 1
    # a stack in an own RC of G: its component (reached) holds its own city; it needs another one
    return any(board.boxes[b].value_for(side) > 0 and cities[components[b]] >= 2
               for b in reach if b in components)


def unsupplied_stacks(state: State, side: Side) -> list[str]:
    """A-2.1: boxes holding two or more of ``side``'s units that are out of supply (a lone unit is supplied)."""
    components = supply_components(state, side)
    return [box for box, units in sorted(state.by_box.items())
            if sum(1 for u in units if u.side is side) >= 2 and not is_supplied(state, box, side, components)]


# --------------------------------------------------------------------------- A-7 battle days
COMMAND_CAP = 8
DAY_ROUNDS = 4


def battle_day(round_number: int) -> int:
    """A-7 (a): rounds 1–4 are day 1, 5–8 day 2, …"""
    return (round_number - 1) // DAY_ROUNDS + 1


def leader_command(state: State, battle, side: Side) -> int:
    """A-7 (b) with AO-8.2.2: the values of the side's leaders present."""
    if "AO-8.2" not in state.options:
        return 0
    from .leaders import leader_value_in
    return leader_value_in(state, battle.box, side)


def day_command(state: State, battle, side: Side, natural: int) -> tuple[int, "Joined"]:
    """A-7 (b): T-4 value; + ceil(previous day's final command / 2) after day 1; + leaders; at most 8.
    Returns the command and how it was made up (a message part: 'T-4 3 + leaders 2', in any language)."""
    value = command_value(state.turn, side, natural)
    parts = [Msg("T-4 {value}", value=value)]
    total = value
    if battle.day > 1 and side in battle.command:
        carried = -(-battle.command[side] // 2)
        total += carried
        parts.append(Msg("half of {command} = {carried}", command=battle.command[side], carried=carried))
    leaders = leader_command(state, battle, side)
    if leaders:
        total += leaders
        parts.append(Msg("leaders {value}", value=leaders))
    if total > COMMAND_CAP:
        parts.append(Msg("capped at {cap}", cap=COMMAND_CAP))
        total = COMMAND_CAP
    return total, Joined(parts, " + ")


# --------------------------------------------------------------------------- AO-8.3 border states
#: T-7: state -> (its recruiting cities, all Confederate-controlled; the number to exceed).
T7: dict[str, tuple[tuple[str, ...], int]] = {
    "Missouri": (("st_joseph", "springfield_mo", "st_louis"), 3),
    "Kentucky": (("bowling_green", "louisville"), 1),
    "Maryland": (("baltimore",), 6),
}


def border_states_eligible(state: State) -> list[str]:
    """AO-8.3: unused border states whose T-7 cities are all Confederate-controlled."""
    return [name for name, (cities, _) in T7.items()
            if name not in state.border_used and state.controls_all(Side.CONFEDERATE, cities)]


def border_modifiers(state: State) -> list[tuple[int, str]]:
    """AO-8.3 / T-7 modifiers (army maxima without O-3.4): (amount, why); ``why`` is English marked for
    the catalogs (say it with ``ahd.core.i18n._(why)`` or ``Msg(why)``)."""
    year = Turn.of(state.turn).year
    d = state.army_max(Side.UNION) - state.army_max(Side.CONFEDERATE)
    mods = []
    if d <= 5:
        mods.append((1, N_("Union max − Confederate max ≤ 5")))
    if year == 1861:
        mods.append((1, "1861"))
    if state.control["washington"] is Side.CONFEDERATE:
        mods.append((2, N_("the Confederacy controls Washington")))
    if year >= 1863:
        mods.append((1862 - year, str(year)))
    if d >= 10:
        mods.append((-1, N_("Union max − Confederate max ≥ 10")))
    if state.control["richmond"] is Side.UNION:
        mods.append((-1, N_("the Union controls Richmond")))
    return mods


# --------------------------------------------------------------------------- A-4 containment
CONTAINMENT_FORTS = ("fort_monroe", "pensacola")


def containable(state: State, box: str) -> bool:
    """A-4 (a): a Union-controlled port captured by naval invasion, or Fort Monroe / Pensacola held by
    the Union, with Union units in it."""
    if "A-4" not in state.options or state.control[box] is not Side.UNION or not state.has_units(box, Side.UNION):
        return False
    return box in state.invaded_ports or box in CONTAINMENT_FORTS


def prune_containment(state: State) -> None:
    """Containment lasts while both sides stay in the box (and it stays Union)."""
    state.contained = {b for b in state.contained
                       if containable(state, b) and state.has_units(b, Side.CONFEDERATE)}


def is_contained(state: State, box: str) -> bool:
    return "A-4" in state.options and box in state.contained and state.has_units(box, Side.CONFEDERATE) \
        and state.has_units(box, Side.UNION)


# --------------------------------------------------------------------------- AO-8.4 foreign intervention
FOREIGN_UNITS = 4


def intervention_due(state: State) -> bool:
    """AO-8.4 (a): (1) Union max − Confederate max ≤ 3; (2) the Confederacy controls Washington and a
    Union recruiting city worth 2 or more; (3) Confederate cities worth 2+ held by the Union are no
    more than Union cities worth 2+ held by the Confederacy."""
    if "AO-8.4" not in state.options or state.intervention:
        return False
    if state.army_max(Side.UNION) - state.army_max(Side.CONFEDERATE) > 3:
        return False
    board = state.board
    union_big_lost = sum(1 for b in board if b.blue_value >= 2 and state.control[b.id] is Side.CONFEDERATE)
    confederate_big_lost = sum(1 for b in board if b.red_value >= 2 and state.control[b.id] is Side.UNION)
    return (state.control["washington"] is Side.CONFEDERATE and union_big_lost >= 1
            and confederate_big_lost <= union_big_lost)
