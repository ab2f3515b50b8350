"""Scenarios (§2 = S-1, S-13, S-0): data files in ``ahd/data/scenarios``, validated on load.

A scenario file is JSON::

    {"format": "house-divided-scenario", "version": 1,
     "id": "1861", "rule": "S-1", "title": "...", "description": "...",
     "start_turn": 1, "first_turn_marches": 2, "last_turn": 40, "end": "campaign",
     "units": [{"side": "union", "type": "MF", "count": 3, "box": "washington", "entrenched": false}, ...],
     "control": {"union": ["louisville"], "confederate": []}}

``"based_on": "<id>"`` copies every field of a shipped scenario that the file does not set.
A malformed file raises DataFileError naming the file, the key and the problem.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from .board import Board, default_board
from .calendar import DRAFT_TURNS, LAST_TURN
from .control import update_control
from .errors import DataFileError
from .i18n import Msg, Msgn, Term
from .jsonfile import JsonProblem, parse, read_file
from .leaders import REMOVED, t6_value
from .options import Options
from .sides import Side
from .state import State
from .units import (ASIDE, EUROPE, FOREIGN_PREFIX, FULL, MILITIA_MIX, POOL, REDUCED, RESERVE, TYPE_ALIASES,
                    UNIT_TYPES, Unit)
from .recruitment import draft_schedule
from .scenario_file import (SCENARIO_KEYS, check_shape as _check_shape, fail as _fail, get as _get, keys as _keys,
                            position_keys as _position_keys, scenario_id as _scenario_id, short as _short)
from .victory import SCORE_TABLE

FORMAT = "house-divided-scenario"
ENDS = ("campaign", "short", "table")
BUILT_IN = ("1861", "short", "1862", "1863", "1864")
ALIASES = {"s-1": "1861", "campaign": "1861", "s-13": "short", "s-1862": "1862", "s-1863": "1863",
           "s-1864": "1864"}
LEADERS = ("grant", "sherman", "lee")


@dataclass(frozen=True, slots=True)
class Placement:
    side: Side
    type: str
    box: str
    entrenched: bool = False
    strength: str = "full"     # "reduced": the counter is flipped (5.1.c)
    foreign: bool = False      # AO-8.4: a foreign veteran infantry unit (X-FV-nn)


#: The shipped scenarios' titles (``ahd/data/scenarios/*.json``), marked for the catalogs: a game's log
#: opens with "<title>: the game begins" in the player's language.
BUILT_IN_TITLES = (
    Term("scenario", "The 1861 campaign"),
    Term("scenario", "1862: The war in earnest (April 1862 – March 1863)"),
    Term("scenario", "1863: The turning point (April 1863 – March 1864)"),
    Term("scenario", "1864: The hard hand of war (April 1864 – March 1865)"),
    Term("scenario", "The short game (July 1861 – June 1862)"),
)

@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    rule: str
    title: str
    description: str
    start_turn: int
    first_turn_marches: int
    last_turn: int
    end: str
    units: tuple[Placement, ...]
    control: tuple[tuple[str, Side | None], ...]
    score_turn: int | None  # S-0: the scenario is scored on T-8 after this turn ("table" end)
    leaders: tuple[tuple[str, str], ...]  # (leader, box): placed only when leader rules are on
    stated_maxima: dict | None  # the army maxima the scenario text states (validation target)
    source: str
    data: Any  # the validated JSON, kept for game records of custom scenarios
    # Positions in progress (Game.to_scenario; docs/scenario-format.md "Positions"): all optional.
    march_roll: int | None = None  # the Union's first march roll, already made (first_turn_marches "roll")
    options: tuple[str, ...] | None = None  # the rule switches used when new_game is given none
    cavalry_held: tuple[str, ...] = ()      # 9.b: boxes held by cavalry alone
    border_states: tuple[str, ...] = ()     # AO-8.3: border states whose support roll succeeded
    foreign: dict | None = None             # AO-8.4: {"europe": n, "aside": m} once intervention happened
    invaded_ports: tuple[str, ...] = ()     # A-4 (a)
    contained: tuple[str, ...] = ()         # boxes where Union units are contained
    washington_penalty: int = 0             # permanent reduction of the Union maximum
    removed_leaders: tuple[str, ...] = ()   # AO-8.2.2: leaders removed, waiting to return
    leader_values: tuple[tuple[str, int], ...] = ()  # values given instead of T-6 at start_turn (C-2)

    @property
    def title_term(self) -> Term:
        """The title as a message parameter: a shipped scenario's title reads in each language (see
        ``BUILT_IN_TITLES``); a custom scenario's title reads as written."""
        return Term("scenario", self.title)

    @property
    def is_built_in(self) -> bool:
        return self.source.startswith("ahd/data/")

    def setup(self, board: Board, options: Options) -> State:
        """Build the starting State (2.b–2.d, S-0): counters, pools, reserve, control."""
        state = State(board, options)
        state.first_turn = self.start_turn
        for side, mix in MILITIA_MIX.items():
            for code, count in mix.items():
                for _ in range(count):
                    state.new_unit(side, UNIT_TYPES[code], POOL)
        for name in self.border_states:  # AO-8.3: each success added a Confederate militia infantry
            state.border_used.add(name)
            state.new_unit(Side.CONFEDERATE, UNIT_TYPES["MF"], POOL)
        foreign = [p.box for p in self.units if p.foreign]
        if self.foreign is not None:  # AO-8.4: intervention has happened
            state.intervention = True
            foreign += [EUROPE] * self.foreign.get("europe", 0) + [ASIDE] * self.foreign.get("aside", 0)
        for number, box in enumerate(foreign, 1):
            unit = Unit(f"{FOREIGN_PREFIX}FV-{number:02d}", Side.CONFEDERATE, UNIT_TYPES["FV"], box)
            state.units[unit.id] = unit
            if unit.on_map:
                state.by_box[box].append(unit)
        foreign_units = iter([u for u in state.units.values() if u.is_foreign and u.on_map])
        for p in self.units:
            if p.foreign:
                unit = next(foreign_units)
            elif p.type in MILITIA_MIX[p.side]:
                unit = min((u for u in state.pool(p.side, p.type)), key=lambda u: u.id)
                state.place(unit, p.box)
            else:
                unit = state.new_unit(p.side, UNIT_TYPES[p.type], p.box)
            unit.entrenched = p.entrenched
            unit.strength = p.strength
        reserve = sum(n for turn, n in draft_schedule(options).items() if turn >= self.start_turn)
        for unit in sorted(state.pool(Side.UNION, "MF"), key=lambda u: u.id, reverse=True)[:reserve]:
            state.place(unit, RESERVE)
        for box, side in self.control:
            state.set_control(box, side, cavalry_held=box in self.cavalry_held)
        state.washington_penalty = self.washington_penalty
        state.invaded_ports = set(self.invaded_ports)
        state.contained = set(self.contained)
        update_control(state)
        if "AO-8.2" in options:  # S-0: leaders as listed, only with AO-8.2
            for name, box in self.leaders:
                leader = state.leaders[name]
                leader.location = box
                leader.value = t6_value(name, self.start_turn)
            for name in self.removed_leaders:
                state.leaders[name].location = REMOVED
                state.leaders[name].value = t6_value(name, self.start_turn)
            for name, value in self.leader_values:
                state.leaders[name].value = value
        state.turn = self.start_turn
        return state


def scenario_from_dict(data: Any, path: str, board: Board | None = None) -> Scenario:
    """Validate a scenario structure and build the Scenario."""
    board = board or default_board()
    if not isinstance(data, dict):
        raise _fail(path, "<root>", Msg("expected a JSON object, got {kind}", kind=type(data).__name__))
    if "format" in data and data["format"] != FORMAT:
        if data["format"] == "house-divided-record":
            raise _fail(path, "format", Msg("expected {expected}, got {value}: not a scenario file (a game record: load "
                                            "it with ahd.load)", expected=repr(FORMAT), value=_short(data["format"])))
        raise _fail(path, "format", Msg("expected {expected}, got {value}: not a scenario file", expected=repr(FORMAT),
                                        value=_short(data["format"])))
    _keys(data, SCENARIO_KEYS, path)
    if "based_on" in data:
        base_id = _get(data, "based_on", str, path)
        if base_id not in BUILT_IN:
            raise _fail(path, "based_on", Msg("unknown scenario {name}; shipped: {shipped}", name=repr(base_id),
                                              shipped=", ".join(BUILT_IN)))
        base = dict(load_scenario(base_id).data)
        if data.get("end", "table") != "table" and "score_turn" not in data:
            base.pop("score_turn", None)  # the base's T-8 row does not apply to another end
        base.update({k: v for k, v in data.items() if k != "based_on"})
        data = base
    elif "format" not in data:
        raise _fail(path, "format", Msg("missing: not a scenario file (expected \"format\": {expected})", expected=repr(FORMAT)))
    _check_shape(data, path)
    if data.get("format") != FORMAT:
        raise _fail(path, "format", Msg("expected {expected}, got {value}: not a scenario file", expected=repr(FORMAT),
                                        value=_short(data.get("format"))))
    if _get(data, "version", int, path) != 1:
        raise _fail(path, "version", Msg("unsupported version {version} (this program reads version 1)",
                                         version=_short(data["version"])))
    start = _get(data, "start_turn", int, path)
    last = _get(data, "last_turn", int, path)
    if not 1 <= start <= LAST_TURN:
        raise _fail(path, "start_turn", Msg("must be {low}–{high}, got {value}", low=1, high=LAST_TURN, value=start))
    if not start <= last <= LAST_TURN:
        raise _fail(path, "last_turn", Msg("must be between start_turn ({start}) and {last}, got {value}", start=start,
                                           last=LAST_TURN, value=last))
    if data.get("first_turn_marches") == "roll":  # a position in progress: every march is rolled
        marches = 0
    else:
        marches = _get(data, "first_turn_marches", int, path)
        if not 1 <= marches <= 6:
            raise _fail(path, "first_turn_marches", Msg("must be 1–6 or \"roll\", got {value}", value=marches))
    march_roll = data.get("march_roll")
    if march_roll is not None:
        if isinstance(march_roll, bool) or not isinstance(march_roll, int) or not 1 <= march_roll <= 6:
            raise _fail(path, "march_roll", Msg("a die shows 1 to 6, got {value}", value=_short(march_roll)))
        if marches:
            raise _fail(path, "march_roll", Msg("only with \"first_turn_marches\": \"roll\""))
    end = _get(data, "end", str, path)
    if end not in ENDS:
        raise _fail(path, "end", Msg("expected one of {choices}, got {value}", choices=", ".join(ENDS), value=_short(end)))
    score_turn = None
    if end == "table":
        score_turn = _get(data, "score_turn", int, path)
        if score_turn not in SCORE_TABLE:
            raise _fail(path, "score_turn", Msg("the scenario victory table (T-8) scores turns {turns}, not {value}",
                                                turns=", ".join(map(str, SCORE_TABLE)), value=score_turn))
        if not start <= score_turn <= last:
            raise _fail(path, "score_turn", Msg("must lie between start_turn and last_turn, got {value}", value=score_turn))
    leaders, removed, values = [], [], []
    for i, raw in enumerate(data.get("leaders", [])):
        where = f"leaders[{i}]"
        if not isinstance(raw, dict):
            raise _fail(path, where, Msg("expected an object {shape}", shape="{name, box}"))
        name = _get(raw, "name", str, path, where).lower()
        if name not in LEADERS:
            raise _fail(path, f"{where}.name", Msg("unknown leader {name}: expected one of {choices}", name=_short(raw["name"]),
                                                  choices=", ".join(LEADERS)))
        if "value" in raw:  # C-2: a value changes when its side's marches are determined, not at turn start
            value = raw["value"]
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
                raise _fail(path, f"{where}.value", Msg("a leader's value is 0–3 (T-6), got {value}", value=_short(value)))
            values.append((name, value))
        if raw.get("removed", False) is True and "box" not in raw:  # AO-8.2.2: off the map, to return
            removed.append(name)
            continue
        box = _get(raw, "box", str, path, where)
        if box not in board:
            raise _fail(path, f"{where}.box", Msg("unknown box {box}", box=_short(box)))
        leaders.append((name, box))
    stated = data.get("stated_maxima")
    if stated is not None:
        if not isinstance(stated, dict) or set(stated) != {"union", "confederate"} or not all(
                isinstance(v, int) and not isinstance(v, bool) for v in stated.values()):
            raise _fail(path, "stated_maxima", Msg("expected {shape}", shape='{"union": int, "confederate": int}'))
    placements = []
    militia_on_map = {side: {code: 0 for code in mix} for side, mix in MILITIA_MIX.items()}
    for i, raw in enumerate(_get(data, "units", list, path)):
        where = f"units[{i}]"
        if not isinstance(raw, dict):
            raise _fail(path, where, Msg("expected an object"))
        side_name = _get(raw, "side", str, path, where)
        try:
            side = Side.parse(side_name)
        except ValueError:
            raise _fail(path, f"{where}.side", Msg("unknown side {value}: expected 'union' or 'confederate'",
                                                      value=_short(side_name))) from None
        code = _get(raw, "type", str, path, where).upper()
        code = TYPE_ALIASES.get(code, code)
        if code not in UNIT_TYPES:
            raise _fail(path, f"{where}.type", Msg("unknown unit type {value}: expected one of {choices}",
                                                  value=_short(raw["type"]), choices=", ".join(UNIT_TYPES)))
        box = _get(raw, "box", str, path, where)
        if box not in board:
            raise _fail(path, f"{where}.box", Msg("unknown box {box}", box=_short(box)))
        count = raw.get("count", 1)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise _fail(path, f"{where}.count", Msg("must be a positive integer, got {value}", value=_short(count)))
        entrenched = raw.get("entrenched", False)
        if not isinstance(entrenched, bool):
            raise _fail(path, f"{where}.entrenched", Msg("expected true or false, got {value}", value=_short(entrenched)))
        strength = raw.get("strength", FULL)
        if strength not in (FULL, REDUCED):
            raise _fail(path, f"{where}.strength", Msg("expected \"full\" or \"reduced\", got {value}", value=_short(strength)))
        foreign = raw.get("foreign", False)
        if not isinstance(foreign, bool):
            raise _fail(path, f"{where}.foreign", Msg("expected true or false, got {value}", value=_short(foreign)))
        if foreign and (side is not Side.CONFEDERATE or code != "FV"):
            raise _fail(path, f"{where}.foreign", Msg("foreign units are Confederate veteran infantry (AO-8.4)"))
        if code in militia_on_map[side]:
            militia_on_map[side][code] += count
        placements.extend(Placement(side, code, box, entrenched, strength, foreign) for _ in range(count))
    extra = _position_keys(data, path, board)
    reserve = 4 * sum(1 for t in DRAFT_TURNS if t >= start)
    for side, counts in militia_on_map.items():
        for code, n in counts.items():
            limit = MILITIA_MIX[side][code] - (reserve if side is Side.UNION and code == "MF" else 0)
            if side is Side.CONFEDERATE and code == "MF":
                limit += len(extra["border_states"])  # AO-8.3
            if n > limit:
                raise _fail(path, "units", Msgn("{n} {side} {kind} counter on the map, but the counter mix allows {limit} "
                                                "at turn {turn} (1.3.a)",
                                                "{n} {side} {kind} counters on the map, but the counter mix allows {limit} "
                                                "at turn {turn} (1.3.a)",
                                                n=n, side=side, kind=Term("unit", UNIT_TYPES[code].name), limit=limit,
                                                turn=start))
    control = []
    raw_control = data.get("control", {})
    if not isinstance(raw_control, dict):
        raise _fail(path, "control", Msg("expected an object {shape}", shape="{side: [box, ...]}"))
    for side_name, boxes in raw_control.items():
        try:
            side = None if side_name == "neutral" else Side.parse(side_name)
        except ValueError:
            raise _fail(path, f"control.{side_name}", Msg("unknown side")) from None
        if not isinstance(boxes, list):
            raise _fail(path, f"control.{side_name}", Msg("expected a list of box ids"))
        for j, box in enumerate(boxes):
            if box not in board:
                raise _fail(path, f"control.{side_name}[{j}]", Msg("unknown box {box}", box=_short(box)))
            control.append((box, side))
    marked = {box for box, side in control if side is not None}
    for j, box in enumerate(extra["cavalry_held"]):
        if box not in marked:
            raise _fail(path, f"cavalry_held[{j}]", Msg("{box} is not given to a side in \"control\" (9.b)", box=_short(box)))
    return Scenario(
        id=_scenario_id(data, path), rule=_get(data, "rule", str, path), title=_get(data, "title", str, path),
        description=str(data.get("description", "")), start_turn=start, first_turn_marches=marches,
        last_turn=last, end=end, units=tuple(placements), control=tuple(control), score_turn=score_turn,
        leaders=tuple(leaders), stated_maxima=stated, source=path, data=data, march_roll=march_roll,
        removed_leaders=tuple(removed), leader_values=tuple(values), **extra)


def load_scenario(name_or_path: "str | Path | Scenario | dict", board: Board | None = None) -> Scenario:
    """A shipped scenario by id (``"1861"``, ``"short"``), a scenario file by path, or a scenario
    as a dict in the file format (e.g. from ``Game.to_scenario()``)."""
    if isinstance(name_or_path, Scenario):
        return name_or_path
    if isinstance(name_or_path, dict):
        return scenario_from_dict(name_or_path, "<scenario dict>", board)
    key = str(name_or_path).strip()
    key = ALIASES.get(key.lower(), key)
    if key in BUILT_IN:
        ref = resources.files("ahd") / "data" / "scenarios" / f"{key}.json"
        return scenario_from_dict(parse(ref.read_bytes()), f"ahd/data/scenarios/{key}.json", board)
    path = Path(key)
    if not path.suffix and not path.exists():
        raise DataFileError(key, "<file>", Msg("unknown scenario {name}: shipped scenarios are {shipped}, or give the "
                                               "path of a scenario file", name=repr(key), shipped=", ".join(BUILT_IN)))
    try:
        data = parse(read_file(path))
    except JsonProblem as exc:
        raise DataFileError(path, exc.key, exc.problem) from None
    return scenario_from_dict(data, str(path), board)
