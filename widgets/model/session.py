"""The session: one game, its players and everything the views show, as traitlets.

Views observe the session's traits and redraw; every gesture (a click on the map, a button) is
turned into an engine action and handed to :meth:`Session.act`. Errors raised by a callback are
caught by :func:`guarded`, shown in ``status`` and logged; the session keeps working.
"""
from __future__ import annotations

from typing import Any, Callable

from traitlets import Bool, Dict, HasTraits, Int, List, Unicode

import ahd
from ahd.core import decisions
from ahd import Game
from ahd.core.actions import Action, Invade, Move, NavalMove, Recruit
from ahd.core.errors import AhdError, IllegalActionError
from ahd.core.i18n import Term
from ahd.core.sides import CHANCE, Side

from widgets.model.battle import BattleReadout
from widgets.model.computer import ComputerPlayer
from widgets.model.files import SessionFiles
from widgets.model.gestures import Plan, action_box, plan_for, recruitment_end_reason, refusal_for
from widgets.model.guard import guarded
from widgets.model.i18n import _, _n, render
from widgets.model.prompting import Prompting
from widgets.model.table import Table
from widgets.model.timeline import Timeline



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


class Session(ComputerPlayer, Timeline, BattleReadout, SessionFiles, Prompting, HasTraits):
    """A game being played (or watched) with its traits. Make one with :func:`widgets.play`."""

    # the position
    version = Int(0, help="bumped at every refresh (no view observes it: each observes the traits it draws)")
    position = Int(0, help="bumped when the game's position changed: an action, a roll, an undo, a new or loaded game")
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
    log_lines = List(Unicode(), help="the log as said now, the bots' plan lines in their places (the map's live "
                                     "region announces the new ones)")
    legal = List(Unicode(), help="the current decision's legal actions, as readable text")
    # players
    union = Unicode("human")
    confederate = Unicode("human")
    # selection and the map's offer
    selected = Unicode("", help="the selected box ('' for none)")
    selected_units = List(Unicode())
    destinations = List(Unicode(), help="boxes a click would act on now")
    hovered = Unicode("")
    hover_role = Unicode("", help="""What a click on the hovered box would do, said in the map's info box under the
        box's state (never drawn like the lit ring of `destinations`, the legal targets):
        ''  no box is hovered;
        'act'     the box is lit: a click plays its action;
        'select'  a click selects this box (one of your boxes to march from);
        'none'    a click there would be refused: nothing is said, and never the lit colour.""")

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
        self.table = game if isinstance(game, Table) else Table(game if game is not None else ahd.new_game("1861"))
        self.classmate: Any = None  # the app's "Play a classmate" section, if any: kept alive with the session
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
        self._position_mark: tuple | None = None  # (game, recorded actions, last action) at the last refresh
        self.set_players(union, confederate)
        self._rebuild_timeline()
        self.refresh()

    @property
    def game(self) -> Game:
        """The game being played (the table's)."""
        return self.table.game

    @game.setter
    def game(self, game: Game) -> None:
        self.table = Table(game)

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
        if decisions.play(game) == decisions.MARCH and self._selectable(box_id):
            if self.selected == box_id and decisions.choosing_march(game):
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
        return isinstance(player, Side) and not self.table.plays_for(player)

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
        if decisions.march_open(game):
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
        if decisions.choosing_march(self.game) and isinstance(orders[0], Move):
            self.table.apply(ahd.BeginMarch(self._plan.origin))
        moved = 0
        for order in orders:
            # each order is re-checked: an earlier one may have changed what is legal
            if isinstance(order, Move):
                candidates = [a for a in game.legal_actions()
                              if isinstance(a, Move) and a.unit == order.unit and a.path[-1] == box_id]
                order = min(candidates, key=lambda a: len(a.path)) if candidates else order
            if game.why_not(order) is None:
                self.table.apply(order)
                moved += 1
                if not decisions.march_open(game) and isinstance(order, Move):
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
        if decisions.march_open(game):
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
        self.table.apply(action)
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
    def roll(self, value: int | None = None) -> None:
        """Resolve the pending die with a typed-in ``value`` (real dice) or from the game's generator."""
        mark = len(self.game.history)
        rolled = self.table.roll(value)
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
        self.table.set_dice("auto" if mode == "auto" else "manual")
        self._after_change()

    @guarded
    def undo(self) -> None:
        """Take back the last gesture: a click's march with its orders, a button, a die, a bot's
        half-turn, with the bot decisions that followed it."""
        game = self.game
        if not self.table.can_undo():
            raise AhdError(_("nothing to undo"))
        before = len(game.history)
        while self._marks and self._marks[-1] >= before:
            self._marks.pop()
        if self._marks:
            self._undo_to(self._marks.pop())
        else:  # a loaded game: one decision at a time
            self.table.undo()
        taken = before - len(game.history)
        self._inform(lambda: _n("Took back {n} recorded action.", "Took back {n} recorded actions.", taken).format(n=taken))
        self._select("")
        self._trim_timeline()
        self._after_change(run_bots=False)

    def _undo_to(self, mark: int) -> None:
        game = self.game
        while len(game.history) > mark and self.table.can_undo():
            self.table.undo()

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
            # the objects themselves (held, so never another's address): an undo and a new action of the same
            # length still differ
            mark = (game, len(game.history), game.history[-1] if game.history else None)
            old = self._position_mark
            if old is None or old[1] != mark[1] or old[0] is not game or old[2] is not mark[2]:
                self._position_mark = mark
                self.position += 1
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
        return "select" if decisions.play(self.game) == decisions.MARCH and self._selectable(box) else "none"
