"""Issue 19: the scenario editor in a real browser (Debian's chromium driven by playwright, outside requests
blocked), served by ``house-divided app --tree`` on loopback like the app's own browser test.

Place three units by clicking on the map (a counter-mix error, 1.3.a, appears on its box and disappears
on Undo), download the scenario by its link and load it with the engine, then "Play it" and make the
scenario's first march by clicking in the game app; the kernel is shut down when the page is left."""
from __future__ import annotations

import json
import os
import re
import time

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import ahd  # noqa: E402
import serve  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402

from test_app_browser import chromium  # noqa: E402


@pytest.fixture(scope="module")
def server():
    srv = serve.start(tree=True)
    yield srv
    srv.stop()


def centre(locator) -> tuple[float, float]:
    box = locator.bounding_box()
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_make_a_scenario_save_it_and_play_it(server, tmp_path):
    started = time.monotonic()
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport={"width": 1600, "height": 1400}, accept_downloads=True)
        outside = []

        def block(route):
            outside.append(route.request.url)
            route.abort()

        page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)(?!blob:)" % server.port), block)
        page.goto(f"{server.url}voila/render/editor.ipynb?token={server.token}", wait_until="commit")
        editor_card = lambda box: page.locator(f'.ahd-editor .leaflet-container [data-box="{box}"]')  # noqa: E731
        editor_card("richmond").wait_for(timeout=60_000)
        page.get_by_text("The loader accepts the scenario").wait_for(timeout=30_000)

        # two Confederate militia cavalry: the counter mix (1.3.a) has one
        page.get_by_role("button", name="Confederate", exact=True).click()
        page.locator(".ahd-editor select").first.select_option(label="militia cavalry (MC)")
        page.mouse.click(*centre(editor_card("richmond")))
        page.get_by_text("Added 1 Confederate militia cavalry to Richmond.").wait_for(timeout=30_000)
        page.mouse.click(*centre(editor_card("lynchburg")))
        badge = page.locator('.ahd-editor [data-box="lynchburg"] .ahd-badge, '
                             '.ahd-editor [data-box="richmond"] .ahd-badge')
        badge.first.wait_for(timeout=30_000)
        assert badge.first.inner_text() == "1.3.a"
        page.get_by_text("counter mix allows 1", exact=False).first.wait_for(timeout=30_000)
        if os.environ.get("AHD_EDITOR_SCREENSHOT"):
            page.screenshot(path=os.environ["AHD_EDITOR_SCREENSHOT"], full_page=True)
        # ... and it disappears with Undo
        page.get_by_role("button", name="Undo").click()
        page.get_by_text("The loader accepts the scenario").wait_for(timeout=30_000)
        page.wait_for_function("() => document.querySelectorAll('.ahd-editor .ahd-badge').length === 0",
                               timeout=30_000)

        # a Union veteran infantry in Washington (the third unit placed by a click)
        page.get_by_role("button", name="Union", exact=True).click()
        page.locator(".ahd-editor select").first.select_option(label="veteran infantry (FV)")
        page.mouse.click(*centre(editor_card("washington")))
        page.get_by_text("Added 1 Union veteran infantry to Washington.").wait_for(timeout=30_000)
        page.get_by_text("Army maxima", exact=False).first.wait_for(timeout=30_000)

        # save: the download link
        page.get_by_role("tab", name="Start, save and publish").click()
        page.get_by_role("button", name="Download the scenario").click()
        link = page.get_by_role("link", name=re.compile("Download the scenario"))
        link.wait_for(timeout=30_000)
        with page.expect_download(timeout=30_000) as download:
            link.click()
        saved = tmp_path / "my-scenario.json"
        download.value.save_as(saved)
        data = json.loads(saved.read_text(encoding="utf-8"))
        assert sorted((u["side"], u["type"], u["box"]) for u in data["units"]) == [
            ("confederate", "MC", "richmond"), ("union", "FV", "washington")]
        game = ahd.new_game(str(saved), seed=1)
        assert len(game.units_in("washington")) == 1

        # Play it: the game app in place of the editor; the first march by clicks
        page.get_by_role("tab", name="Test it").click()
        page.get_by_role("button", name="Play it").click()
        for part in (".ahd-app .leaflet-container", ".ahd-app .bqplot", ".ahd-app .ahd-card"):
            page.locator(part).first.wait_for(timeout=60_000)
        page.get_by_role("button", name="End movement (unused marches lapse)").wait_for(timeout=30_000)
        assert not page.locator(".ahd-editor .leaflet-container").first.is_visible()  # the app took its place
        if os.environ.get("AHD_SCREENSHOT"):
            page.screenshot(path=os.environ["AHD_SCREENSHOT"], full_page=True)
        app_card = lambda box: page.locator(f'.ahd-app [data-box="{box}"]')  # noqa: E731
        page.mouse.click(*centre(app_card("washington")))
        page.locator(".ahd-app " + serve.SELECTION_SELECTOR).first.wait_for(state="attached",
                                                                                           timeout=30_000)
        page.mouse.click(*centre(app_card("baltimore")))
        page.get_by_text("Moved 1 unit to Baltimore").first.wait_for(timeout=30_000)
        assert server.kernel_pids()

        # leave properly: the kernel is shut down
        assert serve.leave_page(page, server) == []
        page.close()
        browser.close()
    assert outside == []
    print(f"\nFIGURES editor_browser_s={time.monotonic() - started:.1f}")
