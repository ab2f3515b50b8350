#!/usr/bin/env python3
"""Build widgets/data/us_states.geojson from us-atlas's states-10m.json.

INPUT: this script needs the TopoJSON file ``states-10m.json`` from the npm
package ``us-atlas`` version 3.0.1 (US Census Bureau 2017 cartographic
boundary files, public domain; package licensed ISC).  Fetch it outside the
project tree, e.g.::

    mkdir -p /tmp/geo && cd /tmp/geo && npm install us-atlas@3.0.1
    python3 scripts/make_us_states.py \
        /tmp/geo/node_modules/us-atlas/states-10m.json

Standard library only; node/npm is used solely to download the input file.
The TopoJSON -> GeoJSON decoding is done here (no topojson-client needed).

Steps (see us_states.PROVENANCE.md):
  1. decode the quantized, delta-encoded arcs to lon/lat (WGS84 degrees);
  2. optionally simplify every arc once with Douglas-Peucker (tolerance
     TOLERANCE degrees, arc end points kept) so borders shared by two states
     stay identical; TOLERANCE is 0 (no extra simplification) because the
     source is already simplified and the output fits the size budget;
  3. keep the 48 conterminous states + DC (drop AK, HI, PR, other territories);
  4. assemble polygons, round coordinates to 3 decimals, drop repeated
     points, drop rings with fewer than 4 positions or zero area, orient rings
     per RFC 7946 (exterior counter-clockwise, holes clockwise);
  5. write a FeatureCollection, one feature per line, sorted by state name,
     properties {"name", "postal"}.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

DEFAULT_INPUT = "/tmp/geo/node_modules/us-atlas/states-10m.json"
OUTPUT = Path(__file__).resolve().parents[1] / "widgets" / "data" / "us_states.geojson"
EXPECTED_SHA256 = "d76b391ccfa8bff601d51e3e3da5d43a89fa46cd5caca72ce731b383be5596d0"
TOLERANCE = 0.0  # Douglas-Peucker tolerance, degrees of lon/lat (planar); 0 = off
# (the us-atlas file is already simplified; unsimplified output is ~174 KB.
#  0.02 gives ~98 KB if a smaller file is ever wanted.)
DECIMALS = 3

# State FIPS code -> USPS code for the lower 48 + DC.
FIPS_TO_USPS = {
    "01": "AL", "04": "AZ", "05": "AR", "06": "CA", "08": "CO", "09": "CT",
    "10": "DE", "11": "DC", "12": "FL", "13": "GA", "16": "ID", "17": "IL",
    "18": "IN", "19": "IA", "20": "KS", "21": "KY", "22": "LA", "23": "ME",
    "24": "MD", "25": "MA", "26": "MI", "27": "MN", "28": "MS", "29": "MO",
    "30": "MT", "31": "NE", "32": "NV", "33": "NH", "34": "NJ", "35": "NM",
    "36": "NY", "37": "NC", "38": "ND", "39": "OH", "40": "OK", "41": "OR",
    "42": "PA", "44": "RI", "45": "SC", "46": "SD", "47": "TN", "48": "TX",
    "49": "UT", "50": "VT", "51": "VA", "53": "WA", "54": "WV", "55": "WI",
    "56": "WY",
}


def decode_arcs(topo: dict) -> list[list[tuple[float, float]]]:
    """Undo TopoJSON quantization + delta encoding."""
    (sx, sy), (tx, ty) = topo["transform"]["scale"], topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)
    return arcs


def _seg_dist2(p, a, b) -> float:
    ax, ay = a
    bx, by = b
    px, py = p
    dx, dy = bx - ax, by - ay
    d2 = dx * dx + dy * dy
    if d2 == 0.0:
        return (px - ax) ** 2 + (py - ay) ** 2
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / d2))
    qx, qy = ax + t * dx, ay + t * dy
    return (px - qx) ** 2 + (py - qy) ** 2


def douglas_peucker(pts: list, tol: float) -> list:
    """Iterative Douglas-Peucker; always keeps the first and last point."""
    n = len(pts)
    if n < 3 or tol <= 0:
        return list(pts)
    tol2 = tol * tol
    keep = [False] * n
    keep[0] = keep[-1] = True
    stack = [(0, n - 1)]
    while stack:
        i, j = stack.pop()
        best, idx = -1.0, -1
        for k in range(i + 1, j):
            d = _seg_dist2(pts[k], pts[i], pts[j])
            if d > best:
                best, idx = d, k
        if idx >= 0 and best > tol2:
            keep[idx] = True
            stack.append((i, idx))
            stack.append((idx, j))
    return [p for p, k in zip(pts, keep) if k]


def ring_coords(indices: list[int], arcs: list) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for i in indices:
        a = arcs[i] if i >= 0 else arcs[~i][::-1]
        out.extend(a if not out else a[1:])  # skip the shared junction point
    return out


def signed_area(ring) -> float:
    s = 0.0
    for (x1, y1), (x2, y2) in zip(ring, ring[1:]):
        s += x1 * y2 - x2 * y1
    return s / 2.0


def clean_ring(ring, hole: bool):
    r = []
    for x, y in ring:
        p = [round(x, DECIMALS), round(y, DECIMALS)]
        if not r or p != r[-1]:
            r.append(p)
    if r and r[0] != r[-1]:
        r.append(list(r[0]))
    if len(r) < 4:
        return None
    a = signed_area(r)
    if a == 0.0:
        return None
    if (a > 0) == hole:  # RFC 7946: exterior CCW (a > 0), holes CW
        r.reverse()
    return r


def build(topo: dict, tol: float = TOLERANCE) -> dict:
    arcs = [douglas_peucker(a, tol) for a in decode_arcs(topo)]
    features = []
    for g in topo["objects"]["states"]["geometries"]:
        if g["id"] not in FIPS_TO_USPS:
            continue
        polys = g["arcs"] if g["type"] == "MultiPolygon" else [g["arcs"]]
        out_polys = []
        for poly in polys:
            rings = []
            for k, ring in enumerate(poly):
                r = clean_ring(ring_coords(ring, arcs), hole=k > 0)
                if r is None:
                    if k == 0:
                        break  # exterior collapsed: drop the whole polygon
                    continue
                rings.append(r)
            if rings:
                out_polys.append(rings)
        if not out_polys:
            raise SystemExit(f"{g['properties']['name']}: everything collapsed")
        geom = ({"type": "Polygon", "coordinates": out_polys[0]} if len(out_polys) == 1
                else {"type": "MultiPolygon", "coordinates": out_polys})
        features.append({
            "type": "Feature",
            "properties": {"name": g["properties"]["name"], "postal": FIPS_TO_USPS[g["id"]]},
            "geometry": geom,
        })
    features.sort(key=lambda f: f["properties"]["name"])
    return {"type": "FeatureCollection", "features": features}


def dumps(fc: dict) -> str:
    c = (",", ":")
    lines = [json.dumps(f, separators=c, ensure_ascii=False) for f in fc["features"]]
    return '{"type":"FeatureCollection","features":[\n' + ",\n".join(lines) + "\n]}\n"


def main(argv: list[str]) -> None:
    src = Path(argv[1] if len(argv) > 1 else DEFAULT_INPUT)
    raw = src.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    if digest != EXPECTED_SHA256:
        print(f"WARNING: {src} sha256 {digest} != expected (us-atlas 3.0.1)", file=sys.stderr)
    fc = build(json.loads(raw))
    text = dumps(fc)
    OUTPUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUTPUT}: {len(fc['features'])} features, {len(text.encode())} bytes")


if __name__ == "__main__":
    main(sys.argv)
