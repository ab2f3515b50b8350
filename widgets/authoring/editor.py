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

import base64
import copy
import json
import re
import shutil
import tempfile
from html import escape
from pathlib import Path
from typing import Any

import ipyleaflet
import ipywidgets as w

import ahd
from ahd.core.board import default_board
from ahd.core.errors import AhdError, DataFileError
from ahd.core.i18n import render
from ahd.core.jsonfile import JsonProblem, parse
from ahd.core.leaders import T6
from ahd.core.options import SWITCHES
from ahd.core.scenario import BUILT_IN, ENDS, FORMAT, LEADERS, load_scenario, scenario_from_dict
from ahd.core.sides import Side
from ahd.core.units import UNIT_TYPES
from ahd.core.victory import SCORE_TABLE

from widgets.board import layers
from widgets.board.cardlayer import CardLayer
from widgets.model.i18n import N_, _, _n, _p, pct
from widgets.model.computer import PLAYER_WORDS
from widgets.board.progress import ProgressBar
from widgets.authoring.scenario_check import Problem, _rule_of, check

__all__ = ["Editor", "editor", "Problem", "empty_scenario"]

#: What a click does: the values code compares (English, marked for the catalogs; shown with ``_()``).
TOOLS = (N_("Add unit"), N_("Remove unit"), N_("Control"), N_("Leader"))
TYPE_NAMES = {"MF": "militia infantry", "FV": "veteran infantry", "FS": "crack infantry",
              "MC": "militia cavalry", "CV": "veteran cavalry", "CS": "crack cavalry"}
CONTROL_CHOICES = ((N_("Union marker"), "union"), (N_("Confederate marker"), "confederate"),
                   (N_("Neutral marker"), "neutral"), (N_("No marker (printed owner)"), ""))
#: The scenario's end (``ENDS``), as the End field shows it.
# TRANSLATORS: how a scenario ends: the campaign (turn 40), the short scenario's end, the victory table
END_WORDS = {"campaign": N_("campaign"), "short": N_("short"), "table": N_("table")}
SIDE_NAMES = {"union": N_("Union"), "confederate": N_("Confederate")}
BOTS = ("heuristic", "random", "search")

CSS = """<style>
.ahd-editor .ahd-card { cursor: crosshair; }
.ahd-editor .ahd-card.ahd-problem-box { outline: 3px solid #c62828; outline-offset: 1px; }
.ahd-editor .ahd-badge { position: absolute; top: -9px; right: -6px; background: #c62828; color: #fff;
  font-size: 9px; font-weight: 700; border-radius: 3px; padding: 0 2px; line-height: 11px; }
.ahd-editor .ahd-edit-chip { color: #fff; border-radius: 2px; padding: 0 2px; border: 1px solid #000;
  font-size: 9px; line-height: 10px; }
.ahd-editor .ahd-edit-chip.ahd-union { background: #1f4e9c; } .ahd-editor .ahd-edit-chip.ahd-confederate { background: #6f6f6f; }
.ahd-editor .ahd-problems li { margin-bottom: 3px; }
/* a tab's whole title in every language ("Empezar, guardar y publicar"), not cut at lumino's fixed width */
.ahd-editor .lm-TabBar-tab, .ahd-editor .p-TabBar-tab { flex: 0 0 auto !important; max-width: none !important; }
.ahd-editor .lm-TabBar-tabLabel, .ahd-editor .p-TabBar-tabLabel { overflow: visible !important; }
</style>"""


def empty_scenario() -> dict[str, Any]:
    """An empty board: no units, no control markers, the whole war (turns 1-40); titled in the current
    language (the author's to change)."""
    return {"format": FORMAT, "version": 1, "id": "my-scenario", "rule": "custom", "title": _("My scenario"),
            "description": "", "history": "", "start_turn": 1, "first_turn_marches": 2, "last_turn": 40,
            "end": "campaign", "units": [], "control": {}}


def _side_key(key: str | None) -> str:
    """A side's key ("union", "confederate", "neutral") as the editor says it in its lines
    ("2 union militia infantry", "union control"), in the current language."""
    words = {"union": _p("editor side", "union"), "confederate": _p("editor side", "confederate"),
             "neutral": _p("editor side", "neutral")}
    return words.get(str(key).lower(), str(key))


def _type_word(code: Any, default: str = "") -> str:
    """A unit type code's name in the current language ("militia infantry"); ``default`` for an unknown code."""
    code = str(code).upper()
    return layers.unit_word(code) if code in TYPE_NAMES else default


class Editor(w.VBox):
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
        self._draw()

    # ------------------------------------------------------------ the scenario
    def to_scenario(self) -> dict[str, Any]:
        """The scenario being edited, in the file format (``stated_maxima``: the live maxima, when it loads)."""
        data = copy.deepcopy(self._data)
        if self.maxima is not None:
            data["stated_maxima"] = dict(self.maxima)
        return data

    @property
    def valid(self) -> bool:
        return not self.problems

    def problems_at(self, box_id: str) -> list[Problem]:
        return [p for p in self.problems if box_id in p.boxes]

    def units_at(self, box_id: str) -> list[dict]:
        return [u for u in self._data.get("units", []) if isinstance(u, dict) and u.get("box") == box_id]

    @staticmethod
    def _read(source: Any) -> dict:
        """A scenario's data from a shipped name, a path, a dict (``Game.to_scenario()``), a Game, or a file's
        bytes (a scenario or a saved game: its position). Raises the loader's AhdError if refused."""
        if isinstance(source, ahd.Game):
            return Editor._own(source.to_scenario())
        if isinstance(source, (bytes, bytearray)):
            try:
                data = parse(bytes(source))
            except JsonProblem as exc:
                raise DataFileError(_("the file"), exc.key, exc.problem) from None
            if isinstance(data, dict) and data.get("format") == "house-divided-record":
                return Editor._own(ahd.Game.from_json(bytes(source)).to_scenario())
            return Editor._own(scenario_from_dict(data, _("the file")).data)
        if isinstance(source, dict):
            return Editor._own(scenario_from_dict(copy.deepcopy(source), "<scenario dict>").data)
        return Editor._own(load_scenario(source).data)

    @staticmethod
    def _own(data: dict) -> dict:
        data = copy.deepcopy(data)
        data.pop("stated_maxima", None)  # the editor states the live maxima (to_scenario)
        data.pop("based_on", None)       # already applied by the loader
        data.setdefault("format", FORMAT)
        return data

    def load(self, source: Any = None) -> bool:
        """Edit another scenario (None: an empty board). A refused one leaves the scenario being edited as it
        was and shows the loader's message; returns whether it was loaded."""
        try:
            data = empty_scenario() if source is None else self._read(source)
        except AhdError as exc:
            self._say(_("Not loaded: {error}").format(error=exc), error=True)
            return False
        self._change(lambda d: (d.clear(), d.update(data)))
        self._say(_("Editing {title}.").format(title=data.get("title", data.get("id", _("a scenario")))))
        return True

    def _uploaded(self, change) -> None:
        files = change["new"]
        if not files:
            return
        item = files[0] if isinstance(files, (list, tuple)) else next(iter(files.values()))
        self.load(bytes(item["content"]))
        self.upload.value = ()  # so that the same file can be chosen again

    # ------------------------------------------------------------ edits (each one can be undone)
    def _change(self, edit) -> None:
        before = copy.deepcopy(self._data)
        edit(self._data)
        if self._data != before:
            self._undo.append(before)
        self._refresh()

    def undo(self) -> bool:
        if not self._undo:
            self._say(_("Nothing to undo."))
            return False
        self._data = self._undo.pop()
        self._say(_("Undone."))
        self._refresh()
        return True

    def set(self, **fields: Any) -> None:
        """Set scenario fields (``title=``, ``start_turn=``, ``end=``, ``options=[...]``...); None removes one."""
        def edit(d):
            for key, value in fields.items():
                if value is None or (key in ("options",) and not value) or (key == "history" and value == ""):
                    d.pop(key, None)
                else:
                    d[key] = list(value) if key == "options" else value
        self._change(edit)

    def _field_changed(self, key: str, value: Any) -> None:
        if not self._syncing:
            self.set(**{key: value})

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

    def add_unit(self, box: str, side: str | None = None, type: str | None = None, *, count: int = 1,
                 reduced: bool | None = None, entrenched: bool | None = None) -> None:
        """Add ``count`` counters (by default those the unit controls show) to a box."""
        side = side or self.side.value
        code = (type or self.unit_type.value).upper()
        reduced = self.reduced.value if reduced is None else reduced
        entrenched = self.entrenched.value if entrenched is None else entrenched
        self.selected = box

        def edit(d):
            units = d.setdefault("units", [])
            for entry in units:
                if (isinstance(entry, dict) and entry.get("box") == box and str(entry.get("side")).lower() == side
                        and str(entry.get("type")).upper() == code and bool(entry.get("entrenched")) == entrenched
                        and (entry.get("strength", "full") == "reduced") == reduced and not entry.get("foreign")):
                    entry["count"] = entry.get("count", 1) + count
                    return
            entry = {"side": side, "type": code, "box": box, "count": count}
            if entrenched:
                entry["entrenched"] = True
            if reduced:
                entry["strength"] = "reduced"
            units.append(entry)
        self._change(edit)
        self._say(_n("Added {count} {side} {unit_type} to {box}.", "Added {count} {side} {unit_type} to {box}.",
                     count).format(count=count, side=render(Side(side)), unit_type=_type_word(code, code),
                                   box=self.board.local_name(box)))

    def remove_unit(self, box: str, side: str | None = None, type: str | None = None) -> bool:
        """Remove one counter of the side and type (by default the unit controls') from a box, or failing that
        one counter of the side there."""
        side = side or self.side.value
        code = (type or self.unit_type.value).upper()
        self.selected = box
        here = [e for e in self.units_at(box) if str(e.get("side")).lower() == side]
        entry = next((e for e in here if str(e.get("type")).upper() == code), here[-1] if here else None)
        if entry is None:
            self._say(_("No {side} unit in {box} to remove.").format(side=render(Side(side)),
                                                                     box=self.board.local_name(box)), error=True)
            self._refresh()
            return False
        index = next(i for i, e in enumerate(self._data["units"]) if e is entry)

        def edit(d):
            target = d["units"][index]
            if target.get("count", 1) > 1:
                target["count"] -= 1
            else:
                d["units"].pop(index)
        self._change(edit)
        self._say(_("Removed a {side} {unit_type} from {box}.").format(
            side=render(Side(side)), unit_type=_type_word(entry.get("type")), box=self.board.local_name(box)))
        return True

    def set_control(self, box: str, side: str | None) -> None:
        """A control marker (9.c) on a box: "union", "confederate", "neutral", or None (its printed owner)."""
        self.selected = box

        def edit(d):
            control = d.setdefault("control", {})
            for name in list(control):
                if isinstance(control[name], list) and box in control[name]:
                    control[name].remove(box)
                if control[name] == []:
                    del control[name]
            if side:
                control.setdefault(side, []).append(box)
        self._change(edit)
        marker = {"union": N_("{box}: union control marker."), "confederate": N_("{box}: confederate control marker."),
                  "neutral": N_("{box}: neutral control marker.")}
        if side in marker:
            text = _(marker[side])
        elif side:
            text = "{box}: " + _("{side} control marker.").format(side=side)  # not a side: as the file says it
        else:
            text = _("{box}: no marker (printed owner).")
        self._say(text.format(box=self.board.local_name(box)))

    def place_leader(self, name: str, box: str) -> None:
        """Place (or move) a leader (AO-8.2) on a box."""
        self.selected = box

        def edit(d):
            leaders = [e for e in d.get("leaders", []) if not (isinstance(e, dict) and e.get("name") == name)]
            d["leaders"] = leaders + [{"name": name, "box": box}]
        self._change(edit)
        self._say(_("{leader} in {box} (placed only with the leader rules, AO-8.2).").format(
            leader=name.capitalize(), box=self.board.local_name(box)))

    def remove_leader(self, name: str) -> None:
        def edit(d):
            d["leaders"] = [e for e in d.get("leaders", []) if not (isinstance(e, dict) and e.get("name") == name)]
            if not d["leaders"]:
                del d["leaders"]
        self._change(edit)
        self._say(_("{leader} removed from the scenario.").format(leader=name.capitalize()))

    # ------------------------------------------------------------ the verdict, live
    def _refresh(self) -> None:
        self.problems = check(self._data)
        self.game, self.maxima = None, None
        if not self.problems:
            try:
                self.game = ahd.new_game(copy.deepcopy(self._data), seed=1)
                self.maxima = {side.value: self.game.army_max(side) for side in Side}
            except AhdError as exc:  # the loader accepted it but the game cannot be set up: say why
                self.problems = [Problem("<game>", str(exc), (), _rule_of(str(exc)))]
        self._draw()

    def _draw(self) -> None:
        self._sync_fields()
        if self.maxima is None:
            self.maxima_html.value = "<div style='font-size:15px'>{}</div>".format(
                _("<b>Army maxima</b>: — (the scenario does not load yet)"))
        else:
            self.maxima_html.value = "<div style='font-size:15px'>{}</div>".format(
                _("<b>Army maxima</b> (turn {turn}): Union <b>{union}</b>, Confederacy <b>{confederate}</b>").format(
                    turn=self._data.get("start_turn"), union=self.maxima["union"],
                    confederate=self.maxima["confederate"]))
        if not self.problems:
            self.problems_html.value = "<div style='color:#1b5e20;font-size:15px'>✔ {}</div>".format(
                escape(_("The loader accepts the scenario.")))
        else:
            def where(p: Problem) -> str:
                names = [self.board.local_name(b) for b in p.boxes]
                if len(names) > 4:
                    return _n("{boxes} and {n} more", "{boxes} and {n} more", len(names) - 4).format(
                        boxes=", ".join(names[:4]), n=len(names) - 4)
                return ", ".join(names) or p.key.split(".")[0].split("[")[0].replace("_", " ")
            items = "".join(
                f"<li><b>{escape(where(p))}</b>"
                + (" — " + escape(_("rule {rule}").format(rule=p.rule)) if p.rule else "")
                + f": {escape(p.message)} <code>{escape(p.key)}</code></li>"
                for p in self.problems)
            heading = _n("{n} problem", "{n} problems", len(self.problems)).format(n=len(self.problems))
            self.problems_html.value = (f"<div class='ahd-problems' style='color:#b71c1c;font-size:14px'>"
                                        f"<b>{escape(heading)}</b><ul style='padding-left:18px;margin:2px 0'>"
                                        f"{items}</ul></div>")
        fields = [p for p in self.problems if not p.boxes]
        self.field_problems.value = "".join(
            f"<div style='color:#b71c1c;font-size:14px'><b>{escape(p.key)}</b>"
            + (" (" + escape(_("rule {rule}").format(rule=p.rule)) + ")" if p.rule else "")
            + f": {escape(p.message)}</div>" for p in fields)
        self.box_info.value = self._box_html(self.selected) if self.selected else ""
        self._cards = {box.id: self._card(box.id) for box in self.board}
        self.layer.update(self._cards)  # one patch of the cards that changed
        self.undo_button.disabled = not self._undo

    def _controller(self, box_id: str) -> str:
        if self.game is not None:  # the engine's controller (markers, printed owner, occupation 9.a)
            side = self.game.controller(box_id)
            return side.value if side else "neutral"
        for name, boxes in (self._data.get("control") or {}).items():
            if isinstance(boxes, list) and box_id in boxes:
                return name if name in ("union", "confederate", "neutral") else "neutral"
        owner = self.board[box_id].owner
        return owner.value if owner else "neutral"

    def card(self, box_id: str) -> str:
        """The HTML of a box's card as drawn now."""
        return self._cards[box_id]

    def _card(self, box_id: str) -> str:
        box = self.board[box_id]
        problems = self.problems_at(box_id)
        classes = ["ahd-card", f"ahd-{self._controller(box_id)}"] + (["ahd-problem-box"] if problems else []) \
            + (["ahd-selected"] if box_id == self.selected else [])
        chips = []
        for side in ("union", "confederate"):
            units = [u for u in self.units_at(box_id) if str(u.get("side")).lower() == side]
            n = sum(u.get("count", 1) if isinstance(u.get("count", 1), int) else 1 for u in units)
            leaders = [e["name"][0].upper() for e in self._data.get("leaders", []) if isinstance(e, dict)
                       and e.get("box") == box_id and e.get("name") in T6 and T6[e["name"]][0].value == side]
            if n or leaders:
                chips.append(f'<span class="ahd-edit-chip ahd-{side}">{n if n else ""}{"".join(leaders)}</span>')
        name = self.board.local_name(box_id)
        described = [f"{name} ({box.state})", _side_key(self._controller(box_id))]
        for u in self.units_at(box_id):
            described.append(_("{n} {side} {unit_type}").format(n=u.get("count", 1), side=_side_key(u.get("side")),
                                                                unit_type=_type_word(u.get("type"))))
        described += [_("problem: {message}").format(message=p.message) for p in problems]
        badge = ""
        if problems:
            label = problems[0].rule or "!"
            badge = (f'<span class="ahd-badge" title="{escape("; ".join(p.message for p in problems))}">'
                     f'{escape(label)}</span>')
        label = escape("; ".join(described))
        # the accessible name: the name as seen, then the rest of the description (as on the game's map)
        return (f'<div class="{" ".join(classes)}" data-box="{box_id}" role="button" title="{label}">'
                f'<span class="ahd-name">{escape(name)}</span><span class="ahd-row" aria-hidden="true">'
                f'{"".join(chips)}</span>{layers.sr_rest(name, "; ".join(described))}{badge}</div>')

    def _box_html(self, box_id: str) -> str:
        box = self.board[box_id]
        lines = [f"<b style='font-size:15px'>{escape(self.board.local_name(box_id))}</b> ({escape(box.state)}), "
                 + escape(_("controlled by {side}").format(side=_side_key(self._controller(box_id))))]
        for u in self.units_at(box_id):
            state = ", ".join(s for s, on in ((_("reduced"), u.get("strength") == "reduced"),
                                              (_("entrenched"), u.get("entrenched"))) if on)
            line = _("{n} × {side} {unit_type}").format(n=u.get("count", 1), side=_side_key(u.get("side")),
                                                        unit_type=_type_word(u.get("type"), str(u.get("type"))))
            lines.append(escape(line) + (f" ({escape(state)})" if state else ""))
        for e in self._data.get("leaders", []):
            if isinstance(e, dict) and e.get("box") == box_id:
                lines.append(escape(_("leader {name}").format(name=str(e.get("name")).capitalize())))
        for p in self.problems_at(box_id):
            lines.append(f"<span style='color:#b71c1c'>{escape(p.message)}</span>")
        return "<div style='font-size:14px;line-height:1.35'>" + "<br>".join(lines) + "</div>"

    def _sync_fields(self) -> None:
        self._syncing = True
        try:
            d = self._data
            for key, field in self.fields.items():
                value = d.get(key)
                if key == "options":
                    value = tuple(o for o in (value or ()) if o in SWITCHES)
                elif key == "score_turn":
                    value = value if value in SCORE_TABLE else None
                elif key == "first_turn_marches":
                    value = value if value in (1, 2, 3, 4, 5, 6, "roll") else 2
                elif key == "end":
                    value = value if value in ENDS else "campaign"
                elif isinstance(field, w.BoundedIntText):
                    value = value if isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 40 else 1
                else:
                    value = value if isinstance(value, str) else ""
                if field.value != value:
                    field.value = value
        finally:
            self._syncing = False

    def _show_tool(self, change=None) -> None:
        tool = self.tool.value
        unit = tool in ("Add unit", "Remove unit")
        for control, shown in ((self.side, unit), (self.unit_type, unit), (self.reduced, tool == "Add unit"),
                               (self.entrenched, tool == "Add unit"), (self.control, tool == "Control"),
                               (self.leader, tool == "Leader")):
            control.layout.display = None if shown else "none"

    def _say(self, text: str, error: bool = False) -> None:
        colour = "#b71c1c" if error else "#1b5e20"
        self.status.value = f"<div style='font-size:15px;color:{colour}'>{escape(text)}</div>"

    # ------------------------------------------------------------ save, publish
    def file_name(self, suffix: str = ".json") -> str:
        name = re.sub(r"[^A-Za-z0-9._-]+", "-", str(self._data.get("id", "scenario"))).strip("-.") or "scenario"
        return name + suffix

    def offer_download(self) -> str:
        """A link that downloads the scenario file (nothing is written on the server); returns its HTML."""
        text = json.dumps(self.to_scenario(), indent=1, ensure_ascii=False) + "\n"
        data = base64.b64encode(text.encode("utf-8")).decode()
        name = self.file_name()
        warning = "" if self.valid else " " + escape(_("(it does not load yet: see the problems)"))
        link = escape(_("Download the scenario ({file})").format(file=name))
        self.download.value = (f"<a download='{escape(name)}' data-autodownload='1' href='data:application/json;base64,{data}' "
                               f"style='font-size:15px'>{link}</a>{warning}")
        return self.download.value

    def publish_zip(self, folder: str | Path | None = None) -> Path | None:
        """``widgets.authoring.publish.publish`` into a temporary folder, zipped (into ``folder`` or a temporary one) and
        offered as a download link; returns the zip's path (None, with the loader's message, if refused)."""
        from widgets.authoring.publish import publish
        work = Path(tempfile.mkdtemp(prefix="ahd-publish-"))
        name = self.file_name("")
        try:
            app = publish(self.to_scenario(), work / name)
        except AhdError as exc:
            self._say(_("Not published: {error}").format(error=exc), error=True)
            shutil.rmtree(work, ignore_errors=True)
            return None
        out = Path(folder) if folder is not None else work
        archive = Path(shutil.make_archive(str(out / name), "zip", root_dir=app.parent, base_dir=app.name))
        shutil.rmtree(app, ignore_errors=True)  # the zip is what is offered
        data = base64.b64encode(archive.read_bytes()).decode()
        link = _("Download the published app ({file}, {size} KB)").format(file=archive.name,
                                                                         size=archive.stat().st_size // 1024 + 1)
        self.publish_link.value = (f"<a download='{escape(archive.name)}' href='data:application/zip;base64,{data}' "
                                   f"style='font-size:15px'>{escape(link)}</a>")
        self._say(_("Published: {file} (serve it with voila, Binder or JupyterHub: see its README).").format(
            file=archive.name))
        return archive

    # ------------------------------------------------------------ test it
    def play(self, union: str | None = None, confederate: str | None = None, seed: int | None = 1, **kwargs: Any):
        """Open the scenario in the game app (in place of the editor; "Back to the editor" returns)."""
        if not self.valid:
            self._say(_("Fix the problems first: the scenario does not load."), error=True)
            return None
        from widgets.app import play
        self.app = play(self.to_scenario(), union=union or self.union_player.value,
                        confederate=confederate or self.confederate_player.value, seed=seed, **kwargs)
        title = escape(str(self._data.get("title", "")))
        self.editing.layout.display = "none"
        self.play_area.layout.display = None  # shown before the app arrives: its charts measure their size
        self.play_area.children = [w.HBox([self.back_button, w.HTML("<b style='font-size:16px'>{}</b>".format(
                                       _("Playing: {title}").format(title=title)))]),
                                   self.app]
        return self.app

    def close_play(self) -> None:
        self.app = None
        self.play_area.children = []
        self.play_area.layout.display = "none"
        self.editing.layout.display = None

    def balance(self, games: int | None = None, union: str | None = None, confederate: str | None = None,
                seed: int = 0):
        """A quick study: ``games`` games between computer players (``ahd.simulate``), with the progress bar;
        shows who wins how often with 95% (Wilson) intervals and returns the results."""
        if not self.valid:
            self._say(_("Fix the problems first: the scenario does not load."), error=True)
            return None
        games = games or self.games.value
        union, confederate = union or self.union_bot.value, confederate or self.confederate_bot.value
        self.balance_button.disabled = True
        self.balance_html.value = "<div style='font-size:15px'>{}</div>".format(
            escape(_n("Playing {n} game…", "Playing {n} games…", games).format(n=games)))
        try:
            self.progress.start(games)
            results = ahd.simulate(games, scenario=self.to_scenario(), union=union, confederate=confederate,
                                   seed=seed, chunk=1, progress=self.progress)
        finally:
            self.balance_button.disabled = False
        rows = []
        for side in Side:
            rate, low, high = results.win_rate(side)
            bot = union if side is Side.UNION else confederate
            rows.append(f"<tr><td>{escape(_(SIDE_NAMES[side.value]))} ({escape(_(PLAYER_WORDS.get(bot, bot)))})</td>"
                        f"<td style='text-align:right'><b>{pct(rate, 0)}</b></td><td>"
                        + escape(_("95% interval {low}–{high}").format(low=pct(low, 0), high=pct(high, 0))) + "</td></tr>")
        draws = sum(1 for r in results.rows if r.winner is None)
        endings = "; ".join(_("{winner} by {rule}: {n}").format(
            winner=_("draw") if winner is None else _side_key(winner), rule=rule, n=n)
            for (winner, rule), n in results.endings().items())
        heading = _n("<b>{n} game</b> (seed {seed})", "<b>{n} games</b> (seed {seed})", len(results)).format(
            n=len(results), seed=seed)
        no_winner = _("No winner: {n}. ").format(n=draws) if draws else ""
        ended = _("How they ended: {endings}").format(endings=endings)  # not inside an f-string: extracted
        self.balance_html.value = (f"<div style='font-size:15px'>{heading}"
                                   f"<table cellpadding='3'>{''.join(rows)}</table>"
                                   f"{escape(no_winner)}{escape(ended)}"
                                   f"</div>")
        self.results = results
        return results


def editor(scenario: Any = None, **kwargs: Any) -> Editor:
    """The scenario editor: start from a shipped scenario's name, a scenario file, a saved position
    (``Game.to_scenario()`` or a Game), or (None) an empty board."""
    return Editor(scenario, **kwargs)

