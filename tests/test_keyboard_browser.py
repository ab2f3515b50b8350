"""The map by keyboard alone, in headless Chromium at a laptop's size (1366x768): the board is one tab stop,
the arrow keys move between boxes, Enter acts as a click, Escape cancels the selection, and what happens is
said in the page's polite live region (what a screen reader reads).
"""
from __future__ import annotations

import json
from collections import deque

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from widgets.board.layers import display_positions  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402

KEYS = {"ArrowLeft": (-1, 0), "ArrowRight": (1, 0), "ArrowUp": (0, -1), "ArrowDown": (0, 1)}


def neighbour(box: str, dx: int, dy: int) -> str | None:
    """The card an arrow key moves to, as widgets/board/cardlayer.js chooses it (ahead, least off the line)."""
    positions = display_positions()
    x0, y0 = positions[box]
    best, score = None, float("inf")
    for other, (x, y) in positions.items():
        along = (x - x0) * dx + (y - y0) * dy
        if other == box or along <= 0:
            continue
        s = along + 2 * abs((x - x0) * dy - (y - y0) * dx)
        if s < score:
            best, score = other, s
    return best


def keys_to(start: str, goal: str) -> list[str]:
    """The shortest sequence of arrow keys from one box to another."""
    seen, queue = {start: []}, deque([start])
    while queue:
        box = queue.popleft()
        if box == goal:
            return seen[box]
        for key, (dx, dy) in KEYS.items():
            nxt = neighbour(box, dx, dy)
            if nxt and nxt not in seen:
                seen[nxt] = seen[box] + [key]
                queue.append(nxt)
    raise AssertionError(f"no arrow path from {start} to {goal}")


FOCUSED = "() => { const c = document.activeElement && document.activeElement.closest('.ahd-card'); " \
          "return c ? c.dataset.box : null; }"
#: What the page's live regions hold now (the map's log lines; the panel's prompt and status line)
SAID = "() => [...document.querySelectorAll('[aria-live]')].map(e => e.textContent.trim())"


def test_a_march_by_keyboard_alone_is_told_in_the_live_region():
    server = serve.start()
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            serve.open_app(page, server.app_url)
            # Tab from the top of the page until a card has the focus: the board is one tab stop
            first = None
            for _ in range(80):
                page.keyboard.press("Tab")
                first = page.evaluate(FOCUSED)
                if first:
                    break
            assert first, "Tab never reached the map's boxes"
            tab_stops = page.evaluate("() => [...document.querySelectorAll('.ahd-card')].filter(c => c.tabIndex === 0).length")
            assert tab_stops == 1
            # a visible focus ring on the focused card
            ring = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
            assert ring not in ("none", "")
            # arrows to Harper's Ferry, Enter: selected (its lit destinations and the status are said)
            for key in keys_to(first, "harpers_ferry"):
                page.keyboard.press(key)
            assert page.evaluate(FOCUSED) == "harpers_ferry"
            page.keyboard.press("Enter")
            page.locator('.ahd-card.ahd-selected[data-box="harpers_ferry"]').wait_for(state="attached", timeout=30_000)
            page.wait_for_function(f"() => ({SAID})().some(t => t.includes(\"Harper's Ferry selected\"))",
                                   timeout=30_000)
            # Escape: nothing selected any more
            assert page.evaluate(FOCUSED) == "harpers_ferry"          # the card redrawn selected kept the focus
            page.keyboard.press("Escape")
            page.wait_for_function(f"() => ({SAID})().some(t => t.includes('Nothing selected.'))", timeout=30_000)
            assert page.locator(".ahd-card.ahd-selected").count() == 0
            # again, and march to Baltimore with Enter: the move is said (the log's line)
            page.keyboard.press("Enter")
            page.locator('.ahd-card.ahd-selected[data-box="harpers_ferry"]').wait_for(state="attached", timeout=30_000)
            for key in keys_to("harpers_ferry", "baltimore"):
                page.keyboard.press(key)
            assert page.evaluate(FOCUSED) == "baltimore"
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => ({SAID})().some(t => t.includes(\"Harper's Ferry → Baltimore\"))",
                                   timeout=30_000)
            # a refusal is said with its rule: Enter on a box that cannot act (Richmond is the enemy's)
            for key in keys_to("baltimore", "richmond"):
                page.keyboard.press(key)
            page.keyboard.press("Enter")
            page.wait_for_function(f"() => ({SAID})().some(t => t.includes('Not allowed') && t.includes('(4.b'))", timeout=30_000)
            said = page.evaluate(SAID)
            print("\nlive region:", json.dumps(said, ensure_ascii=False))
            page.goto("about:blank")
            browser.close()
    finally:
        server.stop()
