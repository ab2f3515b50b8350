"""Players that choose actions: the interface, the random player and a game between two players."""
from __future__ import annotations

import inspect
from typing import Callable, NamedTuple, Protocol

import numpy as np

from ..core.actions import Action
from ..core.game import Game
from ..core.i18n import Msg
from ..core.sides import CHANCE, Side


class Bot(Protocol):
    """A player: given a game at one of its decisions, return a legal action."""

    name: str

    def choose(self, game: Game) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions, with its own seeded generator."""

    name = "random"

    def __init__(self, seed: int | None = None, rng: np.random.Generator | None = None) -> None:
        self.rng = rng if rng is not None else np.random.default_rng(seed)

    def choose(self, game: Game) -> Action:
        actions = game.legal_actions()
        if not actions:
            raise ValueError("no legal action: the game is over")
        return actions[int(self.rng.integers(len(actions)))]


def fatal_boxes(game: Game) -> set[str]:
    """The cavalry-held boxes of the side to decide whose reversion alone would end the game against it
    at once (9.b, 9.d, 11.c): e.g. both maxima 28 and Union cavalry holding Chattanooga, worth 1 to the
    Confederacy. Cheap: one state copy per box the side holds with cavalry only."""
    from ..core.victory import check_update
    state, side = game.state, game.current_player
    if not isinstance(side, Side):
        return set()
    fatal = set()
    for box in state.cavalry_held:
        if state.control[box] is not side:
            continue
        trial = state.copy()
        trial.set_control(box, state.board.boxes[box].owner)
        outcome = check_update(trial, half_end=False)
        if outcome is not None and outcome.winner is not side:
            fatal.add(box)
    return fatal


def loses_at_once(game: Game, action: Action, *, within_march: bool = True) -> bool:
    """Whether ``action`` ends the game against the side playing it before anything else happens: it
    empties a cavalry-held box whose reversion decides the war (11.c), or begins a march (4.b) whose
    every order would. Played on a copy with manual dice, so no later roll is taken into account."""
    side = game.current_player
    trial = game.copy()
    trial.dice = "manual"
    trial.apply(action)
    if trial.is_over:
        return trial.outcome is not None and trial.outcome.winner is not side
    if within_march and action.kind == "begin_march" and trial.decision == "march":
        return all(loses_at_once(trial, order, within_march=False) for order in trial.legal_actions())
    return False


def without_losing_moves(game: Game, actions: list[Action]) -> list[Action]:
    """``actions`` less those that lose the game at once (:func:`loses_at_once`): every level sees that
    a raid's cavalry leaving its box can hand the Confederacy the war on the spot, as the search bot's
    lookahead does. Only actions that move a unit of a :func:`fatal_boxes` box, or end a battle there,
    are played out on a copy; all of them losing, the list is returned as it is."""
    fatal = fatal_boxes(game)
    if not fatal:
        return actions
    state = game.state
    in_battle = state.battle is not None and state.battle.box in fatal

    def suspect(action: Action) -> bool:
        unit = getattr(action, "unit", None)
        if isinstance(unit, str) and unit in state.units and state.units[unit].location in fatal:
            return True
        if getattr(action, "origin", None) in fatal:  # a march from there (4.b)
            return True
        return in_battle and action.kind in ("retreat", "cavalry_retreat", "evacuate")

    safe = [a for a in actions if not (suspect(a) and loses_at_once(game, a))]
    return safe or actions


class PlanNote(NamedTuple):
    """A bot's plan, said when it changes: after ``action`` actions of the record (and ``event``
    events of the log), ``side`` planned ``text`` (a message, said in the language it is read in:
    ``render(note.text, "es")``; ``str`` gives the current language). Not part of the game's record
    (a replay of the record is the same game)."""

    action: int
    side: Side
    text: "Msg | str"
    event: int = 0

    def message(self) -> Msg:
        """The whole line as a message: 'Union: gathering at Fredericksburg to storm Richmond, ...'."""
        return Msg("{side}: {plan}", side=self.side, plan=self.text)

    def __msg__(self, lang: str) -> str:
        return self.message().render(lang)

    def __str__(self) -> str:
        return self.message().render()


def plan_of(bot) -> "Msg | str | None":
    """What a bot says it is doing: its ``plan`` attribute (one line, or None), a message (:class:`Msg`,
    said in the language it is read in) or a plain text. Any bot may expose one; ``play`` and the app's
    session show it as a "plan" line when it changes."""
    text = getattr(bot, "plan", None)
    if isinstance(text, Msg):
        return text
    return text if isinstance(text, str) and text else None


class SidedBot:
    """One player made of two: ``union`` decides for the Union, ``confederate`` for the Confederacy
    (a level may play each side its own way). ``plan`` is the plan of the side that last decided."""

    def __init__(self, name: str, union: "Bot", confederate: "Bot") -> None:
        self.name = name
        self.union, self.confederate = union, confederate
        self._last: "Bot" = union

    @property
    def plan(self) -> "Msg | str | None":
        return plan_of(self._last)

    def choose(self, game: Game, should_stop: Callable[[], bool] | None = None) -> Action:
        bot = self.confederate if game.current_player is Side.CONFEDERATE else self.union
        self._last = bot
        return choose(bot, game, should_stop)


class ScoredBot:
    """One side's player made of two by how the game is decided: ``scored`` plays the games decided by
    the army maxima (the short game, S-13; a year scenario scored on T-8, S-0, not played on), ``campaign``
    the others; ``short``, if given, the short game instead of ``scored``. ``plan`` is the plan of the one
    that last decided."""

    def __init__(self, campaign: "Bot", scored: "Bot", short: "Bot | None" = None) -> None:
        self.campaign, self.scored, self.short = campaign, scored, short
        self._last: "Bot" = campaign

    @property
    def plan(self) -> "Msg | str | None":
        return plan_of(self._last)

    def choose(self, game: Game, should_stop: Callable[[], bool] | None = None) -> Action:
        end = game.scenario.end
        if end == "short":
            bot = self.scored if self.short is None else self.short
        else:
            bot = self.scored if table_score_turn(game) is not None else self.campaign
        self._last = bot
        return choose(bot, game, should_stop)


def table_score_turn(game: Game) -> int | None:
    """The turn after which a year scenario is scored on T-8 (S-0), unless it is played on to turn 40; None in
    every other game (the campaign, the short game)."""
    return game.scenario.score_turn if game.scenario.end == "table" and not game.play_on else None


def choose(bot, game: Game, should_stop: Callable[[], bool] | None = None) -> Action:
    """``bot.choose(game)``, passing ``should_stop`` to bots whose ``choose`` takes it (the search bots
    and the levels: asked between continuations; when it returns True the bot answers at once with its
    best option so far). The app's paced play passes a deadline and its cancel state."""
    if should_stop is not None:
        try:
            params = inspect.signature(bot.choose).parameters
        except (TypeError, ValueError):
            params = {}
        if "should_stop" in params:
            return bot.choose(game, should_stop=should_stop)
    return bot.choose(game)


def play(game: Game, union: Bot, confederate: Bot, max_actions: int = 200_000,
         plans: list[PlanNote] | None = None) -> Game:
    """Play until the game ends (chance is resolved by the game's own dice). With a list ``plans``,
    each bot's plan (``plan_of``) is appended to it as a ``PlanNote`` when it changes; the game's
    record is the same with or without."""
    players = {Side.UNION: union, Side.CONFEDERATE: confederate}
    said: dict[Side, "Msg | str | None"] = {Side.UNION: None, Side.CONFEDERATE: None}
    for _ in range(max_actions):
        player = game.current_player
        if player is None:
            return game
        if player == CHANCE:
            game.roll()
            continue
        bot = players[player]
        action = bot.choose(game)
        if plans is not None:
            text = plan_of(bot)
            if text is not None and text != said[player]:
                said[player] = text
                plans.append(PlanNote(len(game.history), player, text, len(game.log)))
        game.apply(action)
    raise RuntimeError(f"game not finished after {max_actions} actions")
