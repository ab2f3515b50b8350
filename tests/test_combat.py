"""Battles, rule section 5 of ahd-rules.md (5.a–5.d, 5.1.a–5.1.c, 5.2.a, 5.2.1–5.2.7), the house rules
H-1 and H-2 and the clarification C-1, with the worked examples E-3, E-5 and E-6.

Positions are built with ``make_game`` (a game at the Union Movement of ``turn``; each side gets ``marches``
marches without a roll on that turn). Dice are manual: every shot is a CHANCE decision whose
``pending_roll`` text says "hits on N or less" and which the test forces with ``Roll(n)``. A roll of 6
always misses in these positions (no effective value reaches 6 in the basic game, and H-2 is on).
"""
from __future__ import annotations

import dataclasses
import re

import pytest

import ahd
from ahd.core import combat
from ahd.core.sides import CHANCE, Side

from conftest import (assert_refused, assert_refused_as_one_of, ids_at, make_game, march, pass_until,
                      to_confederate_movement)

U, C = Side.UNION, Side.CONFEDERATE


# --------------------------------------------------------------------------- helpers
def mv(unit: str, *path_and_lines: str) -> ahd.Move:
    """mv("U-MF-01", "a", "river", "b") -> Move(unit, (a, b), (river,))."""
    return ahd.Move(unit, tuple(path_and_lines[0::2]), tuple(path_and_lines[1::2]))


def hits_on(game: ahd.Game) -> int:
    """The effective value of the pending shot, from its 'hits on N or less' text (5.1.b)."""
    assert game.current_player == CHANCE and game.decision == "shot", game.decision
    match = re.search(r"hits on (-?\d+) or less", game.pending_roll)
    assert match, game.pending_roll
    return int(match.group(1))


def roll(game: ahd.Game, natural: int, needs: int | None = None) -> None:
    """Force the pending shot's die; if ``needs`` is given, first check the value it needs."""
    if needs is not None:
        assert hits_on(game) == needs, game.pending_roll
    game.apply(ahd.Roll(natural))


def moment(game: ahd.Game, rnd: int, side: Side) -> bool:
    """Is it the (not yet declared) firing moment of ``side`` in round ``rnd``?"""
    b = game.battle
    return (b is not None and b.round == rnd and b.firing is side
            and game.decision in ("battle_options", "targets") and not b.targets)


def miss_until(game: ahd.Game, predicate) -> None:
    """Pass every decision (hold ground, open fire, automatic targets) and roll 6 (a miss) for every shot."""
    pass_until(game, predicate, roll=6)


def to_moment(game: ahd.Game, rnd: int, side: Side) -> None:
    miss_until(game, lambda g: moment(g, rnd, side))


def lines_since(game: ahd.Game, start: int) -> list[str]:
    return [str(e) for e in game.log[start:]]


def unit(game: ahd.Game, unit_id: str):
    return game.unit(unit_id)


def pool_ids(game: ahd.Game, side) -> set[str]:
    return {u.id for u in game.units(side, "pool")}


def out_ids(game: ahd.Game, side) -> set[str]:
    return {u.id for u in game.units(side, "out")}


# --------------------------------------------------------------------------- standard positions
def little_rock(extra=(), marches: int = 2, end_movement: bool = True) -> ahd.Game:
    """E-3: Union A, B (MF) and C (FS) at Fort Smith, Confederate D, E (MF) at Little Rock, not entrenched;
    the Union marches Fort Smith → Little Rock by river (downstream, no blue side at Little Rock)."""
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2), *extra], marches=marches)
    assert ids_at(game, "fort_smith") == ["U-FS-01", "U-MF-01", "U-MF-02"]
    assert ids_at(game, "little_rock") == ["C-MF-01", "C-MF-02"]
    march(game, "fort_smith", *(mv(u, "fort_smith", "river", "little_rock")
                                for u in ("U-MF-01", "U-MF-02", "U-FS-01")))
    if game.decision == "movement" and end_movement:
        game.apply(ahd.EndMovement())
    return game


def e3_round_one(game: ahd.Game) -> None:
    """The rolls of E-3. A = U-MF-01, B = U-MF-02, C = U-FS-01, D = C-MF-01, E = C-MF-02."""
    assert game.battle.box == "little_rock" and game.battle.round == 1
    assert game.decision == "targets" and game.current_player is C          # the defender fires first
    game.apply(ahd.Volley((("C-MF-01", "U-MF-01"), ("C-MF-02", "U-FS-01"))))
    roll(game, 4, needs=2)        # D → A: miss
    roll(game, 1, needs=1)        # E → C (crack: 2 − 1): hit, C reduced
    assert game.decision == "targets" and game.current_player is U
    game.apply(ahd.Volley((("U-MF-01", "C-MF-01"), ("U-MF-02", "C-MF-01"), ("U-FS-01", "C-MF-02"))))
    roll(game, 5, needs=2)        # A → D: miss
    roll(game, 1, needs=2)        # B → D: D reduced
    roll(game, 2, needs=3)        # C (reduced, still 3) → E: E reduced


def paducah(attack_from: str = "evansville", attacker: str = "FV", defender: str = "FV", extra=(),
            control=None, options=None) -> ahd.Game:
    """Union ``attacker`` attacks a lone Confederate ``defender`` in Paducah from ``attack_from``
    (Evansville and Cairo are water borders of Paducah; Humboldt is not)."""
    line = ahd.default_board().link_kinds(attack_from, "paducah")
    kind = "river" if "river" in line else sorted(line)[0]
    game = make_game([("union", attacker, attack_from), ("confederate", defender, "paducah"), *extra],
                     control=control, options=options)
    attacker_id = f"U-{attacker}-01"
    march(game, attack_from, mv(attacker_id, attack_from, kind, "paducah"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    return game


# =========================================================================== E-3 (5.1.a, 5.1.b, 5.1.c, 5.2.2)
@pytest.mark.rule("5.1.a")
@pytest.mark.rule("5.1.b")
@pytest.mark.rule("5.1.c")
@pytest.mark.rule("5.2.2")
@pytest.mark.rule("5.b")
def test_e3_little_rock_round_one():
    game = little_rock()
    assert game.phase == "combat" and game.battle.attacker is U and game.battle.defender is C
    assert not any(u.crossing for u in game.units_in("little_rock", U))       # no blue side at Little Rock
    e3_round_one(game)
    strength = {u.id: u.strength for u in game.units_in("little_rock")}
    assert strength == {"U-MF-01": "full", "U-MF-02": "full", "U-FS-01": "reduced",
                        "C-MF-01": "reduced", "C-MF-02": "reduced"}
    # round 2 follows, the defender acting first
    assert game.battle.round == 2 and game.battle.firing is C and game.current_player is C
    assert game.decision in ("battle_options", "targets")


@pytest.mark.rule("5.1.a")
def test_e3_negatives_confederates_not_both_at_a_union_not_all_at_d():
    game = little_rock()
    assert_refused(game, ahd.Volley((("C-MF-01", "U-MF-01"), ("C-MF-02", "U-MF-01"))), "5.1.a")
    game.apply(ahd.Target("C-MF-01", "U-MF-01"))
    assert_refused(game, ahd.Target("C-MF-02", "U-MF-01"), "5.1.a")
    legal = {a for a in game.legal_actions() if isinstance(a, ahd.Target)}
    assert legal == {ahd.Target("C-MF-02", "U-MF-02"), ahd.Target("C-MF-02", "U-FS-01")}
    game.apply(ahd.Target("C-MF-02", "U-FS-01"))
    roll(game, 4)
    roll(game, 1)
    assert game.current_player is U and game.decision == "targets"
    assert_refused(game, ahd.Volley((("U-MF-01", "C-MF-01"), ("U-MF-02", "C-MF-01"), ("U-FS-01", "C-MF-01"))),
                   "5.1.a")
    # one by one: after A → D and B → D, C must take E
    game.apply(ahd.Target("U-MF-01", "C-MF-01"))
    game.apply(ahd.Target("U-MF-02", "C-MF-01"))
    assert_refused(game, ahd.Target("U-FS-01", "C-MF-01"), "5.1.a")
    assert [a for a in game.legal_actions() if isinstance(a, ahd.Target)] == [ahd.Target("U-FS-01", "C-MF-02")]


# =========================================================================== 5.a trigger, attacker, order
@pytest.mark.rule("5.a")
def test_battle_is_fought_only_at_the_end_of_movement_and_only_in_shared_boxes():
    game = make_game([("union", "MF", "harpers_ferry"), ("union", "MF", "grafton"),
                      ("confederate", "MF", "front_royal"), ("confederate", "MF", "franklin")], marches=2)
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"))
    # the unit stopped in an enemy box, but there is no battle until the Movement segment ends
    assert game.phase == "movement" and game.decision == "movement" and game.battle is None
    assert game.marches_left == 1
    game.apply(ahd.EndMovement())
    assert game.phase == "combat" and game.battle.box == "front_royal"
    assert game.battle.attacker is U and game.battle.defender is C
    # Grafton (Union) is adjacent to Franklin (Confederate): no battle there
    assert game.state.battles == []
    assert [str(e) for e in game.log if e.kind == "combat"] == ["Battles this half-turn: Front Royal (5.a)"]


@pytest.mark.rule("5.a")
def test_attacker_orders_the_battles():
    game = make_game([("union", "MF", "harpers_ferry", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "front_royal"), ("confederate", "MF", "little_rock")], marches=2)
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"),
          mv("U-MF-02", "harpers_ferry", "road", "front_royal"))
    march(game, "fort_smith", mv("U-FS-01", "fort_smith", "river", "little_rock"))
    assert game.decision == "choose_battle" and game.current_player is U
    assert set(game.legal_actions()) == {ahd.ChooseBattle("front_royal"), ahd.ChooseBattle("little_rock")}
    game.apply(ahd.ChooseBattle("little_rock"))          # not the alphabetical first
    assert game.battle.box == "little_rock"
    roll(game, 1, needs=1)                                # MF at crack FS: reduced
    assert game.battle.box == "little_rock" and game.decision == "shot" and game.battle.firing is U
    # the first battle is finished before the next begins
    pass_until(game, lambda g: g.battle is None or g.battle.box != "little_rock", roll=1)
    assert game.battle.box == "front_royal"
    assert any("wins the battle at Little Rock" in str(e) for e in game.log)
    assert game.phase == "combat" and game.state.battles == []


@pytest.mark.rule("5.a")
def test_choose_battle_refuses_a_box_without_battle():
    game = make_game([("union", "MF", "harpers_ferry"), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "front_royal"), ("confederate", "MF", "little_rock"),
                      ("confederate", "MF", "staunton")], marches=2)
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"))
    march(game, "fort_smith", mv("U-FS-01", "fort_smith", "river", "little_rock"))
    assert game.decision == "choose_battle"
    assert_refused(game, ahd.ChooseBattle("staunton"), "5.a")     # Confederates only: no battle
    assert_refused(game, ahd.ChooseBattle("harpers_ferry"), "5.a")  # empty now


@pytest.mark.rule("5.a")
@pytest.mark.rule("5.b")
def test_in_the_confederate_half_the_confederacy_attacks_and_the_union_fires_first():
    game = make_game([("union", "MF", "harpers_ferry", 2), ("confederate", "MF", "front_royal")])
    to_confederate_movement(game)
    march(game, "front_royal", mv("C-MF-01", "front_royal", "road", "harpers_ferry"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    b = game.battle
    assert b.box == "harpers_ferry" and b.attacker is C and b.defender is U
    assert b.round == 1 and b.firing is U and game.current_player == CHANCE   # one enemy: auto targets
    assert len(b.targets) == 2 and all(t == "C-MF-01" for _, t in b.targets)


# =========================================================================== 5.b rounds
@pytest.mark.rule("5.b")
def test_round_structure_defender_then_attacker_each_round():
    game = little_rock()
    miss_until(game, lambda g: g.battle.round == 4)
    fire = [str(e).split(":")[0] for e in game.log if e.kind == "fire"]
    assert fire == ["Round 1, Confederate fire", "Round 1, Union fire", "Round 2, Confederate fire",
                    "Round 2, Union fire", "Round 3, Confederate fire", "Round 3, Union fire"]


@pytest.mark.rule("5.b")
@pytest.mark.rule("5.2.4")
@pytest.mark.rule("5.2.5")
def test_no_retreat_or_reinforcement_in_round_one():
    # Confederates have a free friendly box (Camden) and a unit next door (Arkansas Post): unusable in round 1
    game = little_rock(extra=[("confederate", "MF", "arkansas_post")])
    assert game.battle.round == 1 and game.decision == "targets"
    assert not any(isinstance(a, (ahd.Retreat, ahd.Reinforce)) for a in game.legal_actions())
    assert_refused_as_one_of(game, ahd.Reinforce("C-MF-03"), ("5.b", "5.2.4", "3.a"))
    assert_refused_as_one_of(game, ahd.Retreat("camden"), ("5.b", "5.2.5", "3.a"))
    # in round 2 both are offered
    to_moment(game, 2, C)
    assert game.decision == "battle_options"
    assert ahd.Retreat("camden") in game.legal_actions()
    assert ahd.Reinforce("C-MF-03") in game.legal_actions()


@pytest.mark.rule("5.b")
@pytest.mark.rule("5.c")
@pytest.mark.rule("5.d")
def test_battle_ends_when_the_opponent_has_no_units_left():
    game = make_game([("union", "MF", "harpers_ferry"), ("confederate", "MF", "front_royal", 2)])
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    assert game.battle.firing is C and len(game.battle.targets) == 2      # both at the lone attacker
    roll(game, 1, needs=2)
    roll(game, 2, needs=2)
    # the attacker is eliminated by the defender's fire: it never fires; the defender wins
    assert game.units_in("front_royal", U) == []
    assert game.decision == "battle_promotion" and game.current_player is C
    assert game.battle.winner is C
    assert "U-MF-01" in pool_ids(game, U)                                 # militia to the pool (5.d)
    assert not any("Union fire" in line for line in map(str, game.log))


# =========================================================================== 5.c results
@pytest.mark.rule("5.c")
def test_elimination_winner_survivors_stay_and_control_waits_for_9a():
    game = make_game([("union", "MF", "harpers_ferry", 2), ("confederate", "MF", "front_royal")])
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"),
          mv("U-MF-02", "harpers_ferry", "road", "front_royal"))
    game.apply(ahd.FireAuto())
    roll(game, 6)                 # defender misses
    roll(game, 1, needs=2)
    roll(game, 1, needs=2)        # C-MF-01 eliminated
    assert game.battle.winner is U and game.decision == "battle_promotion" and game.current_player is U
    assert ids_at(game, "front_royal") == ["U-MF-01", "U-MF-02"]
    assert game.controller("front_royal") is C                 # control changes only at 9.a
    assert any("Union side wins the battle at Front Royal" in str(e) for e in game.log)
    pass_until(game, lambda g: g.phasing is C)
    assert game.controller("front_royal") is U


@pytest.mark.rule("5.c")
@pytest.mark.rule("5.2.5")
@pytest.mark.rule("5.2.7")
def test_retreating_side_loses_and_stays_reduced_until_recovery():
    game = little_rock()
    e3_round_one(game)
    assert game.battle.winner is None                     # both sides still have units: no result yet
    assert game.decision == "battle_options" and game.current_player is C
    game.apply(ahd.Retreat("camden"))
    assert {u.id: u.strength for u in game.units_in("camden")} == {"C-MF-01": "reduced", "C-MF-02": "reduced"}
    assert game.battle.winner is U and game.decision == "battle_promotion" and game.current_player is U
    assert ids_at(game, "little_rock") == ["U-FS-01", "U-MF-01", "U-MF-02"]
    game.apply(ahd.NoPromotion())
    assert game.phase != "combat"
    assert all(u.strength == "full" for u in game.units_in("camden") + game.units_in("little_rock"))
    assert any("recover to full strength (5.2.7)" in str(e) for e in game.log)


@pytest.mark.rule("5.c")
@pytest.mark.rule("5.2.6")
def test_cavalry_retreat_has_no_winner():
    game = make_game([("union", "MF", "franklin"), ("confederate", "CV", "staunton")])
    march(game, "franklin", mv("U-MF-01", "franklin", "road", "staunton"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    assert game.decision == "cavalry_retreat" and game.current_player is C
    assert game.battle.round == 1 and not game.battle.targets             # before round 1
    game.apply(ahd.CavalryRetreat("front_royal"))
    assert ids_at(game, "front_royal") == ["C-CV-01"] and ids_at(game, "staunton") == ["U-MF-01"]
    assert game.battle is None and game.phase == "promotion"        # no battle promotion (6.a) for anyone
    assert not any("wins the battle" in str(e) for e in game.log)
    assert any("no winner" in str(e) for e in game.log)


# =========================================================================== 5.d eliminated units
@pytest.mark.rule("5.d")
@pytest.mark.rule("5.1.b")
def test_e5_lost_shot_and_veteran_out_of_the_game():
    game = make_game([("union", "MF", "harpers_ferry", 3), ("confederate", "FV", "front_royal")])
    march(game, "harpers_ferry", *(mv(f"U-MF-0{i}", "harpers_ferry", "road", "front_royal") for i in (1, 2, 3)))
    game.apply(ahd.Target("C-FV-01", "U-MF-01"))
    roll(game, 6, needs=3)                          # the veteran misses
    assert game.battle.firing is U and [t for _, t in game.battle.targets] == ["C-FV-01"] * 3
    rolls_before = sum(isinstance(a, ahd.Roll) for a in game.history)
    roll(game, 1, needs=2)                          # full → reduced
    roll(game, 2, needs=2)                          # reduced → eliminated
    # shot 3 is lost: no die is rolled for it and the battle is over
    assert sum(isinstance(a, ahd.Roll) for a in game.history) == rolls_before + 2
    assert game.current_player is not CHANCE and game.battle.winner is U
    assert any("shot is lost" in str(e) and "5.1.b" in str(e) for e in game.log)
    assert "C-FV-01" in out_ids(game, C) and "C-FV-01" not in pool_ids(game, C)


@pytest.mark.rule("5.1.b")
def test_lost_shot_is_not_redirected_to_another_target():
    game = make_game([("union", "MF", "harpers_ferry", 4), ("confederate", "FV", "front_royal"),
                      ("confederate", "MF", "front_royal")])
    march(game, "harpers_ferry", *(mv(f"U-MF-0{i}", "harpers_ferry", "road", "front_royal") for i in (1, 2, 3, 4)))
    game.apply(ahd.FireAuto())
    roll(game, 6)
    roll(game, 6)
    assert game.current_player is U and game.decision == "targets"
    game.apply(ahd.Volley((("U-MF-01", "C-FV-01"), ("U-MF-02", "C-FV-01"), ("U-MF-03", "C-FV-01"),
                           ("U-MF-04", "C-MF-01"))))
    roll(game, 1)
    roll(game, 1)                                   # C-FV-01 eliminated by shot 2
    assert "C-FV-01" in out_ids(game, C)
    # shot 3 (at C-FV-01) is lost; the pending die is shot 4's, still at C-MF-01
    assert "U-MF-04" in game.pending_roll and "C-MF-01" in game.pending_roll
    roll(game, 6)
    assert unit(game, "C-MF-01").strength == "full"


@pytest.mark.rule("5.d")
def test_militia_to_pool_crack_out_reduced_stays():
    game = make_game([("union", "FS", "harpers_ferry"), ("union", "MF", "harpers_ferry"),
                      ("confederate", "MF", "front_royal", 3)])
    march(game, "harpers_ferry", mv("U-FS-01", "harpers_ferry", "road", "front_royal"),
          mv("U-MF-01", "harpers_ferry", "road", "front_royal"))
    game.apply(ahd.Volley((("C-MF-01", "U-FS-01"), ("C-MF-02", "U-FS-01"), ("C-MF-03", "U-MF-01"))))
    roll(game, 1, needs=1)
    roll(game, 1, needs=1)           # crack infantry eliminated: out of the game
    roll(game, 1, needs=2)           # militia only reduced: stays on the map
    assert "U-FS-01" in out_ids(game, U) and "U-FS-01" not in pool_ids(game, U)
    assert unit(game, "U-MF-01").location == "front_royal" and unit(game, "U-MF-01").strength == "reduced"
    assert "U-MF-01" not in pool_ids(game, U)
    pass_until(game, lambda g: g.battle is None or not g.units_in("front_royal", U), roll=1)
    assert "U-MF-01" in pool_ids(game, U)                          # eliminated militia: pool
    assert unit(game, "U-MF-01").strength == "full" and not unit(game, "U-MF-01").entrenched


# =========================================================================== 5.1.a targets
@pytest.mark.rule("5.1.a")
def test_spread_when_fewer_shooters_than_enemies():
    game = make_game([("union", "MF", "harpers_ferry", 2), ("confederate", "MF", "front_royal", 3)])
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"),
          mv("U-MF-02", "harpers_ferry", "road", "front_royal"))
    game.apply(ahd.FireAuto())
    for _ in range(3):
        roll(game, 6)
    assert game.current_player is U
    assert_refused(game, ahd.Volley((("U-MF-01", "C-MF-02"), ("U-MF-02", "C-MF-02"))), "5.1.a")
    game.apply(ahd.Volley((("U-MF-01", "C-MF-02"), ("U-MF-02", "C-MF-03"))))
    assert game.decision == "shot" and len(game.battle.targets) == 2


@pytest.mark.rule("5.1.a")
def test_each_unit_fires_once_and_targets_cannot_change():
    game = little_rock()
    game.apply(ahd.Target("C-MF-01", "U-MF-01"))
    assert_refused(game, ahd.Target("C-MF-01", "U-MF-02"), "5.1.a")     # already declared: no change
    assert_refused(game, ahd.Target("C-MF-02", "C-MF-01"), "5.1.a")     # not an enemy in the battle
    assert_refused(game, ahd.Target("U-MF-01", "C-MF-01"), "5.1.a")     # not a firing unit now
    game.apply(ahd.Target("C-MF-02", "U-MF-02"))
    # one shot per firing unit: exactly two dice this moment
    assert game.decision == "shot"
    roll(game, 6)
    roll(game, 6)
    assert game.current_player is U and game.decision == "targets"


@pytest.mark.rule("5.1.a")
@pytest.mark.rule("5.2.a")
def test_harmless_shots_still_count_for_the_spread():
    # MC against entrenched crack infantry: 1 − 1 − 1 = −1, cannot hit
    game = make_game([("union", "MC", "harpers_ferry"), ("union", "FV", "harpers_ferry"),
                      ("confederate", "FS", "front_royal", 1, True), ("confederate", "MF", "front_royal")])
    march(game, "harpers_ferry", mv("U-MC-01", "harpers_ferry", "road", "front_royal"),
          mv("U-FV-01", "harpers_ferry", "road", "front_royal"))
    game.apply(ahd.FireAuto())
    roll(game, 6)
    roll(game, 6)
    assert game.current_player is U
    assert_refused(game, ahd.Volley((("U-MC-01", "C-MF-01"), ("U-FV-01", "C-MF-01"))), "5.1.a")
    start = len(game.log)
    game.apply(ahd.Volley((("U-MC-01", "C-FS-01"), ("U-FV-01", "C-MF-01"))))
    # the MC shot is declared but never rolled; the only die is FV → MF (3)
    assert hits_on(game) == 3 and "U-FV-01" in game.pending_roll
    assert any("U-MC-01" in line and "cannot hit (5.2.a)" in line for line in lines_since(game, start))
    assert unit(game, "C-FS-01").strength == "full"


# =========================================================================== 5.1.b hit roll
@pytest.mark.rule("5.1.b")
def test_hit_if_roll_at_most_value_miss_above():
    game = make_game([("union", "MF", "harpers_ferry"), ("confederate", "MF", "front_royal")])
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"))
    roll(game, 3, needs=2)                # roll above value: miss
    assert unit(game, "U-MF-01").strength == "full"
    assert any("needs 2 or less, rolls 3 — miss" in str(e) for e in game.log)
    roll(game, 2, needs=2)                # roll = value: hit
    assert unit(game, "C-MF-01").strength == "reduced"
    miss_until(game, lambda g: g.decision == "shot")
    roll(game, 1, needs=2)
    assert unit(game, "U-MF-01").strength == "reduced"


# =========================================================================== 5.1.c damage
@pytest.mark.rule("5.1.c")
def test_reduced_unit_keeps_value_and_entrenchment():
    game = make_game([("union", "FV", "harpers_ferry", 2), ("confederate", "FV", "front_royal", 1, True)])
    march(game, "harpers_ferry", mv("U-FV-01", "harpers_ferry", "road", "front_royal"),
          mv("U-FV-02", "harpers_ferry", "road", "front_royal"))
    game.apply(ahd.Target("C-FV-01", "U-FV-01"))
    roll(game, 1, needs=3)                        # U-FV-01 reduced
    assert unit(game, "U-FV-01").strength == "reduced"
    # one enemy: both Union shots are declared at it automatically
    assert "reduced veteran infantry U-FV-01" in game.pending_roll
    roll(game, 3, needs=2)                        # reduced FV still 3 (− 1 entrenched); miss
    roll(game, 2, needs=2)                        # C-FV-01 reduced
    assert unit(game, "C-FV-01").strength == "reduced" and game.is_entrenched("C-FV-01")
    miss_until(game, lambda g: g.decision == "shot" and g.battle.round == 2 and g.battle.firing is U)
    roll(game, 6, needs=2)                        # reduced target: still entrenched, still −1
    roll(game, 2, needs=2)                        # hit on reduced: eliminated
    assert "C-FV-01" in out_ids(game, C) and game.battle.winner is U


@pytest.mark.rule("5.1.c")
def test_a_miss_changes_no_strength():
    game = little_rock()
    game.apply(ahd.Volley((("C-MF-01", "U-MF-01"), ("C-MF-02", "U-FS-01"))))
    roll(game, 6)
    roll(game, 2, needs=1)
    assert all(u.strength == "full" for u in game.units_in("little_rock"))


# =========================================================================== 5.2.a / E-6 modifiers
@pytest.mark.rule("5.2.a")
def test_e6_veteran_cavalry_against_an_open_target_hits_on_one_or_two():
    game = make_game([("union", "CV", "harpers_ferry"), ("confederate", "MF", "front_royal")])
    march(game, "harpers_ferry", mv("U-CV-01", "harpers_ferry", "road", "front_royal"))
    if game.decision == "cavalry_retreat":
        game.apply(ahd.HoldGround())
    roll(game, 6, needs=2)                        # MF at CV
    roll(game, 2, needs=2)                        # CV at open MF: 1–2
    assert unit(game, "C-MF-01").strength == "reduced"


@pytest.mark.rule("5.2.a")
@pytest.mark.rule("5.2.1")
def test_e6_entrenched_target_veteran_infantry_two_militia_cavalry_cannot_hit():
    game = make_game([("union", "FV", "harpers_ferry"), ("union", "MC", "harpers_ferry"),
                      ("confederate", "MF", "front_royal", 1, True)])
    march(game, "harpers_ferry", mv("U-FV-01", "harpers_ferry", "road", "front_royal"),
          mv("U-MC-01", "harpers_ferry", "road", "front_royal"))
    game.apply(ahd.FireAuto())
    roll(game, 6)
    start = len(game.log)
    assert game.battle.firing is U
    assert sorted(game.battle.targets) == [("U-FV-01", "C-MF-01"), ("U-MC-01", "C-MF-01")]
    roll(game, 2, needs=2)                        # FV vs entrenched: 3 − 1 = 2; hit
    # the MC shot (1 − 1 = 0) is never rolled: the round is over
    assert game.battle.round == 2 and game.battle.firing is C
    assert any("U-MC-01" in line and "cannot hit (5.2.a)" in line for line in lines_since(game, start))
    assert unit(game, "C-MF-01").strength == "reduced"


@pytest.mark.rule("5.2.1")
def test_open_target_has_no_entrenchment_modifier():
    game = make_game([("union", "FV", "harpers_ferry"), ("union", "MC", "harpers_ferry"),
                      ("confederate", "MF", "front_royal")])
    march(game, "harpers_ferry", mv("U-FV-01", "harpers_ferry", "road", "front_royal"),
          mv("U-MC-01", "harpers_ferry", "road", "front_royal"))
    game.apply(ahd.FireAuto())
    roll(game, 6)
    needs = {}
    for _ in range(2):
        shooter = "U-FV-01" if "U-FV-01" in game.pending_roll else "U-MC-01"
        needs[shooter] = hits_on(game)
        roll(game, 6)
    assert needs == {"U-FV-01": 3, "U-MC-01": 1}


@pytest.mark.rule("5.2.2")
@pytest.mark.rule("5.2.1")
@pytest.mark.rule("5.2.a")
def test_e6_entrenched_crack_infantry_only_veteran_infantry_can_hit_on_one():
    game = make_game([("union", "MF", "harpers_ferry"), ("union", "MC", "harpers_ferry"),
                      ("union", "CV", "harpers_ferry"), ("union", "FV", "harpers_ferry"),
                      ("confederate", "FS", "front_royal", 1, True)])
    march(game, "harpers_ferry", *(mv(u, "harpers_ferry", "road", "front_royal")
                                   for u in ("U-MF-01", "U-MC-01", "U-CV-01", "U-FV-01")))
    game.apply(ahd.FireAuto())
    roll(game, 6)
    start = len(game.log)
    assert game.battle.firing is U and len(game.battle.targets) == 4
    # exactly one die: FV 3 − 1 − 1 = 1
    assert "U-FV-01" in game.pending_roll and hits_on(game) == 1
    roll(game, 6)
    lines = lines_since(game, start)
    for shooter in ("U-MF-01", "U-MC-01", "U-CV-01"):
        assert any(shooter in line and "cannot hit (5.2.a)" in line for line in lines), shooter
    assert unit(game, "C-FS-01").strength == "full"
    assert game.battle.round == 2


@pytest.mark.rule("5.2.2")
def test_crack_infantry_target_minus_one_even_for_crack_shooters():
    game = make_game([("union", "FS", "harpers_ferry"), ("confederate", "FS", "front_royal")])
    march(game, "harpers_ferry", mv("U-FS-01", "harpers_ferry", "road", "front_royal"))
    roll(game, 6, needs=2)
    roll(game, 3, needs=2)
    assert unit(game, "C-FS-01").strength == "full"


@pytest.mark.rule("5.2.2")
def test_crack_cavalry_target_has_no_modifier():
    game = make_game([("union", "FV", "harpers_ferry"), ("confederate", "CS", "front_royal")])
    march(game, "harpers_ferry", mv("U-FV-01", "harpers_ferry", "road", "front_royal"))
    if game.decision == "cavalry_retreat":
        game.apply(ahd.HoldGround())
    roll(game, 6, needs=3)                        # CS at FV
    roll(game, 3, needs=3)                        # FV at CS: no −1
    assert unit(game, "C-CS-01").strength == "reduced"


# =========================================================================== 5.2.3 river crossing
@pytest.mark.rule("5.2.3")
@pytest.mark.rule("5.2.a")
def test_e6_crossing_attacker_plus_one_in_rounds_one_and_two_only():
    board = ahd.default_board()
    assert "evansville" in board.water_borders["paducah"]
    game = paducah("evansville")
    assert unit(game, "U-FV-01").crossing
    roll(game, 6, needs=4)            # round 1, defender FV at crossing attacker: 3 + 1
    roll(game, 6, needs=3)            # the attacker's own shots never get +1
    to_moment(game, 2, C)
    miss_until(game, lambda g: g.decision == "shot")
    assert game.battle.round == 2 and game.battle.firing is C
    roll(game, 6, needs=4)            # round 2: still 4
    miss_until(game, lambda g: g.decision == "shot")
    assert game.battle.firing is U
    roll(game, 6, needs=3)
    to_moment(game, 3, C)
    miss_until(game, lambda g: g.decision == "shot")
    assert game.battle.round == 3
    roll(game, 6, needs=3)            # round 3: back to 3


@pytest.mark.rule("5.2.3")
def test_no_crossing_bonus_without_a_water_border():
    board = ahd.default_board()
    assert "humboldt" not in board.water_borders.get("paducah", frozenset())
    game = paducah("humboldt")
    assert not unit(game, "U-FV-01").crossing
    roll(game, 6, needs=3)            # round 1: no +1


@pytest.mark.rule("5.2.3")
@pytest.mark.rule("5.2.2")
def test_e6_crossing_crack_infantry_net_zero():
    game = paducah("evansville", attacker="FS")
    assert unit(game, "U-FS-01").crossing
    roll(game, 6, needs=3)            # FV at crossing FS: 3 + 1 − 1


@pytest.mark.rule("5.2.3")
@pytest.mark.rule("4.2.4")
def test_naval_invaders_are_crossing():
    game = make_game([("union", "MF", "washington", 2), ("confederate", "MF", "wilmington")])
    pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is U)
    game.apply(ahd.Roll(6))
    game.apply(ahd.Invade("U-MF-01", "wilmington"))
    game.apply(ahd.EndMovement())
    assert game.battle.box == "wilmington" and unit(game, "U-MF-01").crossing
    roll(game, 6, needs=3)            # MF at an invader: 2 + 1
    roll(game, 6, needs=2)            # the invader's own shot: 2


@pytest.mark.rule("5.2.3")
@pytest.mark.rule("5.2.4")
def test_attacker_reinforcements_are_never_crossing():
    # U-MF-01 rails Humboldt → Cairo (a water border of Cairo: it is 'crossing' there), then reinforces
    # Paducah from Cairo, itself a water border of Paducah
    board = ahd.default_board()
    assert "humboldt" in board.water_borders["cairo"] and "cairo" in board.water_borders["paducah"]
    game = make_game([("union", "MF", "humboldt"), ("union", "FV", "evansville"),
                      ("confederate", "FV", "paducah")], control={"confederate": ["forts_henry_donelson"]})
    march(game, "humboldt", mv("U-MF-01", "humboldt", "rail", "cairo"))
    march(game, "evansville", mv("U-FV-01", "evansville", "river", "paducah"))
    to_moment(game, 2, U)
    assert game.decision == "battle_options"
    game.apply(ahd.Reinforce("U-MF-01"))
    assert "U-MF-01" in game.battle.reinforced
    miss_until(game, lambda g: g.decision == "targets" and g.battle.round == 3 and g.battle.firing is C
               or g.decision == "battle_options" and g.battle.round == 3)
    if game.decision == "battle_options":
        game.apply(ahd.OpenFire())
    game.apply(ahd.Target("C-FV-01", "U-MF-01"))
    roll(game, 6, needs=3)
    # the same shot in a defender moment of round 2 (a constructed battle): still no +1 for the
    # reinforcement, +1 for the unit that entered by the water border
    trial = game.battle.copy()
    trial.round, trial.firing = 2, C
    s = game.state
    assert combat.effective_value(s, trial, s.units["C-FV-01"], s.units["U-MF-01"]) == 3
    assert combat.effective_value(s, trial, s.units["C-FV-01"], s.units["U-FV-01"]) == 4


# =========================================================================== 5.2.4 reinforcements
def front_royal_defence(extra=(), attackers: int = 2) -> ahd.Game:
    """Union MF attack Confederate MF at Front Royal from Harpers Ferry; round 2, Confederate moment."""
    game = make_game([("union", "MF", "harpers_ferry", attackers), ("confederate", "MF", "front_royal"), *extra])
    march(game, "harpers_ferry", *(mv(f"U-MF-0{i}", "harpers_ferry", "road", "front_royal")
                                   for i in range(1, attackers + 1)))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    to_moment(game, 2, C)
    return game


@pytest.mark.rule("5.2.4")
@pytest.mark.rule("4.2.5")
def test_reinforcements_one_per_box_fire_at_once_lose_entrenchment_no_march_cost():
    game = front_royal_defence(extra=[("confederate", "MF", "staunton", 2, True),
                                      ("confederate", "MF", "manassas_junction")])
    assert ids_at(game, "staunton") == ["C-MF-02", "C-MF-03"] and game.is_entrenched("C-MF-02")
    assert game.decision == "battle_options" and game.current_player is C
    game.apply(ahd.Reinforce("C-MF-02"))
    assert_refused(game, ahd.Reinforce("C-MF-03"), "5.2.4")          # one unit per adjacent box
    game.apply(ahd.Reinforce("C-MF-04"))                             # from another box: fine
    r = unit(game, "C-MF-02")
    assert r.location == "front_royal" and not r.entrenched and not game.is_entrenched("C-MF-02")
    assert r.marches == 0 and game.marches_left == 0
    assert {"C-MF-02", "C-MF-04"} <= game.battle.participants[C]
    assert game.is_entrenched("C-MF-03")                             # the one left behind keeps it
    # the reinforcements fire at once: three Confederate shots this moment
    assert game.decision == "targets"
    game.apply(ahd.Volley((("C-MF-01", "U-MF-01"), ("C-MF-02", "U-MF-02"), ("C-MF-04", "U-MF-01"))))
    for _ in range(3):
        roll(game, 6)
    assert game.battle.firing is U
    # the next own moment may take another unit from Staunton
    to_moment(game, 3, C)
    assert ahd.Reinforce("C-MF-03") in game.legal_actions()


@pytest.mark.rule("5.2.4")
def test_reinforcement_a_units_that_retreated_this_turn():
    # battle 1: the Confederate cavalry at Staunton withdraws to Front Royal (5.2.6);
    # battle 2 at Manassas Junction: that cavalry may not reinforce, another unit from Front Royal may
    game = make_game([("union", "MF", "franklin"), ("union", "MF", "harpers_ferry"),
                      ("confederate", "CV", "staunton"), ("confederate", "MF", "manassas_junction"),
                      ("confederate", "MF", "front_royal")])
    march(game, "franklin", mv("U-MF-01", "franklin", "road", "staunton"))
    march(game, "harpers_ferry", mv("U-MF-02", "harpers_ferry", "road", "manassas_junction"))
    game.apply(ahd.ChooseBattle("staunton"))
    game.apply(ahd.CavalryRetreat("front_royal"))
    assert game.battle.box == "manassas_junction"
    to_moment(game, 2, C)
    assert_refused(game, ahd.Reinforce("C-CV-01"), "5.2.4")
    game.apply(ahd.Reinforce("C-MF-02"))
    assert unit(game, "C-MF-02").location == "manassas_junction"


def two_battles(front_royal_confederates: int = 1, union_at_front_royal: int = 2, extra=()) -> ahd.Game:
    """Union attacks Front Royal (from Harpers Ferry) and Manassas Junction (adjacent to it by rail)."""
    game = make_game([("union", "MF", "harpers_ferry", union_at_front_royal + 1),
                      ("confederate", "MF", "manassas_junction"),
                      ("confederate", "MF", "front_royal", front_royal_confederates), *extra])
    orders = [mv(f"U-MF-0{i}", "harpers_ferry", "road", "front_royal") for i in range(1, union_at_front_royal + 1)]
    orders.append(mv(f"U-MF-0{union_at_front_royal + 1}", "harpers_ferry", "road", "manassas_junction"))
    march(game, "harpers_ferry", *orders)
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    assert game.decision == "choose_battle"
    return game


@pytest.mark.rule("5.2.4")
def test_reinforcement_b_attacker_not_from_a_box_holding_enemy_units():
    game = two_battles(extra=[("union", "MF", "washington")])
    game.apply(ahd.ChooseBattle("manassas_junction"))
    to_moment(game, 2, U)
    # Front Royal still holds its (unfought) battle: Confederate units are there
    assert game.units_in("front_royal", C)
    assert_refused(game, ahd.Reinforce("U-MF-01"), "5.2.4")
    game.apply(ahd.Reinforce("U-MF-04"))                              # from Washington: fine
    assert unit(game, "U-MF-04").location == "manassas_junction"


@pytest.mark.rule("5.2.4")
def test_reinforcement_b_attacker_not_units_that_fought_another_battle():
    game = two_battles(extra=[("union", "MF", "washington")])
    game.apply(ahd.ChooseBattle("front_royal"))
    game.apply(ahd.FireAuto())
    roll(game, 6)
    roll(game, 1)
    roll(game, 1)                                                     # Front Royal taken
    assert game.decision == "battle_promotion"
    game.apply(ahd.NoPromotion())
    assert game.battle.box == "manassas_junction"
    to_moment(game, 2, U)
    assert not game.units_in("front_royal", C)                        # no enemy there any more
    assert_refused(game, ahd.Reinforce("U-MF-01"), "5.2.4")           # but it fought this turn
    assert ahd.Reinforce("U-MF-04") in game.legal_actions()


@pytest.mark.rule("5.2.4")
def test_reinforcement_b_a_defender_of_the_union_half_may_not_reinforce_the_confederate_attack():
    # Union half: C-MF-01 defends Front Royal and survives; Confederate half of the same turn: C-MF-02 attacks
    # Harpers Ferry from Front Royal; C-MF-01 (fought this turn) may not reinforce it, C-MF-03 may
    game = make_game([("union", "MF", "grafton"), ("union", "MF", "harpers_ferry"),
                      ("confederate", "MF", "front_royal", 2), ("confederate", "MF", "manassas_junction")])
    march(game, "grafton", mv("U-MF-01", "grafton", "road", "front_royal"))
    game.apply(ahd.EndMovement())
    pass_until(game, lambda g: g.battle is None or g.battle.winner is not None, roll=1)
    assert game.battle.winner is C
    assert ids_at(game, "front_royal") == ["C-MF-01", "C-MF-02"] and unit(game, "C-MF-01").fought
    to_confederate_movement(game)
    march(game, "front_royal", mv("C-MF-02", "front_royal", "road", "harpers_ferry"))
    game.apply(ahd.EndMovement())
    assert game.battle.box == "harpers_ferry" and game.battle.attacker is C
    to_moment(game, 2, C)
    assert_refused(game, ahd.Reinforce("C-MF-01"), "5.2.4")
    game.apply(ahd.Reinforce("C-MF-03"))                              # from Manassas Junction
    assert unit(game, "C-MF-03").location == "harpers_ferry"


@pytest.mark.rule("5.2.4")
def test_reinforcement_c_defender_must_leave_as_many_as_the_enemy_has():
    game = two_battles(front_royal_confederates=2)                    # 2 Confederates vs 2 Union there
    game.apply(ahd.ChooseBattle("manassas_junction"))
    to_moment(game, 2, C)
    assert ids_at(game, "front_royal", C) == ["C-MF-02", "C-MF-03"]
    assert not any(isinstance(a, ahd.Reinforce) for a in game.legal_actions())
    assert_refused(game, ahd.Reinforce("C-MF-02"), "5.2.4")


@pytest.mark.rule("5.2.4")
def test_reinforcement_c_defender_may_come_if_enough_stay():
    game = two_battles(front_royal_confederates=3)                    # 3 vs 2: one may leave
    game.apply(ahd.ChooseBattle("manassas_junction"))
    to_moment(game, 2, C)
    assert game.decision == "battle_options"
    game.apply(ahd.Reinforce("C-MF-02"))
    assert unit(game, "C-MF-02").location == "manassas_junction"
    assert len(game.units_in("front_royal", C)) == 2 == len(game.units_in("front_royal", U))


@pytest.mark.rule("5.2.4")
@pytest.mark.rule("4.2.6")
def test_reinforcement_d_confederates_not_across_the_potomac():
    game = make_game([("union", "MF", "washington"), ("confederate", "MF", "manassas_junction"),
                      ("confederate", "MF", "fredericksburg"), ("confederate", "MF", "harpers_ferry")])
    to_confederate_movement(game, roll=6)
    march(game, "manassas_junction", mv("C-MF-01", "manassas_junction", "rail", "washington"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    assert game.battle.box == "washington" and game.battle.attacker is C
    to_moment(game, 2, C)
    assert ahd.default_board().is_potomac("fredericksburg", "washington")
    assert_refused_as_one_of(game, ahd.Reinforce("C-MF-02"), ("4.2.6", "5.2.4"))
    game.apply(ahd.Reinforce("C-MF-03"))                              # by road from Harpers Ferry
    assert unit(game, "C-MF-03").location == "washington"


@pytest.mark.rule("5.2.4")
def test_reinforcement_e_no_reinforcement_once_a_side_is_wiped_out():
    game = make_game([("union", "MF", "harpers_ferry", 2), ("confederate", "MF", "front_royal"),
                      ("confederate", "MF", "staunton")])
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"),
          mv("U-MF-02", "harpers_ferry", "road", "front_royal"))
    game.apply(ahd.FireAuto())
    roll(game, 6)
    roll(game, 1)
    roll(game, 1)           # the only defender is eliminated in round 1
    assert game.battle.winner is U and game.battle.round == 1
    assert unit(game, "C-MF-02").location == "staunton"            # never brought in
    game.apply(ahd.NoPromotion())
    assert game.battle is None and game.phase != "combat"


# =========================================================================== 5.2.5 retreat
@pytest.mark.rule("5.2.5")
def test_retreat_c_not_into_the_box_the_enemy_came_from():
    game = little_rock()
    e3_round_one(game)
    assert not game.units_in("fort_smith")                 # empty now, still barred
    assert_refused(game, ahd.Retreat("fort_smith"), "5.2.5")
    retreats = {a.to for a in game.legal_actions() if isinstance(a, ahd.Retreat)}
    assert retreats == {"arkansas_post", "camden"}


@pytest.mark.rule("5.2.5")
def test_retreat_a_not_into_a_box_holding_enemy_units():
    game = little_rock(extra=[("union", "MF", "camden")])
    e3_round_one(game)
    assert_refused(game, ahd.Retreat("camden"), "5.2.5")
    assert {a.to for a in game.legal_actions() if isinstance(a, ahd.Retreat)} == {"arkansas_post"}


@pytest.mark.rule("5.2.5")
def test_retreat_b_not_into_an_enemy_recruiting_city():
    game = paducah("humboldt", defender="MF")
    to_moment(game, 2, C)
    assert game.controller("cairo") is U and ahd.default_board()["cairo"].blue_value > 0
    assert_refused(game, ahd.Retreat("cairo"), "5.2.5")


@pytest.mark.rule("5.2.5")
def test_retreat_b_own_colour_city_held_by_enemy_is_not_barred():
    # Evansville: Union-held, red value 1, no blue value; Forts Henry & Donelson Union-held (no friendly box)
    game = paducah("humboldt", defender="MF", control={"union": ["forts_henry_donelson"]})
    to_moment(game, 2, C)
    retreats = {a.to for a in game.legal_actions() if isinstance(a, ahd.Retreat)}
    assert retreats == {"evansville", "forts_henry_donelson"}
    game.apply(ahd.Retreat("evansville"))
    assert ids_at(game, "evansville") == ["C-MF-01"] and game.battle.winner is U


@pytest.mark.rule("5.2.5")
def test_retreat_must_go_to_a_friendly_box_if_any():
    game = paducah("humboldt", defender="MF")          # Forts Henry & Donelson are Confederate
    to_moment(game, 2, C)
    assert {a.to for a in game.legal_actions() if isinstance(a, ahd.Retreat)} == {"forts_henry_donelson"}
    assert_refused(game, ahd.Retreat("evansville"), "5.2.5")
    game.apply(ahd.Retreat("forts_henry_donelson"))
    assert ids_at(game, "forts_henry_donelson") == ["C-MF-01"]


@pytest.mark.rule("5.2.5")
@pytest.mark.rule("4.2.6")
def test_retreat_d_confederates_not_across_the_potomac():
    game = make_game([("union", "MF", "manassas_junction"), ("confederate", "MF", "fredericksburg")],
                     control={"confederate": ["washington"]})
    march(game, "manassas_junction", mv("U-MF-01", "manassas_junction", "road", "fredericksburg"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    to_moment(game, 2, C)
    # Washington is empty and Confederate-held (friendly): only the Potomac bars it
    assert not game.units_in("washington") and game.controller("washington") is C
    assert_refused_as_one_of(game, ahd.Retreat("washington"), ("4.2.6", "5.2.5"))
    assert {a.to for a in game.legal_actions() if isinstance(a, ahd.Retreat)} == {"richmond", "yorktown"}


@pytest.mark.rule("5.2.5")
def test_union_may_retreat_across_the_potomac():
    game = make_game([("union", "MF", "washington", 2), ("confederate", "MF", "fredericksburg")])
    march(game, "washington", mv("U-MF-01", "washington", "river", "fredericksburg"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    to_moment(game, 2, U)
    assert ahd.Retreat("washington") in game.legal_actions()
    game.apply(ahd.Retreat("washington"))
    assert ids_at(game, "washington") == ["U-MF-01", "U-MF-02"] and game.battle.winner is C


@pytest.mark.rule("5.2.5")
def test_no_retreat_after_reinforcing_in_the_same_moment():
    game = front_royal_defence(extra=[("confederate", "MF", "staunton"), ("confederate", "MF", "manassas_junction")])
    assert game.decision == "battle_options" and ahd.Retreat("staunton") in game.legal_actions()
    game.apply(ahd.Reinforce("C-MF-02"))                          # from Staunton
    assert game.decision == "battle_options"                      # Manassas Junction could still send one
    assert not any(isinstance(a, ahd.Retreat) for a in game.legal_actions())
    assert_refused(game, ahd.Retreat("manassas_junction"), "5.2.5")


@pytest.mark.rule("5.2.5")
def test_no_retreat_without_a_legal_box():
    # Front Royal's neighbours: Harpers Ferry (the attackers' entry box) and four boxes holding Union units;
    # two Confederates share Staunton with a Union MF (a battle of its own), so one may reinforce
    game = make_game([("union", "MF", "harpers_ferry"), ("union", "MF", "franklin"), ("union", "MF", "grafton"),
                      ("union", "MF", "manassas_junction"), ("union", "MF", "staunton"),
                      ("confederate", "MF", "front_royal"), ("confederate", "MF", "staunton", 2)])
    assert ahd.default_board().neighbours("front_royal") == {
        "harpers_ferry", "franklin", "grafton", "manassas_junction", "staunton"}
    march(game, "harpers_ferry", mv("U-MF-01", "harpers_ferry", "road", "front_royal"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    game.apply(ahd.ChooseBattle("front_royal"))
    to_moment(game, 2, C)
    assert game.decision == "battle_options"
    assert not any(isinstance(a, ahd.Retreat) for a in game.legal_actions())
    assert ahd.Reinforce("C-MF-02") in game.legal_actions()
    for box in ("harpers_ferry", "staunton", "franklin"):
        assert_refused(game, ahd.Retreat(box), "5.2.5")


# =========================================================================== C-1
@pytest.mark.rule("C-1")
@pytest.mark.rule("5.2.5")
def test_c1_no_retreat_into_the_box_enemy_reinforcements_came_from():
    game = make_game([("union", "FV", "humboldt"), ("union", "MF", "evansville"),
                      ("confederate", "MF", "paducah")], control={"union": ["forts_henry_donelson"]})
    march(game, "humboldt", mv("U-FV-01", "humboldt", "rail", "paducah"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    to_moment(game, 2, C)
    # Evansville still holds the Union MF: barred by 5.2.5 (a)
    assert_refused(game, ahd.Retreat("evansville"), "5.2.5")
    game.apply(ahd.OpenFire())
    miss_until(game, lambda g: moment(g, 2, U))
    game.apply(ahd.Reinforce("U-MF-01"))
    assert not game.units_in("evansville")             # empty now: only C-1 bars it
    to_moment(game, 3, C)
    assert_refused(game, ahd.Retreat("evansville"), "C-1")
    assert {a.to for a in game.legal_actions() if isinstance(a, ahd.Retreat)} == {"forts_henry_donelson"}


@pytest.mark.rule("C-1")
@pytest.mark.rule("5.2.5")
def test_c1_bars_the_enemy_reinforcement_origin_only():
    # a Confederate MF reinforces Paducah from Forts Henry & Donelson in round 2: the Union may not retreat
    # there, but the Confederacy itself may (its own reinforcements' origin is not barred)
    game = make_game([("union", "FV", "humboldt"), ("confederate", "MF", "paducah"),
                      ("confederate", "MF", "forts_henry_donelson")])
    march(game, "humboldt", mv("U-FV-01", "humboldt", "rail", "paducah"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    to_moment(game, 2, C)
    game.apply(ahd.Reinforce("C-MF-02"))
    assert not game.units_in("forts_henry_donelson")
    miss_until(game, lambda g: moment(g, 2, U))
    assert ahd.Retreat("humboldt") in game.legal_actions()
    assert_refused(game, ahd.Retreat("forts_henry_donelson"), "C-1")
    game.apply(ahd.OpenFire())
    to_moment(game, 3, C)
    assert ahd.Retreat("forts_henry_donelson") in game.legal_actions()
    game.apply(ahd.Retreat("forts_henry_donelson"))
    assert ids_at(game, "forts_henry_donelson") == ["C-MF-01", "C-MF-02"] and game.battle.winner is U


# =========================================================================== 5.2.6 cavalry retreat
@pytest.mark.rule("5.2.6")
def test_cavalry_retreat_has_no_friendly_preference():
    game = paducah("humboldt", attacker="MF", defender="CV")
    assert game.decision == "cavalry_retreat"
    boxes = {a.to for a in game.legal_actions() if isinstance(a, ahd.CavalryRetreat)}
    assert boxes == {"evansville", "forts_henry_donelson"}     # Cairo: enemy RC; Humboldt: entry box
    game.apply(ahd.CavalryRetreat("evansville"))                # not friendly, though one is
    assert ids_at(game, "evansville") == ["C-CV-01"] and ids_at(game, "paducah") == ["U-MF-01"]


@pytest.mark.rule("5.2.6")
def test_cavalry_retreat_box_must_meet_5_2_5():
    game = paducah("humboldt", attacker="MF", defender="CV")
    assert_refused_as_one_of(game, ahd.CavalryRetreat("cairo"), ("5.2.6", "5.2.5"))     # enemy RC
    assert_refused_as_one_of(game, ahd.CavalryRetreat("humboldt"), ("5.2.6", "5.2.5"))  # entry box


@pytest.mark.rule("5.2.6")
def test_no_cavalry_retreat_against_cavalry_only_or_with_infantry_defending():
    game = make_game([("union", "CV", "franklin"), ("confederate", "CV", "staunton")])
    march(game, "franklin", mv("U-CV-01", "franklin", "road", "staunton"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    assert game.decision != "cavalry_retreat" and game.battle.round == 1
    assert_refused_as_one_of(game, ahd.CavalryRetreat("front_royal"), ("5.2.6", "3.a"))
    game2 = make_game([("union", "MF", "franklin"), ("confederate", "CV", "staunton"),
                       ("confederate", "MF", "staunton")])
    march(game2, "franklin", mv("U-MF-01", "franklin", "road", "staunton"))
    if game2.decision == "movement":
        game2.apply(ahd.EndMovement())
    assert game2.decision != "cavalry_retreat" and game2.battle.round == 1
    assert_refused_as_one_of(game2, ahd.CavalryRetreat("front_royal"), ("5.2.6", "3.a"))


# =========================================================================== 5.2.7 recovery
@pytest.mark.rule("5.2.7")
def test_no_recovery_before_the_end_of_the_combat_segment():
    game = little_rock(extra=[("union", "MF", "harpers_ferry"), ("confederate", "MF", "front_royal")],
                       end_movement=False)
    march(game, "harpers_ferry", mv("U-MF-03", "harpers_ferry", "road", "front_royal"))
    assert game.decision == "choose_battle"
    game.apply(ahd.ChooseBattle("little_rock"))
    e3_round_one(game)
    game.apply(ahd.Retreat("camden"))
    game.apply(ahd.NoPromotion())
    # battle 2 in progress: the reduced units of battle 1 are still reduced
    assert game.battle.box == "front_royal"
    reduced = {u.id for u in game.state.units.values() if u.on_map and u.strength == "reduced"}
    assert reduced == {"C-MF-01", "C-MF-02", "U-FS-01"}
    pass_until(game, lambda g: g.phase != "combat", roll=1)
    assert not any(u.strength == "reduced" for u in game.state.units.values() if u.on_map)


# =========================================================================== H-1
def washington_defence(options=None) -> ahd.Game:
    """Confederate half: 2 MF attack Washington (Union fort) from Manassas Junction; a Union MF in
    Baltimore reinforces Washington in round 2. Returns at the Confederate targets of round 2."""
    game = make_game([("union", "MF", "washington"), ("union", "MF", "baltimore"),
                      ("confederate", "MF", "manassas_junction", 2)], options=options)
    to_confederate_movement(game, roll=6)
    march(game, "manassas_junction", mv("C-MF-01", "manassas_junction", "rail", "washington"),
          mv("C-MF-02", "manassas_junction", "rail", "washington"))
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    assert game.battle.box == "washington" and game.battle.defender is U
    assert game.is_entrenched("U-MF-01")                     # own fort (4.2.5 d)
    to_moment(game, 2, U)
    game.apply(ahd.Reinforce("U-MF-02"))
    miss_until(game, lambda g: moment(g, 2, C))
    if game.decision == "battle_options":
        game.apply(ahd.OpenFire())
    game.apply(ahd.Volley((("C-MF-01", "U-MF-02"), ("C-MF-02", "U-MF-01"))))
    return game


@pytest.mark.rule("H-1")
@pytest.mark.rule("5.2.4")
def test_h1_reinforcement_into_own_fort_is_not_entrenched():
    game = washington_defence()
    roll(game, 6, needs=2)          # at the reinforcement: MF 2, no −1
    roll(game, 6, needs=1)          # at the fort's original defender: still −1


@pytest.mark.rule("H-1")
@pytest.mark.rule("5.2.4")
@pytest.mark.rule("4.2.5")
def test_without_h1_reinforcement_into_own_fort_is_entrenched():
    game = washington_defence({"H-1": False})
    assert "H-1" not in game.options
    roll(game, 6, needs=1)          # at the reinforcement: entrenched by the fort
    roll(game, 6, needs=1)


# =========================================================================== H-2
def lone_veteran_attack(monkeypatch, options=None) -> ahd.Game:
    """Union FV attacks a lone Confederate MF; the FV's value is raised to 6 (as leader points would,
    AO-8.2.2 — no basic-game shot reaches 6). Returns after the MF's round-1 shot (a miss)."""
    game = make_game([("union", "FV", "harpers_ferry"), ("confederate", "MF", "front_royal")], options=options)
    fv = game.unit("U-FV-01")
    monkeypatch.setattr(fv, "type", dataclasses.replace(fv.type, value=6))
    march(game, "harpers_ferry", mv("U-FV-01", "harpers_ferry", "road", "front_royal"))
    roll(game, 6, needs=2)          # the MF misses
    return game


@pytest.mark.rule("H-2")
@pytest.mark.rule("5.2.a")
def test_h2_natural_six_misses_even_at_value_six(monkeypatch):
    game = lone_veteran_attack(monkeypatch)
    assert "H-2" in game.options and game.battle.firing is U
    roll(game, 6, needs=6)
    assert unit(game, "C-MF-01").strength == "full"
    assert any("a 6 always misses (H-2)" in str(e) for e in game.log)
    assert not combat.is_hit(game.state, 7, 6) and combat.is_hit(game.state, 7, 5)


@pytest.mark.rule("H-2")
@pytest.mark.rule("5.2.a")
def test_without_h2_value_six_hits_without_a_roll(monkeypatch):
    game = lone_veteran_attack(monkeypatch, {"H-2": False})
    assert "H-2" not in game.options
    # the FV's shot was not rolled: it hit at once, and the MF fires again in round 2
    assert game.battle.round == 2 and game.battle.firing is C
    assert unit(game, "C-MF-01").strength == "reduced"
    assert any("U-FV-01" in str(e) and "cannot miss" in str(e) for e in game.log)
    assert combat.is_hit(game.state, 6, 6) and not combat.hit_roll_needed(game.state, 6)
