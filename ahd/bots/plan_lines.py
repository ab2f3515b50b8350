"""The campaign plan in words (issue 34): one translatable line a student can read.

A plan line says what the plan hopes for. A storm is offered with its odds only when they are worth
stating (``LOW`` or more): a gathering whose storm would be hopeless today says what it waits for
instead of "… 0% with 8 units", and the Confederacy, whose war is won by holding on (11.b), says which
city it holds against which threat when its plan has no march to make (in the short game, S-13, with
the maxima that decide it).
"""
from __future__ import annotations

from ..core.board import VICTORY_CITIES
from ..core.i18n import Msg, Msgn, Term
from ..core.sides import Side
from ..core.state import State
from ..core.victory import SCORE_TABLE

#: below these odds a gathering does not state them: the storm is what it waits to be able to do
LOW = 0.2


def _name(state: State, box: str) -> Term:
    return state.board.term(box)


def _within_two(board, city: str) -> set[str]:
    """``city`` and the boxes within two links of it: where a threat to it (or a press on it) is counted."""
    near = {city} | set(board.neighbours(city))
    for box in list(near):
        near |= set(board.neighbours(box))
    return near


def gather_line(state: State, side: Side, stage: str, target: str, n: int, chance: float) -> Msg:
    """Gathering ``n`` units at ``stage`` against ``target`` (the storm's odds today ``chance``)."""
    if chance >= LOW:
        return Msgn("gathering at {stage} to storm {target}, {chance:.0%} with {n} unit",
                    "gathering at {stage} to storm {target}, {chance:.0%} with {n} units",
                    n=n, stage=_name(state, stage), target=_name(state, target), chance=chance)
    if side is Side.CONFEDERATE:
        return Msgn("threatening {target} from {stage} with {n} unit: too few to storm it, but the threat "
                    "keeps the Union's army at home while the South holds on",
                    "threatening {target} from {stage} with {n} units: too few to storm it, but the threat "
                    "keeps the Union's army at home while the South holds on",
                    n=n, stage=_name(state, stage), target=_name(state, target))
    return Msgn("massing at {stage} against {target}: {n} unit is too few to storm it yet, so more are "
                "brought up first",
                "massing at {stage} against {target}: {n} units are too few to storm it yet, so more are "
                "brought up first",
                n=n, stage=_name(state, stage), target=_name(state, target))


def defence_line(state: State, side: Side, last_turn: int | None = None, score_turn: int | None = None) -> Msg:
    """The Confederacy's plan when it has no march to make: hold the most threatened city (its
    victory cities and Richmond; enemy units within two links) until reinforcements arrive. In the short
    game (``last_turn``: its last turn, S-13), or a year scenario scored on T-8 (``score_turn``: the turn
    scored, S-0), it holds its cities for the maxima: the line says so, with both maxima now."""
    board = state.board
    enemy = side.enemy
    best = None
    cities = VICTORY_CITIES
    if last_turn is not None or score_turn is not None:  # every city counts for the maxima (7.c)
        cities = tuple(b.id for b in board if b.is_recruiting_city and b.value_for(side) > 0)
    for city in cities:
        if state.control[city] is not side:
            continue
        threat = sum(state.count_in(box, enemy) for box in _within_two(board, city))
        if threat and (best is None or (threat, city == "richmond") > best[:2]):
            best = (threat, city == "richmond", city)
    if last_turn is not None:
        maxima = dict(last=last_turn, union=state.army_max(enemy), south=state.army_max(side))
        if best is None:
            return Msg("holding the South's cities: the Union wins the short game only with an army maximum 5 "
                       "above the South's after turn {last} (now {union} to {south})", **maxima)
        return Msgn("holding {city} against {n} Union unit nearby: the Union wins the short game only with an "
                    "army maximum 5 above the South's after turn {last} (now {union} to {south})",
                    "holding {city} against {n} Union units nearby: the Union wins the short game only with an "
                    "army maximum 5 above the South's after turn {last} (now {union} to {south})",
                    n=best[0], city=_name(state, best[2]), **maxima)
    if score_turn is not None:
        maxima = dict(last=score_turn, draw=SCORE_TABLE[score_turn], union=state.army_max(enemy),
                      south=state.army_max(side))
        if best is None:
            return Msg("holding the South's cities: this scenario is scored on the army maxima after turn {last}, "
                       "and the Union wins only with a maximum more than {draw} above the South's "
                       "(now {union} to {south})", **maxima)
        return Msgn("holding {city} against {n} Union unit nearby: this scenario is scored on the army maxima "
                    "after turn {last}, and the Union wins only with a maximum more than {draw} above the "
                    "South's (now {union} to {south})",
                    "holding {city} against {n} Union units nearby: this scenario is scored on the army maxima "
                    "after turn {last}, and the Union wins only with a maximum more than {draw} above the "
                    "South's (now {union} to {south})",
                    n=best[0], city=_name(state, best[2]), **maxima)
    if best is None:
        return Msg("holding the South's cities to the end of the war: the Union must take all seven by "
                   "turn 40")
    return Msgn("holding {city} against {n} Union unit nearby until reinforcements arrive",
                "holding {city} against {n} Union units nearby until reinforcements arrive",
                n=best[0], city=_name(state, best[2]))


def raid_line(state: State, last_turn: int) -> Msg:
    """The Union's plan in the short game (S-13) when it has no march of a campaign plan to make: take the
    South's cities for the maxima, naming the one most pressed (Union units within two links, less its
    defenders), with both maxima now; a city taken counts on both sides of the difference (7.c)."""
    board = state.board
    side, enemy = Side.UNION, Side.CONFEDERATE
    best = None
    for box in board:
        city = box.id
        if not box.is_recruiting_city or state.control[city] is not enemy:
            continue
        pressed = sum(state.count_in(b, side) for b in _within_two(board, city))
        edge = pressed - state.count_in(city, enemy)  # more Union units near than defenders in it
        worth = box.value_for(side) + box.value_for(enemy)
        if pressed and (best is None or (edge, worth, pressed, city) > best):
            best = (edge, worth, pressed, city)
    maxima = dict(last=last_turn, union=state.army_max(side), south=state.army_max(enemy))
    if best is None:
        return Msg("taking the South's cities: the Union wins the short game only with an army maximum 5 above "
                   "the South's after turn {last} (now {union} to {south}), and a city taken counts on both sides",
                   **maxima)
    return Msgn("pressing {city} with {n} unit nearby: the Union wins the short game only with an army maximum 5 "
                "above the South's after turn {last} (now {union} to {south}), and a city taken counts on both sides",
                "pressing {city} with {n} units nearby: the Union wins the short game only with an army maximum 5 "
                "above the South's after turn {last} (now {union} to {south}), and a city taken counts on both sides",
                n=best[2], city=_name(state, best[3]), **maxima)
