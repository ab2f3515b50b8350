"""Reading the engine's JSON files (board, scenarios, game records) without letting a bad file hurt it.

Every loader reads through :func:`read_file` / :func:`parse`, which enforce the documented limits
(``docs/scenario-format.md``, ``docs/record-format.md``):

* a file is at most :data:`MAX_BYTES` (5 MB) and a regular file (not a directory, device or pipe);
* the text is UTF-8, with or without a byte-order mark (the same for a path, ``str`` or ``bytes``);
  binary data (a NUL byte) and other encodings are refused;
* arrays and objects nest at most :data:`MAX_DEPTH` levels (checked before decoding, so deep
  nesting is an error, never a RecursionError);
* an integer has at most :data:`MAX_INT_DIGITS` digits; ``NaN``, ``Infinity`` and numbers that
  overflow to infinity are refused;
* an object never repeats a key.

A problem raises :class:`JsonProblem` with the key (``"line 4"``, ``"units[2].count"``) and the
problem; each loader turns it into its own error (DataFileError, RecordError) naming the file.
:func:`check_keys` refuses unknown keys with a "did you mean" for near misses.
"""
from __future__ import annotations

import difflib
import json
import math
import re
import stat
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from .i18n import Msg, N_, Num

#: The json module's own reasons (English), marked for the catalogs and said in the player's language.
JSON_REASONS = (N_("Expecting value"), N_("Expecting ',' delimiter"), N_("Expecting ':' delimiter"),
                N_("Expecting property name enclosed in double quotes"), N_("Unterminated string starting at"),
                N_("Invalid control character at"), N_("Invalid \\escape"), N_("Invalid \\uXXXX escape"),
                N_("Extra data"), N_("Illegal trailing comma before end of object"),
                N_("Illegal trailing comma before end of array"),
                # the UTF-8 codec's reasons
                N_("invalid start byte"), N_("invalid continuation byte"), N_("unexpected end of data"))

#: The largest board, scenario or record file read (5 MB).
MAX_BYTES = 5 * 1024 * 1024
#: The deepest nesting of arrays and objects (the formats need 5).
MAX_DEPTH = 20
#: The most digits of an integer in a file (seeds are below 2**128: 39 digits).
MAX_INT_DIGITS = 40

_BOM = b"\xef\xbb\xbf"
_STRING = re.compile(r'"(?:[^"\\]++|\\.)*+"', re.S)
_STEP = np.zeros(256, dtype=np.int32)  # +1 opens an array or object, -1 closes one
_STEP[[ord("["), ord("{")]] = 1
_STEP[[ord("]"), ord("}")]] = -1


class JsonProblem(Exception):
    """A malformed JSON file: ``key`` says where (a line or a key path), ``problem`` what."""

    def __init__(self, key: str, problem: "str | Msg") -> None:
        self.key = key
        self.problem = problem  # a Msg: said in the current language when read
        super().__init__(key, problem)

    def __str__(self) -> str:
        return f"{self.key}: {self.problem}"


def where(key: str) -> "str | Msg":
    """A problem's place for a reader: a key path as it is (``units[2].count``), ``line 4`` said in the
    reader's language."""
    match = re.fullmatch(r"line (\d+)", key) if isinstance(key, str) else None
    return Msg("line {n}", n=int(match[1])) if match else key


def _reason(text: str) -> Msg:
    """The json module's reason for refusing a text, as a message."""
    match = re.fullmatch(r"Invalid control character (.+) at", text)
    if match:
        return Msg("Invalid control character {char} at", char=match[1])
    match = re.fullmatch(r"Invalid \\escape: (.+)", text)
    if match:
        return Msg("Invalid \\escape: {char}", char=match[1])
    return Msg(text)


def _size(n: int) -> Msg:
    return Msg("{n} bytes; the limit is {limit} bytes (5 MB)", n=Num(n), limit=Num(MAX_BYTES))


def read_file(path: str | Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES (JsonProblem with key ``<file>`` otherwise)."""
    path = Path(path)
    try:
        info = path.stat()
    except OSError as exc:
        raise JsonProblem("<file>", Msg("cannot read: {reason}", reason=exc.strerror or exc)) from None
    except ValueError as exc:  # e.g. a NUL in the path
        raise JsonProblem("<file>", Msg("cannot read: {reason}", reason=exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise JsonProblem("<file>", Msg("cannot read: it is a directory"))
    if not stat.S_ISREG(info.st_mode):
        raise JsonProblem("<file>", Msg("cannot read: not a regular file (a device, pipe or socket)"))
    if info.st_size > MAX_BYTES:
        raise JsonProblem("<file>", Msg("too large: {size}", size=_size(info.st_size)))
    try:
        with path.open("rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError as exc:
        raise JsonProblem("<file>", Msg("cannot read: {reason}", reason=exc.strerror or exc)) from None
    if len(data) > MAX_BYTES:
        raise JsonProblem("<file>", Msg("too large: more than {size}", size=_size(MAX_BYTES)))
    return data


def decode(data: str | bytes | bytearray | memoryview) -> str:
    """UTF-8 text of ``data`` without its byte-order mark."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        data = bytes(data)
        if len(data) > MAX_BYTES:
            raise JsonProblem("<file>", Msg("too large: {size}", size=_size(len(data))))
        if data.startswith(_BOM):
            data = data[len(_BOM):]
        if b"\x00" in data:
            wide = data[:2] in (b"\xff\xfe", b"\xfe\xff") or len(data) >= 4 and (
                data[0] and not data[1] and data[2] and not data[3] or not data[0] and data[1] and not data[2] and data[3])
            if wide:
                raise JsonProblem("<file>", Msg("binary data, not JSON text (UTF-16 or UTF-32 text? save it as UTF-8)"))
            raise JsonProblem("<file>", Msg("binary data, not JSON text"))
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise JsonProblem("<file>", Msg("not UTF-8 text: byte {byte} at offset {offset} ({reason})",
                                                byte="0x%02x" % data[exc.start], offset=Num(exc.start),
                                                reason=Msg(exc.reason))) from None
    if not isinstance(data, str):
        raise JsonProblem("<file>", Msg("expected JSON text (str or bytes), got {kind}", kind=type(data).__name__))
    if len(data) > MAX_BYTES:
        raise JsonProblem("<file>", Msg("too large: {n} characters; the limit is {limit} (5 MB)", n=Num(len(data)),
                                        limit=Num(MAX_BYTES)))
    if data.startswith("\ufeff"):
        data = data[1:]
    if "\x00" in data:
        raise JsonProblem("<file>", Msg("binary data, not JSON text"))
    return data


def nesting_depth(text: str, limit: int = MAX_DEPTH) -> int:
    """The deepest nesting of arrays and objects in JSON ``text`` (brackets inside strings ignored)."""
    outside = _STRING.sub('""', text) if '"' in text else text
    codes = np.frombuffer(outside.encode("utf-8", "replace"), dtype=np.uint8)
    steps = _STEP[codes]
    return max(0, int(np.cumsum(steps).max())) if len(steps) else 0


class _TooLong:
    """Stands for an integer of too many digits until its key is found."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


class _Repeated(dict):
    """An object in which a key was repeated (``repeated`` is the first such key)."""

    repeated: str = ""


def _find(value: Any, bad, where: str = "") -> tuple[str, Any] | None:
    """The key path of the first node for which ``bad(node)`` holds (depth-first), with the node."""
    if bad(value):
        return where or "<root>", value
    if isinstance(value, dict):
        for key, item in value.items():
            found = _find(item, bad, f"{where}.{key}" if where else str(key))
            if found:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _find(item, bad, f"{where}[{index}]")
            if found:
                return found
    return None


def parse(data: str | bytes | bytearray | memoryview) -> Any:
    """Decode a JSON document within the limits above; JsonProblem on any problem."""
    text = decode(data)
    if not text.strip():
        raise JsonProblem("<file>", Msg("not valid JSON: the file is empty"))
    depth = nesting_depth(text)
    if depth > MAX_DEPTH:
        raise JsonProblem("<file>", Msg("arrays and objects nested {depth} deep; the limit is {limit}", depth=Num(depth),
                                        limit=MAX_DEPTH))
    flags = {"repeated": False, "long": False, "nonfinite": False}

    def pairs(items: list[tuple[str, Any]]) -> dict:
        result = dict(items)
        if len(result) == len(items):
            return result
        seen: set[str] = set()
        repeated = next(key for key, _ in items if key in seen or seen.add(key))
        flags["repeated"] = True
        marked = _Repeated(result)
        marked.repeated = repeated
        return marked

    def integer(digits: str) -> Any:
        count = len(digits.lstrip("-"))
        if count > MAX_INT_DIGITS:
            flags["long"] = True
            return _TooLong(count)
        return int(digits)

    def number(digits: str) -> Any:
        value = float(digits)
        if not math.isfinite(value):
            flags["nonfinite"] = True
        return value

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not a JSON number")

    try:
        value = json.loads(text, object_pairs_hook=pairs, parse_int=integer, parse_float=number,
                           parse_constant=constant)
    except json.JSONDecodeError as exc:
        raise JsonProblem(f"line {exc.lineno}", Msg("not valid JSON: {reason} (column {column})", reason=_reason(exc.msg),
                                                   column=exc.colno)) from None
    except ValueError as exc:  # parse_constant: NaN, Infinity, -Infinity
        raise JsonProblem("<file>", Msg("not valid JSON: {name} is not a JSON number", name=exc.args[0].split()[0]
                                        if exc.args and str(exc.args[0]).split() else "?")) from None
    except RecursionError:  # not reached: the depth is checked first
        raise JsonProblem("<file>", Msg("nested too deep; the limit is {limit}", limit=MAX_DEPTH)) from None
    if flags["repeated"]:
        where, node = _find(value, lambda v: isinstance(v, _Repeated))
        key = f"{where}.{node.repeated}" if where != "<root>" else node.repeated
        raise JsonProblem(key, Msg("duplicate key: given twice in the same object"))
    if flags["long"]:
        where, node = _find(value, lambda v: isinstance(v, _TooLong))
        raise JsonProblem(where, Msg("a number of {n} digits; numbers have at most {most} digits", n=Num(node.digits),
                                     most=MAX_INT_DIGITS))
    if flags["nonfinite"]:
        where, _ = _find(value, lambda v: isinstance(v, float) and not math.isfinite(v))
        raise JsonProblem(where, Msg("a number too large to represent (overflows to infinity)"))
    return value


def unknown_key_problem(key: str, allowed: Iterable[str]) -> Msg:
    """``unknown key 'x'`` with a "did you mean" for a near miss, and the keys allowed."""
    allowed = list(allowed)
    close = difflib.get_close_matches(str(key), allowed, n=1, cutoff=0.6)
    if close:
        return Msg("unknown key {key} (did you mean {close}?)", key=repr(key), close=repr(close[0]))
    return Msg("unknown key {key}; allowed: {allowed}", key=repr(key), allowed=", ".join(allowed))


def check_keys(data: dict, allowed: Iterable[str], fail, where: str = "") -> None:
    """Raise ``fail(key, problem)`` for the first key of ``data`` not in ``allowed``."""
    allowed = list(allowed)
    for key in data:
        if key not in allowed:
            raise fail(f"{where}.{key}" if where else str(key), unknown_key_problem(key, allowed))
