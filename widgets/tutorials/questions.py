"""Questions with a box to type the answer in, checked as it is typed (chapters 01, 06, 00, 09)."""
from __future__ import annotations

from typing import Any, Iterable

from ahd import Game, Options
from ahd.core.actions import EndMovement, Move, Reinforce
from ahd.core.positions import march, pass_until, position_game
from ahd.core.i18n import render
from ahd.core.sides import Side

from widgets.tutorials.answers import DONE, WRONG, Question, Verdict, _whole_number
from widgets.model.i18n import _, _n
from widgets.tutorials.board_views import C, U
from widgets.tutorials.battle_reading import misses_until
from widgets.tutorials.exercises import _box_ids
from widgets.tutorials.tables import calendar_rows


# =========================================================================== 01 the board
def forts_question(game: Game) -> Question:
    """Name the permanent forts (4.2.5 d)."""
    board = game.board
    forts = {b.id for b in board if b.fort}

    def judge(answer: Any) -> Verdict:
        if isinstance(answer, str):
            answer = [answer]
        found, unknown = _box_ids(board, answer)
        if unknown:
            return Verdict(WRONG, _("no box is called {names}; hover over the map for names.").format(
                names=", ".join(map(repr, unknown))))
        if found == forts:
            return Verdict(DONE, _("the four permanent forts: {boxes}.").format(
                boxes=", ".join(sorted(board.local_name(b) for b in forts))))
        missing, extra = forts - found, found - forts
        parts = []
        if extra:
            parts.append(_n("{boxes} has no star (no fort)", "{boxes} have no star (no fort)", len(extra)).format(
                boxes=", ".join(sorted(board.local_name(b) for b in extra))))
        if missing:
            parts.append(_n("{n} fort missing", "{n} forts missing", len(missing)).format(n=len(missing)))
        return Verdict(WRONG, _("{problems}. Look for the ★ on the map.").format(problems="; ".join(parts)))

    return Question(_("Which boxes are permanent forts?"), judge,
                    placeholder=_("box names separated by commas, e.g. Washington, Richmond"))


def values_question(game: Game, box_id: str) -> Question:
    """Read a box's two recruiting values off the map: answer (Union value, Confederate value)."""
    box = game.board[box_id]
    expected = (box.blue_value, box.red_value)

    def judge(answer: Any) -> Verdict:
        try:
            given = tuple(int(v) for v in answer)
        except (TypeError, ValueError):
            return Verdict(WRONG, _("answer with two numbers: (Union value, Confederate value)."))
        if given == expected:
            return Verdict(DONE, _("{box} is worth {union} to the Union and {confederate} to the Confederacy; "
                                   "each counts only for the side that controls it (7.c).").format(
                box=name, union=expected[0], confederate=expected[1]))
        if given == expected[::-1]:
            return Verdict(WRONG, _("the right numbers in the wrong order: the Union (blue) value comes first."))
        return Verdict(WRONG, _("hover over {box} on the map and read its blue and red numbers.").format(box=name))

    name = game.board.local_name(box_id)
    return Question(_("What are {box}'s recruiting values?").format(box=name), judge,
                    placeholder=_("two numbers, Union first, e.g. 2, 0"))


def maximum_question(game: Game, side: Side | str, captured: Iterable[str], by: Side | str) -> Question:
    """The army maximum of ``side`` (7.c) once ``by`` controls the boxes ``captured``."""
    side, by = Side.parse(side), Side.parse(by)
    captured = list(captured)
    board = game.board
    after = position_game([], control={by.value: captured}, turn=game.state.turn)
    expected = after.army_max(side)
    before = game.army_max(side)

    @_whole_number
    def judge(value: int) -> Verdict:
        if value == expected:
            return Verdict(DONE, _("{before} becomes {after}: a capture removes the loser's own-colour value "
                                   "and adds the captor's own-colour value (7.c).").format(before=before, after=expected))
        return Verdict(WRONG, _("not {value}. Start from {before} and look at the {side} value of {boxes} on "
                                "the map.").format(value=value, before=before, side=render(side), boxes=names))

    names = ", ".join(board.local_name(b) for b in captured)
    return Question(_("What is the {side} army maximum if the {by} side controls {boxes}?").format(
        side=render(side), by=render(by), boxes=names), judge, placeholder=_("a whole number"))


# =========================================================================== 06 options
def options_question(expected: Options, prompt: str) -> Question:
    """Build an Options value (or anything ``Options.parse`` accepts) equal to ``expected``."""

    def judge(answer: Any) -> Verdict:
        try:
            given = Options.parse(answer)
        except (ValueError, TypeError) as exc:
            return Verdict(WRONG, _("not a valid set of options: {error}").format(error=exc))
        if given == expected:
            return Verdict(DONE, _("rules on: {rules}.").format(rules=", ".join(expected.to_list())))
        missing = sorted(expected.enabled - given.enabled)
        extra = sorted(given.enabled - expected.enabled)
        parts = ([_("turn on {rules}").format(rules=", ".join(missing))] if missing else []) + (
            [_("turn off {rules}").format(rules=", ".join(extra))] if extra else [])
        return Verdict(WRONG, "; ".join(parts) + ".")

    return Question(prompt, judge, placeholder=_("a preset name, or rule IDs separated by commas"))


def winter_turns_question(year: int) -> Question:
    """Which turns of ``year`` are two-month winter turns (3.c, T-2)?"""
    rows = [r for r in calendar_rows() if r["year"] == year]
    expected = {r["turn"] for r in rows if r["two_months"]}
    months = {r["turn"]: r["months"] for r in calendar_rows()}

    def judge(answer: Any) -> Verdict:
        items = [answer] if isinstance(answer, (int, str)) else list(answer)
        try:
            given = {int(item) for item in items}
        except (TypeError, ValueError):
            return Verdict(WRONG, _("answer with turn numbers separated by commas, e.g. 5, 6."))
        if given == expected:
            first, second = sorted(expected)
            return Verdict(DONE, _("turn {first} ({first_months}) and turn {second} ({second_months}): the two "
                                   "winter turns of {year} (3.c).").format(
                first=first, first_months=months[first], second=second, second_months=months[second], year=year))
        outside = sorted(t for t in given if t not in months or not any(r["turn"] == t for r in rows))
        if outside:
            return Verdict(WRONG, _("turn {turn} is not in {year}: read the calendar table above.").format(
                turn=outside[0], year=year))
        single = sorted(given - expected)
        if single:
            return Verdict(WRONG, _("turn {turn} is {months} alone, one month.").format(
                turn=single[0], months=months[single[0]]))
        missing = len(expected - given)
        return Verdict(WRONG, _n("{n} winter turn of {year} missing.", "{n} winter turns of {year} missing.",
                                 missing).format(n=missing, year=year))

    return Question(_("Which turns of {year} are two-month winter turns?").format(year=year), judge,
                    placeholder=_("turn numbers separated by commas, e.g. 5, 6"))


def first_turn_marches_question(scenario: str = "1861") -> Question:
    """How many marches each side has on the first turn of ``scenario`` (4.1, S-0)."""
    from ahd.core.scenario import load_scenario

    expected = load_scenario(scenario).first_turn_marches

    @_whole_number
    def judge(value: int) -> Verdict:
        if value == expected:
            return Verdict(DONE, _n("{n} march each, with no roll, so no naval invasion on turn 1 (4.1).",
                                    "{n} marches each, with no roll, so no naval invasion on turn 1 (4.1).",
                                    expected).format(n=expected))
        return Verdict(WRONG, _("not that: on the first turn nobody rolls for marches; the number is fixed (4.1)."))

    return Question(_("How many marches does each side have on turn 1 of the {scenario} campaign?").format(
        scenario=scenario), judge, placeholder=_("a whole number"))


# =========================================================================== 09 strategy
def washington_battle() -> Game:
    """Four Confederate veterans attack Washington from Manassas Junction; one Union militia holds the fort,
    three more wait in Baltimore and one in Harper's Ferry. The game stops at the Union defender's firing
    moment of round 2, when it may reinforce (5.2.4)."""
    game = position_game([("union", "MF", "washington"), ("union", "MF", "baltimore", 3),
                          ("union", "MF", "harpers_ferry"), ("confederate", "FV", "manassas_junction", 4)])
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    march(game, "manassas_junction",
          *(Move(f"C-FV-0{i}", ("manassas_junction", "washington"), ("rail",)) for i in range(1, 5)))
    if game.decision == "movement":
        game.apply(EndMovement())
    misses_until(game, 2, U)
    game.dice = "auto"
    return game


def reinforcement_count_question(game: Game | None = None) -> Question:
    """How many units the defender may bring into the battle in this firing moment (5.2.4: one from each
    adjacent box holding its units), read from the engine's legal actions."""
    game = game or washington_battle()
    state = game.state
    origins = {state.units[a.unit].location for a in game.legal_actions() if isinstance(a, Reinforce)}
    expected = len(origins)
    waiting = sum(len(game.units_in(box, game.current_player)) for box in origins)
    names = ", ".join(sorted(game.board.local_name(b) for b in origins))

    @_whole_number
    def judge(value: int) -> Verdict:
        if value == expected:
            return Verdict(DONE, _("{n}: one unit from each adjacent box holding Union units ({boxes}), this "
                                   "round and again every round (5.2.4).").format(n=expected, boxes=names))
        if value == waiting:
            return Verdict(WRONG, _("{n} units wait next door, but a side brings in at most one from each "
                                    "adjacent box in a firing moment (5.2.4).").format(n=waiting))
        return Verdict(WRONG, _("not {value}: count the adjacent boxes with Union units, not the units "
                                "(5.2.4).").format(value=value))

    return Question(_("How many units can the Union bring into the battle in this firing moment?"), judge,
                    placeholder=_("a whole number"))
