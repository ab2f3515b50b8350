"""The scenario file's checks (docs/scenario-format.md, docs/scenario.schema.json): its keys, the kind and
bounds of each value, the documented limits, the keys of a position in progress. Each problem is a DataFileError
naming the file and the key; :func:`ahd.core.scenario.scenario_from_dict` reads a file through them.
"""
from __future__ import annotations

import re
from typing import Any

from .advanced import FOREIGN_UNITS, T7
from .board import Board
from .errors import DataFileError
from .i18n import Msg, Msgn, Num
from .jsonfile import check_keys
from .options import SWITCHES, Options
from .sides import Side


def fail(path: str, key: str, problem: "str | Msg") -> DataFileError:
    return DataFileError(path, key, problem)


#: What a scenario id may be: it names files and folders (publish, the editor's downloads) and is shown in
#: pages, so no spaces, slashes, quotes, newlines or markup (docs/security.md, finding 2).
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$"
_ID = re.compile(ID_PATTERN)


def scenario_id(data: dict, path: str) -> str:
    value = get(data, "id", str, path)
    if not _ID.fullmatch(value):
        raise fail(path, "id", f"expected 1 to 64 letters, digits, '-', '_', '.' or '@' (starting with a letter or "
                                f"digit), got {short(value)}")
    return value


def get(data: dict, key: str, kind: type, path: str, where: str = "") -> Any:
    full = f"{where}.{key}" if where else key
    if key not in data:
        raise fail(path, full, Msg("missing"))
    value = data[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)) or not isinstance(value, kind):
        raise fail(path, full, Msg("expected {kind}, got {value}", kind=_KIND_NAMES.get(kind, kind.__name__), value=short(value)))
    return value


_KIND_NAMES = {int: Msg("an integer"), str: Msg("a string"), list: Msg("a list"), dict: Msg("an object"),
               bool: Msg("true or false")}

#: The keys of a scenario file (docs/scenario-format.md, docs/scenario.schema.json); any other key is an error.
SCENARIO_KEYS = ("format", "version", "id", "rule", "title", "description", "history", "start_turn", "first_turn_marches",
                 "last_turn", "end", "score_turn", "units", "control", "leaders", "stated_maxima", "based_on",
                 # a position in progress (Game.to_scenario; "Positions" in docs/scenario-format.md)
                 "march_roll", "options", "cavalry_held", "border_states", "foreign", "invaded_ports",
                 "contained", "washington_penalty")
UNIT_KEYS = ("side", "type", "box", "count", "entrenched", "strength", "foreign")
LEADER_KEYS = ("name", "box", "removed", "value")
CONTROL_KEYS = ("union", "confederate", "neutral")
MAXIMA_KEYS = ("union", "confederate")
#: The most counters of one side a scenario may put on the map (a documented limit: veteran and crack
#: counters are unlimited by 1.3.a, militia is bounded by the counter mix; 1864 places 44 Union counters).
MAX_COUNTERS = 100
#: The largest army maximum a scenario may state.
MAX_STATED = 200


def short(value: Any) -> str:
    """``repr`` of a value from a file, cut short for a message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def keys(data: dict, allowed: tuple[str, ...], path: str, where: str = "") -> None:
    check_keys(data, allowed, lambda key, problem: fail(path, key, problem), where)


def check_shape(data: dict, path: str) -> None:
    """Keys, kinds and bounds of a scenario (after ``based_on`` is applied): nothing is ignored."""
    keys(data, SCENARIO_KEYS, path)
    for key in ("description", "history"):  # history: the historical note shown to players (free text)
        if key in data and not isinstance(data[key], str):
            raise fail(path, key, Msg("expected a string, got {value}", value=short(data[key])))
    if "score_turn" in data and data.get("end") != "table":
        raise fail(path, "score_turn", Msg("only with \"end\": \"table\" (S-0), not with end {end}", end=short(data.get("end"))))
    units = get(data, "units", list, path)
    totals = {side: 0 for side in Side}
    for i, raw in enumerate(units):
        where = f"units[{i}]"
        if not isinstance(raw, dict):
            raise fail(path, where, Msg("expected an object {{side, type, box, count, entrenched}}, got {value}", value=short(raw)))
        keys(raw, UNIT_KEYS, path, where)
        count = raw.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise fail(path, f"{where}.count", Msg("must be a positive integer, got {value}", value=short(count)))
        if count > MAX_COUNTERS:
            raise fail(path, f"{where}.count", Msg("{count} counters: a side has at most {most} on the map (documented "
                                                     "limit; militia is bounded by the counter mix, 1.3.a)",
                                                     count=Num(count), most=MAX_COUNTERS))
        side = raw.get("side")
        if isinstance(side, str) and side.strip().lower() in totals:
            totals[Side(side.strip().lower())] += count
    for side, total in totals.items():
        if total > MAX_COUNTERS:
            raise fail(path, "units", Msgn("{n} {side} counter on the map: a side has at most {most} (documented limit)",
                                            "{n} {side} counters on the map: a side has at most {most} (documented limit)",
                                            n=total, side=side, most=MAX_COUNTERS))
    leaders = data.get("leaders", [])
    if not isinstance(leaders, list):
        raise fail(path, "leaders", Msg("expected a list of {{name, box}}, got {value}", value=short(leaders)))
    seen: set[str] = set()
    for i, raw in enumerate(leaders):
        if isinstance(raw, dict):
            keys(raw, LEADER_KEYS, path, f"leaders[{i}]")
            if "removed" in raw and not isinstance(raw["removed"], bool):
                raise fail(path, f"leaders[{i}].removed", Msg("expected true or false, got {value}", value=short(raw["removed"])))
            name = raw.get("name")
            if isinstance(name, str):
                if name.lower() in seen:
                    raise fail(path, f"leaders[{i}].name", Msg("leader {name} listed twice", name=repr(name)))
                seen.add(name.lower())
    control = data.get("control", {})
    if not isinstance(control, dict):
        raise fail(path, "control", Msg("expected an object {{side: [box, ...]}}, got {value}", value=short(control)))
    keys(control, CONTROL_KEYS, path, "control")
    listed: dict[Any, str] = {}
    for side_name, boxes in control.items():
        if not isinstance(boxes, list):
            raise fail(path, f"control.{side_name}", Msg("expected a list of box ids, got {value}", value=short(boxes)))
        for j, box in enumerate(boxes):
            if not isinstance(box, str):
                raise fail(path, f"control.{side_name}[{j}]", Msg("expected a box id (a string), got {value}", value=short(box)))
            if box in listed:
                raise fail(path, f"control.{side_name}[{j}]", Msg("box {box} is already listed in {key}", box=repr(box),
                                                                     key="control." + listed[box]))
            listed[box] = side_name
    stated = data.get("stated_maxima")
    if stated is not None:
        if not isinstance(stated, dict):
            raise fail(path, "stated_maxima", Msg("expected {{\"union\": int, \"confederate\": int}}, got {value}", value=short(stated)))
        keys(stated, MAXIMA_KEYS, path, "stated_maxima")
        for key in MAXIMA_KEYS:
            value = get(stated, key, int, path, "stated_maxima")
            if not 0 <= value <= MAX_STATED:
                raise fail(path, f"stated_maxima.{key}", Msg("must be {low}–{high}, got {value}", low=0, high=MAX_STATED, value=value))


def position_keys(data: dict, path: str, board: Board) -> dict:
    """The optional keys of a position in progress (``Game.to_scenario``), validated."""
    out: dict[str, Any] = {}

    def boxes(key: str) -> tuple[str, ...]:
        value = data.get(key, [])
        if not isinstance(value, list):
            raise fail(path, key, Msg("expected a list of box ids"))
        for j, box in enumerate(value):
            if not isinstance(box, str) or box not in board:
                raise fail(path, f"{key}[{j}]", Msg("unknown box {box}", box=short(box)))
        return tuple(value)

    for key in ("cavalry_held", "invaded_ports", "contained"):
        out[key] = boxes(key)
    options = data.get("options")
    if options is not None:
        if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
            raise fail(path, "options", Msg("expected a list of rule IDs, e.g. [\"H-1\", \"A-2\"]"))
        unknown = sorted(set(options) - set(SWITCHES))
        if unknown:
            raise fail(path, "options", Msg("unknown rule switch {names}; known switches: {known}",
                                             names=", ".join(map(repr, unknown)), known=", ".join(SWITCHES)))
        try:
            Options(frozenset(options))
        except ValueError as exc:
            raise fail(path, "options", str(exc)) from None
        options = tuple(options)
    out["options"] = options
    border = data.get("border_states", [])
    if not isinstance(border, list) or not all(name in T7 for name in border) or len(set(border)) != len(border):
        raise fail(path, "border_states", Msg("expected a list of distinct border states among {choices}",
                                              choices=", ".join(T7)))
    out["border_states"] = tuple(border)
    foreign = data.get("foreign")
    if foreign is not None:
        if not isinstance(foreign, dict) or not set(foreign) <= {"europe", "aside"} or not all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in foreign.values()):
            raise fail(path, "foreign", Msg("expected {shape} (AO-8.4)", shape='{"europe": n, "aside": m}'))
        on_map = sum(raw.get("count", 1) for raw in data["units"] if raw.get("foreign"))
        if on_map + sum(foreign.values()) != FOREIGN_UNITS:
            raise fail(path, "foreign", Msg("the {total} foreign units (AO-8.4) must all be on the map, in Europe or set "
                                            "aside; {given} are given", total=FOREIGN_UNITS,
                                            given=on_map + sum(foreign.values())))
        foreign = dict(foreign)
    elif any(raw.get("foreign") for raw in data["units"]):
        raise fail(path, "foreign", Msg("foreign units are on the map, so \"foreign\" must say where the others are"))
    out["foreign"] = foreign
    penalty = data.get("washington_penalty", 0)
    if isinstance(penalty, bool) or not isinstance(penalty, int) or not 0 <= penalty <= 40:
        raise fail(path, "washington_penalty", Msg("expected a whole number 0–40 (A-6), got {value}", value=short(penalty)))
    out["washington_penalty"] = penalty
    return out
