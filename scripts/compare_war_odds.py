"""Compare two fits of the live war-odds model on the games one of them was fitted on.

    python scripts/compare_war_odds.py OLD.json NEW.json GAMES.json

``GAMES.json`` is the raw data saved by ``scripts/fit_war_odds.py --data``. Printed: for each model kind
the held-out Brier score of each fit (every fourth game, each game weighted equally as the fit does), its
mean prediction and the Union's observed result; then for each scenario the two fits' estimate at its
first position against what the Union scored (a scenario draw counts half).
"""
from __future__ import annotations

import json
import sys

import numpy as np

ORDER = ("1861", "1862 played on", "1863 played on", "1864 played on", "short", "1862", "1863", "1864")


def predict(model: dict, kind: str, x: list) -> np.ndarray:
    coef = np.array(model["models"][kind]["coef"])
    return 1 / (1 + np.exp(-(np.array(x, dtype=float) @ coef)))


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    old, new, games = (json.loads(open(path, encoding="utf-8").read()) for path in argv)
    print("                 held-out Brier   mean predicted   observed Union wins")
    for kind in ("campaign", "scored"):
        test = [g for g in games if g["kind"] == kind and g["x"] and g["index"] % 4 == 3]
        y = np.array([g["y"] for g in test for _ in g["x"]])
        w = np.array([1 / len(g["x"]) for g in test for _ in g["x"]])
        x = [s for g in test for s in g["x"]]
        for name, model in (("old", old), ("new", new)):
            p = predict(model, kind, x)
            print(f"  {kind:9} {name}      {np.average((p - y) ** 2, weights=w):.3f}            "
                  f"{np.average(p, weights=w):.3f}              {np.average(y, weights=w):.3f}")
    print("\n  scenario            model      old    new    Union result")
    by: dict[str, list[dict]] = {}
    for g in games:
        if g["x"]:
            by.setdefault(g["scenario"] + (" played on" if g["play_on"] else ""), []).append(g)
    for key in ORDER:
        group = by.get(key)
        if not group:
            continue
        kind, first = group[0]["kind"], group[0]["x"][0]
        won = sum(g["y"] for g in group)
        print(f"  {key:18}  {kind:9}  {predict(old, kind, [first])[0]:.2f}   {predict(new, kind, [first])[0]:.2f}   "
              f"{won:g}/{len(group)} = {won / len(group):.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
