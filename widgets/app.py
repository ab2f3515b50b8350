"""The app a notebook displays: map, panel and charts around one session.

    >>> import widgets
    >>> app = widgets.play("1861", union="human", confederate="heuristic")
    >>> app   # in a notebook: the playable board
"""
from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

import ahd
from ahd import Game

from .charts import ATTACKER_COLOUR, DEFENDER_COLOUR, NEITHER_COLOUR, ArmyChart, BattleOddsChart, WarChart
from .mapview import MapView
from .panel import Panel
from .session import Session

CSS = w.HTML("""<style>
.ahd-app .widget-label, .ahd-app .widget-html-content { font-size: 15px; }
.ahd-app .widget-select select, .ahd-app .widget-select-multiple select { font-size: 14px; }
.ahd-app { max-width: 100%; box-sizing: border-box; }
.ahd-odds .bar { display: flex; height: 18px; margin: 3px 0; border: 1px solid #999; }
.ahd-odds .bar span { display: block; height: 100%; }
</style>""")

#: The map's height: the screen's height less the page's title (so map and panel fit a 1366x768 screen).
MAP_HEIGHT = "max(440px, min(calc(100vh - 165px), 1000px))"
#: The column of the panel: beside the map at every width from 1280 to 2560 pixels.
SIDE_WIDTH = "clamp(380px, 31%, 620px)"


def odds_html(odds: dict) -> str:
    """The battle-odds readout beside the map: the considered attack (or battle) and its three outcomes."""
    if not odds:
        return ("<div class='ahd-odds' style='font-size:14px;color:#555'><b>Battle odds</b>: hover over a lit box "
                "holding enemy units (or pick an attack in the list) to see the odds here.</div>")
    attacker, defender = odds["attacker"].capitalize(), odds["defender"].capitalize()
    parts = [(f"{attacker} (attacker) wins", odds["attacker_wins"], ATTACKER_COLOUR),
             (f"{defender} (defender) wins", odds["defender_wins"], DEFENDER_COLOUR),
             ("neither", odds["neither"], NEITHER_COLOUR)]
    bar = "".join(f"<span style='width:{100 * p:.1f}%;background:{c}' title='{t} {p:.0%}'></span>" for t, p, c in parts)
    words = " · ".join(f"<b style='color:{c}'>{t} {p:.0%}</b>" for t, p, c in parts)
    return (f"<div class='ahd-odds' style='font-size:14px;line-height:1.35'><b>Battle odds</b>: "
            f"{escape(odds['label'])}<div class='bar'>{bar}</div>{words}<br>"
            f"<span style='color:#444'>Expected survivors: attacker {odds['attacker_survivors']:.1f}, defender "
            f"{odds['defender_survivors']:.1f}</span></div>")


class GameApp(w.VBox):
    """Map (left) with the battle odds, the hovered box and the panel beside it (right); charts below.

    At 1366x768 the map and the panel's column both fit the screen, so the odds of the attack under the mouse
    are in view while hovering; the mouse wheel scrolls the page (the map zooms with its buttons)."""

    def __init__(self, session: Session, *, tiles: bool = False, guide: bool = False, **kwargs: Any) -> None:
        self.session = session
        self.map_view = MapView(session, tiles=tiles, height=MAP_HEIGHT)
        self.panel = Panel(session)
        self.battle_chart = BattleOddsChart(session)
        self.war_chart = WarChart(session)
        self.army_chart = ArmyChart(session)
        self.odds = w.HTML(odds_html(session.battle_odds), layout=w.Layout(min_height="96px", width="100%"))
        session.observe(self._show_odds, names=["battle_odds"])
        view = self.map_view
        view.info.layout = w.Layout(width="100%", min_height="60px", max_height="150px", overflow="auto",
                                    border="1px solid #ddd", padding="2px 6px")
        left = w.VBox([view.style, view.map, view.legend],
                      layout=w.Layout(flex="1 1 0%", min_width="0", width="auto"))
        # the odds and the hovered box head the panel's column, level with the top of the map
        from .multiplayer import classmate_section  # "Play a classmate": only on a classroom server with a store
        self.classmate = classmate_section(session)
        from .rules import RulesInApp  # the Rules tab beside the panel; rule IDs as buttons (issue 15)
        self.rules = RulesInApp(session, self.panel)
        from .guide import Guide  # "Learn by playing": hints and explanations for the first turns (issue 15)
        self.guide = Guide(session, self.panel, active=guide)
        right = w.VBox([self.odds, view.info, *([self.classmate] if self.classmate else []), self.guide.widget,
                        self.rules.tabs],
                       layout=w.Layout(flex=f"0 0 {SIDE_WIDTH}", width=SIDE_WIDTH, min_width="0",
                                       padding="0 0 0 10px", overflow="hidden"))
        right.add_class("ahd-side")
        top = w.HBox([left, right], layout=w.Layout(align_items="flex-start", width="100%"))
        chart = {"flex": "1 1 360px", "min_width": "0"}
        charts = w.HBox([w.Box([self.battle_chart.widget], layout=w.Layout(**chart)),
                         w.Box([self.war_chart.widget], layout=w.Layout(**chart)),
                         w.Box([self.army_chart.widget], layout=w.Layout(**chart))],
                        layout=w.Layout(flex_flow="row wrap", width="100%"))
        super().__init__([CSS, top, charts], **kwargs)
        self.layout.width = "100%"
        self.add_class("ahd-app")

    def _show_odds(self, change=None) -> None:
        self.odds.value = odds_html(self.session.battle_odds)

    @property
    def game(self) -> Game:
        return self.session.game


def play(scenario: str = "1861", *, union: str = "human", confederate: str = "heuristic", options: Any = None,
         seed: int | None = 1, dice: str = "auto", tiles: bool = False, war_odds: bool = True,
         guide: bool = False) -> GameApp:
    """A new game in an app: each side ``"human"`` or a bot (``"random"``, ``"heuristic"``, ``"search"``).
    ``guide``: "Learn by playing", a hint for each decision of the human side in the first turns and what
    happens explained (:mod:`widgets.guide`)."""
    game = ahd.new_game(scenario, options=options, seed=seed, dice=dice)
    session = Session(game, union=union, confederate=confederate, war_odds=war_odds)
    app = GameApp(session, tiles=tiles, guide=guide)
    session.bot_step()  # a bot that moves first plays at once
    return app
