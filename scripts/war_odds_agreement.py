"""Deep (playouts) against live (the fitted model) war odds over a set of positions: how far apart.

    .venv/bin/python scripts/war_odds_agreement.py --games 3 --turns 6,12,18,24 --playouts 16 \
        --players hard --workers 2

Positions: seeded 1861 games between ``--players`` (both sides), stopped at the start of the Union
half of each of ``--turns``. At each: the live estimate (``ahd.war_odds(game)``, with its 95%
interval) and the deep one (``ahd.war_odds(game, "deep", n=playouts, union=players,
confederate=players)``: playouts between the same players the live model was fitted on, Wilson
interval). Prints each position, the mean absolute difference, the mean signed difference (live minus
deep) and how often each estimate lies in the other's interval.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ahd  # noqa: E402
from ahd.bots import make_bot  # noqa: E402
from ahd.core.sides import CHANCE, Side  # noqa: E402


def positions(games: int, turns: list[int], players: str, seed: int):
    for g in range(games):
        game = ahd.new_game("1861", seed=seed * 1000 + g)
        bots = {Side.UNION: make_bot(players, 2 * g + 1), Side.CONFEDERATE: make_bot(players, 2 * g + 2)}
        for turn in turns:
            while not game.is_over and not (game.state.turn >= turn and game.state.phasing is Side.UNION):
                player = game.current_player
                if player == CHANCE:
                    game.roll()
                else:
                    game.apply(bots[player].choose(game))
            if game.is_over:
                break
            yield g, turn, game.copy()


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--turns", default="6,12,18,24")
    p.add_argument("--playouts", type=int, default=16)
    p.add_argument("--players", default="hard")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--save", help="save the positions and their deep estimates here (JSON lines)")
    p.add_argument("--from", dest="source", help="reuse positions and deep estimates saved by --save: "
                                                  "only the live estimates are computed (e.g. after a refit)")
    a = p.parse_args(argv)
    t0 = time.time()
    from ahd.odds.war import players as model_players
    print(f"live model fitted on: {', '.join(f'{n} ({s:.0%})' for n, s, _ in model_players())}; "
          f"deep: {a.playouts} playouts {a.players} v {a.players}; load {os.getloadavg()[0]:.1f}")
    print(f"{'game':>4} {'turn':>4} {'live':>6} {'live 95%':>13} {'deep':>6} {'deep 95%':>13} {'diff':>6}")
    rows = []
    if a.source:
        saved = [json.loads(line) for line in Path(a.source).read_text().splitlines()]
        found = ((r["game"], r["turn"], ahd.Game.from_json(r["record"]), r["deep"]) for r in saved)
    else:
        found = ((g, turn, game, None) for g, turn, game in
                 positions(a.games, [int(t) for t in a.turns.split(",")], a.players, a.seed))
    for g, turn, game, known in found:
        live = ahd.war_odds(game)
        if known is None:
            deep = ahd.war_odds(game, "deep", n=a.playouts, seed=a.seed, union=a.players, confederate=a.players,
                                workers=a.workers)
            if a.save:
                with open(a.save, "a") as f:
                    f.write(json.dumps({"game": g, "turn": turn, "record": game.to_json(),
                                        "deep": [deep.p_union, deep.low, deep.high]}) + "\n")
        else:
            deep = SimpleNamespace(p_union=known[0], low=known[1], high=known[2])
        rows.append((live.p_union, deep.p_union, live.low <= deep.p_union <= live.high,
                     deep.low <= live.p_union <= deep.high))
        print(f"{g:>4} {turn:>4} {live.p_union:>6.2f} {live.low:>6.2f}-{live.high:<6.2f} {deep.p_union:>6.2f} "
              f"{deep.low:>6.2f}-{deep.high:<6.2f} {live.p_union - deep.p_union:>+6.2f}", flush=True)
    if rows:
        r = np.array(rows, dtype=float)
        print(f"{len(rows)} positions: mean |live - deep| {np.mean(np.abs(r[:, 0] - r[:, 1])):.3f}, "
              f"mean live - deep {np.mean(r[:, 0] - r[:, 1]):+.3f}, correlation "
              f"{np.corrcoef(r[:, 0], r[:, 1])[0, 1] if len(rows) > 2 else float('nan'):.2f}; deep in the live "
              f"interval {int(r[:, 2].sum())}/{len(rows)}, live in the deep interval {int(r[:, 3].sum())}/{len(rows)}")
    print(f"{time.time() - t0:.0f} s; load average {os.getloadavg()}")


if __name__ == "__main__":
    main()
