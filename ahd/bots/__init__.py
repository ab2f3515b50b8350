"""The computer players: a random player, the heuristic, and the search bot with its campaign plans.

``make_bot(name, seed)`` builds one by name; ``play(game, union, confederate)`` plays a game out.
"""
from __future__ import annotations

from .base import Bot, RandomBot, play
from .heuristic import HeuristicBot
from .search import SearchBot

__all__ = ["Bot", "RandomBot", "HeuristicBot", "SearchBot", "make_bot", "play"]


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
