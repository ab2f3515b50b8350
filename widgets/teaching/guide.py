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

import re
from dataclasses import dataclass
from html import escape
from typing import Any

import ipywidgets as w

from ahd import Game, rulebook
from ahd.bots import make_bot
from ahd.core.actions import (Action, BeginMarch, CavalryRetreat, ChooseBattle, EndMarch, EndMovement, EndRecruitment,
                              Entrench, FireAuto, HoldGround, Invade, Move, NavalMove, NoPromotion, OpenFire, Promote,
                              Recruit, Reinforce, Retreat)
from ahd.core.i18n import Msg, Term, render
from ahd.core.sides import Side
from ahd.odds import odds_for

from widgets.model.gestures import action_box, plan_for
from widgets.model.i18n import _, _n, pct
from widgets.teaching.rules import book_language
from widgets.board.layers import side_word

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


@dataclass(frozen=True)
class Hint:
    """What to do now: the legal ``action`` it leads to and how to play it in the app.

    ``kind``: ``"box"`` (click ``box`` on the map; with ``units`` picked first in the panel's Units list, which
    the guide does for you) or ``"button"`` (press the panel's button labelled ``button``; ``"list"`` when it
    is only in the list of all legal actions). ``then``: for a march not yet begun, the move the click makes."""

    action: Action
    kind: str
    text: str
    box: str = ""
    button: str = ""
    units: tuple[str, ...] = ()
    then: Action | None = None


def _name(game: Game, box: str) -> str:
    """A box's name in the current language's usual form ("Nueva Orleans")."""
    return game.board.local_name(box)


def _kind(unit: Any) -> str:
    """A unit's type in the current language ("militia infantry", "fanteria di milizia")."""
    return render(Term("unit", unit.type.name))


def _distance_to_enemy(game: Game, box: str, side: Side) -> int | None:
    """Links from ``box`` to the nearest box holding enemy units (None if none on the map)."""
    seen, frontier, step = {box}, [box], 0
    while frontier:
        if any(game.units_in(b, side.enemy) for b in frontier):
            return step
        step += 1
        frontier = [n for b in frontier for n in game.board.neighbours(b) if n not in seen and not seen.add(n)]
    return None


def _odds_words(game: Game, action: Action | None, side: Side) -> str:
    """'about 70%' for the side's chance to win the battle (in progress, or the one ``action`` starts)."""
    try:
        result = odds_for(game, action)
    except Exception:  # odds are a help for the sentence, never a reason to fail the hint
        return ""
    if result is None:
        return ""
    battle = game.battle
    in_battle = battle is not None and (action is None or isinstance(action, Reinforce))
    attacker = battle.attacker if in_battle else game.phasing  # a move into enemy units: the phasing side attacks
    p = result.attacker_wins if side is attacker else result.defender_wins
    return _("about {chance}").format(chance=pct(p, 0))


def why(game: Game, action: Action, then: Action | None = None) -> str:
    """One sentence on why the computer player's choice is sensible, from the position (never a rule decided)."""
    side = game.current_player if isinstance(game.current_player, Side) else game.phasing
    state = game.state
    move = then if then is not None else action
    if isinstance(move, (Move, NavalMove, Invade)):
        unit = state.units[move.unit]
        to = move.path[-1] if isinstance(move, Move) else getattr(move, "to", None) or getattr(move, "port", None)
        enemies = game.units_in(to, side.enemy)
        if enemies:
            trial = game
            if isinstance(action, BeginMarch):
                trial = game.copy()
                trial.apply(action)
            chance = _odds_words(trial, move, side)
            if chance:
                return _n("it attacks the {n} enemy unit in {box}: your chance to win that battle is {chance} "
                          "(the odds beside the map).",
                          "it attacks the {n} enemy units in {box}: your chance to win that battle is {chance} "
                          "(the odds beside the map).", len(enemies)).format(
                    n=len(enemies), box=_name(game, to), chance=chance)
            return _n("it attacks the {n} enemy unit in {box}.", "it attacks the {n} enemy units in {box}.",
                      len(enemies)).format(n=len(enemies), box=_name(game, to))
        owner = state.control[to]
        value = game.board[to].value_for(side.enemy) if owner is side.enemy else 0
        if owner is side.enemy and value:
            return _("{box} is an enemy recruiting city with no defenders: holding it at the control update "
                     "takes its recruiting value from the enemy's army maximum (9.a, 9.d).").format(box=_name(game, to))
        if owner is not side:
            return _("it takes {box}, which you do not control, at the next control update (9.a).").format(
                box=_name(game, to))
        near = _distance_to_enemy(game, to, side)
        here = _distance_to_enemy(game, unit.location, side)
        if near is not None and (here is None or near < here):
            return _n("it brings {unit_type} closer to the enemy ({n} box away) to attack later or to guard the front.",
                      "it brings {unit_type} closer to the enemy ({n} boxes away) to attack later or to guard the "
                      "front.", near).format(unit_type=_kind(unit), n=near)
        return _("it moves {unit_type} where the computer player wants it next.").format(unit_type=_kind(unit))
    if isinstance(action, BeginMarch):
        return _("a march moves the units of one box; this box has units the computer player would move now.")
    if isinstance(action, EndMarch):
        return _("this march has done what it should; the march allowance that is left can move another box.")
    if isinstance(action, EndMovement):
        left = game.marches_left
        if left:
            return _n("no further march is worth making now (the {n} unused march lapses, 4.a); the battles come next.",
                      "no further march is worth making now (the {n} unused marches lapse, 4.a); the battles come "
                      "next.", left).format(n=left)
        return _("no further march is worth making now; the battles come next.")
    if isinstance(action, Entrench):
        return _("{unit_type} digs in: an entrenched unit is harder to hit (4.2.5, 5.2.1).").format(
            unit_type=_kind(state.units[action.unit]))
    if isinstance(action, ChooseBattle):
        return _("the battles are fought one by one: {box} first.").format(box=_name(game, action.box))
    if isinstance(action, OpenFire):
        chance = _odds_words(game, None, side)
        return (_("fight on: your chance to win this battle is {chance}.").format(chance=chance) if chance
                else _("fight on."))
    if isinstance(action, FireAuto):
        return _("the game spreads your shots over the enemy units as the rules ask (5.1.a), best shots first.")
    if isinstance(action, Reinforce):
        unit = state.units[action.unit]
        return _("the battle is not safe yet: {unit_type} joins from {box} (5.2.4).").format(
            unit_type=_kind(unit), box=_name(game, unit.location))
    if isinstance(action, Retreat):
        chance = _odds_words(game, None, side)
        if chance:
            return _("the battle is going badly ({chance} to win): retreating to {box} loses the battle but saves the "
                     "units (5.2.5).").format(chance=chance, box=_name(game, action.to))
        return _("the battle is going badly: retreating to {box} loses the battle but saves the units (5.2.5).").format(
            box=_name(game, action.to))
    if isinstance(action, CavalryRetreat):
        return _("cavalry facing infantry may slip away before the battle (5.2.6): to {box}, where it can raid "
                 "again.").format(box=_name(game, action.to))
    if isinstance(action, HoldGround):
        return _("the cavalry stays and fights.")
    if isinstance(action, Promote):
        return _("a promoted {unit_type} fires and holds better; promoting militia also frees a counter for "
                 "recruitment (6).").format(unit_type=_kind(state.units[action.unit]))
    if isinstance(action, NoPromotion):
        return _("no promotion is worth making now.")
    if isinstance(action, Recruit):
        near = _distance_to_enemy(game, action.box, side)
        if near is not None:
            return _n("new militia appear in your recruiting cities; {box} is {n} box from the enemy. (7.b)",
                      "new militia appear in your recruiting cities; {box} is {n} boxes from the enemy. (7.b)",
                      near).format(box=_name(game, action.box), n=near)
        return _("new militia appear in your recruiting cities; {box} is safe. (7.b)").format(
            box=_name(game, action.box))
    if isinstance(action, EndRecruitment):
        return _("the recruits the roll allowed are placed, or none is worth placing (7).")
    return _("it is the computer player's choice here.")


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
        decision = game.decision
        choice = self.bot.choose(game.copy())
        if decision == "movement" and isinstance(choice, BeginMarch):
            if s.selected == choice.origin:
                preview = game.copy()
                preview.apply(choice)
                return self._march_hint(preview, choice.origin, begin=choice)
            return self._begin_hint(game, choice)
        if decision == "movement" and isinstance(choice, (NavalMove, Invade)):
            origin = game.state.units[choice.unit].location
            to = action_box(game, choice)
            if s.selected != origin:
                return Hint(choice, "box", _("Click {origin}, then {box}, to go by sea: {why}").format(
                    origin=_name(game, origin), box=_name(game, to), why=why(game, choice)), box=origin)
            return Hint(choice, "box", _("Click {box}: {why}").format(box=_name(game, to), why=why(game, choice)),
                        box=to)
        if decision == "march" and isinstance(choice, Move):
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
        while trial.decision == "march":
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
