"""Sequence of play, set-up, promotion, recruitment, drafts, control, game length and victory.

Rules: 1.1, 1.3 / T-1, 1.3.a, 2 (= S-1), 3.a, 3.b, 3.c / T-2, 6.a, 6.b, 6.c, 7.a, 7.b, 7.c, 7.d, 8,
9.a, 9.b, 9.c, 9.d, 9.e, 10, 11.a, 11.b, 11.c, 12 (= S-12), 13 (= S-13) and the numbers of E-8.
"""
from __future__ import annotations

from collections import Counter

import pytest

import ahd
from ahd.core.control import has_marker
from ahd.core.sides import CHANCE, Side
from ahd.core.units import UNIT_TYPES

from conftest import assert_refused, ids_at, make_game, march, pass_decision, pass_until

U, C = Side.UNION, Side.CONFEDERATE
SEVEN = ("new_orleans", "mobile", "atlanta", "memphis", "charleston_sc", "wilmington", "richmond")
# control overrides giving the army maxima of E-8 (Union 34 / Confederacy 29 at the 1861 start):
C31_U30 = {"confederate": ["cincinnati", "baltimore", "chicago"]}   # U 34-1-1-2 = 30, C 29+1+1 = 31
C30_U30 = {"confederate": ["cincinnati", "chicago", "canton"]}      # U 34-1-2-1 = 30, C 29+1 = 30


def road(unit, a, b):
    return ahd.Move(unit, (a, b), ("road",))


def rail(unit, a, b):
    return ahd.Move(unit, (a, b), ("rail",))


def end_movement(game):
    """End the Movement segment unless it ended itself (no unit left that can move)."""
    if game.decision == "movement":
        game.apply(ahd.EndMovement())


def to_half_end(game):
    """Pass the rest of the current half-turn (stops when the other side's half starts or the game ends)."""
    side, turn = game.phasing, game.turn.number
    pass_until(game, lambda g: g.is_over or g.phasing is not side or g.turn.number != turn)


def to_recruit_roll(game, side):
    pass_until(game, lambda g: g.phasing is side and g.decision == "recruit_roll")


def recruits(game):
    return [a for a in game.legal_actions() if isinstance(a, ahd.Recruit)]


def mf_in_play(game):
    """Union militia infantry on the map or in the pool (not in the draft reserve)."""
    return sum(1 for where in ("map", "pool") for u in game.units("union", where) if u.type.code == "MF")


def front_royal_battle(extra=(), second_battle=False):
    """Union MF + FV attack the lone Confederate MF in Front Royal; the Union wins in round 1.
    The Confederate shot reduces U-MF-01. With ``second_battle`` the Union MF of Sparta (U-MF-02)
    also attacks the Confederate MF of Murfreesboro (C-MF-02), fought second.
    Returns the game at the battle-promotion decision of Front Royal."""
    units = [("union", "MF", "harpers_ferry"), ("union", "FV", "harpers_ferry"), ("confederate", "MF", "front_royal")]
    if second_battle:
        units += [("union", "MF", "sparta"), ("confederate", "MF", "murfreesboro")]
    game = make_game(units + list(extra))
    march(game, "harpers_ferry", road("U-MF-01", "harpers_ferry", "front_royal"),
          road("U-FV-01", "harpers_ferry", "front_royal"))
    if second_battle:
        march(game, "sparta", road("U-MF-02", "sparta", "murfreesboro"))
    end_movement(game)
    if second_battle:
        assert game.decision == "choose_battle"
        game.apply(ahd.ChooseBattle("front_royal"))
    game.apply(ahd.Target("C-MF-01", "U-MF-01"))
    game.apply(ahd.Roll(1))   # C-MF-01 (2) hits U-MF-01: reduced
    game.apply(ahd.Roll(1))   # U-FV-01 hits C-MF-01: reduced
    game.apply(ahd.Roll(1))   # U-MF-01 hits again: C-MF-01 eliminated
    assert game.decision == "battle_promotion"
    return game


# =========================================================================== 1.1 sides
@pytest.mark.rule("1.1")
def test_union_plays_first_in_every_turn():
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")], turn=5)
    seen = []
    for _ in range(3):
        assert game.phasing is U and game.current_player in (U, CHANCE)
        seen.append((game.turn.number, game.phasing))
        to_half_end(game)
        assert game.phasing is C and game.turn.number == seen[-1][0]
        seen.append((game.turn.number, game.phasing))
        to_half_end(game)
    assert seen == [(5, U), (5, C), (6, U), (6, C), (7, U), (7, C)]
    assert game.turn.number == 8 and game.phasing is U


@pytest.mark.rule("1.1")
@pytest.mark.rule("4.b")
def test_confederate_units_cannot_be_ordered_in_the_union_half():
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")])
    assert game.phasing is U and game.current_player is U
    assert_refused(game, ahd.BeginMarch("atlanta"), "4.b")


# =========================================================================== 1.3 / T-1
T1_VALUES = {"MF": 2, "FV": 3, "FS": 3, "MC": 1, "CV": 2, "CS": 3}


def shooter_game(code):
    """A Union `code` attacks the lone Confederate MF in Front Royal; the defender's shot misses (6).
    Returns the game at the Union shot."""
    game = make_game([("union", code, "harpers_ferry"), ("confederate", "MF", "front_royal")])
    uid = f"U-{code}-01"
    march(game, "harpers_ferry", road(uid, "harpers_ferry", "front_royal"))
    end_movement(game)
    assert game.decision == "shot" and game.pending_roll.startswith("shot of militia infantry C-MF-01")
    game.apply(ahd.Roll(6))
    assert game.decision == "shot" and f"{uid} at militia infantry C-MF-01" in game.pending_roll
    return game


@pytest.mark.rule("1.3")
@pytest.mark.parametrize("code", list(T1_VALUES))
def test_unit_value_hits_on_its_value_and_misses_above(code):
    value = T1_VALUES[code]
    assert UNIT_TYPES[code].value == value
    game = shooter_game(code)
    assert f"hits on {value} or less" in game.pending_roll
    game.apply(ahd.Roll(value))
    assert game.unit("C-MF-01").strength == "reduced"
    game = shooter_game(code)
    game.apply(ahd.Roll(value + 1))
    assert game.unit("C-MF-01").strength == "full"


@pytest.mark.rule("1.3")
def test_only_crack_infantry_carries_the_fired_at_modifier():
    assert [UNIT_TYPES[c].arm for c in ("MF", "FV", "FS")] == ["infantry"] * 3
    assert [UNIT_TYPES[c].arm for c in ("MC", "CV", "CS")] == ["cavalry"] * 3
    needed = {}
    for code in ("FS", "CS"):
        game = make_game([("union", "MF", "harpers_ferry"), ("confederate", code, "front_royal")])
        march(game, "harpers_ferry", road("U-MF-01", "harpers_ferry", "front_royal"))
        end_movement(game)
        if game.decision == "cavalry_retreat":
            game.apply(ahd.HoldGround())
        game.apply(ahd.Roll(6))  # the defender misses
        needed[code] = game.pending_roll
        game.apply(ahd.Roll(2))
        needed[code] = (needed[code], game.unit(f"C-{code}-01").strength)
    assert "hits on 1 or less" in needed["FS"][0] and needed["FS"][1] == "full"      # MF 2 - 1
    assert "hits on 2 or less" in needed["CS"][0] and needed["CS"][1] == "reduced"   # crack cavalry: no -1


# =========================================================================== 1.3.a counter mix
@pytest.mark.rule("1.3.a")
def test_militia_counter_mix_and_unlimited_veterans():
    game = ahd.new_game("1861", dice="manual", seed=0)
    everything = [u for side in Side for where in ("map", "pool", "reserve", "out") for u in game.units(side, where)]
    mix = Counter((u.side, u.type.code) for u in everything)
    assert mix == {(U, "MF"): 24, (U, "MC"): 1, (C, "MF"): 8, (C, "MC"): 1}
    # veteran and crack counters are unlimited: 40 Confederate veterans are a legal position
    big = make_game([("confederate", "FV", "richmond", 40), ("confederate", "FS", "atlanta", 5)])
    assert len(big.units("confederate")) == 45
    assert big.state.counter_mix_ok() == []


@pytest.mark.rule("1.3.a")
@pytest.mark.rule("7.d")
def test_no_ninth_confederate_militia_infantry():
    with pytest.raises(ahd.DataFileError, match="1.3.a"):
        make_game([("confederate", "MF", "richmond", 9)])
    game = make_game([("confederate", "MF", "richmond", 8)])
    to_recruit_roll(game, C)
    game.apply(ahd.Roll(6))
    assert {a.unit_type for a in recruits(game)} == {"MC"}   # only the militia cavalry is left
    assert_refused(game, ahd.Recruit("atlanta", "MF"), "7.d")
    game.apply(ahd.Recruit("atlanta", "MC"))
    assert game.phasing is U                                 # pool empty: recruitment over after one
    assert len(game.units("confederate")) == 9 and game.units("confederate", "pool") == []


# =========================================================================== 2 (= S-1)
S1_UNITS = {
    U: {"washington": 3, "chicago": 2, "fort_wayne": 2, "harpers_ferry": 1, "pittsburgh": 1, "canton": 1,
        "columbus_oh": 1, "st_louis": 1},
    C: {"manassas_junction": 1, "fredericksburg": 1, "front_royal": 1, "charleston_sc": 1, "mobile": 1,
        "jefferson_city": 1, "atlanta": 1, "new_orleans": 1},
}


@pytest.mark.rule("2")
@pytest.mark.rule("S-1")
def test_1861_setup():
    game = ahd.new_game("1861", dice="manual", seed=0)
    assert game.turn == ahd.Turn(1, "Jul", 1861)
    for side, boxes in S1_UNITS.items():
        units = game.units(side)
        assert Counter(u.location for u in units) == boxes
        assert {(u.type.code, u.strength) for u in units} == {("MF", "full")}
    for u in game.units("union") + game.units("confederate"):
        assert game.is_entrenched(u.id) == (u.location == "washington")   # F: own fort only
    assert [u.type.code for u in game.units("union", "pool")] == ["MC"]
    assert [u.type.code for u in game.units("union", "reserve")] == ["MF"] * 12
    assert [u.type.code for u in game.units("confederate", "pool")] == ["MC"]
    assert game.units("confederate", "reserve") == [] and game.units("union", "out") == []
    for box in game.board:
        assert game.controller(box.id) is box.owner, box.id
        assert not has_marker(game.state, box.id) and not game.is_cavalry_held(box.id)
    assert (game.army_max("union"), game.army_max("confederate")) == (34, 29)


@pytest.mark.rule("2")
@pytest.mark.rule("S-1")
@pytest.mark.rule("7.b")
def test_1861_union_pool_holds_no_infantry_and_kentucky_is_nobody_s():
    game = ahd.new_game("1861", dice="manual", seed=0)
    assert game.controller("louisville") is None and game.controller("bowling_green") is None
    to_recruit_roll(game, U)
    game.apply(ahd.Roll(6))
    assert {a.unit_type for a in recruits(game)} == {"MC"}
    assert_refused(game, ahd.Recruit("chicago", "MF"), "7.d")       # the 12 MF are reserve, not pool (2.c)
    assert_refused(game, ahd.Recruit("louisville", "MC"), "7.b")    # neutral at the start (2.d)


# =========================================================================== 3.a / 3.b
def attacked_both_ways():
    """Union attacks Front Royal in its half; the Confederacy attacks Franklin in its half."""
    return make_game([("union", "FV", "harpers_ferry"), ("union", "MF", "franklin"), ("union", "MF", "chicago"),
                      ("confederate", "MF", "front_royal"), ("confederate", "MF", "staunton"),
                      ("confederate", "MF", "richmond")])


@pytest.mark.rule("3.a")
def test_segment_order_union_half_then_confederate_half():
    game = attacked_both_ways()
    march(game, "harpers_ferry", road("U-FV-01", "harpers_ferry", "front_royal"))
    seen = []
    attacked = False
    while game.turn.number == 2:
        entry = (game.phasing, game.phase)
        if not seen or seen[-1] != entry:
            seen.append(entry)
        if game.phasing is C and game.decision == "movement" and not attacked:
            attacked = True
            march(game, "staunton", road("C-MF-02", "staunton", "franklin"))
            continue
        pass_decision(game)
    assert attacked
    assert seen == [(U, "movement"), (U, "combat"), (U, "promotion"), (U, "recruitment"),
                    (C, "movement"), (C, "combat"), (C, "promotion"), (C, "recruitment")]
    assert game.phasing is U and game.phase == "movement" and game.turn.number == 3


@pytest.mark.rule("3.a")
def test_segments_are_never_reopened():
    game = make_game([("union", "MF", "chicago")])
    assert game.phase == "movement"
    assert_refused(game, ahd.Recruit("chicago", "MF"), "3.a")
    assert_refused(game, ahd.Promote("U-MF-01"), "3.a")
    to_recruit_roll(game, U)
    game.apply(ahd.Roll(2))
    assert game.phase == "recruitment"
    assert_refused(game, ahd.BeginMarch("chicago"), "3.a")
    assert_refused(game, ahd.Promote("U-MF-01"), "3.a")


@pytest.mark.rule("3.b")
@pytest.mark.rule("8")
def test_engine_step_order_in_the_log():
    game = front_royal_battle(extra=[("union", "MF", "chicago")])   # turn 2: no draft
    game.apply(ahd.Promote("U-MF-01"))               # 6.a after the battle
    assert game.decision == "promotion"
    game.apply(ahd.Promote("U-MF-02"))               # 6.b
    game.apply(ahd.Roll(2))
    game.apply(ahd.Recruit("pittsburgh", "MF"))
    game.apply(ahd.EndRecruitment())
    kinds = [e.kind for e in game.log]
    order = [kinds.index("battle"), kinds.index("promote"), kinds.index("recover"),
             len(kinds) - 1 - kinds[::-1].index("promote"), kinds.index("recruit"), kinds.index("control")]
    assert order == sorted(order) and len(set(order)) == 6
    assert "draft" not in kinds
    # a game starting at turn 8 drafts at the start of the turn, before the Union half
    april = make_game([("union", "MF", "chicago")], turn=8)
    kinds = [e.kind for e in april.log]
    assert kinds.index("draft") < kinds.index("marches")


@pytest.mark.rule("3.b")
@pytest.mark.rule("9.e")
@pytest.mark.rule("9.d")
@pytest.mark.rule("7.b")
def test_control_update_comes_after_recruitment():
    game = make_game([("union", "MF", "cumberland_gap")])
    march(game, "cumberland_gap", road("U-MF-01", "cumberland_gap", "knoxville"))
    to_recruit_roll(game, U)
    game.apply(ahd.Roll(6))
    assert game.controller("knoxville") is C and game.army_max("union") == 34
    assert_refused(game, ahd.Recruit("knoxville", "MF"), "7.b")
    game.apply(ahd.EndRecruitment())
    assert game.controller("knoxville") is U and game.army_max("union") == 35


# =========================================================================== 3.c / T-2
CALENDAR = {1: ("Jul", 1861), 2: ("Aug", 1861), 4: ("Oct", 1861), 5: ("Nov–Dec", 1861), 6: ("Jan–Feb", 1862),
            7: ("Mar", 1862), 8: ("Apr", 1862), 10: ("Jun", 1862), 15: ("Nov–Dec", 1862),
            16: ("Jan–Feb", 1863), 18: ("Apr", 1863), 25: ("Nov–Dec", 1863), 26: ("Jan–Feb", 1864),
            28: ("Apr", 1864), 36: ("Jan–Feb", 1865), 37: ("Mar", 1865), 40: ("Jun", 1865)}


@pytest.mark.rule("3.c")
def test_turn_calendar():
    for number, (months, year) in CALENDAR.items():
        assert ahd.Turn.of(number) == ahd.Turn(number, months, year), number
    per_year = Counter(ahd.Turn.of(n).year for n in range(1, 41))
    assert per_year == {1861: 5, 1862: 10, 1863: 10, 1864: 10, 1865: 5}
    game = make_game([("union", "MF", "chicago")], turn=5)
    assert game.turn == ahd.Turn(5, "Nov–Dec", 1861)
    pass_until(game, lambda g: g.turn.number == 6)
    assert game.turn == ahd.Turn(6, "Jan–Feb", 1862)
    pass_until(game, lambda g: g.turn.number == 7)
    assert game.turn == ahd.Turn(7, "Mar", 1862)


@pytest.mark.rule("3.c")
def test_no_turn_outside_the_calendar():
    for number in (0, 41, -1):
        with pytest.raises(ValueError):
            ahd.Turn.of(number)
    assert ahd.Turn.of(5) != ahd.Turn(5, "Nov–Dec", 1862)   # the winter turn keeps the old year
    assert ahd.Turn.of(6).year == 1862                      # Jan–Feb opens the new year


@pytest.mark.rule("3.c")
@pytest.mark.rule("4.1")
@pytest.mark.rule("1.1")
def test_e8_first_turn_two_marches_each_then_august():
    game = ahd.new_game("1861", dice="manual", seed=0)
    assert game.phasing is U and game.decision == "movement"
    assert game.marches_left == 2 and game.march_roll is None
    assert_refused(game, ahd.Roll(3), "0.3")   # no march roll on turn 1
    chicago = ids_at(game, "chicago")
    march(game, "chicago", rail(chicago[0], "chicago", "bloomington_il"))
    assert game.marches_left == 1
    march(game, "fort_wayne", rail(ids_at(game, "fort_wayne")[0], "fort_wayne", "lafayette"))
    assert game.phase != "movement"            # the two marches are all the Union has
    pass_until(game, lambda g: g.phasing is C)
    assert game.turn == ahd.Turn(1, "Jul", 1861)
    assert game.decision == "movement" and game.marches_left == 2 and game.march_roll is None
    pass_until(game, lambda g: g.phasing is U)
    assert game.turn == ahd.Turn(2, "Aug", 1861)
    assert game.decision == "march_roll" and game.current_player == CHANCE


# =========================================================================== 6.a
@pytest.mark.rule("6.a")
@pytest.mark.rule("6.c")
@pytest.mark.rule("6.b")
def test_battle_winner_promotes_a_participant_keeping_its_strength():
    game = front_royal_battle(second_battle=True)
    assert game.current_player is U
    assert set(game.legal_actions()) == {ahd.Promote("U-FV-01"), ahd.Promote("U-MF-01"), ahd.NoPromotion()}
    game.apply(ahd.Promote("U-MF-01"))
    assert game.battle is not None and game.battle.box == "murfreesboro"   # the second battle
    new = game.unit("U-FV-02")
    assert new.location == "front_royal" and new.strength == "reduced"   # strength kept (6.c)
    old = game.unit("U-MF-01")
    assert old.location == "@pool" and old.strength == "full"
    game.apply(ahd.Roll(6))   # Murfreesboro: the defender misses
    game.apply(ahd.Roll(1))   # U-MF-02 hits
    pass_until(game, lambda g: g.decision == "promotion")
    # recovery (5.2.7) follows the battles; then 6.b may promote the same unit again
    assert new.strength == "full"
    game.apply(ahd.Promote("U-FV-02"))
    assert [u.type.code for u in game.units_in("front_royal")] == ["FV", "FS"]
    assert game.unit("U-FV-02").location == "@out"


@pytest.mark.rule("6.a")
def test_defending_winner_promotes_too():
    game = make_game([("union", "MF", "harpers_ferry"), ("confederate", "FV", "front_royal")])
    march(game, "harpers_ferry", road("U-MF-01", "harpers_ferry", "front_royal"))
    end_movement(game)
    game.apply(ahd.Roll(1))   # C-FV-01 hits: U-MF-01 reduced
    game.apply(ahd.Roll(5))   # U-MF-01 misses
    pass_until(game, lambda g: g.decision == "shot")
    game.apply(ahd.Roll(1))   # round 2: U-MF-01 eliminated
    assert game.decision == "battle_promotion" and game.current_player is C
    game.apply(ahd.Promote("C-FV-01"))
    assert [u.type.code for u in game.units_in("front_royal")] == ["FS"]


@pytest.mark.rule("6.a")
def test_battle_promotion_only_for_surviving_participants_of_the_winner():
    game = front_royal_battle(extra=[("union", "MF", "chicago")])
    assert_refused(game, ahd.Promote("U-MF-02"), "6.a")     # did not take part
    assert_refused(game, ahd.Promote("C-MF-01"), "6.a")     # the loser's (eliminated) unit
    game.apply(ahd.NoPromotion())
    assert game.unit("U-MF-01").type.code == "MF" and game.decision == "promotion"


# =========================================================================== 6.b
@pytest.mark.rule("6.b")
def test_segment_promotion_of_one_unit_anywhere():
    game = make_game([("union", "MF", "chicago"), ("union", "MF", "st_louis"),
                      ("confederate", "MF", "atlanta"), ("confederate", "CV", "mobile")])
    pass_until(game, lambda g: g.decision == "promotion")
    assert game.current_player is U and game.phase == "promotion"
    game.apply(ahd.Promote("U-MF-02"))
    assert [u.type.code for u in game.units_in("st_louis")] == ["FV"]
    assert game.decision != "promotion"          # one per segment
    assert_refused(game, ahd.Promote("U-MF-01"), "3.a")
    pass_until(game, lambda g: g.phasing is C and g.decision == "promotion")
    assert game.current_player is C
    game.apply(ahd.Promote("C-CV-01"))
    assert [u.type.code for u in game.units_in("mobile")] == ["CS"]
    assert [u.type.code for u in game.units("union")].count("MF") == 1


@pytest.mark.rule("6.b")
def test_segment_promotion_refuses_enemy_and_off_map_units():
    game = make_game([("union", "MF", "chicago"), ("confederate", "MF", "atlanta")])
    pass_until(game, lambda g: g.decision == "promotion")
    assert_refused(game, ahd.Promote("C-MF-01"), "6.b")
    assert_refused(game, ahd.Promote("U-MF-05"), "6.b")     # in the pool
    assert_refused(game, ahd.Promote("U-MF-24"), "6.b")     # in the reserve


# =========================================================================== 6.c
@pytest.mark.rule("6.c")
@pytest.mark.parametrize("code,new,old_to", [("MF", "FV", "@pool"), ("FV", "FS", "@out"),
                                             ("MC", "CV", "@pool"), ("CV", "CS", "@out")])
def test_promotion_ladder_keeps_box_and_entrenchment(code, new, old_to):
    game = make_game([("union", code, "chicago", 1, True)])
    pass_until(game, lambda g: g.decision == "promotion")
    old_id = f"U-{code}-01"
    assert game.is_entrenched(old_id)
    game.apply(ahd.Promote(old_id))
    (unit,) = game.units_in("chicago")
    assert unit.type.code == new and unit.type.arm == UNIT_TYPES[code].arm
    assert unit.entrenched and game.is_entrenched(unit.id) and unit.strength == "full"
    old = game.unit(old_id)
    assert old.location == old_to and not old.entrenched
    if old_to == "@pool":
        assert old in game.units("union", "pool")
    else:
        assert old in game.units("union", "out")


@pytest.mark.rule("6.c")
@pytest.mark.parametrize("code", ["FS", "CS"])
def test_crack_cannot_be_promoted(code):
    game = make_game([("union", code, "chicago"), ("union", "MF", "st_louis")])
    pass_until(game, lambda g: g.decision == "promotion")
    assert ahd.Promote(f"U-{code}-01") not in game.legal_actions()
    assert_refused(game, ahd.Promote(f"U-{code}-01"), "6.c")


# =========================================================================== 7.a
@pytest.mark.rule("7.a")
@pytest.mark.rule("7.d")
def test_recruit_roll_one_counts_as_two():
    game = make_game([("confederate", "MF", "richmond")], control={"confederate": ["cincinnati"]})
    to_recruit_roll(game, C)
    game.apply(ahd.Roll(1))
    assert game.decision == "recruitment"
    game.apply(ahd.Recruit("atlanta", "MF"))
    assert game.decision == "recruitment" and recruits(game)    # a 1 does not mean one recruit
    game.apply(ahd.Recruit("cincinnati", "MF"))                  # a captured two-colour city (red 1)
    assert game.phasing is U and game.turn.number == 3           # two placed: the segment is over
    assert sorted(u.location for u in game.units("confederate")) == ["atlanta", "cincinnati", "richmond"]


@pytest.mark.rule("7.a")
@pytest.mark.rule("7.d")
def test_recruit_roll_is_the_limit():
    game = make_game([("confederate", "MF", "richmond")])
    to_recruit_roll(game, C)
    assert_refused(game, ahd.Roll(7), "0.3")
    assert_refused(game, ahd.Roll(0), "0.3")
    game.apply(ahd.Roll(3))
    for box in ("atlanta", "mobile", "memphis"):
        assert game.decision == "recruitment"
        game.apply(ahd.Recruit(box, "MF"))
    assert game.phasing is U and len(game.units("confederate")) == 4   # no fourth recruit
    assert len(game.units("confederate", "pool")) == 5               # 4 MF + 1 MC left


# =========================================================================== 7.b
@pytest.mark.rule("7.b")
def test_recruits_come_from_the_pool_into_own_cities_unentrenched():
    game = make_game([("union", "MF", "chicago")])
    to_recruit_roll(game, U)
    game.apply(ahd.Roll(4))
    pool_mf = sorted(u.id for u in game.units("union", "pool") if u.type.code == "MF")
    game.apply(ahd.Recruit("pittsburgh", "MF"))
    game.apply(ahd.Recruit("new_york_city", "MC"))
    game.apply(ahd.Recruit("washington", "MF"))
    (pitt,) = game.units_in("pittsburgh")
    assert pitt.id == pool_mf[0] and not game.is_entrenched(pitt.id)
    assert [u.id for u in game.units_in("new_york_city")] == ["U-MC-01"]
    (wash,) = game.units_in("washington")
    assert game.is_entrenched(wash.id) and not wash.entrenched     # only by the fort (4.2.5 d)


@pytest.mark.rule("7.b")
def test_recruit_placement_refusals():
    game = make_game([("union", "MF", "chicago")], control={"confederate": ["st_louis"]})
    to_recruit_roll(game, U)
    game.apply(ahd.Roll(6))
    game.apply(ahd.Recruit("pittsburgh", "MF"))
    assert_refused(game, ahd.Recruit("pittsburgh", "MF"), "7.b")     # one per box per segment
    assert_refused(game, ahd.Recruit("pittsburgh", "MC"), "7.b")
    assert_refused(game, ahd.Recruit("st_louis", "MF"), "7.b")       # Union city held by the enemy
    assert_refused(game, ahd.Recruit("evansville", "MF"), "7.b")     # Union-held, but no blue value
    assert_refused(game, ahd.Recruit("gettysburg", "MF"), "7.b")     # no recruiting city
    assert_refused(game, ahd.Recruit("richmond", "MF"), "7.b")       # enemy city
    assert_refused(game, ahd.Recruit("chicago", "FV"), "7.b")        # recruits are militia


# =========================================================================== 7.c
@pytest.mark.rule("7.c")
@pytest.mark.rule("7.d")
def test_recruits_up_to_the_army_maximum():
    game = make_game([("confederate", "FV", "richmond", 28)])
    assert game.army_max("confederate") == 29
    to_recruit_roll(game, C)
    game.apply(ahd.Roll(6))
    game.apply(ahd.Recruit("atlanta", "MF"))
    assert game.phasing is U and game.turn.number == 3       # 29 on the map: no more recruits
    assert len(game.units("confederate")) == 29


@pytest.mark.rule("7.c")
def test_no_recruitment_at_the_maximum_and_excess_units_are_kept():
    for count in (29, 31):
        game = make_game([("confederate", "FV", "richmond", count)])
        pass_until(game, lambda g: g.phasing is C)
        decisions = set()
        while game.phasing is C:
            decisions.add(game.decision)
            pass_decision(game)
        assert "recruit_roll" not in decisions and "recruitment" not in decisions
        assert len(game.units("confederate")) == count
        assert len(game.units("confederate", "pool")) == 9


@pytest.mark.rule("7.c")
@pytest.mark.rule("9.d")
def test_army_maximum_is_the_sum_of_controlled_own_colour_values():
    board = ahd.default_board()
    game = make_game([("union", "MF", "chicago")], control={"union": ["louisville"], "confederate": ["cincinnati"]})
    expected = {side: sum(b.value_for(side) for b in board if game.controller(b.id) is side) for side in Side}
    assert expected == {U: 34 + 1 - 1, C: 29 + 1}
    assert (game.army_max("union"), game.army_max("confederate")) == (expected[U], expected[C])


# =========================================================================== 7.d
@pytest.mark.rule("7.d")
def test_recruits_limited_by_eligible_boxes():
    board = ahd.default_board()
    others = [b.id for b in board if b.red_value > 0 and b.owner is C and b.id not in ("richmond", "atlanta")]
    game = make_game([], control={"union": others})
    assert game.army_max("confederate") == 5
    to_recruit_roll(game, C)
    game.apply(ahd.Roll(6))
    assert {a.box for a in recruits(game)} == {"richmond", "atlanta"}
    game.apply(ahd.Recruit("richmond", "MF"))
    assert_refused(game, ahd.Recruit("richmond", "MC"), "7.b")
    game.apply(ahd.Recruit("atlanta", "MC"))
    assert game.phasing is U and len(game.units("confederate")) == 2


# =========================================================================== 8 drafts
@pytest.mark.rule("8")
def test_e8_drafts_in_the_1861_campaign():
    game = ahd.new_game("1861", dice="manual", seed=0)
    in_play = {}
    for turn in range(1, 30):
        pass_until(game, lambda g: g.turn.number == turn, limit=2000)
        assert game.phasing is U
        in_play[turn] = (mf_in_play(game), len(game.units("union", "reserve")))
    assert {t: in_play[t] for t in (7, 8, 17, 18, 27, 28)} == {
        7: (12, 12), 8: (16, 8), 17: (16, 8), 18: (20, 4), 27: (20, 4), 28: (24, 0)}


@pytest.mark.rule("8")
def test_no_draft_outside_april_of_the_draft_years():
    game = make_game([("union", "FV", "chicago")], turn=8)
    assert game.decision == "movement" and mf_in_play(game) == 16   # drafted before the Union half
    seen = {}
    for turn in range(9, 19):
        pass_until(game, lambda g: g.turn.number == turn, limit=2000)
        seen[turn] = len(game.units("union", "reserve"))
    assert all(seen[t] == 8 for t in range(9, 18)) and seen[18] == 4
    assert sum(1 for e in game.log if e.kind == "draft") == 2


# =========================================================================== 9.a
@pytest.mark.rule("9.a")
@pytest.mark.rule("9.e")
def test_control_changes_at_the_end_of_each_half_turn():
    game = make_game([("union", "MF", "harpers_ferry"), ("confederate", "MF", "staunton")])
    march(game, "harpers_ferry", road("U-MF-01", "harpers_ferry", "front_royal"))
    pass_until(game, lambda g: g.decision == "recruit_roll")
    assert game.controller("front_royal") is C and game.controller("harpers_ferry") is U
    to_half_end(game)
    assert game.controller("front_royal") is U and not game.is_cavalry_held("front_royal")
    assert game.controller("harpers_ferry") is U          # empty box: unchanged
    # the Confederate half: its MF takes empty Franklin
    march(game, "staunton", road("C-MF-01", "staunton", "franklin"))
    pass_until(game, lambda g: g.decision == "recruit_roll")
    assert game.controller("franklin") is U
    to_half_end(game)
    assert game.controller("franklin") is C and game.controller("staunton") is C


@pytest.mark.rule("9.a")
@pytest.mark.rule("4.g")
def test_passing_through_or_leaving_a_box_does_not_change_control():
    game = make_game([("union", "CV", "harpers_ferry")], control={"union": ["staunton"]})
    march(game, "harpers_ferry", ahd.Move("U-CV-01", ("harpers_ferry", "front_royal", "franklin"), ("road", "road")))
    to_half_end(game)
    assert game.controller("front_royal") is C           # only passed through
    assert game.controller("harpers_ferry") is U
    assert game.controller("staunton") is U              # empty, firmly held: stays


@pytest.mark.rule("9.a")
@pytest.mark.rule("5.2.6")
@pytest.mark.rule("6.a")
def test_update_covers_the_non_phasing_side_too():
    game = make_game([("union", "MF", "harpers_ferry"), ("confederate", "CV", "front_royal")])
    march(game, "harpers_ferry", road("U-MF-01", "harpers_ferry", "front_royal"))
    assert game.decision == "cavalry_retreat"
    game.apply(ahd.CavalryRetreat("franklin"))
    assert game.decision == "promotion"                        # no winner: no battle promotion (6.a)
    assert game.controller("franklin") is U
    to_half_end(game)
    assert game.phasing is C                                   # at the end of the Union half:
    assert game.controller("franklin") is C and game.is_cavalry_held("franklin")
    assert game.controller("front_royal") is U


@pytest.mark.rule("9.a")
def test_cavalry_alone_holds_enemy_boxes_but_firmly_its_own():
    game = make_game([("union", "CV", "harpers_ferry"), ("union", "CV", "grafton")],
                     control={"confederate": ["franklin"]})
    march(game, "harpers_ferry", road("U-CV-01", "harpers_ferry", "front_royal"))
    march(game, "grafton", road("U-CV-02", "grafton", "franklin"))
    to_half_end(game)
    assert game.controller("front_royal") is U and game.is_cavalry_held("front_royal")
    assert game.controller("franklin") is U and not game.is_cavalry_held("franklin")   # printed Union


# =========================================================================== 9.b
@pytest.mark.rule("9.b")
@pytest.mark.rule("9.d")
def test_cavalry_held_box_reverts_the_moment_the_last_unit_leaves():
    game = make_game([("union", "CV", "memphis"), ("union", "CV", "lexington")])
    assert game.is_cavalry_held("memphis") and game.controller("memphis") is U
    assert game.is_cavalry_held("lexington") and game.controller("lexington") is U
    assert game.army_max("confederate") == 27
    game.apply(ahd.BeginMarch("memphis"))
    game.apply(rail("U-CV-01", "memphis", "humboldt"))      # the march ends itself
    assert game.decision == "movement" and game.marches_left == 1
    assert game.controller("memphis") is C and not game.is_cavalry_held("memphis")
    assert game.army_max("confederate") == 29               # recomputed at once (9.d)
    assert any(e.kind == "control" and "Memphis reverts" in str(e) for e in game.log)
    game.apply(ahd.BeginMarch("lexington"))
    game.apply(rail("U-CV-02", "lexington", "cincinnati"))
    assert game.controller("lexington") is None             # neutral again


@pytest.mark.rule("9.b")
@pytest.mark.rule("9.e")
@pytest.mark.rule("7.b")
def test_cavalry_held_city_reverts_when_its_holder_is_eliminated():
    game = make_game([("union", "MF", "wheeling"), ("confederate", "CV", "pittsburgh")])
    assert game.controller("pittsburgh") is C and game.is_cavalry_held("pittsburgh")
    assert game.army_max("union") == 31
    march(game, "wheeling", rail("U-MF-01", "wheeling", "pittsburgh"))
    game.apply(ahd.HoldGround())                 # no cavalry retreat (5.2.6)
    game.apply(ahd.Roll(6))                      # C-CV-01 misses
    game.apply(ahd.Roll(1))                      # U-MF-01 hits: reduced
    pass_until(game, lambda g: g.decision == "shot")
    game.apply(ahd.Roll(6))
    pass_until(game, lambda g: g.decision == "shot")
    assert game.controller("pittsburgh") is C
    game.apply(ahd.Roll(1))                      # C-CV-01 eliminated
    assert game.decision == "battle_promotion"   # still in the Combat segment, long before 9.a
    assert game.controller("pittsburgh") is U and not game.is_cavalry_held("pittsburgh")
    assert game.army_max("union") == 34
    pass_until(game, lambda g: g.decision == "recruit_roll")
    game.apply(ahd.Roll(2))
    game.apply(ahd.Recruit("pittsburgh", "MF"))  # Union-controlled now (9.e)
    assert len(game.units_in("pittsburgh")) == 2


@pytest.mark.rule("9.b")
def test_firm_control_does_not_revert():
    game = make_game([("union", "CV", "front_royal"), ("union", "MF", "front_royal")])
    assert game.controller("front_royal") is U and not game.is_cavalry_held("front_royal")
    march(game, "front_royal", road("U-CV-01", "front_royal", "franklin"), road("U-MF-01", "front_royal", "franklin"))
    assert game.controller("front_royal") is U


@pytest.mark.rule("9.b")
def test_cavalry_held_box_becomes_firm_when_infantry_joins():
    game = make_game([("union", "CV", "front_royal"), ("union", "MF", "harpers_ferry")])
    assert game.is_cavalry_held("front_royal")
    march(game, "harpers_ferry", road("U-MF-01", "harpers_ferry", "front_royal"))
    assert game.is_cavalry_held("front_royal")              # only at the update
    to_half_end(game)
    assert game.controller("front_royal") is U and not game.is_cavalry_held("front_royal")
    pass_until(game, lambda g: g.phasing is U and g.decision == "march_roll")
    game.apply(ahd.Roll(3))
    march(game, "front_royal", road("U-CV-01", "front_royal", "franklin"), road("U-MF-01", "front_royal", "franklin"))
    assert game.units_in("front_royal") == [] and game.controller("front_royal") is U


# =========================================================================== 9.c
@pytest.mark.rule("9.c")
def test_control_markers_where_controller_differs_from_printed_owner():
    game = make_game([("union", "MF", "harpers_ferry"), ("union", "CV", "grafton")])
    assert not any(has_marker(game.state, b.id) for b in game.board)
    march(game, "harpers_ferry", road("U-MF-01", "harpers_ferry", "front_royal"))
    march(game, "grafton", ahd.Move("U-CV-01", ("grafton", "franklin", "staunton"), ("road", "road")))
    assert not any(has_marker(game.state, b.id) for b in game.board)    # none before the update
    to_half_end(game)
    assert sorted(b.id for b in game.board if has_marker(game.state, b.id)) == ["front_royal", "staunton"]


@pytest.mark.rule("9.c")
def test_no_marker_when_printed_owner_recovers_a_box():
    game = make_game([("union", "MF", "harpers_ferry")], control={"union": ["front_royal", "louisville"]})
    assert has_marker(game.state, "front_royal") and has_marker(game.state, "louisville")
    assert not has_marker(game.state, "harpers_ferry") and not has_marker(game.state, "lexington")
    game2 = make_game([("confederate", "MF", "staunton")], control={"union": ["front_royal"]})
    pass_until(game2, lambda g: g.phasing is C)
    march(game2, "staunton", road("C-MF-01", "staunton", "front_royal"))
    to_half_end(game2)
    assert game2.controller("front_royal") is C and not has_marker(game2.state, "front_royal")


# =========================================================================== 9.d
@pytest.mark.rule("9.d")
def test_maxima_follow_captures():
    game = make_game([("union", "MF", "cumberland_gap"), ("union", "MF", "sparta"), ("union", "MF", "bloomington_in")])
    march(game, "cumberland_gap", road("U-MF-01", "cumberland_gap", "knoxville"))   # blue 1
    march(game, "sparta", road("U-MF-02", "sparta", "nashville"))                    # red 1
    to_half_end(game)
    assert (game.army_max("union"), game.army_max("confederate")) == (35, 28)
    pass_until(game, lambda g: g.phasing is U and g.decision == "march_roll")
    game.apply(ahd.Roll(2))
    march(game, "bloomington_in", rail("U-MF-03", "bloomington_in", "louisville"))   # neutral, 1/1
    to_half_end(game)
    assert (game.army_max("union"), game.army_max("confederate")) == (36, 28)      # nobody loses


# =========================================================================== 10
@pytest.mark.rule("10")
@pytest.mark.rule("11.b")
def test_forty_turns_then_confederate_victory():
    game = make_game([("union", "MF", "chicago")], turn=39)
    to_half_end(game)
    assert game.turn.number == 39 and game.phasing is C          # no advance after the Union half
    to_half_end(game)
    assert game.turn.number == 40 and game.phasing is U
    to_half_end(game)
    assert not game.is_over and game.turn.number == 40 and game.phasing is C
    to_half_end(game)
    assert game.is_over and game.decision == "over" and game.turn.number == 40
    assert game.outcome.winner is C and game.outcome.rule == "11.b" and game.outcome.turn == 40


@pytest.mark.rule("10")
def test_nothing_after_the_game_is_over():
    game = make_game([("union", "MF", "chicago")], turn=40)
    pass_until(game, lambda g: g.is_over)
    assert game.legal_actions() == [] and game.current_player is None
    for action in (ahd.EndMovement(), ahd.BeginMarch("chicago"), ahd.EndRecruitment()):
        assert_refused(game, action, "10")


# =========================================================================== 11.a
@pytest.mark.rule("11.a")
def test_union_wins_with_all_seven_cities():
    game = make_game([("union", "MF", "goldsboro")], control={"union": [c for c in SEVEN if c != "wilmington"]})
    march(game, "goldsboro", rail("U-MF-01", "goldsboro", "wilmington"))
    pass_until(game, lambda g: g.decision == "recruit_roll")
    assert not game.is_over                                     # not before the update
    to_half_end(game)
    assert game.is_over and game.phasing is U
    assert game.outcome.winner is U and game.outcome.rule == "11.a" and game.outcome.turn == 2


@pytest.mark.rule("11.a")
def test_six_cities_are_not_enough():
    game = make_game([("union", "MF", "goldsboro")], control={"union": [c for c in SEVEN if c != "wilmington"]})
    to_half_end(game)
    assert not game.is_over and game.phasing is C
    assert game.controller("wilmington") is C


# =========================================================================== 11.b
@pytest.mark.rule("11.b")
def test_confederacy_wins_by_controlling_washington():
    game = make_game([("union", "MF", "baltimore")], control={"confederate": ["washington"]})
    assert (game.army_max("union"), game.army_max("confederate")) == (33, 29)
    assert not game.is_over and game.decision == "movement"     # no check before an update
    to_half_end(game)
    assert game.is_over and game.outcome.winner is C and game.outcome.rule == "11.b"
    assert game.outcome.turn == 2 and game.phasing is U


@pytest.mark.rule("11.b")
def test_washington_retaken_before_the_update_is_no_defeat():
    game = make_game([("union", "MF", "baltimore")], control={"confederate": ["washington"]})
    march(game, "baltimore", rail("U-MF-01", "baltimore", "washington"))
    to_half_end(game)
    assert not game.is_over and game.controller("washington") is U and game.phasing is C


@pytest.mark.rule("11.b")
@pytest.mark.parametrize("options", [None, ["H-1", "H-2", "O-3.4"]])
def test_e8_confederate_maximum_31_beats_union_30(options):
    game = make_game([], control=C31_U30, turn=9, options=options)   # O-3.4 (+4 units) never counts here
    assert (game.army_max("union"), game.army_max("confederate")) == (30, 31)
    to_half_end(game)
    assert game.is_over and game.outcome.winner is C and game.outcome.rule == "11.b"


@pytest.mark.rule("11.b")
def test_equal_maxima_are_no_victory():
    game = make_game([], control=C30_U30)
    assert (game.army_max("union"), game.army_max("confederate")) == (30, 30)
    to_half_end(game)
    to_half_end(game)
    assert not game.is_over and game.turn.number == 3


@pytest.mark.rule("11.b")
@pytest.mark.rule("11.a")
def test_union_victory_on_turn_40_prevents_the_turn_40_defeat():
    game = make_game([], turn=40, control={"union": list(SEVEN)})
    to_half_end(game)
    assert game.outcome.winner is U and game.outcome.rule == "11.a" and game.outcome.turn == 40


# =========================================================================== 11.c
@pytest.mark.rule("11.c")
def test_both_qualify_phasing_player_wins():
    game = make_game([], control={"union": list(SEVEN), "confederate": ["washington"]})
    to_half_end(game)
    assert game.is_over and game.phasing is U
    assert game.outcome.winner is U and game.outcome.rule == "11.c"


@pytest.mark.rule("11.c")
def test_a_single_qualifier_wins_in_the_opponent_half_and_ends_the_game():
    game = make_game([("union", "MF", "st_louis")], control=C31_U30)
    assert not game.is_over and game.decision == "movement"                                    # checks only at updates
    to_half_end(game)
    assert game.phasing is U and game.outcome.winner is C and game.outcome.rule == "11.b"
    assert game.legal_actions() == [] and game.turn.number == 2


# =========================================================================== 12 (= S-12)
@pytest.mark.rule("12")
@pytest.mark.rule("S-12")
@pytest.mark.parametrize("options", ["novice-union", ["H-1", "H-2", "S-12"]])
def test_novice_union_confederate_checks_only_after_union_halves(options):
    game = make_game([("confederate", "MF", "parkersburg")], control=C30_U30, options=options)
    to_half_end(game)
    march(game, "parkersburg", rail("C-MF-01", "parkersburg", "chillicothe"))
    to_half_end(game)
    assert (game.army_max("union"), game.army_max("confederate")) == (30, 31)
    assert not game.is_over and game.turn.number == 3 and game.phasing is U
    to_half_end(game)
    assert game.is_over and game.outcome.winner is C and game.outcome.rule == "11.b"
    assert game.outcome.turn == 3 and game.phasing is U


@pytest.mark.rule("12")
@pytest.mark.rule("S-12")
def test_novice_union_still_loses_washington_at_a_union_update():
    game = make_game([], control={"confederate": ["washington"]}, options="novice-union")
    to_half_end(game)
    assert game.is_over and game.outcome.winner is C and game.outcome.turn == 2


@pytest.mark.rule("12")
@pytest.mark.rule("S-12")
@pytest.mark.rule("11.b")
def test_novice_union_checks_do_not_apply_without_the_option():
    game = make_game([("confederate", "MF", "parkersburg")], control=C30_U30, options=["H-1", "H-2"])
    to_half_end(game)
    assert not game.is_over
    march(game, "parkersburg", rail("C-MF-01", "parkersburg", "chillicothe"))
    to_half_end(game)
    assert (game.army_max("union"), game.army_max("confederate")) == (30, 31)
    assert game.is_over and game.outcome.winner is C and game.outcome.rule == "11.b"
    assert game.outcome.turn == 2 and game.phasing is C      # at the Confederate update


# =========================================================================== 13 (= S-13)
@pytest.mark.rule("13")
@pytest.mark.rule("S-13")
def test_short_game_ends_after_turn_10_union_by_five():
    game = ahd.new_game("short", dice="manual", seed=0)
    pass_until(game, lambda g: g.turn.number == 10, limit=2000)
    assert not game.is_over and game.turn == ahd.Turn(10, "Jun", 1862)
    to_half_end(game)
    assert not game.is_over
    to_half_end(game)
    assert game.is_over and game.outcome.turn == 10
    assert (game.army_max("union"), game.army_max("confederate")) == (34, 29)   # exactly +5
    assert game.outcome.winner is U and game.outcome.rule == "13"


@pytest.mark.rule("13")
@pytest.mark.rule("S-13")
def test_short_game_union_short_of_five_loses():
    game = make_game([], turn=10, last_turn=10, end="short", control={"confederate": ["chillicothe"]})
    assert (game.army_max("union"), game.army_max("confederate")) == (34, 30)
    pass_until(game, lambda g: g.is_over)
    assert game.outcome.winner is C and game.outcome.rule == "13" and game.outcome.turn == 10


@pytest.mark.rule("13")
@pytest.mark.rule("O-3.4")
def test_short_game_margin_ignores_increased_union_forces():
    game = make_game([], turn=10, last_turn=10, end="short", control={"confederate": ["canton"]},
                     options=["H-1", "H-2", "O-3.4"])
    assert (game.army_max("union"), game.army_max("confederate")) == (33, 29)
    pass_until(game, lambda g: g.is_over)
    assert game.outcome.winner is C and game.outcome.rule == "13"


@pytest.mark.rule("13")
@pytest.mark.rule("S-13")
def test_short_game_applies_the_normal_victory_conditions():
    game = make_game([], turn=3, last_turn=10, end="short", control=C31_U30)
    to_half_end(game)
    assert game.is_over and game.outcome.rule == "11.b" and game.outcome.turn == 3
    campaign = make_game([], turn=10, control={"confederate": ["chillicothe"]})
    pass_until(campaign, lambda g: g.turn.number == 11)
    assert not campaign.is_over                                 # only the short game ends at turn 10
