"""Random-game conformance over every scenario x preset (and random switch mixes), with the
invariants of tests/test_conformance.py checked after every action and a bad action refused
without a change of state. Prints games, decisions, invariant violations (goal 0) and games/s.

    .venv/bin/python scripts/conformance.py --games-per-cell 4 --random-mixes 60 --seed 1

Slow on purpose (minutes): a figure for the issue notes, not a test. The suite runs the same
checks on a smaller sample (tests/test_conformance.py, tests/test_advanced_conformance.py).
"""
from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import numpy as np  # noqa: E402

import ahd  # noqa: E402
from ahd.analysis.bench import machine  # noqa: E402
from ahd.core.options import PRESETS, SWITCHES  # noqa: E402
from test_conformance import play_checked  # noqa: E402

SCENARIOS = ("1861", "short", "1862", "1863", "1864")


def cells(games_per_cell: int, mixes: int, seed: int):
    """(scenario, options label, options, seed) for every scenario x preset, then random mixes."""
    n = 0
    for scenario in SCENARIOS:
        for preset in PRESETS:
            for _ in range(games_per_cell):
                yield scenario, preset, preset, seed + n
                n += 1
    rng = np.random.default_rng(seed)
    for i in range(mixes):
        options = sorted(rule for rule in SWITCHES if rng.random() < 0.5)
        yield SCENARIOS[i % len(SCENARIOS)], "random mix", options, seed + n
        n += 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-cell", type=int, default=4)
    parser.add_argument("--random-mixes", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"machine: {machine()}")
    games = decisions = violations = 0
    start = time.perf_counter()
    by_cell: dict[tuple[str, str], int] = {}
    for scenario, label, options, seed in cells(args.games_per_cell, args.random_mixes, args.seed):
        try:
            game = play_checked(seed, scenario, options)
            decisions += len(game.history)
            assert game.outcome is not None, "the game ended with no outcome"
        except Exception:  # an invariant or a crash: count it and show it
            violations += 1
            print(f"VIOLATION in {scenario} / {label} / seed {seed}:")
            traceback.print_exc(limit=3)
        games += 1
        by_cell[(scenario, label)] = by_cell.get((scenario, label), 0) + 1
    elapsed = time.perf_counter() - start
    print(f"scenarios x presets: {len(SCENARIOS)} x {len(PRESETS)} (+ {args.random_mixes} random switch mixes)")
    print(f"games: {games}; decisions: {decisions:,}; invariant violations: {violations}; "
          f"{games / elapsed:.2f} games/s ({elapsed:.0f} s, one core)")
    return 1 if violations else 0


if __name__ == "__main__":
    sys.exit(main())
