"""Units moved per Union half-turn, early (turns < 15) and late (turns >= 15), for a Union player
against a Confederate player over seeded 1861 games; why the Union stands still.

    .venv/bin/python scripts/union_stall.py --union heuristic --confederate heuristic --games 20

Per late Union half-turn it also counts the reasons movement ended: how many marches were left
unused and how many Union units stood in Washington and next to Richmond.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ahd  # noqa: E402
from ahd.bots import make_bot  # noqa: E402
from ahd.core.actions import Move  # noqa: E402
from ahd.core.sides import CHANCE, Side  # noqa: E402


def one(args):
    seed, union, confederate = args
    game = ahd.new_game("1861", seed=seed)
    players = {Side.UNION: make_bot(union, 2 * seed + 1), Side.CONFEDERATE: make_bot(confederate, 2 * seed + 2)}
    moved: dict[int, set] = {}
    unused: dict[int, int] = {}
    army: dict[int, int] = {}
    while not game.is_over:
        player = game.current_player
        if player == CHANCE:
            game.roll()
            continue
        state = game.state
        action = players[player].choose(game)
        if player is Side.UNION and game.decision == "movement":
            army[state.turn] = len(game.units(Side.UNION))
            from ahd.core.actions import EndMovement
            if isinstance(action, EndMovement):
                unused[state.turn] = state.marches_left
        if player is Side.UNION and isinstance(action, Move):
            moved.setdefault(state.turn, set()).add(action.unit)
        game.apply(action)
    turns = game.state.turn
    end = (game.state.victory_cities_held(), game.army_max(Side.UNION) - game.army_max(Side.CONFEDERATE),
           game.outcome.reason)
    return seed, turns, {t: len(moved.get(t, ())) for t in range(1, turns + 1)}, unused, army, game.outcome.winner, end


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--union", default="heuristic")
    p.add_argument("--confederate", default="heuristic")
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args(argv)
    t0 = time.time()
    jobs = [(a.seed * 1000 + i, a.union, a.confederate) for i in range(a.games)]
    with ProcessPoolExecutor(a.workers) as pool:
        results = list(pool.map(one, jobs))
    early, late, late_unused, late_army = [], [], [], []
    wins = 0
    ends = []
    for seed, turns, moved, unused, army, winner, end in results:
        ends.append(end)
        wins += winner is Side.UNION
        for t, n in moved.items():
            (late if t >= 15 else early).append(n)
            if t >= 15:
                late_unused.append(unused.get(t, 0))
                late_army.append(army.get(t, 0))
    mean = lambda xs: statistics.mean(xs) if xs else float("nan")
    print(f"{a.union} (Union) v {a.confederate} (Confederacy), {a.games} games 1861, seeds {jobs[0][0]}..")
    print(f"  Union wins {wins}/{a.games}")
    print(f"  units moved per Union half-turn: turns 1-14 {mean(early):.2f} (n={len(early)}), "
          f"turns >= 15 {mean(late):.2f} (n={len(late)}); half-turns with 0 moved after 15: "
          f"{sum(1 for n in late if n == 0)}/{len(late)}")
    print(f"  after turn 15: marches left unused {mean(late_unused):.2f}, Union units on the map {mean(late_army):.1f}")
    print(f"  at the end: victory cities held by the Union {mean([e[0] for e in ends]):.1f}, army maxima "
          f"Union - Confederacy {mean([e[1] for e in ends]):+.1f}; endings: "
          f"{', '.join(sorted(set(e[2][:40] for e in ends)))}")
    print(f"  {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
