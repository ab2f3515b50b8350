"""The app in Spanish and Italian in a real browser (issue 16): Debian's chromium driven by playwright,
every outside request blocked.

Starts ``house-divided app --lang es`` on a free loopback port, checks that the page speaks Spanish (the
panel's labels, the action buttons, the status line and the log of a march made by clicks on the map),
then switches the language menu to Italiano and checks that the same game is now said in Italian.

The texts expected are computed here, in the test's process, from the same catalogs (``widgets.model.i18n._``
and the engine's messages in that language): a text the catalog has not translated yet reads as the
English, and the test is then an expected failure (computed at collection, ``strict=False``) instead of a
test that passes on English words. Screenshots at 1366x768 go to ``artifacts/`` (ignored by git).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import ahd  # noqa: E402
from ahd.core.i18n import language, render  # noqa: E402
import serve  # noqa: E402
from widgets.model.i18n import _, _n  # noqa: E402
from serve import CHROMIUM_ARGS  # noqa: E402
from widgets.model.session import Session  # noqa: E402
from browser import chromium  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
VIEWPORT = {"width": 1366, "height": 768}


def _march() -> tuple[Session, int]:
    """The march the browser test makes by clicks (Harper's Ferry to Baltimore, in the app's first game:
    1861, seed 1), made here by the same session methods the clicks call."""
    session = Session(ahd.new_game("1861", seed=1), union="human", confederate="heuristic")
    before = len(session.game.log)
    session.click_box("harpers_ferry")
    session.click_box("baltimore")
    return session, before


def expected(lang: str) -> dict[str, tuple[str, str]]:
    """What the page must show in ``lang``, each with its English form: {what: (in lang, in English)}."""
    session, before = _march()
    board = session.game.board

    def said(code: str) -> dict[str, str]:
        with language(code):
            march_line = next(str(e) for e in session.game.log[before:] if "→" in str(e))
            moved = (_n("Moved {n} unit to {box}", "Moved {n} units to {box}", 1).format(
                n=1, box=board.local_name("baltimore")) + _("; {box} is now empty.").format(
                box=board.local_name("harpers_ferry")))
            return {"new game": _("New game"), "undo": _("Undo"), "end movement": serve.end_movement_label(code),
                    "game log": _("Game log"), "moved": moved, "log line": march_line,
                    "prompt": session._prompt(), "side": render(ahd.Side.UNION)}
    here, english = said(lang), said("en")
    return {key: (here[key], english[key]) for key in here}


SPANISH, ITALIAN = expected("es"), expected("it")


def untranslated(texts: dict[str, tuple[str, str]], *keys: str) -> list[str]:
    return [texts[k][1] for k in keys if texts[k][0] == texts[k][1] and k != "side"]


SPANISH_KEYS = ("new game", "undo", "end movement", "game log", "moved", "log line", "prompt")
ITALIAN_KEYS = ("new game", "undo", "game log", "log line", "moved", "prompt")
MISSING_ES = untranslated(SPANISH, *SPANISH_KEYS)
MISSING_IT = untranslated(ITALIAN, *ITALIAN_KEYS) + untranslated(SPANISH, "new game", "log line")


@pytest.fixture(scope="module")
def server():
    srv = serve.start(lang="es")
    yield srv
    srv.stop()


@pytest.fixture
def page(server):
    outside: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        page = browser.new_page(viewport=VIEWPORT)

        def block(route):
            outside.append(route.request.url)
            route.abort()

        page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)" % server.port), block)
        serve.open_app(page, server.app_url, timeout_ms=120_000, lang="es")
        yield page
        assert serve.leave_page(page, server) == []
        page.close()
        browser.close()
    assert outside == []


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"))
    page.screenshot(path=str(ARTIFACTS / f"{name}-full.png"), full_page=True)


def body_text(page) -> str:
    return page.evaluate("() => document.body.innerText")


def march_by_clicks(page) -> None:
    page.mouse.click(*serve.box_on_screen(page, "harpers_ferry"))
    page.locator(serve.SELECTION_SELECTOR).first.wait_for(state="attached", timeout=30_000)
    page.mouse.click(*serve.box_on_screen(page, "baltimore"))


@pytest.mark.xfail(bool(MISSING_ES), reason=f"not yet translated into Spanish: {MISSING_ES}", strict=False)
def test_the_app_started_with_lang_es_speaks_spanish(page):
    es = {k: v[0] for k, v in SPANISH.items()}
    en = {k: v[1] for k, v in SPANISH.items()}
    # the panel's labels and the action buttons, in Spanish, and not in English
    page.get_by_role("button", name=es["new game"], exact=True).wait_for(timeout=30_000)
    page.get_by_role("button", name=es["undo"], exact=True).wait_for(timeout=30_000)
    page.get_by_role("button", name=es["end movement"], exact=True).wait_for(timeout=30_000)
    assert page.get_by_role("button", name=en["new game"], exact=True).count() == 0
    assert page.get_by_role("button", name=en["end movement"], exact=True).count() == 0
    assert es["game log"] in body_text(page)
    # the language menu shows Español
    assert page.locator(".ahd-language select").input_value() in ("es", "Español")
    # a march by clicks: the status line and the log say it in Spanish
    march_by_clicks(page)
    page.get_by_text(es["moved"]).first.wait_for(timeout=30_000)
    page.get_by_text(es["log line"]).first.wait_for(timeout=30_000)
    page.get_by_text(es["prompt"]).first.wait_for(timeout=30_000)
    text = body_text(page)
    assert en["moved"] not in text and en["log line"] not in text
    shot(page, "i18n-app-es")
    # last (so that everything above is checked even before the catalogs are complete): every text checked
    # differs from its English form, or the page may have passed on English words
    assert untranslated(SPANISH, *SPANISH_KEYS) == []


@pytest.mark.xfail(bool(MISSING_IT), reason=f"not yet translated: {MISSING_IT}", strict=False)
def test_the_language_menu_switches_the_page_to_italian_keeping_the_game(page):
    es = {k: v[0] for k, v in SPANISH.items()}
    it = {k: v[0] for k, v in ITALIAN.items()}
    march_by_clicks(page)
    page.get_by_text(es["log line"]).first.wait_for(timeout=30_000)
    page.locator(".ahd-language select").select_option(label="Italiano")
    # the same game (its march in the log), said in Italian: labels, buttons, log; no Spanish label left
    page.get_by_role("button", name=it["new game"], exact=True).wait_for(timeout=60_000)
    page.get_by_role("button", name=it["undo"], exact=True).wait_for(timeout=30_000)
    page.get_by_text(it["log line"]).first.wait_for(timeout=30_000)
    # the status line (what the march did) and the prompt, said again in Italian
    page.get_by_text(it["moved"]).first.wait_for(timeout=30_000)
    page.get_by_text(it["prompt"]).first.wait_for(timeout=30_000)
    page.wait_for_function("(name) => !document.body.innerText.includes(name)", arg=es["new game"], timeout=30_000)
    text = body_text(page)
    assert it["game log"] in text
    assert es["log line"] not in text and es["moved"] not in text and es["prompt"] not in text
    # the map's cards follow: New Orleans under its Italian name
    name = ahd.default_board().local_name("new_orleans", "it")
    card = "() => document.querySelector('[data-box=\"new_orleans\"]').innerText"
    page.wait_for_function(f"(name) => ({card})().includes(name)", arg=name, timeout=30_000)
    shot(page, "i18n-app-it")
    assert untranslated(ITALIAN, *ITALIAN_KEYS) + untranslated(SPANISH, "new game", "log line") == []


# -- issue 36: the loading page, the guide, a loader error in the editor and the teacher page, in Spanish and Italian,
# with no English word on them (tests/english_words.py). A finished game's debrief is another issue's view (35): not
# walked here.
from english_words import leftovers  # noqa: E402
from widgets.model.i18n import loading_texts  # noqa: E402


def _launch(p):
    return p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)


def _blocking(page, server, outside: list[str]) -> None:
    def block(route):
        outside.append(route.request.url)
        route.abort()
    page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)" % server.port), block)


def _words_left(page, lang: str, selector: str = "body") -> list[str]:
    text = page.evaluate("(s) => Array.from(document.querySelectorAll(s)).map(e => e.innerText).join('\\n')", selector)
    return leftovers(text, lang)


@pytest.mark.parametrize("lang", ["es", "it"])
def test_loading_page_guide_and_teacher_page_speak_the_servers_language(lang):
    words = loading_texts(lang)
    with language(lang):
        learn, classroom = _("Learn by playing"), _("A House Divided — classroom")
    assert words["starting"] != loading_texts("en")["starting"]
    server = serve.start(mode="classroom", lang=lang, students=3)
    outside: list[str] = []
    try:
        with playwright.sync_playwright() as p:
            browser = _launch(p)
            page = browser.new_page(viewport=VIEWPORT)
            _blocking(page, server, outside)
            # the loading page (voila's, while the kernel starts): its words in the server's language
            page.goto(f"{server.url}play?token={server.token}", wait_until="commit")
            page.locator("#loading_text").wait_for(state="attached", timeout=60_000)
            loading = page.evaluate("() => document.getElementById('loading_text') ? "
                                    "document.getElementById('loading_text').textContent : ''")
            step_prefix = words["step"].split("{index}")[0]
            assert loading == words["starting"] or loading.startswith(step_prefix), loading
            assert "Starting your game" not in loading and "step" not in loading
            assert page.locator("#loading_text").get_attribute("lang") == lang
            shot(page, f"i36-loading-{lang}")
            serve.wait_for_app(page, 180_000, lang=lang)
            # the guide ("Learn by playing") and the whole app page
            page.get_by_role("button", name=learn, exact=True).click()
            page.locator(".ahd-guide").first.wait_for(timeout=60_000)
            page.wait_for_timeout(1500)
            shot(page, f"i36-guide-{lang}")
            assert _words_left(page, lang) == []
            assert serve.leave_page(page, server) == []
            # the teacher's page
            page = browser.new_page(viewport=VIEWPORT)
            _blocking(page, server, outside)
            page.goto(server.teacher_url)
            page.get_by_text(classroom).first.wait_for(timeout=30_000)
            shot(page, f"i36-teacher-{lang}")
            assert _words_left(page, lang) == []
            browser.close()
    finally:
        server.stop()
    assert outside == []


@pytest.mark.parametrize("lang", ["es", "it"])
def test_a_loader_error_in_the_editor_speaks_the_servers_language(lang):
    with language(lang):
        not_loaded = _("Not loaded: {error}").split("{error}")[0].strip()
        files_tab, open_file = _("Start, save and publish"), _("Open a file")
        line = render(ahd.core.i18n.Msg("line {n}", n=1), lang)
        invalid = render(ahd.core.i18n.Msg("not valid JSON: {reason} (column {column})", reason="", column=2),
                         lang).split(":")[0]
    server = serve.start(tree=True, lang=lang)
    outside: list[str] = []
    try:
        with playwright.sync_playwright() as p:
            browser = _launch(p)
            page = browser.new_page(viewport=VIEWPORT)
            _blocking(page, server, outside)
            page.goto(f"{server.url}voila/render/editor.ipynb?token={server.token}", wait_until="commit")
            page.locator('.ahd-editor .leaflet-container [data-box="richmond"]').wait_for(timeout=180_000)
            page.locator(".lm-TabBar-tab, .p-TabBar-tab", has_text=files_tab).first.click()
            with page.expect_file_chooser(timeout=30_000) as chooser:
                page.get_by_role("button", name=open_file).first.click()
            chooser.value.set_files(files=[{"name": "broken.json", "mimeType": "application/json",
                                            "buffer": b'{"format": '}])
            status = page.get_by_text(not_loaded).first
            status.wait_for(timeout=60_000)
            said = status.inner_text()
            assert line in said and invalid in said, said
            assert "line 1" not in said and "Expecting" not in said and "the file" not in said, said
            page.wait_for_timeout(500)
            shot(page, f"i36-editor-{lang}")
            assert _words_left(page, lang, ".ahd-editor") == []
            assert serve.leave_page(page, server) == []
            browser.close()
    finally:
        server.stop()
    assert outside == []
