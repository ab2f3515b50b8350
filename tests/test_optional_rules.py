"""Optional and house rules as switches: each changes play as specified when on, nothing when off."""
from __future__ import annotations

import json

import pytest

import ahd
from ahd.core.options import PRESETS, SWITCHES, Options
from ahd.core.sides import CHANCE, Side

from conftest import assert_refused, ids_at, make_game, pass_until, to_confederate_movement

BASIC = ["H-1", "H-2", "H-3"]


def with_rules(*rules):
    return BASIC + list(rules)


def begin(game, box):
    game.apply(ahd.BeginMarch(box))


# --------------------------------------------------------------------------- O-2.1
@pytest.mark.rule("O-2.1")
def test_crack_infantry_moves_two_road_links_like_cavalry():
    path, lines = ("chillicothe", "charleston_wv", "franklin"), ("road", "road")
    for rules, legal in ((with_rules("O-2.1"), True), (BASIC, False)):
        game = make_game([("union", "FS", "chillicothe")], options=rules)
        begin(game, "chillicothe")
        move = ahd.Move("U-FS-01", path, lines)
        if legal:
            game.apply(move)
            assert game.units_in("franklin")[0].id == "U-FS-01"
        else:
            assert_refused(game, move, "4.c")


@pytest.mark.rule("O-2.1")
def test_crack_infantry_mixes_road_and_rail_but_never_jumps():
    mixed = ahd.Move("U-FS-01", ("columbus_oh", "chillicothe", "cincinnati"), ("road", "rail"))
    game = make_game([("union", "FS", "columbus_oh")], options=with_rules("O-2.1"))
    begin(game, "columbus_oh")
    assert game.why_not(mixed) is None
    plain = make_game([("union", "FS", "columbus_oh")])
    begin(plain, "columbus_oh")
    assert_refused(plain, mixed, "4.e")
    blocked = make_game([("union", "FS", "chillicothe"), ("confederate", "MF", "charleston_wv")],
                        options=with_rules("O-2.1"))
    begin(blocked, "chillicothe")
    assert_refused(blocked, ahd.Move("U-FS-01", ("chillicothe", "charleston_wv", "franklin"), ("road", "road")), "4.g")


# --------------------------------------------------------------------------- O-2.2
def cavalry_battle(rules):
    game = make_game([("union", "CV", "cincinnati"), ("union", "FV", "cincinnati"),
                      ("confederate", "CV", "lexington"), ("confederate", "MF", "lexington")], options=rules)
    begin(game, "cincinnati")
    for uid in ("U-CV-01", "U-FV-01"):
        game.apply(ahd.Move(uid, ("cincinnati", "lexington"), ("rail",)))
    pass_until(game, lambda g: g.decision == "targets")
    game.apply(ahd.FireAuto())  # the Confederate defender fires first
    while game.current_player == CHANCE:
        game.apply(ahd.Roll(6))  # two misses (H-2)
    assert game.decision == "targets" and game.battle.firing is Side.UNION
    return game


@pytest.mark.rule("O-2.2")
def test_battlefield_targets_cavalry_first_at_cavalry():
    game = cavalry_battle(with_rules("O-2.2"))
    assert_refused(game, ahd.Volley((("U-CV-01", "C-MF-01"), ("U-FV-01", "C-CV-01"))), "O-2.2")
    assert game.why_not(ahd.Volley((("U-CV-01", "C-CV-01"), ("U-FV-01", "C-MF-01")))) is None
    plain = cavalry_battle(BASIC)
    assert plain.why_not(ahd.Volley((("U-CV-01", "C-MF-01"), ("U-FV-01", "C-CV-01")))) is None


@pytest.mark.rule("O-2.2")
def test_battlefield_targets_auto_fire_follows_the_priorities():
    game = cavalry_battle(with_rules("O-2.2"))
    game.apply(ahd.FireAuto())
    assert dict(game.battle.targets) == {"U-CV-01": "C-CV-01", "U-FV-01": "C-MF-01"}


# --------------------------------------------------------------------------- O-3.1
def pensacola_battle(rules):
    game = make_game([("union", "MF", "pensacola"), ("confederate", "FV", "mobile", 2)], options=rules)
    to_confederate_movement(game)
    begin(game, "mobile")
    for uid in ("C-FV-01", "C-FV-02"):
        game.apply(ahd.Move(uid, ("mobile", "pensacola"), ("road",)))
    # round 1: the Union defender fires, then the Confederates; every die misses
    pass_until(game, lambda g: g.battle is not None and g.battle.round == 2 and g.battle.firing is Side.UNION
               and g.current_player is Side.UNION, roll=6)
    return game


@pytest.mark.rule("O-3.1")
def test_naval_evacuation_from_a_defended_southern_port():
    game = pensacola_battle(with_rules("O-3.1"))
    assert ahd.Evacuate() in game.legal_actions()
    game.apply(ahd.Evacuate())
    assert [u.id for u in game.units_in("washington")] == ["U-MF-01"]
    assert game.unit("U-MF-01").retreated
    assert any("evacuates" in str(e) and "(O-3.1)" in str(e) for e in game.log)


@pytest.mark.rule("O-3.1")
def test_no_naval_evacuation_when_off():
    game = pensacola_battle(BASIC)
    # no retreat is possible from Pensacola, so round 2 goes straight to the Union's targets
    assert game.decision == "targets"
    assert_refused(game, ahd.Evacuate(), "3.a")


# --------------------------------------------------------------------------- O-3.2
@pytest.mark.rule("O-3.2")
def test_union_rail_bonus_three_friendly_links():
    path = ("atlantic_city", "philadelphia", "baltimore", "gettysburg")
    move = ahd.Move("U-MF-01", path, ("rail",) * 3)
    game = make_game([("union", "MF", "atlantic_city")], options=with_rules("O-3.2"))
    begin(game, "atlantic_city")
    game.apply(move)
    assert game.unit("U-MF-01").location == "gettysburg"
    plain = make_game([("union", "MF", "atlantic_city")])
    begin(plain, "atlantic_city")
    assert_refused(plain, move, "4.c")
    unfriendly = make_game([("union", "MF", "atlantic_city")], options=with_rules("O-3.2"),
                           control={"confederate": ["gettysburg"]})
    begin(unfriendly, "atlantic_city")
    assert_refused(unfriendly, move, "O-3.2")


@pytest.mark.rule("O-3.2")
def test_rail_bonus_is_union_only():
    game = make_game([("confederate", "MF", "atlanta")], options=with_rules("O-3.2"))
    to_confederate_movement(game)
    begin(game, "atlanta")
    paths = [a for a in game.legal_actions() if isinstance(a, ahd.Move)]
    assert paths and max(len(a.path) for a in paths) == 3  # at most two links


# --------------------------------------------------------------------------- O-3.3
def recruit_all(game):
    """Place recruits in distinct cities until the segment ends; returns how many were placed."""
    placed = 0
    while game.decision == "recruitment":
        recruits = [a for a in game.legal_actions() if isinstance(a, ahd.Recruit) and a.unit_type == "MF"]
        if not recruits:
            break
        used = {a.box for a in game.history if isinstance(a, ahd.Recruit)}
        fresh = [a for a in recruits if a.box not in used] or recruits
        game.apply(fresh[0])
        placed += 1
    return placed


def union_recruits(rules, roll):
    game = make_game([("union", "FV", "chicago")], turn=8, options=rules)
    pass_until(game, lambda g: g.decision == "recruit_roll")
    game.apply(ahd.Roll(roll))
    return game, recruit_all(game)


@pytest.mark.rule("O-3.3")
def test_historical_recruiting_union_at_least_three():
    assert union_recruits(with_rules("O-3.3"), 1)[1] == 3
    assert union_recruits(BASIC, 1)[1] == 2


@pytest.mark.rule("O-3.3")
def test_historical_recruiting_confederacy_at_most_four():
    def confederate(rules):
        game = make_game([("confederate", "FV", "atlanta")], turn=2, options=rules)
        for i in range(7):  # give the Confederacy militia in its pool
            game.state.place(game.state.units[f"C-MF-0{i + 1}"], "@pool")
        pass_until(game, lambda g: g.phasing is Side.CONFEDERATE and g.decision == "recruit_roll")
        game.apply(ahd.Roll(6))
        return recruit_all(game)
    assert confederate(with_rules("O-3.3")) == 4
    assert confederate(BASIC) == 6


@pytest.mark.rule("O-3.3")
def test_two_recruits_in_a_city_worth_three():
    game = make_game([("union", "FV", "chicago")], turn=8, options=with_rules("O-3.3"))
    pass_until(game, lambda g: g.decision == "recruit_roll")
    game.apply(ahd.Roll(5))
    game.apply(ahd.Recruit("new_york_city", "MF"))
    game.apply(ahd.Recruit("new_york_city", "MF"))
    assert_refused(game, ahd.Recruit("new_york_city", "MF"), "O-3.3")
    plain = make_game([("union", "FV", "chicago")], turn=8)
    pass_until(plain, lambda g: g.decision == "recruit_roll")
    plain.apply(ahd.Roll(5))
    plain.apply(ahd.Recruit("new_york_city", "MF"))
    assert_refused(plain, ahd.Recruit("new_york_city", "MF"), "7.b")


# --------------------------------------------------------------------------- O-3.4
@pytest.mark.rule("O-3.4")
def test_increased_union_forces_raise_the_unit_limit_only():
    def at_maximum(rules, turn):
        game = make_game([("union", "FV", "chicago", 34)], turn=turn, options=rules)
        assert game.army_max("union") == 34
        pass_until(game, lambda g: g.decision in ("recruit_roll", "recruitment") or g.phasing is Side.CONFEDERATE)
        return game
    plain = at_maximum(BASIC, 8)
    assert plain.phasing is Side.CONFEDERATE  # no recruitment at all: the army is at its maximum
    game = at_maximum(with_rules("O-3.4"), 8)
    assert game.decision == "recruit_roll"
    game.apply(ahd.Roll(6))
    assert recruit_all(game) == 4  # +4 after the first draft
    assert game.army_max("union") == 34  # never for victory
    later = at_maximum(with_rules("O-3.4"), 28)
    later.apply(ahd.Roll(6))
    assert recruit_all(later) == 6  # the roll limits before the +12 does


@pytest.mark.rule("O-3.4")
def test_increased_forces_stop_at_the_maximum_plus_four():
    game = make_game([("union", "FV", "chicago", 37)], turn=8, options=with_rules("O-3.4"))
    pass_until(game, lambda g: g.decision == "recruit_roll")
    game.apply(ahd.Roll(6))
    game.apply(ahd.Recruit("new_york_city", "MF"))  # 38 = 34 + 4 units now
    assert game.phasing is Side.CONFEDERATE  # the segment ended: no room left
    assert len(game.units("union")) == 38


# --------------------------------------------------------------------------- O-4.1
@pytest.mark.rule("O-4.1")
def test_first_turn_no_kentucky_no_long_river_moves_no_naval_moves():
    units = [("union", "MF", "cincinnati"), ("union", "MF", "st_louis"), ("union", "MF", "washington")]
    game = make_game(units, turn=1, options=with_rules("O-4.1"))
    begin(game, "cincinnati")
    assert_refused(game, ahd.Move("U-MF-01", ("cincinnati", "louisville"), ("river",)), "O-4.1")
    game = make_game(units, turn=1, options=with_rules("O-4.1"))
    begin(game, "st_louis")
    assert_refused(game, ahd.Move("U-MF-02", ("st_louis", "cairo", "island_no_10"), ("river", "river")), "O-4.1")
    game.apply(ahd.Move("U-MF-02", ("st_louis", "cairo"), ("river",)))
    game = make_game(units, turn=1, options=with_rules("O-4.1"))
    assert_refused(game, ahd.NavalMove("U-MF-03", "new_york_city"), "O-4.1")
    plain = make_game(units, turn=1)
    assert plain.why_not(ahd.NavalMove("U-MF-03", "new_york_city")) is None
    begin(plain, "cincinnati")
    assert plain.why_not(ahd.Move("U-MF-01", ("cincinnati", "louisville"), ("river",))) is None


@pytest.mark.rule("O-4.1")
def test_first_turn_restrictions_end_after_turn_one():
    game = make_game([("union", "MF", "cincinnati")], turn=2, options=with_rules("O-4.1"))
    begin(game, "cincinnati")
    game.apply(ahd.Move("U-MF-01", ("cincinnati", "louisville"), ("river",)))
    assert game.unit("U-MF-01").location == "louisville"


# --------------------------------------------------------------------------- O-4.2
def union_turn_with_a_six(rules):
    game = make_game([("union", "MF", "washington", 3)], turn=3, marches=1, options=rules,
                     control={"confederate": ["fort_monroe"]})
    pass_until(game, lambda g: g.turn.number == 4 and g.decision == "march_roll")
    game.apply(ahd.Roll(6))
    return game


@pytest.mark.rule("O-4.2")
def test_fort_monroe_blocks_invasions_of_yorktown_and_norfolk():
    game = union_turn_with_a_six(with_rules("O-4.2"))
    unit = ids_at(game, "washington")[0]
    assert_refused(game, ahd.Invade(unit, "yorktown"), "O-4.2")
    assert_refused(game, ahd.Invade(unit, "norfolk"), "O-4.2")
    game.apply(ahd.Invade(unit, "fort_monroe"))  # Fort Monroe itself may be invaded
    assert game.unit(unit).location == "fort_monroe"


@pytest.mark.rule("O-4.2")
def test_without_the_fort_monroe_rule_yorktown_may_be_invaded():
    game = union_turn_with_a_six(BASIC)
    unit = ids_at(game, "washington")[0]
    game.apply(ahd.Invade(unit, "yorktown"))
    assert game.unit(unit).location == "yorktown"


# --------------------------------------------------------------------------- O-4.3
def confederate_training(rules, roll, lose_veteran):
    units = [("confederate", "MF", "atlanta"), ("confederate", "MF", "richmond")]
    if lose_veteran:
        units += [("union", "FV", "cincinnati", 3), ("confederate", "FV", "lexington")]
    game = make_game(units, options=rules)
    if lose_veteran:
        begin(game, "cincinnati")
        for uid in ids_at(game, "cincinnati"):
            game.apply(ahd.Move(uid, ("cincinnati", "lexington"), ("rail",)))
        pass_until(game, lambda g: g.decision == "targets")
        game.apply(ahd.FireAuto())
        game.apply(ahd.Roll(6))  # the defender misses
        game.apply(ahd.Roll(1))
        game.apply(ahd.Roll(1))  # the veteran is eliminated
        assert game.units_in("lexington", "confederate") == []
    pass_until(game, lambda g: g.phasing is Side.CONFEDERATE and g.phase == "promotion")
    if game.decision == "training_roll":
        game.apply(ahd.Roll(roll))
    promoted = 0
    while game.decision == "promotion":
        game.apply(next(a for a in game.legal_actions() if isinstance(a, ahd.Promote)))
        promoted += 1
    return promoted


@pytest.mark.rule("O-4.3")
def test_replacement_training_gives_two_promotions_on_one_or_less():
    assert confederate_training(with_rules("O-4.3"), 1, False) == 2
    assert confederate_training(with_rules("O-4.3"), 2, False) == 1
    assert confederate_training(with_rules("O-4.3"), 2, True) == 2  # 2 − 1 veteran lost = 1
    assert confederate_training(BASIC, 1, False) == 1


@pytest.mark.rule("O-4.3")
def test_replacement_training_is_confederate_only():
    game = make_game([("union", "MF", "chicago")], options=with_rules("O-4.3"))
    pass_until(game, lambda g: g.phase == "promotion")
    assert game.decision == "promotion" and game.phasing is Side.UNION


# --------------------------------------------------------------------------- O-4.4
@pytest.mark.rule("O-4.4")
def test_1863_draft_riots_spread_the_draft():
    game = ahd.new_game("1863", options=with_rules("O-4.4"), seed=1, dice="manual")
    assert len(game.units("union", "pool")) == 1
    pass_until(game, lambda g: g.turn.number == 19 and g.decision == "march_roll")
    assert len(game.units("union", "pool")) == 2
    assert any("(O-4.4)" in str(e) for e in game.log)
    plain = ahd.new_game("1863", seed=1, dice="manual")
    assert len(plain.units("union", "pool")) == 4
    pass_until(plain, lambda g: g.turn.number == 19 and g.decision == "march_roll")
    assert len(plain.units("union", "pool")) == 4


# --------------------------------------------------------------------------- H-4
SIX = ["new_orleans", "mobile", "atlanta", "memphis", "charleston_sc", "richmond"]


@pytest.mark.rule("H-4")
def test_six_of_seven_cities_with_richmond():
    game = make_game([("union", "MF", "chicago")], options=with_rules("H-4"), control={"union": SIX})
    pass_until(game, lambda g: g.is_over)
    assert game.outcome.winner is Side.UNION and game.outcome.rule == "H-4"
    plain = make_game([("union", "MF", "chicago")], control={"union": SIX})
    pass_until(plain, lambda g: g.phasing is Side.CONFEDERATE)
    assert not plain.is_over


@pytest.mark.rule("H-4")
def test_six_without_richmond_is_not_enough():
    six = [c for c in SIX if c != "richmond"] + ["wilmington"]
    game = make_game([("union", "MF", "chicago")], options=with_rules("H-4"), control={"union": six})
    pass_until(game, lambda g: g.phasing is Side.CONFEDERATE)
    assert not game.is_over


# --------------------------------------------------------------------------- switches and presets
def test_every_switch_is_listed_with_presets():
    assert set(SWITCHES) >= {"H-1", "H-2", "H-4", "O-2.1", "O-2.2", "O-3.1", "O-3.2", "O-3.3", "O-3.4",
                             "O-4.1", "O-4.2", "O-4.3", "O-4.4"}
    assert Options.default().to_list() == ["H-1", "H-2", "H-3"]
    assert set(PRESETS["pro-union"]) - set(BASIC) == {"O-3.1", "O-3.2", "O-3.3", "O-3.4"}
    assert set(PRESETS["pro-confederate"]) - set(BASIC) == {"O-4.1", "O-4.2", "O-4.3", "O-4.4"}
    assert set(PRESETS["neutral"]) - set(BASIC) == {"O-2.1", "O-2.2"}
    assert Options.parse({"H-2": False}).to_list() == ["H-1", "H-3"]
    with pytest.raises(ValueError, match="unknown preset"):
        Options.parse("cheating")


def test_options_are_recorded_and_unknown_ones_rejected():
    game = ahd.new_game("1861", options="pro-union", seed=1)
    record = json.loads(game.to_json())
    assert record["options"] == sorted(PRESETS["pro-union"])
    assert ahd.Game.from_json(game.to_json()).options == game.options
    record["options"].append("O-9.9")
    with pytest.raises(ahd.RecordError, match="unknown rule switch 'O-9.9'"):
        ahd.Game.from_dict(record)


def test_cli_lists_options_and_plays_with_them():
    import io
    from ahd.cli import main
    out = io.StringIO()
    assert main(["options"], out=out) == 0
    text = out.getvalue()
    for rule in SWITCHES:
        assert rule in text
    for preset in PRESETS:
        assert preset in text
    out = io.StringIO()
    assert main(["play", "--scenario", "1863", "--preset", "pro-union", "--option", "O-3.2", "--option", "H-4",
                 "--union", "random", "--confederate", "random", "--seed", "3", "--quiet"], out=out) == 0
    assert "H-4, O-3.1, O-3.2" in out.getvalue() and "Outcome:" in out.getvalue()
