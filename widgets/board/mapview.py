"""The ipyleaflet map: a fixed, small set of layers whose data follow the session.

The board is schematic (Simple CRS; positions from ``ahd.core.board.display_positions()``). Layers,
never more whatever the position: state outlines, links, river flow arrows, water borders, and the
cards (:mod:`widgets.board.cardlayer`: one marker hosting one widget that draws every box's card, its name,
recruiting values and counters as HTML text; lit, selected and battle states as classes). Only the cards
that change are re-sent, as one patch. No tile layer unless asked for (``tiles=True``): the map works offline.
The mouse wheel scrolls the page (zoom with the + / - buttons or the keyboard).
"""
from __future__ import annotations

import math

from html import escape

import ipyleaflet
import ipywidgets as w

from ahd.core.i18n import Term, render

from widgets.model.i18n import N_, _
from widgets.board.cardlayer import CardLayer
from widgets.board.layers import (CENTER, CSS, DEFAULT_ZOOM, HEIGHT, WIDTH, card_keys, cards, link_lines, location, river_arrows,
                     side_word, state_outlines, unit_word, water_border_bars)
from widgets.model.session import Session

def legend_html() -> str:
    """The map's key, in the current language."""
    union, confederate = side_word("union"), side_word("confederate")
    return (
        "\n<div style=\"font-size:14px;line-height:1.5;background:#fffdf5;padding:4px 8px;border:1px solid #999\">\n"
        + _("<b>Boxes</b>: {union_box} (solid rim), {confederate_box} (dashed rim), {neutral_box} (dotted); "
            "double rim = fort, blue corner = port").format(
            union_box=f'<span style="background:#d6e2f5;border:2px solid #1f4e9c;padding:0 3px">{union}</span>',
            confederate_box=f'<span style="background:#e4e4e4;border:2px dashed #3a3a3a;padding:0 3px">{confederate}</span>',
            neutral_box=f'<span style="border:2px dotted #555;padding:0 3px">{_("neutral")}</span>')
        + "<br>\n"
        + _("<b>Lines</b>: {road}, {rail}, {river} (› flows downstream), {water} water border").format(
            road=f'<span style="color:#8b5a2b">━ {_("road")}</span>', rail=f'<span style="color:#222">╍ {_("rail")}</span>',
            river=f'<span style="color:#2b7bd6">━ {_("river")}</span>', water='<span style="color:#1565c0">▮</span>')
        + "<br>\n"
        + _("<b>Numbers</b>: recruiting values {union} (left) / {confederate} (right)").format(
            union=f'<span style="color:#1f4e9c">{union}</span>', confederate=f'<span style="color:#b22222">{confederate}</span>')
        + "<br>\n"
        + _("<b>Counters</b>: one chip per side with its number of units (hover a box for what they are); dashed = some "
            "reduced; brown bar = entrenched; ! = routed; gold rim + initial = leader; red rim = battle; "
            "gold box = a click acts there, red dashes = selected")
        + "\n</div>")



#: What a click on the hovered box would do (``Session.hover_role``), said under its state.
CLICK_WORDS = {"act": N_("A click here acts: this box is lit."),
               "select": N_("A click here selects this box to march from it.")}


def _info_html(info: dict, role: str = "") -> str:
    if not info:
        return "<div style='font-size:14px;color:#555'>" + escape(_("Hover over a box to see its state.")) + "</div>"
    values = []
    if info["union_value"]:
        values.append(_("Union recruiting value {value}").format(value=info["union_value"]))
    if info["confederate_value"]:
        values.append(_("Confederate recruiting value {value}").format(value=info["confederate_value"]))
    features = [_(f) for f, on in ((N_("port"), info["port"]), (N_("fort"), info["fort"])) if on]
    controller = f"<b>{escape(side_word(info['controller']))}</b>"
    name = render(Term.box(info["name"]))  # the usual form in the language ("Nueva Orleans")
    lines = [f"<b style='font-size:16px'>{escape(name)}</b> ({escape(info['state'])})",
             (_("Controlled by: {side} (held by cavalry)") if info["cavalry_held"] else _("Controlled by: {side}"))
             .format(side=controller)]
    if values:
        lines.append("; ".join(values))
    if features:
        joined = ", ".join(features)
        lines.append(joined[:1].upper() + joined[1:])
    if info["battle"]:
        lines.append("<b style='color:#d62728'>" + escape(_("Battle here")) + "</b>")
    for leader in info.get("leaders", ()):
        lines.append("<b>" + escape(_("{side} leader {name}").format(side=side_word(leader["side"]), name=leader["name"]))
                     + "</b> " + escape(_("(value {value})").format(value=leader["value"])))
    for unit in info["units"]:
        state = ", ".join(_(s) for s, on in ((N_("reduced"), unit["reduced"]), (N_("entrenched"), unit["entrenched"]),
                                             (N_("routed"), unit.get("routed"))) if on)
        text = _("{side} {unit_type} {id}").format(side=side_word(unit["side"]), unit_type=unit_word(unit["type"]),
                                                   id=unit["id"])
        lines.append(escape(text) + (f" ({escape(state)})" if state else ""))
    if not info["units"]:
        lines.append(escape(_("No units.")))
    if role in CLICK_WORDS:
        lines.append("<i>" + escape(_(CLICK_WORDS[role])) + "</i>")
    return "<div style='font-size:14px;line-height:1.4;max-width:330px'>" + "<br>".join(lines) + "</div>"


class MapView:
    """The board on an ipyleaflet map, bound to a :class:`Session`."""

    def __init__(self, session: Session, *, tiles: bool = False, height: str = "620px") -> None:
        self.session = session
        game = session.game
        self.map = ipyleaflet.Map(center=CENTER, zoom=DEFAULT_ZOOM, crs=ipyleaflet.projections.Simple, layers=(),
                                  min_zoom=-1, max_zoom=2, zoom_snap=0.25, zoom_delta=0.5, scroll_wheel_zoom=False, keyboard=False,
                                  attribution_control=False,
                                  layout=w.Layout(height=height, min_height="420px", width="100%"))
        self.map.add_class("ahd-map")
        self.map.add(ipyleaflet.GeoJSON(data=state_outlines(), name="states"))
        if tiles:  # not on the schematic board's Simple CRS: only for a geographic look at the lines
            self.map.add(ipyleaflet.basemap_to_tiles(ipyleaflet.basemaps.OpenStreetMap.Mapnik))
        self.links = ipyleaflet.GeoJSON(data=link_lines(game.board), name="links")
        self.arrows = ipyleaflet.GeoJSON(data=river_arrows(game.board), name="river flow")
        self.water = ipyleaflet.GeoJSON(data=water_border_bars(game.board), name="water borders")
        self._keys = card_keys(game, session.selected, list(session.destinations))
        self._cards = cards(game, session.selected, list(session.destinations))
        # every card in one widget (widgets/board/cardlayer.py): one marker hosts them, a patch redraws what changed
        self.layer = CardLayer({box: html for box, (html, _) in self._cards.items()},
                               on_click=lambda box: self._on_click(properties={"id": box}),
                               on_hover=lambda box: self._on_hover(properties={"id": box}),
                               on_escape=lambda _box: session.cancel_selection(),
                               on_reveal=self._reveal)
        for layer in (self.links, self.arrows, self.water):
            self.map.add(layer)
        self.layer.add_to(self.map)
        self._fitted = False
        self.map.observe(self._fit, names=["pixel_bounds"])
        # the hovered box's state and the legend (the app puts them beside the map, others under it)
        self.style = w.HTML(CSS)
        self.info = w.HTML(_info_html({}), layout=w.Layout(min_height="90px"))
        self.legend = w.HTML(legend_html())
        self.widget = w.VBox([self.style, self.map, w.HBox([w.Box([self.info], layout=w.Layout(width="45%")),
                                                            w.Box([self.legend], layout=w.Layout(width="55%"))])])
        # a card is drawn again only when what it shows changed (card_keys): the position, the selection or the
        # lit boxes; the hovered box's state and what a click there would do are the info box's
        session.observe(self._redraw, names=["position", "selected", "destinations"])
        session.observe(self._show_info, names=["info", "hover_role"])
        # what a screen reader hears of the log: its new lines (every move, the computer's and a classmate's
        # too, battles and their results) in the map's live region (the prompt and the status line are live
        # regions of the panel's own)
        self._told = len(session.log_lines)
        session.observe(self._tell, names=["log_lines"])

    @property
    def layer_count(self) -> int:
        return len(self.map.layers)

    @property
    def card_count(self) -> int:
        return len(self.layer.cards)

    def card(self, box_id: str) -> str:
        """The HTML of a box's card as drawn now."""
        return self._cards[box_id][0]

    @property
    def lit(self) -> set[str]:
        """The boxes drawn lit (a click acts there)."""
        return {box for box, (html, _) in self._cards.items() if "ahd-lit" in html.split('"', 2)[1].split()}

    # ------------------------------------------------------------ events
    def _on_click(self, event=None, feature=None, properties=None, **_):
        box = (properties or {}).get("id") or (feature or {}).get("properties", {}).get("id")
        if box:
            self.session.click_box(box)

    def _on_hover(self, event=None, feature=None, properties=None, **_):
        box = (properties or {}).get("id")
        if box:
            self.session.hover(box)

    def _tell(self, change) -> None:
        lines = change["new"]
        fresh = lines[self._told:] if self._told <= len(lines) else lines[-1:]  # an undo shortens the log
        self._told = len(lines)
        for line in fresh[-12:]:  # a whole computer half-turn: its last dozen lines
            self.layer.announce(line)

    def _reveal(self, box_id: str) -> None:
        """A card focused by the keyboard outside the map's view: centre the map on it."""
        self.map.center = location(box_id)

    def _fit(self, change=None) -> None:
        """Once the map has a size in the page: the largest zoom (in quarter steps) showing the whole board, or
        at zoom 0 with the board's east edge in view when the map is narrower than the board."""
        if self._fitted or not self.map.pixel_bounds:
            return
        (x0, y0), (x1, y1) = self.map.pixel_bounds
        width, height = abs(x1 - x0) / 2 ** self.map.zoom, abs(y1 - y0) / 2 ** self.map.zoom
        if width < 100 or height < 100:
            return
        self._fitted = True
        zoom = math.floor(4 * math.log2(min(width / (WIDTH + 8), height / (HEIGHT + 8)))) / 4
        zoom = max(DEFAULT_ZOOM, min(zoom, 1.0))  # never smaller than the layout's own size: names would overlap
        if zoom != self.map.zoom:
            self.map.zoom = zoom
        lat, lng = CENTER
        if width < WIDTH + 8:  # too narrow for the whole board: keep the east (where most of the war is) in view
            lng = WIDTH + 4 - width / 2
        self.map.center = (lat, lng)

    # ------------------------------------------------------------ drawing
    def _redraw(self, change=None, everything: bool = False) -> None:
        """Draw again the cards whose key changed (every card: ``everything``, after the language changed)."""
        session = self.session
        game = session.game
        keys = card_keys(game, session.selected, list(session.destinations))
        changed = set(keys) if everything else {box for box, key in keys.items() if self._keys.get(box) != key}
        self._keys = keys
        if not changed:
            return
        new = cards(game, session.selected, list(session.destinations), only=changed)
        self.layer.update({box: html for box, (html, _) in new.items()})  # the description is the card's title
        self._cards.update(new)

    def _show_info(self, change=None) -> None:
        self.info.value = _info_html(self.session.info, self.session.hover_role)

    def relabel(self) -> None:
        """Say everything again in the current language (after ``set_language``): the cards (box names,
        their descriptions), the hovered box's state and the key. Only what changed is re-sent."""
        self.layer.hush()
        self._told = len(self.session.log_lines)
        self._redraw(everything=True)
        self._show_info()
        self.legend.value = legend_html()
