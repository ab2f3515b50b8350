"""Step through a recorded game: any position by decision number, and the war's timeline.

    >>> import ahd
    >>> from ahd.replay import Replay
    >>> game = ahd.new_game("short", seed=3)
    >>> replay = Replay(game)
    >>> replay.game_at(0).turn.number
    1

A position is rebuilt from the nearest stored checkpoint (one every ``every`` recorded actions),
so moving a slider anywhere costs at most ``every`` replayed actions.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .errors import RecordError
from .game import Game
from .sides import Side


@dataclass(frozen=True, slots=True)
class HalfTurnPoint:
    """The army maxima at the start of a half-turn (after the previous one's control update), or, with
    ``end``, when the game ended in that half-turn (at its update, or in its middle by a 9.b reversion)."""

    turn: int
    side: Side
    union_max: int
    confederate_max: int
    action_index: int   # recorded actions before this half-turn began (with ``end``: all of them)
    end: bool = False

    @property
    def x(self) -> float:
        """Position on a turn axis: 1.0 the Union half of turn 1, 1.5 its Confederate half; the end of
        a game is drawn where its last half-turn ends (turn 40's Confederate half: 41.0)."""
        return self.turn + (0.5 if self.side is Side.CONFEDERATE else 0.0) + (0.5 if self.end else 0.0)


def _record(source: "Game | str | Path | dict[str, Any]") -> dict[str, Any]:
    if isinstance(source, Game):
        return source.to_dict()
    if isinstance(source, dict):
        return source
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        try:
            source = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RecordError(f"cannot read {source}: {exc}") from None
    try:
        data = json.loads(source)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not a game record: invalid JSON ({exc})") from None
    return data


class Replay:
    """A recorded game that can be viewed at any decision. ``len(replay)`` decisions were recorded."""

    def __init__(self, source: "Game | str | Path | dict[str, Any]", every: int = 40) -> None:
        data = _record(source)
        final = Game.from_dict(data)          # validates the whole record (RecordError if bad)
        self.final = final
        actions = final._history
        # decisions: the indices (into the recorded actions) after each player decision or typed die
        self.marks = [0] + [i + 1 for i, (_, auto) in enumerate(actions) if not auto]
        start = Game.from_dict(dict(data, actions=[], dice="manual"))
        self._checkpoints: list[tuple[int, Game]] = []
        self.timeline: list[HalfTurnPoint] = []
        game = start
        last_key = None
        for index in range(len(actions) + 1):
            key = (game.state.turn, game.state.phasing)
            if key != last_key:
                last_key = key
                self.timeline.append(HalfTurnPoint(key[0], key[1], game.army_max(Side.UNION),
                                                   game.army_max(Side.CONFEDERATE), index))
            if index % every == 0:
                self._checkpoints.append((index, game.copy()))
            if index < len(actions):
                action, auto = actions[index]
                game._replay_one(action, auto)
        if game.is_over:  # the final point: the maxima the game ended with
            self.timeline.append(HalfTurnPoint(game.state.turn, game.state.phasing, game.army_max(Side.UNION),
                                               game.army_max(Side.CONFEDERATE), len(actions), end=True))
        self.length = len(actions)

    def __len__(self) -> int:
        """The number of decisions recorded (positions are 0 … len)."""
        return len(self.marks) - 1

    def game_at(self, decision: int) -> Game:
        """A fresh copy of the game after ``decision`` decisions (0 = the start)."""
        if not 0 <= decision <= len(self):
            raise IndexError(f"decision {decision} is outside 0–{len(self)}")
        target = self.marks[decision]
        # follow the automatic rolls that the decision triggered
        actions = self.final._history
        while target < len(actions) and actions[target][1]:
            target += 1
        start, game = max((c for c in self._checkpoints if c[0] <= target), key=lambda c: c[0])
        game = game.copy()
        for action, auto in actions[start:target]:
            game._replay_one(action, auto)
        return game

    def log_at(self, decision: int) -> list[str]:
        return [str(event) for event in self.game_at(decision).log]
