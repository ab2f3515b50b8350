"""The fields of an action: their kinds (``str``, ``int``, a tuple of strings, a tuple of pairs), the check
that refuses a field of the wrong kind when an action is made, and reading the fields of an action from a
record's JSON, with the limits on names and lists (docs/record-format.md).
"""
from __future__ import annotations

import difflib
from dataclasses import fields
from typing import Any

from .i18n import Msg, Num, render


#: How each kind of field is checked: a field annotated ``str``, ``int``, ``tuple[str, ...]`` or
#: ``tuple[tuple[str, str], ...]`` must hold exactly that (a bool is not an int).
_FIELD_KINDS = {"str": "str", "int": "int", "tuple[str, ...]": "strs", "tuple[tuple[str, str], ...]": "pairs"}
_KIND_TEXT = {"str": "a string", "int": "an integer", "strs": "a tuple of strings",
              "pairs": "a tuple of (string, string) pairs"}
#: The same, as a record's JSON says them (lists, not tuples), for its readers.
_RECORD_KIND_TEXT = {"str": Msg("a string"), "int": Msg("an integer"), "strs": Msg("a list of strings"),
                     "pairs": Msg("a list of (string, string) pairs")}
_CHECKS: dict[type, tuple[tuple[str, str], ...]] = {}


def short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def field_problem(kind: str, value: Any, record: bool = False) -> "str | Msg | None":
    """Why ``value`` is not of field kind ``kind`` (None: it is). ``record``: said to a reader of a record's
    JSON (lists and objects, not tuples and dicts), as a message in the reader's language."""
    if kind == "str":
        ok = isinstance(value, str)
    elif kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif kind == "strs":
        if isinstance(value, tuple):
            for i, item in enumerate(value):
                if not isinstance(item, str):
                    if record:
                        return Msg("item {i} must be a string, got {value}", i=i, value=short(item))
                    return f"item {i} must be a string, got {short(item)}"
            return None
        ok = False
    else:
        if isinstance(value, tuple):
            for i, item in enumerate(value):
                if not (isinstance(item, tuple) and len(item) == 2 and all(isinstance(s, str) for s in item)):
                    if record:
                        return Msg("item {i} must be a pair of strings (shooter, target), got {value}", i=i,
                                   value=short(item))
                    return f"item {i} must be a pair of strings (shooter, target), got {short(item)}"
            return None
        ok = False
    if ok:
        return None
    if record:
        found = {"tuple": "list", "dict": "object", "NoneType": "null", "bool": "boolean"}.get(
            type(value).__name__, type(value).__name__)
        return Msg("must be {kind}, got {found} {value}", kind=_RECORD_KIND_TEXT[kind], found=found,
                   value=short(value))
    return f"must be {_KIND_TEXT[kind]}, got {type(value).__name__} {short(value)}"


def field_checks(cls: type) -> tuple[tuple[str, str], ...]:
    checks = _CHECKS.get(cls)
    if checks is None:
        checks = _CHECKS[cls] = tuple((f.name, _FIELD_KINDS[str(f.type).replace("typing.", "")]) for f in fields(cls))
    return checks


#: Limits on an action read from a record: a name (unit, box, leader, line) has at most MAX_NAME
#: characters and a list (path, lines, targets) at most MAX_ITEMS items.
MAX_NAME = 64
MAX_ITEMS = 200


class ActionDataError(ValueError):
    """A malformed action in a record: ``field`` is the field at fault (None: the whole action); ``message``
    a Msg, said in the current language when read."""

    def __init__(self, message: "str | Msg", field: str | None = None) -> None:
        self.field = field
        self.message = message
        super().__init__(message, field)

    def __str__(self) -> str:
        return render(self.message)


def read_fields(cls: type, data: dict[str, Any]) -> dict[str, Any]:
    """The fields of an action of class ``cls`` read from a record's JSON object ``data`` (its ``type`` and
    unknown keys already checked): lists made tuples, each checked for its kind and the limits; ActionDataError
    names the field at fault."""
    kwargs = {}
    for name, kind in field_checks(cls):
        if name not in data:
            raise ActionDataError(Msg("action {kind} lacks field {field}", kind=repr(data["type"]), field=repr(name)), name)
        value = data[name]
        if kind == "strs" and isinstance(value, list):
            value = tuple(value)
        elif kind == "pairs" and isinstance(value, list):
            value = tuple(tuple(v) if isinstance(v, list) else v for v in value)
        problem = field_problem(kind, value, record=True)
        if problem:
            raise ActionDataError(Msg("action {kind}: {field} {problem}", kind=repr(data["type"]), field=name,
                                      problem=problem), name)
        if kind in ("strs", "pairs") and len(value) > MAX_ITEMS:
            raise ActionDataError(Msg("action {kind}: {field} has {n} items; at most {most}", kind=repr(data["type"]),
                                      field=name, n=Num(len(value)), most=MAX_ITEMS), name)
        names = (value,) if kind == "str" else value if kind == "strs" else sum(value, ()) if kind == "pairs" else ()
        for text in names:
            if len(text) > MAX_NAME:
                raise ActionDataError(Msg("action {kind}: {field} holds a name of {n} characters; names have at most "
                                          "{most}", kind=repr(data["type"]), field=name, n=Num(len(text)),
                                          most=MAX_NAME), name)
        kwargs[name] = value
    return kwargs


def read_action(types: dict[str, type], data: Any) -> Any:
    """The action a record's JSON object ``data`` holds, its ``type`` one of ``types`` (kind -> class); raises
    ValueError (ActionDataError) on anything malformed."""
    if not isinstance(data, dict):
        raise ActionDataError(Msg("not an action: expected an object {shape}, got {value}", shape='{"type": ...}',
                                  value=short(data)))
    if "type" not in data:
        raise ActionDataError(Msg("not an action: no \"type\""), "type")
    if not isinstance(data["type"], str):
        raise ActionDataError(Msg("the action type must be a string, got {value}", value=short(data["type"])), "type")
    cls = types.get(data["type"])
    if cls is None:
        close = difflib.get_close_matches(data["type"], list(types), n=1)
        if close:
            raise ActionDataError(Msg("unknown action type {value} (did you mean {close}?)", value=short(data["type"]),
                                      close=repr(close[0])), "type")
        raise ActionDataError(Msg("unknown action type {value}", value=short(data["type"])), "type")
    names = [f.name for f in fields(cls)]
    for key in data:
        if key != "type" and key not in names:
            close = difflib.get_close_matches(str(key), names, n=1)
            if close:
                raise ActionDataError(Msg("action {kind} has an unknown field {field} (did you mean {close}?)",
                                          kind=repr(data["type"]), field=short(key), close=repr(close[0])), str(key))
            if names:
                raise ActionDataError(Msg("action {kind} has an unknown field {field}; its fields: {fields}",
                                          kind=repr(data["type"]), field=short(key), fields=", ".join(names)), str(key))
            raise ActionDataError(Msg("action {kind} has an unknown field {field}; it has no fields",
                                      kind=repr(data["type"]), field=short(key)), str(key))
    return cls(**read_fields(cls, data))
