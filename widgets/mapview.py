"""The ipyleaflet map: a fixed, small set of layers whose data follow the session.

Layers (never more, whatever the position): state outlines, links, river flow arrows, water
borders, highlight rings, boxes (clickable) and one SVG image with labels and counters. No tile
layer unless asked for (``tiles=True``): the map works offline.
"""
from __future__ import annotations

import ipyleaflet
import ipywidgets as w

from .layers import (BOUNDS, CENTER, DEFAULT_ZOOM, box_points, highlights, link_lines, overlay_svg, river_arrows,
                     state_outlines, svg_data_url, water_border_bars)
from .session import Session

LEGEND = """
<div style="font-size:14px;line-height:1.5;background:#fffdf5;padding:4px 8px;border:1px solid #999">
<b>Boxes</b>: <span style="color:#1f4e9c">● U</span> Union (solid rim),
<span style="color:#6f6f6f">● C</span> Confederate (dashed rim), ○ N neutral<br>
<b>Lines</b>: <span style="color:#8b5a2b">━ road</span>, <span style="color:#222">╍ rail</span>,
<span style="color:#2b7bd6">━ river</span> (› flows downstream), <span style="color:#1565c0">▮</span> water border<br>
<b>Numbers</b>: recruiting values <span style="color:#1f4e9c">Union</span>/<span style="color:#b22222">Confederate</span>;
★ fort, anchor = port<br>
<b>Counters</b>: MF/FV/FS infantry, MC/CV/CS cavalry; lower case = reduced; brown bar = entrenched;
! = routed; ✕ = battle; gold-rimmed G/S/L + value = leader
</div>"""


def _info_html(info: dict) -> str:
    if not info:
        return "<div style='font-size:14px;color:#555'>Hover over a box to see its state.</div>"
    values = []
    if info["union_value"]:
        values.append(f"Union recruiting value {info['union_value']}")
    if info["confederate_value"]:
        values.append(f"Confederate recruiting value {info['confederate_value']}")
    features = [f for f, on in (("port", info["port"]), ("fort", info["fort"])) if on]
    held = " (held by cavalry)" if info["cavalry_held"] else ""
    lines = [f"<b style='font-size:16px'>{info['name']}</b> ({info['state']})",
             f"Controlled by: <b>{info['controller'].capitalize()}</b>{held}"]
    if values:
        lines.append("; ".join(values))
    if features:
        lines.append(", ".join(features).capitalize())
    if info["battle"]:
        lines.append("<b style='color:#d62728'>Battle here</b>")
    for leader in info.get("leaders", ()):
        lines.append(f"<b>{leader['side'].capitalize()} leader {leader['name']}</b> (value {leader['value']})")
    for unit in info["units"]:
        state = ", ".join(s for s, on in (("reduced", unit["reduced"]), ("entrenched", unit["entrenched"]),
                                          ("routed", unit.get("routed"))) if on)
        lines.append(f"{unit['side'].capitalize()} {unit['name']} {unit['id']}" + (f" ({state})" if state else ""))
    if not info["units"]:
        lines.append("No units.")
    return "<div style='font-size:14px;line-height:1.4;max-width:330px'>" + "<br>".join(lines) + "</div>"


class MapView:
    """The board on an ipyleaflet map, bound to a :class:`Session`."""

    def __init__(self, session: Session, *, tiles: bool = False, height: str = "720px") -> None:
        self.session = session
        game = session.game
        self.map = ipyleaflet.Map(center=CENTER, zoom=DEFAULT_ZOOM, layers=(), min_zoom=4, max_zoom=9,
                                  zoom_snap=0.5, scroll_wheel_zoom=True, attribution_control=False,
                                  layout=w.Layout(height=height, min_height=height, max_height=height, width="100%"))
        self.map.add(ipyleaflet.GeoJSON(data=state_outlines(), name="states"))
        if tiles:
            self.map.add(ipyleaflet.basemap_to_tiles(ipyleaflet.basemaps.OpenStreetMap.Mapnik))
        self.links = ipyleaflet.GeoJSON(data=link_lines(game.board), name="links")
        self.arrows = ipyleaflet.GeoJSON(data=river_arrows(game.board), name="river flow")
        self.water = ipyleaflet.GeoJSON(data=water_border_bars(game.board), name="water borders")
        self.highlight = ipyleaflet.GeoJSON(data=highlights(game, "", []), name="highlights", point_style={"radius": 14})
        self.boxes = ipyleaflet.GeoJSON(data=box_points(game), name="boxes", point_style={"radius": 8},
                                        hover_style={"weight": 4, "color": "#ffb000"})
        self._svg = overlay_svg(game)
        # above the lines and boxes (the marker pane), and not interactive: clicks go through to the boxes
        self.labels = ipyleaflet.ImageOverlay(url=svg_data_url(self._svg), bounds=BOUNDS, name="labels",
                                              pane="markerPane")
        for layer in (self.links, self.arrows, self.water, self.highlight, self.boxes, self.labels):
            self.map.add(layer)
        # the hovered box's state and the legend sit under the map, where they hide no box
        self.info = w.HTML(_info_html({}), layout=w.Layout(width="45%", min_height="90px"))
        self.legend = w.HTML(LEGEND, layout=w.Layout(width="55%"))
        self.widget = w.VBox([self.map, w.HBox([self.info, self.legend])])
        self.boxes.on_click(self._on_click)
        self.highlight.on_click(self._on_click)
        self.boxes.on_hover(self._on_hover)
        self.highlight.on_hover(self._on_hover)  # redrawn rings lie above the boxes
        session.observe(self._redraw, names=["version"])
        session.observe(self._show_info, names=["info"])

    @property
    def layer_count(self) -> int:
        return len(self.map.layers)

    # ------------------------------------------------------------ events
    def _on_click(self, event=None, feature=None, properties=None, **_):
        box = (properties or {}).get("id") or (feature or {}).get("properties", {}).get("id")
        if box:
            self.session.click_box(box)

    def _on_hover(self, event=None, feature=None, properties=None, **_):
        box = (properties or {}).get("id")
        if box:
            self.session.hover(box)

    # ------------------------------------------------------------ drawing
    def _redraw(self, change=None) -> None:
        session = self.session
        game = session.game
        with self.map.hold_sync():
            points = box_points(game)
            if points != self.boxes.data:
                self.boxes.data = points
            lit = highlights(game, session.selected, list(session.destinations))
            if lit != self.highlight.data:
                self.highlight.data = lit
            svg = overlay_svg(game)
            if svg != self._svg:
                self._svg = svg
                self.labels.url = svg_data_url(svg)

    def _show_info(self, change=None) -> None:
        self.info.value = _info_html(self.session.info)
