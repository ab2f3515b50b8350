"""ahd.core.positions: custom start positions (the tests' and tutorials' one way to build them)."""
from __future__ import annotations

import pytest

import ahd
from ahd.core.positions import march, pass_until, position, position_game, to_confederate_movement
from ahd.core.sides import Side

U, C = Side.UNION, Side.CONFEDERATE


@pytest.mark.rule("S-0")
def test_position_is_a_scenario_with_units_control_turn_and_marches():
    scenario = position([("union", "MF", "evansville", 3), ("confederate", "FV", "lexington", 1, True)],
                        control={"union": ["louisville"]}, turn=5, marches=3)
    assert isinstance(scenario, ahd.Scenario)
    assert scenario.start_turn == 5 and scenario.first_turn_marches == 3
    game = ahd.new_game(scenario, dice="manual")
    assert game.turn.number == 5 and game.decision == "movement" and game.marches_left == 3
    assert len(game.units_in("evansville", U)) == 3
    (fv,) = game.units_in("lexington", C)
    assert fv.type.code == "FV" and game.is_entrenched(fv.id)
    assert game.controller("louisville") is U          # the override
    assert game.controller("lexington") is C           # occupied: to the occupier (S-0)
    assert game.controller("london") is None           # printed owner (neutral Kentucky)


def test_position_game_defaults_and_validation():
    game = position_game([("union", "MF", "indianapolis")])
    assert game.dice == "manual" and game.turn.number == 2 and game.marches_left == 2
    with pytest.raises(ahd.DataFileError):
        position([("union", "MF", "atlantis")])
    with pytest.raises(ValueError):
        position([("union", "MF", "indianapolis", 1, False, "extra")])
    with pytest.raises(ahd.DataFileError):             # more Confederate militia than the counter mix (1.3.a)
        position([("confederate", "MF", "richmond", 9)])


def test_helpers_march_and_pass():
    game = position_game([("union", "MF", "indianapolis"), ("confederate", "MF", "new_orleans")])
    march(game, "indianapolis", ahd.Move("U-MF-01", ("indianapolis", "bloomington_in"), ("rail",)))
    assert game.marches_left == 1 and game.units_in("bloomington_in")
    to_confederate_movement(game)
    assert game.phasing is C and game.decision == "movement"
    pass_until(game, lambda g: g.turn.number == 3)
    assert game.decision == "march_roll"
    with pytest.raises(AssertionError):
        pass_until(game, lambda g: False, limit=3)


@pytest.mark.rule("AO-8.2.0")
@pytest.mark.rule("S-0")
def test_position_places_leaders_only_with_the_leader_rules():
    where = {"grant": "cincinnati", "lee": "lexington"}
    units = [("union", "MF", "cincinnati"), ("confederate", "MF", "lexington")]
    game = position_game(units, turn=12, options=["H-1", "H-2", "AO-8.2"], leaders=where)
    assert {n: (l.location, l.value) for n, l in game.state.leaders.items() if l.on_map} == {
        "grant": ("cincinnati", 1), "lee": ("lexington", 3)}
    assert game.decision == "leader_arrival"            # Sherman's date (turn 9) has passed: he arrives (C-2)
    later = position_game(units, turn=24, options=["H-1", "H-2", "AO-8.2"], leaders={"lee": "lexington"})
    assert later.state.leaders["lee"].value == 2        # T-6: Lee 2 from turn 23
    plain = position_game(units, turn=12, leaders=where)
    assert not any(l.on_map for l in plain.state.leaders.values())
    with pytest.raises(ValueError):                     # Lee has no value before turn 10
        position(units, turn=2, leaders={"lee": "lexington"})
    with pytest.raises(ahd.DataFileError):
        position(units, turn=12, leaders={"stonewall": "lexington"})
