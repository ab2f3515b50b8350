"""The app a notebook displays: map, panel and charts around one session.

    >>> import widgets
    >>> app = widgets.play("1861", union="human", confederate="heuristic")
    >>> app   # in a notebook: the playable board
"""
from __future__ import annotations

import json
import os
import time
from html import escape
from pathlib import Path
from typing import Any

import ipywidgets as w

import ahd
from ahd import Game
from ahd.core.i18n import check_language
from ahd.core.sides import Side

from widgets.model.i18n import LANGUAGE_NAMES, LANGUAGES, _, get_language, num, pct, render
from widgets.board.charts import ATTACKER_COLOUR, DEFENDER_COLOUR, NEITHER_COLOUR, ArmyChart, BattleOddsChart, WarChart
from widgets.board.mapview import MapView
from widgets.board.panel import Panel
from widgets.model.session import Session

CSS = w.HTML("""<style>
.ahd-app .widget-label, .ahd-app .widget-html-content { font-size: 15px; }
.ahd-app .widget-select select, .ahd-app .widget-select-multiple select { font-size: 14px; }
.ahd-app { max-width: 100%; box-sizing: border-box; }
.ahd-app .lm-TabBar-tab, .ahd-app .lm-TabBar-tabLabel { color: #444 !important; }  /* a tab's label: 4.5:1 at least on its grey (JupyterLab's #6d6d6d: 4.45) */
.ahd-app [class*="Collapse-header"], .ahd-app [class*="Collapse-header"] span { color: #444 !important; }  /* an accordion's title ("Play a classmate"): the same grey */
/* a narrow window (a phone, or 200% zoom on a laptop: 683 CSS px at 1366x768): the panel under the map, both the
   window's whole width, so that no control is cut off by a narrow column (WCAG 1.4.4, 1.4.10) */
@media (max-width: 900px) {
  .ahd-app .ahd-top { flex-direction: column !important; }
  .ahd-app .ahd-top > .ahd-side { flex: 1 1 auto !important; width: 100% !important; padding: 8px 0 0 0 !important; }
  .ahd-app .ahd-top > .widget-vbox:first-child { width: 100% !important; flex: 1 1 auto !important; }
  .ahd-app .ahd-side .widget-hbox { flex-wrap: wrap; }
}
.ahd-odds .bar { display: flex; height: 18px; margin: 3px 0; border: 1px solid #999; }
.ahd-odds .bar span { display: block; height: 100%; }
/* issue 36: a widget's 2px margins on top of its width of 100% put its right edge past the box that clips it (the
   hovered box's frame, the odds, the tabs beside the map; the note under the war-odds chart); rows of controls
   wrap rather than run past the column; a button or a label says all of a long Spanish or Italian text (on two
   lines if need be) */
.ahd-app .ahd-side .jupyter-widgets, .ahd-app .widget-html { max-width: calc(100% - 4px); }
.ahd-app .ahd-side .widget-hbox { flex-wrap: wrap; }
.ahd-app .ahd-side .jupyter-button, .ahd-app .ahd-debrief .jupyter-button {
  width: auto; max-width: 100%; height: auto; min-height: var(--jp-widgets-inline-height);
  white-space: normal; overflow-wrap: anywhere; }
.ahd-app .ahd-info .widget-html-content { white-space: normal; overflow-wrap: anywhere; }
</style>""")

#: The map's height: the screen's height less the page's title (so map and panel fit a 1366x768 screen).
MAP_HEIGHT = "max(440px, min(calc(100vh - 165px), 1000px))"
#: The column of the panel: beside the map at every width from 1280 to 2560 pixels.
SIDE_WIDTH = "clamp(380px, 31%, 620px)"


def odds_html(odds: dict) -> str:
    """The battle-odds readout beside the map: the considered attack (or battle) and its three outcomes."""
    heading = f"<b>{escape(_('Battle odds'))}</b>"
    if not odds:
        return ("<div class='ahd-odds' style='font-size:14px;color:#555'>" + heading + ": "
                + escape(_("hover over a lit box holding enemy units (or pick an attack in the list) to see the "
                           "odds here.")) + "</div>")
    attacker, defender = render(Side.parse(odds["attacker"])), render(Side.parse(odds["defender"]))
    parts = [(_("{side} (attacker) wins").format(side=attacker), odds["attacker_wins"], ATTACKER_COLOUR),
             (_("{side} (defender) wins").format(side=defender), odds["defender_wins"], DEFENDER_COLOUR),
             (_("neither"), odds["neither"], NEITHER_COLOUR)]
    bar = "".join(f"<span style='width:{100 * p:.1f}%;background:{c}' title='{escape(t)} {pct(p, 0)}'></span>"
                  for t, p, c in parts)
    words = " · ".join(f"<b style='color:{c}'>{escape(t)} {pct(p, 0)}</b>" for t, p, c in parts)
    survivors = _("Expected survivors: attacker {attacker}, defender {defender}").format(
        attacker=num(odds["attacker_survivors"], 1), defender=num(odds["defender_survivors"], 1))
    return (f"<div class='ahd-odds' style='font-size:14px;line-height:1.35'>{heading}: "
            f"{escape(odds['label'])}<div class='bar'>{bar}</div>{words}<br>"
            f"<span style='color:#444'>{escape(survivors)}</span></div>")


def intro_html() -> str:
    """The app page's title and how to play (``intro=True``: the served app's page), in the current language."""
    return ("<div class='ahd-intro'><h1 style='font-weight:normal;font-size:28px;margin:12px 0 14px'>"
            + escape(_("A House Divided — play the Civil War")) + "</h1>"
            "<p style='font-size:14px;line-height:1.6;margin:0 0 10px'>"
            + escape(_("Click one of your boxes to march from it, then a lit box to go there. Hover over a lit box "
                       "holding enemy units: the odds of that attack show beside the map. Players, new games and "
                       "files are in the panel; charts are below the map.")) + "</p></div>")


#: The app's language menu: each language by its own name.
LANGUAGE_MENU = [(LANGUAGE_NAMES[code], code) for code in LANGUAGES]


def _observers(session: Session) -> list[tuple[str, str, Any]]:
    """Every (trait name, notification type, handler) observing ``session`` now."""
    return [(name, kind, handler) for name, kinds in session._trait_notifiers.items()
            for kind, handlers in kinds.items() for handler in handlers]


class GameApp(w.VBox):
    """Map (left) with the battle odds, the hovered box and the panel beside it (right); charts below.

    At 1366x768 the map and the panel's column both fit the screen, so the odds of the attack under the mouse
    are in view while hovering; the mouse wheel scrolls the page (the map zooms with its buttons).

    The language menu (English, Español, Italiano) over the panel's column switches the whole app: the process
    speaks the language chosen (:func:`ahd.set_language`), and every part says its words again (``relabel``)
    around the same session, game and widgets: nothing is built again, so nothing chosen or shown is lost
    (the "Play a classmate" section, which has no ``relabel``, keeps the words it was built with)."""

    def __init__(self, session: Session, *, tiles: bool = False, guide: bool = False, intro: bool = False,
                 **kwargs: Any) -> None:
        self.session = session
        self.intro = intro  # the page's title and how to play, above the map (the served app's page)
        self.map_view = MapView(session, tiles=tiles, height=MAP_HEIGHT)
        view = self.map_view
        view.info.layout = w.Layout(width="100%", min_height="60px", max_height="150px", overflow="auto",
                                    border="1px solid #ddd", padding="2px 6px")
        view.info.add_class("ahd-info")  # the hovered box: its text wraps inside the frame (CSS above)
        self.map_column = w.VBox([view.style, view.map, view.legend],
                                 layout=w.Layout(flex="1 1 0%", min_width="0", width="auto"))
        from widgets.classmates.multiplayer import classmate_section  # "Play a classmate": only on a classroom server with a store
        self.classmate = classmate_section(session)
        self.language = w.Dropdown(options=LANGUAGE_MENU, value=get_language(), layout=w.Layout(width="230px"),
                                   style={"description_width": "auto"})  # labelled (WCAG 1.3.1, 4.1.2)
        self.language.add_class("ahd-language")
        self.language.observe(self._language_chosen, names="value")
        super().__init__([], **kwargs)
        self.layout.width = "100%"
        self.add_class("ahd-app")
        self._build(guide=guide)

    def _build(self, guide: bool = False) -> None:
        """The panel, the charts, the rules and the guide beside and under the map."""
        session = self.session
        self.panel = Panel(session)
        self.battle_chart = BattleOddsChart(session)
        self.war_chart = WarChart(session)
        self.army_chart = ArmyChart(session)
        self.odds = w.HTML(odds_html(session.battle_odds), layout=w.Layout(min_height="96px", width="100%"))
        session.observe(self._show_odds, names=["battle_odds"])
        from widgets.teaching.rules import RulesInApp  # the Rules tab beside the panel; rule IDs as buttons (issue 15)
        self.rules = RulesInApp(session, self.panel)
        from widgets.teaching.guide import Guide  # "Learn by playing": hints and explanations for the first turns (issue 15)
        self.guide = Guide(session, self.panel, active=guide)
        self.language.tooltip = self.language.description = _("Language")
        # the language menu, the odds and the hovered box head the panel's column, level with the top of the map
        right = w.VBox([w.HBox([self.language], layout=w.Layout(justify_content="flex-end", width="100%")),
                        self.odds, self.map_view.info, *([self.classmate] if self.classmate else []),
                        self.guide.widget, self.rules.tabs],
                       layout=w.Layout(flex=f"0 0 {SIDE_WIDTH}", width=SIDE_WIDTH, min_width="0",
                                       padding="0 0 0 10px", overflow="hidden"))
        right.add_class("ahd-side")
        top = w.HBox([self.map_column, right], layout=w.Layout(align_items="flex-start", width="100%"))
        top.add_class("ahd-top")
        chart = {"flex": "1 1 360px", "min_width": "0"}
        charts = w.HBox([w.Box([self.battle_chart.widget], layout=w.Layout(**chart)),
                         w.Box([self.war_chart.widget], layout=w.Layout(**chart)),
                         w.Box([self.army_chart.widget], layout=w.Layout(**chart))],
                        layout=w.Layout(flex_flow="row wrap", width="100%"))
        self.intro_html = w.HTML(intro_html())
        from widgets.teaching.debrief import DebriefView  # the game beside the real war: opens when the game ends (issue 35)
        self.debrief = DebriefView(session)
        self.children = [CSS, *([self.intro_html] if self.intro else []), top, charts, self.debrief.widget]

    def _show_odds(self, change=None) -> None:
        self.odds.value = odds_html(self.session.battle_odds)

    def _language_chosen(self, change) -> None:
        if change["new"] != get_language():
            self.set_language(change["new"])

    def set_language(self, lang: str) -> None:
        """Speak ``lang`` ("en", "es", "it") from now on: the whole app says its words again in it, around the
        same game and the same widgets (history, players, selection, guide, open rule, chosen menus are kept).
        An unknown language is a ValueError naming the choices, and nothing changes."""
        lang = check_language(lang)
        session = self.session
        ahd.set_language(lang)
        if session.game.lang is not None:  # a game told its own language follows the app's
            session.game.lang = lang
        with self.hold_sync():
            if self.language.value != lang:
                self.language.value = lang
            self.language.tooltip = self.language.description = _("Language")
            for part in (self.panel, self.battle_chart, self.war_chart, self.army_chart, self.rules, self.guide,
                         self.map_view, self.debrief):
                relabel = getattr(part, "relabel", None)  # each part says its own words again
                if relabel is not None:
                    relabel()
            if self.intro:
                self.intro_html.value = intro_html()
            session.say_again()  # the status line
            session.refresh()  # every trait said again: prompt, legal actions, log, odds; the map redraws its cards
            self._show_odds()
            self.map_view._show_info()

    @property
    def game(self) -> Game:
        return self.session.game


def play(scenario: str = "1861", *, union: str = "human", confederate: str = "heuristic", options: Any = None,
         seed: int | None = 1, dice: str = "auto", tiles: bool = False, war_odds: bool = True,
         guide: bool = False, lang: str | None = None, intro: bool = False) -> GameApp:
    """A new game in an app: each side ``"human"`` or a bot (``"random"``, ``"heuristic"``, ``"search"``).
    ``guide``: "Learn by playing", a hint for each decision of the human side in the first turns and what
    happens explained (:mod:`widgets.teaching.guide`). ``lang``: the app's language, "en", "es" or "it" (None: the current
    language, :func:`ahd.set_language` or the environment's ``AHD_LANG``, ``LANGUAGE``, ``LC_ALL``, ``LANG``);
    the app's menu changes it later. ``intro``: the page's title and how to play above the map (the served app)."""
    if lang is not None:
        ahd.set_language(check_language(lang))  # an unknown language: a ValueError naming the choices
    game = ahd.new_game(scenario, options=options, seed=seed, dice=dice)
    session = Session(game, union=union, confederate=confederate, war_odds=war_odds)
    app = GameApp(session, tiles=tiles, guide=guide, intro=intro)
    session.bot_step()  # a bot that moves first plays at once
    return app


#: Set by ``house-divided classroom`` for its warm kernels: the private folder of their pages' link arguments.
HANDOFF_ENV = "AHD_HANDOFF"


def arrive(app: GameApp, poll: float = 0.03) -> GameApp:
    """The app notebook's last step. A warm kernel (``house-divided classroom --warm``: voila's preheat) built
    its app before any page asked for it: here it waits for its page, then follows the page's link (a join
    code, a personal link), which the server hands over in a private file named by the kernel's id
    (widgets/server/kernels.py). Anywhere else (a kernel started for its page, a notebook): at once."""
    folder, kernel_id = os.environ.get(HANDOFF_ENV, ""), os.environ.get("VOILA_KERNEL_ID", "")
    if os.environ.get("VOILA_PREHEAT") != "True" or not folder or not kernel_id:
        return app
    path = Path(folder) / f"{kernel_id}.json"
    while not path.exists():
        time.sleep(poll)
    query = str(json.loads(path.read_text(encoding="utf-8")).get("QUERY_STRING", ""))
    path.unlink(missing_ok=True)
    os.environ["QUERY_STRING"] = query
    if query:
        from widgets.classmates.multiplayer import follow_link
        follow_link(app.session, query)
    return app
