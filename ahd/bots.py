"""Players that choose actions: the interface and the random player."""
from __future__ import annotations

from typing import Protocol

import numpy as np

from .actions import Action
from .game import Game


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


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by its CLI name: ``random`` or ``heuristic``."""
    from .heuristic import HeuristicBot
    bots = {"random": RandomBot, "heuristic": HeuristicBot}
    try:
        return bots[name](seed=seed)
    except KeyError:
        raise ValueError(f"unknown player {name!r}; choose from: {', '.join(bots)}") from None


def play(game: Game, union: Bot, confederate: Bot, max_actions: int = 200_000) -> Game:
    """Play until the game ends (chance is resolved by the game's own dice)."""
    from .sides import CHANCE, Side
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
