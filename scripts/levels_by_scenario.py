"""Levels on every scenario: one player against another in both seats on seeds fixed in advance, per
scenario; win rates pooled over both seats (a draw counts half) with 95% Wilson intervals, and the time
per decision of the first player (median, 95th percentile).

    nice -n 15 .venv/bin/python scripts/levels_by_scenario.py --a hard --b heuristic --games 10 \
        --seed 960000 --scenarios 1861,short,1862,1863,1864 --out artifacts/levels_heldout.jsonl

Game ``i`` of a scenario has dice seed ``seed + i`` in both seatings (the bots ``2*(seed+i)+1`` for the
Union, ``+2`` for the Confederacy). Games already in ``--out`` are not played again, so a run can be
stopped and continued; the summary is printed from everything in ``--out`` for these players and seeds.
``--a``/``--b`` are ``ahd.bots.make_bot`` names; ``hard@capital`` is hard with its Union's ``capital`` set to
the value after the ``@`` (a tuning probe), ``search`` the round robin's ``search:iterations=2``.
A scenario ``NAME+PRESET`` is that scenario under an options preset (``1861+advanced``: ``ahd.core.options.PRESETS``).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import ahd  # noqa: E402
from ahd.analysis.bench import machine  # noqa: E402
from ahd.analysis.simulate import play_timed, wilson  # noqa: E402
from ahd.bots import LEVELS, SidedBot, make_bot  # noqa: E402
from ahd.core.sides import Side  # noqa: E402

ALIASES = {"search": "search:iterations=2"}


def bot(name: str, seed: int):
    if name.startswith("hard@"):
        sided = make_bot("hard", seed)
        return SidedBot(name, make_bot(f"{LEVELS['hard'].union},capital={name[5:]}", seed), sided.confederate)
    return make_bot(ALIASES.get(name, name), seed)


def play(scenario: str, union: str, confederate: str, seed: int) -> dict:
    name, _, preset = scenario.partition("+")
    game = ahd.new_game(name, seed=seed, options=preset or None)
    bots = {Side.UNION: bot(union, 2 * seed + 1), Side.CONFEDERATE: bot(confederate, 2 * seed + 2)}
    times = {side: [round(t, 4) for t in ts] for side, ts in play_timed(game, bots).items()}
    w = game.outcome.winner
    return {"scenario": scenario, "union": union, "confederate": confederate, "seed": seed,
            "winner": None if w is None else w.value, "turn": game.state.turn, "times": times}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="hard")
    parser.add_argument("--b", default="heuristic")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--scenarios", default="1861,short,1862,1863,1864")
    parser.add_argument("--out", required=True)
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--seat", choices=("both", "union", "confederate"), default="both",
                        help="play --a in this seat only (a tuning probe)")
    args = parser.parse_args()
    out = Path(args.out)
    done = set()
    if out.exists():
        done = {(r["scenario"], r["union"], r["confederate"], r["seed"])
                for r in map(json.loads, out.read_text().splitlines())}
    seeds = range(args.seed, args.seed + args.games)
    t0 = time.perf_counter()
    for scenario in args.scenarios.split(","):
        for seed in seeds:
            seats = {"both": ((args.a, args.b), (args.b, args.a)), "union": ((args.a, args.b),),
                     "confederate": ((args.b, args.a),)}[args.seat]
            for union, confederate in seats:
                if args.report_only or (scenario, union, confederate, seed) in done:
                    continue
                row = play(scenario, union, confederate, seed)
                with out.open("a") as handle:
                    handle.write(json.dumps(row) + "\n")
                print(f"{scenario:6} {union} v {confederate} seed {seed}: {row['winner']} turn {row['turn']} "
                      f"({time.perf_counter() - t0:.0f} s)", flush=True)
    rows = [r for r in map(json.loads, out.read_text().splitlines()) if r["seed"] in seeds]
    print(f"\n{args.a} v {args.b}, seeds {args.seed}-{args.seed + args.games - 1} both seats; machine: {machine()}")
    summary(rows, args.a, args.b, args.scenarios.split(","))


def summary(rows: list[dict], a: str, b: str, scenarios: list[str]) -> dict[str, tuple[float, int]]:
    """Print the table of ``a`` v ``b`` per scenario (pooled score, Wilson interval, ``a``'s decision times)
    from the games ``rows``; return {scenario: (pooled score, games)}."""
    print(f"{'scenario':9}{'as Union':>10}{'as Conf.':>10}{'pooled':>9}   95% interval   {a} decision s: median  p95")
    pooled = {}
    for scenario in scenarios:
        score = lambda r, side: 1.0 if r["winner"] == side else 0.5 if r["winner"] is None else 0.0  # noqa: E731
        as_u = [score(r, "union") for r in rows if r["scenario"] == scenario and r["union"] == a
                and r["confederate"] == b]
        as_c = [score(r, "confederate") for r in rows if r["scenario"] == scenario and r["confederate"] == a
                and r["union"] == b]
        both = as_u + as_c
        if not both:
            continue
        low, high = wilson(int(round(sum(both))), len(both))
        times = [t for r in rows if r["scenario"] == scenario for side in ("union", "confederate")
                 if r[side] == a for t in r["times"][side]]
        med, p95 = (np.median(times), np.percentile(times, 95)) if times else (float("nan"),) * 2
        print(f"{scenario:9}{sum(as_u):>6g}/{len(as_u):<3}{sum(as_c):>6g}/{len(as_c):<3}{sum(both) / len(both):>8.0%}"
              f"   {low:.0%}-{high:.0%}{'':>12}{med:.3f}  {p95:.3f}")
        pooled[scenario] = (sum(both) / len(both), len(both))
    return pooled

if __name__ == "__main__":
    main()
