"""The scenario editor: make a scenario on the map, test it against the computer, publish it.

    >>> import widgets
    >>> editor = widgets.editor()            # an empty board; or "1862", a file, or Game.to_scenario()
    >>> editor.add_unit("richmond", "confederate", "MF")      # what a click on the map does
    >>> editor.problems, editor.maxima       # the loader's verdict and the army maxima, after every change
    >>> editor.to_scenario()                 # the scenario as a dict (the file format)

The editor never decides a rule. After every change it runs the engine's own loader
(:func:`ahd.core.scenario.scenario_from_dict`) on the scenario being edited; when the loader accepts it the
army maxima are the engine's (``ahd.new_game(...).army_max``); when it refuses, the loader's message is
shown next to the box it concerns, with the rule it cites. The loader stops at the first problem, so the
editor asks it again with the refused entry left out (and, for a problem of the whole unit list such as
the counter mix, 1.3.a, finds the entries whose removal changes the loader's answer): each problem is
listed, each with its box.

The map is the editor's own small one (the game's map view is bound to a game in play, and a scenario
being edited may not load): the game map's background layers (:mod:`widgets.layers`: state outlines and
links) under one card per box showing what the scenario places there.
"""
from __future__ import annotations

import base64
import copy
import json
import re
import shutil
import tempfile
from dataclasses import dataclass
from html import escape
from importlib import resources
from pathlib import Path
from typing import Any

import ipyleaflet
import ipywidgets as w

import ahd
from ahd.core.board import default_board, display_positions
from ahd.core.errors import AhdError, DataFileError
from ahd.core.jsonfile import JsonProblem, parse
from ahd.core.leaders import T6
from ahd.core.options import SWITCHES
from ahd.core.scenario import BUILT_IN, ENDS, FORMAT, LEADERS, load_scenario, scenario_from_dict
from ahd.core.sides import Side
from ahd.core.units import UNIT_TYPES
from ahd.core.victory import SCORE_TABLE

from . import layers
from .progress import ProgressBar

__all__ = ["Editor", "editor", "Problem", "empty_scenario"]

_LAYOUT = json.loads((resources.files("ahd") / "data" / "board_layout.json").read_text(encoding="utf-8"))
_SIZE = {box: (int(p["w"]), int(p["h"])) for box, p in _LAYOUT["boxes"].items()}
_CENTER = (-_LAYOUT["height"] / 2, _LAYOUT["width"] / 2)
TOOLS = ("Add unit", "Remove unit", "Control", "Leader")
TYPE_NAMES = {"MF": "militia infantry", "FV": "veteran infantry", "FS": "crack infantry",
              "MC": "militia cavalry", "CV": "veteran cavalry", "CS": "crack cavalry"}
CONTROL_CHOICES = (("Union marker", "union"), ("Confederate marker", "confederate"),
                   ("Neutral marker", "neutral"), ("No marker (printed owner)", ""))
BOTS = ("heuristic", "random", "search")
#: A rule ID cited in a loader message, in parentheses: (1.3.a), (S-0), (9.b), (AO-8.4), (T-8).
_RULE = re.compile(r"\(((?:[A-Z]{1,2}-)?\d+(?:\.\d+)*(?:\.[a-z])?)\)")
_INDEXED = re.compile(r"^(units|leaders)\[(\d+)\]")
_CONTROL = re.compile(r"^control\.(\w+)\[(\d+)\]")
MAX_PROBLEMS = 8

CSS = """<style>
.ahd-editor .ahd-card { cursor: crosshair; }
.ahd-editor .ahd-card.ahd-problem-box { outline: 3px solid #c62828; outline-offset: 1px; }
.ahd-editor .ahd-badge { position: absolute; top: -9px; right: -6px; background: #c62828; color: #fff;
  font-size: 9px; font-weight: 700; border-radius: 3px; padding: 0 2px; line-height: 11px; }
.ahd-editor .ahd-edit-chip { color: #fff; border-radius: 2px; padding: 0 2px; border: 1px solid #000;
  font-size: 9px; line-height: 10px; }
.ahd-editor .ahd-edit-chip.ahd-union { background: #1f4e9c; } .ahd-editor .ahd-edit-chip.ahd-confederate { background: #6f6f6f; }
.ahd-editor .ahd-problems li { margin-bottom: 3px; }
</style>"""


def empty_scenario() -> dict[str, Any]:
    """An empty board: no units, no control markers, the whole war (turns 1-40)."""
    return {"format": FORMAT, "version": 1, "id": "my-scenario", "rule": "custom", "title": "My scenario",
            "description": "", "history": "", "start_turn": 1, "first_turn_marches": 2, "last_turn": 40,
            "end": "campaign", "units": [], "control": {}}


@dataclass(frozen=True)
class Problem:
    """One of the loader's refusals: its key path in the file, the box it concerns (if any), the rule it
    cites (if any) and its message."""
    key: str
    message: str
    boxes: tuple[str, ...] = ()
    rule: str | None = None

    @property
    def box(self) -> str | None:
        return self.boxes[0] if self.boxes else None

    def __str__(self) -> str:
        return f"{self.key}: {self.message}"


def _rule_of(message: str) -> str | None:
    match = _RULE.search(message)
    if match:
        return match.group(1)
    return "1.3.a" if "counter mix" in message else None


def _loader(data: dict) -> DataFileError | None:
    try:
        scenario_from_dict(data, "scenario")
    except DataFileError as exc:
        return exc
    return None


def check(data: dict) -> list[Problem]:
    """The loader's problems with ``data``, each with the box it concerns (empty: the loader accepts it)."""
    work = copy.deepcopy(data)
    if not isinstance(work, dict):
        return [Problem("<root>", "expected a JSON object")]
    origin = {"units": list(range(len(work.get("units", []) or []))),
              "leaders": list(range(len(work.get("leaders", []) or [])))}
    problems: list[Problem] = []
    seen: set[tuple[str, str]] = set()
    while len(problems) < MAX_PROBLEMS:
        error = _loader(work)
        if error is None or (error.key, error.problem) in seen:
            break
        seen.add((error.key, error.problem))
        key, boxes, drop = error.key, (), None
        indexed, control = _INDEXED.match(key), _CONTROL.match(key)
        if indexed and isinstance(work.get(indexed[1]), list) and int(indexed[2]) < len(work[indexed[1]]):
            name, i = indexed[1], int(indexed[2])
            entry = work[name][i]
            box = entry.get("box") if isinstance(entry, dict) else None
            boxes = (box,) if isinstance(box, str) and box in default_board() else ()
            key = f"{name}[{origin[name][i]}]" + key[indexed.end():]  # the index in the author's list
            drop = lambda name=name, i=i: (work[name].pop(i), origin[name].pop(i))  # noqa: E731
        elif control and isinstance(work.get("control", {}).get(control[1]), list):
            side, j = control[1], int(control[2])
            box = work["control"][side][j]
            boxes = (box,) if isinstance(box, str) and box in default_board() else ()
            drop = lambda side=side, j=j: work["control"][side].pop(j)  # noqa: E731
        elif key == "units" and isinstance(work.get("units"), list):
            # a problem of the whole list (the counter mix, 1.3.a; the 100 counters a side): the entries
            # whose removal changes the loader's answer are the ones it concerns
            blamed = []
            for i in range(len(work["units"])):
                trial = dict(work, units=work["units"][:i] + work["units"][i + 1:])
                other = _loader(trial)
                if other is None or (other.key, other.problem) != (error.key, error.problem):
                    blamed.append(i)
            boxes = tuple(dict.fromkeys(work["units"][i].get("box") for i in blamed
                                        if isinstance(work["units"][i], dict)))

            def drop(blamed=blamed) -> None:
                for i in reversed(blamed):
                    work["units"].pop(i)
                    origin["units"].pop(i)
            if not blamed:
                drop = None
        problems.append(Problem(key, error.problem, tuple(b for b in boxes if isinstance(b, str)),
                                _rule_of(error.problem)))
        if drop is None:
            break
        drop()
    return problems


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
        self.map = ipyleaflet.Map(center=_CENTER, zoom=0, crs=ipyleaflet.projections.Simple, layers=(),
                                  min_zoom=-1, max_zoom=2, zoom_snap=0.25, zoom_delta=0.5, scroll_wheel_zoom=False,
                                  keyboard=False, attribution_control=False,
                                  layout=w.Layout(height=height, width="100%"))
        self.map.add_class("ahd-map")
        self.map.add(ipyleaflet.GeoJSON(data=layers.state_outlines(), name="states"))
        self.map.add(ipyleaflet.GeoJSON(data=layers.link_lines(board), name="links"))
        self._cards: dict[str, str] = {}
        self.markers: dict[str, ipyleaflet.Marker] = {}
        positions = display_positions()
        for box in board:
            x, y = positions[box.id]
            marker = ipyleaflet.Marker(location=(-y, x), draggable=False, keyboard=False, alt=box.name, title=box.name)
            marker.on_click(lambda box_id=box.id, **_: self.click(box_id))
            self.markers[box.id] = marker
        self.map.add(ipyleaflet.LayerGroup(layers=list(self.markers.values()), name="boxes"))

        # --- what a click does
        self.tool = w.ToggleButtons(options=TOOLS, value="Add unit", description="Click adds:",
                                    style={"button_width": "96px"})
        self.side = w.ToggleButtons(options=[("Union", "union"), ("Confederate", "confederate")], value="union",
                                    description="Side", style={"button_width": "96px"})
        self.unit_type = w.Dropdown(options=[(f"{name} ({code})", code) for code, name in TYPE_NAMES.items()],
                                    value="MF", description="Type")
        self.reduced = w.Checkbox(value=False, description="reduced (5.1.c)", indent=False)
        self.entrenched = w.Checkbox(value=False, description="entrenched", indent=False)
        self.control = w.Dropdown(options=CONTROL_CHOICES, value="union", description="Marker")
        self.leader = w.Dropdown(options=[(name.capitalize(), name) for name in LEADERS], value="grant",
                                 description="Leader")
        self.undo_button = w.Button(description="Undo", icon="undo", tooltip="undo the last change")
        self.undo_button.on_click(lambda _: self.undo())
        self.status = w.HTML()
        self.box_info = w.HTML()
        self.maxima_html = w.HTML()
        self.problems_html = w.HTML()
        self.field_problems = w.HTML()  # the problems of the scenario's own fields, in its tab too

        # --- the scenario's own fields
        self.fields = {
            "id": w.Text(description="id", continuous_update=False),
            "title": w.Text(description="Title", continuous_update=False, layout=w.Layout(width="98%")),
            "rule": w.Text(description="Rule", continuous_update=False),
            "description": w.Textarea(description="Description", continuous_update=False,
                                      layout=w.Layout(width="98%", height="70px")),
            "history": w.Textarea(description="History", continuous_update=False, placeholder="a historical note",
                                  layout=w.Layout(width="98%", height="70px")),
            "start_turn": w.BoundedIntText(min=1, max=40, description="Start turn"),
            "last_turn": w.BoundedIntText(min=1, max=40, description="Last turn"),
            "first_turn_marches": w.Dropdown(options=[*((str(n), n) for n in range(1, 7)), ("roll", "roll")],
                                             description="Turn-1 marches"),
            "end": w.Dropdown(options=list(ENDS), description="End"),
            "score_turn": w.Dropdown(options=[("—", None), *[(str(t), t) for t in sorted(SCORE_TABLE)]],
                                     description="Score turn"),
            "options": w.SelectMultiple(options=[(f"{rule}: {s.title}", rule) for rule, s in SWITCHES.items()],
                                        rows=6, description="Rules", layout=w.Layout(width="98%")),
        }
        for key, field in self.fields.items():
            field.observe(lambda change, key=key: self._field_changed(key, change["new"]), names="value")
        options_note = w.HTML("<small>Rules: none chosen = the players choose (the basic game by default); "
                               "leaders are placed only with AO-8.2.</small>")

        # --- start from, save, upload, publish
        self.start_from = w.Dropdown(options=[("an empty board", "")] + [(f"shipped scenario {s}", s) for s in BUILT_IN],
                                     description="Start from")
        self.start_button = w.Button(description="Start", tooltip="replace the scenario being edited (Undo brings it back)")
        self.start_button.on_click(lambda _: self.load(self.start_from.value or None))
        self.upload = w.FileUpload(accept=".json", multiple=False, description="Open a file")
        self.upload.observe(self._uploaded, names="value")
        self.save_button = w.Button(description="Download the scenario", icon="download")
        self.save_button.on_click(lambda _: self.offer_download())
        self.download = w.HTML()
        self.publish_button = w.Button(description="Publish (zip)", icon="archive",
                                       tooltip="the folder of house-divided publish, as a zip to download")
        self.publish_button.on_click(lambda _: self.publish_zip())
        self.publish_link = w.HTML()

        # --- test it
        self.union_player = w.Dropdown(options=["human", *BOTS], value="human", description="Union")
        self.confederate_player = w.Dropdown(options=["human", *BOTS], value="heuristic", description="Confederacy")
        self.play_button = w.Button(description="Play it", icon="play", button_style="success")
        self.play_button.on_click(lambda _: self.play())
        self.games = w.BoundedIntText(value=20, min=1, max=1000, description="Games")
        self.union_bot = w.Dropdown(options=BOTS, value="heuristic", description="Union bot")
        self.confederate_bot = w.Dropdown(options=BOTS, value="heuristic", description="Conf. bot")
        self.balance_button = w.Button(description="Balance", icon="balance-scale",
                                       tooltip="a quick study: games between computer players")
        self.balance_button.on_click(lambda _: self.balance())
        self.progress = ProgressBar("Games")
        self.balance_html = w.HTML()
        self.back_button = w.Button(description="Back to the editor", icon="arrow-left")
        self.back_button.on_click(lambda _: self.close_play())
        self.play_area = w.VBox([], layout=w.Layout(display="none"))

        click = w.VBox([self.tool, self.side, self.unit_type, w.HBox([self.reduced, self.entrenched]), self.control,
                        self.leader, w.HBox([self.undo_button]), self.status, self.box_info, self.maxima_html,
                        self.problems_html], layout=w.Layout(width="420px", min_width="0", padding="0 0 0 8px"))
        top = w.HBox([w.Box([self.map], layout=w.Layout(flex="1 1 0%", min_width="0")), click],
                     layout=w.Layout(width="100%", align_items="flex-start"))
        f = self.fields
        scenario_tab = w.VBox([self.field_problems, f["title"], w.HBox([f["id"], f["rule"]]), f["description"], f["history"],
                               w.HBox([f["start_turn"], f["last_turn"], f["first_turn_marches"]]),
                               w.HBox([f["end"], f["score_turn"]]), f["options"], options_note])
        files_tab = w.VBox([w.HBox([self.start_from, self.start_button]), self.upload,
                            w.HBox([self.save_button, self.publish_button]), self.download, self.publish_link])
        test_tab = w.VBox([w.HBox([self.union_player, self.confederate_player, self.play_button]),
                           w.HBox([self.games, self.union_bot, self.confederate_bot, self.balance_button]),
                           self.progress, self.balance_html])
        self.tabs = w.Tab(children=[scenario_tab, files_tab, test_tab])
        for i, title in enumerate(("Scenario", "Start, save and publish", "Test it")):
            self.tabs.set_title(i, title)
        self.editing = w.VBox([top, self.tabs], layout=w.Layout(width="100%"))
        for control in (self.tool,):
            control.observe(self._show_tool, names="value")
        super().__init__([w.HTML(layers.CSS), w.HTML(CSS), self.editing,
                          self.play_area], layout=w.Layout(width="100%"))
        self.add_class("ahd-editor")
        self._show_tool()
        self._refresh()

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
                raise DataFileError("the file", exc.key, exc.problem) from None
            if isinstance(data, dict) and data.get("format") == "house-divided-record":
                return Editor._own(ahd.Game.from_json(bytes(source)).to_scenario())
            return Editor._own(scenario_from_dict(data, "the file").data)
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
            self._say(f"Not loaded: {exc}", error=True)
            return False
        self._change(lambda d: (d.clear(), d.update(data)))
        self._say(f"Editing {data.get('title', data.get('id', 'a scenario'))}.")
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
            self._say("Nothing to undo.")
            return False
        self._data = self._undo.pop()
        self._say("Undone.")
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
        self._say(f"Added {count} {Side(side).adjective} {TYPE_NAMES.get(code, code)} to {self.board[box].name}.")

    def remove_unit(self, box: str, side: str | None = None, type: str | None = None) -> bool:
        """Remove one counter of the side and type (by default the unit controls') from a box, or failing that
        one counter of the side there."""
        side = side or self.side.value
        code = (type or self.unit_type.value).upper()
        self.selected = box
        here = [e for e in self.units_at(box) if str(e.get("side")).lower() == side]
        entry = next((e for e in here if str(e.get("type")).upper() == code), here[-1] if here else None)
        if entry is None:
            self._say(f"No {Side(side).adjective} unit in {self.board[box].name} to remove.", error=True)
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
        self._say(f"Removed a {Side(side).adjective} {TYPE_NAMES.get(str(entry.get('type')).upper(), '')} "
                  f"from {self.board[box].name}.")
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
        self._say(f"{self.board[box].name}: " + (f"{side} control marker." if side else "no marker (printed owner)."))

    def place_leader(self, name: str, box: str) -> None:
        """Place (or move) a leader (AO-8.2) on a box."""
        self.selected = box

        def edit(d):
            leaders = [e for e in d.get("leaders", []) if not (isinstance(e, dict) and e.get("name") == name)]
            d["leaders"] = leaders + [{"name": name, "box": box}]
        self._change(edit)
        self._say(f"{name.capitalize()} in {self.board[box].name} (placed only with the leader rules, AO-8.2).")

    def remove_leader(self, name: str) -> None:
        def edit(d):
            d["leaders"] = [e for e in d.get("leaders", []) if not (isinstance(e, dict) and e.get("name") == name)]
            if not d["leaders"]:
                del d["leaders"]
        self._change(edit)
        self._say(f"{name.capitalize()} removed from the scenario.")

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
            self.maxima_html.value = ("<div style='font-size:15px'><b>Army maxima</b>: — (the scenario does not "
                                      "load yet)</div>")
        else:
            self.maxima_html.value = (f"<div style='font-size:15px'><b>Army maxima</b> (turn "
                                      f"{self._data.get('start_turn')}): Union <b>{self.maxima['union']}</b>, "
                                      f"Confederacy <b>{self.maxima['confederate']}</b></div>")
        if not self.problems:
            self.problems_html.value = "<div style='color:#1b5e20;font-size:15px'>✔ The loader accepts the scenario.</div>"
        else:
            def where(p: Problem) -> str:
                names = [self.board[b].name for b in p.boxes]
                more = f" and {len(names) - 4} more" if len(names) > 4 else ""
                return ", ".join(names[:4]) + more or p.key.split(".")[0].split("[")[0].replace("_", " ")
            items = "".join(
                f"<li><b>{escape(where(p))}</b>"
                f"{f' — rule {escape(p.rule)}' if p.rule else ''}: {escape(p.message)} <code>{escape(p.key)}</code></li>"
                for p in self.problems)
            self.problems_html.value = (f"<div class='ahd-problems' style='color:#b71c1c;font-size:14px'>"
                                        f"<b>{len(self.problems)} problem(s)</b><ul style='padding-left:18px;margin:2px 0'>"
                                        f"{items}</ul></div>")
        fields = [p for p in self.problems if not p.boxes]
        self.field_problems.value = "".join(
            f"<div style='color:#b71c1c;font-size:14px'><b>{escape(p.key)}</b>"
            f"{f' (rule {escape(p.rule)})' if p.rule else ''}: {escape(p.message)}</div>" for p in fields)
        self.box_info.value = self._box_html(self.selected) if self.selected else ""
        with self.map.hold_sync():
            for box in self.board:
                html = self._card(box.id)
                if self._cards.get(box.id) == html:
                    continue
                self._cards[box.id] = html
                width, height = _SIZE.get(box.id, (60, 24))
                marker = self.markers[box.id]
                old = marker.icon
                marker.icon = ipyleaflet.DivIcon(html=html, icon_size=[width, height],
                                                 icon_anchor=[width / 2, height / 2])
                if old is not None:
                    old.close()
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
        described = [f"{box.name} ({box.state})", self._controller(box_id)]
        for u in self.units_at(box_id):
            described.append(f"{u.get('count', 1)} {u.get('side')} {TYPE_NAMES.get(str(u.get('type')).upper(), '')}")
        described += [f"problem: {p.message}" for p in problems]
        badge = ""
        if problems:
            label = problems[0].rule or "!"
            badge = (f'<span class="ahd-badge" title="{escape("; ".join(p.message for p in problems))}">'
                     f'{escape(label)}</span>')
        label = escape("; ".join(described))
        return (f'<div class="{" ".join(classes)}" data-box="{box_id}" role="button" title="{label}" '
                f'aria-label="{label}">'
                f'<span class="ahd-name">{escape(box.name)}</span><span class="ahd-row">{"".join(chips)}</span>'
                f'{badge}</div>')

    def _box_html(self, box_id: str) -> str:
        box = self.board[box_id]
        lines = [f"<b style='font-size:15px'>{escape(box.name)}</b> ({escape(box.state)}), "
                 f"controlled by {self._controller(box_id)}"]
        for u in self.units_at(box_id):
            state = ", ".join(s for s, on in (("reduced", u.get("strength") == "reduced"),
                                              ("entrenched", u.get("entrenched"))) if on)
            lines.append(f"{u.get('count', 1)} × {escape(str(u.get('side')))} "
                         f"{escape(TYPE_NAMES.get(str(u.get('type')).upper(), str(u.get('type'))))}"
                         + (f" ({state})" if state else ""))
        for e in self._data.get("leaders", []):
            if isinstance(e, dict) and e.get("box") == box_id:
                lines.append(f"leader {escape(str(e.get('name')).capitalize())}")
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
        warning = "" if self.valid else " (it does not load yet: see the problems)"
        self.download.value = (f"<a download='{escape(name)}' href='data:application/json;base64,{data}' "
                               f"style='font-size:15px'>Download the scenario ({escape(name)})</a>{warning}")
        return self.download.value

    def publish_zip(self, folder: str | Path | None = None) -> Path | None:
        """``widgets.publish.publish`` into a temporary folder, zipped (into ``folder`` or a temporary one) and
        offered as a download link; returns the zip's path (None, with the loader's message, if refused)."""
        from .publish import publish
        work = Path(tempfile.mkdtemp(prefix="ahd-publish-"))
        name = self.file_name("")
        try:
            app = publish(self.to_scenario(), work / name)
        except AhdError as exc:
            self._say(f"Not published: {exc}", error=True)
            shutil.rmtree(work, ignore_errors=True)
            return None
        out = Path(folder) if folder is not None else work
        archive = Path(shutil.make_archive(str(out / name), "zip", root_dir=app.parent, base_dir=app.name))
        shutil.rmtree(app, ignore_errors=True)  # the zip is what is offered
        data = base64.b64encode(archive.read_bytes()).decode()
        self.publish_link.value = (f"<a download='{escape(archive.name)}' href='data:application/zip;base64,{data}' "
                                   f"style='font-size:15px'>Download the published app ({escape(archive.name)}, "
                                   f"{archive.stat().st_size // 1024 + 1} KB)</a>")
        self._say(f"Published: {archive.name} (serve it with voila, Binder or JupyterHub: see its README).")
        return archive

    # ------------------------------------------------------------ test it
    def play(self, union: str | None = None, confederate: str | None = None, seed: int | None = 1, **kwargs: Any):
        """Open the scenario in the game app (in place of the editor; "Back to the editor" returns)."""
        if not self.valid:
            self._say("Fix the problems first: the scenario does not load.", error=True)
            return None
        from .app import play
        self.app = play(self.to_scenario(), union=union or self.union_player.value,
                        confederate=confederate or self.confederate_player.value, seed=seed, **kwargs)
        title = escape(str(self._data.get("title", "")))
        self.editing.layout.display = "none"
        self.play_area.layout.display = None  # shown before the app arrives: its charts measure their size
        self.play_area.children = [w.HBox([self.back_button, w.HTML(f"<b style='font-size:16px'>Playing: {title}</b>")]),
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
            self._say("Fix the problems first: the scenario does not load.", error=True)
            return None
        games = games or self.games.value
        union, confederate = union or self.union_bot.value, confederate or self.confederate_bot.value
        self.balance_button.disabled = True
        self.balance_html.value = f"<div style='font-size:15px'>Playing {games} games…</div>"
        try:
            self.progress.start(games)
            results = ahd.simulate(games, scenario=self.to_scenario(), union=union, confederate=confederate,
                                   seed=seed, chunk=1, progress=self.progress)
        finally:
            self.balance_button.disabled = False
        rows = []
        for side in Side:
            rate, low, high = results.win_rate(side)
            rows.append(f"<tr><td>{side.adjective} ({union if side is Side.UNION else confederate})</td>"
                        f"<td style='text-align:right'><b>{rate:.0%}</b></td><td>95% interval {low:.0%}–{high:.0%}</td></tr>")
        draws = sum(1 for r in results.rows if r.winner is None)
        endings = "; ".join(f"{winner or 'draw'} by {rule}: {n}" for (winner, rule), n in results.endings().items())
        self.balance_html.value = (f"<div style='font-size:15px'><b>{len(results)} games</b> (seed {seed})"
                                   f"<table cellpadding='3'>{''.join(rows)}</table>"
                                   f"{f'No winner: {draws}. ' if draws else ''}How they ended: {escape(endings)}</div>")
        self.results = results
        return results


def editor(scenario: Any = None, **kwargs: Any) -> Editor:
    """The scenario editor: start from a shipped scenario's name, a scenario file, a saved position
    (``Game.to_scenario()`` or a Game), or (None) an empty board."""
    return Editor(scenario, **kwargs)
