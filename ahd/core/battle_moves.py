"""Units moving in and out of a battle: retreat (5.2.5; the cavalry's, 5.2.6; C-1; the routed units' of
AO-8.12 meet the same barriers), evacuation by sea (O-3.1) and reinforcements (5.2.4). The rest of combat, from
targets to damage, is in ``combat.py``.
"""
from __future__ import annotations

from .combat import battle_units
from .errors import IllegalActionError
from .i18n import Msg
from .sides import Side
from .state import Battle, State
from .units import Unit, unit_name


# --------------------------------------------------------------------------- retreat (5.2.5, 5.2.6, C-1)
def retreat_barrier(state: State, battle: Battle, side: Side, to: str) -> IllegalActionError | None:
    """Why ``side`` may not retreat from the battle to ``to`` under 5.2.5 (a)–(d), or None."""
    board = state.board
    enemy = side.enemy
    if to not in board or not board.are_adjacent(battle.box, to):
        return IllegalActionError("5.2.5", Msg("{to} is not adjacent to {box}", to=board.term(to), box=board.term(battle.box)))
    if side is Side.CONFEDERATE and board.is_potomac(battle.box, to):
        return IllegalActionError("4.2.6", Msg("Confederate units may never retreat across the Potomac"))
    fighting = battle_units(state, battle, side)
    if fighting and all(u.is_coastal for u in fighting):
        return IllegalActionError("A-5", Msg("a coastal defence cannot retreat"))
    if state.turn == 1 and "O-4.1" in state.options and board.boxes[to].owner is None:
        return IllegalActionError("O-4.1", Msg("on turn 1 no unit enters Kentucky"))
    if state.has_units(to, enemy):
        return IllegalActionError("5.2.5", Msg("{to} holds enemy units", to=board.term(to)))
    if state.control[to] is enemy and board.boxes[to].value_for(enemy) > 0:
        return IllegalActionError("5.2.5", Msg("{to} is an enemy recruiting city", to=board.term(to)))
    if side is battle.defender and to in battle.entry_boxes:
        return IllegalActionError("5.2.5", Msg("the enemy entered the battle from {to}", to=board.term(to)))
    if to in battle.reinforce_origins.get(enemy, ()):
        return IllegalActionError("C-1", Msg("enemy reinforcements came from {to}", to=board.term(to)))
    return None


def retreat_boxes(state: State, battle: Battle, side: Side) -> list[str]:
    """Legal retreat boxes, after the friendly preference (a friendly box must be chosen if any)."""
    legal = [b for b in sorted(state.board.neighbours(battle.box))
             if retreat_barrier(state, battle, side, b) is None]
    friendly = [b for b in legal if state.control[b] is side]
    return friendly or legal


def check_retreat(state: State, battle: Battle, side: Side, to: str, *, cavalry: bool = False) -> IllegalActionError | None:
    rule = "5.2.6" if cavalry else "5.2.5"
    barrier = retreat_barrier(state, battle, side, to)
    if barrier:
        return barrier
    if to not in retreat_boxes(state, battle, side):
        return IllegalActionError(rule, Msg("a friendly box is available, so the retreat must go to a friendly box"))
    return None


def cavalry_retreat_possible(state: State, battle: Battle) -> bool:
    """5.2.6: all defenders cavalry, at least one attacker not, and a box to go to. A coastal
    defence (A-5) is not a unit (0.5), as for 9.b: it does not stop its cavalry from withdrawing
    (it cannot go with them, A-5 b, and fights on alone: see CombatSteps._do_cavalry_retreat)."""
    defenders = [u for u in battle_units(state, battle, battle.defender) if not u.is_coastal]
    attackers = battle_units(state, battle, battle.attacker)
    return (bool(defenders) and all(u.type.is_cavalry for u in defenders)
            and any(not u.type.is_cavalry for u in attackers)
            and any(retreat_barrier(state, battle, battle.defender, b) is None
                    for b in state.board.neighbours(battle.box)))


def cavalry_retreat_boxes(state: State, battle: Battle) -> list[str]:
    """5.2.6 boxes: 5.2.5 (a)–(d), with no friendly preference."""
    return [b for b in sorted(state.board.neighbours(battle.box))
            if retreat_barrier(state, battle, battle.defender, b) is None]


SOUTHERN_EXTRA_PORTS = ("fort_monroe", "pensacola")


def evacuation_barrier(state: State, battle: Battle) -> IllegalActionError | None:
    """O-3.1: may the Union retreat by sea to Washington from this battle now?"""
    board = state.board
    box = board.boxes[battle.box]
    if "O-3.1" not in state.options:
        return IllegalActionError("O-3.1", Msg("naval evacuation is an optional rule that is off"))
    if battle.firing is not Side.UNION or battle.round < 2:
        return IllegalActionError("O-3.1", Msg("the Union evacuates by sea in its own firing moment, from round 2"))
    if battle.reinforced_now:
        return IllegalActionError("5.2.5", Msg("a retreat comes before reinforcing, not after"))
    southern = box.port and (box.owner is Side.CONFEDERATE or box.id in SOUTHERN_EXTRA_PORTS)
    if not southern:
        return IllegalActionError("O-3.1", Msg("{box} is not a southern port", box=board.term(box.id)))
    if battle.attacker is Side.UNION and not battle.invasion:
        return IllegalActionError("O-3.1", Msg("the Union evacuates only a port it invaded by sea or defends"))
    if state.control["washington"] is not Side.UNION or state.has_units("washington", Side.CONFEDERATE):
        return IllegalActionError("O-3.1", Msg("Washington must be Union-controlled and free of enemy units"))
    return None


# --------------------------------------------------------------------------- reinforcements (5.2.4)
def reinforcement_barrier(state: State, battle: Battle, unit_id: str) -> IllegalActionError | None:
    board = state.board
    side = battle.firing
    unit = state.units.get(unit_id)
    if battle.round < 2:
        return IllegalActionError("5.2.4", Msg("reinforcements arrive from round 2 on"))
    if unit is None or not unit.on_map or unit.side is not side:
        return IllegalActionError("5.2.4", Msg("{unit} is not a unit of the firing side on the map", unit=unit_id))
    origin = unit.location
    if side is Side.UNION and origin in state.contained and "A-4" in state.options \
            and state.has_units(origin, Side.CONFEDERATE):
        return IllegalActionError("A-4", Msg("{unit} is contained in {origin} and cannot leave by land before a "
                                             "break-out", unit=unit_name(unit), origin=board.term(origin)))
    if origin == battle.box or not board.are_adjacent(origin, battle.box):
        return IllegalActionError("5.2.4", Msg("{unit} is not in a box adjacent to the battle", unit=unit_name(unit)))
    if side is Side.CONFEDERATE and board.is_potomac(origin, battle.box):
        return IllegalActionError("4.2.6", Msg("Confederate units may never reinforce across the Potomac"))
    if origin in battle.used_origins:
        return IllegalActionError("5.2.4", Msg("a unit from {origin} has already come this firing moment",
                                                 origin=board.term(origin)))
    if unit.retreated:
        return IllegalActionError("5.2.4", Msg("{unit} retreated from a battle this turn", unit=unit_name(unit)))
    enemy_there = state.count_in(origin, side.enemy)
    if side is battle.attacker:
        if enemy_there:
            return IllegalActionError("5.2.4", Msg("the attacker may not reinforce from {origin}, which holds enemy "
                                                   "units", origin=board.term(origin)))
        if unit.fought:
            return IllegalActionError("5.2.4", Msg("{unit} took part in another battle this turn", unit=unit_name(unit)))
    elif enemy_there and state.count_in(origin, side) - 1 < enemy_there:
        return IllegalActionError("5.2.4", Msg("leaving {origin} would leave fewer units than the enemy has there",
                                                 origin=board.term(origin)))
    return None


def reinforcements(state: State, battle: Battle) -> list[Unit]:
    side = battle.firing
    board = state.board
    result = []
    for origin in sorted(board.neighbours(battle.box)):
        if origin in battle.used_origins:
            continue
        for unit in sorted(state.by_box[origin], key=lambda u: u.id):
            if unit.side is side and reinforcement_barrier(state, battle, unit.id) is None:
                result.append(unit)
    return result
