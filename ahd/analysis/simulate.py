"""Many games between bots: ``ahd.simulate(n, ...)``.

Game ``i`` is seeded from ``numpy.random.SeedSequence(seed).spawn(n)[i]``, so the results are the
same whatever the number of workers or the executor. ``executor`` may be any
``concurrent.futures.Executor`` — e.g. ``dask.distributed.Client(...).get_executor()`` or
``ray.util.multiprocessing``-style pools — to run beyond one machine; by default a process pool
with ``workers`` processes (1 = in this process).
"""
from __future__ import annotations

import math
import time
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..bots import make_bot
from ..core.display import html_table, percent
from ..core.game import new_game
from ..core.sides import CHANCE, Side


@dataclass(frozen=True, slots=True)
class GameResult:
    index: int
    winner: str | None
    rule: str
    reason: str
    final_turn: int
    maxima: tuple[tuple[int, int, int], ...]  # (turn, union max, confederate max) at the end of each turn
    battles: int
    actions: int


def play_timed(game, bots: dict) -> dict[str, list[float]]:
    """Play ``game`` out between ``bots`` ({Side: bot}; chance by the game's own dice) and return each side's
    decision times in seconds ({"union": [...], "confederate": [...]}): the round robins' loop."""
    times: dict[str, list[float]] = {"union": [], "confederate": []}
    while not game.is_over:
        player = game.current_player
        if player == CHANCE:
            game.roll()
            continue
        started = time.perf_counter()
        action = bots[player].choose(game)
        times[player.value].append(time.perf_counter() - started)
        game.apply(action)
    return times


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


@dataclass
class SimulationResults:
    """The table of results, one row per game, with summaries."""

    rows: list[GameResult] = field(default_factory=list)
    scenario: str = ""
    union: str = ""
    confederate: str = ""

    def __len__(self) -> int:
        return len(self.rows)

    def wins(self, side: Side | str) -> int:
        return sum(1 for r in self.rows if r.winner == Side.parse(side).value)

    def win_rate(self, side: Side | str) -> tuple[float, float, float]:
        """(rate, low, high): the side's win rate with its 95% interval."""
        k, n = self.wins(side), len(self.rows)
        low, high = wilson(k, n)
        return (k / n if n else 0.0, low, high)

    def endings(self) -> dict[tuple[str | None, str], int]:
        """How games ended: (winner, rule) -> count."""
        counts: dict = {}
        for r in self.rows:
            counts[(r.winner, r.rule)] = counts.get((r.winner, r.rule), 0) + 1
        return dict(sorted(counts.items(), key=lambda kv: -kv[1]))

    def __repr__(self) -> str:  # not the dataclass dump: 10,000 rows would print megabytes
        head = f"<SimulationResults {len(self)} games, {self.scenario}: Union {self.union} vs Confederacy {self.confederate}"
        if not self.rows:
            return head + ">"
        rates = "; ".join(f"{side.adjective} wins {rate:.1%} [{low:.1%}–{high:.1%}]"
                          for side in Side for rate, low, high in [self.win_rate(side)])
        turns = [r.final_turn for r in self.rows]
        return f"{head} — {rates}; median final turn {float(np.median(turns)):.0f}>"

    def _repr_html_(self) -> str:
        caption = f"{len(self):,} games, {self.scenario}: Union {self.union} vs Confederacy {self.confederate}"
        if not self.rows:
            return html_table(caption, [])
        rows = []
        for side in Side:
            rate, low, high = self.win_rate(side)
            rows.append((f"{side.adjective} wins", f"{percent(rate)} ({percent(low)}–{percent(high)})"))
        draws = sum(1 for r in self.rows if r.winner is None)
        if draws:
            rows.append(("no winner", percent(draws / len(self))))
        endings = list(self.endings().items())
        for (winner, rule), count in endings[:5]:
            rows.append((f"{winner or 'draw'} by {rule}", f"{count:,}"))
        if len(endings) > 5:
            rows.append((f"{len(endings) - 5} other endings", f"{sum(c for _, c in endings[5:]):,}"))
        turns = [r.final_turn for r in self.rows]
        rows.append(("final turn", f"median {float(np.median(turns)):.0f}, {min(turns)}–{max(turns)}"))
        return html_table(caption, rows, "win rates with their 95% (Wilson) intervals; summary() has the text")

    def summary(self) -> str:
        lines = [f"{len(self)} games, {self.scenario}: Union {self.union} vs Confederacy {self.confederate}"]
        for side in Side:
            rate, low, high = self.win_rate(side)
            lines.append(f"  {side.adjective} wins {rate:.1%} (95% interval {low:.1%}–{high:.1%})")
        draws = sum(1 for r in self.rows if r.winner is None)
        if draws:
            lines.append(f"  no winner (scenario draw) {draws / len(self):.1%}")
        lines.append("  how games ended:")
        for (winner, rule), count in self.endings().items():
            lines.append(f"    {count:>6}  {winner or 'draw'} by {rule}")
        turns = [r.final_turn for r in self.rows]
        lines.append(f"  final turn: median {float(np.median(turns)):.0f}, range {min(turns)}–{max(turns)}")
        return "\n".join(lines)


def play_one(index: int, seed_seq: np.random.SeedSequence, scenario: str, options: Any, union: str,
             confederate: str, play_on: bool = False) -> GameResult:
    """One game with its own seeds for the dice and both bots."""
    dice, u_seed, c_seed = (int(s.generate_state(1, np.uint64)[0] >> np.uint64(1)) for s in seed_seq.spawn(3))
    game = new_game(scenario, options=options, seed=dice, play_on=play_on)
    bots = {Side.UNION: make_bot(union, u_seed), Side.CONFEDERATE: make_bot(confederate, c_seed)}
    maxima = []
    turn = game.turn.number
    battles = 0
    actions = 0
    while not game.is_over:
        player = game.current_player
        if player == CHANCE:
            game.roll()
            continue
        before = game.state.battle
        game.apply(bots[player].choose(game))
        actions += 1
        if game.state.battle is not None and game.state.battle is not before and before is None:
            battles += 1
        if game.turn.number != turn:
            maxima.append((turn, game.army_max(Side.UNION), game.army_max(Side.CONFEDERATE)))
            turn = game.turn.number
    maxima.append((turn, game.army_max(Side.UNION), game.army_max(Side.CONFEDERATE)))
    outcome = game.outcome
    return GameResult(index, outcome.winner.value if outcome.winner else None, outcome.rule, outcome.reason,
                      outcome.turn, tuple(maxima), battles, actions)


def _play_chunk(args: tuple) -> list[GameResult]:
    indices, seeds, scenario, options, union, confederate, play_on = args
    return [play_one(i, s, scenario, options, union, confederate, play_on) for i, s in zip(indices, seeds)]


def run_chunks(function: Callable, jobs: list, n: int, *, workers: int = 1, executor: Executor | None = None,
               progress: Callable[[int, int], None] | None = None) -> list:
    """Run ``function(job)`` (each returning a list of results) for every job: in this process, on a pool
    of ``workers`` processes, or on a given ``concurrent.futures`` executor; ``progress(done, n)`` after
    each job. Results come in completion order: callers that need an order sort them."""
    results: list = []
    own = None
    if executor is None and workers > 1:
        # imported here, not with the module: `import ahd` stays free of multiprocessing (Pyodide has none)
        from concurrent.futures import ProcessPoolExecutor
        executor = own = ProcessPoolExecutor(max_workers=workers)
    try:
        if executor is None:
            for job in jobs:
                results.extend(function(job))
                if progress:
                    progress(len(results), n)
        else:
            for future in as_completed([executor.submit(function, job) for job in jobs]):
                results.extend(future.result())
                if progress:
                    progress(len(results), n)
    finally:
        if own is not None:
            own.shutdown()
    return results


def simulate(n: int, *, scenario: str = "1861", options: Any = None, union: str = "heuristic",
             confederate: str = "heuristic", seed: int = 0, workers: int = 1, executor: Executor | None = None,
             progress: Callable[[int, int], None] | None = None, chunk: int = 10,
             play_on: bool = False) -> SimulationResults:
    """Play ``n`` games between bots (named ``random`` / ``heuristic``); returns a SimulationResults.

    ``progress(done, n)`` is called as games finish. The same ``seed`` gives the same table whatever
    ``workers`` or ``executor``.
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    make_bot(union), make_bot(confederate)  # fail early on unknown names
    seeds = np.random.SeedSequence(seed).spawn(n)
    jobs = [(list(range(i, min(i + chunk, n))), seeds[i:i + chunk], scenario, options, union, confederate, play_on)
            for i in range(0, n, chunk)]
    rows: list[GameResult] = run_chunks(_play_chunk, jobs, n, workers=workers, executor=executor, progress=progress)
    rows.sort(key=lambda r: r.index)
    return SimulationResults(rows, scenario, union, confederate)
