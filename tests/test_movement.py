"""Movement, rule section 4 of ahd-rules.md: 4.a–4.g, 4.1, 4.2.1–4.2.6, with the worked examples E-1 and E-2.

Positions are built with ``make_game`` (a game at the Union Movement of ``turn``, which is the position's
first turn: each side gets ``marches`` marches without a roll). Dice are manual throughout.
"""
from __future__ import annotations

import re

import pytest

import ahd
from ahd.core.sides import CHANCE, Side

from conftest import (assert_refused, assert_refused_as_one_of, ids_at, make_game, march, pass_until,
                      to_confederate_movement)

U, C = Side.UNION, Side.CONFEDERATE


# --------------------------------------------------------------------------- helpers
def to_union_march_roll(game: ahd.Game) -> None:
    """From the position's first turn (no roll) to the next turn's Union march roll."""
    pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is U)
    assert game.current_player == CHANCE


def to_union_movement_of_next_turn(game: ahd.Game, roll: int) -> None:
    to_union_march_roll(game)
    game.apply(ahd.Roll(roll))
    assert game.decision == "movement" and game.phasing is U


def shot_value(game: ahd.Game) -> int:
    """The 'hits on N or less' of the pending shot (5.1.b)."""
    assert game.current_player == CHANCE and game.decision == "shot", game.decision
    match = re.search(r"hits on (-?\d+) or less", game.pending_roll)
    assert match, game.pending_roll
    return int(match.group(1))


def open_fire(game: ahd.Game) -> None:
    """Skip retreat/reinforcement options of the current firing moment and auto-declare targets."""
    if game.decision == "battle_options":
        game.apply(ahd.OpenFire())
    if game.decision == "targets":
        game.apply(ahd.FireAuto())


def move(unit, *path_and_lines):
    """move("U-MF-01", "a", "river", "b", "river", "c") -> Move(unit, (a, b, c), (river, river))."""
    path = path_and_lines[0::2]
    lines = path_and_lines[1::2]
    return ahd.Move(unit, tuple(path), tuple(lines))


# =========================================================================== 4.a march roll
@pytest.mark.rule("4.a")
def test_union_march_roll_gives_marches_one_counts_as_two():
    for natural, marches in ((1, 2), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6)):
        game = make_game([("union", "MF", "indianapolis"), ("confederate", "MF", "new_orleans")], turn=2)
        # the position's first turn (turn 2) is not rolled; the next turn (3) is
        assert game.decision == "movement" and game.march_roll is None
        to_union_march_roll(game)
        assert game.turn.number == 3
        assert "march roll (4.a)" in game.pending_roll
        game.apply(ahd.Roll(natural))
        assert game.march_roll == natural
        assert game.marches_left == marches, f"natural {natural}"
        assert game.decision == "movement"


@pytest.mark.rule("4.a")
def test_confederate_march_roll_of_one_counts_as_two():
    game = make_game([("union", "MF", "indianapolis"), ("confederate", "MF", "new_orleans")], turn=2)
    to_union_movement_of_next_turn(game, 4)
    assert game.marches_left == 4
    pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is C)
    assert game.turn.number == 3
    game.apply(ahd.Roll(1))
    assert game.march_roll == 1 and game.marches_left == 2
    assert game.decision == "movement" and game.phasing is C


@pytest.mark.rule("4.a")
def test_roll_of_one_allows_exactly_two_marches_then_no_third():
    game = make_game([("union", "MF", "indianapolis"), ("confederate", "MF", "new_orleans")], turn=2)
    to_union_movement_of_next_turn(game, 1)
    assert game.marches_left == 2
    march(game, "indianapolis", move("U-MF-01", "indianapolis", "rail", "bloomington_in"))
    assert game.marches_left == 1 and game.decision == "movement"
    march(game, "bloomington_in", move("U-MF-01", "bloomington_in", "rail", "evansville"))
    # two marches made: the Movement segment is over and cannot be reopened (no third march)
    assert game.marches_left == 0
    assert game.phase != "movement"
    assert ids_at(game, "evansville") == ["U-MF-01"]
    # the engine cites the sequence of play (3.a) for a march offered outside the Movement segment
    assert_refused(game, ahd.BeginMarch("evansville"), "3.a")


@pytest.mark.rule("4.a")
def test_unused_marches_lapse_at_end_of_movement():
    game = make_game([("union", "MF", "indianapolis", 2), ("confederate", "MF", "new_orleans")], turn=2)
    to_union_movement_of_next_turn(game, 5)
    march(game, "indianapolis", move("U-MF-01", "indianapolis", "rail", "bloomington_in"))
    assert game.marches_left == 4
    game.apply(ahd.EndMovement())
    assert any("4 unused marches lapse" in str(e) for e in game.log)
    assert game.marches_left == 0 and game.phase != "movement"
    assert_refused(game, ahd.BeginMarch("indianapolis"), "3.a")
    assert ids_at(game, "indianapolis") == ["U-MF-02"]


@pytest.mark.rule("4.a")
def test_no_roll_on_the_positions_first_turn_and_no_impossible_die():
    game = make_game([("union", "MF", "indianapolis"), ("confederate", "MF", "new_orleans")], turn=2, marches=3)
    assert game.decision == "movement" and game.marches_left == 3 and game.march_roll is None
    assert_refused(game, ahd.Roll(4), "0.3")  # no die is pending on the first turn (S-0)
    to_union_march_roll(game)
    assert_refused(game, ahd.Roll(0), "0.3")
    assert_refused(game, ahd.Roll(7), "0.3")


# =========================================================================== E-1 (4.b, 4.c, 4.d, 4.e)
def e1_game(louisville_union: bool = True) -> ahd.Game:
    control = {"union": ["louisville"]} if louisville_union else None
    game = make_game([("union", "MF", "evansville", 3)], control=control, turn=2, marches=2)
    assert game.controller("evansville") is U and game.controller("bloomington_in") is U
    assert game.controller("indianapolis") is U
    assert game.controller("louisville") is (U if louisville_union else None)
    assert not game.units_in("paducah") and not game.units_in("bloomington_in")
    return game


E1_MF1 = move("U-MF-01", "evansville", "river", "paducah", "river", "cairo")
E1_MF2 = move("U-MF-02", "evansville", "rail", "bloomington_in", "rail", "indianapolis")
E1_MF3 = move("U-MF-03", "evansville", "rail", "bloomington_in", "rail", "louisville")


@pytest.mark.rule("4.b")
@pytest.mark.rule("4.c")
@pytest.mark.rule("4.d")
@pytest.mark.rule("4.e")
def test_e1_evansville_one_march_three_destinations():
    game = e1_game()
    assert game.board.is_downstream("evansville", "paducah") and game.board.is_downstream("paducah", "cairo")
    assert game.marches_left == 2
    game.apply(ahd.BeginMarch("evansville"))
    for order in (E1_MF1, E1_MF2, E1_MF3):
        assert game.why_not(order) is None
        game.apply(order)
    # every unit of the origin has its order: the march ends by itself
    assert game.decision == "movement"
    assert game.marches_left == 1                      # 1 march, whatever the number of units
    assert [game.unit(f"U-MF-0{i}").marches for i in (1, 2, 3)] == [1, 1, 1]
    assert ids_at(game, "cairo") == ["U-MF-01"]
    assert ids_at(game, "indianapolis") == ["U-MF-02"]
    assert ids_at(game, "louisville") == ["U-MF-03"]
    assert ids_at(game, "evansville") == []


@pytest.mark.rule("4.d")
def test_e1_louisville_neutral_rejects_two_rail_links_but_one_link_is_legal():
    game = e1_game(louisville_union=False)
    game.apply(ahd.BeginMarch("evansville"))
    game.apply(E1_MF1)
    game.apply(E1_MF2)
    assert_refused(game, E1_MF3, "4.d")
    short = move("U-MF-03", "evansville", "rail", "bloomington_in")
    assert game.why_not(short) is None
    game.apply(short)
    assert game.marches_left == 1
    assert ids_at(game, "bloomington_in") == ["U-MF-03"]
    assert ids_at(game, "cairo") == ["U-MF-01"] and ids_at(game, "indianapolis") == ["U-MF-02"]


@pytest.mark.rule("4.e")
def test_e1_river_plus_rail_path_rejected():
    game = e1_game()  # Louisville Union: every box of the path is friendly, only the line mix is wrong
    game.apply(ahd.BeginMarch("evansville"))
    assert_refused(game, move("U-MF-03", "evansville", "river", "louisville", "rail", "bloomington_in"), "4.e")
    assert_refused(game, move("U-MF-03", "evansville", "river", "paducah", "rail", "humboldt"), "4.e")


# =========================================================================== E-2 (4.b, 4.c, 4.e, 4.f)
A, K, B = "C-MF-01", "C-CV-01", "C-MF-02"


def e2_game() -> ahd.Game:
    game = make_game([("confederate", "MF", "shreveport"), ("confederate", "CV", "shreveport"),
                      ("confederate", "MF", "vicksburg")], turn=2, marches=4)
    to_confederate_movement(game)
    assert game.marches_left == 4
    assert ids_at(game, "shreveport") == [K, A] and ids_at(game, "vicksburg") == [B]
    assert game.controller("monroe") is C and game.controller("vicksburg") is C
    return game


def e2_march_1(game):
    march(game, "shreveport",
          move(K, "shreveport", "road", "monroe", "rail", "vicksburg"),
          move(A, "shreveport", "road", "monroe"))


def e2_march_2(game):
    march(game, "monroe", move(A, "monroe", "rail", "vicksburg"))


E2_B = move(B, "vicksburg", "river", "natchez", "river", "alexandria")
E2_K = move(K, "vicksburg", "rail", "jackson", "rail", "mccomb")


@pytest.mark.rule("4.b")
@pytest.mark.rule("4.c")
@pytest.mark.rule("4.e")
@pytest.mark.rule("4.f")
def test_e2_shreveport_vicksburg_three_marches():
    game = e2_game()
    e2_march_1(game)
    assert game.marches_left == 3
    assert ids_at(game, "vicksburg") == [K, B] and ids_at(game, "monroe") == [A]
    e2_march_2(game)
    assert game.marches_left == 2
    game.apply(ahd.BeginMarch("vicksburg"))
    game.apply(E2_B)
    game.apply(E2_K)
    # A (two marches) cannot be ordered, so the march ends by itself
    assert game.decision == "movement"
    assert game.marches_left == 1                     # 3 marches made
    assert (game.unit(A).marches, game.unit(K).marches, game.unit(B).marches) == (2, 2, 1)
    assert ids_at(game, "vicksburg") == [A]
    assert ids_at(game, "alexandria") == [B]
    assert ids_at(game, "mccomb") == [K]


@pytest.mark.rule("4.f")
def test_e2_a_in_march_3_rejected():
    game = e2_game()
    e2_march_1(game)
    e2_march_2(game)
    game.apply(ahd.BeginMarch("vicksburg"))
    assert_refused(game, move(A, "vicksburg", "rail", "jackson"), "4.f")
    assert_refused(game, ahd.Entrench(A), "4.f")


@pytest.mark.rule("4.c")
@pytest.mark.rule("4.e")
def test_e2_a_shreveport_monroe_vicksburg_in_march_1_rejected():
    game = e2_game()
    game.apply(ahd.BeginMarch("shreveport"))
    # the spec names "4.c/4.e" (road + rail for infantry breaks both); accept whichever the engine cites
    assert_refused_as_one_of(game, move(A, "shreveport", "road", "monroe", "rail", "vicksburg"), ("4.c", "4.e"))


@pytest.mark.rule("4.f")
def test_e2_k_in_a_fourth_march_rejected():
    game = e2_game()
    e2_march_1(game)
    e2_march_2(game)
    march(game, "vicksburg", E2_B, E2_K)
    assert game.marches_left == 1 and game.decision == "movement"
    assert ids_at(game, "mccomb") == [K]
    assert_refused(game, ahd.BeginMarch("mccomb"), "4.f")
    # K's box offers no march, but B (one march) still may
    assert ahd.BeginMarch("mccomb") not in game.legal_actions()
    assert ahd.BeginMarch("alexandria") in game.legal_actions()


# =========================================================================== 4.b marches
@pytest.mark.rule("4.b")
def test_march_orders_units_of_the_origin_only():
    game = make_game([("union", "MF", "indianapolis"), ("union", "MF", "fort_wayne"),
                      ("confederate", "MF", "lexington")], turn=2)
    game.apply(ahd.BeginMarch("indianapolis"))
    assert game.march_origin == "indianapolis"
    # a unit in another box (own or enemy) is not part of this march
    assert_refused(game, move("U-MF-02", "fort_wayne", "rail", "dayton"), "4.b")
    assert_refused(game, move("C-MF-01", "lexington", "rail", "cincinnati"), "4.b")
    # a march orders at least one unit
    assert_refused(game, ahd.EndMarch(), "4.b")
    game.apply(move("U-MF-01", "indianapolis", "rail", "dayton"))
    assert game.marches_left == 1


@pytest.mark.rule("4.b")
def test_one_order_per_unit_per_march_and_origin_must_hold_own_units():
    game = make_game([("union", "MF", "indianapolis", 2), ("confederate", "MF", "lexington")], turn=2)
    assert_refused(game, ahd.BeginMarch("dayton"), "4.b")      # no Union units there
    assert_refused(game, ahd.BeginMarch("lexington"), "4.b")   # enemy units only
    game.apply(ahd.BeginMarch("indianapolis"))
    game.apply(ahd.Entrench("U-MF-01"))
    assert_refused(game, move("U-MF-01", "indianapolis", "rail", "dayton"), "4.b")
    assert_refused(game, ahd.Entrench("U-MF-01"), "4.b")


# =========================================================================== 4.c distance (T-3)
T3_ALLOWED = [
    (("union", "MF", "chillicothe"), move("U-MF-01", "chillicothe", "road", "columbus_oh")),       # infantry road 1
    (("union", "MF", "chillicothe"), move("U-MF-01", "chillicothe", "rail", "parkersburg")),       # infantry rail 1
    (("union", "MF", "evansville"), move("U-MF-01", "evansville", "river", "paducah", "river", "cairo")),  # river 2
    (("union", "MF", "evansville"),                                                  # friendly rail 2
     move("U-MF-01", "evansville", "rail", "bloomington_in", "rail", "indianapolis")),
    (("union", "CV", "chillicothe"), move("U-CV-01", "chillicothe", "road", "charleston_wv", "road", "franklin")),
    (("union", "CV", "cincinnati"), move("U-CV-01", "cincinnati", "rail", "lexington", "road", "london")),
    (("union", "CV", "evansville"), move("U-CV-01", "evansville", "river", "paducah", "river", "cairo")),
]
T3_TOO_LONG = [
    (("union", "MF", "chillicothe"), move("U-MF-01", "chillicothe", "road", "charleston_wv", "road", "franklin")),
    (("union", "MF", "evansville"),
     move("U-MF-01", "evansville", "river", "paducah", "river", "cairo", "river", "island_no_10")),
    (("union", "MF", "evansville"),
     move("U-MF-01", "evansville", "rail", "bloomington_in", "rail", "indianapolis", "rail", "fort_wayne")),
    (("union", "CV", "cincinnati"),
     move("U-CV-01", "cincinnati", "rail", "bloomington_in", "rail", "indianapolis", "rail", "fort_wayne")),
    (("union", "CV", "evansville"),
     move("U-CV-01", "evansville", "river", "paducah", "river", "cairo", "river", "island_no_10")),
]


@pytest.mark.rule("4.c")
def test_t3_allowed_distances():
    for unit, order in T3_ALLOWED:
        game = make_game([unit], turn=2)
        game.apply(ahd.BeginMarch(order.path[0]))
        assert game.why_not(order) is None, str(order)
        assert order in game.legal_actions(), str(order)
        game.apply(order)
        assert ids_at(game, order.path[-1]) == [order.unit]
        assert game.unit(order.unit).marches == 1


@pytest.mark.rule("4.c")
def test_t3_too_long_paths_rejected():
    # infantry road 2, infantry river 3, infantry friendly rail 3, cavalry rail 3, cavalry river 3
    for unit, order in T3_TOO_LONG:
        game = make_game([unit], turn=2)
        game.apply(ahd.BeginMarch(order.path[0]))
        assert_refused(game, order, "4.c")


# =========================================================================== 4.d friendly rail
@pytest.mark.rule("4.d")
def test_one_non_friendly_rail_link_is_always_usable_and_cavalry_ignores_friendliness():
    game = make_game([("union", "MF", "bloomington_in"), ("union", "CV", "cincinnati")], turn=2)
    assert game.controller("louisville") is None and game.controller("lexington") is None
    march(game, "bloomington_in", move("U-MF-01", "bloomington_in", "rail", "louisville"))
    cav = move("U-CV-01", "cincinnati", "rail", "lexington", "rail", "louisville")
    game.apply(ahd.BeginMarch("cincinnati"))
    assert game.why_not(cav) is None
    game.apply(cav)
    assert ids_at(game, "louisville") == ["U-CV-01", "U-MF-01"]


@pytest.mark.rule("4.d")
def test_two_rail_links_need_a_friendly_middle_box_and_a_box_entered_this_half_is_not_friendly():
    game = make_game([("union", "MF", "cincinnati", 2)], control={"union": ["louisville"]}, turn=2, marches=3)
    game.apply(ahd.BeginMarch("cincinnati"))
    # middle box Lexington is neutral
    assert_refused(game, move("U-MF-01", "cincinnati", "rail", "lexington", "rail", "louisville"), "4.d")
    game.apply(move("U-MF-01", "cincinnati", "rail", "lexington"))
    game.apply(ahd.EndMarch())
    assert game.controller("lexington") is None   # entered, but control changes only at 9.a
    # from Lexington (origin not friendly) two rail links to Union boxes are refused
    game.apply(ahd.BeginMarch("lexington"))
    assert_refused(game, move("U-MF-01", "lexington", "rail", "cincinnati", "rail", "dayton"), "4.d")
    assert game.why_not(move("U-MF-01", "lexington", "rail", "cincinnati")) is None


# =========================================================================== 4.e line types
@pytest.mark.rule("4.e")
def test_cavalry_mixes_road_and_rail():
    game = make_game([("confederate", "CV", "shreveport")], turn=2)
    to_confederate_movement(game)
    order = move("C-CV-01", "shreveport", "road", "monroe", "rail", "vicksburg")
    game.apply(ahd.BeginMarch("shreveport"))
    assert order in game.legal_actions()
    game.apply(order)
    assert ids_at(game, "vicksburg") == ["C-CV-01"]


@pytest.mark.rule("4.e")
def test_infantry_one_line_type_and_cavalry_river_paths_only_river():
    game = make_game([("union", "MF", "chillicothe"), ("union", "CV", "cincinnati")],
                     control={"union": ["louisville"]}, turn=2)
    game.apply(ahd.BeginMarch("chillicothe"))
    assert_refused(game, move("U-MF-01", "chillicothe", "road", "columbus_oh", "rail", "canton"), "4.e")
    game.undo()  # back to the movement decision
    assert game.decision == "movement"
    game.apply(ahd.BeginMarch("cincinnati"))
    assert_refused(game, move("U-CV-01", "cincinnati", "river", "louisville", "rail", "bloomington_in"), "4.e")
    # the same two boxes by river only are fine for cavalry
    assert game.why_not(move("U-CV-01", "cincinnati", "river", "louisville", "river", "evansville")) is None


# =========================================================================== 4.f two-march limit
@pytest.mark.rule("4.f")
def test_unit_takes_part_in_two_marches_but_not_a_third():
    game = make_game([("union", "MF", "indianapolis", 2)], turn=2, marches=4)
    march(game, "indianapolis", move("U-MF-01", "indianapolis", "rail", "bloomington_in"))
    march(game, "bloomington_in", move("U-MF-01", "bloomington_in", "rail", "evansville"))
    assert game.unit("U-MF-01").marches == 2
    march(game, "indianapolis", move("U-MF-02", "indianapolis", "rail", "bloomington_in", "rail", "evansville"))
    assert game.marches_left == 1
    game.apply(ahd.BeginMarch("evansville"))        # U-MF-02 may still march from there
    assert_refused(game, move("U-MF-01", "evansville", "rail", "bloomington_in"), "4.f")
    assert_refused(game, ahd.Entrench("U-MF-01"), "4.f")
    game.apply(move("U-MF-02", "evansville", "rail", "bloomington_in"))
    assert game.unit("U-MF-02").marches == 2 and ids_at(game, "bloomington_in") == ["U-MF-02"]


@pytest.mark.rule("4.f")
def test_entrenching_counts_as_taking_part_in_a_march():
    game = make_game([("union", "MF", "indianapolis", 2)], turn=2, marches=3)
    march(game, "indianapolis", ahd.Entrench("U-MF-01"), move("U-MF-02", "indianapolis", "rail", "dayton"))
    march(game, "dayton", move("U-MF-02", "dayton", "rail", "indianapolis"))
    # both units are in Indianapolis again; U-MF-01 has one march, U-MF-02 two
    game.apply(ahd.BeginMarch("indianapolis"))
    assert_refused(game, move("U-MF-02", "indianapolis", "rail", "fort_wayne"), "4.f")
    game.apply(move("U-MF-01", "indianapolis", "rail", "fort_wayne"))
    assert game.unit("U-MF-01").marches == 2


# =========================================================================== 4.g enemy units
@pytest.mark.rule("4.g")
def test_path_may_end_in_enemy_box_unit_stops_and_fights():
    # U-MF-01 already shares Lexington with the enemy (so a march from there can be opened)
    game = make_game([("union", "MF", "lexington"), ("union", "MF", "cincinnati"),
                      ("confederate", "MF", "lexington")], turn=2, marches=2)
    order = move("U-MF-02", "cincinnati", "rail", "lexington")
    march(game, "cincinnati", order)
    assert ids_at(game, "lexington") == ["C-MF-01", "U-MF-01", "U-MF-02"]
    assert any("stops: enemy units are there (4.g)" in str(e) for e in game.log)
    game.apply(ahd.BeginMarch("lexington"))
    assert_refused(game, move("U-MF-02", "lexington", "rail", "cincinnati"), "4.g")
    assert_refused(game, ahd.Entrench("U-MF-02"), "4.g")
    game.apply(move("U-MF-01", "lexington", "rail", "cincinnati"))
    # end of Movement: the box with both sides holds a battle (Union attacks)
    assert game.phase == "combat"
    assert game.battle is not None and game.battle.box == "lexington"
    assert game.battle.attacker is U and "U-MF-02" in game.battle.participants[U]


@pytest.mark.rule("4.g")
def test_infantry_may_not_pass_a_box_holding_enemy_units():
    game = make_game([("union", "MF", "cairo"), ("confederate", "MF", "paducah")], turn=2)
    game.apply(ahd.BeginMarch("cairo"))
    # 2 river links are within T-3, but Paducah holds enemy units (and the move is upstream: no 4.2.2 jump)
    assert not game.board.is_downstream("cairo", "paducah")
    assert_refused(game, move("U-MF-01", "cairo", "river", "paducah", "river", "evansville"), "4.g")
    # ending in Paducah is allowed
    assert game.why_not(move("U-MF-01", "cairo", "river", "paducah")) is None


@pytest.mark.rule("4.g")
def test_passing_or_entering_empty_boxes_never_changes_control_before_the_update():
    game = make_game([("union", "MF", "evansville"), ("union", "MF", "cairo"),
                      ("confederate", "MF", "new_orleans")], turn=2)
    assert game.controller("paducah") is None and game.controller("humboldt") is C
    march(game, "evansville", move("U-MF-01", "evansville", "river", "paducah", "river", "cairo"))
    march(game, "cairo", move("U-MF-02", "cairo", "rail", "humboldt"))
    assert game.phase != "movement"
    # passed (Paducah) and entered (Humboldt) boxes keep their controller during the half-turn
    assert game.controller("paducah") is None and game.controller("humboldt") is C
    to_confederate_movement(game)
    # the update at the end of the Union half (9.a) gives the occupied box; the passed box is unchanged
    assert game.controller("humboldt") is U
    assert game.controller("paducah") is None


# =========================================================================== 4.1 first turn (1861)
@pytest.mark.rule("4.1")
def test_1861_turn_1_two_marches_each_without_roll():
    game = ahd.new_game("1861", dice="manual")
    assert game.turn.number == 1 and game.phasing is U
    assert game.decision == "movement" and game.current_player is U
    assert game.march_roll is None and game.marches_left == 2
    march(game, "chicago", move(ids_at(game, "chicago")[0], "chicago", *_first_step(game, "chicago")))
    assert game.marches_left == 1 and game.decision == "movement"
    march(game, "fort_wayne", move(ids_at(game, "fort_wayne")[0], "fort_wayne", *_first_step(game, "fort_wayne")))
    assert game.marches_left == 0 and game.phase != "movement"
    to_confederate_movement(game)
    assert game.turn.number == 1
    assert game.march_roll is None and game.marches_left == 2 and game.current_player is C
    march(game, "atlanta", move(ids_at(game, "atlanta")[0], "atlanta", *_first_step(game, "atlanta")))
    march(game, "mobile", move(ids_at(game, "mobile")[0], "mobile", *_first_step(game, "mobile")))
    assert game.marches_left == 0 and game.phase != "movement"
    pass_until(game, lambda g: g.turn.number == 2)
    # turn 2 (August 1861) rolls for marches
    assert (game.turn.months, game.turn.year) == ("Aug", 1861)
    assert game.decision == "march_roll" and game.phasing is U


def _first_step(game, box):
    """(kind, neighbour) of a one-link move from ``box`` to an empty own-side box (any is fine)."""
    side = game.units_in(box)[0].side
    for step in sorted(game.board.steps(box), key=lambda s: (s.to, s.kind)):
        if game.controller(step.to) is side and not game.units_in(step.to):
            return step.kind, step.to
    raise AssertionError(f"no free neighbour of {box}")


@pytest.mark.rule("4.1")
def test_1861_turn_1_no_roll_no_invasion_no_third_march():
    game = ahd.new_game("1861", dice="manual")
    assert_refused(game, ahd.Roll(6), "0.3")
    assert not any(isinstance(a, ahd.Invade) for a in game.legal_actions())
    # no roll, so no natural 6: the spec ties this to 4.1 and 4.2.4; accept either citation
    assert_refused_as_one_of(game, ahd.Invade("U-MF-01", "norfolk"), ("4.1", "4.2.4"))
    march(game, "chicago", move(ids_at(game, "chicago")[0], "chicago", *_first_step(game, "chicago")))
    march(game, "fort_wayne", move(ids_at(game, "fort_wayne")[0], "fort_wayne", *_first_step(game, "fort_wayne")))
    # two marches used: Movement is over for the Union, a third march is refused
    assert game.phase != "movement" and game.phasing is U
    assert_refused(game, ahd.BeginMarch("washington"), "3.a")
    assert ids_at(game, "washington") == ["U-MF-01", "U-MF-02", "U-MF-03"]


# =========================================================================== 4.2.1 cavalry jump
JUMP = move("U-CV-01", "cincinnati", "rail", "lexington", "road", "london")


@pytest.mark.rule("4.2.1")
def test_cavalry_jumps_one_box_with_enemy_infantry():
    game = make_game([("union", "CV", "cincinnati"), ("confederate", "MF", "lexington")], turn=2)
    game.apply(ahd.BeginMarch("cincinnati"))
    assert JUMP in game.legal_actions()
    game.apply(JUMP)
    assert ids_at(game, "london") == ["U-CV-01"]
    assert game.unit("U-CV-01").jumped and not game.unit("U-CV-01").stopped
    assert ids_at(game, "lexington") == ["C-MF-01"]


@pytest.mark.rule("4.2.1")
def test_cavalry_jump_a_at_most_one_per_turn():
    game = make_game([("union", "CV", "cincinnati"), ("confederate", "MF", "lexington")],
                     control={"union": ["louisville"]}, turn=2)
    march(game, "cincinnati", JUMP)
    game.apply(ahd.BeginMarch("london"))
    second = move("U-CV-01", "london", "road", "lexington", "rail", "louisville")
    assert_refused(game, second, "4.2.1")
    # without the jump the unit may still move (1 link, into the enemy box)
    assert game.why_not(move("U-CV-01", "london", "road", "lexington")) is None


@pytest.mark.rule("4.2.1")
def test_cavalry_jump_b_not_over_enemy_cavalry():
    game = make_game([("union", "CV", "cincinnati"), ("confederate", "MF", "lexington"),
                      ("confederate", "CV", "lexington")], turn=2)
    game.apply(ahd.BeginMarch("cincinnati"))
    assert_refused(game, JUMP, "4.2.1")


@pytest.mark.rule("4.2.1")
def test_cavalry_jump_c_must_end_in_a_box_without_enemy_units():
    game = make_game([("union", "CV", "cincinnati"), ("confederate", "MF", "lexington"),
                      ("confederate", "MF", "london")], turn=2)
    game.apply(ahd.BeginMarch("cincinnati"))
    assert_refused(game, JUMP, "4.2.1")


@pytest.mark.rule("4.2.1")
def test_cavalry_jump_d_no_river_link_in_the_path():
    # upstream river path, so the Union downstream jump (4.2.2) does not apply either
    game = make_game([("union", "CV", "cairo"), ("confederate", "MF", "paducah")], turn=2)
    game.apply(ahd.BeginMarch("cairo"))
    assert_refused(game, move("U-CV-01", "cairo", "river", "paducah", "river", "evansville"), "4.2.1")


@pytest.mark.rule("4.2.1")
def test_confederate_cavalry_jumps_too():
    game = make_game([("confederate", "CV", "lexington"), ("union", "MF", "cincinnati")], turn=2)
    to_confederate_movement(game)
    game.apply(ahd.BeginMarch("lexington"))
    order = move("C-CV-01", "lexington", "rail", "cincinnati", "rail", "dayton")
    assert game.why_not(order) is None
    game.apply(order)
    assert ids_at(game, "dayton") == ["C-CV-01"]


# =========================================================================== 4.2.2 Union river jump
RIVER_JUMP = move("U-MF-01", "evansville", "river", "paducah", "river", "cairo")


@pytest.mark.rule("4.2.2")
def test_union_infantry_jumps_downstream_even_over_enemy_cavalry():
    game = make_game([("union", "MF", "evansville"), ("confederate", "CV", "paducah")], turn=2)
    game.apply(ahd.BeginMarch("evansville"))
    assert RIVER_JUMP in game.legal_actions()
    game.apply(RIVER_JUMP)
    assert ids_at(game, "cairo") == ["U-MF-01"] and ids_at(game, "paducah") == ["C-CV-01"]
    assert game.unit("U-MF-01").jumped


@pytest.mark.rule("4.2.2")
def test_union_cavalry_downstream_jump_may_use_rivers():
    game = make_game([("union", "CV", "evansville"), ("confederate", "MF", "paducah")], turn=2)
    game.apply(ahd.BeginMarch("evansville"))
    order = move("U-CV-01", "evansville", "river", "paducah", "river", "cairo")
    assert game.why_not(order) is None
    game.apply(order)
    assert ids_at(game, "cairo") == ["U-CV-01"]


@pytest.mark.rule("4.2.2")
def test_union_river_jump_must_end_in_a_box_without_enemy_units():
    game = make_game([("union", "MF", "evansville"), ("confederate", "MF", "paducah"),
                      ("confederate", "MF", "cairo")], turn=2)
    game.apply(ahd.BeginMarch("evansville"))
    assert_refused(game, RIVER_JUMP, "4.2.2")


@pytest.mark.rule("4.2.2")
def test_union_river_jump_at_most_once_per_turn():
    game = make_game([("union", "MF", "evansville"), ("confederate", "MF", "paducah"),
                      ("confederate", "MF", "island_no_10")], turn=2)
    march(game, "evansville", RIVER_JUMP)
    game.apply(ahd.BeginMarch("cairo"))
    second = move("U-MF-01", "cairo", "river", "island_no_10", "river", "memphis")
    assert game.board.is_downstream("cairo", "island_no_10") and game.board.is_downstream("island_no_10", "memphis")
    assert_refused(game, second, "4.2.2")


@pytest.mark.rule("4.2.2")
def test_no_upstream_jump():
    game = make_game([("union", "MF", "cairo"), ("confederate", "CV", "paducah")], turn=2)
    game.apply(ahd.BeginMarch("cairo"))
    # an infantry path past enemy units upstream: forbidden by 4.2.2 ("no upstream jumps"), which
    # leaves the plain 4.g ban on passing enemy units; accept either citation
    assert_refused_as_one_of(game, move("U-MF-01", "cairo", "river", "paducah", "river", "evansville"),
                             ("4.2.2", "4.g"))


@pytest.mark.rule("4.2.2")
def test_never_a_river_jump_for_confederates():
    game = make_game([("confederate", "MF", "island_no_10"), ("union", "MF", "memphis")], turn=2)
    to_confederate_movement(game)
    game.apply(ahd.BeginMarch("island_no_10"))
    path = move("C-MF-01", "island_no_10", "river", "memphis", "river", "arkansas_post")
    assert game.board.is_downstream("island_no_10", "memphis") and game.board.is_downstream("memphis", "arkansas_post")
    assert_refused_as_one_of(game, path, ("4.2.2", "4.g"))


# =========================================================================== 4.2.3 Union naval move
@pytest.mark.rule("4.2.3")
def test_naval_move_port_to_union_port_costs_one_march_per_unit():
    game = make_game([("union", "MF", "baltimore", 3), ("union", "MF", "new_york_city")], turn=2, marches=5)
    for unit, port in (("U-MF-01", "fort_monroe"), ("U-MF-02", "atlantic_city"), ("U-MF-03", "fort_monroe")):
        action = ahd.NavalMove(unit, port)
        assert action in game.legal_actions()
        game.apply(action)
    # three units from one box = three marches
    assert game.marches_left == 2
    assert ids_at(game, "fort_monroe") == ["U-MF-01", "U-MF-03"] and ids_at(game, "atlantic_city") == ["U-MF-02"]
    assert ids_at(game, "baltimore") == []
    assert game.unit("U-MF-01").marches == 2   # counts as its whole movement for the turn


@pytest.mark.rule("4.2.3")
def test_naval_move_refusals():
    game = make_game([("union", "MF", "baltimore", 2), ("union", "MF", "harrisburg"),
                      ("confederate", "MF", "mobile")], turn=2, marches=4)
    assert_refused(game, ahd.NavalMove("U-MF-03", "washington"), "4.2.3")    # Harrisburg is not a port
    assert_refused(game, ahd.NavalMove("U-MF-01", "norfolk"), "4.2.3")       # Confederate port
    assert_refused(game, ahd.NavalMove("U-MF-01", "richmond"), "4.2.3")      # not a port
    assert_refused(game, ahd.NavalMove("U-MF-01", "baltimore"), "4.2.3")     # not another port
    # a unit that moved by land this turn makes no naval move
    march(game, "harrisburg", move("U-MF-03", "harrisburg", "rail", "baltimore"))
    assert_refused(game, ahd.NavalMove("U-MF-03", "washington"), "4.2.3")
    # a unit that moved by sea makes no other movement
    game.apply(ahd.NavalMove("U-MF-01", "washington"))
    assert_refused(game, ahd.NavalMove("U-MF-01", "baltimore"), "4.2.3")
    march(game, "baltimore", move("U-MF-02", "baltimore", "rail", "washington"))
    assert game.marches_left == 1
    game.apply(ahd.BeginMarch("washington"))
    assert_refused(game, move("U-MF-01", "washington", "rail", "baltimore"), "4.2.3")


@pytest.mark.rule("4.2.3")
def test_confederates_make_no_naval_moves():
    game = make_game([("confederate", "MF", "mobile")], turn=2)
    to_confederate_movement(game)
    assert not any(isinstance(a, ahd.NavalMove) for a in game.legal_actions())
    assert_refused(game, ahd.NavalMove("C-MF-01", "new_orleans"), "4.2.3")


# =========================================================================== 4.2.4 naval invasion
def invasion_game(roll: int, units=(), control=None) -> ahd.Game:
    """Turn 3 Union Movement after a march roll of ``roll``; 2 MF in Washington, 1 MF in Baltimore."""
    game = make_game([("union", "MF", "washington", 2), ("union", "MF", "baltimore"),
                      ("confederate", "MF", "new_orleans"), *units], control=control, turn=2)
    to_union_movement_of_next_turn(game, roll)
    assert game.turn.number == 3 and game.march_roll == roll
    return game


@pytest.mark.rule("4.2.4")
def test_invasion_on_natural_6_empty_port_is_captured_only_at_end_of_half_turn():
    game = invasion_game(6)
    assert game.marches_left == 6
    assert ahd.Invade("U-MF-01", "charleston_sc") in game.legal_actions()
    game.apply(ahd.Invade("U-MF-01", "charleston_sc"))
    game.apply(ahd.Invade("U-MF-02", "charleston_sc"))   # the same port again: fine
    assert game.marches_left == 4                          # one march per unit
    assert ids_at(game, "charleston_sc") == ["U-MF-01", "U-MF-02"] and ids_at(game, "washington") == []
    assert game.controller("charleston_sc") is C           # occupied, not yet captured
    game.apply(ahd.EndMovement())
    assert game.controller("charleston_sc") is C
    to_confederate_movement(game)
    assert game.controller("charleston_sc") is U           # 9.a at the end of the Union half


@pytest.mark.rule("4.2.4")
def test_invasion_needs_a_natural_6():
    game = invasion_game(5)
    assert game.marches_left == 5
    assert not any(isinstance(a, ahd.Invade) for a in game.legal_actions())
    assert_refused(game, ahd.Invade("U-MF-01", "charleston_sc"), "4.2.4")


@pytest.mark.rule("4.2.4")
def test_no_invasion_on_the_positions_first_turn():
    game = make_game([("union", "MF", "washington")], turn=2, marches=6)
    assert game.march_roll is None and game.marches_left == 6   # six marches, but no die was rolled
    assert_refused(game, ahd.Invade("U-MF-01", "charleston_sc"), "4.2.4")


@pytest.mark.rule("4.2.4")
def test_invasion_only_by_units_that_began_the_turn_in_washington():
    game = invasion_game(6)
    # Baltimore is a Union port, but only Washington launches invasions
    assert_refused(game, ahd.Invade("U-MF-03", "charleston_sc"), "4.2.4")
    # moving into Washington this turn does not qualify either
    march(game, "baltimore", move("U-MF-03", "baltimore", "rail", "washington"))
    assert ids_at(game, "washington") == ["U-MF-01", "U-MF-02", "U-MF-03"]
    assert_refused(game, ahd.Invade("U-MF-03", "charleston_sc"), "4.2.4")
    assert game.why_not(ahd.Invade("U-MF-01", "charleston_sc")) is None


@pytest.mark.rule("4.2.4")
def test_one_destination_port_per_turn_and_never_a_union_port():
    game = invasion_game(6)
    assert_refused(game, ahd.Invade("U-MF-01", "new_york_city"), "4.2.4")   # Union-controlled
    assert_refused(game, ahd.Invade("U-MF-01", "richmond"), "4.2.4")        # not a port
    game.apply(ahd.Invade("U-MF-01", "wilmington"))
    assert_refused(game, ahd.Invade("U-MF-02", "charleston_sc"), "4.2.4")
    assert_refused(game, ahd.Invade("U-MF-01", "charleston_sc"), "4.2.4")   # no other movement for an invader
    assert game.why_not(ahd.Invade("U-MF-02", "wilmington")) is None


@pytest.mark.rule("4.2.4")
def test_invaders_make_no_other_movement_that_turn():
    # a Union unit reaches Norfolk by land first (Norfolk stays Confederate until 9.a), so a march can
    # be opened there after the invasion
    game = invasion_game(6, units=[("union", "MF", "petersburg")])
    march(game, "petersburg", move("U-MF-04", "petersburg", "rail", "norfolk"))
    assert game.controller("norfolk") is C
    game.apply(ahd.Invade("U-MF-01", "norfolk"))
    assert ids_at(game, "norfolk") == ["U-MF-01", "U-MF-04"] and game.marches_left == 4
    game.apply(ahd.BeginMarch("norfolk"))
    assert_refused(game, move("U-MF-01", "norfolk", "rail", "petersburg"), "4.2.4")
    game.apply(move("U-MF-04", "norfolk", "rail", "petersburg"))
    assert ids_at(game, "petersburg") == ["U-MF-04"]


@pytest.mark.rule("4.2.4")
def test_neutral_port_may_be_invaded():
    game = invasion_game(6, control={"neutral": ["norfolk"]})
    assert game.controller("norfolk") is None
    action = ahd.Invade("U-MF-01", "norfolk")
    assert action in game.legal_actions()
    game.apply(action)
    assert ids_at(game, "norfolk") == ["U-MF-01"] and game.marches_left == 5


@pytest.mark.rule("4.2.4")
def test_invading_an_occupied_port_is_a_battle_with_the_invaders_crossing():
    game = invasion_game(6, units=[("confederate", "MF", "charleston_sc")])
    assert not game.board.water_borders.get("charleston_sc")   # no blue side: only the sea makes it a crossing
    game.apply(ahd.Invade("U-MF-01", "charleston_sc"))
    game.apply(ahd.EndMovement())
    assert game.battle is not None and game.battle.box == "charleston_sc"
    assert game.battle.attacker is U
    expected = {1: (3, 2), 2: (3, 2), 3: (2, 2)}   # (defender MF at the crossing invader, invader MF)
    for rnd in (1, 2, 3):
        open_fire(game)
        assert game.battle.round == rnd and game.battle.firing is C
        assert shot_value(game) == expected[rnd][0], f"round {rnd} defender"
        game.apply(ahd.Roll(6))   # miss
        open_fire(game)
        assert game.battle.round == rnd and game.battle.firing is U
        assert shot_value(game) == expected[rnd][1], f"round {rnd} attacker"
        game.apply(ahd.Roll(6))


# =========================================================================== 4.2.5 entrenchment
@pytest.mark.rule("4.2.5")
def test_entrenching_in_a_recruiting_city_takes_one_march():
    # Indianapolis has a blue number, Evansville (printed Union) a red one: any number makes an RC
    for box in ("indianapolis", "evansville"):
        game = make_game([("union", "MF", box, 2)], turn=2, marches=2)
        assert game.board[box].is_recruiting_city and game.controller(box) is U
        neighbour = "bloomington_in"
        # one march entrenches one unit and moves another out
        march(game, box, ahd.Entrench("U-MF-01"), move("U-MF-02", box, "rail", neighbour))
        assert game.is_entrenched("U-MF-01") and game.unit("U-MF-01").marches == 1
        assert game.marches_left == 1
        # a unit joining an entrenched friend is not entrenched
        march(game, neighbour, move("U-MF-02", neighbour, "rail", box))
        assert not game.is_entrenched("U-MF-02") and game.is_entrenched("U-MF-01")


@pytest.mark.rule("4.2.5")
def test_entrenching_outside_a_recruiting_city_takes_two_marches_and_lasts():
    game = make_game([("union", "MF", "bloomington_in"), ("union", "MF", "indianapolis"),
                      ("confederate", "MF", "new_orleans")], turn=2, marches=3)
    assert not game.board["bloomington_in"].is_recruiting_city
    march(game, "bloomington_in", ahd.Entrench("U-MF-01"))
    assert not game.is_entrenched("U-MF-01")
    assert game.marches_left == 2 and game.unit("U-MF-01").marches == 1
    march(game, "bloomington_in", ahd.Entrench("U-MF-01"))
    assert game.is_entrenched("U-MF-01")
    assert game.marches_left == 1 and game.unit("U-MF-01").marches == 2   # allowance and 4.f both charged
    # the unit has used its two marches
    assert_refused(game, ahd.BeginMarch("bloomington_in"), "4.f")
    # entrenchment survives into the next turn
    to_union_movement_of_next_turn(game, 3)
    assert game.turn.number == 3 and game.is_entrenched("U-MF-01")


@pytest.mark.rule("4.2.5")
def test_unit_that_moved_cannot_entrench_outside_a_recruiting_city():
    game = make_game([("union", "MF", "indianapolis")], turn=2, marches=3)
    march(game, "indianapolis", move("U-MF-01", "indianapolis", "rail", "bloomington_in"))
    game.apply(ahd.BeginMarch("bloomington_in"))
    assert ahd.Entrench("U-MF-01") not in game.legal_actions()
    assert_refused(game, ahd.Entrench("U-MF-01"), "4.2.5")


@pytest.mark.rule("4.2.5")
def test_no_entrenching_in_a_box_with_enemy_units_nor_twice():
    game = make_game([("union", "MF", "indianapolis"), ("confederate", "MF", "indianapolis"),
                      ("union", "MF", "fort_wayne", 1, True)], turn=2)
    game.apply(ahd.BeginMarch("indianapolis"))
    assert_refused(game, ahd.Entrench("U-MF-01"), "4.2.5")     # (b) enemy units in the box (an RC)
    game.undo()
    assert game.is_entrenched("U-MF-02")
    game.apply(ahd.BeginMarch("fort_wayne"))
    assert_refused(game, ahd.Entrench("U-MF-02"), "4.2.5")     # already entrenched


@pytest.mark.rule("4.2.5")
def test_entrenchment_ends_when_the_unit_leaves_and_survives_damage():
    game = make_game([("union", "MF", "bloomington_in", 1, True), ("union", "MF", "cincinnati"),
                      ("confederate", "MF", "lexington", 1, True)], turn=2)
    assert game.is_entrenched("U-MF-01") and game.is_entrenched("C-MF-01")
    march(game, "bloomington_in", move("U-MF-01", "bloomington_in", "rail", "indianapolis"))
    assert not game.is_entrenched("U-MF-01")
    march(game, "cincinnati", move("U-MF-02", "cincinnati", "rail", "lexington"))
    # battle at Lexington: the defender fires first, then the Union shot at the entrenched defender
    open_fire(game)
    assert game.battle.firing is C
    game.apply(ahd.Roll(6))
    open_fire(game)
    assert shot_value(game) == 1          # MF 2 − 1 entrenched
    game.apply(ahd.Roll(1))
    assert game.unit("C-MF-01").strength == "reduced"
    assert game.is_entrenched("C-MF-01")


@pytest.mark.rule("4.2.5")
def test_fort_entrenches_automatically_by_current_control():
    game = make_game([("union", "MF", "washington"), ("union", "MF", "jackson"),
                      ("confederate", "MF", "new_orleans")], turn=2)
    assert game.is_entrenched("U-MF-01") and not game.unit("U-MF-01").entrenched   # fort, no order
    game.apply(ahd.BeginMarch("washington"))
    assert_refused(game, ahd.Entrench("U-MF-01"), "4.2.5")      # already entrenched by the fort
    game.undo()
    march(game, "jackson", move("U-MF-02", "jackson", "rail", "vicksburg"))
    # Vicksburg is still Confederate: the attacker in the fort is not entrenched yet
    assert game.controller("vicksburg") is C and not game.is_entrenched("U-MF-02")
    to_confederate_movement(game)
    assert game.controller("vicksburg") is U and game.is_entrenched("U-MF-02")


# =========================================================================== 4.2.6 Potomac
POTOMAC_C = move("C-MF-01", "fredericksburg", "river", "washington")


@pytest.mark.rule("4.2.6")
def test_union_may_cross_the_potomac():
    game = make_game([("union", "MF", "washington", 2)], turn=2)
    assert game.board.is_potomac("washington", "fredericksburg")
    order = move("U-MF-01", "washington", "river", "fredericksburg")
    game.apply(ahd.BeginMarch("washington"))
    assert order in game.legal_actions()
    game.apply(order)
    assert ids_at(game, "fredericksburg") == ["U-MF-01"]


@pytest.mark.rule("4.2.6")
def test_confederates_never_move_by_the_potomac():
    game = make_game([("confederate", "MF", "fredericksburg"), ("confederate", "CV", "fredericksburg"),
                      ("union", "MF", "baltimore")], turn=2)
    to_confederate_movement(game)
    game.apply(ahd.BeginMarch("fredericksburg"))
    assert_refused(game, POTOMAC_C, "4.2.6")
    assert_refused(game, move("C-CV-01", "fredericksburg", "river", "washington"), "4.2.6")
    # Washington is reachable by land, not by the river
    other_way = move("C-CV-01", "fredericksburg", "road", "manassas_junction", "rail", "washington")
    assert game.why_not(other_way) is None


@pytest.mark.rule("4.2.6")
def test_confederates_never_retreat_across_the_potomac_union_may():
    game = make_game([("union", "MF", "washington"), ("confederate", "MF", "fredericksburg")], turn=2)
    march(game, "washington", move("U-MF-01", "washington", "river", "fredericksburg"))
    assert game.battle.box == "fredericksburg"
    open_fire(game)
    assert shot_value(game) == 3                  # crossing the Potomac's blue side (5.2.3)
    game.apply(ahd.Roll(6))
    open_fire(game)
    game.apply(ahd.Roll(6))
    assert game.battle.round == 2 and game.battle.firing is C and game.decision == "battle_options"
    assert ahd.Retreat("washington") not in game.legal_actions()
    assert_refused(game, ahd.Retreat("washington"), "4.2.6")
    game.apply(ahd.OpenFire())
    game.apply(ahd.Roll(6))
    assert game.battle.firing is U and game.decision == "battle_options"
    assert ahd.Retreat("washington") in game.legal_actions()   # the Union may use the Potomac
    game.apply(ahd.Retreat("washington"))
    assert ids_at(game, "washington") == ["U-MF-01"]


@pytest.mark.rule("4.2.6")
def test_confederates_never_reinforce_across_the_potomac():
    game = make_game([("union", "MF", "washington"), ("confederate", "MF", "manassas_junction"),
                      ("confederate", "MF", "fredericksburg"), ("confederate", "MF", "front_royal")], turn=2)
    to_confederate_movement(game)
    march(game, "manassas_junction", move("C-MF-01", "manassas_junction", "rail", "washington"))
    game.apply(ahd.EndMovement())
    assert game.battle.box == "washington" and game.battle.attacker is C
    for _ in range(3):   # U round 1, C round 1, U round 2: all miss
        open_fire(game)
        game.apply(ahd.Roll(6))
    assert game.battle.round == 2 and game.battle.firing is C and game.decision == "battle_options"
    assert ahd.Reinforce("C-MF-02") not in game.legal_actions()
    assert_refused(game, ahd.Reinforce("C-MF-02"), "4.2.6")
