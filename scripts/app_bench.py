"""Server-side figures of the app: build time, and click-to-traits time over played turns.

    .venv/bin/python scripts/app_bench.py [--turns 2] [--war-odds]

A "click" is a session gesture as the map or a button makes it (selecting a march origin, or an
action handed to the engine); it is timed until every observer (map layers, panel, charts) has
redrawn, since traitlets observers run synchronously.

A developer's measurement: its output stays in English (it is compared with the targets in the docs and
with earlier runs), whatever the app's language.
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from ahd.analysis.bench import machine


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2, help="game turns played by clicks (default 2)")
    parser.add_argument("--war-odds", action="store_true", help="with the live war-odds chart")
    parser.add_argument("--repeat", type=int, default=5, help="app builds timed (default 5)")
    args = parser.parse_args(argv)

    code = "import time; t = time.perf_counter(); import widgets; print(time.perf_counter() - t)"
    imported = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                    check=True).stdout)
    import widgets
    from ahd.core.actions import BeginMarch
    from ahd.bots import make_bot

    builds = []
    for seed in range(args.repeat):
        start = time.perf_counter()
        app = widgets.play("1861", union="human", confederate="human", seed=seed, war_odds=args.war_odds)
        builds.append(time.perf_counter() - start)
    session = app.session
    bot = make_bot("heuristic", seed=1)
    clicks: list[float] = []
    game = session.game
    while not game.is_over and game.state.turn <= args.turns:
        if game.current_player == "chance":
            session.roll()
            continue
        action = bot.choose(game)
        if isinstance(action, BeginMarch):
            start = time.perf_counter()
            session.click_box(action.origin)
            clicks.append(time.perf_counter() - start)
        start = time.perf_counter()
        session.act(action)
        clicks.append(time.perf_counter() - start)
        game = session.game
    clicks.sort()
    print(f"machine: {machine()}")
    print(f"import widgets (ipywidgets, ipyleaflet, bqplot, ahd) in a fresh process: {imported:.2f} s (once per kernel)")
    print(f"build the app (1861, map + panel + 3 charts, war odds {'on' if args.war_odds else 'off'}): "
          f"median {statistics.median(builds):.3f} s, max {max(builds):.3f} s over {len(builds)} builds "
          f"(target <= 1.5 s)")
    print(f"click to all traits updated over {args.turns} played turn(s): {len(clicks)} clicks, "
          f"median {1000 * statistics.median(clicks):.1f} ms, p95 {1000 * clicks[int(0.95 * (len(clicks) - 1))]:.1f} ms, "
          f"max {1000 * clicks[-1]:.1f} ms (target median <= 100 ms)")
    print(f"map layers: {app.map_view.layer_count} (bound 20)")


if __name__ == "__main__":
    main()
