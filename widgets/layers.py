"""The map's drawings as plain data: GeoJSON for lines and boxes, SVG for labels and counters.

Pure functions of the board and the game (no widgets here), so they are cheap to test and the
map view only assigns their results to a handful of layers.
"""
from __future__ import annotations

import base64
import json
import math
from functools import cache
from importlib import resources
from typing import Any
from xml.sax.saxutils import escape

from ahd import Game
from ahd.core.board import Board
from ahd.core.sides import Side

#: Map extent (south, west, north, east) holding every box with a margin.
BOUNDS = ((28.6, -96.6), (43.0, -72.4))
CENTER = (35.9, -84.6)

UNION_BLUE = "#1f4e9c"
CONFEDERATE_GREY = "#6f6f6f"
NEUTRAL = "#f2efe6"
ROAD, RAIL, RIVER = "#8b5a2b", "#222222", "#2b7bd6"
LIT, SELECTED = "#ffb000", "#d62728"

LINE_STYLES = {
    "road": {"color": ROAD, "weight": 2, "opacity": 0.85},
    "rail": {"color": RAIL, "weight": 3, "opacity": 0.8, "dashArray": "7 4"},
    "river": {"color": RIVER, "weight": 5, "opacity": 0.55},
}
#: Controller styles: colour AND border pattern (solid Union, dashed Confederate, dotted neutral).
BOX_STYLES = {
    "union": {"fillColor": UNION_BLUE, "color": "#0b1f40", "dashArray": ""},
    "confederate": {"fillColor": CONFEDERATE_GREY, "color": "#202020", "dashArray": "4 3"},
    "neutral": {"fillColor": NEUTRAL, "color": "#555555", "dashArray": "1 3"},
}


@cache
def state_outlines() -> dict[str, Any]:
    """US state outlines (public-domain Census boundaries via us-atlas; see data/us_states.PROVENANCE.md)."""
    text = resources.files("widgets").joinpath("data/us_states.geojson").read_text(encoding="utf-8")
    data = json.loads(text)
    for feature in data["features"]:
        feature["properties"]["style"] = {"color": "#9a8f7a", "weight": 1, "fillColor": "#f6f1e3",
                                          "fillOpacity": 1.0, "opacity": 0.9}
    return data


def _feature(geometry: dict, **properties: Any) -> dict[str, Any]:
    return {"type": "Feature", "geometry": geometry, "properties": properties}


def _collection(features: list) -> dict[str, Any]:
    return {"type": "FeatureCollection", "features": features}


def _local(board: Board, box: str) -> tuple[float, float]:
    b = board[box]
    return b.lon, b.lat


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
            offset = (kinds.index(link.kind) - (len(kinds) - 1) / 2) * 0.09
        dx, dy = x2 - x1, y2 - y1
        length = math.hypot(dx, dy) or 1.0
        nx, ny = -dy / length * offset, dx / length * offset
        coords = [[x1 + nx, y1 + ny], [x2 + nx, y2 + ny]]
        features.append(_feature({"type": "LineString", "coordinates": coords}, kind=link.kind,
                                 a=link.a, b=link.b, style=dict(LINE_STYLES[link.kind])))
    return _collection(features)


@cache
def river_arrows(board: Board) -> dict[str, Any]:
    """A chevron at the middle of each river link, pointing downstream."""
    features = []
    for link in board.links:
        if link.kind != "river" or link.downstream is None:
            continue
        up = link.other(link.downstream)
        (x1, y1), (x2, y2) = _local(board, up), _local(board, link.downstream)
        mx, my = (x1 + x2) / 2, (y1 + y2) / 2
        angle = math.atan2(y2 - y1, x2 - x1)
        size = 0.16
        left = (mx - size * math.cos(angle - 0.5), my - size * math.sin(angle - 0.5))
        right = (mx - size * math.cos(angle + 0.5), my - size * math.sin(angle + 0.5))
        features.append(_feature({"type": "LineString", "coordinates": [list(left), [mx, my], list(right)]},
                                 kind="flow", a=up, b=link.downstream,
                                 style={"color": "#0b4f9c", "weight": 3, "opacity": 1.0}))
    return _collection(features)


@cache
def water_border_bars(board: Board) -> dict[str, Any]:
    """A short thick blue bar on each box side that a line enters across water (5.2.3)."""
    features = []
    for box, neighbours in board.water_borders.items():
        x, y = _local(board, box)
        for other in sorted(neighbours):
            ox, oy = _local(board, other)
            dx, dy = ox - x, oy - y
            length = math.hypot(dx, dy) or 1.0
            ux, uy = dx / length, dy / length
            cx, cy = x + ux * 0.22, y + uy * 0.22
            half = 0.14
            coords = [[cx - uy * half, cy + ux * half], [cx + uy * half, cy - ux * half]]
            features.append(_feature({"type": "LineString", "coordinates": coords}, kind="water", box=box,
                                     toward=other, style={"color": "#1565c0", "weight": 6, "opacity": 0.9}))
    return _collection(features)


def box_points(game: Game) -> dict[str, Any]:
    """One point per box, styled by its controller; properties carry what a tooltip needs."""
    features = []
    for box in game.board:
        side = game.controller(box.id)
        key = side.value if side else "neutral"
        style = dict(BOX_STYLES[key], radius=9 if box.is_recruiting_city else 6, weight=2, fillOpacity=0.95,
                     opacity=1.0)
        features.append(_feature({"type": "Point", "coordinates": [box.lon, box.lat]}, id=box.id, name=box.name,
                                 controller=key, style=style))
    return _collection(features)


def highlights(game: Game, selected: str, destinations: list[str]) -> dict[str, Any]:
    """Rings around the selected box and the boxes a click would act on."""
    features = []
    for box_id in destinations:
        box = game.board[box_id]
        features.append(_feature({"type": "Point", "coordinates": [box.lon, box.lat]}, id=box_id, role="lit",
                                 style={"radius": 15, "color": LIT, "weight": 5, "fillOpacity": 0.15,
                                        "fillColor": LIT, "dashArray": "", "opacity": 1.0}))
    if selected:
        box = game.board[selected]
        features.append(_feature({"type": "Point", "coordinates": [box.lon, box.lat]}, id=selected,
                                 role="selected", style={"radius": 17, "color": SELECTED, "weight": 4,
                                                         "fillOpacity": 0.0, "dashArray": "6 3", "opacity": 1.0}))
    return _collection(features)


# ------------------------------------------------------------------ SVG overlay (labels, counters)
def _mercator(lat: float) -> float:
    return math.log(math.tan(math.pi / 4 + math.radians(lat) / 2))


#: The overlay's width in pixels: the map's width at zoom 6, so text shows at its nominal size there.
DEFAULT_ZOOM = 6
WIDTH = 256 * 2 ** DEFAULT_ZOOM * (BOUNDS[1][1] - BOUNDS[0][1]) / 360
_Y0, _Y1 = _mercator(BOUNDS[1][0]), _mercator(BOUNDS[0][0])
HEIGHT = WIDTH * (_Y0 - _Y1) / math.radians(BOUNDS[1][1] - BOUNDS[0][1])


def to_svg_xy(lat: float, lon: float) -> tuple[float, float]:
    """Where a point falls on the overlay image (Web Mercator, like the map)."""
    x = (lon - BOUNDS[0][1]) / (BOUNDS[1][1] - BOUNDS[0][1]) * WIDTH
    y = (_Y0 - _mercator(lat)) / (_Y0 - _Y1) * HEIGHT
    return x, y


def _counter_groups(game: Game, box_id: str) -> list[tuple[Side, str, bool, bool, int]]:
    groups: dict[tuple, int] = {}
    for unit in game.units_in(box_id):
        key = (unit.side, unit.type.code + ("!" if getattr(unit, "routed", False) else ""), unit.is_reduced,
               game.is_entrenched(unit.id))
        groups[key] = groups.get(key, 0) + 1
    order = {Side.UNION: 0, Side.CONFEDERATE: 1}
    return [(*k, n) for k, n in sorted(groups.items(), key=lambda kv: (order[kv[0][0]], kv[0][1], kv[0][2]))]


def _star(x: float, y: float, r: float) -> str:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = -math.pi / 2 + i * math.pi / 5
        points.append(f"{x + radius * math.cos(angle):.1f},{y + radius * math.sin(angle):.1f}")
    return f'<polygon points="{" ".join(points)}" fill="#b8860b" stroke="#3a2a00" stroke-width="1"/>'


def _anchor(x: float, y: float) -> str:
    return (f'<g stroke="#0b3d91" stroke-width="2" fill="none"><circle cx="{x:.1f}" cy="{y - 6:.1f}" r="2.2"/>'
            f'<path d="M{x:.1f},{y - 4:.1f} v11 M{x - 5:.1f},{y + 2:.1f} a5,5 0 0 0 10,0 '
            f'M{x - 3.5:.1f},{y - 1:.1f} h7"/></g>')


def _swords(x: float, y: float) -> str:
    return (f'<g><circle cx="{x:.1f}" cy="{y:.1f}" r="10" fill="#fff3c4" stroke="{SELECTED}" stroke-width="2"/>'
            f'<path d="M{x - 6:.1f},{y - 6:.1f} L{x + 6:.1f},{y + 6:.1f} M{x + 6:.1f},{y - 6:.1f} '
            f'L{x - 6:.1f},{y + 6:.1f}" stroke="{SELECTED}" stroke-width="3"/></g>')


def _leader_badges(game: Game) -> dict[str, list]:
    """Leaders on the map (AO-8.2), by box."""
    badges: dict[str, list] = {}
    for leader in game.state.leaders.values():
        if leader.on_map:
            badges.setdefault(leader.location, []).append(leader)
    return badges


def overlay_svg(game: Game) -> str:
    """Names, recruiting values, ports, forts, unit stacks and battle markers, as one SVG image."""
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH:.0f}" height="{HEIGHT:.0f}" '
           f'viewBox="0 0 {WIDTH:.0f} {HEIGHT:.0f}" font-family="DejaVu Sans, Arial, sans-serif">',
           '<style>.n{font-size:13px;font-weight:600;fill:#111;paint-order:stroke;stroke:#fffdf5;'
           'stroke-width:3px}.v{font-size:13px;font-weight:700;paint-order:stroke;stroke:#fff;stroke-width:3px}'
           '.c{font-size:10px;font-weight:700;fill:#fff}.k{font-size:11px;font-weight:700;fill:#111;'
           'paint-order:stroke;stroke:#fff;stroke-width:2px}.s{font-size:10px;font-weight:800}</style>']
    leaders = _leader_badges(game)
    battles = set(game.state.battles)
    if game.battle is not None:
        battles.add(game.battle.box)
    for box in game.board:
        x, y = to_svg_xy(box.lat, box.lon)
        side = game.controller(box.id)
        letter = "U" if side is Side.UNION else "C" if side is Side.CONFEDERATE else "N"
        text_fill = "#fff" if side is not None else "#111"
        out.append(f'<text class="s" x="{x:.1f}" y="{y + 3.5:.1f}" text-anchor="middle" fill="{text_fill}">'
                   f'{letter}</text>')
        out.append(f'<text class="n" x="{x + 12:.1f}" y="{y - 3:.1f}">{escape(box.name)}</text>')
        values = []
        if box.blue_value:
            values.append(f'<tspan fill="{UNION_BLUE}">{box.blue_value}</tspan>')
        if box.red_value:
            values.append(f'<tspan fill="#b22222">{box.red_value}</tspan>')
        if values:
            out.append(f'<text class="v" x="{x - 12:.1f}" y="{y - 3:.1f}" text-anchor="end">'
                       f'{"/".join(values)}</text>')
        if box.fort:
            out.append(_star(x - 14, y + 10, 6))
        if box.port:
            out.append(_anchor(x - 26 if box.fort else x - 14, y + 10))
        if box.id in battles:
            out.append(_swords(x, y - 20))
        cx = x + 12
        for leader in leaders.get(box.id, ()):  # a gold badge: initial and value (Grant 2 = "G2")
            fill = UNION_BLUE if leader.side is Side.UNION else CONFEDERATE_GREY
            out.append(f'<rect x="{cx:.1f}" y="{y + 2:.1f}" width="24" height="14" rx="7" fill="{fill}" '
                       f'stroke="#d4a017" stroke-width="2.5"/><text class="c" x="{cx + 4:.1f}" y="{y + 13:.1f}">'
                       f'{leader.title[0]}{leader.value}</text>')
            cx += 26
        for unit_side, code, reduced, entrenched, count in _counter_groups(game, box.id):
            fill = UNION_BLUE if unit_side is Side.UNION else CONFEDERATE_GREY
            routed = code.endswith("!")  # AO-8.1: routed units carry a "!"
            label = (code[:2].lower() if reduced else code[:2]) + ("!" if routed else "")
            width = 22 + (9 if count > 1 else 0)
            dash = ' stroke-dasharray="3 2"' if reduced else ""
            out.append(f'<rect x="{cx:.1f}" y="{y + 2:.1f}" width="{width}" height="14" rx="2" fill="{fill}" '
                       f'stroke="#000" stroke-width="1"{dash}/>')
            if entrenched:
                out.append(f'<rect x="{cx:.1f}" y="{y + 16:.1f}" width="{width}" height="3" fill="#8b5a2b"/>')
            out.append(f'<text class="c" x="{cx + 3:.1f}" y="{y + 13:.1f}">{label}'
                       f'{f"×{count}" if count > 1 else ""}</text>')
            cx += width + 2
    out.append("</svg>")
    return "".join(out)


def svg_data_url(svg: str) -> str:
    return "data:image/svg+xml;base64," + base64.b64encode(svg.encode("utf-8")).decode("ascii")
