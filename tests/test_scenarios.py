"""Scenarios: S-1, S-0 and the year scenarios S-1862/1863/1864, T-8 scoring, scenario files."""
from __future__ import annotations

import json
from collections import Counter

import pytest

import ahd
from ahd.core.scenario import load_scenario
from ahd.core.sides import Side
from ahd.core.victory import SCORE_TABLE

from conftest import pass_until

YEARS = {"1862": (8, 17, 35, 27), "1863": (18, 27, 35, 23), "1864": (28, 37, 36, 20)}


def on_map(game, side):
    return Counter((u.location, u.type.code) for u in game.units(side))


@pytest.mark.rule("S-0")
@pytest.mark.parametrize("year", YEARS)
def test_year_scenario_start(year):
    start, score, union_max, confederate_max = YEARS[year]
    game = ahd.new_game(year, seed=1)
    assert game.turn.number == start and game.turn.months == "Apr"
    assert (game.army_max("union"), game.army_max("confederate")) == (union_max, confederate_max)
    assert game.phasing is Side.UNION
    assert game.marches_left == 1 and game.march_roll is None  # one march, no roll (S-0)
    assert game.scenario.score_turn == score
    # pools: the militia not on the map; the April draft has just put 4 MF in the Union pool
    assert [u.type.code for u in game.units("union", "pool")] == ["MF"] * 4
    assert game.units("confederate", "pool") == []
    # units as listed
    scenario = load_scenario(year)
    for side in Side:
        listed = Counter((p.box, p.type) for p in scenario.units if p.side is side)
        assert on_map(game, side) == listed


@pytest.mark.rule("S-1862")
def test_1862_details():
    game = ahd.new_game("1862", seed=1)
    assert len(game.units("confederate")) == 18 and len(game.units("union")) == 21
    for box in ("bowling_green", "louisville", "paducah", "forts_henry_donelson", "sedalia", "jefferson_city"):
        assert game.controller(box) is Side.UNION
    # occupied boxes go to the occupier: Harper's Ferry (printed Union) holds a Confederate veteran
    assert game.controller("harpers_ferry") is Side.CONFEDERATE
    assert game.controller("nashville") is Side.UNION and game.controller("pensacola") is Side.UNION
    assert all(game.is_entrenched(u.id) for u in game.units_in("manassas_junction"))
    assert game.is_entrenched(game.units_in("island_no_10")[0].id)
    assert not game.is_entrenched(game.units_in("corinth")[0].id)
    assert all(game.is_entrenched(u.id) for u in game.units_in("washington"))  # fort (4.2.5 d)


@pytest.mark.rule("S-1863")
def test_1863_details():
    game = ahd.new_game("1863", seed=1)
    assert len(game.units("confederate")) == 23 and len(game.units("union")) == 37
    assert game.units("union") and game.army_max("union") == 35  # two units over, kept (7.c)
    assert game.controller("new_orleans") is Side.UNION and game.controller("memphis") is Side.UNION
    assert game.scenario.leaders == (("lee", "fredericksburg"), ("grant", "arkansas_post"),
                                     ("sherman", "arkansas_post"))
    crack = [u for u in game.units_in("fredericksburg") if u.type.code == "FS"]
    assert len(crack) == 1 and game.is_entrenched(crack[0].id)


@pytest.mark.rule("S-1864")
def test_1864_jacksonville_ruling():
    game = ahd.new_game("1864", seed=1)
    assert [u.type.code for u in game.units_in("jacksonville_al")] == ["MC"]
    assert game.units_in("jacksonville_al")[0].side is Side.CONFEDERATE
    jax = game.units_in("jacksonville_fl")
    assert [(u.side, u.type.code) for u in jax] == [(Side.UNION, "MF")]
    assert game.controller("jacksonville_fl") is Side.UNION
    assert game.controller("pensacola") is Side.CONFEDERATE  # the Confederate marker
    assert len(game.units("union")) == 44 and len(game.units("confederate")) == 23
    assert [u.type.code for u in game.units_in("washington", "union")].count("MC") == 1


@pytest.mark.rule("S-0")
def test_first_turn_is_one_march_each_then_rolls():
    game = ahd.new_game("1862", seed=2, dice="manual")
    assert game.marches_left == 1
    pass_until(game, lambda g: g.phasing is Side.CONFEDERATE and g.decision == "movement")
    assert game.marches_left == 1 and game.march_roll is None
    pass_until(game, lambda g: g.turn.number == 9)
    assert game.decision == "march_roll"  # from the second turn on the march die is rolled


def set_maxima_difference(game, difference, confederate_max=10):
    """Give the recruiting cities out (as captures would) so that the Confederate maximum is
    ``confederate_max`` and the Union's exceeds it by ``difference``. Washington stays Union."""
    state = game.state
    for box in game.board:
        if box.is_recruiting_city and box.id != "washington":
            state.set_control(box.id, None)
    for side, target in ((Side.CONFEDERATE, confederate_max), (Side.UNION, confederate_max + difference)):
        for box in sorted(game.board, key=lambda b: (-b.value_for(side), b.id)):
            have = game.army_max(side)
            if have == target:
                break
            other = side.enemy
            if (0 < box.value_for(side) <= target - have and box.value_for(other) == 0
                    and state.control[box.id] is None and box.id != "richmond"):
                state.set_control(box.id, side)
        assert game.army_max(side) == target


BANDS = [(3, Side.UNION, "Union victory"), (2, Side.UNION, "Union advantage"), (1, Side.UNION, "Union edge"),
         (0, None, "historical result (draw)"), (-1, Side.CONFEDERATE, "Confederate edge"),
         (-2, Side.CONFEDERATE, "Confederate advantage"), (-3, Side.CONFEDERATE, "Confederate victory")]


@pytest.mark.rule("S-VT")
@pytest.mark.parametrize("year", YEARS)
@pytest.mark.parametrize("offset, winner, level", BANDS)
def test_scenario_end_scores_every_band(year, offset, winner, level):
    start, score, _, _ = YEARS[year]
    scenario = load_scenario(year)
    data = dict(scenario.data, start_turn=score, score_turn=score, units=[])  # an empty board at the last turn
    game = ahd.new_game(ahd.core.scenario.scenario_from_dict(data, "<test>"), seed=1, dice="manual")
    draw = SCORE_TABLE[score]
    set_maxima_difference(game, draw + offset)
    pass_until(game, lambda g: g.is_over)
    outcome = game.outcome
    assert outcome.rule == "S-VT" and outcome.turn == score
    assert outcome.level == level and outcome.winner is winner
    if abs(offset) == 3:  # the end bands are open: further differences score the same
        game2 = ahd.new_game(ahd.core.scenario.scenario_from_dict(data, "<test>"), seed=1, dice="manual")
        set_maxima_difference(game2, draw + offset + (2 if offset > 0 else -2))
        pass_until(game2, lambda g: g.is_over)
        assert game2.outcome.level == level


@pytest.mark.rule("S-0")
def test_immediate_victory_still_ends_a_year_scenario():
    scenario = load_scenario("1862")
    data = dict(scenario.data, units=[{"side": "confederate", "type": "MF", "box": "washington"}])
    game = ahd.new_game(ahd.core.scenario.scenario_from_dict(data, "<test>"), seed=1, dice="manual")
    pass_until(game, lambda g: g.is_over)
    assert game.outcome.rule == "11.b" and game.outcome.winner is Side.CONFEDERATE
    assert game.outcome.turn == 8


@pytest.mark.rule("S-0")
def test_play_on_records_the_score_and_continues_to_turn_40():
    scenario = load_scenario("1864")
    data = dict(scenario.data, start_turn=37, units=[])
    game = ahd.new_game(ahd.core.scenario.scenario_from_dict(data, "<test>"), seed=1, dice="manual", play_on=True)
    pass_until(game, lambda g: g.turn.number == 38)
    assert not game.is_over
    assert game.scenario_result.rule == "S-VT"
    pass_until(game, lambda g: g.is_over, limit=2000)
    assert game.outcome.turn == 40 and game.outcome.rule == "11.b"
    reloaded = ahd.Game.from_json(game.to_json())
    assert reloaded.play_on and reloaded.scenario_result == game.scenario_result


@pytest.mark.rule("S-0")
def test_without_play_on_the_score_ends_the_game():
    scenario = load_scenario("1864")
    data = dict(scenario.data, start_turn=37, units=[])
    game = ahd.new_game(ahd.core.scenario.scenario_from_dict(data, "<test>"), seed=1, dice="manual")
    pass_until(game, lambda g: g.is_over)
    assert game.outcome.turn == 37 and game.outcome.rule == "S-VT" and game.scenario_result is None


# --------------------------------------------------------------------------- scenario files
def write(tmp_path, data, name="my.json"):
    path = tmp_path / name
    path.write_text(json.dumps(data, indent=1))
    return path


def base_file():
    return {"format": "house-divided-scenario", "version": 1, "id": "mine", "rule": "custom",
            "title": "My scenario", "start_turn": 8, "first_turn_marches": 1, "last_turn": 17,
            "end": "campaign",
            "units": [{"side": "union", "type": "FV", "count": 2, "box": "washington"},
                      {"side": "confederate", "type": "FV", "box": "richmond"}],
            "control": {"union": ["louisville"]}}


def test_a_user_scenario_file_plays(tmp_path):
    path = write(tmp_path, base_file())
    game = ahd.new_game(str(path), seed=4)
    assert game.scenario.title == "My scenario"
    assert game.controller("louisville") is Side.UNION
    from ahd.bots import RandomBot, play
    play(game, RandomBot(1), RandomBot(2))
    assert game.is_over
    assert ahd.Game.from_json(game.to_json()).outcome == game.outcome  # custom scenarios travel in the record


def test_based_on_a_shipped_scenario(tmp_path):
    path = write(tmp_path, {"based_on": "1862", "id": "1862-long", "last_turn": 40, "end": "campaign",
                            "title": "1862 to the end"})
    game = ahd.new_game(str(path), seed=1)
    assert game.army_max("union") == 35 and game.scenario.last_turn == 40


@pytest.mark.parametrize("mutate, key, problem", [
    (lambda d: d.pop("title"), "title", "missing"),
    (lambda d: d["units"][0].update(box="atlantis"), "units[0].box", "unknown box 'atlantis'"),
    (lambda d: d["units"][0].update(type="XX"), "units[0].type", "unknown unit type"),
    (lambda d: d["units"][1].update(side="british"), "units[1].side", "unknown side"),
    (lambda d: d["units"].append({"side": "confederate", "type": "MF", "count": 9, "box": "atlanta"}),
     "units", "counter mix allows 8"),
    (lambda d: d.update(start_turn=41), "start_turn", "must be 1–40"),
    (lambda d: d.update(format="house-divided-record"), "format", "not a scenario file"),
    (lambda d: d.update(end="sudden death"), "end", "expected one of"),
    (lambda d: d["control"].update(union=["nowhere"]), "control.union[0]", "unknown box"),
    (lambda d: d["units"][0].update(count=0), "units[0].count", "positive integer"),
    (lambda d: d.update(end="table", score_turn=12), "score_turn", "T-8"),
    (lambda d: d.update(leaders=[{"name": "napoleon", "box": "richmond"}]), "leaders[0].name", "unknown leader"),
])
def test_malformed_scenario_files_name_file_key_and_problem(tmp_path, mutate, key, problem):
    data = base_file()
    mutate(data)
    path = write(tmp_path, data)
    with pytest.raises(ahd.DataFileError) as info:
        ahd.new_game(str(path))
    assert str(path) in str(info.value)
    assert info.value.key == key
    assert problem in info.value.reason("en")


def test_scenario_file_that_is_not_json_names_the_line(tmp_path):
    path = tmp_path / "broken.json"
    path.write_text('{\n "format": "house-divided-scenario",\n "version": 1,\n oops\n}')
    with pytest.raises(ahd.DataFileError, match=r"broken.json: line 4: not valid JSON"):
        ahd.new_game(str(path))


def test_unknown_scenario_name():
    with pytest.raises(ValueError, match="unknown scenario '1865'"):
        ahd.new_game("1865")


@pytest.mark.rule("S-0")
@pytest.mark.parametrize("name", ["1861", "1862", "1863", "1864"])
def test_stated_maxima_of_shipped_scenarios_are_met(name):
    game = ahd.new_game(name, seed=1)
    stated = game.scenario.stated_maxima
    assert stated == {"union": game.army_max("union"), "confederate": game.army_max("confederate")}
