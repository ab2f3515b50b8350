"""Plan lines a student can read (issue 34): no hopeless storm offered with its odds; the Confederacy says
what it holds; every line a translatable message."""
from __future__ import annotations

import ahd
from ahd.bots import make_bot, plan_of
from ahd.bots.plan_lines import LOW, defence_line, gather_line
from ahd.core.i18n import Msg, render
from ahd.core.sides import CHANCE, Side


def test_a_hopeless_gathering_says_what_it_waits_for_not_its_odds():
    state = ahd.new_game("1861", seed=1).state
    hopeful = gather_line(state, Side.UNION, "fort_monroe", "richmond", 15, 0.45)
    assert "45%" in render(hopeful, "en")
    for side in (Side.UNION, Side.CONFEDERATE):
        line = gather_line(state, side, "fort_monroe", "richmond", 15, 0.0)
        for lang in ("en", "es", "it"):
            text = render(line, lang)
            assert "%" not in text and "Richmond" in text and "15" in text
        assert isinstance(line, Msg) and render(line, "es") != render(line, "en") != render(line, "it")
    assert "more are brought up" in render(gather_line(state, Side.UNION, "fort_monroe", "richmond", 3, LOW / 2), "en")
    assert "holds on" in render(gather_line(state, Side.CONFEDERATE, "manassas", "washington", 3, 0.0), "en")


def test_the_confederate_defence_line_names_the_threatened_city():
    game = ahd.new_game("1861", seed=1)
    state = game.state
    line = render(defence_line(state, Side.CONFEDERATE), "en")
    assert line.startswith("holding ")
    union = state.units_of(Side.UNION)[:3]
    for unit in union:
        state.place(unit, "mobile")  # three Union units in the city itself: the most threatened one
    line = render(defence_line(state, Side.CONFEDERATE), "en")
    assert "Mobile" in line and "3 Union units" in line
    assert render(defence_line(state, Side.CONFEDERATE), "es") != line


def test_hard_states_plans_on_both_sides_in_a_year_scenario_and_never_a_zero_percent_storm():
    game = ahd.new_game("1863", seed=930001)
    bots = {side: make_bot("hard", 5) for side in (Side.UNION, Side.CONFEDERATE)}
    said = {Side.UNION: set(), Side.CONFEDERATE: set()}
    while not game.is_over and game.state.turn < 21:
        player = game.current_player
        if player == CHANCE:
            game.roll()
            continue
        action = bots[player].choose(game)
        plan = plan_of(bots[player])
        if plan is not None:
            assert isinstance(plan, Msg)
            said[player].add(render(plan, "en"))
        game.apply(action)
    assert said[Side.CONFEDERATE] and said[Side.UNION]
    assert not any(" 0% " in line for lines in said.values() for line in lines)
