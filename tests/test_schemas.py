"""The published JSON Schemas (docs/scenario.schema.json, docs/record.schema.json, draft 2020-12):
up to date with the engine, met by every shipped scenario and by saved records, and in agreement
with the loaders on bad files (both refuse them)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import ahd
from ahd.bots import make_bot
from ahd.core.positions import position
from script_module import load_script

ROOT = Path(__file__).resolve().parents[1]
SCENARIO_SCHEMA = json.loads((ROOT / "docs" / "scenario.schema.json").read_text(encoding="utf-8"))
RECORD_SCHEMA = json.loads((ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"))
# The record schema refers to the scenario schema by its file name, as file-based tools resolve it.
REGISTRY = Registry().with_resource("scenario.schema.json", Resource.from_contents(SCENARIO_SCHEMA))
SCENARIO = Draft202012Validator(SCENARIO_SCHEMA)
RECORD = Draft202012Validator(RECORD_SCHEMA, registry=REGISTRY)


def _make_schemas():
    return load_script("make_schemas")


def _record(scenario="1861", seed=3, actions=60) -> dict:
    game = ahd.new_game(scenario, seed=seed)
    bot = make_bot("random", seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bot.choose(game))
    return game.to_dict()


def test_schemas_are_draft_2020_12_and_up_to_date():
    for schema in (SCENARIO_SCHEMA, RECORD_SCHEMA):
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        Draft202012Validator.check_schema(schema)
    make = _make_schemas()
    assert make.render(make.scenario_schema()) == (ROOT / "docs" / "scenario.schema.json").read_text(encoding="utf-8"), \
        "docs/scenario.schema.json is out of date: run python scripts/make_schemas.py"
    assert make.render(make.record_schema()) == (ROOT / "docs" / "record.schema.json").read_text(encoding="utf-8"), \
        "docs/record.schema.json is out of date: run python scripts/make_schemas.py"
    assert set(RECORD_SCHEMA["$defs"]["action"]["properties"]["type"]["enum"]) == set(ahd.core.actions.ACTION_TYPES)


@pytest.mark.parametrize("path", sorted((ROOT / "ahd" / "data" / "scenarios").glob("*.json")), ids=lambda p: p.name)
def test_every_shipped_scenario_meets_the_schema(path):
    errors = [e.message for e in SCENARIO.iter_errors(json.loads(path.read_text(encoding="utf-8")))]
    assert errors == []


def test_saved_records_meet_the_schema(tmp_path):
    game = ahd.new_game("short", seed=2, options="advanced")
    bot = make_bot("random", 2)
    while not game.is_over:
        game.apply(bot.choose(game))
    path = tmp_path / "game.json"
    game.save(path)
    assert [e.message for e in RECORD.iter_errors(json.loads(path.read_text()))] == []
    custom = ahd.new_game(position([("union", "FV", "washington", 2), ("confederate", "MF", "richmond")]), seed=1)
    custom.apply(custom.legal_actions()[0])
    record = custom.to_dict()
    assert isinstance(record["scenario"], dict)  # a custom scenario travels in the record
    assert [e.message for e in RECORD.iter_errors(record)] == []


def _bad_scenarios():
    base = json.loads((ROOT / "ahd" / "data" / "scenarios" / "1862.json").read_text(encoding="utf-8"))

    def changed(mutate):
        data = json.loads(json.dumps(base))
        mutate(data)
        return data
    return {
        "count 20,000": changed(lambda d: d["units"][0].update(count=20000)),
        "entrenced": changed(lambda d: d["units"][0].update(entrenced=True)),
        "last_trun with based_on": {"based_on": "1862", "last_trun": 30},
        "contorl with based_on": {"based_on": "1862", "contorl": {"union": ["louisville"]}},
        "unknown box": changed(lambda d: d["units"][0].update(box="atlantis")),
        "entrenched: \"yes\"": changed(lambda d: d["units"][0].update(entrenched="yes")),
        "control side misspelt": changed(lambda d: d.update(control={"confedrate": []})),
        "end missing": changed(lambda d: d.pop("end")),
        "score_turn 12": changed(lambda d: d.update(score_turn=12)),
        "id with a newline": changed(lambda d: d.update(id="x)\nimport os # (")),
        "id with a slash": changed(lambda d: d.update(id="../x")),
    }


def _bad_records():
    base = _record()
    move = next(i for i, a in enumerate(base["actions"]) if a["type"] == "move")

    def changed(mutate):
        data = json.loads(json.dumps(base))
        mutate(data)
        return data
    return {
        "play_on: \"no\"": changed(lambda d: d.update(play_on="no")),
        "dice: \"loaded\"": changed(lambda d: d.update(dice="loaded")),
        "seed 2**128": changed(lambda d: d.update(seed=2 ** 128)),
        "seeed": changed(lambda d: d.update(seeed=1)),
        "path of integers": changed(lambda d: d["actions"][move].update(path=[1, 2])),
        "volley of objects": changed(lambda d: d["actions"].__setitem__(move, {"type": "volley", "targets": [{"a": "b"}]})),
        "auto on a move": changed(lambda d: d["actions"][move].update(auto=True)),
        "unknown rule switch": changed(lambda d: d.update(options=["A-22"])),
        "scenario path": changed(lambda d: d.update(scenario="/etc/passwd")),
        "embedded scenario with entrenced": changed(lambda d: d.update(scenario=_bad_scenarios()["entrenced"])),
    }


@pytest.mark.parametrize("name", list(_bad_scenarios()))
def test_bad_scenarios_are_refused_by_schema_and_loader(tmp_path, name):
    data = _bad_scenarios()[name]
    assert list(SCENARIO.iter_errors(data)), "the schema accepted it"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ahd.DataFileError, match="bad.json: "):
        ahd.load_scenario(path)


@pytest.mark.parametrize("name", list(_bad_records()))
def test_bad_records_are_refused_by_schema_and_loader(tmp_path, name):
    data = _bad_records()[name]
    assert list(RECORD.iter_errors(data)), "the schema accepted it"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    with pytest.raises(ahd.RecordError, match="bad.json: "):
        ahd.load(path)
