"""The scenario editor: make a scenario on the map, test it against the computer, publish it.

    >>> import widgets
    >>> editor = widgets.editor()            # an empty board; or "1862", a file, or Game.to_scenario()
    >>> editor.add_unit("richmond", "confederate", "MF")      # what a click on the map does
    >>> editor.problems, editor.maxima       # the loader's verdict and the army maxima, after every change
    >>> editor.to_scenario()                 # the scenario as a dict (the file format)

The editor never decides a rule. After every change it runs the engine's own loader
(:func:`ahd.core.scenario.scenario_from_dict`) on the scenario being edited; when the loader accepts it the
army maxima are the engine's (``ahd.new_game(...).army_max``); when it refuses, the loader's message is
shown next to the box it concerns, with the rule it cites; every problem is listed, each with its box
(:mod:`widgets.authoring.scenario_check` asks the loader again past each one).

The editor speaks the app's current language (``ahd.set_language``; its words are in the "widgets" catalog,
box, unit and side names the engine's): labels, buttons, the status line, the cards and the problems'
headings. ``relabel()`` says them again after a change of language. The loader's own messages (the
problems' text) are the engine's and are shown as they come.

The map is the editor's own small one (the game's map view is bound to a game in play, and a scenario
being edited may not load): the game map's background layers (:mod:`widgets.board.layers`: state outlines and
links) under one card per box showing what the scenario places there.
"""
from __future__ import annotations

from typing import Any

import ipyleaflet
import ipywidgets as w

import ahd
from ahd.core.board import default_board
from ahd.core.options import SWITCHES
from ahd.core.scenario import BUILT_IN, ENDS, LEADERS
from ahd.core.sides import Side
from ahd.core.victory import SCORE_TABLE

from widgets.board import layers
from widgets.board.cardlayer import CardLayer
from widgets.model.i18n import N_, _
from widgets.model.computer import PLAYER_WORDS
from widgets.board.progress import ProgressBar
from widgets.authoring.scenario_check import Problem
from widgets.authoring.editor_edits import ScenarioEdits
from widgets.authoring.editor_outputs import EditorOutputs
from widgets.authoring.editor_view import EditorView
from widgets.authoring.editor_words import (BOTS, CONTROL_CHOICES, CSS, END_WORDS, SIDE_NAMES, TOOLS, TYPE_NAMES,  # noqa: F401
                                            _side_key, _type_word, empty_scenario)

__all__ = ["Editor", "editor", "Problem", "empty_scenario"]



class Editor(ScenarioEdits, EditorView, EditorOutputs, w.VBox):
    """The scenario editor widget (see the module's doc). ``to_scenario()`` is the scenario being edited."""

    def __init__(self, scenario: Any = None, *, height: str = "600px") -> None:
        self._data = self._read(scenario) if scenario is not None else empty_scenario()
        self._undo: list[dict] = []
        self._syncing = False
        self.problems: list[Problem] = []
        self.maxima: dict[str, int] | None = None
        self.game: ahd.Game | None = None
        self.selected = ""
        self.app = None
        self.results = None
        board = default_board()
        self.board = board

        # --- the map: the game map's background layers, one card per box
        self.map = ipyleaflet.Map(center=layers.CENTER, zoom=0, crs=ipyleaflet.projections.Simple, layers=(),
                                  min_zoom=-1, max_zoom=2, zoom_snap=0.25, zoom_delta=0.5, scroll_wheel_zoom=False,
                                  keyboard=False, attribution_control=False,
                                  layout=w.Layout(height=height, width="100%"))
        self.map.add_class("ahd-map")
        layers.say_zoom(self.map)
        self.map.add(ipyleaflet.GeoJSON(data=layers.state_outlines(), name="states"))
        self.map.add(ipyleaflet.GeoJSON(data=layers.link_lines(board), name="links"))
        self._cards: dict[str, str] = {}
        # the cards: one widget draws all 129 (widgets/board/cardlayer.py), as on the game's map
        self.layer = CardLayer({box.id: "" for box in board}, on_click=self.click)
        self.layer.add_to(self.map)

        # --- what a click does (the words of every control: ``_label``)
        # buttons as wide as their words ("Añadir unidad", "Confederación"): a fixed width cut them at 1366x768
        self.tool = w.ToggleButtons(options=TOOLS, value="Add unit", style={"button_width": "auto"})
        self.side = w.ToggleButtons(options=[("Union", "union"), ("Confederate", "confederate")], value="union",
                                    style={"button_width": "auto"})
        self.unit_type = w.Dropdown(options=list(TYPE_NAMES), value="MF")
        self.reduced = w.Checkbox(value=False, indent=False)
        self.entrenched = w.Checkbox(value=False, indent=False)
        self.control = w.Dropdown(options=CONTROL_CHOICES, value="union")
        self.leader = w.Dropdown(options=[(name.capitalize(), name) for name in LEADERS], value="grant")
        self.undo_button = w.Button(icon="undo")
        self.undo_button.on_click(lambda _b: self.undo())
        self.status = w.HTML()
        self.box_info = w.HTML()
        self.maxima_html = w.HTML()
        self.problems_html = w.HTML()
        self.field_problems = w.HTML()  # the problems of the scenario's own fields, in its tab too

        # --- the scenario's own fields
        self.fields = {
            "id": w.Text(continuous_update=False),
            "title": w.Text(continuous_update=False, layout=w.Layout(width="98%")),
            "rule": w.Text(continuous_update=False),
            "description": w.Textarea(continuous_update=False, layout=w.Layout(width="98%", height="70px")),
            "history": w.Textarea(continuous_update=False, layout=w.Layout(width="98%", height="70px")),
            "start_turn": w.BoundedIntText(min=1, max=40),
            "last_turn": w.BoundedIntText(min=1, max=40),
            "first_turn_marches": w.Dropdown(options=[*((str(n), n) for n in range(1, 7)), ("roll", "roll")]),
            "end": w.Dropdown(options=list(ENDS)),
            "score_turn": w.Dropdown(options=[("—", None), *[(str(t), t) for t in sorted(SCORE_TABLE)]]),
            "options": w.SelectMultiple(options=list(SWITCHES), rows=6, layout=w.Layout(width="98%")),
        }
        for key, field in self.fields.items():
            field.style.description_width = "150px"  # "Marchas del turno 1", "Turno del punteggio" in full (issue 36)
            field.observe(lambda change, key=key: self._field_changed(key, change["new"]), names="value")
        self.options_note = w.HTML()

        # --- start from, save, upload, publish
        self.start_from = w.Dropdown(options=["", *BUILT_IN])
        self.start_button = w.Button()
        self.start_button.on_click(lambda _b: self.load(self.start_from.value or None))
        self.upload = w.FileUpload(accept=".json", multiple=False)
        self.upload.observe(self._uploaded, names="value")
        self.save_button = w.Button(icon="download", layout=w.Layout(width="auto"))
        self.save_button.on_click(lambda _b: self.offer_download())
        self.download = w.HTML()
        self.publish_button = w.Button(icon="archive", layout=w.Layout(width="auto"))
        self.publish_button.on_click(lambda _b: self.publish_zip())
        self.publish_link = w.HTML()

        # --- test it
        self.union_player = w.Dropdown(options=["human", *BOTS], value="human")
        self.confederate_player = w.Dropdown(options=["human", *BOTS], value="heuristic")
        for player in (self.union_player, self.confederate_player):
            player.style.description_width = "120px"  # "Confederazione" in full (issue 36)
        self.play_button = w.Button(icon="play", button_style="success")
        self.play_button.on_click(lambda _b: self.play())
        self.games = w.BoundedIntText(value=20, min=1, max=1000)
        self.union_bot = w.Dropdown(options=BOTS, value="heuristic")
        self.confederate_bot = w.Dropdown(options=BOTS, value="heuristic")
        self.balance_button = w.Button(icon="balance-scale")
        self.balance_button.on_click(lambda _b: self.balance())
        self.progress = ProgressBar(_("Games"))
        self.balance_html = w.HTML()
        self.back_button = w.Button(icon="arrow-left")
        self.back_button.on_click(lambda _b: self.close_play())
        self.play_area = w.VBox([], layout=w.Layout(display="none"))

        click = w.VBox([self.tool, self.side, self.unit_type, w.HBox([self.reduced, self.entrenched]), self.control,
                        self.leader, w.HBox([self.undo_button]), self.status, self.box_info, self.maxima_html,
                        self.problems_html], layout=w.Layout(width="420px", min_width="0", padding="0 0 0 8px"))
        top = w.HBox([w.Box([self.map], layout=w.Layout(flex="1 1 0%", min_width="0")), click],
                     layout=w.Layout(width="100%", align_items="flex-start"))
        f = self.fields
        scenario_tab = w.VBox([self.field_problems, f["title"], w.HBox([f["id"], f["rule"]]), f["description"], f["history"],
                               w.HBox([f["start_turn"], f["last_turn"], f["first_turn_marches"]]),
                               w.HBox([f["end"], f["score_turn"]]), f["options"], self.options_note])
        files_tab = w.VBox([w.HBox([self.start_from, self.start_button]), self.upload,
                            w.HBox([self.save_button, self.publish_button]), self.download, self.publish_link])
        test_tab = w.VBox([w.HBox([self.union_player, self.confederate_player, self.play_button]),
                           w.HBox([self.games, self.union_bot, self.confederate_bot, self.balance_button]),
                           self.progress, self.balance_html])
        self.tabs = w.Tab(children=[scenario_tab, files_tab, test_tab])
        self.editing = w.VBox([top, self.tabs], layout=w.Layout(width="100%"))
        self._label()
        for control in (self.tool,):
            control.observe(self._show_tool, names="value")
        super().__init__([w.HTML(layers.CSS), w.HTML(CSS), self.editing,
                          self.play_area], layout=w.Layout(width="100%"))
        self.add_class("ahd-editor")
        self._show_tool()
        self._refresh()

    # ------------------------------------------------------------ the editor's words
    def _label(self) -> None:
        """Every label, button, tooltip, choice and tab title, in the current language. The values of the
        choices (what code compares: "Add unit", "union", "MF"...) are the same in every language."""
        def choices(widget: w.Widget, options: list) -> None:
            value = widget.value
            widget.options = options  # resets the choice: put back as it was (the fields are being synced)
            if widget.value != value:
                widget.value = value

        syncing, self._syncing = self._syncing, True
        try:
            choices(self.tool, [(_(tool), tool) for tool in TOOLS])
            self.tool.description = _("Click adds:")
            choices(self.side, [(_(SIDE_NAMES[key]), key) for key in ("union", "confederate")])
            self.side.description = _("Side")
            choices(self.unit_type, [(f"{_type_word(code)} ({code})", code) for code in TYPE_NAMES])
            self.unit_type.description = _("Type")
            self.reduced.description = _("reduced (5.1.c)")
            self.entrenched.description = _("entrenched")
            choices(self.control, [(_(label), value) for label, value in CONTROL_CHOICES])
            self.control.description = _("Marker")
            self.leader.description = _("Leader")
            self.undo_button.description = _("Undo")
            self.undo_button.tooltip = _("undo the last change")

            f = self.fields
            for key, label in (("id", N_("id")), ("title", N_("Title")), ("rule", N_("Rule")),
                               ("description", N_("Description")), ("history", N_("History")),
                               ("start_turn", N_("Start turn")), ("last_turn", N_("Last turn")),
                               ("first_turn_marches", N_("Turn-1 marches")), ("end", N_("End")),
                               ("score_turn", N_("Score turn")), ("options", N_("Rules"))):
                f[key].description = _(label)
            f["history"].placeholder = _("a historical note")
            choices(f["first_turn_marches"], [*((str(n), n) for n in range(1, 7)), (_("roll"), "roll")])
            choices(f["end"], [(_(END_WORDS[end]), end) for end in ENDS])
            choices(f["options"], [(f"{rule}: {s.title_in()}", rule) for rule, s in SWITCHES.items()])
            self.options_note.value = "<small>{}</small>".format(
                _("Rules: none chosen = the players choose (the basic game by default); "
                  "leaders are placed only with AO-8.2."))

            choices(self.start_from, [(_("an empty board"), "")]
                    + [(_("shipped scenario {name}").format(name=s), s) for s in BUILT_IN])
            self.start_from.description = _("Start from")
            self.start_button.description = _("Start")
            self.start_button.tooltip = _("replace the scenario being edited (Undo brings it back)")
            self.upload.description = _("Open a file")
            self.save_button.description = _("Download the scenario")
            self.publish_button.description = _("Publish (zip)")
            self.publish_button.tooltip = _("the folder of house-divided publish, as a zip to download")

            for widget, options in ((self.union_player, ["human", *BOTS]), (self.confederate_player, ["human", *BOTS]),
                                    (self.union_bot, BOTS), (self.confederate_bot, BOTS)):
                choices(widget, [(_(PLAYER_WORDS[player]), player) for player in options])
            self.union_player.description = _("Union")
            self.confederate_player.description = _("Confederacy")
            self.play_button.description = _("Play it")
            self.games.description = _("Games")
            self.union_bot.description = _("Union bot")
            self.confederate_bot.description = _("Conf. bot")
            self.balance_button.description = _("Balance")
            self.balance_button.tooltip = _("a quick study: games between computer players")
            self.back_button.description = _("Back to the editor")
            self.progress.bar.description = _("Games")
            for i, title in enumerate((_("Scenario"), _("Start, save and publish"), _("Test it"))):
                self.tabs.set_title(i, title)
        finally:
            self._syncing = syncing

    def relabel(self) -> None:
        """Say everything again in the current language (after ``ahd.set_language``): the controls, the
        tab titles, the boxes' names on the map and the verdict. The scenario, the choices made and the
        last status line stay as they are (a game opened with "Play it" has its own language menu)."""
        self._label()
        layers.say_zoom(self.map)
        self._draw()

    @property
    def valid(self) -> bool:
        return not self.problems

    def problems_at(self, box_id: str) -> list[Problem]:
        return [p for p in self.problems if box_id in p.boxes]

    def units_at(self, box_id: str) -> list[dict]:
        return [u for u in self._data.get("units", []) if isinstance(u, dict) and u.get("box") == box_id]

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        self.load(bytes(item["content"]))
        self.upload.value = ()  # so that the same file can be chosen again

    def click(self, box_id: str) -> None:
        """A click on a box of the map: what the tool says."""
        self.selected = box_id
        tool = self.tool.value
        if tool == "Add unit":
            self.add_unit(box_id)
        elif tool == "Remove unit":
            self.remove_unit(box_id)
        elif tool == "Control":
            self.set_control(box_id, self.control.value or None)
        else:
            name = self.leader.value
            if any(isinstance(e, dict) and e.get("name") == name and e.get("box") == box_id
                   for e in self._data.get("leaders", [])):
                self.remove_leader(name)  # a second click takes him off
            else:
                self.place_leader(name, box_id)

def editor(scenario: Any = None, **kwargs: Any) -> Editor:
    """The scenario editor: start from a shipped scenario's name, a scenario file, a saved position
    (``Game.to_scenario()`` or a Game), or (None) an empty board."""
    return Editor(scenario, **kwargs)
