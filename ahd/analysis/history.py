"""The real war beside the game: the table of ``ahd/data/history.json``, one row per historical event,
its dates mapped to game turns by the T-2 calendar (3.c), with a one-line note and the sources named.

    >>> from ahd.analysis.history import history
    >>> row = next(r for r in history() if r.id == "atlanta")
    >>> row.turn, row.box
    (33, 'atlanta')

The notes and event names are translated through the engine's catalog (context ``history``;
``scripts/make_catalogs.py`` extracts them from the JSON), so they read in the debrief's language.
"""
from __future__ import annotations

import datetime
import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..core.board import default_board
from ..core.calendar import turn_of_date
from ..core.errors import AhdError
from ..core.i18n import Msg, N_, Term
from ..core.sides import Side

FILE = "history.json"
KINDS = ("city", "river", "capital", "battle", "raid", "leader", "end")
ROW_KEYS = ("id", "kind", "box", "side", "first", "last", "event", "note", "sources")

#: Month names for dates ("25 April 1862"); the ones that are not T-2 months of their own are marked here.
MONTHS = (N_("January"), N_("February"), N_("March"), N_("April"), N_("May"), N_("June"), N_("July"),
          N_("August"), N_("September"), N_("October"), N_("November"), N_("December"))


class HistoryError(AhdError, ValueError):
    """The history table is malformed: the message names the file, the row and the key."""


@dataclass(frozen=True, slots=True)
class HistoricalEvent:
    """One row of the table: what happened, where on the board (``box``, or None), when, and who by."""

    id: str
    kind: str
    box: str | None
    side: Side
    first: datetime.date
    last: datetime.date
    event: str
    note: str
    sources: tuple[str, ...]   # full references, from the table's ``sources``

    @property
    def turn(self) -> int:
        """The game turn of the first day (T-2)."""
        return turn_of_date(self.first.year, self.first.month)

    @property
    def event_term(self) -> Term:
        return Term("history", self.event)

    @property
    def note_term(self) -> Term:
        return Term("history", self.note)

    @property
    def when(self) -> Msg:
        """"25–29 April 1862", "4 July 1863", said in the message's language."""
        return date_range(self.first, self.last)


def date_msg(day: datetime.date) -> Msg:
    return Msg("{day} {month} {year}", day=day.day, month=Msg(MONTHS[day.month - 1]), year=day.year)


def date_range(first: datetime.date, last: datetime.date) -> Msg:
    if first == last:
        return date_msg(first)
    if (first.year, first.month) == (last.year, last.month):
        return Msg("{first}–{last} {month} {year}", first=first.day, last=last.day,
                   month=Msg(MONTHS[first.month - 1]), year=first.year)
    return Msg("{first} – {last}", first=date_msg(first), last=date_msg(last))


def _bad(where: str, key: str, problem: str) -> HistoryError:
    return HistoryError(f"{FILE}: {where}: {key}: {problem}")


def parse(data: object) -> tuple[HistoricalEvent, ...]:
    """The rows of a history table (the JSON already read); HistoryError names the row and the key."""
    if not isinstance(data, dict) or not isinstance(data.get("rows"), list) or not isinstance(data.get("sources"), dict):
        raise _bad("top level", "rows/sources", "expected an object with a list 'rows' and an object 'sources'")
    sources, boxes = data["sources"], default_board().boxes
    rows, seen = [], set()
    for index, row in enumerate(data["rows"]):
        where = f"row {index + 1}" + (f" ({row.get('id')})" if isinstance(row, dict) and row.get("id") else "")
        if not isinstance(row, dict):
            raise _bad(where, "row", "expected an object")
        missing = [k for k in ROW_KEYS if k not in row]
        extra = sorted(set(row) - set(ROW_KEYS))
        if missing or extra:
            raise _bad(where, (missing or extra)[0], "missing" if missing else "unknown key")
        if row["id"] in seen:
            raise _bad(where, "id", "given twice")
        seen.add(row["id"])
        if row["kind"] not in KINDS:
            raise _bad(where, "kind", f"{row['kind']!r} is not one of {', '.join(KINDS)}")
        if row["box"] is not None and row["box"] not in boxes:
            raise _bad(where, "box", f"{row['box']!r} is not a box of the board")
        try:
            side = Side.parse(row["side"])
            first, last = (datetime.date.fromisoformat(row[k]) for k in ("first", "last"))
            turn_of_date(first.year, first.month)
        except (ValueError, TypeError) as exc:
            raise _bad(where, "side/first/last", str(exc)) from None
        if last < first:
            raise _bad(where, "last", "before 'first'")
        if not row["sources"] or any(s not in sources for s in row["sources"]):
            raise _bad(where, "sources", "each row names one or more keys of the table's 'sources'")
        for key in ("event", "note"):
            if not isinstance(row[key], str) or not row[key].strip():
                raise _bad(where, key, "expected a sentence")
        rows.append(HistoricalEvent(row["id"], row["kind"], row["box"], side, first, last, row["event"], row["note"],
                                    tuple(sources[s] for s in row["sources"])))
    return tuple(sorted(rows, key=lambda r: (r.first, r.id)))


@lru_cache(maxsize=1)
def history() -> tuple[HistoricalEvent, ...]:
    """The shipped table, in date order."""
    text = resources.files("ahd").joinpath("data", FILE).read_text(encoding="utf-8")
    return parse(json.loads(text))


def all_sources() -> tuple[str, ...]:
    """Every source the table names, in the order of first use."""
    seen: dict[str, None] = {}
    for row in history():
        seen.update(dict.fromkeys(row.sources))
    return tuple(seen)
