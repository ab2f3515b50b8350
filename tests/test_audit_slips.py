"""Rules slips found by the independent audit of issue 18, each reproduced with typed-in dice.

1. A-5 / 9.b / 5.2.6: a coastal defence is not a unit (0.5).
2., 3. AO-8.2.1: a leader follows only units of his box as they move, never by cavalry jump.
4. 5.b / AO-8.2.1: no retreat after a leader reinforces alone.
5. A-4 (a): a port lost by a 9.b reversion is no longer "captured by naval invasion".
6. 11.c / 9.b / 9.d: a 9.b reversion is a control change, followed by the victory checks.
7. A-2.2: the corrected supply test (two RCs joined only through a box outside G).
8. Undo gives back the legal actions in the same order.
"""
from __future__ import annotations

import pytest

import ahd
from ahd.core import advanced
from ahd.core.sides import CHANCE, Side

from conftest import assert_refused, make_game, march, pass_until

U, C = Side.UNION, Side.CONFEDERATE
BASIC = ["H-1", "H-2", "H-3"]


def with_rules(*rules):
    return BASIC + list(rules)


def rolls(game, *values):
    for value in values:
        assert game.current_player == CHANCE, game.decision
        game.apply(ahd.Roll(value))



def reinforce_from_the_raid(game, box):
    """Both sides miss every shot until the Union may reinforce (5.2.4, round 2); then the cavalry comes."""
    for _ in range(20):
        options = game.legal_actions()
        reinforce = [a for a in options if a.kind == "reinforce"]
        if reinforce:
            game.apply(reinforce[0])
            return
        if game.decision == "shot":
            game.apply(ahd.Roll(6))
        else:
            game.apply(next(a for a in options if a.kind not in ("retreat", "evacuate")))
    raise AssertionError(f"the Union was never offered a reinforcement from {box}")


def assert_ended_at_the_reinforcement(game, box):
    """11.c: the reinforcement, the reversion and the end are the log's last lines; the battle is gone."""
    tail = [str(event) for event in game.log[-3:]]
    assert "reinforces from" in tail[0] and box.title() in tail[0], tail
    assert tail[1].startswith(f"{box.title()} reverts to Confederate control"), tail
    assert tail[2].startswith("Game over. Confederate victory"), tail
    assert game.is_over and game.outcome.winner is C and game.outcome.rule == "11.b"
    assert game.battle is None and game.state.battles == []                 # no battle left on the map
    assert not any(u.is_coastal for u in game.state.units.values())        # nor a coastal defence
    assert game.legal_actions() == []
    again = ahd.Game.from_json(game.to_json())                              # the record ends the same way
    assert [str(e) for e in again.log] == [str(e) for e in game.log] and again.battle is None


@pytest.mark.rule("11.c")
@pytest.mark.rule("9.b")
@pytest.mark.rule("5.2.4")
def test_a_reversion_in_the_middle_of_a_battle_ends_it_before_the_next_volley():
    """The cavalry holding Chattanooga reinforces the battle next door in round 2: Chattanooga goes back,
    the Confederate maximum passes the Union's, and the game ends there (no "Round 2, Union fire")."""
    game = make_game([("union", "CV", "chattanooga"), ("union", "MF", "murfreesboro", 2),
                      ("confederate", "MF", "sparta"), ("confederate", "MF", "atlanta")],
                     control={"confederate": ["pittsburgh", "scranton"], "union": ["murfreesboro"]})
    assert (game.army_max(U), game.army_max(C)) == (28, 28) and "chattanooga" in game.state.cavalry_held
    march(game, "murfreesboro", *[ahd.Move(u.id, ("murfreesboro", "sparta"), ("road",))
                                  for u in game.units_in("murfreesboro")])
    game.apply(ahd.EndMovement())
    reinforce_from_the_raid(game, "chattanooga")
    assert_ended_at_the_reinforcement(game, "chattanooga")
    assert not any("Round 2, Union fire" in str(e) for e in game.log)


@pytest.mark.rule("11.c")
@pytest.mark.rule("A-5")
def test_an_invasion_battle_ended_by_a_reversion_leaves_no_coastal_defence():
    game = make_game([("union", "MF", "washington", 3), ("union", "CV", "montgomery"), ("confederate", "MF", "atlanta")],
                     turn=12, options=with_rules("A-5"), control={"confederate": ["pittsburgh", "scranton"]})
    assert (game.army_max(U), game.army_max(C)) == (28, 28)
    pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is U)
    game.apply(ahd.Roll(6))
    for unit in ("U-MF-01", "U-MF-02"):
        game.apply(ahd.Invade(unit, "mobile"))
    game.apply(ahd.EndMovement())
    assert any(u.is_coastal for u in game.units_in("mobile"))
    reinforce_from_the_raid(game, "montgomery")
    assert_ended_at_the_reinforcement(game, "montgomery")

# =========================================================================== 7.
#: Macon (Missouri) joins St. Joseph and Quincy, two Union cities, by rail; with St. Louis,
#: Springfield (Illinois) and Kansas City Confederate, each of the two is cut off from any other.
ISOLATED = ["macon_mo", "st_louis", "springfield_il", "kansas_city"]


@pytest.mark.rule("A-2.2")
@pytest.mark.rule("A-2.1")
def test_two_cities_joined_only_through_the_stack_s_box_do_not_supply_it():
    # the Union stack shares Macon with a Confederate unit: its box is not in G
    game = make_game([("union", "MF", "macon_mo", 2), ("confederate", "MF", "macon_mo"),
                      ("confederate", "MF", "atlanta")], options=with_rules("A-2"), control={"confederate": ISOLATED})
    assert advanced.supply_reach(game.state, "macon_mo", U) == {"macon_mo", "st_joseph", "quincy"}
    assert game.decision == "supply"            # the old "two RCs reachable" test supplied it
    assert {a.unit for a in game.legal_actions()} == {"U-MF-01", "U-MF-02"}
    # the same stack in a box that is simply not friendly (no enemy units there)
    alone = make_game([("union", "MF", "macon_mo", 2), ("confederate", "MF", "atlanta")], options=with_rules("A-2"),
                      control={"confederate": ISOLATED})
    assert alone.decision == "movement"         # occupied: Macon is Union, and St. Joseph–Macon–Quincy is in G
    alone.state.set_control("macon_mo", C)
    assert not advanced.is_supplied(alone.state, "macon_mo", U)
    assert advanced.unsupplied_stacks(alone.state, U) == ["macon_mo"]
    # reaching one city whose component holds another supplies: Quincy–St. Louis by river
    alone.state.set_control("st_louis", U)
    assert advanced.is_supplied(alone.state, "macon_mo", U)
    alone.state.set_control("st_louis", C)
    # a stack in its own city: its component must hold another city (St. Joseph alone does not)
    game = make_game([("union", "MF", "st_joseph", 2), ("confederate", "MF", "atlanta")], options=with_rules("A-2"),
                     control={"confederate": ISOLATED})
    assert game.decision == "supply"


# =========================================================================== 8. undo
@pytest.mark.parametrize("block", range(3))
def test_undo_gives_back_the_legal_actions_in_the_same_order(block):
    """Players that pick actions by index must not diverge after an undo: in seeded random games,
    every decision is applied, undone and applied again, and the legal actions (a list, in order)
    must be the same as before each time."""
    from ahd.bots import RandomBot
    compared = 0
    for seed in range(4 + block * 4, 8 + block * 4):
        game = ahd.new_game(("1861", "1862", "1863", "1864")[seed % 4],
                            options=("basic", "advanced", "everything")[seed % 3], seed=seed)
        bot = RandomBot(seed)
        for _ in range(250):
            if game.is_over:
                break
            before = game.legal_actions()
            action = bot.choose(game)
            game.apply(action)
            if game.is_over or not game.can_undo():
                continue
            after = game.legal_actions()
            game.undo()
            assert game.legal_actions() == before, (seed, game.decision)
            game.apply(action)
            assert game.legal_actions() == after, (seed, game.decision)
            compared += 1
    assert compared > 500


# =========================================================================== 2., 3. AO-8.2.1 following
LEADERS = with_rules("AO-8.2")


@pytest.mark.rule("AO-8.2.1")
@pytest.mark.rule("4.2.4")
def test_a_leader_follows_only_units_that_leave_his_box_while_he_is_there():
    """Grant at Baltimore, Sherman at Washington; a unit invades Mobile from Washington; Grant then
    moves to Washington: he cannot follow the invasion (he was not there), Sherman can."""
    game = make_game([("union", "MF", "washington", 3), ("union", "MF", "baltimore"),
                      ("confederate", "MF", "atlanta")], turn=12, options=LEADERS)
    assert game.decision == "leader_arrival"      # C-2: Grant (turn 6) and Sherman (turn 9) arrive
    game.apply(ahd.PlaceLeader("grant", "baltimore"))
    game.apply(ahd.PlaceLeader("sherman", "washington"))
    pass_until(game, lambda g: g.decision == "leader_arrival" and g.phasing is C)
    game.apply(ahd.PlaceLeader("lee", "atlanta"))
    pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is U)
    game.apply(ahd.Roll(6))
    game.apply(ahd.Invade("U-MF-01", "mobile"))
    game.apply(ahd.LeaderMove("grant", ("baltimore", "washington"), ("rail",)))
    assert game.state.leaders["grant"].location == "washington"
    error = assert_refused(game, ahd.LeaderFollow("grant", "U-MF-01"), "AO-8.2.1")
    assert "as they move" in error.reason
    assert ahd.LeaderFollow("sherman", "U-MF-01") in game.legal_actions()
    # a unit leaving Washington now is one Grant may go with
    march(game, "washington", ahd.Move("U-MF-02", ("washington", "harpers_ferry"), ("road",)))
    assert ahd.LeaderFollow("grant", "U-MF-02") in game.legal_actions()
    game.apply(ahd.LeaderFollow("sherman", "U-MF-01"))
    assert game.state.leaders["sherman"].location == "mobile"
    # Sherman went with the invasion: he no longer goes with a unit that left Washington before
    assert_refused(game, ahd.LeaderFollow("sherman", "U-MF-02"), "AO-8.2.1")


@pytest.mark.rule("AO-8.2.1")
@pytest.mark.rule("4.2.1")
def test_a_leader_never_follows_a_cavalry_jump():
    game = make_game([("union", "MF", "cincinnati"), ("confederate", "CV", "lexington"),
                      ("confederate", "MF", "lexington")], turn=12, options=LEADERS)
    game.apply(ahd.PlaceLeader("grant", "cincinnati"))
    game.apply(ahd.PlaceLeader("sherman", "cincinnati"))
    pass_until(game, lambda g: g.decision == "leader_arrival" and g.phasing is C)
    game.apply(ahd.PlaceLeader("lee", "lexington"))
    march(game, "lexington",
          ahd.Move("C-CV-01", ("lexington", "cincinnati", "dayton"), ("rail", "rail")),   # jumps Cincinnati
          ahd.Move("C-MF-01", ("lexington", "louisville"), ("rail",)))
    assert game.unit("C-CV-01").location == "dayton" and game.unit("C-CV-01").jumped
    error = assert_refused(game, ahd.LeaderFollow("lee", "C-CV-01"), "AO-8.2.1")
    assert "cavalry jump" in error.reason
    assert ahd.LeaderFollow("lee", "C-MF-01") in game.legal_actions()
    game.apply(ahd.LeaderFollow("lee", "C-MF-01"))
    assert game.state.leaders["lee"].location == "louisville"


# =========================================================================== 4. 5.b, AO-8.2.1
@pytest.mark.rule("5.b")
@pytest.mark.rule("AO-8.2.1")
@pytest.mark.rule("5.2.5")
def test_no_retreat_after_a_leader_reinforces_alone():
    """Three Confederate FV attack Cincinnati; Lee (3) waits in Louisville and joins in round 2."""
    def attack():
        game = make_game([("union", "MF", "cincinnati", 3), ("confederate", "FV", "lexington", 3),
                          ("confederate", "MF", "louisville")], options=LEADERS)
        pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
        game.state.leaders["lee"].location, game.state.leaders["lee"].value = "louisville", 3
        game._engine.invalidate()
        game._legal_cache = None
        march(game, "lexington", *(ahd.Move(f"C-FV-0{i}", ("lexington", "cincinnati"), ("rail",)) for i in (1, 2, 3)))
        game.apply(ahd.EndMovement())
        pass_until(game, lambda g: g.decision == "battle_options" and g.battle.firing is C, roll=6)
        return game

    game = attack()
    assert ahd.Retreat("lexington") in game.legal_actions()
    game.apply(ahd.LeaderReinforce("lee"))
    assert not any(isinstance(a, ahd.Retreat) for a in game.legal_actions())
    assert_refused(game, ahd.Retreat("lexington"), "5.2.5")
    assert ahd.Reinforce("C-MF-01") in game.legal_actions()      # the unit quota is still there
    # as after a unit's reinforcement
    other = attack()
    other.apply(ahd.Reinforce("C-MF-01"))
    assert_refused(other, ahd.Retreat("lexington"), "5.2.5")


# =========================================================================== 1. A-5, 9.b, 5.2.6
def invasion_of_cavalry_held_baltimore(options=("A-5",)):
    """Confederate cavalry holds Baltimore (cavalry-held: Baltimore is printed Union); on turn 13
    the Union rolls a 6 and invades it from Washington: a coastal defence of value 1 meets it."""
    game = make_game([("union", "MF", "washington", 3), ("confederate", "CV", "baltimore"),
                      ("confederate", "MF", "atlanta")], turn=12, options=with_rules(*options))
    assert game.controller("baltimore") is C and "baltimore" in game.state.cavalry_held
    pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is U)
    assert game.turn.number == 13 and game.controller("baltimore") is C
    assert game.army_max(U) == 33                 # Baltimore's 1 is the Confederacy's
    game.apply(ahd.Roll(6))
    game.apply(ahd.Invade("U-MF-01", "baltimore"))
    game.apply(ahd.EndMovement())
    assert game.battle is not None and game.battle.box == "baltimore"
    assert any(u.is_coastal for u in game.units_in("baltimore", C)) == ("A-5" in options)
    return game


def baltimore_is_union_again(game):
    """9.b at once: printed owner, no longer cavalry-held, the Union maximum back to 34."""
    assert game.controller("baltimore") is U and "baltimore" not in game.state.cavalry_held
    assert game.army_max(U) == 34
    assert any("Baltimore reverts to Union control" in e.text and "9.b" in e.text for e in game.log)


@pytest.mark.rule("A-5")
@pytest.mark.rule("9.b")
@pytest.mark.rule("9.d")
@pytest.mark.rule("7.b")
def test_a_coastal_defence_is_no_unit_that_keeps_a_cavalry_held_box():
    game = invasion_of_cavalry_held_baltimore()
    if game.decision == "cavalry_retreat":       # 5.2.6 is offered (see the next test): stand
        game.apply(ahd.HoldGround())
    rolls(game, 6, 6)                            # the cavalry and the defence miss the invader
    game.apply(ahd.FireAuto())                   # A-5 (c): at the defence
    rolls(game, 6)                               # and misses
    assert game.battle.round == 2 and game.decision == "battle_options" and game.battle.firing is C
    game.apply(ahd.Retreat("gettysburg"))         # the cavalry goes; the defence stays until the battle ends
    assert game.units_in("gettysburg", C)[0].id == "C-CV-01"
    assert not game.units_in("baltimore", C)
    baltimore_is_union_again(game)
    pass_until(game, lambda g: g.decision == "recruitment")
    assert game.phasing is U and game.turn.number == 13
    assert ahd.Recruit("baltimore", "MF") in game.legal_actions()
    assert game.why_not(ahd.Recruit("baltimore", "MF")) is None
    # the invaders hold it at the update: a port captured by naval invasion (A-4 a), though the
    # reversion, not the update, gave it back to the Union
    pass_until(game, lambda g: g.phasing is C)
    assert "baltimore" in game.state.invaded_ports


@pytest.mark.rule("5.2.6")
@pytest.mark.rule("A-5")
@pytest.mark.rule("9.b")
def test_cavalry_may_withdraw_from_beside_a_coastal_defence_which_fights_on_alone():
    """Decision: by 0.5 a coastal defence is not a unit, so 'all defending units are cavalry' and
    5.2.6 is offered; the defence cannot retreat (A-5 b) and the invaders meet it alone (A-5 a)."""
    game = invasion_of_cavalry_held_baltimore()
    assert game.decision == "cavalry_retreat" and game.current_player is C
    assert ahd.CavalryRetreat("gettysburg") in game.legal_actions()
    assert ahd.CavalryRetreat("washington") not in game.legal_actions()      # 5.2.5 (a): Union units
    game.apply(ahd.CavalryRetreat("gettysburg"))
    baltimore_is_union_again(game)
    battle = game.battle
    assert battle is not None and battle.round == 1 and battle.firing is C
    assert [u.is_coastal for u in game.units_in("baltimore", C)] == [True]
    assert battle.participants[C] == {battle.coastal}
    assert game.unit("C-CV-01").location == "gettysburg" and game.unit("C-CV-01").retreated
    rolls(game, 6)                                # the defence misses (2 + 1 river against the invader)
    rolls(game, 1)                                # the invader hits it (2 − 1 entrenched)
    rolls(game, 6)                                # round 2: it misses again
    assert game.decision == "battle_options" and game.battle.firing is U
    game.apply(ahd.OpenFire())
    rolls(game, 1)                                # and is destroyed
    assert game.battle is None or game.decision != "battle_promotion"
    assert not any(u.is_coastal for u in game.state.units.values())
    assert game.decision != "battle_promotion"    # A-5 (d): only the defence fought
    assert game.controller("baltimore") is U
    pass_until(game, lambda g: g.decision == "recruitment")
    assert ahd.Recruit("baltimore", "MF") in game.legal_actions()
    # without coastal defences the withdrawal ends the battle as before: no winner
    plain = invasion_of_cavalry_held_baltimore(options=())
    plain.apply(ahd.CavalryRetreat("gettysburg"))
    assert plain.battle is None or plain.battle.winner is None
    assert not any("wins the battle" in e.text for e in plain.log)
    baltimore_is_union_again(plain)


# =========================================================================== 5. A-4 (a)
@pytest.mark.rule("A-4")
@pytest.mark.rule("9.b")
def test_a_port_lost_by_a_reversion_and_retaken_by_land_is_not_containable():
    """Union cavalry takes Mobile by invasion (cavalry-held); it rides out (9.b: Mobile reverts to
    the Confederacy); Union infantry retakes it by land; Confederates marching in now fight."""
    def play(leave):
        game = make_game([("union", "CV", "washington"), ("union", "MF", "pensacola"),
                          ("confederate", "MF", "meridian"), ("confederate", "MF", "atlanta")],
                         turn=12, options=with_rules("A-4"))
        pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is U)
        game.apply(ahd.Roll(6))
        game.apply(ahd.Invade("U-CV-01", "mobile"))
        game.apply(ahd.EndMovement())
        pass_until(game, lambda g: g.phasing is C)
        assert game.controller("mobile") is U and "mobile" in game.state.cavalry_held
        assert "mobile" in game.state.invaded_ports and advanced.containable(game.state, "mobile")
        pass_until(game, lambda g: g.decision == "march_roll" and g.phasing is U)
        game.apply(ahd.Roll(3))
        if leave:
            march(game, "mobile", ahd.Move("U-CV-01", ("mobile", "pensacola"), ("road",)))
            assert game.controller("mobile") is C                     # 9.b
            assert "mobile" not in game.state.invaded_ports
            march(game, "pensacola", ahd.Move("U-MF-01", ("pensacola", "mobile"), ("road",)))
        pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
        assert game.controller("mobile") is U                         # retaken (or kept) at 9.a
        march(game, "meridian", ahd.Move("C-MF-01", ("meridian", "mobile"), ("rail",)))
        game.apply(ahd.EndMovement())
        return game

    kept = play(leave=False)
    assert kept.decision == "containment"                             # still the invaded port
    retaken = play(leave=True)
    assert "mobile" not in retaken.state.invaded_ports
    assert not advanced.containable(retaken.state, "mobile")
    assert retaken.decision != "containment"
    assert retaken.battle is not None and retaken.battle.box == "mobile"


# =========================================================================== 6. 11.c after 9.b
def maxima_level_with_cavalry_in_chattanooga(options=()):
    """Union cavalry holds Chattanooga (Confederate, 1): the Union maximum 28 (Pittsburgh and
    Scranton are Confederate), the Confederate 28; Chattanooga back would make it 29."""
    game = make_game([("union", "CV", "chattanooga"), ("union", "MF", "chicago"), ("confederate", "MF", "atlanta")],
                     options=with_rules(*options), control={"confederate": ["pittsburgh", "scranton"]})
    assert "chattanooga" in game.state.cavalry_held
    assert (game.army_max(U), game.army_max(C)) == (28, 28)
    return game


@pytest.mark.rule("11.c")
@pytest.mark.rule("9.b")
@pytest.mark.rule("9.d")
@pytest.mark.rule("11.b")
def test_a_reversion_that_puts_the_confederate_maximum_ahead_ends_the_game_at_once():
    game = maxima_level_with_cavalry_in_chattanooga()
    game.apply(ahd.BeginMarch("chattanooga"))
    game.apply(ahd.Move("U-CV-01", ("chattanooga", "sparta"), ("road",)))
    assert game.controller("chattanooga") is C                       # 9.b
    assert (game.army_max(U), game.army_max(C)) == (28, 29)           # 9.d
    assert game.is_over and game.outcome.winner is C and game.outcome.rule == "11.b"
    assert game.turn.number == 2 and game.phasing is U
    assert game.legal_actions() == []
    assert_refused(game, ahd.EndMarch(), "10")
    again = ahd.Game.from_json(game.to_json())   # the record replays to the same end
    assert again.is_over and str(again.outcome) == str(game.outcome)
    # S-12: 11.b(2) is checked only at updates ending a Union half-turn, not at a reversion
    novice = maxima_level_with_cavalry_in_chattanooga(options=("S-12",))
    novice.apply(ahd.BeginMarch("chattanooga"))
    novice.apply(ahd.Move("U-CV-01", ("chattanooga", "sparta"), ("road",)))
    assert novice.controller("chattanooga") is C and not novice.is_over
    pass_until(novice, lambda g: g.is_over or g.phasing is C)
    assert novice.is_over and novice.outcome.winner is C              # at the update ending the Union half
