"""Battles, rule section 5 with H-1, H-2 and C-1, and the worked examples E-3, E-5 and E-6.

Most positions put a battle at Lexington (neutral Kentucky): the Union attacks from Cincinnati by rail;
Lexington's other neighbours are Louisville, Lebanon and London. Dice are typed in (manual).
"""
from __future__ import annotations

import re

import pytest

import ahd
from ahd.core import battle_moves, combat
from ahd.core.sides import CHANCE, Side

from conftest import assert_refused, ids_at, make_game, march, pass_until

U, C = Side.UNION, Side.CONFEDERATE


def attack(units, mover_box, target, lines, options=None, **kw):
    """A game in which the Union marches every unit of ``mover_box`` into ``target`` and ends its
    movement: the battle (or a choice before it) is the current decision."""
    game = make_game(units, options=options, **kw)
    moves = [ahd.Move(uid, (mover_box, target), lines) for uid in ids_at(game, mover_box, U)]
    march(game, mover_box, *moves)
    if game.decision == "movement":
        game.apply(ahd.EndMovement())
    return game


def value_of_next_shot(game) -> int:
    assert game.current_player == CHANCE and game.decision == "shot", game.decision
    return int(re.search(r"hits on (-?\d+) or less", game.pending_roll).group(1))


def rolls(game, *values):
    for value in values:
        assert game.current_player == CHANCE, game.decision
        game.apply(ahd.Roll(value))


def fire_misses(game):
    """The firing side declares by default and every roll of its moment misses (a 6, H-2)."""
    side, round_ = game.battle.firing, game.battle.round
    if game.decision == "battle_options":
        game.apply(ahd.OpenFire())
    if game.decision == "targets":
        game.apply(ahd.FireAuto())
    while game.decision == "shot" and game.battle.firing is side and game.battle.round == round_:
        game.apply(ahd.Roll(6))


def resolve(game, winner):
    """Play the battle in progress to its end: ``winner``'s shots all hit, the other side's all miss."""
    box = game.battle.box
    while game.battle is not None and game.battle.box == box:
        if game.decision == "shot":
            game.apply(ahd.Roll(1 if game.battle.firing is winner else 6))
        elif game.decision == "battle_options":
            game.apply(ahd.OpenFire())
        elif game.decision == "targets":
            game.apply(ahd.FireAuto())
        elif game.decision == "battle_promotion":
            game.apply(ahd.NoPromotion())
        else:
            break


def to_round_two(game):
    """Both sides miss everything in round 1."""
    fire_misses(game)
    fire_misses(game)
    assert game.battle.round == 2


# --------------------------------------------------------------------------- E-3 (5.1, 5.2.2)
def little_rock():
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2)])
    moves = [ahd.Move(uid, ("fort_smith", "little_rock"), ("river",)) for uid in ("U-MF-01", "U-MF-02", "U-FS-01")]
    march(game, "fort_smith", *moves)  # nothing else can move: the movement ends by itself
    assert game.battle.box == "little_rock" and game.current_player is C and game.decision == "targets"
    return game


@pytest.mark.rule("5.1.a")
@pytest.mark.rule("5.1.b")
@pytest.mark.rule("5.2.2")
@pytest.mark.rule("5.b")
def test_e3_little_rock_round_one():
    game = little_rock()
    a, b, c, d, e = "U-MF-01", "U-MF-02", "U-FS-01", "C-MF-01", "C-MF-02"
    assert not game.board.enters_over_water("little_rock", "fort_smith")  # no river bonus
    game.apply(ahd.Volley(((d, a), (e, c))))
    assert value_of_next_shot(game) == 2
    rolls(game, 4)                       # D misses
    assert value_of_next_shot(game) == 1  # 2 − 1 against crack infantry
    rolls(game, 1)                       # C reduced
    assert game.unit(c).strength == "reduced"
    assert game.current_player is U and game.decision == "targets"
    game.apply(ahd.Volley(((a, d), (b, d), (c, e))))
    rolls(game, 5)                       # A misses
    rolls(game, 1)                       # B: D reduced
    assert value_of_next_shot(game) == 3  # C, reduced, keeps its value 3
    rolls(game, 2)                       # E reduced
    assert [game.unit(x).strength for x in (a, b, c, d, e)] == ["full", "full", "reduced", "reduced", "reduced"]
    assert game.battle.round == 2


@pytest.mark.rule("5.1.a")
def test_e3_negative_union_all_at_d():
    game = little_rock()
    fire_misses(game)
    game.apply(ahd.Target("U-MF-01", "C-MF-01"))
    game.apply(ahd.Target("U-MF-02", "C-MF-01"))
    assert_refused(game, ahd.Target("U-FS-01", "C-MF-01"), "5.1.a")
    game.apply(ahd.Target("U-FS-01", "C-MF-02"))


@pytest.mark.rule("5.1.a")
def test_e3_negative_confederates_both_at_a():
    game = little_rock()
    game.apply(ahd.Target("C-MF-01", "U-MF-01"))
    assert_refused(game, ahd.Target("C-MF-02", "U-MF-01"), "5.1.a")
    assert_refused(game, ahd.Volley((("C-MF-01", "U-MF-01"), ("C-MF-02", "U-MF-01"))), "5.1.a")


# --------------------------------------------------------------------------- E-5 (5.1.b)
@pytest.mark.rule("5.1.b")
@pytest.mark.rule("5.1.c")
def test_e5_lost_shot():
    game = attack([("union", "MF", "cincinnati", 3), ("confederate", "FV", "lexington")], "cincinnati",
                  "lexington", ("rail",))
    fire_misses(game)                  # the defender's one shot misses
    assert game.decision == "shot"     # one enemy: the targets were declared automatically
    rolls(game, 1)
    assert game.unit("C-FV-01").strength == "reduced"
    rolls(game, 1)                     # eliminated
    assert game.current_player != CHANCE  # the third shot is lost: no roll for it
    assert any("shot is lost" in str(e) and "(5.1.b)" in str(e) for e in game.log)
    assert game.unit("C-FV-01").location == "@out"  # a veteran leaves the game (5.d)


# --------------------------------------------------------------------------- E-6 (5.2)
def modifier_battle(attacker, defender, defender_entrenched=False, crossing=True):
    """Union ``attacker`` enters Fredericksburg from Washington over the Potomac (a blue side) or,
    with crossing False, from Manassas Junction after taking it... simpler: from Richmond (rail)."""
    origin, lines = ("washington", ("river",)) if crossing else ("richmond", ("rail",))
    units = [("union", attacker, origin), ("confederate", defender, "fredericksburg", 1, defender_entrenched)]
    return attack(units, origin, "fredericksburg", lines)


def values(game):
    state, battle = game.state, game.battle
    attacker = state.units_in(battle.box, U)[0]
    defender = state.units_in(battle.box, C)[0]
    return (combat.effective_value(state, battle, attacker, defender),
            combat.effective_value(state, battle, defender, attacker))


@pytest.mark.rule("5.2.a")
@pytest.mark.rule("5.2.1")
@pytest.mark.rule("5.2.2")
@pytest.mark.rule("5.2.3")
@pytest.mark.parametrize("attacker, defender, entrenched, crossing, attack_value, defence_value", [
    ("CV", "MF", False, False, 2, 2),   # veteran cavalry, open target: 1–2
    ("FV", "MF", True, False, 2, 2),    # veteran infantry vs entrenched: 2
    ("MC", "MF", True, False, 0, 2),    # militia cavalry vs entrenched: cannot hit
    ("MF", "FV", False, True, 2, 4),    # veteran infantry vs crossing attacker, rounds 1–2: 4
    ("FS", "FV", False, True, 3, 3),    # crossing crack infantry: base value (3 + 1 − 1)
    ("MF", "FS", True, False, 0, 3),    # MF vs entrenched crack: cannot hit
    ("MC", "FS", True, False, -1, 3),   # MC vs entrenched crack: cannot hit
    ("CV", "FS", True, False, 0, 3),    # CV vs entrenched crack: cannot hit
    ("FV", "FS", True, False, 1, 3),    # FV vs entrenched crack: 1
])
def test_e6_modifiers(attacker, defender, entrenched, crossing, attack_value, defence_value):
    game = modifier_battle(attacker, defender, entrenched, crossing)
    assert values(game) == (attack_value, defence_value)


@pytest.mark.rule("5.2.3")
def test_e6_crossing_bonus_ends_after_round_two():
    game = modifier_battle("MF", "FV", crossing=True)
    assert values(game)[1] == 4
    to_round_two(game)
    assert values(game)[1] == 4
    fire_misses(game)
    fire_misses(game)
    assert game.battle.round == 3 and values(game)[1] == 3


@pytest.mark.rule("5.2.a")
def test_shots_that_cannot_hit_are_not_rolled():
    game = modifier_battle("MC", "FS", defender_entrenched=True, crossing=False)
    fire_misses(game)  # the defender fires (and misses)
    assert game.current_player is not CHANCE  # the militia cavalry's shot needed no roll
    assert any("cannot hit (5.2.a)" in str(e) for e in game.log)


# --------------------------------------------------------------------------- 5.a battle trigger and order
@pytest.mark.rule("5.a")
def test_battles_at_the_end_of_movement_in_the_attackers_order():
    units = [("union", "MF", "cincinnati", 2), ("union", "MF", "chicago"), ("confederate", "MF", "lexington"),
             ("confederate", "MF", "louisville")]
    game = make_game(units)
    march(game, "cincinnati", ahd.Move("U-MF-01", ("cincinnati", "lexington"), ("rail",)),
          ahd.Move("U-MF-02", ("cincinnati", "louisville"), ("river",)))
    assert game.decision == "movement" and game.battle is None  # no battle while marches remain
    game.apply(ahd.EndMovement())
    assert game.decision == "choose_battle" and game.current_player is U
    assert set(game.legal_actions()) == {ahd.ChooseBattle("lexington"), ahd.ChooseBattle("louisville")}
    assert_refused(game, ahd.ChooseBattle("cincinnati"), "5.a")
    game.apply(ahd.ChooseBattle("louisville"))
    assert game.battle.box == "louisville" and game.battle.attacker is U and game.battle.defender is C


@pytest.mark.rule("5.a")
def test_no_battle_without_both_sides():
    game = make_game([("union", "MF", "cincinnati"), ("confederate", "MF", "london")])
    march(game, "cincinnati", ahd.Move("U-MF-01", ("cincinnati", "lexington"), ("rail",)))
    game.apply(ahd.EndMovement())
    assert game.battle is None and game.phase != "combat"


# --------------------------------------------------------------------------- 5.b rounds
@pytest.mark.rule("5.b")
def test_defender_fires_first_and_options_only_from_round_two():
    game = attack([("union", "MF", "cincinnati", 2), ("confederate", "MF", "lexington", 2)], "cincinnati",
                  "lexington", ("rail",))
    assert game.current_player is C and game.decision == "targets" and game.battle.round == 1
    assert_refused(game, ahd.Retreat("london"), "3.a")  # no retreat in round 1
    to_round_two(game)
    assert game.decision == "battle_options" and game.current_player is C
    assert ahd.Retreat("london") in game.legal_actions()


# --------------------------------------------------------------------------- 5.c results, 5.d
@pytest.mark.rule("5.c")
@pytest.mark.rule("5.d")
def test_elimination_wins_and_militia_returns_to_the_pool():
    game = attack([("union", "FV", "cincinnati", 2), ("confederate", "MF", "lexington")], "cincinnati",
                  "lexington", ("rail",))
    fire_misses(game)
    rolls(game, 1, 1)
    assert game.unit("C-MF-01").location == "@pool"
    assert game.decision == "battle_promotion" and game.current_player is U
    assert any("Union side wins the battle at Lexington" in str(e) for e in game.log)


@pytest.mark.rule("5.c")
def test_defender_can_win_and_attackers_are_eliminated():
    game = attack([("union", "MF", "cincinnati"), ("confederate", "FV", "lexington")], "cincinnati",
                  "lexington", ("rail",))
    rolls(game, 1)          # the defender reduces the attacker
    fire_misses(game)       # the attacker misses
    game.apply(ahd.OpenFire())  # round 2: the defender neither retreats nor reinforces
    rolls(game, 1)          # eliminated
    assert game.unit("U-MF-01").location == "@pool"
    assert game.decision == "battle_promotion" and game.current_player is C


@pytest.mark.rule("5.c")
@pytest.mark.rule("5.2.5")
def test_retreat_loses_the_battle():
    game = attack([("union", "MF", "cincinnati", 2), ("confederate", "MF", "lexington", 2)], "cincinnati",
                  "lexington", ("rail",))
    to_round_two(game)
    game.apply(ahd.Retreat("london"))
    assert ids_at(game, "london", C) == ["C-MF-01", "C-MF-02"]
    assert all(game.unit(u).retreated for u in ("C-MF-01", "C-MF-02"))
    assert game.decision == "battle_promotion" and game.current_player is U


# --------------------------------------------------------------------------- 5.2.5 retreat
@pytest.mark.rule("5.2.5")
def test_retreat_barriers():
    units = [("union", "MF", "cincinnati", 2), ("union", "MF", "lebanon"), ("confederate", "MF", "lexington", 2)]
    game = attack(units, "cincinnati", "lexington", ("rail",))
    to_round_two(game)
    assert_refused(game, ahd.Retreat("lebanon"), "5.2.5")      # (a) enemy units there
    assert_refused(game, ahd.Retreat("cincinnati"), "5.2.5")   # (a)/(c) the attackers came from there
    assert_refused(game, ahd.Retreat("richmond"), "5.2.5")     # not adjacent
    retreats = {a.to for a in game.legal_actions() if isinstance(a, ahd.Retreat)}
    assert retreats == {"london", "louisville"}


@pytest.mark.rule("5.2.5")
def test_retreat_not_into_an_enemy_recruiting_city_and_friendly_first():
    # Louisville (a Union city: blue 1) held by the Union is barred (b); London held by the
    # Confederacy must be chosen over neutral boxes.
    units = [("union", "MF", "cincinnati", 2), ("confederate", "MF", "lexington", 2)]
    game = attack(units, "cincinnati", "lexington", ("rail",), control={"union": ["louisville"],
                                                                       "confederate": ["london"]})
    to_round_two(game)
    assert_refused(game, ahd.Retreat("louisville"), "5.2.5")
    error = assert_refused(game, ahd.Retreat("lebanon"), "5.2.5")
    assert "friendly" in str(error)
    assert {a.to for a in game.legal_actions() if isinstance(a, ahd.Retreat)} == {"london"}


@pytest.mark.rule("5.2.5")
def test_no_retreat_when_no_box_is_legal():
    # Pensacola's only neighbour is Mobile: a Confederate recruiting city and the attackers' entry box
    game = make_game([("union", "MF", "pensacola"), ("confederate", "FV", "mobile", 2)])
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    march(game, "mobile", *[ahd.Move(u, ("mobile", "pensacola"), ("road",)) for u in ("C-FV-01", "C-FV-02")])
    to_round_two(game)
    assert game.decision == "targets"  # the Union has nothing but to fire
    assert_refused(game, ahd.Retreat("mobile"), "3.a")


# --------------------------------------------------------------------------- 5.2.4 reinforcements
def lexington_round_two(units, **kw):
    game = attack(units, "cincinnati", "lexington", ("rail",), **kw)
    to_round_two(game)
    return game


@pytest.mark.rule("5.2.4")
def test_reinforcement_from_an_adjacent_box_fires_at_once():
    game = lexington_round_two([("union", "MF", "cincinnati"), ("confederate", "MF", "lexington"),
                                ("confederate", "FV", "london", 1, True), ("confederate", "FV", "lebanon")])
    assert game.current_player is C and game.decision == "battle_options"
    game.apply(ahd.Reinforce("C-FV-01"))
    assert game.unit("C-FV-01").location == "lexington" and not game.unit("C-FV-01").entrenched
    assert_refused(game, ahd.Retreat("louisville"), "5.2.5")  # no retreat after reinforcing
    game.apply(ahd.Reinforce("C-FV-02"))  # one per adjacent box: another box may send one too
    game.apply(ahd.FireAuto()) if game.decision == "targets" else None
    assert game.decision == "shot"
    shooters = {s for s, _ in game.battle.targets}
    assert {"C-FV-01", "C-FV-02"} <= shooters


@pytest.mark.rule("5.2.4")
def test_one_reinforcement_per_adjacent_box_and_not_in_round_one():
    game = attack([("union", "MF", "cincinnati"), ("confederate", "MF", "lexington"),
                   ("confederate", "FV", "london", 2)], "cincinnati", "lexington", ("rail",))
    assert_refused(game, ahd.Reinforce("C-FV-01"), "3.a")  # round 1: no options at all
    to_round_two(game)
    game.apply(ahd.Reinforce("C-FV-01"))
    assert ahd.Reinforce("C-FV-02") not in game.legal_actions()
    assert_refused(game, ahd.Reinforce("C-FV-02"), "3.a")  # no other box could send: straight to targets


@pytest.mark.rule("5.2.4")
def test_reinforcement_barriers_attacker():
    # (b) the attacker may not bring units from a box holding enemy units, nor units that fought
    units = [("union", "MF", "cincinnati", 2), ("union", "FV", "chicago"),
             ("confederate", "MF", "lexington", 2), ("confederate", "MF", "louisville")]
    game = make_game(units, marches=3)
    march(game, "cincinnati", ahd.Move("U-MF-01", ("cincinnati", "lexington"), ("rail",)),
          ahd.Move("U-MF-02", ("cincinnati", "louisville"), ("river",)))
    game.apply(ahd.EndMovement())
    game.apply(ahd.ChooseBattle("lexington"))
    to_round_two(game)
    fire_misses(game)  # the defender's moment of round 2
    assert game.current_player is U and game.battle.box == "lexington"
    # Louisville holds Confederate units: the attacker may not reinforce from there
    error = battle_moves.reinforcement_barrier(game.state, game.battle, "U-MF-02")
    assert error.rule == "5.2.4" and "holds enemy units" in str(error)
    assert ahd.Reinforce("U-MF-02") not in game.legal_actions()
    # the Lexington battle is won; its units took part, so they may not reinforce at Louisville
    resolve(game, U)
    assert game.battle.box == "louisville"
    to_round_two(game)
    fire_misses(game)
    assert game.current_player is U
    error = battle_moves.reinforcement_barrier(game.state, game.battle, "U-MF-01")
    assert error.rule == "5.2.4" and "another battle" in str(error)


@pytest.mark.rule("5.2.4")
def test_defender_reinforcement_must_leave_enough_behind():
    # (c) the defender may take from a box holding enemy units only leaving as many as the enemy has
    units = [("union", "MF", "cincinnati"), ("union", "MF", "louisville"), ("confederate", "MF", "lexington"),
             ("confederate", "FV", "louisville")]
    game = make_game(units)
    march(game, "cincinnati", ahd.Move("U-MF-01", ("cincinnati", "lexington"), ("rail",)))
    game.apply(ahd.EndMovement())
    game.apply(ahd.ChooseBattle("lexington"))  # Louisville, holding both sides, is a battle too
    to_round_two(game)
    assert game.current_player is C
    error = battle_moves.reinforcement_barrier(game.state, game.battle, "C-FV-01")
    assert error.rule == "5.2.4" and "fewer units than the enemy" in str(error)
    assert ahd.Reinforce("C-FV-01") not in game.legal_actions()


@pytest.mark.rule("5.2.4")
def test_units_that_retreated_this_turn_may_not_reinforce():
    units = [("union", "MF", "cincinnati", 2), ("union", "MF", "dayton", 2),
             ("confederate", "MF", "lexington"), ("confederate", "MF", "london", 2)]
    game = make_game(units, marches=3)
    march(game, "cincinnati", *[ahd.Move(u, ("cincinnati", "lexington"), ("rail",)) for u in ("U-MF-01", "U-MF-02")])
    march(game, "dayton", *[ahd.Move(u, ("dayton", "cincinnati"), ("rail",)) for u in ("U-MF-03", "U-MF-04")])
    game.apply(ahd.EndMovement())
    to_round_two(game)
    assert ahd.Reinforce("C-MF-02") in game.legal_actions()
    game.apply(ahd.Retreat("london"))  # the lone defender retreats: the battle is lost
    assert game.unit("C-MF-01").retreated
    error = battle_moves.reinforcement_barrier(game.state, ahd.core.state.Battle("lexington", U, C, round=2, firing=C), "C-MF-01")
    assert error is not None and error.rule == "5.2.4" and "retreated" in str(error)


@pytest.mark.rule("5.2.4")
@pytest.mark.rule("4.2.6")
def test_confederates_never_reinforce_across_the_potomac():
    game = make_game([("union", "MF", "baltimore"), ("confederate", "MF", "washington"),
                      ("confederate", "FV", "fredericksburg")], control={"confederate": ["washington"]})
    march(game, "baltimore", ahd.Move("U-MF-01", ("baltimore", "washington"), ("rail",)))
    to_round_two(game)
    assert game.current_player is C
    assert_refused(game, ahd.Reinforce("C-FV-01"), "4.2.6")


# --------------------------------------------------------------------------- H-1 and C-1
def fort_reinforcement(options):
    """The Confederacy attacks Washington; the Union reinforces from Baltimore in round 2."""
    game = make_game([("union", "MF", "washington"), ("union", "FV", "baltimore"),
                      ("confederate", "FV", "manassas_junction", 2)], options=options)
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    march(game, "manassas_junction",
          *[ahd.Move(u, ("manassas_junction", "washington"), ("rail",)) for u in ("C-FV-01", "C-FV-02")])
    to_round_two(game)
    assert game.current_player is U and game.decision == "battle_options"
    game.apply(ahd.Reinforce("U-FV-01"))
    state, battle = game.state, game.battle
    shooter = state.units["C-FV-01"]
    return (combat.effective_value(state, battle, shooter, state.units["U-FV-01"]),
            combat.effective_value(state, battle, shooter, state.units["U-MF-01"]))


@pytest.mark.rule("H-1")
def test_h1_reinforcements_are_not_entrenched_even_in_their_own_fort():
    assert fort_reinforcement(None) == (3, 2)          # the reinforcement is hit on 3, the garrison on 2
    assert fort_reinforcement({"H-1": False}) == (2, 2)  # without H-1 the fort entrenches it too


@pytest.mark.rule("C-1")
def test_no_retreat_into_the_box_enemy_reinforcements_came_from():
    units = [("union", "MF", "cincinnati"), ("union", "FV", "lebanon"),
             ("confederate", "MF", "lexington", 2)]
    game = lexington_round_two(units)
    fire_misses(game)                      # the defender's moment of round 2 (no retreat yet)
    assert game.current_player is U
    game.apply(ahd.Reinforce("U-FV-01"))
    assert game.unit("U-FV-01").location == "lexington"
    fire_misses(game)                      # round 3: the defender may retreat
    assert game.battle.round == 3 and game.current_player is C
    assert not game.units_in("lebanon")    # Lebanon is empty now, but the reinforcement came from there
    assert_refused(game, ahd.Retreat("lebanon"), "C-1")
    assert ahd.Retreat("london") in game.legal_actions()


# --------------------------------------------------------------------------- 5.2.6, 5.2.7
@pytest.mark.rule("5.2.6")
def test_cavalry_retreat_before_round_one_gives_no_winner():
    game = attack([("union", "MF", "cincinnati"), ("confederate", "CV", "lexington")], "cincinnati",
                  "lexington", ("rail",))
    assert game.decision == "cavalry_retreat" and game.current_player is C
    assert_refused(game, ahd.CavalryRetreat("cincinnati"), "5.2.5")  # where the attackers came from
    game.apply(ahd.CavalryRetreat("london"))
    assert ids_at(game, "london", C) == ["C-CV-01"]
    assert game.decision != "battle_promotion"  # no winner, no promotion
    assert ids_at(game, "lexington", U) == ["U-MF-01"]


@pytest.mark.rule("5.2.6")
def test_no_cavalry_retreat_against_cavalry_only():
    game = attack([("union", "CV", "cincinnati"), ("confederate", "CV", "lexington")], "cincinnati",
                  "lexington", ("rail",))
    assert game.decision == "shot" and game.battle.firing is C  # straight to the defender's fire


@pytest.mark.rule("5.2.7")
def test_recovery_at_the_end_of_combat():
    game = attack([("union", "FV", "cincinnati", 2), ("confederate", "FV", "lexington")], "cincinnati",
                  "lexington", ("rail",))
    game.apply(ahd.FireAuto())
    rolls(game, 1)  # the defender reduces a Union veteran
    reduced = [u.id for u in game.units_in("lexington", U) if u.strength == "reduced"]
    assert reduced
    rolls(game, 1, 1)  # the defender is eliminated
    assert game.unit(reduced[0]).strength == "reduced"  # still reduced at the battle's end
    game.apply(ahd.NoPromotion())
    assert game.unit(reduced[0]).strength == "full"
    assert any("reduced unit recovers to full strength (5.2.7)" in str(e) for e in game.log)  # one unit


@pytest.mark.rule("5.2.7")
def test_no_recovery_during_combat():
    game = attack([("union", "FV", "cincinnati"), ("confederate", "FV", "lexington", 2)], "cincinnati",
                  "lexington", ("rail",))
    fire_misses(game)
    game.apply(ahd.FireAuto())
    rolls(game, 1)  # a defender reduced
    assert game.phase == "combat"
    assert any(u.strength == "reduced" for u in game.units_in("lexington", C))


@pytest.mark.rule("5.1.c")
def test_reduced_units_keep_their_value():
    game = attack([("union", "FV", "cincinnati"), ("confederate", "MF", "lexington")], "cincinnati",
                  "lexington", ("rail",))
    rolls(game, 1)
    assert game.unit("U-FV-01").strength == "reduced"
    assert value_of_next_shot(game) == 3


@pytest.mark.rule("H-2")
def test_h2_a_natural_six_always_misses():
    on = make_game([("union", "MF", "chicago")]).state
    off = make_game([("union", "MF", "chicago")], options={"H-2": False}).state
    # no basic shot reaches value 6 (3 + 1 crossing at most), so the rule shows at the rule function
    assert not combat.is_hit(on, 6, 6) and combat.is_hit(off, 6, 6)
    assert combat.is_hit(on, 6, 5) and combat.is_hit(on, 7, 1)
    assert combat.hit_roll_needed(on, 6) and not combat.hit_roll_needed(off, 6)
    assert not combat.is_hit(on, 4, 6) and not combat.is_hit(off, 4, 6)  # below 6 a 6 misses anyway
