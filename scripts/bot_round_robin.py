"""A round robin of players over 1861 games, both seats: win rates with 95% Wilson intervals,
Bradley-Terry ratings (as Elo, with the Union seat's advantage fitted) with 95% bootstrap intervals,
and the time per decision of each player.

    .venv/bin/python scripts/bot_round_robin.py --players random,heuristic,search,easy,normal,hard \
        --games 20 --hard-games 100 --workers 2 --out artifacts/round_robin.jsonl

``--games`` games a seat for each pair, ``--hard-games`` for each pair that involves ``--focus``
(default ``hard``). ``search`` is today's search bot with its deterministic budget
(``search:iterations=2``, as measured in the README); other names go to ``ahd.bots.make_bot``.
Game ``i`` of a pairing is seeded ``seed * 100_000 + i`` for both seatings, so both orders of a pair
play the same dice seeds. Results are appended to ``--out`` (one JSON line per game) and games
already there are not played again (``--resume``), so a long run can be stopped and continued.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ahd  # noqa: E402
from ahd.analysis.bench import machine  # noqa: E402
from ahd.analysis.simulate import play_timed, wilson  # noqa: E402
from ahd.bots import make_bot  # noqa: E402
from ahd.core.sides import Side  # noqa: E402

ALIASES = {"search": "search:iterations=2"}


def play_one(job: tuple) -> dict:
    union, confederate, seed = job
    game = ahd.new_game("1861", seed=seed)
    bots = {Side.UNION: make_bot(ALIASES.get(union, union), 2 * seed + 1),
            Side.CONFEDERATE: make_bot(ALIASES.get(confederate, confederate), 2 * seed + 2)}
    start = time.perf_counter()
    times = play_timed(game, bots)
    winner = game.outcome.winner
    return {"union": union, "confederate": confederate, "seed": seed,
            "winner": None if winner is None else ("union" if winner is Side.UNION else "confederate"),
            "turn": game.state.turn, "seconds": time.perf_counter() - start,
            "times": {k: [round(x, 4) for x in v] for k, v in times.items()}}


def bradley_terry(results: list[dict], players: list[str], iters: int = 200) -> tuple[np.ndarray, float]:
    """Log-strengths (mean 0) and the Union seat's log-advantage, fitted by maximum likelihood
    (Newton steps on a lightly regularised likelihood; a draw counts half a win each way)."""
    idx = {p: i for i, p in enumerate(players)}
    n = len(players)
    rows = []
    for r in results:
        u, c = idx[r["union"]], idx[r["confederate"]]
        y = 1.0 if r["winner"] == "union" else 0.0 if r["winner"] == "confederate" else 0.5
        rows.append((u, c, y))
    if not rows:
        return np.zeros(n), 0.0
    U = np.array([r[0] for r in rows]); C = np.array([r[1] for r in rows]); Y = np.array([r[2] for r in rows])
    theta = np.zeros(n + 1)  # strengths, then the Union seat
    X = np.zeros((len(rows), n + 1))
    X[np.arange(len(rows)), U] += 1
    X[np.arange(len(rows)), C] -= 1
    X[:, n] = 1
    ridge = 0.01
    for _ in range(iters):
        p = 1 / (1 + np.exp(-(X @ theta)))
        grad = X.T @ (Y - p) - ridge * theta
        hess = (X * (p * (1 - p))[:, None]).T @ X + ridge * np.eye(n + 1)
        step = np.linalg.solve(hess, grad)
        theta += step
        if np.abs(step).max() < 1e-9:
            break
    strengths = theta[:n] - theta[:n].mean()
    return strengths, float(theta[n])


def report(results: list[dict], players: list[str], out=sys.stdout, boot: int = 200) -> None:
    elo = 400 / math.log(10)
    print(f"\n{len(results)} games of 1861; {machine()}; {_load()}", file=out)
    print("\nUnion win rate, row = Union player, column = Confederate player (wins/games, 95% Wilson interval):",
          file=out)
    width = 22
    print(" " * 11 + "".join(f"{p:>{width}}" for p in players), file=out)
    for u in players:
        cells = []
        for c in players:
            games = [r for r in results if r["union"] == u and r["confederate"] == c]
            if not games:
                cells.append(f"{'-':>{width}}")
                continue
            w = sum(r["winner"] == "union" for r in games)
            lo, hi = wilson(w, len(games))
            cells.append(f"{f'{w}/{len(games)} {lo:.0%}-{hi:.0%}':>{width}}")
        print(f"{u:>11}" + "".join(cells), file=out)
    print("\nPooled over both seats (row's wins / games, 95% Wilson interval):", file=out)
    for a, b in itertools.combinations(players, 2):
        games = [r for r in results if {r["union"], r["confederate"]} == {a, b}]
        if not games:
            continue
        w = sum(1.0 if r["winner"] == ("union" if r["union"] == a else "confederate") else 0.5 if r["winner"] is None
                else 0.0 for r in games)
        lo, hi = wilson(round(w), len(games))
        print(f"  {a:>9} v {b:<9} {w:g}/{len(games)} = {w / len(games):.1%} ({lo:.1%}-{hi:.1%})", file=out)
    strengths, seat = bradley_terry(results, players)
    rng = np.random.default_rng(0)
    samples = []
    for _ in range(boot):
        pick = rng.integers(len(results), size=len(results))
        s, _ = bradley_terry([results[i] for i in pick], players, iters=50)
        samples.append(s)
    samples = np.array(samples)
    print(f"\nBradley-Terry ratings as Elo (mean 0; 95% bootstrap interval, {boot} resamples of the games); "
          f"the Union seat is worth {seat * elo:+.0f}:", file=out)
    order = np.argsort(-strengths)
    for i in order:
        lo, hi = np.percentile(samples[:, i], [2.5, 97.5]) * elo
        print(f"  {players[i]:>9} {strengths[i] * elo:+6.0f}  ({lo:+.0f} to {hi:+.0f})", file=out)
    print("\nSeconds per decision (all decisions of the player, both seats): median, p95, max, decisions:",
          file=out)
    for p in players:
        t = [x for r in results for side in ("union", "confederate") if r[side] == p for x in r["times"][side]]
        if t:
            a = np.array(t)
            print(f"  {p:>9} {np.median(a):.4f} {np.percentile(a, 95):.4f} {a.max():.3f} {len(a)}", file=out)


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.2f} {five:.2f} {fifteen:.2f} on {os.cpu_count()} cores"


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", default="random,heuristic,search,easy,normal,hard")
    p.add_argument("--games", type=int, default=20, help="games a seat per pair")
    p.add_argument("--hard-games", type=int, default=100, help="games a seat per pair involving --focus")
    p.add_argument("--focus", default="hard")
    p.add_argument("--pairs", default="", help="only these pairs, e.g. hard/heuristic,hard/search")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--out", default="artifacts/round_robin.jsonl")
    p.add_argument("--report-only", action="store_true")
    a = p.parse_args(argv)
    players = a.players.split(",")
    out = Path(a.out)
    done = [json.loads(line) for line in out.read_text().splitlines()] if out.exists() else []
    have = {(r["union"], r["confederate"], r["seed"]) for r in done}
    pairs = [tuple(x.split("/")) for x in a.pairs.split(",") if x] or list(itertools.combinations(players, 2))
    jobs = []
    for x, y in pairs:
        n = a.hard_games if a.focus in (x, y) else a.games
        for i in range(n):
            seed = a.seed * 100_000 + i
            for job in ((x, y, seed), (y, x, seed)):
                if job not in have:
                    jobs.append(job)
    # interleave so that a stopped run has a bit of every pair
    jobs.sort(key=lambda j: (j[2], j[0], j[1]))
    print(f"{len(jobs)} games to play ({len(done)} already in {out}); {_load()}", flush=True)
    t0 = time.time()
    if jobs and not a.report_only:
        out.parent.mkdir(parents=True, exist_ok=True)
        with ProcessPoolExecutor(a.workers) as pool, out.open("a") as f:
            futures = [pool.submit(play_one, j) for j in jobs]
            for k, fut in enumerate(as_completed(futures), 1):
                r = fut.result()
                f.write(json.dumps(r) + "\n")
                f.flush()
                done.append(r)
                if k % 10 == 0:
                    print(f"  {k}/{len(jobs)} games, {time.time() - t0:.0f} s", flush=True)
    results = [r for r in done if r["union"] in players and r["confederate"] in players]
    report(results, players)


if __name__ == "__main__":
    main()
