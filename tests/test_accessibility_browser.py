"""axe-core (npm, locked in requirements/node and installed by ./run.sh test) on the pages a student meets, in
headless Chromium at a laptop's size (1366x768): no critical and no serious violation of WCAG 2.1 A/AA rules.

Pages checked so far: the app in English and in Spanish (a new 1861 game). The counts by impact are printed
(``-s``) for the notes; moderate ones (content outside landmarks, from voila's page) are reported, not failed.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402

AXE = Path(__file__).resolve().parents[1] / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"

#: axe's WCAG 2.0/2.1 A and AA rules (and its best practices, reported like the rest)
RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
                                      where: v.nodes.slice(0, 3).map(n => n.html.slice(0, 200))}));
}"""


def axe_violations(page) -> list[dict]:
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed ({AXE}): ./run.sh test installs it from requirements/node")
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(RUN)


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_app_page_has_no_critical_or_serious_violation(lang):
    server = serve.start(lang=lang)
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1366, "height": 768})
            serve.open_app(page, server.app_url, timeout_ms=120_000, lang=lang)
            page.wait_for_timeout(2000)  # the last widgets drawn (charts, cards)
            found = axe_violations(page)
            counts: dict[str, int] = {}
            for violation in found:
                counts[violation["impact"]] = counts.get(violation["impact"], 0) + violation["nodes"]
            print(f"\naxe-core on the app ({lang}, 1366x768): {json.dumps(counts)}")
            bad = [v for v in found if v["impact"] in ("critical", "serious")]
            assert not bad, json.dumps(bad, indent=1, ensure_ascii=False)
            page.goto("about:blank")
            browser.close()
    finally:
        server.stop()
