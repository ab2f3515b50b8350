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


def _flag(text: str) -> bool:
    """``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``."""
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by its CLI name: ``random``, ``heuristic`` or ``search``.

    Settings of the search bot follow a colon, e.g. ``search:iterations=4`` (a deterministic budget of
    4 dice samples per option) or ``search:seconds=0.5,candidates=4,horizon=2`` or
    ``search:searched=movement+battle_options`` (see ``ahd.search``).
    """
    from .heuristic import HeuristicBot
    from .search import SearchBot
    bots = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}
    if not isinstance(name, str):
        raise ValueError(f"a player is named by a string ({', '.join(bots)}), got {name!r}")
    base, _, spec = name.partition(":")
    if base not in bots:
        raise ValueError(f"unknown player {name!r}; choose from: {', '.join(bots)}")
    if not spec:
        return bots[base](seed=seed)
    if base != "search":
        raise ValueError(f"player {base!r} takes no settings, got {name!r}")
    settings: dict = {}
    kinds = {"seconds": float, "iterations": int, "candidates": int, "horizon": int, "depth": int, "margin": float,
             "searched": str, "assaults": int, "assault_odds": float, "campaign": _flag, "campaign_odds": float}
    for item in spec.split(","):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in kinds:
            raise ValueError(f"bad search setting {item!r} in {name!r}: use key=value with keys {', '.join(kinds)}")
        if key == "searched":
            settings[key] = tuple(value.split("+"))
            continue
        try:
            settings[key] = kinds[key](value)
        except ValueError:
            raise ValueError(f"bad value for {key} in {name!r}: {value!r}") from None
    return SearchBot(seed=seed, **settings)


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
