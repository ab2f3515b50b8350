"""Learn by playing (issue 15, item 4): a guided first game, for either side, against the computer.

    app = widgets.play("1861", union="human", confederate="heuristic", guide=True)

For the first turns, each decision of the person's side comes with a **hint**: what to click (the box is
ringed in orange on the map, or the panel's button is ringed) and why, in one sentence. The hint's action is
the heuristic computer player's choice in the same position (``ahd.bots``), turned into the gesture that
plays it in the app (a click on a box, a button of the panel); the guide never decides a rule. Whatever
happens next is **explained**: each new line of the game's log (a march, a battle's shots with the terms of
their numbers, a reinforcement, a retreat, a cavalry withdrawal, the control update) with a sentence on what
it means, and the army maxima when they change, read from the session. A player may ignore a hint: the next
one starts from the position as it is.
"""
from __future__ import annotations

from html import escape
from typing import Any

import ipywidgets as w

from ahd.core import decisions
from ahd import Game, rulebook
from ahd.bots import make_bot
from ahd.core.actions import Action, BeginMarch, Entrench, Invade, Move, NavalMove
from ahd.core.i18n import Msg, render

from widgets.model.gestures import action_box, plan_for
from widgets.model.i18n import _
from widgets.teaching.rules import book_language
from widgets.board.layers import side_word
from widgets.teaching.guide_words import Hint, _kind, _name, why

#: The guided turns: hints for the person's decisions in turns 1 and 2.
GUIDED_TURNS = 2
HINT_COLOUR = "#ff6f00"
MAX_NOTES = 40

CSS = f"""<style>
.ahd-guide {{ border: 2px solid {HINT_COLOUR}; border-radius: 4px; padding: 4px 8px; background: #fff8ef; }}
.ahd-guide .ahd-hint {{ font-size: 15px; line-height: 1.4; }}
.ahd-guide .ahd-notes {{ font-size: 13px; line-height: 1.35; max-height: 180px; overflow: auto; }}
button.ahd-hinted {{ box-shadow: 0 0 0 3px {HINT_COLOUR} !important; }}
@keyframes ahd-hint-pulse {{ from {{ outline-color: {HINT_COLOUR}; }} to {{ outline-color: #ffd180; }} }}
</style>"""


class Guide:
    """The guided first game beside the map: the hint, what happened, and a button that starts one."""

    def __init__(self, session, panel=None, *, active: bool = False, turns: int = GUIDED_TURNS, seed: int = 1) -> None:
        self.session = session
        self.panel = panel
        self.turns = turns
        self.bot = make_bot("heuristic", seed=seed)
        self.active = False
        self.hint: Hint | None = None
        self.notes: list[str] = []
        self._explained: set[str] = set()
        self._seen = 0
        self._maxima: dict | None = None
        self._maxima_half: tuple | None = None
        self._picked_for: tuple | None = None
        self._busy = False
        self._hinted_button: w.Button | None = None
        self.style = w.HTML(CSS)
        self.highlight = w.HTML()  # a <style> ringing the hinted box's card on the map
        self.text = w.HTML()
        self.side = w.Dropdown(options=self._side_options(), value="union", layout=w.Layout(width="210px"),
                               style={"description_width": "auto"})  # labelled for screen readers and the eye
        # white on a teal dark enough for text (5.0:1; the 'info' style's #0097a7 was 3.5:1)
        self.start_button = w.Button(layout=w.Layout(width="auto"), style={"button_color": "#007c89", "text_color": "#ffffff"})
        self.start_button.on_click(lambda _button: self.start_game(self.side.value))
        self.follow_button = w.Button(layout=w.Layout(width="auto"))
        self.follow_button.on_click(lambda _button: self.follow())
        self.stop_button = w.Button(layout=w.Layout(width="auto"))
        self.stop_button.on_click(lambda _button: self.stop())
        self.question = w.HTML()
        self._label_widgets()
        self.starter = w.HBox([self.question, self.side,
                               self.start_button], layout=w.Layout(align_items="center", flex_flow="row wrap"))
        self.body = w.VBox([self.text, w.HBox([self.follow_button, self.stop_button])])
        self.body.add_class("ahd-guide")
        self.widget = w.VBox([self.style, self.highlight, self.starter, self.body], layout=w.Layout(width="100%"))
        self.widget.add_class("ahd-guide-section")
        # the hint follows the position, the selection and the computer's play (after the panel's parts: they
        # observe these first)
        session.observe(self._changed, names=["position", "selected", "selected_units", "busy", "union", "confederate"])
        if active:
            self.start()
        else:
            self._draw()

    @staticmethod
    def _side_options() -> list[tuple[str, str]]:
        return [(_("Union"), "union"), (_("Confederacy"), "confederate")]

    def _label_widgets(self) -> None:
        """The guide's buttons and words in the current language."""
        self.start_button.description = _("Learn by playing")
        self.side.description = _("Play as")
        self.start_button.tooltip = _("a new 1861 game against the computer, with a hint for every decision of the "
                                      "first turns")
        self.follow_button.description = _("Do it for me")
        self.follow_button.tooltip = _("play the hint's action")
        self.stop_button.description = _("Hide the guide")
        self.question.value = "<b style='font-size:15px'>" + escape(_("New to the game?")) + "</b>"

    def relabel(self) -> None:
        """Say the guide again in the current language (after ``set_language``): its buttons and the hint
        (recomputed); the notes already written stay as they were written."""
        value = self.side.value
        with self.side.hold_sync():
            self.side.options = self._side_options()
            self.side.value = value
        self._label_widgets()
        self.hint = self.compute_hint() if self.active else None
        self._draw()

    # ------------------------------------------------------------------ starting and stopping
    @property
    def guided_side(self) -> str:
        s = self.session
        humans = [side for side in ("union", "confederate") if s.player_of(side) == "human"]
        return humans[0] if len(humans) == 1 else "both" if humans else ""

    def start(self) -> None:
        """Guide the game as it is (from its current position)."""
        self.active = True
        self.notes = []
        self._seen = len(self.session.game.log)
        self._maxima = dict(self.session.army_max)
        self._maxima_half = (self.session.game.state.turn, self.session.game.phasing.value)
        self._picked_for = None
        self._changed()

    def start_game(self, side: str = "union") -> None:
        """A new 1861 game, the person playing ``side`` and the computer the other, with the guide on."""
        s = self.session
        other = "confederate" if side == "union" else "union"
        s.set_players(**{side: "human", other: "heuristic"})
        self.active = False
        s.new_game("1861", seed=1)
        self.start()
        self.notes.insert(0, escape(
            _("A new 1861 game: you play the Union, the computer the other side. Follow the orange hints, or play "
              "your own way.") if side == "union" else
            _("A new 1861 game: you play the Confederacy, the computer the other side. Follow the orange hints, or "
              "play your own way.")))
        self._draw()

    def stop(self) -> None:
        self.active = False
        self.hint = None
        self._draw()

    # ------------------------------------------------------------------ the hint
    def compute_hint(self) -> Hint | None:
        """The hint for the person's decision now, or None (not their decision, the computer is playing, the
        guided turns are over, or the game is over)."""
        s = self.session
        game = s.game
        if not self.active or game.is_over or s.busy or not s.human_to_move or game.state.turn > self.turns:
            return None
        choice = self.bot.choose(game.copy())
        if decisions.choosing_march(game) and isinstance(choice, BeginMarch):
            if s.selected == choice.origin:
                preview = game.copy()
                preview.apply(choice)
                return self._march_hint(preview, choice.origin, begin=choice)
            return self._begin_hint(game, choice)
        if decisions.choosing_march(game) and isinstance(choice, (NavalMove, Invade)):
            origin = game.state.units[choice.unit].location
            to = action_box(game, choice)
            if s.selected != origin:
                return Hint(choice, "box", _("Click {origin}, then {box}, to go by sea: {why}").format(
                    origin=_name(game, origin), box=_name(game, to), why=why(game, choice)), box=origin)
            return Hint(choice, "box", _("Click {box}: {why}").format(box=_name(game, to), why=why(game, choice)),
                        box=to)
        if decisions.march_open(game) and isinstance(choice, Move):
            return self._march_hint(game, game.march_origin)
        return self._panel_or_box_hint(choice)

    def _begin_hint(self, game: Game, begin: BeginMarch) -> Hint:
        """Click the march's box (to select it): the sentence says where the computer player would send its units."""
        preview = game.copy()
        preview.apply(begin)
        first = self.bot.choose(preview.copy())
        origin = _name(game, begin.origin)
        if isinstance(first, Move):
            return Hint(begin, "box", _("Click {origin} to march from it, then {box}: {why}").format(
                origin=origin, box=_name(game, first.path[-1]), why=why(game, begin, first)), box=begin.origin)
        return Hint(begin, "box", _("Click {origin} to march from it: {why}").format(origin=origin, why=why(game, begin)),
                    box=begin.origin)

    def _march_hint(self, position: Game, origin: str, begin: BeginMarch | None = None) -> Hint:
        """The computer player's next order in the march from ``origin`` (begun in ``position``): the units it
        sends to the same box, to pick (the guide picks them) and the box to click."""
        s = self.session
        game = s.game
        trial = position.copy()
        first = self.bot.choose(trial)
        if not isinstance(first, Move):
            if begin is not None:  # the march starts with no move (e.g. entrenching): begin it by its button
                return self._panel_or_box_hint(begin)
            return self._panel_or_box_hint(first)
        to = first.path[-1]
        movers = [first.unit]
        trial.apply(first)
        while decisions.march_open(trial):
            order = self.bot.choose(trial)
            if not isinstance(order, Move):
                break
            if order.path[-1] == to:
                movers.append(order.unit)
            trial.apply(order)
        everyone = set(plan_for(game, origin, ()).orders.get(to, {}))
        units = () if set(movers) == everyone else tuple(sorted(movers))
        moved = ", ".join(_kind(game.state.units[u]) for u in movers)
        action = begin if begin is not None else first
        reason = why(game, begin or first, first)
        if units:
            text = _("Click {box} to move {units} there (the guide has picked {units} in the panel's Units list): "
                     "{why}").format(box=_name(game, to), units=moved, why=reason)
        else:
            text = _("Click {box} to move {units} there: {why}").format(box=_name(game, to), units=moved, why=reason)
        return Hint(action, "box", text, box=to, units=units, then=first)

    def _panel_or_box_hint(self, action: Action) -> Hint:
        s = self.session
        game = s.game
        box = action_box(game, action)
        reason = why(game, action)
        # a click on a march's own box selects it: a march begun or a unit entrenching is played by its button
        if box is not None and not isinstance(action, (BeginMarch, Entrench)):
            here = s.actions_at(box)
            if action in here and (len(here) == 1 or s.selected != box):
                text = (_("Click {box}: {why}") if len(here) == 1 else
                        _("Click {box} and choose in the panel: {why}")).format(box=_name(game, box), why=reason)
                return Hint(action, "box", text, box=box)
        index = s.legal_actions.index(action)
        button = self._quick_button(index)
        if button is not None:
            return Hint(action, "button", _("Press “{button}” in the panel: {why}").format(
                button=button.description, why=reason), button=button.description)
        return Hint(action, "list", _("Choose “{action}” in the list of all legal actions and press “{play}”: "
                                      "{why}").format(action=s.legal[index], play=_("Play the selected action"),
                                                      why=reason), button=s.legal[index])

    def _quick_button(self, index: int) -> w.Button | None:
        """The panel's button for legal action ``index`` (as the panel labels it), or None."""
        if self.panel is None:
            return None
        label = self.session.legal[index][:60]
        return next((b for b in self.panel.quick if getattr(b, "action_index", None) == index
                     and b.layout.display != "none" and b.description == label), None)

    def follow(self) -> None:
        """Play the hint as a person would: pick the units, click the box, or press the button."""
        hint = self.hint
        if hint is None:
            return
        s = self.session
        if hint.kind == "box":
            self._pick(hint)
            s.click_box(hint.box)
        elif hint.kind == "button":
            button = next((b for b in self.panel.quick if b.description == hint.button and b.layout.display != "none"),
                          None) if self.panel is not None else None
            if button is not None:
                button.click()
            else:
                s.act(hint.action)
        else:
            s.act(hint.action)

    def _pick(self, hint: Hint) -> None:
        """Pick the hint's units in the Units list (once per hint, so the player can change the pick)."""
        s = self.session
        if not hint.units or s.selected != s.game.state.units[hint.units[0]].location:
            return
        key = (len(s.game.history), hint.box, hint.units)
        if self._picked_for == key or set(s.selected_units) == set(hint.units):
            return
        self._picked_for = key
        for unit in sorted(set(s.selected_units) ^ set(hint.units)):
            s.toggle_unit(unit)

    # ------------------------------------------------------------------ what happened
    def explain(self, event: Any) -> str:
        """A log line with a sentence on what it means (the first time such a thing happens)."""
        text = str(event)  # in the current language
        message = getattr(event, "message", None)
        english = message.msgid if isinstance(message, Msg) else text  # what kind of line it is, in any language
        kind = event.kind
        gloss = ""
        if kind == "shot" and " = " in english:
            if isinstance(message, Msg) and {"value", "why"} <= set(message.params):
                number, terms = render(message.params["value"]), render(message.params["why"])
            else:
                number, terms = text.rsplit(". ", 1)[-1].split(" = ", 1)
            gloss = _("It needed a die roll of {number} or less: {terms}.").format(number=number, terms=terms)
            key = "shot"
        elif kind == "battle" and english.startswith("Battle at"):
            key, gloss = "battle", _("A battle: the defender fires first, then the attacker, round after round, "
                                     "until one side is gone or retreats (5).")
        elif kind == "battle":
            key, gloss = "won", _("The winner may promote one unit that fought (6.a).")
        elif kind == "reinforce":
            key, gloss = "reinforce", _("A reinforcement: from round 2 a unit may join from an adjacent box (5.2.4).")
        elif kind == "retreat" and "withdraws" in english:
            key, gloss = "withdraw", _("A cavalry withdrawal: cavalry attacked by infantry may leave before the "
                                       "battle; nobody wins (5.2.6).")
        elif kind == "retreat":
            key, gloss = "retreat", _("A retreat: the side leaves the battle and loses it (5.2.5).")
        elif kind == "control":
            key, gloss = "control", _("The control update at the end of a half-turn: a box holding units of one side "
                                      "only becomes that side's (9.a); the army maxima follow (9.d).")
        elif kind == "recruit":
            key, gloss = "recruit", _("A recruit: new militia placed in a recruiting city (7.b).")
        elif kind == "promote":
            key, gloss = "promote", _("A promotion: the unit is replaced by a better one (6).")
        elif kind == "roll" and "march roll" in english:
            key, gloss = "march roll", _("The march roll: how many boxes may march this half-turn (4.a).")
        elif kind == "roll" and "recruitment roll" in english:
            key, gloss = "recruit roll", _("The recruitment roll: how many militia may be recruited (7.a).")
        elif kind == "move":
            key, gloss = "move", _("A march: the units move along the lines of the board (4).")
        else:
            key = kind
        if kind != "shot" and key in self._explained:
            gloss = ""
        self._explained.add(key)
        line = f"<div>• {escape(text)}"
        if gloss:
            line += f"<br><i style='color:#6d4c00'>{escape(gloss)}</i>"
        return line + "</div>"

    def _maxima_note(self) -> str | None:
        """The army maxima when they change, and at the end of each half-turn (after its control update)."""
        s = self.session
        new, half = dict(s.army_max), (s.game.state.turn, s.game.phasing.value)
        old, old_half = self._maxima, self._maxima_half
        self._maxima, self._maxima_half = new, half
        if not old or (old == new and old_half == half):
            return None
        parts = [f"{side_word(side)} {old[side]} → {new[side]}" if old[side] != new[side] else
                 f"{side_word(side)} {new[side]}" for side in ("union", "confederate")]
        maxima = ", ".join(parts)
        if old_half == half:
            words = (_("<b>Army maxima</b>: {maxima}.") if old != new else
                     _("<b>Army maxima</b>: {maxima} (unchanged)."))
        else:
            words = (_("<b>Army maxima</b> after the half-turn's control update: {maxima}.") if old != new else
                     _("<b>Army maxima</b> after the half-turn's control update: {maxima} (unchanged)."))
        line = "<div>• " + words.format(maxima=escape(maxima))
        if "maxima" not in self._explained:
            self._explained.add("maxima")
            rule = rulebook.text("7.c", book_language()).split(". ")[0]  # "A player's army maximum is the sum of ..."
            line += (" <i style='color:#6d4c00'>" + escape(_(
                "{rule}: recruiting may not take a side's units on the map above it (7.c, 9.d).").format(rule=rule))
                + "</i>")
        return line + "</div>"

    # ------------------------------------------------------------------ drawing
    def _changed(self, change=None) -> None:
        if self._busy:
            return
        self._busy = True
        try:
            s = self.session
            if self.active:
                log = s.game.log
                if len(log) < self._seen:  # undo or a new game
                    self._seen = len(log)
                for event in log[self._seen:]:
                    if event.kind not in ("turn", "fire", "marches", "combat", "recover", "end"):
                        self.notes.append(self.explain(event))
                self._seen = len(log)
                note = self._maxima_note()
                if note:
                    self.notes.append(note)
                self.notes = self.notes[-MAX_NOTES:]
            self.hint = self.compute_hint() if self.active else None
            if self.hint is not None and self.hint.units:
                self._pick(self.hint)
                self.hint = self.compute_hint()
            self._draw()
        finally:
            self._busy = False

    def _draw(self) -> None:
        s = self.session
        self.starter.layout.display = "none" if self.active else "flex"
        self.body.layout.display = "flex" if self.active else "none"
        hint = self.hint
        style, button = "", None
        if hint is not None and hint.kind == "box":
            style = (f"<style>.ahd-card[data-box=\"{escape(hint.box)}\"] {{ outline: 4px solid {HINT_COLOUR} !important; "
                     f"outline-offset: 3px; animation: ahd-hint-pulse 0.8s ease-in-out infinite alternate; "
                     f"z-index: 1000; }}</style>")
        elif hint is not None and hint.kind == "button":
            button = self._quick_button(s.legal_actions.index(hint.action))
        if button is not self._hinted_button:  # the ring moves only when the button changes (no flicker)
            if self._hinted_button is not None:
                self._hinted_button.remove_class("ahd-hinted")
            if button is not None:
                button.add_class("ahd-hinted")
            self._hinted_button = button
        if style != self.highlight.value:
            self.highlight.value = style
        if not self.active:
            self.text.value = ""
            return
        game = s.game
        if hint is not None:
            step = f"{len(game.history)}-{s.selected}-{len(s.selected_units)}"  # changes with every gesture followed
            head = (f"<div class='ahd-hint' data-step='{escape(step)}' data-kind='{hint.kind}' data-box='{escape(hint.box)}' "
                    f"data-button='{escape(hint.button)}' data-action='{escape(str(hint.action))}'>"
                    + _("<b>Hint:</b> {hint}").format(hint=escape(hint.text))
                    + "<br><span style='font-size:12px;color:#555'>"
                    + escape(_("The game's action: {action}").format(action=str(hint.then or hint.action)))
                    + "</span></div>")
        elif game.is_over:
            head = ("<div class='ahd-hint' data-kind='none'><b>" + escape(_("The game is over.")) + "</b> "
                    + escape(str(game.outcome)) + "</div>")
        elif s.busy or not s.human_to_move:
            head = ("<div class='ahd-hint' data-kind='none'>" + _(
                "<b>The computer is playing</b> the other side: watch the map; what it does is explained below.")
                + "</div>")
        elif game.state.turn > self.turns:
            head = ("<div class='ahd-hint' data-kind='none'>" + _(
                "<b>The guided turns are over:</b> you play on your own now. Every rule cited in the panel opens in "
                "the Rules tab.") + "</div>")
        else:
            head = "<div class='ahd-hint' data-kind='none'>" + escape(_("Your decision.")) + "</div>"
        notes = "".join(self.notes) or "<i>" + escape(_("What happens will be explained here.")) + "</i>"
        self.text.value = ("<div style='font-size:15px'>" + _("<b>Learn by playing</b> — {turn}").format(
                               turn=escape(s.turn_text)) + "</div>"
                           + f"{head}<div style='font-size:13px;margin-top:4px'>"
                           + _("<b>What happened</b> (newest last):") + "</div>"
                           f"<div class='ahd-notes' style='display:flex;flex-direction:column-reverse'>"
                           f"<div>{notes}</div></div>")  # opens on the newest lines
