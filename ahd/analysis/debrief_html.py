"""A debrief (``ahd.analysis.debrief``) as one standalone, printable HTML page.

Everything is inside the file: the CSS, the charts (inline SVG drawn here) and the board pictures
(the static SVG of ``ahd.core.svg``); the page asks for nothing outside it (no URL at all, no script),
so it opens on a school computer without a network and prints on A4 or Letter (``@media print``).
Every text is escaped; the words are the engine's catalog's, in ``lang``.
"""
from __future__ import annotations

import math
import re
from html import escape
from typing import Iterable, Sequence

from ..core.calendar import Turn
from ..core.i18n import Msg, format_percent, render
from ..core.sides import Side
from .debrief import Debrief
from .history import all_sources

BLUE, GREY, RED = "#1f4e9c", "#4d4d4d", "#b22222"
SIDE_COLOUR = {Side.UNION: BLUE, Side.CONFEDERATE: GREY, None: "#777"}

CSS = """
:root { color-scheme: light; } * { box-sizing: border-box; }
body { font-family: "DejaVu Serif", Georgia, "Times New Roman", serif; color: #111; background: #fff;
       max-width: 60rem; margin: 1.5rem auto; padding: 0 1rem; line-height: 1.4; }
h1 { font-size: 1.7rem; margin: 0 0 .3rem; } h2 { font-size: 1.25rem; margin: 1.6rem 0 .5rem;
     border-bottom: 2px solid #1f4e9c; padding-bottom: .15rem; }
.outcome { font-size: 1.1rem; font-weight: bold; } .meta { color: #444; font-size: .9rem; }
table { border-collapse: collapse; width: 100%; font-size: .92rem; }
th, td { border: 1px solid #bbb; padding: .25rem .4rem; vertical-align: top; text-align: left; }
th { background: #eef2f8; } tr.earlier td.game { background: #e3ecfa; } tr.later td.game { background: #f2e6e6; }
td.turn { white-space: nowrap; } td.rule { white-space: nowrap; font-family: "DejaVu Sans Mono", monospace; }
.side-union { color: #1f4e9c; font-weight: bold; } .side-confederate { color: #4d4d4d; font-weight: bold; }
.note { color: #333; font-size: .88rem; }
.charts { display: flex; flex-wrap: wrap; gap: 1rem; } .charts figure { flex: 1 1 26rem; margin: 0; }
figure { margin: .8rem 0; } figcaption { font-size: .9rem; color: #333; }
svg.chart { width: 100%; height: auto; border: 1px solid #ccc; background: #fcfcfa; }
svg.board { width: 100%; height: auto; border: 1px solid #ccc; }
ol.questions li { margin: .4rem 0; } .sources li { font-size: .88rem; }
footer { margin-top: 2rem; font-size: .8rem; color: #555; }
@page { size: auto; margin: 14mm 12mm; }
@media print {
  body { max-width: none; margin: 0; padding: 0; font-size: 10.5pt; }
  h2 { break-after: avoid; page-break-after: avoid; }
  tr, figure, li { break-inside: avoid; page-break-inside: avoid; }
  .snapshots figure { break-before: auto; }
  th { background: #eef2f8 !important; -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  a { color: inherit; text-decoration: none; }
}
"""


def _t(value: object, lang: str) -> str:
    """Render a message (or a plain value) in ``lang`` and escape it for HTML."""
    return escape(render(value, lang) if isinstance(value, Msg) or hasattr(value, "__msg__") else str(value))


def _turn(turn: int, lang: str) -> str:
    return _t(Turn.of(min(max(turn, 1), 40)).as_msg(), lang)


def _side(side: Side | None, lang: str) -> str:
    if side is None:
        return ""
    name = _label("union" if side is Side.UNION else "confederacy", lang)
    return f'<span class="side-{side.value}">{name}</span>'


def line_chart(series: Sequence[tuple[str, str, Sequence[tuple[float, float]]]], *, y_max: float,
               y_label: str, percent: bool = False, x_max: float = 41, guides: Iterable[float] = (),
               lang: str = "en") -> str:
    """A small inline SVG line chart: ``series`` = (label, colour, points); labels already escaped; a percent
    axis written the way ``lang`` writes it ("25 %" in Spanish)."""
    w, h, left, right, top, bottom = 640, 300, 52, 14, 14, 40
    pw, ph = w - left - right, h - top - bottom

    def px(x: float) -> float:
        return left + (x - 1) / max(x_max - 1, 1) * pw

    def py(y: float) -> float:
        return top + ph - y / y_max * ph

    out = [f'<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{y_label}" '
           f'font-family="DejaVu Sans, Arial, sans-serif" font-size="12">']
    steps = 4
    for i in range(steps + 1):
        y = y_max * i / steps
        label = escape(format_percent(y, 0, lang)) if percent else f"{y:.0f}"
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#ddd"/>'
                   f'<text x="{left - 6}" y="{py(y) + 4:.1f}" text-anchor="end" fill="#333">{label}</text>')
    for turn in range(1, int(x_max) + 1, 5):
        out.append(f'<line x1="{px(turn):.1f}" x2="{px(turn):.1f}" y1="{top}" y2="{top + ph}" stroke="#eee"/>'
                   f'<text x="{px(turn):.1f}" y="{top + ph + 16}" text-anchor="middle" fill="#333">{turn}</text>')
    for y in guides:
        out.append(f'<line x1="{left}" x2="{w - right}" y1="{py(y):.1f}" y2="{py(y):.1f}" stroke="#999" '
                   f'stroke-dasharray="5 4"/>')
    out.append(f'<text x="{left + pw / 2:.0f}" y="{h - 6}" text-anchor="middle" fill="#333">{y_label}</text>')
    for i, (label, colour, points) in enumerate(series):
        if points:
            path = " ".join(f"{'M' if j == 0 else 'L'}{px(x):.1f} {py(y):.1f}" for j, (x, y) in enumerate(points))
            out.append(f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="2.5"/>')
        out.append(f'<rect x="{left + 10 + 170 * i}" y="{top + 4}" width="14" height="4" fill="{colour}"/>'
                   f'<text x="{left + 28 + 170 * i}" y="{top + 10}" fill="#111">{label}</text>')
    out.append("</svg>")
    return "".join(out)


def _board_svg(svg: str, label: str) -> str:
    """The static board picture, inlined: no namespace URL, scaled to the page."""
    svg = svg.replace(' xmlns="http://www.w3.org/2000/svg"', "", 1)
    return re.sub(r'^<svg ([^>]*?)width="\d+" height="\d+"', rf'<svg class="board" role="img" aria-label="{label}" \1',
                  svg, count=1)


#: The page's fixed words, marked for the engine's catalog.
LABELS = {
    "title": Msg("Debrief: {scenario}"),
    "not_over": Msg("The game is not over: this debrief stops at {turn}."),
    "options": Msg("Rules switched on: {options}"),
    "timeline": Msg("The turning points of your game"),
    "turn": Msg("Turn"), "side": Msg("Side"), "what": Msg("What happened"), "rule": Msg("Rule"),
    "nothing": Msg("No turning point yet: no city of 11.a changed hands and no battle was fought."),
    "history": Msg("Your war and the real one"),
    "real": Msg("In the real war"), "when": Msg("When"), "game": Msg("In your game"),
    "maxima": Msg("Army maxima per half-turn (7.c); turns below"),
    "odds": Msg("The Union's chance to win the war (live war odds); turns below"),
    "union": Msg("Union"), "confederacy": Msg("Confederacy"),
    "charts": Msg("The race of the army maxima and the war odds"),
    "maxima_note": Msg("The Confederacy wins at once if its maximum exceeds the Union's (11.b)."),
    "odds_note": Msg("The war odds are a model fitted on games between computer players: what such games usually "
                     "gave from each position, not a verdict on your play."),
    "snapshots": Msg("The board at the turning points"),
    "questions": Msg("Questions for discussion"),
    "sources": Msg("Sources of the historical dates and figures"),
    "footer": Msg("Made by A House Divided from the game record. The historical notes are short summaries; the dates "
                  "and figures come from the sources above."),
}


def _label(key: str, lang: str, **params: object) -> str:
    message = LABELS[key]
    return _t(Msg(message.msgid, **params) if params else message, lang)


def render_debrief(d: Debrief, lang: str = "en") -> str:
    """The whole page in ``lang`` ("en", "es", "it")."""
    def t(key: str, **params: object) -> str:
        return _label(key, lang, **params)

    title = t("title", scenario=d.scenario)
    out = [f'<!DOCTYPE html>\n<html lang="{escape(lang)}"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{title}</title><style>{CSS}</style></head><body>", f"<header><h1>{title}</h1>"]
    if d.outcome is not None:
        out.append(f'<p class="outcome">{_t(d.outcome.as_msg(), lang)}</p>')
    else:
        out.append(f'<p class="outcome">{t("not_over", turn=Turn.of(d.last_turn).as_msg())}</p>')
    out.append(f'<p class="meta">{t("options", options=", ".join(d.options) or "—")}</p></header><main>')

    out.append(f"<section id='timeline'><h2>{t('timeline')}</h2>")
    if d.points:
        out.append(f"<table><thead><tr><th>{t('turn')}</th><th>{t('side')}</th><th>{t('what')}</th>"
                   f"<th>{t('rule')}</th></tr></thead><tbody>")
        for p in d.points:
            out.append(f'<tr class="kind-{p.kind}"><td class="turn">{_turn(p.turn, lang)}</td>'
                       f"<td>{_side(p.side, lang)}</td><td>{_t(p.message, lang)}</td>"
                       f'<td class="rule">{escape(p.rule)}</td></tr>')
        out.append("</tbody></table>")
    else:
        out.append(f"<p>{t('nothing')}</p>")
    out.append("</section>")

    out.append(f"<section id='history'><h2>{t('history')}</h2><table><thead><tr><th>{t('real')}</th>"
               f"<th>{t('when')}</th><th>{t('game')}</th></tr></thead><tbody>")
    for c in d.comparisons:
        h = c.history
        cls = ("" if c.game_turn is None or c.game_turn == h.turn else
               " earlier" if c.game_turn < h.turn else " later")
        out.append(f'<tr class="row-{escape(h.id)}{cls}"><td><b>{_t(h.event_term, lang)}</b>'
                   f'<div class="note">{_t(h.note_term, lang)}</div></td>'
                   f'<td class="turn">{_t(h.when, lang)}<br>{_turn(h.turn, lang)}</td>'
                   f'<td class="game">{_t(c.game, lang)}</td></tr>')
    out.append("</tbody></table></section>")

    u_label, c_label = t("union"), t("confederacy")
    x_max = min(41, 5 * math.ceil(max(d.last_turn, 2) / 5) + 1)   # the turns played, in steps of five
    maxima = line_chart([(u_label, BLUE, [(x, u) for x, u, _ in d.maxima]),
                         (c_label, GREY, [(x, c) for x, _, c in d.maxima])],
                        y_max=max([40] + [max(u, c) + 5 for _, u, c in d.maxima]), y_label=t("maxima"),
                        x_max=x_max, lang=lang)
    odds = line_chart([(t("union"), BLUE, list(d.odds))], y_max=1.0, percent=True, guides=(0.5,), y_label=t("odds"),
                      x_max=x_max, lang=lang)
    out.append(f"<section id='charts'><h2>{t('charts')}</h2><div class='charts'>"
               f"<figure>{maxima}<figcaption>{t('maxima_note')}</figcaption></figure>"
               f"<figure>{odds}<figcaption>{t('odds_note')}</figcaption></figure></div></section>")

    if d.snapshots:
        out.append(f"<section id='snapshots' class='snapshots'><h2>{t('snapshots')}</h2>")
        for index in sorted(d.snapshots):
            p = d.points[index]
            caption = f"{_turn(p.turn, lang)}: {_t(p.message, lang)}"
            out.append(f"<figure>{_board_svg(d.snapshot_svg(index, lang), caption)}<figcaption>{caption}</figcaption>"
                       f"</figure>")
        out.append("</section>")

    out.append(f"<section id='questions'><h2>{t('questions')}</h2><ol class='questions'>")
    out.extend(f"<li>{_t(q, lang)}</li>" for q in d.questions)
    out.append(f"</ol></section><section id='sources'><h2>{t('sources')}</h2><ul class='sources'>")
    out.extend(f"<li>{escape(s)}</li>" for s in all_sources())
    out.append(f"</ul></section></main><footer>{t('footer')}</footer></body></html>\n")
    return "\n".join(out)
