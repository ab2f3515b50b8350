"""The app's page in headless Chromium (1366x768): "Save to my computer" downloads the game in one click; and a
page that loses its kernel says so: the server stops, and the open page shows a "disconnected — reload" sign
over everything within seconds (a page that is fine shows none).
"""
from __future__ import annotations

import json
import time

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402


def test_one_click_saves_the_game_and_an_open_page_says_when_its_server_is_gone(tmp_path):
    server = serve.start()
    stopped = False
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            serve.open_app(page, server.app_url)
            with page.expect_download(timeout=30_000) as started:
                page.get_by_role("button", name="Save to my computer").click()
            record = json.loads(open(started.value.path(), encoding="utf-8").read())
            assert started.value.suggested_filename.startswith("house-divided-1861-turn-1")
            assert record["format"] == "house-divided-record" and record["scenario"] == "1861"
            time.sleep(6)  # longer than the sign's grace period: a live page shows no sign
            assert page.locator("#ahd-disconnected").count() == 0
            server.stop()
            stopped = True
            sign = page.locator("#ahd-disconnected")
            sign.wait_for(state="visible", timeout=30_000)
            assert sign.get_attribute("role") == "alert"
            assert "Disconnected from the game server" in sign.inner_text()
            assert page.get_by_role("button", name="Reload").is_visible()
            page.screenshot(path=str(tmp_path / "disconnected.png"))
            browser.close()
    finally:
        if not stopped:
            server.stop()
