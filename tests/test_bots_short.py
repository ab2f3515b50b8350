"""hard's Confederacy in the short game (``ahd.bots.short_game``, ``search:maxima=on``; issue 34): it values
its cities by the army maxima that decide the game (S-13), and in the year scenarios scored on them (T-8,
``maxima_years=on``), and nowhere else; and hard's Union in those year scenarios holding its own cities by the
maxima (``maxima_union=on``)."""
from __future__ import annotations

import pytest

import ahd
from ahd.bots import make_bot, plan_of
from ahd.bots.heuristic import HeuristicBot
from ahd.bots.plan_lines import defence_line, raid_line
from ahd.bots.short_game import MaximaHeuristic
from ahd.core.i18n import render
from ahd.core.positions import pass_until, position_game
from ahd.core.sides import Side

#: a Union raider next to Wilmington, which the Union holds with nobody in it; two Confederates at Goldsboro
UNITS = [("union", "MF", "washington", 3), ("union", "MF", "new_bern", 1),
         ("confederate", "FV", "goldsboro", 2), ("confederate", "MF", "richmond", 1)]
CONTROL = {"union": ["wilmington"]}


def confederate_movement(end: str = "short", play_on: bool = False):
    if end == "table":  # a year scenario's end: scored on T-8 after turn 27 (S-0), two turns from now
        game = position_game(UNITS, control=CONTROL, turn=25, last_turn=40, end=end, marches=2, score_turn=27,
                             play_on=play_on)
    else:
        game = position_game(UNITS, control=CONTROL, turn=3, last_turn=10, end=end, marches=2)
    pass_until(game, lambda g: g.state.phasing is Side.CONFEDERATE and g.decision == "movement")
    return game


def marches(bot, game) -> list[str]:
    """The Confederate half-turn's movement as ``bot`` plays it: the boxes its moves end in."""
    ends = []
    while game.state.phasing is Side.CONFEDERATE and game.decision in ("movement", "march"):
        action = bot.choose(game)
        if action.kind == "move":
            ends.append(action.path[-1])
        game.apply(action)
    return ends


def test_inactive_the_values_are_the_heuristics_and_active_only_the_confederacys_change():
    state = ahd.new_game("short", seed=1).state
    plain, off, on = HeuristicBot(1), MaximaHeuristic(1), MaximaHeuristic(1, active=True)
    for box in state.board.boxes:
        for side in (Side.UNION, Side.CONFEDERATE):
            assert off._value(state, box, side) == plain._value(state, box, side)
        assert on._value(state, box, Side.UNION) == plain._value(state, box, Side.UNION)
    # the campaign's Confederacy: Washington (25 + 1) outweighs Memphis (2) and Baltimore (1 + 1) together
    assert plain._value(state, "washington", Side.CONFEDERATE) > 3 * plain._value(state, "memphis", Side.CONFEDERATE)
    # by the maxima (7.c): Memphis moves the difference by 2, Baltimore by 2 (1 each side), Washington by 1
    assert on._value(state, "memphis", Side.CONFEDERATE) == on._value(state, "baltimore", Side.CONFEDERATE)
    assert on._value(state, "washington", Side.CONFEDERATE) <= on._value(state, "memphis", Side.CONFEDERATE)


@pytest.mark.rule("S-13")
def test_in_the_short_game_hard_retakes_an_empty_city_near_a_raider_instead_of_marching_north():
    """S-13: the short game is decided by the maxima after turn 10, so Wilmington (2 to the Confederacy, 7.c)
    is worth retaking and holding against the raider next to it; the search bot without ``maxima`` sends
    both units north to Richmond, on the way to Washington."""
    assert marches(make_bot("hard", 7), confederate_movement()) == ["wilmington", "wilmington"]
    assert "wilmington" not in marches(make_bot("search:iterations=2,final=on", 7), confederate_movement())


def test_maxima_changes_nothing_outside_the_short_game():
    """The setting acts in the short game only: in a campaign game the same bot plays as without it."""
    with_it, without = make_bot("search:iterations=2,maxima=on", 3), make_bot("search:iterations=2", 3)
    assert marches(with_it, confederate_movement("campaign")) == marches(without, confederate_movement("campaign"))
    assert with_it.heuristic.active is False
    with_it.choose(confederate_movement("short"))
    assert with_it.heuristic.active is True


@pytest.mark.rule("S-0")
def test_in_a_year_scenario_scored_on_the_maxima_hard_retakes_the_city_too_but_not_when_played_on():
    """S-0, T-8: a year scenario not played on is decided by the maxima after its scored turn, so hard's
    Confederacy retakes Wilmington there as in the short game (``maxima_years=on``); played on to the
    campaign's end (S-VT), or in a campaign game, it plays the campaign plan and marches to Richmond."""
    assert marches(make_bot("hard", 7), confederate_movement("table")) == ["wilmington", "wilmington"]
    assert "wilmington" not in marches(make_bot("search:iterations=2,final=on,maxima=on", 7),
                                       confederate_movement("table"))
    assert "wilmington" not in marches(make_bot("hard", 7), confederate_movement("table", play_on=True))
    bot = make_bot("search:iterations=2,maxima_years=on", 3)
    bot.choose(confederate_movement("campaign"))
    assert bot.heuristic.active is False
    bot.choose(confederate_movement("short"))
    assert bot.heuristic.active is False  # the short game is ``maxima``'s
    bot.choose(confederate_movement("table"))
    assert bot.heuristic.active is True
    bot.choose(confederate_movement("table", play_on=True))
    assert bot.heuristic.active is False


@pytest.mark.rule("S-0")
def test_hard_states_a_year_scenarios_plan_with_the_scored_turn_and_the_draw_of_t8():
    """In a year scenario scored after turn 27 (T-8: a draw is a difference of 12), hard's Confederacy says it
    holds its cities for the maxima, with the turn, the difference the Union must pass and both maxima now;
    played on, the campaign's line (the seven cities by turn 40)."""
    game = confederate_movement("table")
    bot = make_bot("hard", 7)
    bot.choose(game)
    line = render(plan_of(bot), "en")
    assert "scored on the army maxima after turn 27" in line and "more than 12 above" in line
    assert f"(now {game.state.army_max(Side.UNION)} to {game.state.army_max(Side.CONFEDERATE)})" in line
    assert "%" not in line and "turn 40" not in line
    for lang in ("es", "it"):
        assert render(plan_of(bot), lang) != line and "27" in render(plan_of(bot), lang)
    played_on = make_bot("hard", 7)
    played_on.choose(confederate_movement("table", play_on=True))
    assert "scored" not in render(plan_of(played_on), "en")


def test_hard_states_a_short_game_plan_with_the_maxima_that_decide_it():
    game = confederate_movement()
    bot = make_bot("hard", 7)
    bot.choose(game)
    plan = plan_of(bot)
    assert plan is not None
    line = render(plan, "en")
    assert "short game" in line and "after turn 10" in line and "(now 34 to 27)" in line and "%" not in line
    for lang in ("es", "it"):
        assert render(plan, lang) != line and "34" in render(plan, lang)
    far = position_game([("union", "MF", "chicago", 1), ("confederate", "MF", "richmond", 1)], end="short",
                        last_turn=10)
    calm = render(defence_line(far.state, Side.CONFEDERATE, 10), "en")
    assert calm.startswith("holding the South's cities: the Union wins the short game only")


@pytest.mark.rule("S-13")
def test_hards_union_states_a_short_game_plan_naming_the_city_it_presses_and_the_maxima():
    """hard's Union plays the short game with the search bot (issue 34); its plan line says which Confederate
    city it presses (Union units near, less the defenders), why the cities count, and the maxima now; no odds."""
    game = position_game([("union", "MF", "new_bern", 2), ("union", "MF", "washington", 3),
                          ("confederate", "MF", "richmond", 4)], turn=3, last_turn=10, end="short", marches=2)
    pass_until(game, lambda g: g.state.phasing is Side.UNION and g.decision == "movement")
    line = render(raid_line(game.state, 10), "en")
    assert line.startswith("pressing Wilmington with 2 units nearby: the Union wins the short game only")
    assert f"(now {game.army_max(Side.UNION)} to {game.army_max(Side.CONFEDERATE)})" in line and "%" not in line
    bot = make_bot("hard", 7)
    bot.choose(game)
    said = render(plan_of(bot), "en")
    assert said.startswith("pressing ") and "after turn 10" in said
    for lang in ("es", "it"):
        assert render(plan_of(bot), lang) != said
    nobody = position_game([("union", "MF", "chicago", 1), ("confederate", "MF", "richmond", 1)], end="short",
                           last_turn=10)
    assert render(raid_line(nobody.state, 10), "en").startswith("taking the South's cities: the Union wins")


#: two Confederate raiders at Lexington, next to Cincinnati (1 to each side's maximum, 7.c), which two Union units
#: hold; the Union holds Louisville, empty, on the raiders' other side
RAID = [("union", "MF", "washington", 3), ("union", "MF", "cincinnati", 2),
        ("confederate", "FV", "lexington", 2), ("confederate", "MF", "richmond", 2)]
#: hard's Union before ``maxima_union`` (stop 42)
HARD_UNION_42 = ("search:garrison=shared,guard=on,objective=weakest,lookahead=off,campaign_idle=6,grab=on,"
                 "grab_fight=on,push=on,endgame=30,sally=on,finish=on,retake=on,clear=on,capital=year,"
                 "final_union=on")


def union_movement(end: str = "table", play_on: bool = False):
    """RAID at turn 25, the Union to move; a year scenario scored after turn 27 (S-0, T-8) or a campaign game."""
    scored = {"score_turn": 27, "play_on": play_on} if end == "table" else {}
    game = position_game(RAID, turn=25, last_turn=40, end=end, marches=2, **scored)
    pass_until(game, lambda g: g.state.phasing is Side.UNION and g.decision == "movement")
    return game


def union_garrison_after(bot, game) -> dict[str, int]:
    """The Union units in Cincinnati and Louisville after ``bot`` plays the Union's movement."""
    while game.state.phasing is Side.UNION and game.decision in ("movement", "march"):
        game.apply(bot.choose(game))
    return {box: game.state.count_in(box, Side.UNION) for box in ("cincinnati", "louisville")}


def test_with_maxima_union_the_unions_own_cities_are_worth_at_least_what_they_move_the_maxima_by():
    """``union``: a box the Union holds is worth the larger of its campaign value and the maxima's (Cincinnati:
    1 + 1 = 2 points of the difference, 7.c); a box it does not hold, and every Confederate value, as before."""
    state = ahd.new_game("1862", seed=1).state
    plain = HeuristicBot(1)
    conf_only, both = MaximaHeuristic(1, active=True), MaximaHeuristic(1, active=True, union=True)
    assert state.control["cincinnati"] is Side.UNION and state.control["memphis"] is Side.CONFEDERATE
    assert both._value(state, "cincinnati", Side.UNION) == 10.0 > plain._value(state, "cincinnati", Side.UNION)
    assert both._value(state, "washington", Side.UNION) > plain._value(state, "washington", Side.UNION)
    for box in state.board.boxes:
        assert both._value(state, box, Side.UNION) >= plain._value(state, box, Side.UNION)
        if state.control[box] is not Side.UNION:
            assert both._value(state, box, Side.UNION) == plain._value(state, box, Side.UNION)
        assert both._value(state, box, Side.CONFEDERATE) == conf_only._value(state, box, Side.CONFEDERATE)
    idle = MaximaHeuristic(1, union=True)  # not active: the campaign values
    assert all(idle._value(state, box, Side.UNION) == plain._value(state, box, Side.UNION) for box in state.board.boxes)
    assert idle.fresh(None).union is True


@pytest.mark.rule("S-0")
def test_in_a_scored_year_scenario_hards_union_keeps_a_garrison_in_a_city_next_to_raiders():
    """S-0, T-8: the year scenario is decided by the maxima after turn 27, so hard's Union keeps a unit in
    Cincinnati with two raiders next door; hard's Union of stop 42 (no ``maxima_union``), and hard itself when
    the game is played on (S-VT) or is a campaign game, march both units out to Louisville."""
    assert union_garrison_after(make_bot("hard", 7), union_movement())["cincinnati"] >= 1
    assert union_garrison_after(make_bot(HARD_UNION_42, 7), union_movement()) == {"cincinnati": 0, "louisville": 2}
    assert union_garrison_after(make_bot("hard", 7), union_movement(play_on=True))["cincinnati"] == 0
    assert union_garrison_after(make_bot("hard", 7), union_movement("campaign"))["cincinnati"] == 0
    bot = make_bot("hard", 7)
    bot.choose(union_movement())
    assert bot.union.campaign.heuristic.active is True and bot.union.campaign.heuristic.union is True
