"""The computer players: a random player, the heuristic, and the search bot with its campaign plans.

``make_bot(name, seed)`` builds one by name; ``play(game, union, confederate)`` plays a game out.
"""
from __future__ import annotations

import difflib

from .base import Bot, PlanNote, RandomBot, ScoredBot, SidedBot, choose, play, plan_of
from .heuristic import HeuristicBot
from .levels import LEVELS, Level
from .search import SearchBot

__all__ = ["Bot", "RandomBot", "HeuristicBot", "SearchBot", "make_bot", "play", "plan_of", "choose", "SidedBot", "PlanNote", "LEVELS",
           "Level", "PLAYERS"]

#: every name ``make_bot`` accepts without settings (the app's player menus list these and "human")
PLAYERS = ("easy", "normal", "hard", "heuristic", "search", "random")


def _flag(text: str) -> bool:
    """``1``/``true``/``yes``/``on`` or ``0``/``false``/``no``/``off``."""
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off"):
        return False
    raise ValueError(text)


def _capital(text: str) -> bool | str:
    """``capital``: on, off, or ``year`` (on in the scenarios that start after turn 1: 1862, 1863, 1864)."""
    return "year" if text.strip().lower() == "year" else _flag(text)


def _final(text: str) -> int:
    """``final``: ``on`` (the last half-turn of a scored game), ``off``, or the number of half-turns."""
    value = text.strip().lower()
    return int(value) if value.isdigit() else int(_flag(text))


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by its CLI name: a level ``easy``, ``normal`` or ``hard`` (see ``LEVELS``), or ``random``,
    ``heuristic`` or ``search`` (the players as measured before the levels).

    Settings follow a colon, e.g. ``search:iterations=4`` (a deterministic budget of 4 dice samples
    per option) or ``search:seconds=0.5,candidates=4,horizon=2`` or ``search:searched=movement+battle_options``
    (see ``ahd.bots.search``), ``heuristic:garrison=shared``. A misspelt name is refused with the
    nearest one: ``unknown player 'hrad'; did you mean 'hard'?``.
    """
    bots = {"random": RandomBot, "heuristic": HeuristicBot, "search": SearchBot}
    if not isinstance(name, str):
        raise ValueError(f"a player is named by a string ({', '.join(PLAYERS)}), got {name!r}")
    if name.strip().lower() in LEVELS:
        level = LEVELS[name.strip().lower()]
        if not level.sided:
            bot = make_bot(level.union, seed)
            bot.name = level.name
            return bot

        def side(campaign: str, scored: str | None, short: str | None = None) -> Bot:
            if scored is None and short is None:
                return make_bot(campaign, seed)
            plays = make_bot(campaign, seed)
            return ScoredBot(plays, plays if scored is None else make_bot(scored, seed),
                             None if short is None else make_bot(short, seed))
        return SidedBot(level.name, side(level.union, level.union_scored, level.union_short),
                        side(level.confederate, level.confederate_scored))
    base, _, spec = name.partition(":")
    if base not in bots:
        near = difflib.get_close_matches(base.strip().lower(), PLAYERS, n=1, cutoff=0.5)
        hint = f"did you mean {near[0]!r}?" if near else f"choose from: {', '.join(PLAYERS)}"
        raise ValueError(f"unknown player {name!r}; {hint}")
    if not spec:
        return bots[base](seed=seed)
    kinds = {"seconds": float, "iterations": int, "candidates": int, "horizon": int, "depth": int, "margin": float,
             "searched": str, "campaign": _flag, "campaign_odds": float,
             "garrison": str, "guard": _flag, "objective": str, "lookahead": _flag, "grab": _flag, "endgame": int,
             "push": _flag, "sally": _flag, "grab_fight": _flag, "capital": _capital,
             "campaign_idle": float, "finish": _flag, "retake": _flag, "clear": _flag,
             "final": _final, "maxima": _flag, "final_union": _flag,
             "maxima_years": _flag, "maxima_union": _flag}
    if base == "heuristic":
        kinds = {"garrison": str}
    elif base != "search":
        raise ValueError(f"player {base!r} takes no settings, got {name!r}")
    settings: dict = {}
    for item in spec.split(","):
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or key not in kinds:
            raise ValueError(f"bad {base} setting {item!r} in {name!r}: use key=value with keys {', '.join(kinds)}")
        if key == "searched":
            settings[key] = tuple(value.split("+"))
            continue
        try:
            settings[key] = kinds[key](value)
        except ValueError:
            raise ValueError(f"bad value for {key} in {name!r}: {value!r}") from None
    return bots[base](seed=seed, **settings)
