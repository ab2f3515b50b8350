"""Click to visible update on the map, in headless chromium: median and max over N clicks.

    .venv/bin/python scripts/click_latency.py [--clicks 30] [--width 1366 --height 768]

Serves the app as ./run.sh app does, opens it in Debian's chromium, and clicks Union boxes' cards
(select, then unselect, in turn: the eight boxes the Union can march from in 1861).
Each selection lights the box's destinations (about ten cards re-sent). The time of a click runs
from the browser's mousedown on the card to the mutation of the page that shows the clicked card
selected (or unselected), both taken in the page (performance.now()), so it covers the round trip
to the kernel, the session's work and the redraw of the cards.
"""
from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/serve.py)

from playwright.sync_api import sync_playwright  # noqa: E402

from ahd.analysis.bench import machine  # noqa: E402
import serve  # noqa: E402

BOXES = ("harpers_ferry", "washington", "st_louis", "pittsburgh", "chicago", "columbus_oh", "canton", "fort_wayne")

SETUP = """() => {
  window._lat = {t0: 0, t1: 0, want: null};
  document.addEventListener('mousedown', () => { window._lat.t0 = performance.now(); window._lat.t1 = 0; }, true);
  const check = () => { if (!window._lat.t1 && window._lat.want && window._lat.want()) window._lat.t1 = performance.now(); };
  new MutationObserver(check).observe(document.querySelector('.ahd-map'),
                                      {subtree: true, childList: true, attributes: true, characterData: true});
}"""

WANT = """([box, selected]) => { window._lat.want = () => {
  const card = document.querySelector(`.ahd-card[data-box="${box}"]`);
  return !!card && card.classList.contains('ahd-selected') === selected; }; }"""


def card_center(page, box_id: str) -> tuple[float, float]:
    """The middle of a box's card (asked again if the card was just replaced)."""
    card = page.locator(f'.ahd-card[data-box="{box_id}"]')
    while True:
        card.wait_for(timeout=30_000)
        b = card.bounding_box()
        if b is not None:
            return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clicks", type=int, default=30)
    parser.add_argument("--width", type=int, default=1366)
    parser.add_argument("--height", type=int, default=768)
    args = parser.parse_args()
    server = serve.start()
    times: list[float] = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=serve.CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": args.width, "height": args.height})
            page.route("https://**/*", lambda route: route.abort())
            serve.open_app(page, server.app_url)
            page.wait_for_timeout(1500)  # the map's first fit
            page.evaluate(SETUP)
            for i in range(args.clicks):
                box = BOXES[(i // 2) % len(BOXES)]
                selected = i % 2 == 0
                page.evaluate(WANT, [box, selected])
                page.mouse.click(*card_center(page, box))
                page.wait_for_function("() => window._lat.t1 > 0", timeout=30_000)
                times.append(page.evaluate("() => window._lat.t1 - window._lat.t0"))
                page.wait_for_timeout(150)
            page.unroute_all()
            page.goto("about:blank")
            page.close()
            browser.close()
    finally:
        server.stop()
    print(f"machine: {machine()}")
    print(f"click to visible update on the map ({args.width}x{args.height}, headless chromium, select/unselect of "
          f"Union boxes): {len(times)} clicks, median {statistics.median(times):.0f} ms, "
          f"max {max(times):.0f} ms (all: {', '.join(f'{t:.0f}' for t in times)})")


if __name__ == "__main__":
    main()
