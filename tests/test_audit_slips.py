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
