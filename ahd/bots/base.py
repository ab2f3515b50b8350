"""Players that choose actions: the interface, the random player and a game between two players."""
from __future__ import annotations

from typing import Protocol

import numpy as np

from ..core.actions import Action
from ..core.game import Game
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


def play(game: Game, union: Bot, confederate: Bot, max_actions: int = 200_000) -> Game:
    """Play until the game ends (chance is resolved by the game's own dice)."""
    players = {Side.UNION: union, Side.CONFEDERATE: confederate}
    for _ in range(max_actions):
        player = game.current_player
        if player is None:
            return game
        if player == CHANCE:
            game.roll()
            continue
        game.apply(players[player].choose(game))
    raise RuntimeError(f"game not finished after {max_actions} actions")
