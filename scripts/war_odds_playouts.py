"""Would playouts from each position beat the live war odds? A measurement for issue 34, not a shipped estimator.

    .venv/bin/python scripts/war_odds_playouts.py GAMES.jsonl.xz ... --base BASE.jsonl.xz ... --games 10 --n 8

For the first ``--games`` games of each file, at every half-turn start before the end (as ``war_odds_calibration.py
report`` scores the live odds), ``--n`` playouts by the game's own players (``ahd.analysis.war_odds.deep``, seeded
by the game's seed and the position) give ``k`` Union wins (a draw half). Scored per scenario and pair, each game
weighted equally, against the games' results:

- ``base``: the pair's prior from the ``--base`` games, (wins + 1) / (games + 2), the report's base rate;
- ``live``: the odds the app shows (``ahd.odds.war.war_odds`` for the game's players);
- ``raw``: k / n;
- ``blend``: (k + a x prior) / (n + a), the prior counted as ``--strength`` (a) playouts.

Positions the rules have decided (``ahd.odds.decided``) are exactly 0 in all four. Printed with the seconds a
position's playouts took (CPU of one worker), the machine, and the files.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from ahd.analysis.bench import machine  # noqa: E402
from ahd.analysis.war_odds import deep  # noqa: E402
from ahd.odds import war  # noqa: E402

import war_odds_calibration as woc  # noqa: E402  (scripts/, on the path above)

FORMS = ("base", "live", "raw", "blend")


def score_game(job: tuple) -> dict:
    """One game's positions: [(live p, decided or None, playout wins k)], its result, and the seconds spent."""
    row, n = job
    points, spent = [], 0.0
    for index, game in enumerate(woc.positions(row["record"])):
        if game.is_over:
            continue
        odds = war.war_odds(game, union=row["union"], confederate=row["confederate"])
        live, known = odds.p_union, (odds.p_union if odds.model == "decided" else None)
        wins = None
        if known is None:
            start = time.process_time()
            wins = deep(game, n, seed=row["seed"] * 1000 + index, union=row["union"],
                        confederate=row["confederate"]).wins
            spent += time.process_time() - start
        points.append((live, known, wins))
    return {"scenario": row["scenario"], "pair": f"{row['union']} v {row['confederate']}", "seed": row["seed"],
            "y": row["y"], "n": n, "points": points, "seconds": spent}


def brier(games: list[dict], forms: dict) -> dict[str, float]:
    """Each form's Brier score over the games' positions, every game weighted equally."""
    out = {}
    for name, estimate in forms.items():
        total = 0.0
        for g in games:
            errors = [((known if known is not None else estimate(live, wins)) - g["y"]) ** 2
                      for live, known, wins in g["points"]]
            total += float(np.mean(errors))
        out[name] = total / len(games)
    return out


def read_scored(path: str, n: int) -> list[dict]:
    """The games a ``--save`` file holds, each played out ``n`` times a position; a clear message otherwise."""
    games = []
    try:
        lines = Path(path).read_text("utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise SystemExit(f"--scored {path}: cannot read it ({exc})") from None
    for number, line in enumerate(lines, 1):
        try:
            game = json.loads(line)
            keys = (game["scenario"], game["pair"], game["seed"], game["y"], game["n"], game["points"])
        except (ValueError, TypeError, KeyError) as exc:
            raise SystemExit(f"--scored {path}, line {number}: not a scored game ({exc!r})") from None
        if keys[4] != n:
            raise SystemExit(f"--scored {path}, line {number}: key 'n' is {keys[4]!r}, these scores use --n {n}")
        games.append(game)
    return games


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--base", nargs="+", required=True, help="the games whose results give each pair's prior")
    parser.add_argument("--games", type=int, default=10, help="games scored from each file (its first ones)")
    parser.add_argument("--n", type=int, default=8, help="playouts per position")
    parser.add_argument("--strength", type=float, default=8.0, help="the prior, counted as this many playouts")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--save", help="append each game's scored positions to this file (JSON lines) as it ends")
    parser.add_argument("--scored", nargs="+", default=[],
                        help="games already scored (files written by --save): printed with the others, not played "
                             "again")
    args = parser.parse_args(argv)
    if args.games < 1 or args.n < 1 or args.strength < 0 or args.workers < 1:
        parser.error("--games, --n and --workers must be positive and --strength not negative")
    results = defaultdict(list)
    for row in woc.load(args.base):
        results[(row["scenario"], f"{row['union']} v {row['confederate']}")].append(row["y"])
    scored = [game for path in args.scored for game in read_scored(path, args.n)]
    done = {(g["scenario"], g["pair"], g["seed"]) for g in scored}
    jobs = [(row, args.n) for path in args.files for row in woc.load([path])[:args.games]
            if (row["scenario"], f"{row['union']} v {row['confederate']}", row["seed"]) not in done]
    with ProcessPoolExecutor(args.workers) if args.workers > 1 else nullcontext() as pool:
        for count, g in enumerate(pool.map(score_game, jobs) if pool else map(score_game, jobs), 1):
            scored.append(g)
            if args.save:
                with open(args.save, "a", encoding="utf-8") as handle:
                    handle.write(json.dumps(g) + "\n")
            print(f"{count}/{len(jobs)}: {g['scenario']} {g['pair']}, {len(g['points'])} positions, "
                  f"{g['seconds']:.0f} s of playouts", file=sys.stderr, flush=True)
    cells = defaultdict(list)
    for g in scored:
        cells[(g["scenario"], g["pair"])].append(g)
    a = args.strength
    print(f"Playouts ({args.n} a position, the prior as {a:g} playouts) against the live odds and the base rate; "
          f"machine: {machine()}")
    print(f"games: {', '.join(args.files)} (the first {args.games} of each)"
          + (f" and the {len(done)} in {', '.join(args.scored)}" if args.scored else "")
          + f"; base: {', '.join(args.base)}")
    print(f"{'scenario':8} {'pair':16} {'games':>5} {'positions':>9} " + " ".join(f"{f:>7}" for f in FORMS)
          + f" {'s/position':>10}")
    for (scenario, pair), games in sorted(cells.items(), key=lambda kv: woc._order(kv[0])):
        if not results[(scenario, pair)]:
            raise SystemExit(f"--base: no games of {scenario} {pair}")
        prior = woc.prior_of(results[(scenario, pair)])
        forms = {"base": lambda live, wins: prior, "live": lambda live, wins: live,
                 "raw": lambda live, wins: wins / args.n, "blend": lambda live, wins: (wins + a * prior) / (args.n + a)}
        scores = brier(games, forms)
        played = sum(1 for g in games for _, known, _ in g["points"] if known is None)
        positions = sum(len(g["points"]) for g in games)
        print(f"{scenario:8} {pair:16} {len(games):>5} {positions:>9} "
              + " ".join(f"{scores[f]:>7.4f}" for f in FORMS)
              + f" {sum(g['seconds'] for g in games) / max(played, 1):>10.2f}")
    return scored


if __name__ == "__main__":
    main()
