"""Why the war odds are never exactly 1 before the end (issue 34; ``ahd.odds.decided``): in the last Confederate
half of a scored game (the short game's turn 10, a year scenario's scored turn), is a Confederate unit within two
marches of Washington, which it could take (11.b(1)) since every battle can go either way on the dice?

    .venv/bin/python scripts/war_odds_washington.py \
        docs/bots/games/stop44/g_94{4,6}000_{short,1862,1863,1864}_*.jsonl.xz

Prints, per way of scoring (short game, victory table), the deciding Confederate halves in the games, how many the
Union went on to win, and in how many a Confederate unit stood within ``REACH`` links of Washington (any link type:
generous, as ``ahd.odds.decided`` is).
"""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from ahd.core.sides import Side  # noqa: E402
from ahd.odds.decided import _distances, deciding_need  # noqa: E402

import war_odds_calibration as woc  # noqa: E402  (scripts/, on the path above)

#: two marches (4.f) of at most two links (T-3) for a Confederate unit
REACH = 4


def deciding(game) -> bool:
    """The last Confederate half before a scored game's result (``ahd.odds.decided.deciding_need``)."""
    return not game.is_over and deciding_need(game.state, game.scenario, game.play_on) is not None


def near_washington(state) -> bool:
    """A Confederate unit within ``REACH`` links of Washington (any link type)."""
    near = _distances(state.board, {"washington"}, REACH)
    return any(unit.location in near for unit in state.units_of(Side.CONFEDERATE))


def main(paths: list[str]) -> Counter:
    counts = Counter()
    for row in woc.load(paths):
        for game in woc.positions(row["record"]):
            if not deciding(game):
                continue
            kind = game.scenario.end
            counts[kind, "halves"] += 1
            counts[kind, "Union won"] += row["y"] == 1
            counts[kind, "Washington in reach"] += near_washington(game.state)
    return counts


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", help="kept games (.jsonl or .jsonl.xz)")
    args = parser.parse_args()
    missing = [path for path in args.files if not Path(path).is_file()]
    if missing:
        parser.error("no such file: " + ", ".join(missing))
    counts = main(args.files)
    for kind in sorted({k for k, _ in counts}):
        print(f"{kind:6} deciding Confederate halves {counts[kind, 'halves']}, Union won {counts[kind, 'Union won']}, "
              f"a Confederate unit within {REACH} links of Washington in {counts[kind, 'Washington in reach']}")
