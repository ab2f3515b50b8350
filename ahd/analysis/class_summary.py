"""A class's games summed up: who won and how often, when Richmond and Atlanta fell (first taken firmly by the
Union) on average, the earliest and the latest, beside the real war; and the page that shows it.

    >>> from ahd.analysis.class_summary import summarize, render_summary
    >>> summary = summarize([("game A", record_a), ("game B", record_b)])   # doctest: +SKIP
    >>> page = render_summary(summary, "en")                                # doctest: +SKIP

A record that cannot be replayed is not counted; its name and the loader's message are listed instead.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from html import escape
from typing import Any, Iterable

from ..core.errors import AhdError
from ..core.i18n import Msg, Msgn, format_decimal, render
from ..core.sides import Side
from .debrief import Debrief, debrief
from ..core.board import default_board
from .debrief_html import BLUE, CSS, GREY, LABELS as PAGE_LABELS, _turn
from .history import history

#: The cities whose falls are compared across the class (box ids of the board).
CITIES = ("richmond", "atlanta")


@dataclass(frozen=True, slots=True)
class GameLine:
    """One game of the class: its name, scenario, result and the turns the cities fell (None: not taken)."""

    name: str
    scenario: str
    winner: Side | None
    over: bool
    last_turn: int
    outcome: Any
    falls: dict[str, int | None]


@dataclass(frozen=True, slots=True)
class CityFalls:
    box: str
    turns: tuple[int, ...]          # the games where the Union took it, the turn it did
    out_of: int                     # games counted
    real_turn: int                  # the real war's turn (T-2)

    @property
    def mean(self) -> float | None:
        return statistics.fmean(self.turns) if self.turns else None

    @property
    def earliest(self) -> int | None:
        return min(self.turns, default=None)

    @property
    def latest(self) -> int | None:
        return max(self.turns, default=None)


@dataclass(frozen=True, slots=True)
class ClassSummary:
    games: tuple[GameLine, ...]
    problems: tuple[tuple[str, str], ...]      # (name, message) of the records not counted
    wins: dict[Side | None, int]               # finished games by winner (None: no winner)
    unfinished: int
    cities: tuple[CityFalls, ...]


def game_line(name: str, d: Debrief) -> GameLine:
    return GameLine(name, d.scenario_id, d.outcome.winner if d.outcome else None, d.outcome is not None,
                    d.last_turn, d.outcome, {box: d.first_union.get(box) for box in CITIES})


def summarize(records: Iterable[tuple[str, Any]]) -> ClassSummary:
    """``records``: (name, record) pairs, a record being anything ``debrief`` takes (a dict, JSON text, a
    path or a Game), or an already made ``Debrief``."""
    games, problems = [], []
    for name, record in records:
        try:
            d = record if isinstance(record, Debrief) else debrief(record, snapshots=False)
        except AhdError as exc:
            problems.append((name, str(exc)))
            continue
        games.append(game_line(name, d))
    finished = [g for g in games if g.over]
    wins = {side: sum(1 for g in finished if g.winner is side) for side in (Side.UNION, Side.CONFEDERATE, None)}
    real = {row.box: row.turn for row in history() if row.kind == "city"}
    cities = tuple(CityFalls(box, tuple(g.falls[box] for g in games if g.falls[box] is not None), len(games),
                             real[box]) for box in CITIES)
    return ClassSummary(tuple(games), tuple(problems), wins, len(games) - len(finished), cities)


LABELS = {
    "results": Msg("Who won"),
    "wins": Msg("{side} victories: {n} of {total} finished games ({share:.0%})"),
    "draws": Msg("Finished without a winner: {n}"),
    "unfinished": Msg("Not finished yet: {n}"),
    "falls": Msg("When the cities fell"),
    "city": Msg("City"), "taken": Msg("Taken by the Union"), "mean": Msg("On average"),
    "earliest": Msg("Earliest"), "latest": Msg("Latest"), "real": Msg("The real war"),
    "taken_n": Msg("in {n} of {total} games"),
    "turn_n": Msg("turn {turn}"),
    "chart": Msg("Turn of the fall in each game (dots), the class's average (bar) and the real war (red line)"),
    "games": Msg("The games"),
    "game": Msg("Game"), "scenario": Msg("Scenario"), "result": Msg("Result"),
    "going": Msg("still going (turn {turn})"),
    "problems": Msg("Records not counted"),
    "none": Msg("—"),
}


def _t(key: str, lang: str, **params: Any) -> str:
    message = LABELS[key]
    return escape(render(Msg(message.msgid, **params) if params else message, lang))


def _decimal(value: float, lang: str) -> str:
    """One decimal, with the language's decimal mark (11.5; 11,5 in Spanish and Italian)."""
    return format_decimal(value, 1, lang, strip=False)


def falls_chart(summary: ClassSummary, lang: str) -> str:
    """One row per city: a dot per game at the turn it fell, the class's mean and the real war's turn."""
    w, row_h, left, right, top = 640, 70, 110, 16, 10
    h = top + row_h * len(summary.cities) + 34

    def px(turn: float) -> float:
        return left + (turn - 1) / 39 * (w - left - right)

    out = [f'<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{_t("chart", lang)}" '
           f'font-family="DejaVu Sans, Arial, sans-serif" font-size="12">']
    base = top + row_h * len(summary.cities)
    for turn in (*range(1, 41, 5), 40):
        out.append(f'<line x1="{px(turn):.1f}" x2="{px(turn):.1f}" y1="{top}" y2="{base}" stroke="#eee"/>'
                   f'<text x="{px(turn):.1f}" y="{base + 16}" text-anchor="middle" fill="#333">{turn}</text>')
    for i, city in enumerate(summary.cities):
        y = top + row_h * i + row_h / 2
        name = escape(render(default_board().term(city.box), lang))
        out.append(f'<text x="{left - 8}" y="{y + 4:.0f}" text-anchor="end" fill="#111">{name}</text>'
                   f'<line x1="{left}" x2="{w - right}" y1="{y:.0f}" y2="{y:.0f}" stroke="#ccc"/>')
        for j, turn in enumerate(sorted(city.turns)):
            same = sorted(city.turns)[:j].count(turn)
            out.append(f'<circle cx="{px(turn):.1f}" cy="{y - 6 - 7 * same:.0f}" r="4" fill="{BLUE}"/>')
        if city.mean is not None:
            out.append(f'<rect x="{px(city.mean) - 2:.1f}" y="{y - 22:.0f}" width="4" height="30" fill="{GREY}"/>')
        out.append(f'<line x1="{px(city.real_turn):.1f}" x2="{px(city.real_turn):.1f}" y1="{y - 26:.0f}" '
                   f'y2="{y + 14:.0f}" stroke="#b22222" stroke-width="3"/>')
    out.append("</svg>")
    return "".join(out)


def render_summary(summary: ClassSummary, lang: str = "en") -> str:
    """The class summary as one standalone page (same style and print rules as the debrief)."""
    total = len(summary.games)
    finished = total - summary.unfinished
    title = escape(render(Msgn("Class summary: {n} game", "Class summary: {n} games", n=total), lang))
    out = [f'<!DOCTYPE html>\n<html lang="{escape(lang)}"><head><meta charset="utf-8">',
           f"<title>{title}</title><style>{CSS}</style></head><body><header><h1>{title}</h1></header><main>",
           f"<section id='results'><h2>{_t('results', lang)}</h2><ul>"]
    for side in (Side.UNION, Side.CONFEDERATE):
        share = summary.wins[side] / finished if finished else 0.0
        out.append(f"<li class='wins-{side.value}'>{_t('wins', lang, side=LABEL_SIDE[side], n=summary.wins[side], total=finished, share=share)}</li>")
    if summary.wins[None]:
        out.append(f"<li>{_t('draws', lang, n=summary.wins[None])}</li>")
    if summary.unfinished:
        out.append(f"<li>{_t('unfinished', lang, n=summary.unfinished)}</li>")
    out.append(f"</ul></section><section id='falls'><h2>{_t('falls', lang)}</h2><table><thead><tr>"
               + "".join(f"<th>{_t(k, lang)}</th>" for k in ("city", "taken", "mean", "earliest", "latest", "real"))
               + "</tr></thead><tbody>")
    board = default_board()
    for city in summary.cities:
        cells = [escape(render(board.term(city.box), lang)), _t("taken_n", lang, n=len(city.turns), total=city.out_of),
                 _t("turn_n", lang, turn=_decimal(city.mean, lang)) if city.mean is not None else _t("none", lang),
                 _turn(city.earliest, lang) if city.earliest else _t("none", lang),
                 _turn(city.latest, lang) if city.latest else _t("none", lang), _turn(city.real_turn, lang)]
        out.append(f"<tr class='city-{city.box}'>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    out.append(f"</tbody></table><figure>{falls_chart(summary, lang)}<figcaption>{_t('chart', lang)}</figcaption>"
               f"</figure></section><section id='games'><h2>{_t('games', lang)}</h2><table><thead><tr>"
               + "".join(f"<th>{_t(k, lang)}</th>" for k in ("game", "scenario", "result"))
               + "".join(f"<th>{escape(render(board.term(box), lang))}</th>" for box in CITIES) + "</tr></thead><tbody>")
    for g in summary.games:
        result = escape(render(g.outcome.as_msg(), lang)) if g.outcome else _t("going", lang, turn=g.last_turn)
        falls = "".join(f"<td>{_t('turn_n', lang, turn=g.falls[b]) if g.falls[b] else _t('none', lang)}</td>"
                        for b in CITIES)
        out.append(f"<tr><td>{escape(g.name)}</td><td>{escape(g.scenario)}</td><td>{result}</td>{falls}</tr>")
    out.append("</tbody></table></section>")
    if summary.problems:
        out.append(f"<section id='problems'><h2>{_t('problems', lang)}</h2><ul>"
                   + "".join(f"<li><b>{escape(name)}</b>: {escape(problem)}</li>" for name, problem in summary.problems)
                   + "</ul></section>")
    out.append("</main></body></html>\n")
    return "\n".join(out)


#: The sides' names ("Union", "Confederacy"), as the debrief page says them.
LABEL_SIDE = {Side.UNION: PAGE_LABELS["union"], Side.CONFEDERATE: PAGE_LABELS["confederacy"]}
