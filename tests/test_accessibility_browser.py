"""axe-core (npm, locked in requirements/node and installed by ./run.sh test) on every page a student or a
teacher meets, in headless Chromium at a laptop's size (1366x768): no critical and no serious violation of
WCAG 2.1 A/AA rules (axe's best practices are run and reported too).

Pages: the app in English, Spanish and Italian, with the Rules tab open, the guided game ("Learn by
playing"), the editor (one app server, ``--tree``); the classroom's start page, its app (with "Play a
classmate"), "The class is full", "Your games are already open", the link-needed page, the teacher's 403, class page, projector page, a
game's read-only page, its debrief and the class summary (one classroom server); a published app
(``house-divided publish`` served by voila in its folder). The counts by impact are printed (``-s``) for
the accessibility statement (docs/accessibility.md); moderate and minor ones are reported, not failed.

    AHD_LANG=en .venv/bin/python -m pytest -q -s -n 1 tests/test_accessibility_browser.py
"""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from browser import chromium  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
AXE = ROOT / ".venv" / "node" / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORT = {"width": 1366, "height": 768}

#: axe's WCAG 2.0/2.1 A and AA rules (and its best practices, reported like the rest)
RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
                                      where: v.nodes.slice(0, 3).map(n => n.html.slice(0, 200)),
                                      why: v.nodes.slice(0, 1).map(n => n.failureSummary.slice(0, 300))}));
}"""

#: The contrast of every text drawn on the map's cards (their counters and values too, which are hidden from
#: screen readers and so skipped by axe), the panel and the map's legend: text under 4.5:1 (3:1 when large),
#: each colour pair once, with how many texts were measured and the lowest ratio
CONTRAST = r"""() => {
  const parse = (c) => { const m = c.match(/rgba?\(([^)]+)\)/); if (!m) return null;
    const p = m[1].split(/[ ,\/]+/).filter(Boolean).map(Number); return {r: p[0], g: p[1], b: p[2], a: p.length > 3 ? p[3] : 1}; };
  const lum = ({r, g, b}) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const background = (e) => { for (; e; e = e.parentElement) { const c = parse(getComputedStyle(e).backgroundColor);
    if (c && c.a > 0.5) return c; } return {r: 255, g: 255, b: 255}; };
  const out = []; let checked = 0, lowest = 99;
  for (const e of document.querySelectorAll('.ahd-card, .ahd-card *, .ahd-side *, .ahd-legend *')) {
    if (![...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) continue;
    const r = e.getBoundingClientRect(); if (!r.width || !r.height) continue;
    const s = getComputedStyle(e); if (s.visibility === 'hidden' || s.clip === 'rect(0px, 0px, 0px, 0px)') continue;
    const fg = parse(s.color), bg = background(e);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05); checked += 1; lowest = Math.min(lowest, ratio);
    const large = parseFloat(s.fontSize) >= 24 || (parseFloat(s.fontSize) >= 18.66 && Number(s.fontWeight) >= 700);
    if (ratio < (large ? 3 : 4.5)) out.push({text: e.textContent.trim().slice(0, 30), cls: e.className.toString().slice(0, 40),
      ratio: Math.round(ratio * 100) / 100, color: s.color, bg: `rgb(${bg.r}, ${bg.g}, ${bg.b})`});
  }
  const seen = new Set();
  return {checked, lowest: Math.round(lowest * 100) / 100,
          low: out.filter(o => { const k = o.cls + o.color + o.bg; if (seen.has(k)) return false; seen.add(k); return true; })};
}
"""

#: every page's counts by impact, printed at the end of the module (for the statement)
COUNTS: dict[str, dict[str, int]] = {}


def axe_violations(page) -> list[dict]:
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed ({AXE}): ./run.sh test installs it from requirements/node")
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    return page.evaluate(RUN)


def check(page, name: str, failures: list[str]) -> None:
    """axe on ``page`` as it is now: the counts by impact noted under ``name``; a critical or serious
    violation is added to ``failures`` (each test fails at its end, after every page was checked)."""
    found = axe_violations(page)
    counts = {impact: 0 for impact in ("critical", "serious", "moderate", "minor")}
    for violation in found:
        counts[violation["impact"]] = counts.get(violation["impact"], 0) + violation["nodes"]
    COUNTS[name] = counts
    print(f"\naxe-core {name}: {json.dumps(counts)} {sorted({v['id'] for v in found})}")
    bad = [v for v in found if v["impact"] in ("critical", "serious")]
    if bad:
        failures.append(f"{name}: " + json.dumps(bad, indent=1, ensure_ascii=False))
    if page.locator(".ahd-card").count():
        contrast = page.evaluate(CONTRAST)
        print(f"  contrast of {contrast['checked']} texts of the cards, panel and legend: lowest "
              f"{contrast['lowest']}:1")
        if contrast["low"]:
            failures.append(f"{name}: text under 4.5:1 " + json.dumps(contrast["low"], ensure_ascii=False))


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as p:
        launched = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()
    print("\naxe-core counts by page (1366x768):")
    for name, counts in COUNTS.items():
        print(f"  {name}: {json.dumps(counts)}")


def new_page(browser):
    page = browser.new_page(viewport=VIEWPORT)
    # nothing outside the machine
    page.route(re.compile(r"^https?://(?!127\.0\.0\.1[:/])"), lambda r: r.abort())
    return page


def leave(page) -> None:
    page.unroute_all()
    page.goto("about:blank")
    page.close()


def test_the_app_rules_guide_languages_and_editor(browser):
    server = serve.start(tree=True)
    failures: list[str] = []
    try:
        page = new_page(browser)
        serve.open_app(page, f"{server.url}voila/render/app.ipynb?token={server.token}", timeout_ms=120_000)
        page.wait_for_timeout(1500)  # the last widgets drawn (charts, cards)
        check(page, "app (en, new 1861 game)", failures)
        # a box selected (its destinations lit), then a march: the lit and selected cards, the log's lines
        page.locator('[data-box="harpers_ferry"]').first.click()
        page.locator('.ahd-card.ahd-selected[data-box="harpers_ferry"]').wait_for(state="attached", timeout=30_000)
        check(page, "app, a box selected and its destinations lit (en)", failures)
        page.locator('[data-box="baltimore"]').first.click()
        page.get_by_text("Harper's Ferry → Baltimore").first.wait_for(timeout=30_000)
        page.wait_for_timeout(1000)
        check(page, "app, after a march (log lines) (en)", failures)
        show = page.get_by_role("button", name="Show the data as a table")
        for left in (2, 1, 0):  # the charts' tables (a button shown its table says "Hide the table")
            show.first.click()
            page.wait_for_function("(n) => [...document.querySelectorAll('button')].filter(b => "
                                   "b.textContent.trim() === 'Show the data as a table').length === n", arg=left)
        page.locator(".ahd-chart-table").nth(1).wait_for(state="visible", timeout=30_000)
        check(page, "app, the charts' tables shown (en)", failures)
        page.get_by_role("tab", name="Rules").click()
        page.locator(".ahd-rule-text").first.wait_for(state="visible", timeout=30_000)
        check(page, "app, Rules tab open (en)", failures)
        page.get_by_role("tab", name="Game").click()
        page.get_by_role("button", name="Learn by playing").click()
        page.locator(".ahd-hint").first.wait_for(timeout=30_000)
        page.wait_for_timeout(500)
        check(page, "guided game, Learn by playing (en)", failures)
        for lang, label in (("es", "Español"), ("it", "Italiano")):
            page.locator(".ahd-language select").select_option(label=label)
            page.get_by_role("button", name=serve.end_movement_label(lang)).wait_for(timeout=30_000)
            page.wait_for_function("(lang) => document.documentElement.lang === lang", arg=lang, timeout=30_000)
            page.wait_for_timeout(1500)
            check(page, f"guided game ({lang})", failures)
        leave(page)

        page = new_page(browser)
        page.goto(f"{server.url}voila/render/editor.ipynb?token={server.token}", wait_until="commit")
        page.locator('.ahd-editor .leaflet-container [data-box="richmond"]').wait_for(timeout=120_000)
        page.wait_for_timeout(1000)
        check(page, "editor (en)", failures)
        for tab in ("Start, save and publish", "Test it"):   # its other tabs
            page.get_by_role("tab", name=tab).click()
            page.wait_for_timeout(800)
            check(page, f"editor, tab {tab} (en)", failures)
        leave(page)
    finally:
        server.stop()
    assert not failures, "\n".join(failures)


def test_the_classroom_and_teacher_pages(browser, tmp_path):
    from widgets.classmates.store import Store, store_path

    data = tmp_path / "data"
    store = Store(store_path(data))
    seat = store.create(side="union", name="Ann", seed=5)
    store.join(seat.code, "Bob")
    seat.game.apply(seat.game.legal_actions()[0])
    server = serve.start(mode="classroom", students=1, data=data)  # one game fills the class
    failures: list[str] = []
    pages = []
    try:
        # the link-needed page and the teacher's 403
        page = new_page(browser)
        pages.append(page)
        page.goto(server.url)
        page.locator("#ahd-no-token").wait_for()
        check(page, "classroom: link needed (no token)", failures)
        page.goto(f"{server.url}teacher")
        check(page, "classroom: teacher page refused (403)", failures)
        # the start page ("Starting your game…"), held there
        # (a 204 answer to /play keeps the browser on it: nothing else changes), then the app it opens
        page.route("**/play**", lambda route: route.fulfill(status=204))
        page.goto(server.join_url)
        page.locator("#ahd-starting").wait_for()
        page.wait_for_timeout(500)
        check(page, "classroom: start page", failures)
        page.unroute("**/play**")
        page.goto(server.join_url, wait_until="commit")
        serve.wait_for_app(page, timeout_ms=120_000)
        page.wait_for_timeout(1500)
        check(page, "classroom: app (with Play a classmate)", failures)
        # another browser: the class (of one) is full; the teacher's pages
        context = browser.new_context(viewport=VIEWPORT)
        teacher = context.new_page()
        pages.append(teacher)
        teacher.goto(server.join_url)
        teacher.locator("#ahd-class-full").wait_for()
        check(teacher, "classroom: the class is full", failures)
        # "Your games are already open" (a browser with its most games): the page as the server writes it
        from widgets.server.room_pages import browser_full_page
        teacher.set_content(browser_full_page(2, "/play"))
        check(teacher, "classroom: this browser's games are already open", failures)
        teacher.goto(f"{server.url}teacher?key={server.teacher_token}")
        check(teacher, "teacher: class page", failures)
        teacher.goto(f"{server.url}teacher/join")
        check(teacher, "teacher: join page (projector)", failures)
        teacher.goto(f"{server.url}teacher/game/{seat.game_id}")
        check(teacher, "teacher: a game's read-only page", failures)
        teacher.goto(f"{server.url}teacher/game/{seat.game_id}/debrief")
        check(teacher, "teacher: a game's debrief", failures)
        teacher.goto(f"{server.url}teacher/summary")
        check(teacher, "teacher: class summary", failures)
    finally:
        for page in pages:
            try:
                leave(page)
            except Exception:  # noqa: BLE001 -- leaving is best effort
                pass
        server.stop()
    assert not failures, "\n".join(failures)


def test_a_published_app(browser, tmp_path):
    """The folder ``house-divided publish`` writes, served by voila in that folder as its README says (whatever
    template the folder uses: only the app's own widgets are waited for)."""
    import shutil
    from widgets.authoring.publish import publish

    source = tmp_path / "1862.json"
    shutil.copy(ROOT / "ahd" / "data" / "scenarios" / "1862.json", source)
    out = publish(source, tmp_path / "app")
    port = serve.free_port()
    # the folder's template (ahd) is installed by the wheel into share/jupyter; this checkout's editable install has
    # it in widgets/jupyter (tests/test_publish.py installs the folder alone in a fresh venv)
    from widgets.server.paths import JUPYTER_DATA
    env = {**os.environ, "JUPYTER_PATH": os.pathsep.join(filter(None, [str(JUPYTER_DATA), os.environ.get("JUPYTER_PATH")]))}
    process = subprocess.Popen([sys.executable, "-m", "voila", "app.ipynb", "--no-browser", f"--port={port}",
                                "--Voila.ip=127.0.0.1"], cwd=out, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=env)
    url = f"http://127.0.0.1:{port}/"
    failures: list[str] = []
    try:
        serve.wait_for_voila(process, url)
        page = new_page(browser)
        serve.open_app(page, url, timeout_ms=120_000)
        page.wait_for_timeout(1500)
        check(page, "published app (1862)", failures)
        leave(page)
    finally:
        serve.stop_process(process, timeout=15)
    assert not failures, "\n".join(failures)
