"""Time to build the debrief of a 40-turn game (issue 35; goal: at most 1 s), and to render its page.

    .venv/bin/python scripts/debrief_time.py [--repeat 5] [--seed 1] [--players heuristic]

Plays one 1861 game between the heuristic players (seeded; it lasts the 40 turns), saves its record, then
times ``debrief(record file)`` (the replay that checks every action, the turning points, the war odds per
half-turn, the questions) and ``render_debrief`` (the page, its board pictures and charts) separately and
together; prints the median and the worst of ``--repeat`` runs. A measure, not a test: the machine's load changes it.
"""
from __future__ import annotations

import argparse
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import ahd  # noqa: E402
from ahd.analysis.debrief import debrief  # noqa: E402
from ahd.analysis.debrief_html import render_debrief  # noqa: E402
from ahd.bots import make_bot, play  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", default="heuristic", help="the computer players of the game (default "
                                                               "heuristic; with seed 3, hard plays a 40-turn game of 1071 actions)")
    args = parser.parse_args()
    game = play(ahd.new_game("1861", seed=args.seed), make_bot(args.players, args.seed),
                make_bot(args.players, args.seed + 1))
    with tempfile.TemporaryDirectory() as folder:
        record = Path(folder) / "game.json"
        game.save(record)
        build, page = [], []
        for _ in range(args.repeat):
            start = time.perf_counter()
            d = debrief(record)
            middle = time.perf_counter()
            html = render_debrief(d, "en")
            build.append(middle - start)
            page.append(time.perf_counter() - middle)
    print(f"game: 1861, seed {args.seed}, {args.players} v {args.players}: {game.turn.number} turns, {len(game.history)} "
          f"recorded actions; {game.outcome}")
    total = [b + p for b, p in zip(build, page)]
    print(f"debrief of the record (replay and check, turning points, war odds per half-turn, questions): median "
          f"{statistics.median(build):.3f} s, worst {max(build):.3f} s over {args.repeat} runs")
    print(f"HTML page ({len(d.snapshots)} board pictures drawn, charts): median {statistics.median(page) * 1000:.0f} ms, "
          f"{len(html) / 1024:.0f} KiB")
    print(f"record file to page: median {statistics.median(total):.3f} s, worst {max(total):.3f} s (goal <= 1 s)")
    print(f"machine: {platform.machine()}, Python {platform.python_version()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
