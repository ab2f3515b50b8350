"""Game.to_scenario(): a position as a scenario that loads back to the same position (issue 18, item 3)."""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import ahd
from ahd.bots import RandomBot
from ahd.core.export import why_not_exportable
from ahd.core.sides import CHANCE, Side

SCENARIOS = ("1861", "short", "1862", "1863", "1864")
PRESETS = ("basic", "advanced", "everything", "pro-union", "pro-confederate")
POSITIONS = 50


def observe(game: ahd.Game) -> dict:
    """What a position is: units, control, maxima, pools and reserve, leaders, the turn and decision."""
    s = game.state
    units = Counter((u.side.value, u.type.code, u.strength, u.entrenched, u.location, u.is_foreign)
                    for u in s.units.values() if u.on_map)
    off_map = {(side.value, where): Counter(u.type.code for u in game.units(side, where))
               for side in Side for where in ("pool", "reserve", "europe", "aside")}
    return {"units": units, "off_map": off_map, "control": dict(s.control), "cavalry_held": set(s.cavalry_held),
            "maxima": (game.army_max("union"), game.army_max("confederate")), "turn": s.turn,
            "phasing": s.phasing, "decision": game.decision, "marches": game.marches_left,
            "march_roll": game.march_roll,
            "leaders": {name: (l.location, l.value) for name, l in s.leaders.items()},
            "border_used": set(s.border_used), "invaded_ports": set(s.invaded_ports),
            "contained": set(s.contained), "intervention": s.intervention}


def random_position(index: int) -> ahd.Game:
    """A seeded random game (scenario and preset by ``index``) at a random one of its exportable
    decision points: the game is played out once, keeping a copy at each such point."""
    scenario, preset = SCENARIOS[index % 5], PRESETS[(index // 5) % 5]
    game, bot, points = ahd.new_game(scenario, options=preset, seed=index), RandomBot(seed=index), []
    while not game.is_over:
        if game.current_player == CHANCE:
            game.roll()
            continue
        if why_not_exportable(game) is None:
            points.append(game.copy())
        game.apply(bot.choose(game))
    return points[int(np.random.default_rng(index).integers(len(points)))]


@pytest.mark.rule("S-0")
def test_fifty_random_positions_round_trip_through_a_json_file(tmp_path):
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((Path(__file__).parents[1] / "docs" / "scenario.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.Draft202012Validator(schema)
    kinds = Counter()
    for index in range(POSITIONS):
        game = random_position(index)
        exported = game.to_scenario()
        validator.validate(exported)  # the published JSON Schema accepts it
        path = tmp_path / f"position-{index}.json"
        path.write_text(json.dumps(exported), encoding="utf-8")
        loaded = ahd.new_game(path, seed=index + 1000)
        assert observe(loaded) == observe(game), (index, game)
        assert loaded.options == game.options  # the file's options apply when none are given
        again = loaded.to_scenario()           # exporting the loaded position gives the same file
        assert {k: v for k, v in again.items() if k != "description"} == \
               {k: v for k, v in exported.items() if k != "description"}
        kinds[game.decision] += 1
        kinds["rolled" if "march_roll" in exported else "free marches"] += 1
    assert kinds["movement"] and kinds["rolled"] and kinds["free marches"]


def test_a_scenario_dict_starts_a_game_and_plays_on_like_the_original():
    game = random_position(7)
    twin = ahd.new_game(game.to_scenario(), seed=3)  # a dict, not a file
    assert observe(twin) == observe(game)
    assert len(twin.legal_actions()) == len(game.legal_actions())  # unit ids may be numbered differently
    assert ahd.load_scenario(game.to_scenario()).start_turn == game.turn.number
    ahd.bots.play(twin, RandomBot(1), RandomBot(2))
    assert twin.is_over


def test_a_game_from_an_exported_position_saves_and_replays(tmp_path):
    game = ahd.new_game(random_position(12).to_scenario(), seed=5)
    for _ in range(40):
        if game.is_over:
            break
        game.apply(RandomBot(seed=1).choose(game)) if game.current_player != CHANCE else game.roll()
    game.save(tmp_path / "game.json")
    replayed = ahd.load(tmp_path / "game.json")
    assert observe(replayed) == observe(game)


def test_export_at_the_start_is_the_scenario_itself():
    for name in SCENARIOS:
        game = ahd.new_game(name, seed=1)
        exported = game.to_scenario()
        original = game.scenario
        assert exported["start_turn"] == original.start_turn
        assert exported["first_turn_marches"] == original.first_turn_marches and "march_roll" not in exported
        assert exported["stated_maxima"] == {"union": game.army_max("union"),
                                             "confederate": game.army_max("confederate")}
        assert observe(ahd.new_game(exported, seed=2)) == observe(game)


@pytest.mark.rule("5")
def test_export_is_refused_mid_battle_and_mid_march_with_a_reason():
    from tests.conftest import make_game
    game = make_game([("union", "MF", "cincinnati", 2), ("union", "MF", "chicago"), ("confederate", "MF", "lexington"),
                      ("confederate", "MF", "louisville")])
    game.apply(ahd.BeginMarch("cincinnati"))
    with pytest.raises(ahd.AhdError, match="start of a game turn"):
        game.to_scenario()
    game.apply(ahd.Move("U-MF-01", ("cincinnati", "lexington"), ("rail",)))
    game.apply(ahd.EndMarch())
    with pytest.raises(ahd.AhdError, match="moved already"):
        game.to_scenario()
    game.apply(ahd.EndMovement())
    game.apply(ahd.ChooseBattle("lexington")) if game.decision == "choose_battle" else None
    assert game.battle is not None
    assert game.phase == "combat"
    with pytest.raises(ahd.AhdError, match="start of a game turn"):
        game.to_scenario()
    over = ahd.new_game("1861", seed=1)
    ahd.bots.play(over, RandomBot(1), RandomBot(2))
    with pytest.raises(ahd.AhdError, match="over"):
        over.to_scenario()


def test_confederate_half_turn_is_refused():
    from tests.conftest import make_game
    from ahd.core.positions import to_confederate_movement
    game = make_game([("union", "FV", "louisville", 1), ("confederate", "MF", "bowling_green", 1)])
    to_confederate_movement(game)
    assert game.phasing is Side.CONFEDERATE
    with pytest.raises(ahd.AhdError, match="Union half-turn"):
        game.to_scenario()


def _position(**extra) -> dict:
    base = {"format": "house-divided-scenario", "version": 1, "id": "p", "rule": "test", "title": "p",
            "start_turn": 12, "first_turn_marches": "roll", "last_turn": 40, "end": "campaign",
            "units": [{"side": "union", "type": "FV", "box": "louisville", "count": 2},
                      {"side": "union", "type": "MF", "box": "cairo", "strength": "reduced"},
                      {"side": "confederate", "type": "FV", "box": "nashville", "entrenched": True}]}
    base.update(extra)
    return base


@pytest.mark.rule("4.a", "5.1.c")
def test_position_keys_march_roll_strength_and_options():
    game = ahd.new_game(_position(march_roll=6, options=["A-3", "H-1"]), seed=1)
    assert game.decision == "movement" and game.march_roll == 6 and game.options.to_list() == ["A-3", "H-1"]
    assert [u.strength for u in game.units_in("cairo")] == ["reduced"]
    assert game.is_entrenched(game.units_in("nashville")[0].id)
    rolled = ahd.new_game(_position(), seed=1, dice="manual")
    assert rolled.decision == "march_roll"  # "roll": no free marches on the first turn
    assert ahd.new_game(_position(options=["A-3"]), options="basic", seed=1).options == ahd.Options.default()


@pytest.mark.rule("9.b", "A-4", "A-6", "AO-8.3", "AO-8.4", "AO-8.2.2")
def test_position_keys_of_the_lasting_records():
    units = _position()["units"] + [
        {"side": "confederate", "type": "CV", "box": "st_louis"},
        {"side": "confederate", "type": "FV", "box": "memphis", "foreign": True},
        {"side": "confederate", "type": "MF", "box": "richmond", "count": 8},
        {"side": "union", "type": "FV", "box": "fort_monroe"}, {"side": "confederate", "type": "MF", "box": "fort_monroe"}]
    data = _position(units=units, options=ahd.Options.preset("everything").to_list(),
                     control={"confederate": ["st_louis"]}, cavalry_held=["st_louis"],
                     border_states=["Kentucky"], foreign={"europe": 2, "aside": 1}, contained=["fort_monroe"],
                     invaded_ports=["new_orleans"], washington_penalty=3,
                     leaders=[{"name": "lee", "removed": True}, {"name": "grant", "box": "louisville", "value": 2}])
    game = ahd.new_game(data, seed=1, dice="manual")
    s = game.state
    assert game.is_cavalry_held("st_louis") and game.controller("st_louis") is Side.CONFEDERATE
    assert s.border_used == {"Kentucky"} and s.intervention and s.washington_penalty == 3
    assert s.contained == {"fort_monroe"} and s.invaded_ports == {"new_orleans"}
    assert len(game.units("confederate", "europe")) == 2 and len(game.units("confederate", "aside")) == 1
    assert [u.id for u in game.units_in("memphis")] == ["X-FV-01"]
    assert s.leaders["lee"].location == "@removed" and s.leaders["grant"].value == 2
    assert game.to_scenario()["washington_penalty"] == 3
    for bad, key in ((dict(march_roll=7), "march_roll"), (dict(first_turn_marches=2, march_roll=3), "march_roll"),
                     (dict(border_states=["Ohio"]), "border_states"), (dict(foreign={"europe": 1}), "foreign"),
                     (dict(options=["Z-9"]), "options"), (dict(cavalry_held=["atlantis"]), "cavalry_held"),
                     (dict(washington_penalty=-1), "washington_penalty"),
                     (dict(cavalry_held=["st_louis"]), "cavalry_held")):
        with pytest.raises(ahd.DataFileError, match=key):
            ahd.new_game(_position(**bad), seed=1)
    with pytest.raises(ahd.DataFileError, match="strength"):
        ahd.new_game(_position(units=[{"side": "union", "type": "FV", "box": "cairo", "strength": "half"}]))


def test_a_position_of_a_scenario_with_the_longest_id_exports_to_a_valid_id():
    """Ids are at most 64 characters (docs/security.md, finding 2): ``<id>@<turn>`` keeps within them."""
    data = random_position(12).to_scenario()
    data["id"] = "x" * 64
    position = ahd.new_game(data, seed=1).to_scenario()
    assert len(position["id"]) <= 64 and position["id"].startswith("x" * 60 + "@")
    ahd.new_game(position, seed=1)  # loads
