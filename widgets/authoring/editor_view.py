"""What the scenario editor draws: the verdict of the engine's checks, live, the cards of the map, the
selected box and the fields."""
from __future__ import annotations

import copy
from html import escape

import ipywidgets as w

import ahd
from ahd.core.errors import AhdError
from ahd.core.leaders import T6
from ahd.core.options import SWITCHES
from ahd.core.scenario import ENDS
from ahd.core.sides import Side
from ahd.core.victory import SCORE_TABLE

from widgets.board import layers
from widgets.model.i18n import _, _n
from widgets.authoring.scenario_check import Problem, _rule_of, check
from widgets.authoring.editor_words import _side_key, _type_word


class EditorView:
    """The drawing of an :class:`widgets.authoring.editor.Editor` (a mixin)."""

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
