"""The debrief page in a real browser (Debian's chromium): it opens from a file with every outside request
blocked and none attempted, its charts and board pictures are drawn, it fits the width of A4 and Letter
paper when printed, and a screenshot is kept (in the test's folder, and in ``$AHD_DEBRIEF_SHOTS`` when set)."""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import ahd  # noqa: E402
from ahd.analysis.debrief import debrief  # noqa: E402
from ahd.analysis.debrief_html import render_debrief  # noqa: E402
from ahd.bots import make_bot, play  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402

#: Paper widths at 96 CSS pixels to the inch, less the page's 12 mm margins either side.
PAPER = {"A4": 794 - 2 * 45, "Letter": 816 - 2 * 45}


@pytest.mark.rule("11.c")
def test_the_debrief_opens_in_chromium_and_prints_on_a4_and_letter(tmp_path):
    game = play(ahd.new_game("1861", seed=11), make_bot("hard", 11), make_bot("hard", 12))
    page_file = tmp_path / "debrief.html"
    page_file.write_text(render_debrief(debrief(game), "en"), encoding="utf-8")
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1100, "height": 1400})
            asked: list[str] = []
            page.on("request", lambda request: asked.append(request.url))
            page.route("http*://**/*", lambda route: route.abort())
            page.goto(page_file.as_uri())
            assert [url for url in asked if not url.startswith("file:")] == []
            found = page.evaluate("""() => ({
                title: document.querySelector('h1').textContent,
                rows: document.querySelectorAll('#timeline tbody tr').length,
                history: document.querySelectorAll('#history tbody tr').length,
                charts: [...document.querySelectorAll('svg.chart')].map(s => s.getBoundingClientRect().width),
                boards: [...document.querySelectorAll('svg.board')].map(s => s.getBoundingClientRect().height),
                questions: document.querySelectorAll('ol.questions li').length,
                paths: document.querySelectorAll('svg.chart path').length,
            })""")
            assert found["title"] == "Debrief: The 1861 campaign"
            assert found["rows"] >= 2 and found["history"] >= 7 and 3 <= found["questions"] <= 5
            assert len(found["charts"]) == 2 and min(found["charts"]) > 300 and found["paths"] >= 3
            assert found["boards"] and min(found["boards"]) > 200
            shot = tmp_path / "debrief.png"
            page.screenshot(path=str(shot), full_page=False)
            assert shot.stat().st_size > 20_000
            if os.environ.get("AHD_DEBRIEF_SHOTS"):
                Path(os.environ["AHD_DEBRIEF_SHOTS"]).mkdir(parents=True, exist_ok=True)
                shutil.copy(shot, Path(os.environ["AHD_DEBRIEF_SHOTS"]) / "debrief.png")
            page.emulate_media(media="print")
            for paper, width in PAPER.items():
                page.set_viewport_size({"width": width, "height": 1000})
                overflow = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
                assert overflow <= 0, f"the printed page is {overflow} px too wide for {paper}"
                pdf = page.pdf(format=paper)
                assert pdf.startswith(b"%PDF") and pdf.count(b"/Type /Page") > 2
            page.goto("about:blank")
        finally:
            browser.close()
