"""widgets.tutorials.tutorial: positions on the live map and exercise checks that can pass, wait and fail."""
from __future__ import annotations

import pytest

pytest.importorskip("ipyleaflet")

import ahd
import widgets
from ahd.core.options import Options
from ahd.core.sides import Side
from widgets.tutorials import tutorial

U, C = Side.UNION, Side.CONFEDERATE


def states(*verdicts):
    return [v.state for v in verdicts]


def test_show_full_app_or_map_only():
    game = ahd.core.positions.position_game([("union", "MF", "evansville", 3)])
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
        tutorial.next_shot(ahd.core.positions.position_game([("union", "MF", "indianapolis")]))
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


def _lexington_attack(options, union, leaders=None):
    game = ahd.core.positions.position_game([("union", "MF", "cincinnati", union), ("confederate", "MF", "lexington", 2)],
                                       turn=12, options=options, leaders=leaders)
    ahd.core.positions.march(game, "cincinnati", *(ahd.Move(f"U-MF-{i:02d}", ("cincinnati", "lexington"), ("rail",))
                                              for i in range(1, union + 1)))
    return game


def _end_movement(game):
    if game.decision == "movement":
        game.apply(ahd.EndMovement())


@pytest.mark.rule("A-7")
@pytest.mark.rule("AO-8.2.2")
def test_fight_days_reads_the_commands_and_shots_of_e4():
    game = _lexington_attack(Options.preset("basic").with_rule("A-7"), 7)
    _end_movement(game)
    commands, shots = tutorial.fight_days(game, {"union": [4, 1, 5], "confederate": [1, 1, 1]}, until_round=9)
    assert [commands[d]["union"] for d in (1, 2, 3)] == [3, 4, 6]
    assert [shots[r]["union"] for r in range(1, 10)] == [3] * 4 + [4] * 4 + [6]
    assert game.battle.round == 10
    grant = _lexington_attack(Options.preset("basic").with_rule("A-7").with_rule("AO-8.2"), 9,
                              leaders={"grant": "cincinnati", "sherman": "chicago"})
    grant.apply(ahd.LeaderFollow("grant", "U-MF-01"))
    _end_movement(grant)
    commands, _ = tutorial.fight_days(grant, {"union": [4, 1, 5], "confederate": [1, 1, 1]}, until_round=9)
    assert [commands[d]["union"] for d in (1, 2, 3)] == [4, 5, 8]
    short = _lexington_attack(Options.preset("basic").with_rule("A-7"), 7)
    _end_movement(short)
    with pytest.raises(ValueError):          # not enough command rolls given
        tutorial.fight_days(short, {"union": [4], "confederate": [1]}, until_round=5)


@pytest.mark.rule("A-2.3")
def test_supply_exercise():
    ex = tutorial.supply_exercise()
    assert ex.game.decision == "supply" and ex.check().state == "not yet"
    ex.app.session.act(ahd.Starve("U-MF-01"))
    assert ex.check().ok, ex.check()
    wrong = tutorial.supply_exercise()
    wrong.app.session.act(ahd.Starve("U-FV-01"))
    assert wrong.check().state == "wrong"


@pytest.mark.rule("AO-8.2.2")
def test_leader_split_exercise():
    ex = tutorial.leader_split_exercise()
    s = ex.app.session
    assert ex.check().state == "not yet"
    s.act(ahd.LeaderPoint("lee", "C-FV-02"))
    s.act(ahd.LeaderPoint("lee", "C-FV-02"))
    assert ex.check().state == "not yet" and "2 of Lee's 3" in ex.check().message
    s.act(ahd.LeaderPoint("lee", "C-FV-03"))
    assert ex.check().ok, ex.check()
    wrong = tutorial.leader_split_exercise()
    for _ in range(3):
        wrong.app.session.act(ahd.LeaderPoint("lee", "C-FV-01"))
    assert wrong.check().state == "wrong" and "3" in wrong.check().message
    ones = tutorial.leader_split_exercise()
    for unit in ("C-FV-01", "C-FV-02", "C-FV-03"):
        ones.app.session.act(ahd.LeaderPoint("lee", unit))
    assert ones.check().state == "wrong" and "1 + 1 + 1" in ones.check().message


# ---------------------------------------------------------------------- issue 14, item 5: exercises in voila
def test_an_exercise_checks_itself_when_the_game_changes():
    """No check cell to run (voila hides code): the verdict under the task follows the game."""
    ex = tutorial.jump_exercise()
    assert "not done yet" in ex.verdict.value
    assert ex.widget.children[1] is ex.verdict and ex.app in ex.widget.children
    bundle = ex._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == ex.widget.model_id
    ex.app.session.click_box("cincinnati")
    ex.app.session.click_box("lexington")     # one box short: wrong, and said at once
    assert "✗" in ex.verdict.value and "Lexington" in ex.verdict.value
    ex.app.session.undo()
    assert "not done yet" in ex.verdict.value
    ex.app.session.act(ahd.BeginMarch("cincinnati"))
    ex.app.session.act(ahd.Move("U-CV-01", ("cincinnati", "lexington", "london"), ("rail", "road")))
    assert "✓" in ex.verdict.value
    assert ex.check().ok                      # and still checkable in code


def test_a_question_checks_the_typed_answer():
    game = ahd.new_game("1861")
    forts = tutorial.forts_question(game)
    box = forts.widget
    assert forts._repr_mimebundle_()["application/vnd.jupyter.widget-view+json"]["model_id"] == box.model_id
    assert "not done yet" in forts.verdict.value
    forts.answer.value = "Washington, Richmond"
    assert "✗" in forts.verdict.value
    forts.answer.value = "Washington, Richmond, Fort Monroe, Vicksburg"
    assert "✓" in forts.verdict.value
    values = tutorial.values_question(game, "evansville")
    values.widget
    values.answer.value = "0, 1"
    assert "✓" in values.verdict.value
    maximum = tutorial.maximum_question(game, "confederate", ["memphis"], "union")
    maximum.widget
    maximum.answer.value = "27"
    assert "✓" in maximum.verdict.value
    rules = tutorial.options_question(Options.preset("neutral").with_rule("H-4").with_rule("H-2", False), "x")
    rules.widget
    rules.answer.value = "H-1, H-3, H-4, O-2.1, O-2.2"
    assert "✓" in rules.verdict.value
    assert tutorial.parse_answer("") is None and tutorial.parse_answer("(2, 0)") == (2, 0)


# ---------------------------------------------------------------------- issue 15: the missing lessons
def test_setup_rows_are_read_from_the_scenario():
    rows = tutorial.setup_rows("1861")
    assert rows[0] == {"side": "Union", "box": "Washington", "count": 3, "code": "MF", "unit": "militia infantry",
                       "note": "fort: entrenched while held (4.2.5 d)"}
    game = ahd.new_game("1861")
    for side in (U, C):
        assert sum(r["count"] for r in rows if r["side"] == side.adjective) == len(game.units(side))
    mix = tutorial.counter_mix(game)
    assert mix["Union"]["MF"] == {"owned": 24, "map": 12, "pool": 0, "reserve": 12}
    assert mix["Confederate"]["MF"] == {"owned": 8, "map": 8, "pool": 0, "reserve": 0}
    assert mix["Union"]["MC"]["pool"] == mix["Confederate"]["MC"]["pool"] == 1


@pytest.mark.rule("3.c")
def test_calendar_and_winter_turns_question():
    rows = tutorial.calendar_rows()
    assert len(rows) == 40 and [r["turn"] for r in rows if r["two_months"]] == [5, 6, 15, 16, 25, 26, 35, 36]
    assert rows[5]["year"] == 1862 and "draft" in rows[7]["events"] and "short game ends" in rows[9]["events"]
    q = tutorial.winter_turns_question(1862)
    assert q.check(None).state == "not yet"
    assert q.check((6, 15)).ok and q.check("6, 15").state == "wrong"      # typed text is parsed by the widget
    assert q.check((5, 6)).state == "wrong" and "not in 1862" in q.check((5, 6)).message
    assert q.check(7).state == "wrong" and q.check((6,)).state == "wrong"
    q.widget
    q.answer.value = "15, 6"
    assert "✓" in q.verdict.value
    marches = tutorial.first_turn_marches_question()
    assert marches.check(2).ok and marches.check(3).state == "wrong"


@pytest.mark.rule("5.2.6")
def test_withdrawal_exercise():
    ex = tutorial.withdrawal_exercise()
    assert ex.check().state == "not yet" and ex.game.army_max(U) == 31      # the raider cuts Pittsburgh's 3
    ex.app.session.click_box("wheeling")                                    # the lit box
    assert ex.check().ok, ex.check()
    assert ex.game.controller("pittsburgh") is U and "34" in ex.check().message   # 9.b: back at once
    wrong = tutorial.withdrawal_exercise()
    wrong.app.session.act(ahd.HoldGround())
    assert wrong.check().state == "wrong"


def _march(session, origin, *moves):
    session.act(ahd.BeginMarch(origin))
    for move in moves:
        session.act(move)
    if session.game.decision == "march":
        session.act(ahd.EndMarch())


@pytest.mark.rule("5.2.6")
def test_catch_raider_exercise():
    militia = [ahd.Move(u, ("ebensburg", "pittsburgh"), ("rail",)) for u in ("U-MF-01", "U-MF-02")]
    naive = tutorial.catch_raider_exercise()                 # infantry alone, Wheeling open: it escapes
    assert naive.check().state == "not yet"
    _march(naive.app.session, "ebensburg", *militia)
    naive.app.session.act(ahd.EndMovement())
    assert naive.check().state == "wrong" and "Wheeling" in naive.check().message
    naive.app.session.act(ahd.CavalryRetreat("wheeling"))
    assert naive.check().state == "wrong" and "slipped away" in naive.check().message
    stands = tutorial.catch_raider_exercise()                # the reader makes the raider fight: no
    _march(stands.app.session, "ebensburg", *militia)
    stands.app.session.act(ahd.EndMovement())
    stands.app.session.act(ahd.HoldGround())
    assert stands.check().state == "wrong"
    cavalry = tutorial.catch_raider_exercise()               # cavalry only: no withdrawal
    _march(cavalry.app.session, "harrisburg", ahd.Move("U-MC-01", ("harrisburg", "ebensburg", "pittsburgh"),
                                                       ("rail", "rail")))
    cavalry.app.session.act(ahd.EndMovement())
    assert cavalry.check().ok, cavalry.check()
    blocked = tutorial.catch_raider_exercise()               # Wheeling blocked, then the infantry attacks
    _march(blocked.app.session, "canton", ahd.Move("U-MF-03", ("canton", "wheeling"), ("road",)))
    assert blocked.check().state == "not yet"
    _march(blocked.app.session, "ebensburg", militia[0])    # the last march: movement ends, the battle begins
    assert blocked.check().ok, blocked.check()
    idle = tutorial.catch_raider_exercise()
    idle.app.session.act(ahd.EndMovement())
    assert idle.check().state == "wrong"


@pytest.mark.rule("5.2.4")
def test_reinforcement_count_question():
    game = tutorial.washington_battle()
    assert game.battle.box == "washington" and game.battle.round == 2 and game.current_player is U
    q = tutorial.reinforcement_count_question(game)
    assert q.check(2).ok, q.check(2)
    assert q.check(4).state == "wrong" and "at most one" in q.check(4).message
    assert q.check(1).state == "wrong" and q.check("x").state == "wrong"


@pytest.mark.rule("9.b")
def test_the_raid_question_of_tutorial_8():
    q = tutorial.maximum_question(ahd.new_game("1861"), "union", ["pittsburgh"], by="confederate")
    assert q.check(31).ok and q.check(34).state == "wrong" and "34" in q.check(34).message
