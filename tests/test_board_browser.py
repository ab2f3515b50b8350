"""The board read in a real browser (Debian's chromium, outside requests blocked), measured from the DOM.

At 1366x768 and 1920x1080, after a new 1861 game and again after turn 3 of a scripted game (the
moves played through the session, as clicks would), it counts:
- pairs of overlapping box names (the bounding boxes of the ``.ahd-name`` elements): goal 0;
- box names outside the visible map: none of the eastern theatre, and (goal) none at all;
- names hidden under a counter chip of another box: goal 0;
- whether the battle-odds readout is in the viewport while a box in Virginia is hovered;
and checks there is no horizontal scroll bar at 1280 and 2560 pixels wide. Screenshots go to
the test's folder (and to ``$AHD_BOARD_SHOTS`` when set, e.g. artifacts/).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402

EAST = ("washington", "richmond", "harpers_ferry", "norfolk", "fredericksburg", "manassas_junction", "petersburg",
        "yorktown", "fort_monroe", "baltimore", "front_royal", "gordonsville", "staunton", "lynchburg", "gettysburg",
        "philadelphia")
VIRGINIA = "manassas_junction"

#: One script run in the page: every box name's rectangle, the map's, the chips', and the odds readout's.
MEASURE = """() => {
  const r = e => { const b = e.getBoundingClientRect(); return [b.left, b.top, b.right, b.bottom]; };
  const map = document.querySelector('.ahd-map');
  const names = {}, chips = [];
  for (const card of document.querySelectorAll('.ahd-card')) {
    names[card.dataset.box] = r(card.querySelector('.ahd-name'));
    for (const chip of card.querySelectorAll('.ahd-chip')) chips.push([card.dataset.box, r(chip)]);
  }
  const odds = document.querySelector('.ahd-odds');
  // the card's title (its description, also its aria-label) follows the card: a side's chip iff "<Side>:"
  const titles_off = [...document.querySelectorAll('.ahd-card')].filter(card => {
    const title = card.getAttribute('title') || '';
    return !title.startsWith(card.querySelector('.ahd-name').textContent) ||
      ['union', 'confederate'].some(side => !!card.querySelector('.ahd-chip.ahd-' + side) !==
                                           title.includes(side[0].toUpperCase() + side.slice(1) + ':'));
  }).map(card => card.dataset.box);
  return {map: r(map), names, chips, odds: odds ? r(odds) : null, titles_off, odds_text: odds ? odds.textContent : '',
          viewport: [window.innerWidth, window.innerHeight],
          scroll_width: document.documentElement.scrollWidth, client_width: document.documentElement.clientWidth};
}"""


#: Back to the page's default view: voila scrolls an inner element, not the window.
TO_TOP = "() => { window.scrollTo(0, 0); for (const e of document.querySelectorAll('*')) if (e.scrollTop) e.scrollTop = 0; }"


def _overlap(a, b, slack: float = 0.5) -> bool:
    return a[0] < b[2] - slack and b[0] < a[2] - slack and a[1] < b[3] - slack and b[1] < a[3] - slack


def _inside(a, frame) -> bool:
    return a[0] >= frame[0] - 0.5 and a[2] <= frame[2] + 0.5 and a[1] >= frame[1] - 0.5 and a[3] <= frame[3] + 0.5


def figures(m: dict) -> dict:
    names = m["names"]
    ids = sorted(names)
    pairs = [(a, b) for i, a in enumerate(ids) for b in ids[i + 1:] if _overlap(names[a], names[b])]
    hidden = sorted({(box, other) for box, chip in m["chips"] for other in ids
                     if other != box and _overlap(chip, names[other])})
    outside = sorted(b for b in ids if not _inside(names[b], m["map"]))
    return {"labels": len(ids), "overlapping_pairs": pairs, "names_under_chips": hidden, "outside_map": outside,
            "east_outside": [b for b in EAST if b in outside], "titles_off": m["titles_off"]}


def center(page, box_id: str) -> tuple[float, float]:
    """Where a box's card is in the page."""
    card = page.locator(f'.ahd-card[data-box="{box_id}"]')
    for _ in range(50):  # a card is replaced when it changes: ask again if it went between two calls
        card.wait_for(timeout=30_000)
        b = card.bounding_box()
        if b is not None:
            return b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
        page.wait_for_timeout(100)
    raise AssertionError(f"no card for {box_id}")


@pytest.fixture(scope="module")
def server():
    srv = serve.start()
    yield srv
    srv.stop()


def _open(p, server, width, height):
    browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
    page = browser.new_page(viewport={"width": width, "height": height})
    page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)" % server.port), lambda r: r.abort())
    serve.open_app(page, server.app_url)
    page.wait_for_timeout(800)  # the map's first fit (one zoom step) and its animation
    return browser, page


def _close(browser, page):
    page.unroute_all()
    page.goto("about:blank")
    page.close()
    browser.close()


def _hover_virginia_and_measure(page) -> dict:
    page.mouse.move(*center(page, VIRGINIA))
    page.locator(".widget-html-content", has_text="Manassas Junction (VA)").first.wait_for(timeout=30_000)
    m = page.evaluate(MEASURE)
    odds = m["odds"]
    m["odds_visible"] = bool(odds) and _inside(odds, [0, 0, *m["viewport"]])
    return m


def _bot_turns(page, until_turn: int) -> None:
    """Both sides to the heuristic bot (the panel's player menus), the game runs until turn ``until_turn``."""
    union = page.get_by_role("combobox", name="Union", exact=True)
    union.select_option("heuristic")
    page.get_by_text(re.compile(rf"^Turn {until_turn} \(")).first.wait_for(timeout=300_000)
    union.select_option("human")
    page.wait_for_timeout(1500)
    page.evaluate(TO_TOP)


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)], ids=["1366x768", "1920x1080"])
def test_the_board_reads_cleanly(server, tmp_path, size):
    shots = Path(os.environ.get("AHD_BOARD_SHOTS", tmp_path))
    shots.mkdir(parents=True, exist_ok=True)
    width, height = size
    results = {}
    with playwright.sync_playwright() as p:
        browser, page = _open(p, server, width, height)
        try:
            page.get_by_role("button", name="New game").click()
            page.get_by_text("New 1861 game.").wait_for(timeout=30_000)
            page.evaluate(TO_TOP)  # the button is low in the panel: back to the default view
            page.mouse.click(*center(page, "harpers_ferry"))  # select a stack: destinations light up
            page.locator(".ahd-card.ahd-lit").first.wait_for(timeout=30_000)
            page.wait_for_timeout(500)
            m = _hover_virginia_and_measure(page)
            # Manassas Junction is lit and holds Confederate militia: its attack's odds are beside the map
            page.locator(".ahd-odds", has_text="to Manassas Junction").wait_for(timeout=30_000)
            m = page.evaluate(MEASURE)
            m["odds_visible"] = _inside(m["odds"], [0, 0, *m["viewport"]])
            assert "wins" in m["odds_text"] and "%" in m["odds_text"]
            results["new game"] = {**figures(m), "odds_visible": m["odds_visible"]}
            page.screenshot(path=str(shots / f"board-{width}x{height}-new.png"))
            page.mouse.click(*center(page, "harpers_ferry"))  # unselect
            _bot_turns(page, 4)
            m = _hover_virginia_and_measure(page)
            results["after turn 3"] = {**figures(m), "odds_visible": m["odds_visible"]}
            page.screenshot(path=str(shots / f"board-{width}x{height}-turn3.png"))
        finally:
            _close(browser, page)
    print(f"\nFIGURES {width}x{height}: " + json.dumps(
        {k: {"overlapping label pairs": len(v["overlapping_pairs"]), "labels": v["labels"],
             "labels outside the map": len(v["outside_map"]), "eastern theatre outside": v["east_outside"],
             "names under a chip": len(v["names_under_chips"]), "odds readout visible": v["odds_visible"]}
         for k, v in results.items()}))
    for stage, v in results.items():
        assert v["labels"] == 129, stage
        assert v["overlapping_pairs"] == [], (stage, v["overlapping_pairs"])
        assert v["east_outside"] == [], (stage, v["east_outside"])
        assert v["outside_map"] == [], (stage, v["outside_map"])
        assert v["names_under_chips"] == [], (stage, v["names_under_chips"])
        assert v["odds_visible"], stage
        assert v["titles_off"] == [], (stage, v["titles_off"])


@pytest.mark.parametrize("width", [1280, 2560])
def test_no_horizontal_scrolling(server, tmp_path, width):
    with playwright.sync_playwright() as p:
        browser, page = _open(p, server, width, 900)
        try:
            m = page.evaluate(MEASURE)
            page.screenshot(path=str(tmp_path / f"app-{width}.png"))
        finally:
            _close(browser, page)
    f = figures(m)
    print(f"\nFIGURES width {width}: scrollWidth {m['scroll_width']} clientWidth {m['client_width']}; "
          f"overlapping label pairs {len(f['overlapping_pairs'])}, labels outside the map {len(f['outside_map'])} "
          f"{f['outside_map']}, eastern theatre outside {f['east_outside']}")
    assert m["scroll_width"] <= m["client_width"]
    assert f["overlapping_pairs"] == [] and f["east_outside"] == []
    assert m["map"][2] <= m["client_width"]
