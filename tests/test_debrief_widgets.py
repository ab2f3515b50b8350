"""The app's Debrief section (issue 35), driven without a browser: it opens when the game ends and on demand,
shows the engine's debrief page in a sandboxed frame, offers it as a download and speaks the app's language."""
from __future__ import annotations

import base64
import html
import re

import pytest

import ahd
import widgets
from ahd.bots import make_bot, play


@pytest.fixture(scope="module")
def finished_record() -> str:
    game = play(ahd.new_game("short", seed=5), make_bot("heuristic", 5), make_bot("heuristic", 6))
    assert game.is_over
    return game.to_json()


@pytest.mark.rule("11.c")
def test_the_debrief_opens_when_the_game_ends(finished_record):
    app = widgets.play("short", union="human", confederate="human", lang="en")
    view = app.debrief
    assert view.frame.value == "" and view.button.description == "Debrief"
    app.session.load(finished_record.encode())          # the game is over now
    assert app.session.outcome
    assert "<iframe" in view.frame.value and "sandbox=''" in view.frame.value
    page = html.unescape(re.search(r"srcdoc='([^']*)'", view.frame.value).group(1))
    assert page == view.page and "Questions for discussion" in page
    assert view.hide.layout.display == "" and view.save.layout.display == ""
    view.close()
    assert view.frame.value == "" and view.hide.layout.display == "none"
    view.button.click()
    assert view.frame.value
    app.session.new_game("short", seed=2)                # another game: the old debrief is not left showing
    assert not app.session.outcome and view.frame.value == "" and view.page


def test_the_debrief_on_demand_of_an_unfinished_game_and_its_download():
    app = widgets.play("1861", union="human", confederate="human", lang="en")
    view = app.debrief
    view.button.click()
    assert "The game is not over: this debrief stops at Turn 1 (July 1861)." in view.page
    before = app.session.to_json()
    view.save.click()
    link = re.search(r"href='data:text/html;base64,([^']+)'", view.download.value)
    assert link and base64.b64decode(link.group(1)).decode("utf-8") == view.page
    assert "debrief-1861-turn-1.html" in view.download.value
    assert app.session.to_json() == before                # the view never changes the game


def test_the_debrief_speaks_the_apps_language(finished_record):
    app = widgets.play("short", union="human", confederate="human", lang="en")
    app.session.load(finished_record.encode())
    app.set_language("es")
    try:
        assert app.debrief.button.description == "Puesta en común"
        assert '<html lang="es">' in app.debrief.page
    finally:
        app.set_language("en")
