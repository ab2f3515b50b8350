"""The game record (docs/record-format.md): its keys, and reading one back into a game.

A record is the scenario, the options, the seed, the dice mode and every action; reading it checks each
key and replays each action, so a corrupt, truncated, foreign or illegal record raises RecordError naming
the key or action at fault. :class:`~ahd.core.game.Game` writes records and reads them through here.
"""
from __future__ import annotations

import difflib
from typing import Any

from .actions import Action, Roll, action_from_dict
from .errors import AhdError, DataFileError, RecordError
from .i18n import Msg, N_
from .jsonfile import JsonProblem, parse, unknown_key_problem, where
from .options import SWITCHES
from .scenario import BUILT_IN, scenario_from_dict

RECORD_FORMAT = "house-divided-record"
RECORD_VERSION = 1
DICE_MODES = ("auto", "manual")
#: The keys of a game record (docs/record-format.md, docs/record.schema.json); any other key is an error.
RECORD_KEYS = ("format", "version", "scenario", "options", "seed", "play_on", "dice", "actions")
#: The largest seed (seeds are below 2**128, so a record's seed has at most 39 digits).
MAX_SEED = 2 ** 128 - 1
#: A record's file says "invalid JSON" where a scenario's says "not valid JSON".
_INVALID_JSON = {"not valid JSON: {reason} (column {column})": N_("invalid JSON: {reason} (column {column})"),
                 "not valid JSON: the file is empty": N_("invalid JSON: the file is empty"),
                 "not valid JSON: {name} is not a JSON number": N_("invalid JSON: {name} is not a JSON number")}


def read_record(cls: type, text: str | bytes, path: object) -> Any:
    """Parse a record's JSON text and replay it as a game of class ``cls`` (RecordError says what is wrong)."""
    try:
        data = parse(text)
    except JsonProblem as exc:
        problem = exc.problem
        if isinstance(problem, Msg) and problem.msgid in _INVALID_JSON:  # a record says "invalid JSON"
            problem = Msg(_INVALID_JSON[problem.msgid], **problem.params)
        raise RecordError(f"{where(exc.key)}: {problem}", path=path, key=exc.key) from None
    return replay_record(cls, data, path)

def replay_record(cls: type, data: Any, path: object) -> Any:
    """Check a record's JSON structure and replay it as a game of class ``cls`` (a :class:`~ahd.core.game.Game`
    or a subclass); RecordError names the key or action at fault."""
    def bad(key: str, problem: "Msg | str") -> RecordError:
        return RecordError(f"{key}: {problem}", path=path, key=key)

    if not isinstance(data, dict):
        raise bad("<root>", Msg("not a House Divided game record: expected a JSON object, got {kind}",
                                kind=type(data).__name__))
    if data.get("format") != RECORD_FORMAT:
        found = data.get("format")
        got = short(found) if "format" in data else Msg("no format")
        if found == "house-divided-scenario":
            raise bad("format", Msg("not a House Divided game record: expected {expected}, got {got} (this is a "
                                    "scenario file: play it with new_game)", expected=repr(RECORD_FORMAT), got=got))
        raise bad("format", Msg("not a House Divided game record: expected {expected}, got {got}",
                                expected=repr(RECORD_FORMAT), got=got))
    version = data.get("version")
    if isinstance(version, bool) or version != RECORD_VERSION:
        raise bad("version", Msg("unsupported record version {version}; this program reads version {supported}",
                                 version=short(version), supported=RECORD_VERSION))
    for key in data:
        if key not in RECORD_KEYS:
            raise bad(str(key), unknown_key_problem(key, RECORD_KEYS))
    for key in ("scenario", "options", "seed", "actions"):
        if key not in data:
            raise bad(key, Msg("the record lacks {key}: truncated or damaged", key=repr(key)))
    scenario, options, seed = data["scenario"], data["options"], data["seed"]
    if isinstance(scenario, str):
        if scenario not in BUILT_IN:
            raise bad("scenario", Msg("unknown scenario {scenario}: a record names a shipped scenario "
                                      "({shipped}) or holds the scenario itself", scenario=short(scenario),
                                      shipped=", ".join(BUILT_IN)))
    elif isinstance(scenario, dict):
        try:
            scenario = scenario_from_dict(scenario, "<record>")
        except DataFileError as exc:
            raise bad(f"scenario.{exc.key}", exc.problem) from None
    else:
        raise bad("scenario", Msg("expected a shipped scenario's id or a scenario object, got {value}",
                                  value=short(scenario)))
    if not isinstance(options, list) or not all(isinstance(rule, str) for rule in options):
        raise bad("options", Msg("expected a list of rule IDs (strings), got {value}", value=short(options)))
    for index, rule in enumerate(options):
        if rule not in SWITCHES:
            close = difflib.get_close_matches(rule, list(SWITCHES), n=1)
            if close:
                raise bad(f"options[{index}]", Msg("unknown rule switch {rule} (did you mean {close}?)",
                                                   rule=short(rule), close=repr(close[0])))
            raise bad(f"options[{index}]", Msg("unknown rule switch {rule}; known switches: {switches}",
                                               rule=short(rule), switches=", ".join(SWITCHES)))
        if options.index(rule) != index:
            raise bad(f"options[{index}]", Msg("rule switch {rule} listed twice", rule=repr(rule)))
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise bad("seed", Msg("expected an integer from 0 to 2**128 - 1, got {value}", value=short(seed)))
    play_on = data.get("play_on", False)
    if not isinstance(play_on, bool):
        raise bad("play_on", Msg("expected true or false, got {value}", value=short(play_on)))
    dice = data.get("dice", "auto")
    if not isinstance(dice, str) or dice not in DICE_MODES:
        raise bad("dice", Msg("expected one of {modes}, got {value}", modes=", ".join(map(repr, DICE_MODES)),
                              value=short(dice)))
    actions = data["actions"]
    if not isinstance(actions, list):
        raise bad("actions", Msg("expected a list of actions, got {value}", value=short(actions)))
    try:
        game = cls(scenario, options=options, seed=seed, dice="manual", play_on=play_on)
    except (AhdError, ValueError, TypeError) as exc:
        raise bad("<set-up>", Msg("the record's set-up is invalid: {problem}", problem=str(exc))) from None
    for index, raw in enumerate(actions):
        where = f"actions[{index}]"
        auto = False
        if isinstance(raw, dict) and "auto" in raw:
            auto = raw["auto"]
            if not isinstance(auto, bool):
                raise bad(f"{where}.auto", Msg("action {index} of the record is malformed: auto must be true or "
                                               "false, got {value}", index=index, value=short(auto)))
            if auto and raw.get("type") != Roll.kind:
                raise bad(f"{where}.auto", Msg("action {index} of the record is malformed: only a die roll is "
                                               "automatic, not {kind}", index=index, kind=short(raw.get("type"))))
            raw = {k: v for k, v in raw.items() if k != "auto"}
        try:
            action = action_from_dict(raw)
        except ValueError as exc:
            field = getattr(exc, "field", None)
            raise bad(f"{where}.{field}" if field else where,
                      Msg("action {index} of the record is malformed: {problem}", index=index,
                          problem=getattr(exc, "message", str(exc)))) from None
        error = game.why_not(action)
        if error is not None:
            raise bad(where, Msg("action {index} of the record ({action}) is illegal: {error}", index=index,
                                 action=cut(str(action)), error=cut(str(error), 400)))
        try:
            game._replay_one(action, auto)
        except RecordError as exc:
            raise bad(where, Msg("action {index}: {problem}", index=index, problem=str(exc))) from None
    game.dice = dice
    return game


def record_entry(index: int, raw: "Action | dict[str, Any]") -> tuple[Action, bool]:
    """An action given to :meth:`~ahd.core.game.Game.extend` (an action, or a record entry as the record holds it),
    as (action, drawn by the game's generator); RecordError says what is malformed."""
    if isinstance(raw, Action):
        return raw, False
    if not isinstance(raw, dict):
        raise RecordError(str(Msg("action {index} is malformed: expected an action or a record entry, got {value}",
                                  index=index, value=short(raw))))
    auto = raw.get("auto", False)
    if not isinstance(auto, bool) or (auto and raw.get("type") != Roll.kind):
        raise RecordError(str(Msg("action {index} is malformed: only a die roll is automatic, and auto is true or "
                                  "false (got {value})", index=index, value=short(auto))))
    try:
        action = action_from_dict({k: v for k, v in raw.items() if k != "auto"})
    except ValueError as exc:
        raise RecordError(str(Msg("action {index} is malformed: {problem}", index=index,
                                  problem=getattr(exc, "message", str(exc))))) from None
    return action, auto


def short(value: Any) -> str:
    """``repr`` of a value from a file, cut short for a message."""
    return cut(repr(value), 60)


def cut(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."
