"""Promotion (§6): after a battle (6.a) and once per Promotion segment (6.b)."""
from __future__ import annotations

from .errors import IllegalActionError
from .sides import Side
from .state import State
from .units import MILITIA, OUT, POOL, Unit


def check_promotion(state: State, unit_id: str, side: Side, eligible: set[str], rule: str) -> IllegalActionError | None:
    unit = state.units.get(unit_id)
    if unit is None or not unit.on_map or unit.side is not side:
        return IllegalActionError(rule, f"{unit_id} is not a {side.adjective} unit on the map")
    if unit.type.promoted is None:
        return IllegalActionError("6.c", f"{unit.label} is crack and cannot be promoted")
    if unit_id not in eligible:
        return IllegalActionError(rule, f"{unit.label} may not be promoted now"
                                        + (": only a surviving unit that took part in the battle" if rule == "6.a" else ""))
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
