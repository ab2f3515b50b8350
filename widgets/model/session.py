"""The session: one game, its players and everything the views show, as traitlets.

Views observe the session's traits and redraw; every gesture (a click on the map, a button) is
turned into an engine action and handed to :meth:`Session.act`. Errors raised by a callback are
caught by :func:`guarded`, shown in ``status`` and logged; the session keeps working.
"""
from __future__ import annotations

import asyncio
import difflib
import functools
import logging
import os
import time
from pathlib import Path, PurePosixPath, PureWindowsPath
from typing import Any, Callable

from traitlets import Bool, Dict, HasTraits, Int, List, Unicode

import ahd
from ahd import Game
from ahd.core.actions import Action, Invade, Move, NavalMove, Recruit, Roll
from ahd.bots import choose as choose_action
from ahd.bots import make_bot, plan_of
from ahd.core.errors import AhdError, IllegalActionError
from ahd.odds import BattleOdds, not_modelled, odds_for, war_odds
from ahd.core.i18n import Term
from ahd.core.replay import Replay
from ahd.core.sides import CHANCE, Side

from widgets.model.gestures import (DECISION_WORDS, Plan, action_box, decision_words, die_owner,  # noqa: F401
                       plain_refusal, plan_for, recruitment_end_reason, refusal_for)
from widgets.model.i18n import N_, _, _n, get_language, num, render

log = logging.getLogger("widgets")

PLAYERS = ("human", "easy", "normal", "hard", "random", "heuristic", "search")  # ahd.bots.PLAYERS and a person
#: The players' names as the menus say them.
PLAYER_WORDS = {"human": N_("human"), "easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"),
                "random": N_("random"), "heuristic": N_("heuristic"), "search": N_("search")}
#: the longest a bot may think over one decision in the app (``ahd.bots.choose``'s should_stop)
THINK_SECONDS = 2.0
PROMPTS = {
    "movement": N_("Click one of your boxes to march from it (or a naval move), or end movement."),
    "march": N_("Click a lit box to move the selected units there; entrench or end the march in the panel."),
    "choose_battle": N_("Click a box with a battle marker to fight that battle next."),
    "cavalry_retreat": N_("The defender's cavalry may retreat: click a lit box, or hold its ground."),
    "battle_options": N_("Open fire, retreat (click a lit box), reinforce (click a lit box) or evacuate."),
    "targets": N_("Choose a target for each unit in the panel, or fire automatically."),
    "battle_promotion": N_("The winner may promote one unit that fought: click its box or choose in the panel."),
    "promotion": N_("Promote units: click their boxes or choose in the panel; then stop promoting."),
    "recruitment": N_("Click a lit recruiting city to place a recruit there; end recruitment when done."),
    "supply": N_("Out of supply (A-2): click a box, or choose in the panel, which unit of each unsupplied stack is lost."),
    "leader_arrival": N_("Place the arriving leader (AO-8.2): click a lit box."),
    "containment": N_("Contain the invaders or fight them (A-4): choose in the panel."),
    "firers": N_("Choose which units fire today (A-7), up to your command, in the panel."),
    "leader_points": N_("Give each leader point to a unit in the battle (AO-8.2.2) in the panel."),
    "rally": N_("Rally routed units (AO-8.11) in the panel."),
    "rout_retreat": N_("The routed units retreat (AO-8.1): click a lit box."),
    "leader_return": N_("Place the returning leader (AO-8.2): click a lit box."),
    "over": N_("The game is over."),
}


#: Gestures refused while the computer plays (``Session.busy``): the human's next click must not land in its move.
WAIT_FOR_COMPUTER = {"click_box", "toggle_unit", "act", "act_index", "roll", "set_dice", "undo", "bot_step",
                     "bot_half_turn"}


def guarded(method: Callable) -> Callable:
    """Run a gesture; a refused action or any error goes to ``status`` and the log, never lost. A gesture
    that succeeds without saying anything clears the status line, so an old refusal never stays on screen."""

    @functools.wraps(method)
    def wrapper(self: "Session", *args: Any, **kwargs: Any) -> Any:
        said = self._said
        try:
            if self.busy and method.__name__ in WAIT_FOR_COMPUTER:
                raise IllegalActionError("3.a", _("the computer is playing for the {side} side: wait until it "
                                                  "has finished").format(side=self.playing))
            result = method(self, *args, **kwargs)
            if self._said == said and self.status:
                self._inform("")
            return result
        except IllegalActionError as exc:
            refused = exc  # said again in another language by the app's menu (Session.say_again)
            exc = plain_refusal(exc)
            self._said += 1
            self._say(lambda: _("Not allowed: {reason}").format(reason=plain_refusal(refused).text(get_language())),
                      "refused", exc.rule)
        except AhdError as exc:
            refused = exc
            self._said += 1
            self._say(lambda: _("Cannot do that: {reason}").format(reason=refused), "refused", "")
        except Exception as exc:  # a bug: show it, log it, keep the session alive
            log.exception("error in %s", method.__name__)
            self._said += 1
            self._status_again = None
            self.status = _("Error in {where}: {error}").format(where=method.__name__,
                                                               error=f"{type(exc).__name__}: {exc}")
            self.status_kind, self.status_rule = "error", ""
        return None

    return wrapper


def box_summary(game: Game, box_id: str) -> dict[str, Any]:
    """Everything about a box a reader may want, as plain values (for tooltips and tests)."""
    box = game.board[box_id]
    controller = game.controller(box_id)
    units = [{"id": u.id, "side": u.side.value, "type": u.type.code, "name": u.type.name,
              "reduced": u.is_reduced, "entrenched": game.is_entrenched(u.id), "routed": bool(u.routed)}
             for u in game.units_in(box_id)]
    leaders = [{"name": leader.title, "side": leader.side.value, "value": leader.value}
               for leader in game.state.leaders.values() if leader.location == box_id]
    battle = game.battle
    return {
        "id": box.id, "name": box.name, "state": box.state,
        "controller": controller.value if controller else "neutral",
        "cavalry_held": game.is_cavalry_held(box_id),
        "union_value": box.blue_value, "confederate_value": box.red_value,
        "port": box.port, "fort": box.fort, "units": units, "leaders": leaders,
        "battle": bool(battle is not None and battle.box == box_id) or box_id in game.state.battles,
    }


class Session(HasTraits):
    """A game being played (or watched) with its traits. Make one with :func:`widgets.play`."""

    # the position
    version = Int(0, help="bumped after every change of the game")
    scenario = Unicode()
    turn = Int()
    turn_text = Unicode()
    side_to_move = Unicode(help="'union', 'confederate', 'chance' or '' once the game is over")
    phasing = Unicode()
    decision = Unicode()
    prompt = Unicode()
    marches_left = Int()
    dice = Unicode("auto")
    dice_text = Unicode()
    army_max = Dict()
    outcome = Unicode()
    log_lines = List(Unicode())
    legal = List(Unicode(), help="the current decision's legal actions, as readable text")
    # players
    union = Unicode("human")
    confederate = Unicode("human")
    # selection and the map's offer
    selected = Unicode("", help="the selected box ('' for none)")
    selected_units = List(Unicode())
    destinations = List(Unicode(), help="boxes a click would act on now")
    hovered = Unicode("")
    hover_role = Unicode("", help="""What a click on the hovered box would do, for the map's hover ring (it must never
        look like the lit ring of `destinations`, the legal targets):
        ''  no box is hovered;
        'act'     the box is lit: a click plays its action (draw the hover ring over the lit ring, e.g. thicker);
        'select'  a click selects this box (one of your boxes to march from);
        'none'    a click there would be refused: draw a plain thin outline, never the lit colour.""")
    info = Dict(help="box_summary of the hovered or selected box")
    # feedback
    status = Unicode()
    status_rule = Unicode()
    status_kind = Unicode("info", help="'info', 'refused' or 'error'")
    busy = Bool(False, help="True while the computer plays its decisions one by one, `pace` seconds apart: "
                            "gestures are refused meanwhile and the panel's controls are disabled")
    playing = Unicode("", help="while busy: the side the computer is playing for, e.g. 'Confederate'")
    typed_dice = Unicode("mine", help="with typed-in dice (dice == 'manual'): 'mine', only the dice of the sides "
                                      "people play (the computer rolls its own), or 'all'")
    # charts
    considered = Unicode("", help="the action whose odds are shown")
    battle_odds = Dict(help="the considered battle's odds: win chances, expected survivors and, for exact odds, "
                            "attacker_left / defender_left = [P(0 units left), P(1), ...]")
    war_odds = List(help="[(x, p_union, low, high)] per half-turn")
    army_history = List(help="[(x, union max, confederate max)] per half-turn")

    def __init__(self, game: Game | None = None, *, union: str = "human", confederate: str = "human",
                 bot_seed: int = 1, war_odds: bool = True, pace: float = 0.5,
                 scheduler: Callable[[float, Callable[[], None]], Any] | None = None) -> None:
        """``pace``: seconds between the computer's decisions when it plays after a gesture (0: all at once).
        Pacing needs an event loop (a Jupyter kernel has one) or a ``scheduler(delay, callback)``; without
        either, as in scripts and tests, the computer plays at once."""
        super().__init__()
        self._said = 0  # bumped whenever the status line is written
        self._status_again: Callable[[], str] | None = None  # the status line's words, to say in another language
        self.game = game if game is not None else ahd.new_game("1861")
        self.bot_seed = bot_seed
        self.show_war_odds = war_odds
        self.pace = pace
        self.scheduler = scheduler
        self._generation = 0  # bumped to cancel the computer's pending steps (new game, load)
        self._stand_in: tuple[tuple[int, str], Any] | None = None  # (half-turn, bot) playing for a human side
        self._bots: dict[Side, Any] = {}
        self._bot_plans: dict[Any, str] = {}  # each bot's last plan said
        self._plan_lines: list[tuple[int, tuple[Side, str]]] = []  # (events in the log then, (side, plan))
        self._plan = Plan()
        self._considered: tuple[Game, Action, Callable[[], str]] | None = None  # (position, action, its label)
        self._timeline: dict[tuple[int, str], tuple] = {}
        self._marks: list[int] = []  # recorded actions before each gesture, for undo
        self._frozen_timeline = False  # a replay charts its whole record
        self.set_players(union, confederate)
        self._rebuild_timeline()
        self.refresh()

    def _inform(self, text: str | Callable[[], str]) -> None:
        """Say what a gesture did, in the status line: a text, or a function that says it in the current
        language (then the app's language menu says it again, :meth:`say_again`)."""
        self._said += 1
        self._say(text, "info", "")

    def _say(self, text: str | Callable[[], str], kind: str, rule: str) -> None:
        self._status_again = text if callable(text) else None
        self.status, self.status_kind, self.status_rule = (text() if callable(text) else text), kind, rule

    def say_again(self) -> None:
        """The status line in the current language (after the app's language changed), when it can be."""
        if self._status_again is not None:
            self.status = self._status_again()

    # ================================================================== reading
    @property
    def legal_actions(self) -> list[Action]:
        """The actions behind ``legal``, in the same order."""
        return self.game.legal_actions()

    def actions_at(self, box_id: str) -> list[Action]:
        """Listed actions played on ``box_id`` (destinations of the selection first)."""
        if box_id in self._plan.orders:
            return list(self._plan.orders[box_id].values())
        return [a for a in self.legal_actions
                if action_box(self.game, a) == box_id and not isinstance(a, (Move, NavalMove, Invade))]

    def player_of(self, side: Side | str) -> str:
        return self.union if Side.parse(side) is Side.UNION else self.confederate

    @property
    def human_to_move(self) -> bool:
        player = self.game.current_player
        return isinstance(player, Side) and self.player_of(player) == "human"

    # ================================================================== gestures
    @guarded
    def click_box(self, box_id: str) -> None:
        """The map's click: select, act on the box, or say why nothing can be done there."""
        game = self.game
        if box_id not in game.board:
            raise IllegalActionError("0.4", _("there is no box {box}").format(box=repr(box_id)))
        if game.is_over:
            raise IllegalActionError("11.c", _("the game is over: {outcome}").format(outcome=game.outcome))
        if game.current_player == CHANCE:
            raise IllegalActionError("0.3", _("roll the die first: {purpose}").format(purpose=game.pending_roll))
        if self._classmates_move():
            raise IllegalActionError("3.a", _("it is your classmate's move ({side}): your page shows it when it is "
                                              "made").format(side=render(game.current_player)))
        if not self.human_to_move:
            raise IllegalActionError("3.a", _("it is the {side} bot's turn: press 'Let the bot move'").format(
                side=render(self.game.current_player)))
        if box_id in self._plan.orders:
            self._order_to(box_id)
            return
        decision = game.decision
        if decision in ("movement", "march") and self._selectable(box_id):
            if self.selected == box_id and decision == "movement":
                self._select("")
                self._inform(lambda: _("Nothing selected."))
            else:
                self._select(box_id)
                self._inform(self._selection_text)
            self.refresh()
            return
        here = self.actions_at(box_id)
        if len(here) == 1:
            self.act(here[0])
            return
        if len(here) > 1:
            self._select(box_id)
            count = len(here)
            self._inform(lambda: _("{n} choices in {box}: pick one in the panel.").format(
                n=count, box=game.board.local_name(box_id)))
            self.refresh()
            return
        raise refusal_for(game, box_id, self._plan)

    @guarded
    def cancel_selection(self) -> None:
        """Escape on the map: drop the selected box (and the units picked in it)."""
        if self.selected:
            self._select("")
            self._inform(lambda: _("Nothing selected."))
            self.refresh()

    def _classmates_move(self) -> bool:
        """In a game with a classmate (widgets.classmates.multiplayer): the side to move is the classmate's, not this page's
        (whatever this page's player menus say about that side)."""
        player = self.game.current_player
        return isinstance(player, Side) and not getattr(self.game, "plays_for", lambda side: True)(player)

    def _movers(self) -> list[str]:
        """The units a click on a lit box would move now: those picked, else every unit of the plan."""
        units = {unit for orders in self._plan.orders.values() for unit in orders}
        return [u.id for u in self.game.units_in(self.selected) if u.id in units]

    def _selection_text(self) -> str:
        """What a click on a lit box will move, and how to move fewer."""
        game = self.game
        name = game.board.local_name(self.selected)
        movers = self._movers()
        if not movers:
            return _("{box} selected: none of its units can move now.").format(box=name)
        every = len(game.units_in(self.selected, game.phasing))
        labels = ", ".join(render(Term("unit", game.unit(u).type.name)) for u in movers)
        if self.selected_units:
            text = _("{n} of {every} units of {box} picked ({labels}): a click on a lit box moves only them.").format(
                n=len(movers), every=every, box=name, labels=labels)
        else:
            if len(movers) == 2:  # "both", not "all 2" ("entrambe", "las dos")
                text = _("{box} selected: a click on a lit box moves both units that can go ({labels}).").format(
                    box=name, labels=labels)
            else:
                text = _n("{box} selected: a click on a lit box moves all {n} unit that can go ({labels}).",
                          "{box} selected: a click on a lit box moves all {n} units that can go ({labels}).",
                          len(movers)).format(box=name, n=len(movers), labels=labels)
            if len(movers) > 1:
                text += " " + _("To move fewer, pick them in the panel's Units list first.")
        if len(movers) == every and game.board[self.selected].value_for(game.phasing) > 0 and not self.selected_units:
            text += " " + _("{box} would be left empty.").format(box=name)
        return text

    def _selectable(self, box_id: str) -> bool:
        game = self.game
        if game.decision == "march":
            return box_id == game.march_origin
        return box_id in self._plan_origins()

    def _plan_origins(self) -> set[str]:
        return {action_box(self.game, a) for a in self.legal_actions
                if action_box(self.game, a) is not None and type(a).__name__ == "BeginMarch"} | {
            self.game.state.units[a.unit].location for a in self.legal_actions if isinstance(a, (NavalMove, Invade))}

    def _select(self, box_id: str) -> None:
        self.selected = box_id
        self.selected_units = []
        self._considered = None
        self._make_plan()

    def _make_plan(self) -> None:
        units = tuple(self.selected_units)
        self._plan = plan_for(self.game, self.selected or None, units)

    @guarded
    def toggle_unit(self, unit_id: str) -> None:
        """Pick (or unpick) one unit of the selected box to move; none picked moves every unit that can."""
        if unit_id not in {u.id for u in self.game.units_in(self.selected)} if self.selected else True:
            raise IllegalActionError("4.b", _("{unit} is not in the selected box").format(unit=unit_id))
        units = list(self.selected_units)
        units.remove(unit_id) if unit_id in units else units.append(unit_id)
        self.selected_units = units
        self._make_plan()
        self._inform(self._selection_text)
        self.refresh()

    def _order_to(self, box_id: str) -> None:
        """Move the picked units (or all that can) from the selected box to ``box_id``."""
        orders = list(self._plan.orders[box_id].values())
        game = self.game
        mark = len(game.history)
        self._marks.append(mark)
        if self.game.decision == "movement" and isinstance(orders[0], Move):
            game.apply(ahd.BeginMarch(self._plan.origin))
        moved = 0
        for order in orders:
            # each order is re-checked: an earlier one may have changed what is legal
            if isinstance(order, Move):
                candidates = [a for a in game.legal_actions()
                              if isinstance(a, Move) and a.unit == order.unit and a.path[-1] == box_id]
                order = min(candidates, key=lambda a: len(a.path)) if candidates else order
            if game.why_not(order) is None:
                game.apply(order)
                moved += 1
                if game.decision != "march" and isinstance(order, Move):
                    break
            if isinstance(order, (NavalMove, Invade)):
                break  # one unit by sea per click
        if moved == 0:
            self._undo_to(self._marks.pop())
            raise game.why_not(orders[0]) or IllegalActionError("4.b", _("no unit could make that move"))
        origin = self._plan.origin
        left = len(game.units_in(origin, game.phasing)) if origin else 0
        board = game.board

        def said() -> str:
            moved_text = _n("Moved {n} unit to {box}", "Moved {n} units to {box}", moved).format(
                n=moved, box=board.local_name(box_id))
            if origin and not left:
                rest = _("; {box} is now empty.").format(box=board.local_name(origin))
            elif origin:
                rest = _n("; {n} stays in {box}.", "; {n} stay in {box}.", left).format(
                    n=left, box=board.local_name(origin))
            else:
                rest = "."
            return moved_text + rest

        self._inform(said)
        if game.decision == "march":
            self.selected = game.march_origin
            self.selected_units = []
        else:
            self.selected = ""
        self._after_change()

    @guarded
    def act(self, action: Action) -> None:
        """Hand one action to the engine (refused actions change nothing and are explained)."""
        mark = len(self.game.history)
        ending = recruitment_end_reason(self.game, action) if isinstance(action, Recruit) else None
        limit, placed = self.game.state.recruit_limit, self.game.state.recruits_placed + 1
        self.game.apply(action)
        self._marks.append(mark)
        if ending and placed >= limit:
            self._inform(_("Done: {action}. Recruitment is over: {why}.").format(action=action, why=ending))
        elif ending:
            self._inform(_("Done: {action}. Recruitment is over after {placed} of the {limit} recruits the die "
                           "allowed: {why}.").format(action=action, placed=placed, limit=limit, why=ending))
        else:
            self._inform(lambda: _("Done: {action}").format(action=action))
        self._after_change()

    @guarded
    def act_index(self, index: int) -> None:
        """Play the ``index``-th entry of ``legal`` (the panel's buttons)."""
        actions = self.legal_actions
        if not 0 <= index < len(actions):
            raise IllegalActionError("3.a", _("there is no legal action number {index}").format(index=index))
        self.act(actions[index])

    @guarded
    def consider(self, action: Action | None) -> None:
        """Show the odds of the battle ``action`` would start or change (None: the battle as it stands)."""
        self._considered = None if action is None else (self.game, action, lambda: str(action))
        self._update_battle_odds()

    @guarded
    def roll(self, value: int | None = None) -> None:
        """Resolve the pending die with a typed-in ``value`` (real dice) or from the game's generator."""
        mark = len(self.game.history)
        rolled = self.game.roll(value)
        self._marks.append(mark)
        self._inform(lambda: _("Rolled {value}.").format(value=rolled))
        self._after_change()

    @guarded
    def set_dice(self, mode: str) -> None:
        """'auto' (the computer rolls every die), 'manual' (type in the dice of the sides people play; the
        computer rolls its own) or 'all' (type in every die, the computer's too)."""
        if mode not in ("auto", "manual", "all"):
            raise AhdError(_("unknown dice mode {mode}: expected 'auto', 'manual' or 'all'").format(mode=repr(mode)))
        self.typed_dice = "all" if mode == "all" else "mine"
        self.game.dice = "auto" if mode == "auto" else "manual"
        self._after_change()

    @guarded
    def undo(self) -> None:
        """Take back the last gesture: a click's march with its orders, a button, a die, a bot's
        half-turn, with the bot decisions that followed it."""
        game = self.game
        if not game.can_undo():
            raise AhdError(_("nothing to undo"))
        before = len(game.history)
        while self._marks and self._marks[-1] >= before:
            self._marks.pop()
        if self._marks:
            self._undo_to(self._marks.pop())
        else:  # a loaded game: one decision at a time
            game.undo()
        taken = before - len(game.history)
        self._inform(lambda: _n("Took back {n} recorded action.", "Took back {n} recorded actions.", taken).format(n=taken))
        self._select("")
        self._trim_timeline()
        self._after_change(run_bots=False)

    def _undo_to(self, mark: int) -> None:
        game = self.game
        while len(game.history) > mark and game.can_undo():
            game.undo()

    @guarded
    def set_players(self, union: str, confederate: str) -> None:
        for name in (union, confederate):
            if name not in PLAYERS:
                near = difflib.get_close_matches(str(name).lower(), PLAYERS, n=1, cutoff=0.5)
                hint = (_("did you mean {name}?").format(name=repr(near[0])) if near else
                        _("expected one of {names}").format(names=", ".join(PLAYERS)))
                raise ValueError(_("unknown player {name}; {hint}").format(name=repr(name), hint=hint))
        self.union, self.confederate = union, confederate
        self._bots = {side: make_bot(name, seed=self.bot_seed + i)
                      for i, (side, name) in enumerate(((Side.UNION, union), (Side.CONFEDERATE, confederate)))
                      if name != "human"}

    @guarded
    def bot_step(self, limit: int = 10_000) -> None:
        """Let the bots make their decisions until a human must decide (or the game ends), at once."""
        self._run_bots(limit)
        self.refresh()

    @guarded
    def bot_half_turn(self, paced: bool = False) -> None:
        """Let a bot (the heuristic one if this side is human) play the rest of this half-turn; the bots
        then answer. ``paced`` (the panel's button): one decision every ``pace`` seconds, if pacing is possible."""
        game = self.game
        self._marks.append(len(game.history))
        self._stand_in = (self._key(), make_bot("heuristic", seed=self.bot_seed + 7))
        self._select("")
        if paced and self._start_computer():
            return
        self._run_bots()
        self._stand_in = None
        self._inform(lambda: _("The bot played the half-turn."))
        self._after_change()

    @guarded
    def play_computer(self) -> None:
        """Let the computer make the decisions it has now (after the players changed): paced in a kernel,
        at once elsewhere. While it already plays, nothing to do: it reads the new players at its next step."""
        if not self.busy:
            self._after_change()

    # ------------------------------------------------------------ the computer's decisions
    def _computer_choice(self) -> Any:
        """Who decides now for the computer: a bot, 'roll' (a die it rolls), or None (a person decides)."""
        game = self.game
        if game.is_over:
            return None
        stand_in = self._stand_in[1] if self._stand_in and self._stand_in[0] == self._key() else None
        player = game.current_player
        deciding = (die_owner(game) or game.phasing) if player == CHANCE else player
        if not getattr(game, "plays_for", lambda side: True)(deciding):
            return None  # a game shared with a classmate (widgets.classmates.multiplayer): the other side's decisions are theirs
        if player == CHANCE:
            owner = die_owner(game)
            if stand_in is not None or self.typed_dice != "all" and owner is not None and owner in self._bots:
                return "roll"
            return None
        return self._bots.get(player) or stand_in

    def _computer_step(self) -> bool:
        """Make the computer's next decision, if it has one; True if it did."""
        choice = self._computer_choice()
        if choice is None:
            return False
        if choice == "roll":
            self.game.roll()
        else:
            generation, deadline = self._generation, time.perf_counter() + THINK_SECONDS
            action = choose_action(choice, self.game, should_stop=lambda: generation != self._generation
                                   or time.perf_counter() > deadline)
            text = plan_of(choice)
            if text is not None and self._bot_plans.get(choice) != text:  # "plan" lines: shown, not recorded
                self._bot_plans[choice] = text
                self._plan_lines.append((len(self.game.log), (self._deciding_side(), text)))
            self.game.apply(action)
        self._note_half_turn()
        return True

    def plans_said(self) -> list[tuple[int, str]]:
        """The bots' plan lines (not part of the record) with the number of log events before each, each line
        said in the current language now; lines past an undo are gone."""
        events = len(self.game.log)
        self._plan_lines = [(i, line) for i, line in self._plan_lines if i <= events]
        return [(i, _("plan: {side}: {plan}").format(side=render(side), plan=text))
                for i, (side, text) in self._plan_lines]

    def _log_with_plans(self) -> list[str]:
        """The game's log with the bots' plan lines where they were said, in the current language."""
        events, plans = [str(e) for e in self.game.log], self.plans_said()
        out, k = [], 0
        for i, event in enumerate(events):
            while k < len(plans) and plans[k][0] <= i:
                out.append(plans[k][1])
                k += 1
            out.append(event)
        return out + [line for _, line in plans[k:]]

    def _run_bots(self, limit: int = 10_000) -> int:
        done = 0
        while done < limit and self._computer_step():
            done += 1
        return done

    def _schedule(self) -> Callable[[float, Callable[[], None]], Any] | None:
        """How to call back later: the given scheduler, else the running event loop (a kernel's), else None."""
        if self.scheduler is not None:
            return self.scheduler
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return None
        return loop.call_later

    @property
    def _delay(self) -> float:
        """Seconds before the computer's next decision: ``pace`` if a person plays, a fifth of it between bots."""
        return self.pace if "human" in (self.union, self.confederate) else self.pace / 5

    def _start_computer(self) -> bool:
        """Start the computer's paced play if it is to decide and pacing is possible; True if started."""
        schedule = self._schedule() if self.pace > 0 else None
        if schedule is None or self._computer_choice() is None:
            return False
        self._generation += 1
        with self.hold_trait_notifications():
            self.playing = render(self._deciding_side())
            self.busy = True
        self.refresh()
        generation = self._generation
        schedule(self._delay, lambda: self._computer_tick(generation))
        return True

    def _computer_tick(self, generation: int) -> None:
        """One paced decision of the computer; the next is scheduled, or the human's turn comes back."""
        if generation != self._generation or not self.busy:
            return  # cancelled: a new game or a loaded one
        try:
            self._computer_step()
            more = self._computer_choice() is not None
        except Exception as exc:  # a bug: show it, hand the game back
            log.exception("error while the computer played")
            more = False
            self._said += 1
            self._say(_("Error while the computer played: {error}").format(error=exc), "error", "")
        if more:
            self.playing = render(self._deciding_side())
            self.refresh()
            self._schedule()(self._delay, lambda: self._computer_tick(generation))
            return
        self._stop_computer()
        if self.status_kind != "error":
            over = self.game.is_over
            self._inform(lambda: _("The computer has played: your turn.") if not over else _("The game is over."))
        self._after_change(run_bots=False)

    def _deciding_side(self) -> Side:
        player = self.game.current_player
        return (die_owner(self.game) or self.game.phasing) if player == CHANCE else player

    def _stop_computer(self) -> None:
        self._generation += 1
        self._stand_in = None
        with self.hold_trait_notifications():
            self.busy = False
            self.playing = ""

    # ================================================================== files
    @guarded
    def save(self, path: str | Path) -> None:
        self.game.save(path)
        self._inform(lambda: _("Saved to {path}.").format(path=path))

    @guarded
    def save_to(self, files: "GameFiles", name: str) -> None:
        """Save as ``name`` in the games folder of ``files`` (a name leading outside it is refused)."""
        path = files.path(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        self.game.save(path)
        self._inform(lambda: _("Saved to {path}.").format(path=path))

    @guarded
    def load_from(self, files: "GameFiles", name: str) -> None:
        """Load ``name`` from the games folder of ``files`` (a name leading outside it is refused)."""
        self._load_game(ahd.load(files.path(name)))

    def to_json(self) -> str:
        return self.game.to_json()

    @guarded
    def load(self, path_or_text: str | Path | bytes) -> None:
        """Load a saved game from a path or from the file's text (a bad file is explained, not raised)."""
        if isinstance(path_or_text, bytes) or (isinstance(path_or_text, str) and path_or_text.lstrip().startswith("{")):
            game = Game.from_json(path_or_text)
        else:
            game = ahd.load(path_or_text)
        self._load_game(game)

    def _load_game(self, game: Game) -> None:
        self._stop_computer()
        self.game = game
        self._marks = []
        self._plan_lines, self._bot_plans = [], {}
        self._select("")
        self._rebuild_timeline()
        turn = game.turn
        self._inform(lambda: _("Loaded a {scenario} game at {turn}.").format(scenario=game.scenario.id, turn=turn))
        self._after_change(run_bots=False)

    @guarded
    def new_game(self, scenario: str = "1861", options: Any = None, seed: int | None = None) -> None:
        self._stop_computer()
        self.game = ahd.new_game(scenario, options=options, seed=seed, dice=self.dice)
        self._marks = []
        self._plan_lines, self._bot_plans = [], {}
        self._select("")
        self._rebuild_timeline()
        self._inform(lambda: _("New {scenario} game.").format(scenario=scenario))
        self._after_change()

    # ================================================================== refreshing
    def _after_change(self, run_bots: bool = True) -> None:
        self._considered = None
        if run_bots and not self._start_computer():
            self._run_bots()
        self._note_half_turn()
        if self.selected and not self._selectable(self.selected) and not self.actions_at(self.selected):
            self.selected = ""
        self._make_plan()
        self.refresh()

    def refresh(self) -> None:
        """Recompute every trait from the game (one notification burst)."""
        game = self.game
        self._note_half_turn()
        with self.hold_trait_notifications():
            player = game.current_player
            self.scenario = game.scenario.id
            self.turn = game.state.turn
            self.turn_text = str(game.turn)
            self.side_to_move = "" if player is None else str(player)
            self.phasing = game.phasing.value
            self.decision = game.decision
            self.prompt = self._prompt()
            self.marches_left = game.marches_left
            self.dice = game.dice
            self.dice_text = self._dice_text()
            self.army_max = {"union": game.army_max(Side.UNION), "confederate": game.army_max(Side.CONFEDERATE)}
            self.outcome = str(game.outcome) if game.outcome else ""
            self.log_lines = self._log_with_plans()
            self.legal = [str(a) for a in self.legal_actions]
            self.destinations = self._plan.destinations if self._plan.orders else sorted(
                {b for a in self.legal_actions if (b := action_box(game, a)) is not None
                 and not isinstance(a, (Move, NavalMove, Invade)) and type(a).__name__ != "BeginMarch"})
            focus = self.hovered or self.selected
            self.info = box_summary(game, focus) if focus else {}
            self.hover_role = self._hover_role()
            points = [self._timeline[k] for k in sorted(self._timeline)]
            self.army_history = [(x, u, c) for x, u, c, _ in points]
            self.war_odds = [(x, *w) for x, _, _, w in points if w is not None]
            self._update_battle_odds()
            self.version += 1

    def hover(self, box_id: str) -> None:
        """The mouse is over ``box_id``: show its state; over a lit destination, the odds of going there."""
        self.hovered = box_id if box_id in self.game.board else ""
        self.hover_role = self._hover_role()
        focus = self.hovered or self.selected
        self.info = box_summary(self.game, focus) if focus else {}
        if self.hovered in self._plan.orders:
            self._consider_orders(self.hovered)

    def _hover_role(self) -> str:
        box = self.hovered
        if not box:
            return ""
        if self.busy or not self.human_to_move:
            return "none"
        if box in self.destinations:
            return "act"
        return "select" if self.game.decision in ("movement", "march") and self._selectable(box) else "none"

    def _consider_orders(self, box_id: str) -> None:
        """Odds of the attack the selected units would make by a click on ``box_id`` (None if no battle)."""
        orders = list(self._plan.orders[box_id].values())
        trial = (self._plan.preview or self.game).copy()
        for order in orders[:-1]:
            if trial.why_not(order) is None:
                trial.apply(order)
        count, board = len(orders), self.game.board
        self._considered = (trial, orders[-1], lambda: _n("{n} unit to {box}", "{n} units to {box}", count).format(
            n=count, box=board.local_name(box_id)))
        self._update_battle_odds()

    def _prompt(self) -> str:
        game = self.game
        if game.is_over:
            return _("Game over. {outcome}").format(outcome=game.outcome)
        player = game.current_player
        if self.busy:
            return _("Watch the map: the computer's moves appear one by one; your controls come back when it is done.")
        if player == CHANCE:
            return _("Roll the die: {purpose}.").format(purpose=game.pending_roll)
        who = render(player)
        if self._classmates_move():
            return _("{side} to move: your classmate decides; their moves appear here as they make them.").format(
                side=who)
        if self.player_of(player) != "human":
            bot = self.player_of(player)
            return _("{side} ({player} bot) to move: press 'Let the bot move'.").format(side=who, player=_(PLAYER_WORDS.get(bot, bot)))
        prompt = PROMPTS.get(game.decision)
        return _("{side} to move. {prompt}").format(side=who, prompt=_(prompt) if prompt else "")

    def _dice_text(self) -> str:
        rolls = [a for a in self.game.history if type(a).__name__ == "Roll"]
        parts = []
        if self.game.march_roll is not None:
            parts.append(_("march roll {value}").format(value=self.game.march_roll))
        if rolls:
            parts.append(_("last die {value}").format(value=rolls[-1].value))
        if self.game.dice != "manual":
            parts.append(_("dice rolled by the computer"))
        else:
            parts.append(_("every die typed in") if self.typed_dice == "all" else _("your dice typed in"))
        return "; ".join(parts)

    def _update_battle_odds(self) -> None:
        game = self.game
        position, action, text = self._considered or (game, None, "")
        text = text() if callable(text) else text  # the considered attack, said in the current language
        result = None
        if not game.is_over and (action is not None or game.battle is not None):
            result = odds_for(position, action)
        if result is None:
            self.battle_odds = {}
            self.considered = ""
            return
        exact = isinstance(result, BattleOdds)
        battle = position.battle
        if battle is not None and action is None:
            label = _("Battle of {box}, round {round}").format(box=game.board.local_name(battle.box), round=battle.round)
            attacker = battle.attacker
        else:
            label = text
            attacker = position.phasing
        survivors = (result.expected_survivors("attacker"), result.expected_survivors("defender")) if exact else (
            result.expected_survivors["attacker"], result.expected_survivors["defender"])
        left = {side: _left_distribution(result, side) if exact else [] for side in ("attacker", "defender")}
        self.considered = text
        self.battle_odds = {
            "label": label, "attacker": attacker.value, "defender": attacker.enemy.value,
            "attacker_wins": result.attacker_wins, "defender_wins": result.defender_wins,
            "neither": result.neither, "expected_rounds": result.expected_rounds,
            "attacker_survivors": survivors[0], "defender_survivors": survivors[1],
            "attacker_left": left["attacker"], "defender_left": left["defender"],
            "method": "exact" if exact else _("simulated ({n} battles)").format(n=num(result.n)),
            "not_modelled": not_modelled(game.options, result.method),
        }

    # ------------------------------------------------------------ the war's timeline
    def _key(self, end: bool = False) -> tuple[int, str]:
        """The timeline's key of the current half-turn ("0" Union, "1" Confederate; "0e"/"1e" its end)."""
        return (self.game.state.turn, ("0" if self.game.phasing is Side.UNION else "1") + ("e" if end else ""))

    def _note_half_turn(self) -> None:
        """A point at the start of each half-turn, and one more where the game ended (HalfTurnPoint.end)."""
        if self._frozen_timeline:
            return
        game = self.game
        for end in (False, True) if game.is_over else (False,):
            key = self._key(end)
            if key not in self._timeline:
                x = key[0] + (0.5 if key[1].startswith("1") else 0.0) + (0.5 if end else 0.0)
                self._timeline[key] = (x, game.army_max(Side.UNION), game.army_max(Side.CONFEDERATE),
                                       self._war_point(game))

    def _war_point(self, game: Game) -> tuple[float, float, float] | None:
        """The live war odds (p, low, high) of a position, or None when the chart is off."""
        if not self.show_war_odds:
            return None
        result = war_odds(game)
        return (result.p_union, result.low, result.high)

    def _trim_timeline(self) -> None:
        key = self._key()
        self._timeline = {k: v for k, v in self._timeline.items() if k < key}

    def _rebuild_timeline(self) -> None:
        """The timeline of a loaded game, from its record (war odds at each past half-turn too)."""
        self._timeline = {}
        if self.game.history:
            self.show_timeline(Replay(self.game), upto_now=True)

    def show_timeline(self, replay: Replay, upto_now: bool = False) -> None:
        """Chart a recorded game's half-turns (all of them, or those before the current one)."""
        points = replay.timeline[:-1] if upto_now else replay.timeline
        self._timeline = {}
        for point in points:
            key = (point.turn, ("0" if point.side is Side.UNION else "1") + ("e" if point.end else ""))
            war = self._war_point(_game_after(replay, point.action_index)) if self.show_war_odds else None
            self._timeline[key] = (point.x, point.union_max, point.confederate_max, war)
        if not upto_now:
            self._frozen_timeline = True


def _left_distribution(result: BattleOdds, side: str) -> list[float]:
    """P(k units of ``side`` left at the end), k = 0, 1, ... (from the exact odds' survivor table)."""
    out: list[float] = []
    for units, p in result.survivors.get(side, {}).items():
        while len(out) <= len(units):
            out.append(0.0)
        out[len(units)] += p
    return out


def _game_after(replay: Replay, action_index: int) -> Game:
    """The replayed game after the last decision made before recorded action ``action_index``."""
    decision = max(i for i, mark in enumerate(replay.marks) if mark <= action_index)
    return replay.game_at(decision)


# ====================================================================== files on the server
#: Set by ``house-divided classroom`` for its kernels: the panel reads and writes no file on the server.
CLASSROOM_ENV = "AHD_CLASSROOM"
#: Set by ``house-divided app --games DIR``: the one folder the panel saves to and loads from.
GAMES_ENV = "AHD_GAMES_DIR"
DEFAULT_GAMES = "house-divided-games"  # in the home folder


class GameFiles:
    """Where the panel may save and load games by name: inside one ``folder`` (local use), or nowhere
    (``folder=None``, a classroom server: games go to the student's own computer by download and come
    back by upload)."""

    def __init__(self, folder: str | Path | None) -> None:
        self.folder = None if folder is None else Path(folder).expanduser()

    @classmethod
    def from_environment(cls) -> "GameFiles":
        if os.environ.get(CLASSROOM_ENV, "") not in ("", "0"):
            return cls(None)
        return cls(os.environ.get(GAMES_ENV) or Path.home() / DEFAULT_GAMES)

    @property
    def on_server(self) -> bool:
        return self.folder is not None

    def path(self, name: str) -> Path:
        """The file ``name`` of the games folder. An absolute path, ``..``, ``~`` or a link leading out of
        the folder is refused with an :class:`AhdError` that says so."""
        if self.folder is None:
            raise AhdError(_("this server keeps no files: use \"Save to my computer\" and \"Open a saved game\""))
        name = (name or "").strip()
        folder = self.folder.resolve()
        if not name:
            raise AhdError(_("give the file a name (it is kept in the games folder {folder})").format(folder=folder))
        posix = PurePosixPath(name.replace("\\", "/"))
        if posix.is_absolute() or PureWindowsPath(name).drive or name.startswith("~"):
            raise AhdError(_("{name} is a path: give only a file name; games are kept in the games folder "
                             "{folder}").format(name=repr(name), folder=folder))
        if ".." in posix.parts:
            raise AhdError(_("{name} leads out of the games folder {folder}: '..' is not allowed").format(
                name=repr(name), folder=folder))
        target = folder.joinpath(*posix.parts)
        resolved = target.resolve()  # follows links
        if resolved != folder and folder not in resolved.parents:
            raise AhdError(_("{name} is a link leading out of the games folder {folder}").format(
                name=repr(name), folder=folder))
        if resolved == folder:
            raise AhdError(_("{name} is the games folder itself: give a file name").format(name=repr(name)))
        return target
