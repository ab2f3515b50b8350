"""Every measure of issue 34 in one report, from the games already played and saved (nothing timed runs in
the test suite; the games are played by the two scripts named below, whose ``--out``/``--save`` files this
reads):

    .venv/bin/python scripts/issue34_measures.py --levels artifacts/levels_heldout*.jsonl \
        --search artifacts/hard_v_search_1861.jsonl \
        --odds artifacts/calib_heldout.jsonl --odds-base artifacts/calib_train.jsonl

1. hard v heuristic, pooled over both seats, per scenario (goal: >= 70% on every scenario), from
   ``scripts/levels_by_scenario.py --a hard --b heuristic`` games (the last row of a game in the files wins:
   a seat replayed after a change replaces the earlier one);
2. hard v search on 1861 (goal: >= 55% pooled, with the Wilson interval, the games and seeds), from
   ``scripts/levels_by_scenario.py --a hard --b search --scenarios 1861`` games;
3. hard's decision time over all those games (goal: median <= 0.5 s, p95 <= 2 s);
4. the war odds per scenario and player pair: held-out Brier against the base rate, decided positions,
   start-of-scenario odds against the measured result (``scripts/war_odds_calibration.py report``). The
   0/1 on decided positions is also a test: ``tests/test_war_odds_decided.py``.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "scripts"))

from ahd.analysis.bench import machine  # noqa: E402
from levels_by_scenario import summary  # noqa: E402

SCENARIOS = ["1861", "short", "1862", "1863", "1864"]


def games(paths: list[str]) -> list[dict]:
    """The games of the files, the last row of each (scenario, Union, Confederacy, seed) kept."""
    rows: dict[tuple, dict] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            r = json.loads(line)
            rows[(r["scenario"], r["union"], r["confederate"], r["seed"])] = r
    return list(rows.values())


def seeds(rows: list[dict]) -> str:
    s = sorted({r["seed"] for r in rows})
    return f"{s[0]}-{s[-1]} ({len(s)} seeds)" if s else "none"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", nargs="*", default=[], help="hard v heuristic games (levels_by_scenario.py)")
    parser.add_argument("--search", nargs="*", default=[], help="hard v search 1861 games (levels_by_scenario.py)")
    parser.add_argument("--odds", nargs="*", default=[], help="held-out games of war_odds_calibration.py play")
    parser.add_argument("--odds-base", nargs="*", default=[], help="the games whose mean result is the base rate")
    args = parser.parse_args()
    print(f"Issue 34 measures; machine: {machine()}\n")
    hard_times = []
    if args.levels:
        rows = [r for r in games(args.levels) if {r["union"], r["confederate"]} == {"hard", "heuristic"}]
        print(f"1. hard v heuristic, both seats, seeds {seeds(rows)} (goal >= 70% pooled on every scenario)")
        pooled = summary(rows, "hard", "heuristic", SCENARIOS)
        for scenario, (score, n) in pooled.items():
            print(f"   {scenario:6} {'met' if score >= 0.7 else 'NOT met'} ({score:.0%} of {n})")
        hard_times += [t for r in rows for side in ("union", "confederate") if r[side] == "hard" for t in r["times"][side]]
    if args.search:
        rows = [r for r in games(args.search) if r["scenario"] == "1861" and {r["union"], r["confederate"]} == {"hard", "search"}]
        print(f"\n2. hard v search (search:iterations=2) on 1861, seeds {seeds(rows)} (goal >= 55% pooled)")
        pooled = summary(rows, "hard", "search", ["1861"])
        for scenario, (score, n) in pooled.items():
            print(f"   {'met' if score >= 0.55 else 'NOT met'} as a point estimate ({score:.1%} of {n} games)")
        hard_times += [t for r in rows for side in ("union", "confederate") if r[side] == "hard" for t in r["times"][side]]
    if hard_times:
        med, p95 = np.median(hard_times), np.percentile(hard_times, 95)
        ok = med <= 0.5 and p95 <= 2.0
        print(f"\n3. hard's decision time over {len(hard_times):,} decisions: median {med:.3f} s, p95 {p95:.3f} s, "
              f"slowest {max(hard_times):.1f} s (goal median <= 0.5 s, p95 <= 2 s): {'met' if ok else 'NOT met'}")
    if args.odds:
        print("\n4. war odds (scripts/war_odds_calibration.py report):", flush=True)
        command = [sys.executable, str(ROOT / "scripts" / "war_odds_calibration.py"), "report", *args.odds]
        if args.odds_base:
            command += ["--base", *args.odds_base]
        subprocess.run(command, check=True)


if __name__ == "__main__":
    main()
