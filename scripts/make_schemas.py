"""Write the JSON Schemas (draft 2020-12) of the scenario and game-record formats into docs/.

    python scripts/make_schemas.py           # write docs/scenario.schema.json and docs/record.schema.json
    python scripts/make_schemas.py --check   # exit 1 if they are out of date

The structure is written here by hand (it follows ahd/core/scenario.py and ahd/core/game.py); the
lists come from the engine: box ids of the shipped board, rule switches, action types and their
fields, shipped scenarios, the documented limits. tests/test_schemas.py checks the files are up to
date and that the schemas and the loaders agree on good and bad files.

What a schema cannot say, the loader still checks: that the last turn is not before the first,
the militia counter mix (1.3.a) and the 100 counters a side in total, that an action is legal.
"""
from __future__ import annotations

import json
import sys
from dataclasses import fields
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ahd.core import action_fields  # noqa: E402
from ahd.core import actions as A  # noqa: E402
from ahd.core.advanced import T7  # noqa: E402
from ahd.core.board import default_board  # noqa: E402
from ahd.core.calendar import LAST_TURN  # noqa: E402
from ahd.core.record import DICE_MODES, RECORD_FORMAT, RECORD_VERSION  # noqa: E402
from ahd.core.options import SWITCHES  # noqa: E402
from ahd.core.scenario import BUILT_IN, ENDS, FORMAT, LEADERS  # noqa: E402
from ahd.core.scenario_file import ID_PATTERN, MAX_COUNTERS, MAX_STATED, SCENARIO_KEYS, UNIT_KEYS  # noqa: E402
from ahd.core.units import TYPE_ALIASES, UNIT_TYPES  # noqa: E402
from ahd.core.victory import SCORE_TABLE  # noqa: E402

DRAFT = "https://json-schema.org/draft/2020-12/schema"
SCENARIO_TARGET = ROOT / "docs" / "scenario.schema.json"
RECORD_TARGET = ROOT / "docs" / "record.schema.json"


def scenario_schema() -> dict:
    box = {"$ref": "#/$defs/box"}
    boxes = {"type": "array", "items": box, "uniqueItems": True}
    turn = {"type": "integer", "minimum": 1, "maximum": LAST_TURN}
    required = ["format", "version", "id", "rule", "title", "start_turn", "first_turn_marches", "last_turn",
                "end", "units"]
    schema = {
        "$schema": DRAFT,
        "title": "A House Divided scenario",
        "description": "A scenario file (docs/scenario-format.md). Written by scripts/make_schemas.py. "
                       "The loader also checks what a schema cannot: last_turn not before start_turn, the "
                       f"militia counter mix (1.3.a), at most {MAX_COUNTERS} counters a side on the map. "
                       "Files are at most 5 MB, nested at most 20 deep, without repeated keys.",
        "type": "object",
        "properties": {
            "format": {"const": FORMAT},
            "version": {"const": 1},
            "id": {"type": "string", "pattern": ID_PATTERN},
            "rule": {"type": "string"},
            "title": {"type": "string"},
            "description": {"type": "string"},
            "history": {"type": "string", "description": "a historical note for players (free text)"},
            "start_turn": turn,
            "first_turn_marches": {"oneOf": [{"type": "integer", "minimum": 1, "maximum": 6}, {"const": "roll"}],
                                   "description": "marches each side gets without a roll on the first turn; "
                                                  "\"roll\": a position in progress, every march is rolled"},
            "last_turn": turn,
            "end": {"enum": list(ENDS)},
            "score_turn": {"enum": sorted(SCORE_TABLE), "description": "the T-8 row: only with end \"table\""},
            "units": {"type": "array", "items": {"$ref": "#/$defs/placement"}},
            "control": {
                "type": "object",
                "properties": {side: boxes for side in ("union", "confederate", "neutral")},
                "additionalProperties": False,
            },
            "leaders": {"type": "array", "items": {"$ref": "#/$defs/leader"}, "maxItems": len(LEADERS)},
            "stated_maxima": {
                "type": "object",
                "properties": {side: {"type": "integer", "minimum": 0, "maximum": MAX_STATED}
                               for side in ("union", "confederate")},
                "required": ["union", "confederate"],
                "additionalProperties": False,
            },
            "based_on": {"enum": list(BUILT_IN),
                         "description": "a shipped scenario whose keys are used for every key left out"},
            "march_roll": {"type": "integer", "minimum": 1, "maximum": 6,
                           "description": "a position in progress: the Union's march roll already made"},
            "options": {"type": "array", "items": {"enum": list(SWITCHES)}, "uniqueItems": True},
            "cavalry_held": boxes,
            "border_states": {"type": "array", "items": {"enum": list(T7)}, "uniqueItems": True},
            "foreign": {
                "type": "object",
                "properties": {"europe": {"type": "integer", "minimum": 0},
                               "aside": {"type": "integer", "minimum": 0}},
                "additionalProperties": False,
            },
            "invaded_ports": boxes,
            "contained": boxes,
            "washington_penalty": {"type": "integer", "minimum": 0, "maximum": 40},
        },
        "additionalProperties": False,
        "if": {"not": {"required": ["based_on"]}},
        "then": {
            "required": required,
            "if": {"properties": {"end": {"const": "table"}}},
            "then": {"required": ["score_turn"]},
            "else": {"not": {"required": ["score_turn"]}},
        },
        "$defs": {
            "box": {"enum": sorted(default_board().boxes)},
            "placement": {
                "type": "object",
                "properties": {
                    "side": {"enum": ["union", "confederate"]},
                    "type": {"enum": list(UNIT_TYPES) + list(TYPE_ALIASES)},
                    "box": box,
                    "count": {"type": "integer", "minimum": 1, "maximum": MAX_COUNTERS},
                    "entrenched": {"type": "boolean"},
                    "strength": {"enum": ["full", "reduced"]},
                    "foreign": {"type": "boolean"},
                },
                "required": ["side", "type", "box"],
                "additionalProperties": False,
            },
            "leader": {
                "type": "object",
                "properties": {"name": {"enum": list(LEADERS)}, "box": box, "removed": {"type": "boolean"},
                               "value": {"type": "integer", "minimum": 0, "maximum": 3}},
                "required": ["name"],
                "additionalProperties": False,
            },
        },
    }
    assert set(schema["properties"]) == set(SCENARIO_KEYS), "scenario keys and schema differ"
    assert set(schema["$defs"]["placement"]["properties"]) == set(UNIT_KEYS)
    return schema


def _field(kind: str) -> dict:
    name = {"type": "string", "maxLength": action_fields.MAX_NAME}
    if kind == "str":
        return name
    if kind == "int":
        return {"type": "integer", "minimum": 1, "maximum": 6}
    if kind == "strs":
        return {"type": "array", "items": name, "maxItems": action_fields.MAX_ITEMS}
    return {"type": "array", "maxItems": action_fields.MAX_ITEMS,
            "items": {"type": "array", "prefixItems": [name, name], "items": False, "minItems": 2}}


def record_schema() -> dict:
    kinds = {}
    for kind, cls in A.ACTION_TYPES.items():
        checks = action_fields.field_checks(cls)
        props = {"type": {"const": kind}}
        props.update({name: _field(check) for name, check in checks})
        if cls is A.Roll:
            props["auto"] = {"type": "boolean", "description": "drawn by the game's generator (checked against the seed)"}
        kinds[kind] = {"type": "object", "properties": props, "required": ["type"] + [n for n, _ in checks],
                       "additionalProperties": False}
    return {
        "$schema": DRAFT,
        "title": "A House Divided game record",
        "description": "A saved game (docs/record-format.md). Written by scripts/make_schemas.py. The loader "
                       "also replays every action and refuses an illegal one or an automatic roll that its seed "
                       "does not give. Files are at most 5 MB, nested at most 20 deep, without repeated keys.",
        "type": "object",
        "properties": {
            "format": {"const": RECORD_FORMAT},
            "version": {"const": RECORD_VERSION},
            "scenario": {"oneOf": [{"enum": list(BUILT_IN)}, {"$ref": "scenario.schema.json"}],
                         "description": "a shipped scenario's id, or the scenario itself"},
            "options": {"type": "array", "items": {"enum": list(SWITCHES)}, "uniqueItems": True},
            "seed": {"type": "integer", "minimum": 0, "maximum": 2 ** 128 - 1},
            "play_on": {"type": "boolean"},
            "dice": {"enum": list(DICE_MODES)},
            "actions": {"type": "array", "items": {"$ref": "#/$defs/action"}},
        },
        "required": ["format", "version", "scenario", "options", "seed", "actions"],
        "additionalProperties": False,
        "$defs": {
            "action": {
                "type": "object",
                "properties": {"type": {"enum": list(kinds)}},
                "required": ["type"],
                "allOf": [{"if": {"properties": {"type": {"const": kind}}}, "then": {"$ref": f"#/$defs/{kind}"}}
                          for kind in kinds],
            },
            **kinds,
        },
    }


def render(schema: dict) -> str:
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    targets = {SCENARIO_TARGET: render(scenario_schema()), RECORD_TARGET: render(record_schema())}
    stale = [path for path, text in targets.items()
             if not path.exists() or path.read_text(encoding="utf-8") != text]
    if "--check" in argv:
        for path in stale:
            print(f"{path.relative_to(ROOT)} is out of date: run python scripts/make_schemas.py")
        return 1 if stale else 0
    for path, text in targets.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
