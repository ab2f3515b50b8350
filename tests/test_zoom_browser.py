"""The app at 200% browser zoom on a 1366x768 screen (WCAG 1.4.4, 1.4.10): a 683x384 CSS-pixel window at
device scale factor 2, which is what a 200% zoom leaves a page. No control is lost: each key control can be
scrolled into view, lies inside the window's width (nothing cut off by a column too narrow), is the element
found at its own centre (not covered, not clipped), and is reached by the keyboard; a screenshot is kept.

    AHD_LANG=en .venv/bin/python -m pytest -q -s -n 1 tests/test_zoom_browser.py
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402

WIDTH, HEIGHT = 683, 384

#: where a control is once scrolled into view: its box, whether it is the element found at both its ends
#: (a covered or clipped control is not), and whether the keyboard reaches it
SEEN = """(e) => {
  e.scrollIntoView({block: 'center', inline: 'nearest'});
  const r = e.getBoundingClientRect();
  const y = r.top + r.height / 2;
  const hit = (x) => { const top = document.elementFromPoint(x, y);
                       return !!top && (top === e || e.contains(top) || top.contains(e)); };
  // a group with one tab stop (the map's boxes, the tabs) is reached by its stop, then the arrow keys
  const group = e.closest('.ahd-board-host, [role=tablist]');
  const stop = group ? group.querySelector('[tabindex="0"]') : e;
  return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height,
          onTop: hit(r.left + 3) && hit(r.right - 3),
          focusable: !!stop && stop.tabIndex >= 0 && !stop.disabled};
}"""


def controls(page) -> dict[str, object]:
    """The key controls of the app, by what they are."""
    return {
        "the map's zoom-in button": page.locator(".leaflet-control-zoom-in").first,
        "a box of the map (Washington)": page.locator('.ahd-card[data-box="washington"]').first,
        "the language menu": page.locator(".ahd-language select").first,
        "Learn by playing": page.get_by_role("button", name="Learn by playing").first,
        "the Rules tab": page.get_by_role("tab", name="Rules").first,
        "the Union player's menu": page.get_by_role("combobox", name="Union").first,
        "the Confederate player's menu": page.get_by_role("combobox", name="Confederate").first,
        "Undo": page.get_by_role("button", name="Undo").first,
        "End movement": page.get_by_role("button", name=serve.end_movement_label()).first,
        "the list of legal actions": page.get_by_role("listbox", name="Legal actions").first,
        "Play the selected action": page.get_by_role("button", name="Play the selected action").first,
        "Save to my computer": page.get_by_role("button", name="Save to my computer").first,
        "New game": page.get_by_role("button", name="New game").first,
        "a chart's table button": page.get_by_role("button", name="Show the data as a table").first,
    }


#: labels of the panel's controls drawn shorter than their text ("Confeder…")
CUT_LABELS = """() => [...document.querySelectorAll('.ahd-app .widget-label')]
  .filter(l => l.offsetParent && l.scrollWidth > l.clientWidth + 1).map(l => l.textContent)"""


def lost_controls(page, width: int) -> list:
    """The key controls that cannot be seen whole or reached, and the labels cut short."""
    lost = []
    for name, control in controls(page).items():
        control.wait_for(state="attached", timeout=30_000)
        seen = control.evaluate(SEEN)
        if not (seen["width"] > 0 and seen["height"] > 0 and seen["left"] >= -1 and seen["right"] <= width + 1
                and seen["onTop"] and seen["focusable"]):
            lost.append((name, seen))
    cut = page.evaluate(CUT_LABELS)
    return lost + ([("labels cut short", cut)] if cut else [])


def test_every_key_control_is_there_at_200_percent_zoom(tmp_path):
    server = serve.start()
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT}, device_scale_factor=2)
            page.route("https://**/*", lambda r: r.abort())
            serve.open_app(page, server.app_url, timeout_ms=120_000)
            page.wait_for_timeout(1500)
            # the page scrolls down, never sideways: nothing to pan at 200% (1.4.10, reflow)
            overflow = page.evaluate("() => Math.max(...[document.scrollingElement, "
                                     "document.getElementById('rendered_cells')].filter(Boolean)"
                                     ".map(e => e.scrollWidth - e.clientWidth))")
            lost = lost_controls(page, WIDTH)
            shot = Path(os.environ.get("AHD_SHOTS", tmp_path)) / "app-200-percent.png"
            page.locator(".leaflet-container").first.scroll_into_view_if_needed()
            page.screenshot(path=str(shot))
            page.get_by_role("button", name=serve.end_movement_label()).first.scroll_into_view_if_needed()
            page.screenshot(path=str(shot.with_name("app-200-percent-panel.png")))
            print(f"\n200% zoom: page wider than the window by {overflow} px; screenshot {shot}")
            assert not lost, lost
            assert overflow <= 1, f"the page scrolls sideways by {overflow} px at 200% zoom"
            # and at 100% (the same window, 1366x768 CSS pixels): nothing lost either
            page.set_viewport_size({"width": 1366, "height": 768})
            page.wait_for_timeout(500)
            assert not lost_controls(page, 1366)
            page.goto("about:blank")
            browser.close()
    finally:
        server.stop()
