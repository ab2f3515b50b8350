"""widgets.tutorial: positions on the live map and exercise checks that can pass, wait and fail."""
from __future__ import annotations

import pytest

pytest.importorskip("ipyleaflet")

import ahd
import widgets
from ahd.options import Options
from ahd.sides import Side
from widgets import tutorial

U, C = Side.UNION, Side.CONFEDERATE


def states(*verdicts):
    return [v.state for v in verdicts]


def test_show_full_app_or_map_only():
    game = ahd.positions.position_game([("union", "MF", "evansville", 3)])
    app = tutorial.show(game)
    assert isinstance(app, widgets.GameApp) and app.game is game and app.session.show_war_odds is False
    small = tutorial.show(game, full=False)
    assert isinstance(small, tutorial.MapOnly) and small.game is game
    small.session.click_box("evansville")
    assert "Evansville" in small.status.value or small.session.selected == "evansville"


def test_questions_wait_pass_and_fail():
    game = ahd.new_game("1861")
    forts = tutorial.forts_question(game)
    assert forts.check(None).state == "not yet" and forts.check(set()).state == "not yet"
    assert forts.check({"Washington", "Richmond", "fort monroe", "vicksburg"}).ok
    assert forts.check({"Washington", "Richmond"}).state == "wrong"
    assert "no star" in forts.check({"washington", "richmond", "fort_monroe", "vicksburg", "baltimore"}).message
    assert "no box" in forts.check({"Atlantis"}).message
    values = tutorial.values_question(game, "evansville")
    assert values.check((0, 1)).ok and "order" in values.check((1, 0)).message
    assert values.check("x").state == "wrong"


@pytest.mark.rule("7.c")
def test_maximum_question_follows_the_capture_rule():
    game = ahd.new_game("1861")
    q = tutorial.maximum_question(game, "confederate", ["memphis"], "union")
    assert q.check(27).ok and q.check(29).state == "wrong"
    q = tutorial.maximum_question(game, "union", ["cairo"], "confederate")   # a two-colour box
    assert q.check(33).ok


@pytest.mark.rule("4.2.1")
def test_jump_exercise():
    ex = tutorial.jump_exercise()
    assert ex.check().state == "not yet"
    ex.app.session.act(ahd.BeginMarch("cincinnati"))
    ex.app.session.act(ahd.Move("U-CV-01", ("cincinnati", "lexington", "london"), ("rail", "road")))
    assert ex.check().ok, ex.check()
    wrong = tutorial.jump_exercise()
    wrong.app.session.act(ahd.BeginMarch("cincinnati"))
    wrong.app.session.act(ahd.Move("U-CV-01", ("cincinnati", "lexington"), ("rail",)))
    assert wrong.check().state == "wrong" and "Lexington" in wrong.check().message


@pytest.mark.rule("4.2.5")
def test_entrench_exercise():
    ex = tutorial.entrench_exercise()
    s = ex.app.session
    for step in range(2):
        assert ex.check().state == "not yet"
        s.act(ahd.BeginMarch("bloomington_in"))
        s.act(ahd.Entrench("U-MF-01"))
        if ex.game.decision == "march":
            s.act(ahd.EndMarch())
    assert ex.check().ok, ex.check()
    wrong = tutorial.entrench_exercise()
    wrong.app.session.act(ahd.EndMovement())
    assert wrong.check().state == "wrong"


@pytest.mark.rule("5.2.4")
def test_reinforcement_exercise():
    ex = tutorial.reinforcement_exercise()
    assert ex.check().state == "not yet"
    assert ahd.Reinforce("U-MF-03") in ex.game.legal_actions()
    ex.app.session.act(ahd.Reinforce("U-MF-03"))
    assert ex.check().ok
    wrong = tutorial.reinforcement_exercise()
    wrong.app.session.act(ahd.OpenFire())
    assert wrong.check().state == "wrong"


@pytest.mark.rule("7.d")
def test_recruitment_exercise():
    ex = tutorial.recruitment_exercise()
    s = ex.app.session
    s.act(ahd.Recruit("washington", "MF"))
    s.act(ahd.Recruit("chicago", "MF"))
    assert ex.check().state == "not yet"
    s.act(ahd.Recruit("new_york_city", "MC"))
    assert ex.check().ok, ex.check()
    wrong = tutorial.recruitment_exercise()
    wrong.app.session.act(ahd.Recruit("washington", "MF"))
    wrong.app.session.act(ahd.EndRecruitment())
    assert wrong.check().state == "wrong"


@pytest.mark.rule("9.a")
def test_capture_exercise():
    ex = tutorial.capture_exercise()
    s = ex.app.session
    s.act(ahd.BeginMarch("humboldt"))
    s.act(ahd.Move("U-MF-01", ("humboldt", "memphis"), ("rail",)))
    assert ex.game.units_in("memphis") and ex.check().state == "not yet"
    s.bot_half_turn()    # passes the rest of the Union half-turn
    assert ex.check().ok, ex.check()
    assert "27" in ex.check().message
    wrong = tutorial.capture_exercise()
    wrong.app.session.act(ahd.EndMovement())
    assert wrong.check().state == "wrong"


def test_options_question():
    expected = Options.preset("pro-union").with_rule("H-4")
    q = tutorial.options_question(expected, "pro-union with H-4")
    assert q.check(None).state == "not yet"
    assert q.check(Options.preset("pro-union").with_rule("H-4")).ok
    assert q.check("pro-union").state == "wrong" and "H-4" in q.check("pro-union").message
    assert q.check(["X-9"]).state == "wrong"


@pytest.mark.rule("5.2.a")
def test_battle_readers():
    game = tutorial.modifier_battle("MF", "FV", crossing=True)
    assert tutorial.effective_values(game) == (2, 4)          # E-6: veteran infantry at a crossing attacker
    assert tutorial.modifier_battle("FV", "FS", entrenched=True).battle.box == "fredericksburg"
    assert tutorial.effective_values(tutorial.modifier_battle("FV", "FS", entrenched=True)) == (1, 3)
    with pytest.raises(ValueError):
        tutorial.next_shot(ahd.positions.position_game([("union", "MF", "indianapolis")]))
    assert tutorial.next_shot(game) == ("C-FV-01", "U-MF-01", 4)


@pytest.mark.rule("5.2.3")
def test_misses_until_reaches_round_three_and_the_crossing_bonus_ends():
    game = tutorial.modifier_battle("MF", "FV", crossing=True)
    tutorial.misses_until(game, 2)
    assert game.battle.round == 2 and tutorial.effective_values(game) == (2, 4)
    tutorial.misses_until(game, 3)
    assert game.battle.round == 3 and tutorial.effective_values(game) == (2, 3)
    with pytest.raises(ValueError):
        tutorial.misses_until(game, 2)
