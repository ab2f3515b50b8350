"""The public Game: one object per game, its decisions, dice, undo and record.

Dice are chance events: while a die is pending ``current_player`` is ``"chance"``. With
``dice="auto"`` (default) the game's seeded ``numpy.random.Generator`` rolls it at once; with
``dice="manual"`` the game waits for ``apply(Roll(n))`` typed in from a real die. Either way every
roll is an action in the record, so ``seed + record`` replays bit for bit.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Iterable

import numpy as np

from .actions import Action, Roll
from .board import Board, default_board
from .calendar import Turn
from .decisions import CHANCE_STEPS, SEGMENT_OF_STEP
from .engine import Engine, Event
from .errors import AhdError, IllegalActionError, RecordError
from .i18n import Msg, check_language, language, render
from .jsonfile import JsonProblem, read_file, where
from .options import Options
from .record import (DICE_MODES, MAX_SEED, RECORD_FORMAT, RECORD_VERSION, read_record, record_entry,
                     replay_record, short as _short)
from .scenario import Scenario, load_scenario
from .sides import CHANCE, Side
from .state import Battle, Outcome, State
from .units import ASIDE, EUROPE, OUT, POOL, RESERVE, Unit


class Game:
    """A game of A House Divided. Make one with :func:`ahd.new_game`."""

    def __init__(self, scenario: "Scenario | str" = "1861", *, options: Any = None, seed: int | None = None,
                 dice: str = "auto", play_on: bool = False, board: Board | None = None,
                 lang: str | None = None) -> None:
        self.lang = lang
        self._board = board or default_board()
        self._scenario = load_scenario(scenario, self._board)
        self._options = Options.parse(self._scenario.options if options is None else options)
        if seed is None:
            seed = int(np.random.SeedSequence().entropy % (2 ** 63))
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed <= MAX_SEED:
            raise ValueError(f"seed must be an integer from 0 to 2**128 - 1, got {_short(seed)}")
        self._seed = int(seed)
        if not isinstance(play_on, (bool, np.bool_)):
            raise ValueError(f"play_on must be True or False, got {_short(play_on)}")
        self._play_on = bool(play_on)
        self.dice = dice
        self._history: list[tuple[Action, bool]] = []
        self._checkpoints: list[tuple[int, State, dict, int]] = []
        self._legal_cache: list[Action] | None = None
        self._reset()
        self._run_chance()

    @property
    def lang(self) -> str | None:
        """The language of this game's refusals and log (None: the current language, see
        :func:`ahd.set_language`). Changing it says the whole log again; the record never changes."""
        return self._lang

    @lang.setter
    def lang(self, value: str | None) -> None:
        self._lang = None if value is None else check_language(value)

    def _reset(self) -> None:
        self._rng = np.random.default_rng(self._seed)
        state = self._scenario.setup(self._board, self._options)
        self._engine = Engine(state, self._scenario, on_half_turn=self._checkpoint, play_on=self._play_on)
        self._history = []
        self._checkpoints = []
        self._half_turn_started = False
        self._engine.start()
        if self._scenario.march_roll is not None and self.state.step == "march_roll":
            self._engine.do(Roll(self._scenario.march_roll))  # a position exported after its march roll
        self._store_checkpoint()

    def _checkpoint(self) -> None:
        """Called by the engine when a half-turn starts. At each Union half (once per game turn) a
        restart point for undo is stored, once the action that started it is complete."""
        if self._engine.state.phasing is Side.UNION:
            self._half_turn_started = True

    def _store_checkpoint(self) -> None:
        self._half_turn_started = False
        self._checkpoints.append((len(self._history), self._engine.state.copy(),
                                  self._rng.bit_generator.state, len(self._engine.events)))

    # ================================================================== read-only view
    @property
    def board(self) -> Board:
        return self._board

    @property
    def scenario(self) -> Scenario:
        return self._scenario

    @property
    def options(self) -> Options:
        return self._options

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def state(self) -> State:
        """The engine's state, for reading only (bots, odds, widgets). Never mutate it."""
        return self._engine.state

    @property
    def dice(self) -> str:
        return self._dice

    @dice.setter
    def dice(self, mode: str) -> None:
        if mode not in DICE_MODES:
            raise ValueError(f"dice must be one of {DICE_MODES}, got {mode!r}")
        self._dice = mode
        if mode == "auto" and hasattr(self, "_engine"):
            self._run_chance()

    @property
    def current_player(self) -> Side | str | None:
        """Side.UNION, Side.CONFEDERATE, ``"chance"`` (a die is pending) or None (game over)."""
        return self._engine.current_player()

    @property
    def turn(self) -> Turn:
        return Turn.of(self.state.turn)

    @property
    def phasing(self) -> Side:
        """Whose half-turn it is."""
        return self.state.phasing

    @property
    def phase(self) -> str:
        """The segment (3.a): ``movement``, ``combat``, ``promotion``, ``recruitment`` or ``over``."""
        return SEGMENT_OF_STEP[self.state.step]

    @property
    def decision(self) -> str:
        """The decision in progress, e.g. ``march``, ``targets``, ``recruitment``, ``march_roll``."""
        return self.state.step

    @property
    def pending_roll(self) -> str | None:
        """What the die about to be rolled is for, or None."""
        if self.state.step not in CHANCE_STEPS:
            return None
        purpose = self._engine.roll_purpose()
        return None if purpose is None else render(purpose, self._lang)

    @property
    def outcome(self) -> Outcome | None:
        return self.state.outcome

    @property
    def scenario_result(self) -> Outcome | None:
        """The S-VT score of a year scenario played on past its end (see ``play_on``), else None."""
        return self.state.scenario_result

    @property
    def play_on(self) -> bool:
        return self._play_on

    @property
    def is_over(self) -> bool:
        return self.state.outcome is not None

    @property
    def log(self) -> list[Event]:
        """The game's log, each line said in ``lang``."""
        lang = self._lang
        return [event.in_language(lang) for event in self._engine.events]

    @property
    def history(self) -> list[Action]:
        return [action for action, _ in self._history]

    @property
    def marches_left(self) -> int:
        return self.state.marches_left

    @property
    def march_roll(self) -> int | None:
        return self.state.march_roll

    @property
    def march_origin(self) -> str | None:
        return self.state.march_origin

    @property
    def battle(self) -> Battle | None:
        return self.state.battle

    def army_max(self, side: Side | str) -> int:
        return self.state.army_max(Side.parse(side))

    def controller(self, box_id: str) -> Side | None:
        self._board[box_id]
        return self.state.control[box_id]

    def is_cavalry_held(self, box_id: str) -> bool:
        return box_id in self.state.cavalry_held

    def units_in(self, box_id: str, side: Side | str | None = None) -> list[Unit]:
        self._board[box_id]
        return self.state.units_in(box_id, None if side is None else Side.parse(side))

    def unit(self, unit_id: str) -> Unit:
        return self.state.units[unit_id]

    def units(self, side: Side | str, where: str = "map") -> list[Unit]:
        """A side's units ``where`` = ``map``, ``pool``, ``reserve``, ``out``, or (AO-8.4) ``europe`` / ``aside``."""
        places = {"map": None, "pool": POOL, "reserve": RESERVE, "out": OUT, "europe": EUROPE, "aside": ASIDE}
        return self.state.units_of(Side.parse(side), places[where])

    def is_entrenched(self, unit_id: str) -> bool:
        return self.state.is_entrenched(self.state.units[unit_id])

    # ================================================================== decisions
    def legal_actions(self) -> list[Action]:
        """Every legal action at the current decision (empty once the game is over)."""
        if self._legal_cache is None:
            self._legal_cache = [] if self.is_over else self._engine.legal()
            self._legal_set = frozenset(self._legal_cache)
        return list(self._legal_cache)

    def is_legal(self, action: Action) -> bool:
        self.legal_actions()
        return action in self._legal_set or self.why_not(action) is None

    def why_not(self, action: Action) -> IllegalActionError | None:
        """None if ``action`` is legal now, else the error ``apply`` would raise."""
        with language(self._lang):
            if not isinstance(action, Action):
                return IllegalActionError("3.a", Msg("{action} is not an action", action=repr(action)))
            if isinstance(action, Roll) and self.current_player != CHANCE:
                return IllegalActionError("0.3", Msg("no die is to be rolled now"), action)
            return self._engine.check(action)

    def apply(self, action: Action) -> None:
        """Apply a legal action; an illegal one raises IllegalActionError and changes nothing."""
        listed = self._legal_cache is not None and action in self._legal_set
        if not listed:
            error = self.why_not(action)
            if error is not None:
                raise error
        mark = len(self._history)
        try:
            with language(self._lang):
                self._step(action, auto=False)
                self._run_chance()
        except BaseException:
            self._rewind(mark)
            raise

    def roll(self, value: int | None = None) -> int:
        """Resolve the pending die: ``value`` typed in from a real die, or drawn from the generator."""
        if self.current_player != CHANCE:
            with language(self._lang):
                raise IllegalActionError("0.3", Msg("no die is to be rolled now"))
        auto = value is None
        if auto:
            value = self._draw()
        action = Roll(int(value))
        error = self.why_not(action)
        if error:
            raise error
        with language(self._lang):
            self._step(action, auto=auto)
            self._run_chance()
        return action.value

    def _draw(self) -> int:
        return int(self._rng.integers(1, 7))

    def _step(self, action: Action, auto: bool) -> None:
        self._legal_cache = None
        self._engine.do(action)
        self._history.append((action, auto))
        if self._half_turn_started:
            self._store_checkpoint()

    def _run_chance(self) -> None:
        while self._dice == "auto" and self.state.step in CHANCE_STEPS:
            self._step(Roll(self._draw()), auto=True)

    # ================================================================== undo and replay
    def can_undo(self) -> bool:
        return any(not auto for _, auto in self._history)

    def undo(self) -> Action:
        """Take back the last decision (and the automatic rolls that followed it); returns it."""
        for index in range(len(self._history) - 1, -1, -1):
            action, auto = self._history[index]
            if not auto:
                self._rewind(index)
                return action
        raise AhdError("nothing to undo")

    @property
    def record_length(self) -> int:
        """The number of recorded actions (decisions, typed-in dice and the generator's rolls): the length of
        :meth:`record_actions`, the position :meth:`rewind_to` and :meth:`extend` count in."""
        return len(self._history)

    def rewind_to(self, length: int) -> None:
        """Take the game back to its first ``length`` recorded actions, exactly as a fresh replay of them would
        be: the same state, log, record and generator (the dice still to come are the same ones)."""
        if isinstance(length, bool) or not isinstance(length, int) or not 0 <= length <= len(self._history):
            raise ValueError(f"length must be an integer from 0 to {len(self._history)}, got {_short(length)}")
        if length < len(self._history):
            self._rewind(length)

    def extend(self, actions: Iterable["Action | dict[str, Any]"]) -> list[Action]:
        """Apply recorded actions, e.g. another seat's moves of a shared game: each one an action (a decision or
        a typed-in die) or a record entry as :meth:`record_actions` gives it (a dict; ``"auto": true`` marks a
        roll of the game's own generator, which must draw that very value). Only the rolls given are rolled,
        whatever the dice mode. Each action is checked in its position: the first refused one raises
        IllegalActionError with the engine's rule, a malformed entry RecordError (either error's ``index`` is the
        entry's place in ``actions``, and its message names it), and the game is then exactly as it was before the
        call. Returns the actions applied, one for each entry."""
        entries: list[tuple[Action, bool]] = []
        for index, raw in enumerate(actions):
            try:
                entries.append(record_entry(index, raw))
            except RecordError as exc:
                exc.index = index
                raise
        mark = len(self._history)
        try:
            with language(self._lang):
                for index, (action, auto) in enumerate(entries):
                    error = self.why_not(action)
                    if error is None and auto and self._peek() != action.value:
                        error = IllegalActionError("0.3", Msg("the record's automatic roll {action} does not match "
                                                              "the game's dice (they draw {drawn})", action=action,
                                                              drawn=self._peek()), action)
                    if error is not None:
                        refused = IllegalActionError(error.rule, Msg("{reason} (action {index} of those given)",
                                                                     reason=error.message, index=index), action)
                        refused.index = index
                        raise refused
                    self._replay_one(action, auto)
        except BaseException:
            self._rewind(mark)
            raise
        return [action for action, _ in entries]

    def _peek(self) -> int:
        """The value the generator would draw next, without drawing it."""
        rng = np.random.default_rng(self._seed)
        rng.bit_generator.state = self._rng.bit_generator.state
        return int(rng.integers(1, 7))

    def _rewind(self, length: int) -> None:
        """Restore the game as it was after its first ``length`` recorded actions."""
        keep = self._history[:length]
        while self._checkpoints and self._checkpoints[-1][0] > length:
            self._checkpoints.pop()
        start, state, rng_state, events = self._checkpoints[-1]
        self._engine.state = state.copy()
        self._engine.invalidate()
        self._engine.events = self._engine.events[:events]
        self._rng = np.random.default_rng(self._seed)
        self._rng.bit_generator.state = rng_state
        self._history = keep[:start]
        self._legal_cache = None
        self._half_turn_started = False
        for action, auto in keep[start:]:
            self._replay_one(action, auto)

    def _replay_one(self, action: Action, auto: bool) -> None:
        if auto:
            drawn = self._draw()
            if not isinstance(action, Roll) or drawn != action.value:
                raise RecordError(str(Msg("the record's automatic roll {action} does not match its seed (drew {drawn})",
                                          action=action, drawn=drawn)))
        self._step(action, auto)

    # ================================================================== records
    def record_actions(self, start: int = 0) -> list[dict[str, Any]]:
        """The recorded actions from index ``start`` on, as they appear in the game record."""
        return [dict(action.to_dict(), **({"auto": True} if auto else {}))
                for action, auto in self._history[start:]]

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "version": RECORD_VERSION,
            "scenario": self._scenario.id if self._scenario.is_built_in else self._scenario.data,
            "options": self._options.to_list(),
            "seed": self._seed,
            "play_on": self._play_on,
            "dice": self._dice,
            "actions": self.record_actions(),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), separators=(",", ":"))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json(), encoding="utf-8")

    @classmethod
    def from_json(cls, text: str | bytes) -> "Game":
        """Replay a record given as JSON text (``str`` or UTF-8 ``bytes``, with or without a BOM);
        a corrupt, truncated, foreign or oversized one raises RecordError."""
        return cls._from_record(text, None)

    @classmethod
    def from_dict(cls, data: Any) -> "Game":
        """Replay a record given as its JSON structure; RecordError names the key or action at fault."""
        return replay_record(cls, data, None)

    @classmethod
    def _from_record(cls, text: str | bytes, path: object) -> "Game":
        return read_record(cls, text, path)


    def copy(self, *, dice_seed: int | None = None) -> "Game":
        """An independent game in the same position, e.g. for lookahead: with the same future dice,
        or, given ``dice_seed``, with dice drawn afresh from a generator seeded by it (a lookahead
        that must not see the real game's dice). Such a copy is for playing on, not for undo."""
        new = Game.__new__(Game)
        new.__dict__.update(self.__dict__)
        new._engine = Engine(self.state.copy(), self._scenario, on_half_turn=new._checkpoint, play_on=self._play_on)
        new._engine.events = list(self._engine.events)
        new._history = list(self._history)
        new._checkpoints = list(self._checkpoints)
        new._rng = np.random.default_rng(self._seed)
        if dice_seed is None:
            new._rng.bit_generator.state = self._rng.bit_generator.state
        else:
            new._rng = np.random.default_rng(dice_seed)
        new._legal_cache = None
        return new

    def to_scenario(self) -> dict[str, Any]:
        """The current position as a scenario (a JSON-serialisable dict in the scenario-file format)
        that ``new_game`` or ``load_scenario`` turn back into the same position. Only at the start of a
        game turn: the Union half-turn before its first march (docs/scenario-format.md, "Positions");
        elsewhere AhdError says why."""
        from .export import position_to_scenario
        return position_to_scenario(self)

    def _repr_svg_(self) -> str:
        """The board and position as a static SVG (shown by Jupyter, GitHub and nbviewer)."""
        from .svg import game_svg
        return game_svg(self)

    def __repr__(self) -> str:
        return (f"<Game {self._scenario.id} seed={self._seed} {self.turn} {self.phasing.adjective} "
                f"{self.decision}{' over' if self.is_over else ''}>")


def new_game(scenario: "str | Path | Scenario | dict" = "1861", *, options: Any = None, seed: int | None = None,
             dice: str = "auto", play_on: bool = False, lang: str | None = None) -> Game:
    """Start a game.

    ``scenario``: ``"1861"`` (S-1), ``"short"`` (S-13), ``"1862"``, ``"1863"``, ``"1864"``, a scenario file path
    or a scenario dict (e.g. from ``Game.to_scenario()``).
    ``options``: Options, a preset name (``"novice-union"`` for S-12), rule IDs or {rule: on}; None: the
    scenario's ``options`` if it has them, else the default.
    ``dice``: ``"auto"`` (seeded generator) or ``"manual"`` (typed-in rolls).
    ``play_on``: for the year scenarios, record the S-VT score at its turn and go on to turn 40 (S-0).
    ``lang``: the language of refusals and log lines (``"en"``, ``"es"``, ``"it"``); None follows
    :func:`ahd.set_language` and the environment's locale. The record is the same in every language.
    """
    return Game(scenario, options=options, seed=seed, dice=dice, play_on=play_on, lang=lang)


def load(path: str | Path) -> Game:
    """Load a saved game; a missing, corrupt, foreign or oversized file raises RecordError naming the
    file, the key or action and the problem (limits: docs/record-format.md)."""
    try:
        data = read_file(path)
    except JsonProblem as exc:
        raise RecordError(f"{where(exc.key)}: {exc.problem}", path=path, key=exc.key) from None
    return Game._from_record(data, path)
