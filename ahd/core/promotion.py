"""Promotion (§6): after a battle (6.a) and once per Promotion segment (6.b)."""
from __future__ import annotations

from .errors import IllegalActionError
from .i18n import Msg
from .sides import Side
from .state import State
from .units import MILITIA, OUT, POOL, Unit, unit_name


def check_promotion(state: State, unit_id: str, side: Side, eligible: set[str], rule: str) -> IllegalActionError | None:
    unit = state.units.get(unit_id)
    if unit is None or not unit.on_map or unit.side is not side:
        return IllegalActionError(rule, Msg("{id} is not a {side} unit on the map", id=unit_id, side=side))
    if unit.type.promoted is None:
        return IllegalActionError("6.c", Msg("{unit} is crack and cannot be promoted", unit=unit_name(unit)))
    if unit_id not in eligible:
        if rule == "6.a":
            return IllegalActionError(rule, Msg("{unit} may not be promoted now: only a surviving unit that took part "
                                                "in the battle", unit=unit_name(unit)))
        return IllegalActionError(rule, Msg("{unit} may not be promoted now", unit=unit_name(unit)))
    return None


def promote(state: State, unit: Unit) -> Unit:
    """6.c: a new counter of the next quality replaces the old one, keeping box, strength,
    entrenchment and march usage; old militia go to the pool, old veterans out of the game."""
    new = state.new_unit(unit.side, unit.type.promoted, unit.location)
    for name in ("strength", "entrenched", "entrench_progress", "marches", "stopped", "jumped", "naval",
                 "entered_from", "crossing", "retreated", "fought", "start_box"):
        setattr(new, name, getattr(unit, name))
    entrenched = unit.entrenched
    state.place(unit, POOL if unit.type.quality == MILITIA else OUT)
    new.entrenched = entrenched
    return new
