"""The app's "Debrief" section: the game's turning points beside the real war (``ahd.analysis.debrief``).

It opens by itself when the game ends, and on demand ("Debrief") at any moment of a game; the page is the
same standalone HTML as ``house-divided report`` writes, shown in a sandboxed frame (no script, no request),
and "Download the debrief" offers it as a file to print or keep (by a data link: nothing is written on the
server). The view only reads the session's game: it never changes it.
"""
from __future__ import annotations

import base64
import re
from html import escape
from typing import Any

import ipywidgets as w

from ahd import AhdError
from ahd.analysis.debrief import debrief
from ahd.analysis.debrief_html import render_debrief

from widgets.model.i18n import _, get_language

FRAME_HEIGHT = "min(900px, 85vh)"


def frame_html(page: str, title: str) -> str:
    """``page`` (a whole HTML document) in a sandboxed iframe: its own styles, no script, no navigation."""
    return (f"<iframe class='ahd-debrief-frame' sandbox='' title='{escape(title, quote=True)}' "
            f"srcdoc='{escape(page, quote=True)}' style='width:100%;height:{FRAME_HEIGHT};"
            f"border:1px solid #ccc;background:#fff'></iframe>")


def debrief_frame(source: Any, lang: str | None = None) -> w.HTML:
    """The debrief of a game (a Game, a record or a record file) as a widget, for a notebook."""
    page = render_debrief(debrief(source), lang or get_language())
    return w.HTML(frame_html(page, _("Debrief")), layout=w.Layout(width="100%"))


def summary_frame(records: Any, lang: str | None = None) -> w.HTML:
    """The class summary of ``records`` ((name, record) pairs) as a widget, for a notebook."""
    from ahd.analysis.class_summary import render_summary, summarize
    page = render_summary(summarize(records), lang or get_language())
    return w.HTML(frame_html(page, _("Class summary")), layout=w.Layout(width="100%"))


class DebriefView:
    """A button bar (Debrief, Hide, Download) over the debrief of ``session.game``; ``widget`` is what to show.
    ``page`` holds the last debrief's HTML (or the message of a game that cannot be debriefed)."""

    def __init__(self, session: Any) -> None:
        self.session = session
        self.page = ""
        self.button = w.Button(icon="")
        self.hide = w.Button(layout=w.Layout(display="none"))
        self.save = w.Button(layout=w.Layout(display="none"))
        self.download = w.HTML()
        self.frame = w.HTML()
        self.button.on_click(lambda _event: self.show())
        self.hide.on_click(lambda _event: self.close())
        self.save.on_click(lambda _event: self.offer_download())
        self.widget = w.VBox([w.HBox([self.button, self.hide, self.save, self.download]), self.frame],
                             layout=w.Layout(width="100%"))
        self.widget.add_class("ahd-debrief")
        self.relabel()
        session.observe(self._outcome, names=["outcome"])

    def relabel(self) -> None:
        """Say the buttons again in the current language (and the open debrief, if any)."""
        self.button.description = _("Debrief")
        self.button.tooltip = _("the turning points of this game beside the real war, with questions for the class")
        self.hide.description = _("Hide the debrief")
        self.save.description = _("Download the debrief")
        self.save.tooltip = _("a page to print or keep: it opens in any browser, without a network")
        if self.frame.value:
            self.show()

    def _outcome(self, change: dict) -> None:
        if change["new"]:      # the game has just ended: its debrief opens
            self.show()
        elif self.frame.value:  # a new game (or one loaded) in place of the ended one: its debrief goes
            self.close()

    def show(self) -> None:
        """Build the debrief of the game as it stands and show it."""
        self.download.value = ""
        try:
            self.page = render_debrief(debrief(self.session.game), get_language())
        except AhdError as exc:   # a game the engine cannot replay: its message, never a traceback
            self.page = ""
            self.frame.value = f"<p style='color:#a00'>{escape(str(exc))}</p>"
            return
        self.frame.value = frame_html(self.page, _("Debrief"))
        self.hide.layout.display = self.save.layout.display = ""

    def close(self) -> None:
        self.frame.value = self.download.value = ""
        self.hide.layout.display = self.save.layout.display = "none"

    def offer_download(self) -> None:
        """A link that downloads the debrief page (made now, so it is the page shown)."""
        if not self.page:
            self.show()
        game = self.session.game
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", f"debrief-{game.scenario.id}-turn-{game.turn.number}.html")
        data = base64.b64encode(self.page.encode("utf-8")).decode()
        words = _("Download the debrief ({name})").format(name=name)
        self.download.value = (f"<a download='{escape(name)}' data-autodownload='1' href='data:text/html;base64,{data}' "
                               f"style='font-size:15px'>{escape(words)}</a>")
