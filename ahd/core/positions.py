"""Custom start positions: a few units on the board, some control changes, a chosen turn.

The rules' worked examples (section E) and the tutorials start from small positions, not from a
scenario's set-up. :func:`position` builds one as a :class:`~ahd.scenario.Scenario`;
:func:`position_game` starts a game from it::

    >>> from ahd.positions import position_game
    >>> game = position_game([("union", "MF", "evansville", 3)], control={"union": ["louisville"]})
    >>> game.decision, game.marches_left, len(game.units_in("evansville"))
    ('movement', 2, 3)

Units are tuples ``(side, type, box[, count[, entrenched]])``; ``control`` overrides printed owners
(``{"union": [...], "confederate": [...], "neutral": [...]}``), after which occupied boxes pass to
their occupier as in S-0; ``leaders`` (``{"lee": "lexington"}``) puts leaders on the map with their
T-6 value of ``turn``, only when the leader rules (AO-8.2) are on, as a scenario does. The game opens at the Union Movement segment of ``turn`` with
``marches`` marches for each side and no march roll on that first turn (S-0).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from .actions import (Action, BeginMarch, EndMarch, EndMovement, EndRecruitment, FireAuto, HoldGround, NoPromotion, OpenFire,
                      Roll)
from .game import Game, new_game
from .leaders import T6, t6_value
from .scenario import FORMAT, Scenario, scenario_from_dict
from .sides import CHANCE, Side

#: The "do nothing" action of each kind of decision, in the order :func:`pass_decision` tries them.
PASSES = (EndMovement, EndMarch, NoPromotion, EndRecruitment, OpenFire, FireAuto, HoldGround)


def position(units: Iterable[tuple], *, control: dict | None = None, turn: int = 2, marches: int = 2,
             last_turn: int = 40, end: str = "campaign", title: str = "custom position",
             id: str = "position", leaders: dict[str, str] | None = None,
             score_turn: int | None = None) -> Scenario:
    """A custom start position as a Scenario (validated like a scenario file).

    ``units``: tuples (side, type, box[, count[, entrenched]]), e.g. ("union", "MF", "evansville", 3).
    ``control``: {"union": [boxes], "confederate": [boxes], "neutral": [boxes]} over the printed owners.
    ``turn``: the first turn (T-2); each side then has ``marches`` marches without a roll.
    ``leaders``: {leader: box}, placed with their T-6 value of ``turn`` when AO-8.2 is on (S-0).
    ``score_turn``: with ``end="table"``, the turn scored on T-8 (17, 27 or 37; S-0).
    """
    for name in leaders or {}:
        if name.lower() in T6 and not t6_value(name.lower(), turn):
            raise ValueError(f"{name} has no T-6 value before his first date; turn {turn} is too early")
    rows = []
    for spec in units:
        side, code, box, *rest = spec
        if len(rest) > 2:
            raise ValueError(f"a unit is (side, type, box[, count[, entrenched]]), got {spec!r}")
        count = rest[0] if rest else 1
        entrenched = rest[1] if len(rest) > 1 else False
        rows.append({"side": side, "type": code, "box": box, "count": count, "entrenched": entrenched})
    data = {"format": FORMAT, "version": 1, "id": id, "rule": "custom", "title": title,
            "start_turn": turn, "first_turn_marches": marches, "last_turn": last_turn, "end": end,
            "units": rows, "control": control or {},
            "leaders": [{"name": name, "box": box} for name, box in (leaders or {}).items()]}
    if score_turn is not None:
        data["score_turn"] = score_turn
    return scenario_from_dict(data, f"<{id}>")


def position_game(units: Iterable[tuple], *, control: dict | None = None, turn: int = 2, marches: int = 2,
                  options: Any = None, dice: str = "manual", seed: int = 0, last_turn: int = 40,
                  end: str = "campaign", leaders: dict[str, str] | None = None, score_turn: int | None = None,
                  play_on: bool = False) -> Game:
    """A Game at the start of the Union movement of ``turn`` with ``marches`` marches (no roll).

    Dice default to ``"manual"``: every die is typed in with ``game.apply(Roll(n))`` or ``game.roll(n)``,
    so an example can reproduce the rules' exact numbers.
    """
    return new_game(position(units, control=control, turn=turn, marches=marches, last_turn=last_turn, end=end,
                             leaders=leaders, score_turn=score_turn),
                    options=options, seed=seed, dice=dice, play_on=play_on)


def pass_decision(game: Game, roll: int = 1) -> Action:
    """Take the 'do nothing' action of the current decision (or roll ``roll`` for a pending die)."""
    if game.current_player == CHANCE:
        action: Action = Roll(roll)
    else:
        action = next(a for a in game.legal_actions() if isinstance(a, PASSES))
    game.apply(action)
    return action


def pass_until(game: Game, predicate: Callable[[Game], bool], roll: int = 1, limit: int = 500) -> None:
    """Pass decisions (rolling ``roll`` for dice) until ``predicate(game)`` holds."""
    for _ in range(limit):
        if predicate(game):
            return
        if game.is_over:
            break
        pass_decision(game, roll)
    raise AssertionError("the position never reached the requested decision")


def to_confederate_movement(game: Game, roll: int = 1) -> None:
    """Pass the rest of the Union half-turn; stop at the Confederate movement decision."""
    pass_until(game, lambda g: g.phasing is Side.CONFEDERATE and g.decision == "movement", roll)


def march(game: Game, origin: str, *orders: Action) -> None:
    """One complete march (4.b): begin at ``origin``, apply the orders, end it if it is still open."""
    game.apply(BeginMarch(origin))
    for order in orders:
        game.apply(order)
    if game.decision == "march":
        game.apply(EndMarch())
