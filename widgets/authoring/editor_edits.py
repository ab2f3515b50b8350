"""The scenario editor's edits of the scenario's data: units, control markers, leaders and fields, each one
undoable; reading a scenario from a name, a file, a position or a game."""
from __future__ import annotations

import copy
from typing import Any


import ahd
from ahd.core.errors import AhdError, DataFileError
from ahd.core.i18n import render
from ahd.core.jsonfile import JsonProblem, parse
from ahd.core.scenario import FORMAT, load_scenario, scenario_from_dict
from ahd.core.sides import Side

from widgets.model.i18n import N_, _, _n
from widgets.authoring.editor_words import _type_word, empty_scenario


class ScenarioEdits:
    """The edits of an :class:`widgets.authoring.editor.Editor` (a mixin: the editor holds the data and redraws)."""

    # ------------------------------------------------------------ the scenario
    def to_scenario(self) -> dict[str, Any]:
        """The scenario being edited, in the file format (``stated_maxima``: the live maxima, when it loads)."""
        data = copy.deepcopy(self._data)
        if self.maxima is not None:
            data["stated_maxima"] = dict(self.maxima)
        return data

    @staticmethod
    def _read(source: Any) -> dict:
        """A scenario's data from a shipped name, a path, a dict (``Game.to_scenario()``), a Game, or a file's
        bytes (a scenario or a saved game: its position). Raises the loader's AhdError if refused."""
        if isinstance(source, ahd.Game):
            return ScenarioEdits._own(source.to_scenario())
        if isinstance(source, (bytes, bytearray)):
            try:
                data = parse(bytes(source))
            except JsonProblem as exc:
                raise DataFileError(_("the file"), exc.key, exc.problem) from None
            if isinstance(data, dict) and data.get("format") == "house-divided-record":
                return ScenarioEdits._own(ahd.Game.from_json(bytes(source)).to_scenario())
            return ScenarioEdits._own(scenario_from_dict(data, _("the file")).data)
        if isinstance(source, dict):
            return ScenarioEdits._own(scenario_from_dict(copy.deepcopy(source), "<scenario dict>").data)
        return ScenarioEdits._own(load_scenario(source).data)

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
