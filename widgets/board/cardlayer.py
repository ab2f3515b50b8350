"""The board's 129 cards as one widget: a light board.

Before, every card was an ipyleaflet Marker with its own DivIcon: 258 widgets to create, send and keep,
and a march re-sent whole icons. Now the map holds one Marker at the board's corner whose DivIcon is an
empty host, and one anywidget (:class:`CardWidget`, its script in ``cardlayer.js``) draws every card into
it from one synced state: the cards' HTML by box and their geometry. The text stays in the page's DOM
(found by find, read by screen readers, clicked by the browser tests as before: ``[data-box=…]``), and an
update sends a patch of the cards that changed, nothing else.

    layer = CardLayer(cards, on_click=..., on_hover=...)
    layer.add_to(map)              # the host marker, and the widget as a control of the map (drawn with it)
    layer.update(new_cards)        # a patch {box: html} of what changed
"""
from __future__ import annotations

import uuid
from importlib import resources
from typing import Callable

import anywidget
import ipyleaflet
import ipywidgets as w
from traitlets import Dict, Float, Unicode

from widgets.board.layers import CARDS, position

ESM = resources.files("widgets.board").joinpath("cardlayer.js").read_text(encoding="utf-8")


class CardWidget(anywidget.AnyWidget):
    """Draws the cards into the host DivIcon(s) marked ``host``; see ``cardlayer.js``."""

    _esm = ESM
    host = Unicode().tag(sync=True)
    geometry = Dict().tag(sync=True)   # box -> [x, y, width, height]: centre at zoom 0 (CSS px, y down), size
    cards = Dict().tag(sync=True)      # box -> the card's HTML as drawn now
    zoom = Float(0.0).tag(sync=True)   # linked in the browser to the map's zoom (no kernel round trip)


class CardLayer:
    """Every card of the board on one map, as one marker and one widget."""

    def __init__(self, cards: dict[str, str], *, on_click: Callable[[str], None] | None = None,
                 on_hover: Callable[[str], None] | None = None, on_escape: Callable[[str], None] | None = None,
                 on_reveal: Callable[[str], None] | None = None) -> None:
        """``on_click(box)``: a click, or Enter / Space on a focused card; ``on_hover(box)``: the mouse over a
        card, or a card focused; ``on_escape(box)``: Escape on a focused card; ``on_reveal(box)``: a card was
        focused outside the map's view (bring it in)."""
        host = uuid.uuid4().hex
        self.marker = ipyleaflet.Marker(
            location=(0, 0), draggable=False, keyboard=False, name="boxes",
            icon=ipyleaflet.DivIcon(html=f'<div class="ahd-board-host" data-host="{host}"></div>',
                                    icon_size=[0, 0], icon_anchor=[0, 0], class_name="ahd-board-icon"))
        geometry = {box: [*position(box), *CARDS[box]] for box in cards}
        self.widget = CardWidget(host=host, geometry=geometry, cards=dict(cards),
                                 layout=w.Layout(width="0px", height="0px"))
        self._handlers = {"click": on_click, "hover": on_hover, "escape": on_escape, "reveal": on_reveal}
        self.widget.on_msg(self._message)

    def add_to(self, map_: ipyleaflet.Map) -> None:
        """Put the cards on ``map_``: the host marker, and the widget as one of the map's controls, so that
        wherever the map is shown the widget is drawn too; the cards follow the map's zoom through a link
        in the browser (no kernel round trip)."""
        map_.add(self.marker)
        map_.add(ipyleaflet.WidgetControl(widget=self.widget, position="bottomleft"))
        self.widget.zoom = map_.zoom
        self._link = w.jslink((map_, "zoom"), (self.widget, "zoom"))

    @property
    def cards(self) -> dict[str, str]:
        """Every card's HTML as drawn now."""
        return self.widget.cards

    def update(self, cards: dict[str, str]) -> dict[str, str]:
        """Draw ``cards`` (box -> HTML): send the cards that changed, as one patch; returns the patch."""
        current = self.widget.cards
        patch = {box: html for box, html in cards.items() if current.get(box) != html}
        if patch:
            current.update(patch)     # in place: the kernel's state stays current without a full re-send
            self.widget.send({"patch": patch})
        return patch

    def announce(self, text: str) -> None:
        """Say ``text`` in the page's polite live region (screen readers read it; nothing shows)."""
        if text:
            self.widget.send({"announce": text})

    def hush(self) -> None:
        """Empty the live region (the page now speaks another language)."""
        self.widget.send({"clear": True})

    def _message(self, _widget, content, _buffers) -> None:
        box = content.get("box") if isinstance(content, dict) else None
        if not isinstance(box, str) or box not in self.widget.geometry:
            return  # a page may send anything: only a box of this board is acted on
        handler = self._handlers.get(content.get("event"))
        if handler is not None:
            handler(box)
