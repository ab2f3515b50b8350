"""The map's drawings as plain data: GeoJSON for the lines, one HTML card per box for names and counters.

The board is schematic (positions from ``ahd.core.board.display_positions()``, spread so that no two
box cards overlap at the default zoom; links and topology are the board's) and the map uses
Leaflet's Simple CRS: a point (x, y) of the board, y down, is ``[lat, lng] = [-y, x]``.
Every name, value and counter is HTML text in the page (not pixels of an image), so it stays sharp
at any zoom, the browser's find and screen readers read it, and tests measure it.

Pure functions of the board and the game (no widgets here), so they are cheap to test and the
map view only assigns their results to a fixed handful of layers.
"""
from __future__ import annotations

import json
import math
from functools import cache
from importlib import resources
from typing import Any
from html import escape

from ahd import Game
from ahd.core.board import Board, display_positions
from ahd.core.i18n import Term, render
from ahd.core.sides import Side

from widgets.model.i18n import N_, _

#: The schematic board (``ahd/data/board_layout.json``, made by scripts/make_board_layout.py): a canvas of
#: WIDTH x HEIGHT CSS pixels at zoom 0 of the map's Simple CRS, where each box is a card of w x h pixels.
LAYOUT = json.loads((resources.files("ahd") / "data" / "board_layout.json").read_text(encoding="utf-8"))
WIDTH, HEIGHT = LAYOUT["width"], LAYOUT["height"]
CARDS = {box_id: (int(p["w"]), int(p["h"])) for box_id, p in LAYOUT["boxes"].items()}
#: Map extent ((south, west), (north, east)) in the Simple CRS: lat = -y, lng = x.
BOUNDS = ((-HEIGHT, 0.0), (0.0, WIDTH))
CENTER = (-HEIGHT / 2, WIDTH / 2)
DEFAULT_ZOOM = 0

UNION_BLUE = "#1f4e9c"
CONFEDERATE_GREY = "#6f6f6f"
NEUTRAL = "#f2efe6"
ROAD, RAIL, RIVER = "#8b5a2b", "#222222", "#2b7bd6"
LIT, SELECTED = "#ffb000", "#d62728"

LINE_STYLES = {
    "road": {"color": ROAD, "weight": 2.5, "opacity": 0.9},
    "rail": {"color": RAIL, "weight": 2.5, "opacity": 0.85, "dashArray": "6 4"},
    "river": {"color": RIVER, "weight": 5, "opacity": 0.55},
}
#: Controller styles of a card: fill colour AND border pattern (solid Union, dashed Confederate, dotted neutral).
BOX_STYLES = {
    "union": {"fillColor": "#d6e2f5", "color": UNION_BLUE, "dashArray": ""},
    "confederate": {"fillColor": "#e4e4e4", "color": "#3a3a3a", "dashArray": "4 3"},
    "neutral": {"fillColor": "#ffffff", "color": "#555555", "dashArray": "1 3"},
}
_BORDER = {"union": "solid", "confederate": "dashed", "neutral": "dotted"}

#: The cards' style sheet (the map view puts it in the page once).
CSS = f"""<style>
.ahd-map .leaflet-div-icon {{ background: transparent; border: none; }}
.ahd-board-host {{ position: relative; width: 0; height: 0; pointer-events: none; }}
.ahd-slot {{ position: absolute; pointer-events: auto; }}
.ahd-map {{ background: #cfe0ee; font-family: "DejaVu Sans Condensed", "Liberation Sans Narrow", "Arial Narrow", sans-serif; }}
.ahd-card {{ box-sizing: border-box; width: 100%; height: 100%; border: 2px solid #555; border-radius: 4px;
  display: flex; flex-direction: column; align-items: center; justify-content: flex-start; cursor: pointer;
  padding: 0 1px; line-height: 11px; position: relative; overflow: visible; white-space: nowrap; }}
.ahd-card.ahd-union {{ background: {BOX_STYLES['union']['fillColor']}; border: 2px {_BORDER['union']} {BOX_STYLES['union']['color']}; }}
.ahd-card.ahd-confederate {{ background: {BOX_STYLES['confederate']['fillColor']}; border: 2px {_BORDER['confederate']} {BOX_STYLES['confederate']['color']}; }}
.ahd-card.ahd-neutral {{ background: {BOX_STYLES['neutral']['fillColor']}; border: 2px {_BORDER['neutral']} {BOX_STYLES['neutral']['color']}; }}
.ahd-card.ahd-fort {{ box-shadow: inset 0 0 0 1.5px #fff, inset 0 0 0 2.5px #555; }}
.ahd-card.ahd-port::after {{ content: ""; position: absolute; right: 1px; top: 1px; border-left: 4px solid transparent;
  border-right: 4px solid transparent; border-top: 6px solid #2b7bd6; }}
.ahd-card:hover {{ outline: 2px solid #111; outline-offset: 1px; }}
.ahd-card:focus-visible {{ outline: 3px solid #000; outline-offset: 2px; box-shadow: 0 0 0 5px #fff; z-index: 2; }}
.ahd-sr, .ahd-live {{ position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }}
.ahd-card.ahd-lit {{ background: #ffe6a8; box-shadow: 0 0 0 3px {LIT}; }}
.ahd-card.ahd-selected {{ outline: 3px dashed {SELECTED}; outline-offset: 2px; }}
.ahd-card.ahd-battle {{ border-color: {SELECTED}; border-style: solid; border-width: 3px; }}
.ahd-name {{ font-size: {LAYOUT['font_px']}px; font-weight: 700; color: #111; display: inline-block; margin-top: 1px; }}
.ahd-row {{ display: flex; align-items: center; gap: 2px; height: 11px; font-size: 9px; font-weight: 700; }}
.ahd-vu {{ color: {UNION_BLUE}; }} .ahd-vc {{ color: #b22222; }}
.ahd-chip {{ color: #fff; border-radius: 2px; padding: 0 2px; min-width: 8px; text-align: center; line-height: 10px;
  border: 1px solid #000; }}
.ahd-chip.ahd-union {{ background: {UNION_BLUE}; }} .ahd-chip.ahd-confederate {{ background: {CONFEDERATE_GREY}; }}
.ahd-chip.ahd-reduced {{ border-style: dashed; }}
.ahd-chip.ahd-entrenched {{ border-bottom: 3px solid #8b5a2b; }}
.ahd-chip.ahd-leader {{ border-color: #d4a017; border-width: 2px; }}
</style>"""


@cache
def state_outlines() -> dict[str, Any]:
    """US state outlines (public-domain Census boundaries via us-atlas; see data/us_states.PROVENANCE.md),
    warped like the schematic board (data/us_states_board.geojson, made by scripts/make_board_layout.py)."""
    text = resources.files("widgets").joinpath("data/us_states_board.geojson").read_text(encoding="utf-8")
    data = json.loads(text)
    for feature in data["features"]:
        feature["properties"]["style"] = {"color": "#9a8f7a", "weight": 1, "fillColor": "#f6f1e3",
                                          "fillOpacity": 1.0, "opacity": 0.9}
        feature["geometry"]["coordinates"] = [[[[x, -y] for x, y in ring] for ring in polygon]
                                              for polygon in feature["geometry"]["coordinates"]]
    return data


def _feature(geometry: dict, **properties: Any) -> dict[str, Any]:
    return {"type": "Feature", "geometry": geometry, "properties": properties}


def _collection(features: list) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


def position(box_id: str) -> tuple[float, float]:
    """Where a box's card is centred on the board: (x, y), CSS pixels at zoom 0, y down."""
    return display_positions()[box_id]


def location(box_id: str) -> tuple[float, float]:
    """The Simple-CRS [lat, lng] of a box (what a Marker takes)."""
    x, y = position(box_id)
    return (-y, x)


def _local(board: Board, box: str) -> tuple[float, float]:
    """GeoJSON [x, y] (lng, lat) of a box: the board's x, and -y."""
    x, y = position(box)
    return x, -y


@cache
def link_lines(board: Board) -> dict[str, Any]:
    """One LineString per link, styled by kind; lines of a pair joined twice are drawn side by side."""
    kinds_per_pair: dict[frozenset, list[str]] = {}
    for link in board.links:
        kinds_per_pair.setdefault(frozenset((link.a, link.b)), []).append(link.kind)
    features = []
    for link in board.links:
        (x1, y1), (x2, y2) = _local(board, link.a), _local(board, link.b)
        kinds = kinds_per_pair[frozenset((link.a, link.b))]
        offset = 0.0
        if len(kinds) > 1:
            offset = (kinds.index(link.kind) - (len(kinds) - 1) / 2) * 4.0
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length * offset, dx / length * offset
        coords = [[x1 + nx, y1 + ny], [x2 + nx, y2 + ny]]
        features.append(_feature({"type": "LineString", "coordinates": coords}, kind=link.kind,
                                 a=link.a, b=link.b, style=dict(LINE_STYLES[link.kind])))
    return _collection(features)


def _card_exit(box: str, ux: float, uy: float) -> float:
    """How far from a card's centre a line leaving in direction (ux, uy) crosses its edge."""
    w, h = CARDS[box]
    tx = (w / 2) / abs(ux) if ux else math.inf
    ty = (h / 2) / abs(uy) if uy else math.inf
    return min(tx, ty)


@cache
def river_arrows(board: Board) -> dict[str, Any]:
    """A chevron on each river link, pointing downstream, in the middle of the part between the cards."""
    features = []
    for link in board.links:
        if link.kind != "river" or link.downstream is None:
            continue
        up = link.other(link.downstream)
        (x1, y1), (x2, y2) = _local(board, up), _local(board, link.downstream)
        length = math.hypot(x2 - x1, y2 - y1) or 1.0
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        start, end = _card_exit(up, ux, uy), length - _card_exit(link.downstream, ux, uy)
        middle = (start + end) / 2 if end > start else length / 2
        mx, my = x1 + ux * middle, y1 + uy * middle
        angle = math.atan2(uy, ux)
        size = 6.0
        left = (mx - size * math.cos(angle - 0.5), my - size * math.sin(angle - 0.5))
        right = (mx - size * math.cos(angle + 0.5), my - size * math.sin(angle + 0.5))
        features.append(_feature({"type": "LineString", "coordinates": [list(left), [mx, my], list(right)]},
                                 kind="flow", a=up, b=link.downstream,
                                 style={"color": "#0b4f9c", "weight": 3, "opacity": 1.0}))
    return _collection(features)


@cache
def water_border_bars(board: Board) -> dict[str, Any]:
    """A short thick blue bar just outside a card's side where a line enters it across water (5.2.3)."""
    features = []
    for box, neighbours in board.water_borders.items():
        x, y = _local(board, box)
        for other in sorted(neighbours):
            ox, oy = _local(board, other)
            dx, dy = ox - x, oy - y
            length = math.hypot(dx, dy) or 1.0
            ux, uy = dx / length, dy / length
            reach = _card_exit(box, ux, uy) + 4
            cx, cy = x + ux * reach, y + uy * reach
            half = 6.0
            coords = [[cx - uy * half, cy + ux * half], [cx + uy * half, cy - ux * half]]
            features.append(_feature({"type": "LineString", "coordinates": coords}, kind="water", box=box,
                                     toward=other, style={"color": "#1565c0", "weight": 5, "opacity": 0.95}))
    return _collection(features)


# ------------------------------------------------------------------ cards (names, values, counters)
_TYPE_WORDS = {"MF": "militia infantry", "FV": "veteran infantry", "FS": "crack infantry",
               "MC": "militia cavalry", "CV": "veteran cavalry", "CS": "crack cavalry"}


def _leaders(game: Game) -> dict[str, list]:
    """Leaders on the map (AO-8.2), by box."""
    badges: dict[str, list] = {}
    for leader in game.state.leaders.values():
        if leader.on_map:
            badges.setdefault(leader.location, []).append(leader)
    return badges


def _battles(game: Game) -> set[str]:
    battles = set(game.state.battles)
    if game.battle is not None:
        battles.add(game.battle.box)
    return battles


def unit_word(code: str) -> str:
    """A unit type's name in the current language ("militia infantry", "fanteria di milizia")."""
    name = _TYPE_WORDS.get(code)
    return render(Term("unit", name)) if name else code


def side_word(key: str) -> str:
    """"Union", "Confederate" or "Neutral" as a word on its own (a legend, a label, a table cell), in the
    current language. (Inside the engine's sentences a side reads as the catalog's ``side`` term, which in
    Spanish and Italian is a form that follows a noun: "de la Unión", "dell'Unione".)"""
    if key == "union":
        return _("Union")
    if key == "confederate":
        return _("Confederate")
    return _("Neutral")


def _chip(game: Game, side: Side, units: list, leaders: list) -> tuple[str, str]:
    """A side's stack as one chip: the number of units (and the leaders' initials); the composition in its title."""
    counts: dict[str, int] = {}
    for unit in units:
        counts[unit.type.code] = counts.get(unit.type.code, 0) + 1
    reduced = sum(1 for u in units if u.is_reduced)
    entrenched = any(game.is_entrenched(u.id) for u in units)
    routed = any(getattr(u, "routed", False) for u in units)
    words = [_("{n} {unit_type}").format(n=n, unit_type=unit_word(code)) for code, n in sorted(counts.items())]
    if reduced:
        words.append(_("{n} reduced").format(n=reduced))
    if entrenched:
        words.append(_("entrenched"))
    if routed:
        words.append(_("routed"))
    words += [_("leader {name} ({value})").format(name=leader.title, value=leader.value) for leader in leaders]
    classes = ["ahd-chip", f"ahd-{side.value}"] + [c for c, on in (("ahd-reduced", reduced), ("ahd-entrenched",
                                                   entrenched), ("ahd-leader", leaders)) if on]
    text = (str(len(units)) if units else "") + "".join(leader.title[0] for leader in leaders) + ("!" if routed else "")
    title = _("{side}: {units}").format(side=side_word(side.value), units=", ".join(words))
    return (f'<span class="{" ".join(classes)}" title="{escape(title)}">{escape(text)}</span>', title)


def sr_rest(name: str, description: str) -> str:
    """The part of a card's accessible name after its visible name: the rest of the description, in a span
    only screen readers read (the name is read from the card's visible text, so it is said once)."""
    rest = description[len(name):] if description.startswith(name) else "; " + description
    return f'<span class="ahd-sr">{escape(rest)}</span>'


def card_html(game: Game, box_id: str, *, lit: bool = False, selected: bool = False,
              battles: set[str] | None = None, leaders: dict[str, list] | None = None) -> tuple[str, str]:
    """A box's card (HTML) and its one-line description (the card's title, a tooltip, and its accessible name:
    the name as seen, then the rest of the description in text hidden from the eye; the counters as drawn
    are hidden from screen readers, which read them in the description instead)."""
    box = game.board[box_id]
    battles = _battles(game) if battles is None else battles
    leaders_here = (_leaders(game) if leaders is None else leaders).get(box_id, [])
    side = game.controller(box_id)
    key = side.value if side else "neutral"
    classes = ["ahd-card", f"ahd-{key}"]
    classes += [c for c, on in (("ahd-fort", box.fort), ("ahd-port", box.port), ("ahd-battle", box_id in battles),
                                ("ahd-lit", lit), ("ahd-selected", selected)) if on]
    name = game.board.local_name(box_id)
    held = game.is_cavalry_held(box_id)
    row, described = [], [_("{box} ({state})").format(box=name, state=box.state),
                          (_("{side} (held by cavalry)") if held else "{side}").format(side=side_word(key))]
    if box.blue_value:
        row.append(f'<b class="ahd-vu" title="{escape(_("Union recruiting value"))}">{box.blue_value}</b>')
        described.append(_("Union value {value}").format(value=box.blue_value))
    here = game.units_in(box_id)
    for unit_side in (Side.UNION, Side.CONFEDERATE):
        units = [u for u in here if u.side is unit_side]
        own = [leader for leader in leaders_here if leader.side is unit_side]
        if units or own:
            chip, title = _chip(game, unit_side, units, own)
            row.append(chip)
            described.append(title)
    if box.red_value:
        row.append(f'<b class="ahd-vc" title="{escape(_("Confederate recruiting value"))}">{box.red_value}</b>')
        described.append(_("Confederate value {value}").format(value=box.red_value))
    described += [_(f) for f, on in ((N_("fort"), box.fort), (N_("port"), box.port), (N_("battle"), box_id in battles),
                                     (N_("a click acts here"), lit), (N_("selected"), selected)) if on]
    description = "; ".join(described)
    html = (f'<div class="{" ".join(classes)}" data-box="{box_id}" role="button" title="{escape(description)}">'
            f'<span class="ahd-name">{escape(name)}</span><span class="ahd-row" aria-hidden="true">{"".join(row)}</span>'
            f'{sr_rest(name, description)}</div>')
    return html, "; ".join(described)


def card_keys(game: Game, selected: str = "", destinations: list[str] | tuple[str, ...] = ()) -> dict[str, tuple]:
    """For each box, everything its card (:func:`card_html`) draws, as one comparable value: a card whose key
    did not change need not be drawn again (a march redraws only the boxes it changed)."""
    lit, battles, leaders = set(destinations), _battles(game), _leaders(game)
    units: dict[str, list] = {}
    for unit in game.state.units.values():
        if unit.location not in game.board:
            continue  # off the map (a reserve, eliminated): on no card
        units.setdefault(unit.location, []).append(
            (unit.id, unit.side, unit.type.code, unit.is_reduced, game.is_entrenched(unit.id), bool(getattr(unit, "routed", False))))
    return {box.id: (game.controller(box.id), game.is_cavalry_held(box.id), tuple(sorted(units.get(box.id, ()))),
                     tuple((leader.title, leader.side, leader.value) for leader in leaders.get(box.id, ())),
                     box.id in battles, box.id in lit, box.id == selected) for box in game.board}


def cards(game: Game, selected: str = "", destinations: list[str] | tuple[str, ...] = (),
          only: set[str] | None = None) -> dict[str, tuple[str, str]]:
    """Every box's card and description, by box id (``only``: those boxes' alone)."""
    lit, battles, leaders = set(destinations), _battles(game), _leaders(game)
    return {box.id: card_html(game, box.id, lit=box.id in lit, selected=box.id == selected, battles=battles,
                              leaders=leaders) for box in game.board if only is None or box.id in only}
