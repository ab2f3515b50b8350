"""Compute the schematic board: where each of the 129 boxes is drawn so that no two box cards overlap.

    .venv/bin/python scripts/make_board_layout.py [--check]

Writes ``ahd/data/board_layout.json`` (x, y per box, in CSS pixels of the board at its default
scale, y downwards; read by ``ahd.core.board.display_positions()``) and
``widgets/data/us_states_board.geojson`` (the state outlines warped by the same transform, in the
same x/y units). Deterministic: same inputs, same output (``--check`` fails if the files differ).

Method (numpy only):
1. Start from geography: Web-Mercator of each box's lat/lon, scaled to fill the canvas.
2. Every box is a card of a known size (its name in the label font, and a row of counters below);
   iterate: push apart every pair of overlapping cards (plus a gap) along the axis of least
   overlap; push a card off any link it does not belong to that crosses it; pull each box gently
   toward its geographic place (so relative geography is kept) and along its links (so linked
   boxes stay near); keep all inside the canvas. Links are never changed: the topology is the board's.
3. Warp the state outlines with the boxes' displacement field (Gaussian-weighted average of the
   displacements of nearby boxes), so each box stays in its state.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ahd.core.board import default_board  # noqa: E402

LAYOUT = ROOT / "ahd" / "data" / "board_layout.json"
STATES_IN = ROOT / "widgets" / "data" / "us_states.geojson"
STATES_OUT = ROOT / "widgets" / "data" / "us_states_board.geojson"

#: The canvas (CSS pixels at the default zoom): the map's size on a 1366x768 screen with the panel beside it.
WIDTH, HEIGHT = 900, 600
MARGIN = 6
#: The card of a box: its name on one line (bold, FONT_PX) over a row of counters.
FONT_PX = 10
CARD_H = 26
MIN_CARD_W = 44
GAP = 3  # free pixels kept between two cards
EQUALIZE = 0.4  # how far each box moves toward its rank (0: pure geography)

# Advance widths of DejaVu Sans Condensed Bold in em (the label font; Liberation Sans Narrow and Arial
# Narrow are narrower), by character class, rounded up.
_NARROW = set("fijlrtI.,:;'!| ()-&")
_WIDE = set("mwMW")
_CAPS = set("ABCDEFGHJKLNOPQRSTUVXYZ")


def text_width(text: str, px: float = FONT_PX) -> float:
    em = 0.0
    for ch in text:
        if ch == " ":
            em += 0.31
        elif ch in _NARROW:
            em += 0.38
        elif ch in _WIDE:
            em += 0.92
        elif ch in _CAPS:
            em += 0.70
        else:
            em += 0.60
    return em * px


def card_size(name: str) -> tuple[float, float]:
    return max(MIN_CARD_W, math.ceil(text_width(name) + 8)), CARD_H


def mercator(lat):
    return np.log(np.tan(np.pi / 4 + np.radians(lat) / 2))


class GeoFrame:
    """Geography -> canvas before spreading: Web Mercator, scaled to fill the canvas (x and y separately)."""

    def __init__(self, lon: np.ndarray, lat: np.ndarray, half: np.ndarray) -> None:
        self.x0, self.x1 = lon.min(), lon.max()
        self.y0, self.y1 = mercator(lat.max()), mercator(lat.min())
        self.left, self.right = MARGIN + half[:, 0].max(), WIDTH - MARGIN - half[:, 0].max()
        self.top, self.bottom = MARGIN + CARD_H / 2, HEIGHT - MARGIN - CARD_H / 2

    def __call__(self, lon, lat) -> np.ndarray:
        lon, lat = np.asarray(lon, float), np.asarray(lat, float)
        x = self.left + (lon - self.x0) / (self.x1 - self.x0) * (self.right - self.left)
        y = self.top + (self.y0 - mercator(lat)) / (self.y0 - self.y1) * (self.bottom - self.top)
        return np.stack([x, y], axis=-1)


def _segments_cross(p1, p2, q1, q2) -> bool:
    def orient(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2 = orient(q1, q2, p1), orient(q1, q2, p2)
    d3, d4 = orient(p1, p2, q1), orient(p1, p2, q2)
    return d1 * d2 < 0 and d3 * d4 < 0


def crossings(P: np.ndarray, links: list[tuple[int, int]]) -> int:
    """Pairs of links (sharing no box) whose segments cross."""
    n = 0
    for k, (a, b) in enumerate(links):
        for c, d in links[k + 1:]:
            if len({a, b, c, d}) == 4 and _segments_cross(P[a], P[b], P[c], P[d]):
                n += 1
    return n


def overlaps(P: np.ndarray, half: np.ndarray, gap: float = 0.0) -> int:
    dx = np.abs(P[:, None, 0] - P[None, :, 0])
    dy = np.abs(P[:, None, 1] - P[None, :, 1])
    ox = half[:, None, 0] + half[None, :, 0] + gap - dx
    oy = half[:, None, 1] + half[None, :, 1] + gap - dy
    hit = (ox > 0) & (oy > 0)
    np.fill_diagonal(hit, False)
    return int(hit.sum() // 2)


def cards_on_links(P, half, links) -> int:
    """(card, link) pairs where a link that does not end at the card passes through its middle band."""
    A, B, C = _link_arrays(P, links)
    return int(_through(P, half * np.array([0.8, 0.6]), A, B, C)[0].sum())


def _link_arrays(P, links):
    ia = np.array([a for a, _ in links])
    ib = np.array([b for _, b in links])
    n = len(P)
    incident = np.zeros((n, len(links)), bool)
    incident[ia, np.arange(len(links))] = True
    incident[ib, np.arange(len(links))] = True
    return ia, ib, incident


def _through(P, half, ia, ib, incident):
    """Which cards a link passes through (sampled along the link), and the push away from it."""
    A, B = P[ia], P[ib]
    ts = np.linspace(0.1, 0.9, 17)
    pts = A[None, :, :] + ts[:, None, None] * (B - A)[None, :, :]  # (t, link, 2)
    d = P[:, None, None, :] - pts[None, :, :, :]  # (box, t, link, 2)
    inside = (np.abs(d[..., 0]) < half[:, None, None, 0]) & (np.abs(d[..., 1]) < half[:, None, None, 1])
    hit = inside.any(axis=1) & ~incident  # (box, link)
    # push perpendicular to the link, away from it
    direction = B - A
    normal = np.stack([-direction[:, 1], direction[:, 0]], axis=-1)
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True) + 1e-9
    side = np.sign(((P[:, None, :] - A[None, :, :]) * normal[None, :, :]).sum(-1))
    side[side == 0] = 1
    push = (hit[..., None] * side[..., None] * normal[None, :, :]).sum(axis=1)
    return hit, push


def spread(P0: np.ndarray, half: np.ndarray, links: list[tuple[int, int]], steps: int = 3000) -> np.ndarray:
    P = P0.copy()
    ia, ib, incident = _link_arrays(P, links)
    geo_len = np.linalg.norm(P0[ia] - P0[ib], axis=1)
    lo = np.stack([MARGIN + half[:, 0], MARGIN + half[:, 1]], axis=1)
    hi = np.stack([WIDTH - MARGIN - half[:, 0], HEIGHT - MARGIN - half[:, 1]], axis=1)
    n = len(P)
    eye = np.eye(n, dtype=bool)
    for step in range(steps):
        anneal = 1.0 - step / steps
        gap = GAP + 2.0 * anneal  # a little more room early, the exact gap at the end
        dx = P[:, None, 0] - P[None, :, 0]
        dy = P[:, None, 1] - P[None, :, 1]
        ox = half[:, None, 0] + half[None, :, 0] + gap - np.abs(dx)
        oy = half[:, None, 1] + half[None, :, 1] + gap - np.abs(dy)
        hit = (ox > 0) & (oy > 0) & ~eye
        # along the axis of least overlap (scaled by the cards' aspect), half of it each
        along_x = hit & (ox / half[:, None, 0].clip(1) * half[:, None, 1] < oy)
        along_y = hit & ~along_x
        sx = np.where(dx >= 0, 1.0, -1.0)
        sy = np.where(dy >= 0, 1.0, -1.0)
        # identical x (or y): split deterministically by index
        sx = np.where(dx == 0, np.where(np.arange(n)[:, None] < np.arange(n)[None, :], -1.0, 1.0), sx)
        sy = np.where(dy == 0, np.where(np.arange(n)[:, None] < np.arange(n)[None, :], -1.0, 1.0), sy)
        move = np.zeros_like(P)
        move[:, 0] += (along_x * sx * ox * 0.5).sum(axis=1)
        move[:, 1] += (along_y * sy * oy * 0.5).sum(axis=1)
        # off the links that do not end at the card
        _, push = _through(P, half * np.array([0.8, 0.75]), ia, ib, incident)
        final = step >= 0.8 * steps  # the last fifth only separates cards
        move += (0.2 if final else 0.6) * push
        # toward geography, and links toward their geographic length (scaled up: the board grows)
        if final:
            P = np.clip(P + move, lo, hi)
            continue
        move += (0.01 + 0.03 * anneal) * (P0 - P)
        vec = P[ib] - P[ia]
        length = np.linalg.norm(vec, axis=1) + 1e-9
        stretch = (length - 1.15 * geo_len).clip(0) / length
        pull = 0.02 * stretch[:, None] * vec
        np.add.at(move, ia, pull)
        np.add.at(move, ib, -pull)
        P = np.clip(P + move, lo, hi)
    return P


def equalize(P0: np.ndarray, mix: float = EQUALIZE) -> np.ndarray:
    """Give crowded parts more room before spreading: each coordinate moves part of the way toward its
    rank (the quantile of the boxes' x, or y), an order-preserving stretch of dense bands."""
    P = P0.copy()
    for axis in (0, 1):
        values = P0[:, axis]
        order = np.argsort(values, kind="stable")
        quantile = np.empty(len(values))
        quantile[order] = np.linspace(values.min(), values.max(), len(values))
        P[:, axis] = (1 - mix) * values + mix * quantile
    return P


def warp(points: np.ndarray, P0: np.ndarray, P: np.ndarray, sigma: float = 38.0) -> np.ndarray:
    """Move points with the displacement field of the boxes (Gaussian-weighted, nearest boxes dominate)."""
    disp = P - P0
    out = np.empty_like(points)
    for start in range(0, len(points), 4096):
        chunk = points[start:start + 4096]
        d2 = ((chunk[:, None, :] - P0[None, :, :]) ** 2).sum(-1)
        d2 -= d2.min(axis=1, keepdims=True)  # relative to the nearest box: far points still move
        weight = np.exp(-d2 / (2 * sigma ** 2))
        out[start:start + 4096] = chunk + (weight @ disp) / weight.sum(axis=1, keepdims=True)
    return out


def build() -> tuple[dict, dict, dict]:
    board = default_board()
    boxes = list(board)
    index = {b.id: i for i, b in enumerate(boxes)}
    half = np.array([card_size(b.name) for b in boxes], float) / 2
    frame = GeoFrame(np.array([b.lon for b in boxes]), np.array([b.lat for b in boxes]), half)
    P0 = frame(np.array([b.lon for b in boxes]), np.array([b.lat for b in boxes]))
    pairs = sorted({tuple(sorted((index[l.a], index[l.b]))) for l in board.links})
    P = spread(equalize(P0), half, pairs)
    figures = {"boxes": len(boxes), "links (pairs)": len(pairs),
               "overlapping card pairs before": overlaps(P0, half), "after": overlaps(P, half),
               "touching (closer than the gap) after": overlaps(P, half, GAP - 0.5),
               "link crossings before": crossings(P0, pairs), "after ": crossings(P, pairs),
               "links through a card before": cards_on_links(P0, half, pairs),
               "after  ": cards_on_links(P, half, pairs),
               "mean shift from geography (px)": round(float(np.linalg.norm(P - P0, axis=1).mean()), 1)}
    layout = {
        "_about": "Schematic board: where each box is drawn (x, y: CSS pixels at the default scale, y down; "
                  "w, h: the card reserved for its name and counters). Made by scripts/make_board_layout.py "
                  "from the boxes' lat/lon; links and topology are board.json's. Do not edit by hand.",
        "width": WIDTH, "height": HEIGHT, "font_px": FONT_PX,
        "boxes": {b.id: {"x": round(float(P[i, 0]), 1), "y": round(float(P[i, 1]), 1),
                         "w": int(2 * half[i, 0]), "h": int(2 * half[i, 1])} for i, b in enumerate(boxes)},
    }
    states = json.loads(STATES_IN.read_text(encoding="utf-8"))
    features = []
    for feature in states["features"]:
        geometry = feature["geometry"]
        polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
        warped = []
        for polygon in polygons:
            rings = []
            for ring in polygon:
                ring = np.asarray(ring, float)
                xy = warp(frame(ring[:, 0], ring[:, 1]), P0, P)
                rings.append([[round(float(x), 1), round(float(y), 1)] for x, y in xy])
            warped.append(rings)
        features.append({"type": "Feature", "properties": feature["properties"],
                         "geometry": {"type": "MultiPolygon", "coordinates": warped}})
    outlines = {"type": "FeatureCollection",
                "_about": "US state outlines (see us_states.PROVENANCE.md) warped like the schematic board: "
                          "coordinates are board x, y (CSS pixels, y down). Made by scripts/make_board_layout.py.",
                "features": features}
    return layout, outlines, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="fail if the stored files are not what this makes")
    args = parser.parse_args()
    layout, outlines, figures = build()
    for key, value in figures.items():
        print(f"{key.strip()}: {value}")
    texts = {LAYOUT: json.dumps(layout, indent=1) + "\n", STATES_OUT: json.dumps(outlines, separators=(",", ":")) + "\n"}
    if args.check:
        stale = [str(p.relative_to(ROOT)) for p, t in texts.items() if not p.exists() or p.read_text() != t]
        if stale:
            sys.exit(f"out of date: {stale} (run scripts/make_board_layout.py)")
        print("up to date")
        return
    for path, text in texts.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)} ({len(text) // 1024} KiB)")


if __name__ == "__main__":
    main()
