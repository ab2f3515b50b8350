"""The app's Debrief section in a real browser (the served app, Debian's chromium, outside requests blocked):
the "Debrief" button shows the engine's page in a sandboxed frame that draws its tables, charts and board."""
from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402


def test_the_debrief_button_shows_the_page_in_the_app(tmp_path):
    server = serve.start()
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1500, "height": 1300})
            outside: list[str] = []

            def block(route):
                outside.append(route.request.url)
                route.abort()

            page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)(?!about:)" % server.port), block)
            serve.open_app(page, server.app_url)
            page.get_by_role("button", name="Debrief", exact=True).click()
            frame_element = page.locator("iframe.ahd-debrief-frame")
            frame_element.wait_for(state="attached", timeout=60_000)
            frame = frame_element.element_handle().content_frame()
            frame.wait_for_selector("h1")
            assert frame.locator("h1").inner_text() == "Debrief: The 1861 campaign"
            assert "The game is not over" in frame.locator(".outcome").inner_text()
            assert frame.locator("#history tbody tr").count() >= 7
            assert frame.locator("svg.chart").count() == 2
            assert frame.locator("ol.questions li").count() >= 3
            assert frame_element.bounding_box()["width"] > 600
            frame_element.scroll_into_view_if_needed()
            shot = tmp_path / "app-debrief.png"
            page.screenshot(path=str(shot))
            if os.environ.get("AHD_DEBRIEF_SHOTS"):
                Path(os.environ["AHD_DEBRIEF_SHOTS"]).mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, Path(os.environ["AHD_DEBRIEF_SHOTS"]) / shot.name)
            page.get_by_role("button", name="Download the debrief").click()
            link = page.locator("a[download^='debrief-1861-turn-1']")
            link.wait_for(timeout=30_000)
            assert link.get_attribute("href").startswith("data:text/html;base64,")
            assert outside == []
            assert serve.leave_page(page, server) == []
            browser.close()
    finally:
        server.stop()
