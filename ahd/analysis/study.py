"""Summaries of many simulated games (``ahd.simulate``) for balance studies: one row per option set,
when and how games end, and the army maxima turn by turn.

    >>> import ahd
    >>> from ahd.study import preset_rows
    >>> runs = {"basic": ahd.simulate(4, scenario="short", union="random", confederate="random", seed=1)}
    >>> [row["games"] for row in preset_rows(runs)]
    [4]
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Mapping

import numpy as np

from ..core.sides import Side
from .simulate import SimulationResults


def preset_rows(runs: Mapping[str, SimulationResults]) -> list[dict]:
    """One row per run: games, each side's win rate with its 95% Wilson interval, draws, median final turn."""
    rows = []
    for name, results in runs.items():
        if not len(results):
            raise ValueError(f"run {name!r} has no games")
        row = {"preset": name, "games": len(results)}
        for side in Side:
            rate, low, high = results.win_rate(side)
            row[side.value] = rate
            row[f"{side.value}_low"] = low
            row[f"{side.value}_high"] = high
        row["draws"] = sum(1 for r in results.rows if r.winner is None) / len(results)
        row["median_turn"] = float(np.median([r.final_turn for r in results.rows]))
        rows.append(row)
    return rows


def endings(runs: Mapping[str, SimulationResults]) -> dict[str, Counter]:
    """How games ended: for each run, Counter of (winner or 'draw', rule, final turn)."""
    return {name: Counter((r.winner or "draw", r.rule, r.final_turn) for r in results.rows)
            for name, results in runs.items()}


@dataclass(frozen=True)
class Trajectory:
    """Army maxima at the end of each turn, averaged over the games still going at that turn."""

    turns: np.ndarray       # turn numbers
    union: np.ndarray       # mean Union maximum
    confederate: np.ndarray  # mean Confederate maximum
    games: np.ndarray       # games that reached the end of that turn (the mean's sample size)

    @property
    def difference(self) -> np.ndarray:
        return self.union - self.confederate


def maxima_trajectory(results: SimulationResults) -> Trajectory:
    """The mean army maxima per turn; a game stops counting after its last turn."""
    by_turn: dict[int, list[tuple[int, int]]] = {}
    for row in results.rows:
        for turn, union, confederate in row.maxima:
            by_turn.setdefault(turn, []).append((union, confederate))
    if not by_turn:
        raise ValueError("no army maxima recorded")
    turns = np.array(sorted(by_turn))
    data = [np.array(by_turn[t], dtype=float) for t in turns]
    return Trajectory(turns, np.array([d[:, 0].mean() for d in data]), np.array([d[:, 1].mean() for d in data]),
                      np.array([len(d) for d in data]))
