"""A static SVG picture of the board and a position (``Game._repr_svg_``), standard library only.

A saved notebook keeps the picture, so GitHub and nbviewer show the position without a kernel.
Boxes sit where the app's schematic board puts them (``board.display_positions()``, scaled by LAYOUT_SCALE so
that no two boxes overlap: the same places as in the app); each is
filled with its controller's colour (Union blue, Confederate grey, neutral white), outlined in the
controller's colour when a control marker lies on it (9.c) and dashed when cavalry-held (9.b).
Lines: road brown, rail black dashed, river blue. Each side's stack in a box is a chip with the
number of units and a composition line (V veteran, S crack, M militia; c cavalry). Leaders and the
battle in progress are marked. Every label is an SVG ``<text>``, so the picture is searchable.
"""
from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING
from xml.sax.saxutils import escape

from .board import display_positions
from .calendar import Turn
from .control import has_marker
from .i18n import Msg, N_, Term, _, render
from .sides import Side

if TYPE_CHECKING:
    from .board import Board
    from .game import Game
    from .state import State

#: Colours: control fills, side colours (chips, markers), lines.
FILL = {Side.UNION: "#cddcf3", Side.CONFEDERATE: "#d9d9d9", None: "#ffffff"}
INK = {Side.UNION: "#1f4e9c", Side.CONFEDERATE: "#4d4d4d", None: "#777777"}
RED = "#b22222"
LINE_STYLE = {"river": 'stroke="#5b9be0" stroke-width="9"',
              "road": 'stroke="#a0703c" stroke-width="4"',
              "rail": 'stroke="#222" stroke-width="3.5" stroke-dasharray="12 7"'}
#: Short unit codes for the composition line: militia, veteran, crack; lower-case c for cavalry.
SHORT = {"MF": "M", "FV": "V", "FS": "S", "MC": "Mc", "CV": "Vc", "CS": "Sc"}

BOX_W, BOX_H = 104, 74        # a box, in board units (neighbours are at least 110 apart)
SCALE = 0.5                   # board units -> CSS pixels of the picture's width and height
TOP, BOTTOM = 120, 100          # room for the heading and the legend
FONT = "font-family=\"DejaVu Sans, Arial, Helvetica, sans-serif\""


#: The schematic board's positions (CSS pixels, cards of one line) times this: boxes of BOX_W x BOX_H never overlap.
LAYOUT_SCALE = 2.8


def _xy(box_id: str) -> tuple[int, int]:
    """Where a box is drawn, in board units."""
    x, y = display_positions()[box_id]
    return round(x * LAYOUT_SCALE), round(y * LAYOUT_SCALE)


def _wrap(name: str, width: int = 10) -> list[str]:
    """A box name on one or two lines of about ``width`` characters."""
    if len(name) <= width or " " not in name:
        return [name]
    words = name.split()
    splits = [(" ".join(words[:i]), " ".join(words[i:])) for i in range(1, len(words))]
    return list(min(splits, key=lambda pair: max(len(pair[0]), len(pair[1]))))


def _composition(units: list) -> str:
    """``"2V 1Mc"``: the stack by type, infantry first, militia to crack."""
    counts = Counter(u.type.code for u in units)
    order = [code for code in SHORT if code in counts] + sorted(set(counts) - set(SHORT))
    return " ".join(f"{counts[code]}{SHORT.get(code, code)}" for code in order)


def _links(board: "Board") -> list[str]:
    out = []
    for kind in ("river", "road", "rail"):
        segments = []
        for link in board.links:
            if link.kind != kind:
                continue
            (x1, y1), (x2, y2) = _xy(link.a), _xy(link.b)
            segments.append(f"M{x1} {y1}L{x2} {y2}")
        out.append(f'<path class="{kind}" d="{"".join(segments)}" fill="none" {LINE_STYLE[kind]}/>')
    return out


def _chip(x: float, y: float, side: Side, units: list, state: "State") -> list[str]:
    """A side's stack: a counter (doubled when more than one) with the count and the composition."""
    entrenched = any(state.is_entrenched(u) for u in units)
    reduced = sum(1 for u in units if u.is_reduced)
    fill = INK[side]
    rim = ' stroke="#f2b600" stroke-width="4"' if entrenched else ' stroke="#fff" stroke-width="1.5"'
    out = []
    if len(units) > 1:
        out.append(f'<rect x="{x + 4:.0f}" y="{y - 4:.0f}" width="46" height="30" rx="3" fill="{fill}" opacity=".55"/>')
    out.append(f'<rect x="{x:.0f}" y="{y:.0f}" width="46" height="30" rx="3" fill="{fill}"{rim}/>')
    label = f"{len(units)}" + (f"/{reduced}r" if reduced else "")
    out.append(f'<text x="{x + 23:.0f}" y="{y + 23:.0f}" font-size="23" font-weight="bold" fill="#fff" '
               f'text-anchor="middle">{label}</text>')
    return out


def game_svg(game: "Game", lang: str | None = None) -> str:
    """The SVG document of ``game``'s board and position; given ``lang`` ("en", "es", "it"), its names,
    heading and legend are said in that language (the debrief's pictures), else as written."""
    state, board = game.state, game.board

    def name(box_id: str) -> str:
        return board.name(box_id) if lang is None else render(board.term(box_id), lang)

    xs = [_xy(b.id)[0] for b in board]
    ys = [_xy(b.id)[1] for b in board]
    left, right = min(xs) - BOX_W // 2 - 10, max(xs) + BOX_W // 2 + 10
    top, bottom = min(ys) - BOX_H // 2 - 10 - TOP, max(ys) + BOX_H // 2 + 10 + BOTTOM
    bottom += 40 * max(0, legend_rows(lang, right - left) - 2)   # a language whose keys take a third row
    width, height = right - left, bottom - top
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{left} {top} {width} {height}" '
           f'width="{width * SCALE:.0f}" height="{height * SCALE:.0f}" {FONT}>',
           f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="#fbf8ef"/>']
    out.extend(_links(board))
    battle_box = state.battle.box if state.battle is not None else None
    leaders_at: dict[str, list[str]] = {}
    for leader in state.leaders.values():
        if leader.on_map:
            leaders_at.setdefault(leader.location, []).append(leader.title)
    for box in board:
        x, y = _xy(box.id)
        bx, by = x - BOX_W / 2, y - BOX_H / 2
        owner = state.control[box.id]
        marker = has_marker(state, box.id)
        stroke = INK[owner] if marker else "#666"
        width_ = 5 if marker else (4 if box.fort else 1.5)
        dash = ' stroke-dasharray="8 5"' if box.id in state.cavalry_held else ""
        if box.id == battle_box:
            stroke, width_, dash = RED, 7, ""
        out.append(f'<g id="box-{box.id}"><title>{escape(name(box.id))}</title>'
                   f'<rect x="{bx:.0f}" y="{by:.0f}" width="{BOX_W}" height="{BOX_H}" rx="6" fill="{FILL[owner]}" '
                   f'stroke="{stroke}" stroke-width="{width_}"{dash}/>')
        if box.fort:
            out.append(f'<rect x="{bx + 5:.0f}" y="{by + 5:.0f}" width="{BOX_W - 10}" height="{BOX_H - 10}" rx="4" '
                       f'fill="none" stroke="#666" stroke-width="1.5"/>')
        lines = _wrap(name(box.id))
        for i, line in enumerate(lines):
            out.append(f'<text x="{x}" y="{by + 18 + 17 * i:.0f}" font-size="18" text-anchor="middle" '
                       f'fill="#111">{escape(line)}</text>')
        if box.blue_value:
            out.append(f'<text x="{bx + 3:.0f}" y="{by + BOX_H - 4:.0f}" font-size="16" font-weight="bold" '
                       f'fill="{INK[Side.UNION]}">{box.blue_value}</text>')
        if box.red_value:
            out.append(f'<text x="{bx + BOX_W - 3:.0f}" y="{by + BOX_H - 4:.0f}" font-size="16" font-weight="bold" '
                       f'fill="{RED}" text-anchor="end">{box.red_value}</text>')
        if box.port:
            out.append(f'<path d="M{bx + BOX_W - 16:.0f} {by + 4:.0f}h12l-6 9z" fill="#2b7bd6"/>')
        sides = [side for side in Side if state.has_units(box.id, side)]
        chip_y = by + BOX_H - 32
        for i, side in enumerate(sides):
            units = state.units_in(box.id, side)
            cx = x - 23 if len(sides) == 1 else (bx + 4 if i == 0 else bx + BOX_W - 54)
            out.extend(_chip(cx, chip_y, side, units, state))
            out.append(f'<text x="{cx + 23:.0f}" y="{by + BOX_H + 17:.0f}" font-size="17" font-weight="bold" text-anchor="middle" '
                       f'fill="{INK[side]}">{escape(_composition(units))}</text>')
        if box.id in leaders_at:
            out.append(f'<text x="{x}" y="{by - 5:.0f}" font-size="16" font-weight="bold" text-anchor="middle" '
                       f'fill="{RED if box.id in leaders_at else "#000"}">★ {escape(", ".join(sorted(leaders_at[box.id])))}</text>')
        out.append("</g>")
    out.extend(_heading(game, left, top, width) if lang is None else _heading_in(game, left, top, lang))
    out.extend(_legend(left, bottom, lang, right))
    out.append("</svg>")
    return "\n".join(out)


def _heading(game: "Game", left: int, top: int, width: int) -> list[str]:
    s = game.state
    if s.outcome is not None:
        now = str(s.outcome)
    else:
        step = s.step.replace("_", " ")
        now = f"{Turn.of(s.turn)} · {s.phasing.adjective} half-turn · " + (
            step if step.startswith(game.phase) else f"{game.phase}: {step}")
        if s.step in ("movement", "march"):
            now += f" · {s.marches_left} march(es) left"
        if s.battle is not None:
            now += f" · battle at {game.board.name(s.battle.box)}"
    sides = " · ".join(f"{side.adjective}: {s.units_on_map(side)} units, army maximum {s.army_max(side)}"
                       for side in Side)
    return [f'<text x="{left + 20}" y="{top + 36}" font-size="32" font-weight="bold" fill="#111">'
            f'{escape(game.scenario.title)}</text>',
            f'<text x="{left + 20}" y="{top + 72}" font-size="28" fill="#111">{escape(now)}</text>',
            f'<text x="{left + 20}" y="{top + 106}" font-size="26" fill="#333">{escape(sides)}</text>']


def _heading_in(game: "Game", left: int, top: int, lang: str) -> list[str]:
    """The heading said in ``lang``: the scenario, the turn and half-turn (or the outcome), both armies."""
    s = game.state
    if s.outcome is not None:
        now = render(s.outcome.as_msg(), lang)
    else:
        now = render(Msg("{turn} · {side} half-turn · {decision}", turn=Turn.of(s.turn).as_msg(), side=s.phasing,
                         decision=Term("decision", s.step.replace("_", " "))), lang)
        if s.battle is not None:
            now += " · " + render(Msg("battle at {box}", box=game.board.term(s.battle.box)), lang)
    sides = " · ".join(render(Msg(ARMY[side], units=s.units_on_map(side), maximum=s.army_max(side)), lang)
                       for side in Side)
    return [f'<text x="{left + 20}" y="{top + 36}" font-size="32" font-weight="bold" fill="#111">'
            f'{escape(render(game.scenario.title_term, lang))}</text>',
            f'<text x="{left + 20}" y="{top + 72}" font-size="28" fill="#111">{escape(now)}</text>',
            f'<text x="{left + 20}" y="{top + 106}" font-size="26" fill="#333">{escape(sides)}</text>']


#: Each army's line of the heading, in a language.
ARMY = {Side.UNION: N_("Union: {units} units, army maximum {maximum}"),
        Side.CONFEDERATE: N_("Confederacy: {units} units, army maximum {maximum}")}
#: The legend's words, marked for the catalog (said in English unless a language is asked).
LEGEND = (N_("Union control"), N_("Confederate control"),
          N_("control marker (9.c), rim in the controller's colour"), N_("cavalry-held (9.b)"),
          N_("battle in progress"), N_("road"), N_("rail"), N_("river"), N_("Union units (yellow rim: entrenched)"),
          N_("Confederate units"), N_("2 veteran infantry, 1 militia cavalry (S: crack)"), N_("recruiting values"),
          N_("port"), N_("leader"))
#: The legend's keys in the order they are drawn (as ``_legend`` lays them out, the sample's two spaces kept).
LEGEND_ORDER = LEGEND[:10] + ("  " + LEGEND[10],) + LEGEND[11:]


def _legend(left: int, bottom: int, lang: str | None = None, right: int = 0) -> list[str]:
    """Two rows of keys under the map."""
    def rect(fill: str, stroke: str = "#666", extra: str = "") -> str:
        return f'<rect x="{{x}}" y="{{top}}" width="34" height="24" rx="3" fill="{fill}" stroke="{stroke}"{extra}/>'

    def line(kind: str) -> str:
        return f'<path d="M{{x}} {{mid}}h40" {LINE_STYLE[kind]}/>'

    rows = [
        [(rect(FILL[Side.UNION]), "Union control"), (rect(FILL[Side.CONFEDERATE]), "Confederate control"),
         (rect("#fff", INK[Side.UNION], ' stroke-width="5"'), "control marker (9.c), rim in the controller's colour"),
         (rect("#fff", "#666", ' stroke-width="2" stroke-dasharray="8 5"'), "cavalry-held (9.b)"),
         (rect("#fff", RED, ' stroke-width="6"'), "battle in progress"),
         (line("road"), "road"), (line("rail"), "rail"), (line("river"), "river")],
        [(rect(INK[Side.UNION], "#f2b600", ' stroke-width="4"'), "Union units (yellow rim: entrenched)"),
         (rect(INK[Side.CONFEDERATE]), "Confederate units"),
         ('<text x="{x}" y="{base}" font-size="22" font-weight="bold" fill="#333">2V 1Mc</text>',
          "  2 veteran infantry, 1 militia cavalry (S: crack)"),
         (f'<text x="{{x}}" y="{{base}}" font-size="22" font-weight="bold" fill="{INK[Side.UNION]}">2</text>'
          f'<text x="{{x2}}" y="{{base}}" font-size="22" font-weight="bold" fill="{RED}">3</text>',
          "recruiting values"),
         ('<path d="M{x} {top}h24l-12 18z" fill="#2b7bd6"/>', "port"),
         (f'<text x="{{x}}" y="{{base}}" font-size="22" font-weight="bold" fill="{RED}">★</text>', "leader")],
    ]
    out = []
    for r, row in enumerate(rows if lang is None else _flow(rows, lang, right - left)):
        x, base = left + 20, bottom - 62 - 40 * max(0, legend_rows(lang, right - left) - 2) + 40 * r
        for shape, label in row:
            width = 110 if label.startswith("  2 veteran") else 50
            out.append(shape.format(x=x, x2=x + 18, top=base - 20, mid=base - 8, base=base))
            words = label.strip() if lang is None else _(label.strip(), lang)
            out.append(f'<text x="{x + width}" y="{base}" font-size="22" fill="#333">{escape(words)}</text>')
            x += width + 12 * len(words) + 40
    return out


def _item_width(label: str, lang: str) -> int:
    return (110 if label.startswith("  2 veteran") else 50) + 12 * len(_(label.strip(), lang)) + 40


def _flow(rows: list, lang: str, width: int) -> list[list]:
    """The legend's keys in rows that fit ``width`` once said in ``lang`` (longer words than English)."""
    flowed: list[list] = [[]]
    used = 20
    for item in (item for row in rows for item in row):
        wide = _item_width(item[1], lang)
        if flowed[-1] and used + wide - 40 > width - 20:
            flowed.append([])
            used = 20
        flowed[-1].append(item)
        used += wide
    return flowed


def legend_rows(lang: str | None, width: int) -> int:
    """How many rows the legend takes in ``lang`` (two as written)."""
    if lang is None:
        return 2
    return len(_flow([[(None, label)] for label in LEGEND_ORDER], lang, width))
