"""The app a notebook displays: map, panel and charts around one session.

    >>> import widgets
    >>> app = widgets.play("1861", union="human", confederate="heuristic")
    >>> app   # in a notebook: the playable board
"""
from __future__ import annotations

from typing import Any

import ipywidgets as w

import ahd
from ahd import Game

from .charts import ArmyChart, BattleOddsChart, WarChart
from .mapview import MapView
from .panel import Panel
from .session import Session

CSS = w.HTML("""<style>
.ahd-app .widget-label, .ahd-app .widget-html-content { font-size: 15px; }
.ahd-app .widget-select select, .ahd-app .widget-select-multiple select { font-size: 14px; }
</style>""")


class GameApp(w.VBox):
    """Map (left), panel (right) and live charts (below), bound to one :class:`Session`."""

    def __init__(self, session: Session, *, tiles: bool = False, **kwargs: Any) -> None:
        self.session = session
        self.map_view = MapView(session, tiles=tiles)
        self.panel = Panel(session)
        self.battle_chart = BattleOddsChart(session)
        self.war_chart = WarChart(session)
        self.army_chart = ArmyChart(session)
        # fixed shares of the width, so that the map does not move when the panel's content changes
        top = w.HBox([w.Box([self.map_view.widget], layout=w.Layout(flex="0 0 62%", width="62%", min_width="0")),
                      w.Box([self.panel.widget], layout=w.Layout(flex="0 0 38%", width="38%", min_width="0",
                                                                 overflow="hidden", padding="0 0 0 8px"))],
                     layout=w.Layout(align_items="flex-start"))
        charts = w.HBox([w.Box([self.battle_chart.widget], layout=w.Layout(width="34%")),
                         w.Box([self.war_chart.widget], layout=w.Layout(width="33%")),
                         w.Box([self.army_chart.widget], layout=w.Layout(width="33%"))])
        super().__init__([CSS, top, charts], **kwargs)
        self.add_class("ahd-app")

    @property
    def game(self) -> Game:
        return self.session.game


def play(scenario: str = "1861", *, union: str = "human", confederate: str = "heuristic", options: Any = None,
         seed: int | None = 1, dice: str = "auto", tiles: bool = False, war_odds: bool = True) -> GameApp:
    """A new game in an app: each side ``"human"`` or a bot (``"random"``, ``"heuristic"``, ``"search"``)."""
    game = ahd.new_game(scenario, options=options, seed=seed, dice=dice)
    session = Session(game, union=union, confederate=confederate, war_odds=war_odds)
    app = GameApp(session, tiles=tiles)
    session.bot_step()  # a bot that moves first plays at once
    return app
