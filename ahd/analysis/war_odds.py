"""Odds of the war, deep: the Union's chance to win from ``n`` playouts between computer players.

``war_odds(game, mode)`` answers both modes: ``"live"`` from the fitted model of :mod:`ahd.odds.war`
(microseconds), ``"deep"`` by playouts here, seeded like ``ahd.simulate`` (playout ``i`` from
``SeedSequence(seed).spawn(n)[i]``, so the same whatever the number of workers or the executor), with
a ``progress(done, n)`` callback; the Union's win rate with its 95% Wilson interval (a draw counts as
half a win). The playouts are played by the players the live model was fitted on (``PLAYERS``) unless
``union``/``confederate`` name others.
"""
from __future__ import annotations

import math
from concurrent.futures import Executor
from typing import Callable

import numpy as np

from ..bots import make_bot
from ..core.game import Game
from ..core.sides import CHANCE, Side
from ..odds.war import WarOdds, WarOddsError, finished
from ..odds.war import war_odds as live_war_odds
from .simulate import run_chunks, wilson


def _playout_chunk(args: tuple) -> list[tuple[int, float]]:
    data, indices, seeds, union, confederate = args
    out = []
    base = Game.from_dict(data)
    for index, seq in zip(indices, seeds):
        dice, u_seed, c_seed = (int(s.generate_state(1, np.uint64)[0] >> np.uint64(1)) for s in seq.spawn(3))
        game = base.copy(dice_seed=dice)
        bots = {Side.UNION: make_bot(union, u_seed), Side.CONFEDERATE: make_bot(confederate, c_seed)}
        while not game.is_over:
            player = game.current_player
            if player == CHANCE:
                game.roll()
                continue
            game.apply(bots[player].choose(game))
        winner = game.outcome.winner
        out.append((index, 1.0 if winner is Side.UNION else 0.0 if winner is Side.CONFEDERATE else 0.5))
    return out


#: The players of the playouts by default: those the live model was fitted on (``ahd.odds.war.players()``),
#: so that both modes estimate the same thing, the Union's chance if both sides play on like them.
PLAYERS = ("hard", "hard")


def deep(game, n: int = 200, *, seed: int = 0, union: str = PLAYERS[0], confederate: str = PLAYERS[1],
         workers: int = 1, executor: Executor | None = None, progress: Callable[[int, int], None] | None = None,
         chunk: int = 5) -> WarOdds:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise WarOddsError(f"n must be a positive number of playouts, got {n!r}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise WarOddsError(f"workers must be a positive integer, got {workers!r}")
    make_bot(union), make_bot(confederate)  # unknown names fail here, clearly
    data = game.to_dict()  # the position travels as its record: replayable in any process
    seeds = np.random.SeedSequence(seed).spawn(n)
    jobs = [(data, list(range(i, min(i + chunk, n))), seeds[i:i + chunk], union, confederate)
            for i in range(0, n, chunk)]
    results: list[tuple[int, float]] = run_chunks(_playout_chunk, jobs, n, workers=workers, executor=executor,
                                                  progress=progress)
    wins = sum(v for _, v in results)
    p = wins / n
    low, high = wilson(int(round(wins)), n)
    return WarOdds(p, math.sqrt(p * (1 - p) / n), low, high, "deep", f"{union} vs {confederate}", n, wins)


def war_odds(game, mode: str = "live", **kwargs) -> WarOdds:
    """The Union's chance to win ``game`` from its current position (see the module docstring).

    ``mode="live"`` takes ``union``/``confederate`` (the players the odds are for, ``ahd.odds.pairs``;
    default hard v hard); ``mode="deep"`` takes ``n`` (playouts, default 200),
    ``seed``, ``union``/``confederate`` (bot names), ``workers``, ``executor``, ``progress``.
    A finished game gives its result (1, 0 or ½ for a draw) with no uncertainty.
    """
    if mode != "deep":
        extra = sorted(set(kwargs) - {"union", "confederate"})
        if extra:
            raise WarOddsError(f"live mode takes no options but union= and confederate=, got {extra}")
        return live_war_odds(game, mode, **kwargs)
    if not hasattr(game, "state") or not hasattr(game, "scenario"):
        raise WarOddsError(f"war_odds needs a Game (ahd.new_game(...)), got {type(game).__name__}")
    if game.is_over:
        return finished(game)
    return deep(game, **kwargs)
