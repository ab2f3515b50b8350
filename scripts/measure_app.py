"""Figures of the voila app in headless chromium: time to fully rendered, and one kernel's memory.

    .venv/bin/python scripts/measure_app.py [--loads 3]

Serves notebooks/app.ipynb as ./run.sh app does, opens it --loads times in
Debian's chromium, and prints the time from request to map + charts + panel rendered, and the
resident memory of the kernel serving the page.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/serve.py)

from playwright.sync_api import sync_playwright  # noqa: E402

import serve  # noqa: E402
from ahd.analysis.bench import machine  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=3)
    parser.add_argument("--tree", action="store_true", help="serve the notebooks tree, open the app from it")
    args = parser.parse_args()
    server = serve.start(tree=args.tree)
    times, memory = [], []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=serve.CHROMIUM_ARGS)
            for _ in range(args.loads):
                page = browser.new_page(viewport={"width": 1860, "height": 1750})
                times.append(serve.open_app(page, server.app_url))
                memory.append(max(server.kernel_rss_mib()))
                page.goto("about:blank")
                page.close()
            browser.close()
    finally:
        server.stop()
    print(f"machine: {machine()}")
    print(f"app fully rendered in headless chromium ({'from the tree' if args.tree else 'as ./run.sh app serves it'}): "
          f"median {statistics.median(times):.2f} s, max {max(times):.2f} s over {len(times)} loads (target <= 5 s)")
    print(f"kernel resident memory: max {max(memory):.0f} MiB (target <= 200 MB)")


if __name__ == "__main__":
    main()
