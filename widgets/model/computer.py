"""The computer's side of a session: the players (a person or a bot level), the bots' decisions, paced one by
one in a kernel (``pace`` seconds apart, ``busy`` meanwhile) or at once elsewhere, and their plan lines."""
from __future__ import annotations

import asyncio
import difflib
import logging
import time
from typing import Any, Callable

from ahd.bots import choose as choose_action
from ahd.bots import make_bot, plan_of
from ahd.core.decisions import deciding_side, die_owner
from ahd.core.sides import CHANCE, Side

from widgets.model.guard import guarded
from widgets.model.i18n import N_, _, render

log = logging.getLogger("widgets")

PLAYERS = ("human", "easy", "normal", "hard", "random", "heuristic", "search")  # ahd.bots.PLAYERS and a person
#: The players' names as the menus say them.
PLAYER_WORDS = {"human": N_("human"), "easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard"),
                "random": N_("random"), "heuristic": N_("heuristic"), "search": N_("search")}
#: the longest a bot may think over one decision in the app (``ahd.bots.choose``'s should_stop)
THINK_SECONDS = 2.0


class ComputerPlayer:
    """The players and the computer's play of a :class:`widgets.model.session.Session` (a mixin: the session
    holds the traits ``union``, ``confederate``, ``busy``, ``playing`` and the game)."""

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
        self._odds_players_changed()  # the war odds are for these players

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
        if not self.table.plays_for(deciding_side(game)):
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
            self.table.roll()
        else:
            generation, deadline = self._generation, time.perf_counter() + THINK_SECONDS
            action = choose_action(choice, self.game, should_stop=lambda: generation != self._generation
                                   or time.perf_counter() > deadline)
            text = plan_of(choice)
            if text is not None and self._bot_plans.get(choice) != text:  # "plan" lines: shown, not recorded
                self._bot_plans[choice] = text
                self._plan_lines.append((len(self.game.log), (deciding_side(self.game), text)))
            self.table.apply(action)
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
            self.playing = render(deciding_side(self.game))
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
            self.playing = render(deciding_side(self.game))
            self.refresh()
            self._schedule()(self._delay, lambda: self._computer_tick(generation))
            return
        self._stop_computer()
        if self.status_kind != "error":
            over = self.game.is_over
            self._inform(lambda: _("The computer has played: your turn.") if not over else _("The game is over."))
        self._after_change(run_bots=False)

    def _stop_computer(self) -> None:
        self._generation += 1
        self._stand_in = None
        with self.hold_trait_notifications():
            self.busy = False
            self.playing = ""
