"""Watch a recorded game: a slider and step buttons over its decisions; map and charts follow."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import ipywidgets as w

from ahd import Game
from ahd.core.replay import Replay

from widgets.board.charts import ArmyChart, BattleOddsChart, WarChart
from widgets.model.i18n import _, _n
from widgets.board.mapview import MapView
from widgets.board.panel import log_html
from widgets.model.session import Session


class ReplayApp(w.VBox):
    """A read-only view of a record (a Game, a saved file's path or its JSON text)."""

    def __init__(self, record: "Game | str | Path | dict[str, Any]", *, war_odds: bool = True) -> None:
        self.replay = Replay(record)
        self.session = Session(self.replay.game_at(0), war_odds=war_odds)
        self.session.show_timeline(self.replay)
        self.session.status = _n("Replaying a {scenario} game of {n} decision.",
                                 "Replaying a {scenario} game of {n} decisions.", len(self.replay)).format(
            scenario=self.replay.final.scenario.id, n=len(self.replay))
        self.map_view = MapView(self.session)
        self.battle_chart = BattleOddsChart(self.session)
        self.war_chart = WarChart(self.session)
        self.army_chart = ArmyChart(self.session)
        self.slider = w.IntSlider(value=0, min=0, max=len(self.replay), description=_("Decision"),
                                  continuous_update=False, layout=w.Layout(width="60%"))
        self.play = w.Play(value=0, min=0, max=len(self.replay), interval=400, description=_("Play"))
        w.jslink((self.play, "value"), (self.slider, "value"))
        self.first, self.back, self.forward, self.last = (w.Button(description=d, layout=w.Layout(width="60px"))
                                                          for d in ("|◀", "◀", "▶", "▶|"))
        self.first.on_click(lambda _button: self.go(0))
        self.back.on_click(lambda _button: self.go(self.slider.value - 1))
        self.forward.on_click(lambda _button: self.go(self.slider.value + 1))
        self.last.on_click(lambda _button: self.go(len(self.replay)))
        self.slider.observe(lambda change: self._show(change["new"]), names="value")
        self.caption = w.HTML()
        self.log_view = w.HTML(layout=w.Layout(border="1px solid #ccc"))  # oldest first, as in the panel
        controls = w.HBox([self.first, self.back, self.play, self.forward, self.last, self.slider])
        top = w.HBox([w.Box([self.map_view.widget], layout=w.Layout(width="62%")),
                      w.VBox([self.caption, self.log_view], layout=w.Layout(width="38%", padding="0 0 0 8px"))],
                     layout=w.Layout(align_items="flex-start"))
        charts = w.HBox([w.Box([c.widget], layout=w.Layout(width="33%"))
                         for c in (self.battle_chart, self.war_chart, self.army_chart)])
        super().__init__([controls, top, charts])
        self._show(0)

    def relabel(self) -> None:
        """Say the replay again in the current language (after ``set_language``): map, charts, caption, log."""
        self.slider.description, self.play.description = _("Decision"), _("Play")
        self.map_view.relabel()
        for chart in (self.battle_chart, self.war_chart, self.army_chart):
            chart.relabel()
        self._show(self.slider.value)

    def go(self, decision: int) -> None:
        self.slider.value = max(0, min(len(self.replay), decision))

    def _show(self, decision: int) -> None:
        game = self.replay.game_at(decision)
        session = self.session
        session.game = game
        session.refresh()
        self.caption.value = ("<div style='font-size:16px'>" + _("{turn}, decision {n} of {total}").format(
            turn=f"<b>{session.turn_text}</b>", n=decision, total=len(self.replay)) + f"<br>{session.prompt}</div>")
        self.log_view.value = log_html(game.log)
