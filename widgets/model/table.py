"""The table a session plays at: where its game's actions go.

A :class:`Table` is the engine's game played here: an action is applied at once, a die rolled by the game's
generator (or typed in), a decision taken back. A classmate's game is a table too
(:class:`widgets.classmates.shared_game.Seat`): each action goes to the classroom's store first, checked by
the engine, and the classmate's moves come back as :meth:`changes`. The session never asks which kind it has.
"""
from __future__ import annotations

from typing import Any

from ahd import Game
from ahd.core.actions import Action
from ahd.core.sides import Side


class Table:
    """The engine's game, played here (every side's decisions are this page's, undo is allowed)."""

    def __init__(self, game: Game) -> None:
        self.game = game

    def apply(self, action: Action) -> None:
        """Play ``action`` (IllegalActionError naming the rule if it is refused; the game is then unchanged)."""
        self.game.apply(action)

    def roll(self, value: int | None = None) -> int:
        """Roll the pending die: ``value`` typed in, or None for the game's generator; returns the value."""
        return self.game.roll(value)

    def plays_for(self, side: Side | str) -> bool:
        """True if this page decides for ``side`` (its people, or its bots)."""
        return True

    def can_undo(self) -> bool:
        return self.game.can_undo()

    def undo(self) -> Action:
        """Take back the last decision (and the automatic rolls that followed it)."""
        return self.game.undo()

    def set_dice(self, mode: str) -> None:
        """"auto" (the generator rolls) or "manual" (dice typed in)."""
        self.game.dice = mode

    def record(self) -> dict[str, Any]:
        """The game's record as a player may keep it ("Save to my computer")."""
        return self.game.to_dict()

    def changes(self) -> list[tuple[Action, str]]:
        """The actions made elsewhere since the last call, now applied here, with the side ("union",
        "confederate") that made each; none at a table played only here."""
        return []
