"""The set-up and calendar tables of chapter 00."""
from __future__ import annotations

from html import escape
from typing import Any, Iterable

from ahd import Game
from ahd.core.i18n import Term, render
from ahd.core.sides import Side

from widgets.model.i18n import _
from widgets.tutorials.board_views import side_name


# =========================================================================== 00 set-up and calendar
def setup_rows(scenario: str = "1861") -> list[dict]:
    """A scenario's set-up read from its data (not typed by hand): one row per side, box and unit type, in
    the scenario's order, with ``side`` (the side's adjective), ``box`` (the box's name), ``count``, ``code``,
    ``unit`` (T-1 name) and ``note`` (entrenched, or a fort of the side: 4.2.5 d); the words in the current
    language (English: the printed names)."""
    from ahd.core.board import default_board
    from ahd.core.scenario import load_scenario
    from ahd.core.units import UNIT_TYPES, parse_type

    board, rows, index = default_board(), [], {}
    for placement in load_scenario(scenario).units:
        code = parse_type(placement.type).code
        key = (placement.side, placement.box, code, placement.entrenched)
        if key in index:
            index[key]["count"] += 1
            continue
        box = board[placement.box]
        note = (_("fort: entrenched while held (4.2.5 d)") if box.fort
                else _("entrenched") if placement.entrenched else "")
        index[key] = {"side": side_name(placement.side), "box": board.local_name(box.id), "count": 1, "code": code,
                      "unit": render(Term("unit", UNIT_TYPES[code].name)), "note": note}
        rows.append(index[key])
    return rows


def counter_mix(game: Game) -> dict[str, dict[str, dict[str, int]]]:
    """The militia counters of each side (1.3.a) and where they are now:
    ``{"Union": {"MF": {"owned": 24, "map": 12, "pool": 0, "reserve": 12}, ...}, ...}``, keyed by the
    sides' English adjectives (keys a notebook reads, in any language: ``render(side)`` says them)."""
    from ahd.core.units import MILITIA_MIX

    mix: dict[str, dict[str, dict[str, int]]] = {}
    for side, owned in MILITIA_MIX.items():
        mix[side.adjective] = {}
        for code, count in owned.items():
            where = {place: sum(u.type.code == code for u in game.units(side, place))
                     for place in ("map", "pool", "reserve")}
            mix[side.adjective][code] = {"owned": count, **where}
    return mix


def calendar_rows() -> list[dict]:
    """Table T-2 from the engine's calendar (3.c): ``turn``, ``months`` (in the current language), ``year``,
    ``two_months`` and ``events`` (the drafts, the scenarios' first and last turns, the short game's end)."""
    from ahd.core.calendar import DRAFT_TURNS, LAST_TURN, Turn

    events = {1: [_("the campaign and the short game start (2, 13)")], 10: [_("the short game ends (13)")],
              LAST_TURN: [_("the campaign's last turn (10)")]}
    for year, first in zip((1862, 1863, 1864), DRAFT_TURNS):
        events.setdefault(first, []).append(_("draft (8); the {year} scenario starts").format(year=year))
        events.setdefault(first + 9, []).append(_("the {year} scenario ends").format(year=year))
    rows = []
    for number in range(1, LAST_TURN + 1):
        turn = Turn.of(number)
        rows.append({"turn": number, "months": turn.month_names(), "year": turn.year,
                     "two_months": "–" in turn.months, "events": "; ".join(events.get(number, []))})
    return rows


def _cell(value: Any) -> str:
    return side_name(value) if isinstance(value, Side) else render(value)


def table(rows: Iterable[dict], columns: dict[str, str], caption: str = ""):
    """Rows of dicts as an HTML table for a notebook: ``columns`` maps each key to its heading (the
    notebook's words). A cell that says itself in a language (a side, a ``Term``, a message) is said in
    the current language."""
    from IPython.display import HTML

    cell = "padding:2px 10px;border-bottom:1px solid #ddd;text-align:left"
    head = "".join(f"<th style='{cell}'>{escape(title)}</th>" for title in columns.values())
    body = "".join("<tr>" + "".join(f"<td style='{cell}'>{escape(_cell(row.get(key, '')))}</td>" for key in columns)
                   + "</tr>" for row in rows)
    top = f"<caption style='text-align:left;font-weight:bold'>{escape(caption)}</caption>" if caption else ""
    return HTML(f"<table style='border-collapse:collapse;font-size:14px'>{top}<tr>{head}</tr>{body}</table>")


def calendar_grid():
    """The 40 turns of T-2 as one small table: a row per year, a column per turn of the year, the two-month
    winter turns shaded, the drafts and the scenario starts in bold (3.c, 8, S-0)."""
    from IPython.display import HTML
    from ahd.core.calendar import Turn

    rows = calendar_rows()
    # a column per turn of a calendar year, January–February (turn 6) to November–December (turn 5)
    columns = [Turn.of(number) for number in (6, 7, 8, 9, 10, 1, 2, 3, 4, 5)]
    cell = "padding:3px 6px;border:1px solid #ccc;text-align:center;font-size:13px"
    head = f"<th style='{cell}'>{escape(_('year'))}</th>" + "".join(
        f"<th style='{cell}'>{escape(turn.month_names())}</th>" for turn in columns)
    body = ""
    for year in range(1861, 1866):
        tds = []
        for column in columns:
            row = next((r for r in rows if r["year"] == year and Turn.of(r["turn"]).months == column.months), None)
            if row is None:
                tds.append(f"<td style='{cell};color:#bbb'>–</td>")
                continue
            shade = ";background:#e3ecf7" if row["two_months"] else ""
            text = f"<b>{row['turn']}</b>" if row["events"] else str(row["turn"])
            title = escape(row["events"] or (_("two months") if row["two_months"] else ""))
            tds.append(f"<td style='{cell}{shade}' title='{title}'>{text}</td>")
        body += f"<tr><th style='{cell}'>{year}</th>{''.join(tds)}</tr>"
    legend = _("Shaded: two-month winter turns. Bold: a draft, a scenario's start or end, or the end of the short "
               "game (hover over a turn, or read the list below).")
    return HTML(f"<table style='border-collapse:collapse'><tr>{head}</tr>{body}</table>"
                f"<div style='font-size:12px;color:#555'>{escape(legend)}</div>")
