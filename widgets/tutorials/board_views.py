"""A position on the live map for the tutorials: the whole app or the map alone, and the sides' names."""
from __future__ import annotations

import ipywidgets as w

from ahd import Game
from ahd.core.sides import Side

from widgets.app import GameApp
from widgets.model.i18n import N_, _
from widgets.board.mapview import MapView
from widgets.model.session import Session



U, C = Side.UNION, Side.CONFEDERATE
#: A side's name on its own (a table's cell), as the app's panel says it; inside a sentence a side says
#: itself (``render(side)``: the engine's adjective form, "the {side} side").
SIDE_NAMES = {U: N_("Union"), C: N_("Confederate")}


def side_name(side: Side | str) -> str:
    """``"Union"`` / ``"Confederate"`` in the current language, as a name on its own."""
    return _(SIDE_NAMES[Side.parse(side)])


# =========================================================================== showing a position
def session(game: Game, *, union: str = "human", confederate: str = "human") -> Session:
    """A session on ``game`` for a tutorial: both sides played by the reader, no war-odds model."""
    return Session(game, union=union, confederate=confederate, war_odds=False)


class MapOnly(w.VBox):
    """The live map of a session with its status line: smaller than a :class:`GameApp` (no panel, no charts)."""

    def __init__(self, session: Session, *, height: str = "520px") -> None:
        self.session = session
        self.map_view = MapView(session, height=height)
        self.status = w.HTML()
        session.observe(self._show_status, names=["status", "prompt"])
        self._show_status()
        super().__init__([self.map_view.widget, self.status])

    @property
    def game(self) -> Game:
        return self.session.game

    def _show_status(self, change=None) -> None:
        text = self.session.status or self.session.prompt
        self.status.value = f"<div style='font-size:15px'>{text}</div>"


def show(game: Game, *, full: bool = True, height: str = "520px") -> "GameApp | MapOnly":
    """The position of ``game`` on the live map: the whole app (``full``) or the map alone."""
    s = session(game)
    return GameApp(s) if full else MapOnly(s, height=height)
