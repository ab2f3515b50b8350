"""The scenario editor's checks: the engine's loader (:func:`ahd.core.scenario.scenario_from_dict`) run on
a scenario being edited, and every problem it finds, each with the box it concerns and the rule it cites.

The loader stops at the first problem, so :func:`check` asks it again with the refused entry left out
(and, for a problem of the whole unit list such as the counter mix, 1.3.a, finds the entries whose removal
changes the loader's answer). No rule is decided here: the messages are the loader's.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from ahd.core.board import default_board
from ahd.core.errors import DataFileError
from ahd.core.scenario import scenario_from_dict

from widgets.model.i18n import _

#: A rule ID cited in a loader message, in parentheses: (1.3.a), (S-0), (9.b), (AO-8.4), (T-8).
_RULE = re.compile(r"\(((?:[A-Z]{1,2}-)?\d+(?:\.\d+)*(?:\.[a-z])?)\)")
_INDEXED = re.compile(r"^(units|leaders)\[(\d+)\]")
_CONTROL = re.compile(r"^control\.(\w+)\[(\d+)\]")
MAX_PROBLEMS = 8


@dataclass(frozen=True)
class Problem:
    """One of the loader's refusals: its key path in the file, the box it concerns (if any), the rule it
    cites (if any) and its message."""
    key: str
    message: str
    boxes: tuple[str, ...] = ()
    rule: str | None = None

    @property
    def box(self) -> str | None:
        return self.boxes[0] if self.boxes else None

    def __str__(self) -> str:
        return f"{self.key}: {self.message}"


def _rule_of(message: str) -> str | None:
    match = _RULE.search(message)
    if match:
        return match.group(1)
    return "1.3.a" if "counter mix" in message else None


def _loader(data: dict) -> DataFileError | None:
    try:
        scenario_from_dict(data, "scenario")
    except DataFileError as exc:
        return exc
    return None


def check(data: dict) -> list[Problem]:
    """The loader's problems with ``data``, each with the box it concerns (empty: the loader accepts it)."""
    work = copy.deepcopy(data)
    if not isinstance(work, dict):
        return [Problem("<root>", _("expected a JSON object"))]
    origin = {"units": list(range(len(work.get("units", []) or []))),
              "leaders": list(range(len(work.get("leaders", []) or [])))}
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    while len(problems) < MAX_PROBLEMS:
        error = _loader(work)
        if error is None or (error.key, error.problem) in seen:
            break
        seen.add((error.key, error.problem))
        key, boxes, drop = error.key, (), None
        indexed, control = _INDEXED.match(key), _CONTROL.match(key)
        if indexed and isinstance(work.get(indexed[1]), list) and int(indexed[2]) < len(work[indexed[1]]):
            name, i = indexed[1], int(indexed[2])
            entry = work[name][i]
            box = entry.get("box") if isinstance(entry, dict) else None
            boxes = (box,) if isinstance(box, str) and box in default_board() else ()
            key = f"{name}[{origin[name][i]}]" + key[indexed.end():]  # the index in the author's list
            drop = lambda name=name, i=i: (work[name].pop(i), origin[name].pop(i))  # noqa: E731
        elif control and isinstance(work.get("control", {}).get(control[1]), list):
            side, j = control[1], int(control[2])
            box = work["control"][side][j]
            boxes = (box,) if isinstance(box, str) and box in default_board() else ()
            drop = lambda side=side, j=j: work["control"][side].pop(j)  # noqa: E731
        elif key == "units" and isinstance(work.get("units"), list):
            # a problem of the whole list (the counter mix, 1.3.a; the 100 counters a side): the entries
            # whose removal changes the loader's answer are the ones it concerns
            blamed = []
            for i in range(len(work["units"])):
                trial = dict(work, units=work["units"][:i] + work["units"][i + 1:])
                other = _loader(trial)
                if other is None or (other.key, other.problem) != (error.key, error.problem):
                    blamed.append(i)
            boxes = tuple(dict.fromkeys(work["units"][i].get("box") for i in blamed
                                        if isinstance(work["units"][i], dict)))

            def drop(blamed=blamed) -> None:
                for i in reversed(blamed):
                    work["units"].pop(i)
                    origin["units"].pop(i)
            if not blamed:
                drop = None
        problems.append(Problem(key, error.reason(), tuple(b for b in boxes if isinstance(b, str)),
                                _rule_of(error.reason("en"))))
        if drop is None:
            break
        drop()
    return problems
