"""The app in the player's language (issue 16), without a browser: its labels, the language menu that
switches the whole app around the same game, the refusals recognised in any language, ``play(lang=)``.

The app's words come from a tiny test catalog (Babel writes it into a temporary folder) standing in for
``widgets/locale``, so that these tests say what the mechanism does whatever the real catalogs hold.
"""
from __future__ import annotations

import os
import re

import pytest

import ahd
import ahd.core.i18n as core_i18n
import widgets
from ahd.core.errors import IllegalActionError
from ahd.core.i18n import Msg
from widgets.app import _observers
from widgets.model.gestures import plain_refusal
from widgets.board.log import log_groups

from i18n_catalogs import compile_catalog, use_catalogs

#: The test catalog of the app (domain ``widgets``), in "es": marked "[es]" so nothing real can match.
APP_WORDS = {
    "New game": "Partida nueva [es]",
    "Undo": "Deshacer [es]",
    "Game log": "Registro de la partida [es]",
    "Battle odds": "Probabilidades de la batalla [es]",
    "{side} half-turn": "Media vuelta {side} [es]",
    "{side} to move. {prompt}": "Mueve {side}. {prompt} [es]",
    "Rolled {value}.": "Salió un {value} [es].",
    "Learn by playing": "Aprender jugando [es]",
    "movement": "movimiento [es]",
    "end movement": "terminar el movimiento [es]",
    "begin a march": "empezar una marcha [es]",
    "{some} or {last}": "{some} o {last}",
    "not now: the decision is the {step}, where you may {allowed}":
        "ahora no: la decisión es {step}, donde puedes {allowed} [es]",
    "A House Divided — play the Civil War": "A House Divided — juega la Guerra Civil [es]",
    "Not allowed: {reason}": "No permitido [es]: {reason}",
    ("Moved {n} unit to {box}", "Moved {n} units to {box}"): ("Movida [es] {n} unidad a {box}",
                                                              "Movidas [es] {n} unidades a {box}"),
}
#: A stand-in for an engine message translated into Spanish (its own domain, so the real catalog is untouched).
ENGINE_WORDS = {
    "now the decision is {step} (accepted: {kinds})": "ahora la decisión es {step} (aceptadas: {kinds})",
    "now the decision is movement (accepted: end_movement, begin_march)": "fuera de secuencia [es]",
}


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """The test catalogs in place of the app's (``widgets``) and an engine-like domain ``enginetest`` (its
    messages name the folder); the language is English again afterwards."""
    compile_catalog(tmp_path, "widgets", APP_WORDS)
    compile_catalog(tmp_path, "enginetest", ENGINE_WORDS)
    ahd.set_language("en")
    with use_catalogs(monkeypatch, app=tmp_path):
        yield tmp_path
    ahd.set_language(None)


def _text(html: str) -> str:
    return re.sub(r"<[^>]+>", " ", html)


def test_the_app_speaks_the_language_it_is_given(catalogs):
    english = widgets.play("1861", union="human", confederate="heuristic", intro=True)
    assert english.panel.new.description == "New game" and english.panel.undo.description == "Undo"
    assert "Union to move." in english.session.prompt
    spanish = widgets.play("1861", union="human", confederate="heuristic", lang="es", intro=True)
    assert ahd.core.i18n.get_language() == "es"
    panel = spanish.panel
    assert panel.new.description == "Partida nueva [es]" and panel.new.tooltip == "Partida nueva [es]"
    assert panel.undo.description == "Deshacer [es]"
    headings = " ".join(child.value for child in panel.widget.children if hasattr(child, "value")
                        and isinstance(child.value, str))
    assert "Registro de la partida [es]" in headings and "Game log" not in headings
    assert "Probabilidades de la batalla [es]" in spanish.odds.value
    assert spanish.session.prompt.startswith("Mueve ") and spanish.session.prompt.endswith("[es]")
    assert "juega la Guerra Civil [es]" in spanish.children[1].value
    assert spanish.guide.start_button.description in ("Learn by playing", "Aprender jugando [es]")
    # the log's half-turn headings are said now, in the language
    spanish.session.click_box("harpers_ferry")
    spanish.session.click_box("baltimore")
    assert "Media vuelta" in _text(panel.log.value)
    assert any(half.startswith("Media vuelta") for _turn, half, _blocks in log_groups(spanish.game.log) if half)


def test_the_menu_switches_the_whole_app_around_the_same_game(catalogs):
    app = widgets.play("1861", union="human", confederate="heuristic")
    s = app.session
    assert [label for label, _code in app.language.options] == ["English", "Español", "Italiano"]
    assert app.language.value == "en"
    s.click_box("harpers_ferry")
    s.click_box("baltimore")
    game, history, log = s.game, list(s.game.history), [e.message for e in s.game.log]
    selected_before = s.selected
    observers = len(_observers(s))
    old_panel, old_chart = app.panel, app.battle_chart
    app.panel.preset.value, app.panel.filename.value, app.panel.dice_mode.value = "advanced", "mine.json", "manual"
    app.rules.open("4.2")  # reading a rule in the Rules tab

    app.language.value = "es"  # the menu

    assert ahd.core.i18n.get_language() == "es"
    assert s.game is game and s.game.history == history and [e.message for e in s.game.log] == log
    assert s.selected == selected_before
    assert app.panel is old_panel and app.battle_chart is old_chart  # the same widgets, their words said again
    assert app.panel.new.description == "Partida nueva [es]"
    assert app.panel.widget in app.rules.tabs.children
    # what was chosen or shown stays: the menus, the file name, the dice, the rule being read
    assert (app.panel.preset.value, app.panel.filename.value, app.panel.dice_mode.value) == (
        "advanced", "mine.json", "manual")
    assert app.rules.view.current == "4.2" and app.rules.tabs.selected_index == 1
    assert app.map_view.map in app.children[1].children[0].children  # the same map, still shown
    # nothing new listens to the session (nothing piles up with each switch)
    assert len(_observers(s)) == observers
    # every trait is said again in Spanish: the prompt, the legal actions, the log (read at display time)
    assert s.prompt.startswith("Mueve ")
    with ahd.core.i18n.language("es"):
        assert s.legal == [str(a) for a in s.legal_actions]
        assert s.log_lines == [str(e) for e in s.game.log]
    # the panel still plays the game: a button of the new panel acts on the same session
    before = len(s.game.history)
    app.panel.undo.click()
    assert len(s.game.history) < before
    # back to English: the English labels, the same game
    app.language.value = "en"
    assert app.panel.new.description == "New game" and s.game is game
    assert s.prompt.startswith("Union to move.")
    # set_language refuses an unknown language and changes nothing
    with pytest.raises(ValueError, match="en, es, it"):
        app.set_language("xx")
    assert ahd.core.i18n.get_language() == "en" and app.language.value == "en"


def test_the_guide_goes_on_after_a_switch(catalogs):
    app = widgets.play("1861", union="human", confederate="heuristic", guide=True)
    assert app.guide.active and app.guide.hint is not None
    hint_action = app.guide.hint.action
    app.set_language("es")
    assert app.guide.active and app.guide.hint is not None and app.guide.hint.action == hint_action
    assert app.guide.widget in app.children[1].children[1].children


def test_an_unknown_language_is_refused_naming_the_choices(catalogs):
    with pytest.raises(ValueError) as error:
        widgets.play("1861", lang="xx")
    assert "unknown language 'xx'" in str(error.value) and "en, es, it" in str(error.value)
    assert "\n" not in str(error.value)
    assert ahd.core.i18n.get_language() == "en"


def test_an_out_of_sequence_refusal_is_recognised_in_any_language(catalogs):
    """``plain_refusal`` reads the engine's message (its parameters, or its English text), never the words of
    the language it was said in."""
    domain = ("enginetest", str(catalogs))
    with core_i18n.language("es"):
        with_params = IllegalActionError("3.a", Msg("now the decision is {step} (accepted: {kinds})", domain=domain,
                                                    step="movement", kinds="begin_march, end_movement"))
        assert with_params.reason.startswith("ahora la decisión es")  # said in Spanish
        plain = plain_refusal(with_params)
        assert plain.rule == "3.a"
        assert plain.reason == ("ahora no: la decisión es movimiento, donde puedes empezar una marcha [es] o "
                                "terminar el movimiento [es] [es]")
        whole = IllegalActionError("3.a", Msg("now the decision is movement (accepted: end_movement, begin_march)",
                                              domain=domain))
        assert whole.reason == "fuera de secuencia [es]"
        assert plain_refusal(whole).reason.startswith("ahora no: la decisión es movimiento")
    # in English, the words the panel always said
    english = plain_refusal(IllegalActionError("3.a", "now the decision is choose battle (accepted: choose_battle)"))
    assert english.reason == "not now: the decision is the choose battle, where you may choose the next battle"
    other = IllegalActionError("4.b", "no road line joins these boxes")
    assert plain_refusal(other) is other


def test_a_refusal_in_the_app_is_said_in_the_language_of_the_app(catalogs):
    app = widgets.play("1861", union="human", confederate="heuristic", lang="es")
    s = app.session
    s.click_box("new_orleans")  # a Confederate box: the Union cannot march from it
    assert s.status_kind == "refused" and s.status_rule
    assert s.status.startswith("No permitido [es]: ")
    spanish_rule = s.status_rule
    app.language.value = "en"  # the refusal on screen is said again, in English
    assert s.status.startswith("Not allowed: ") and s.status_rule == spanish_rule
    s.click_box("new_orleans")
    assert s.status.startswith("Not allowed: ") and s.status_rule == spanish_rule
    # what a gesture did is said again too: a march, in Spanish after the switch
    s.click_box("harpers_ferry")
    s.click_box("baltimore")
    assert s.status.startswith("Moved 1 unit to Baltimore")
    app.language.value = "es"
    assert s.status.startswith("Movida [es]") and s.status_kind == "info"


def test_house_divided_app_and_classroom_give_the_language_to_their_kernels(monkeypatch, capsys):
    """``--lang`` is checked, then set as ``AHD_LANG`` in the server's environment, which its kernels inherit
    (``ahd.core.i18n.default_language`` reads it first)."""
    import widgets.server.classroom
    from widgets.server import cli

    seen = []
    monkeypatch.setenv("AHD_LANG", "en")  # recorded, so the environment is as it was afterwards
    monkeypatch.setattr(widgets.server.classroom, "serve", lambda options: seen.append((options.mode,
                                                                                  os.environ.get("AHD_LANG"))) or 0)
    assert cli.main(["app", "--lang", "es", "--port", "1"]) == 0
    assert cli.main(["classroom", "--lang=Italiano", "--port", "1"]) == 0
    assert seen == [("app", "es"), ("classroom", "it")]
    assert core_i18n.default_language() == "it"
    monkeypatch.setenv("AHD_LANG", "en")
    assert cli.main(["app", "--lang", "xx", "--port", "1"]) == 2
    error = capsys.readouterr().err.strip()
    assert error.startswith("error: unknown language 'xx'") and "en, es, it" in error and "\n" not in error
    assert len(seen) == 2 and os.environ["AHD_LANG"] == "en"  # a refused --lang changes nothing


def test_the_log_is_grouped_by_its_messages_whatever_the_language(catalogs):
    """The panel's log finds turns and battles by the engine's messages (their msgid), not by English words:
    a battle said in Spanish is still a battle block, under a Spanish half-turn heading."""
    from ahd.core.engine import Event
    from ahd.core.sides import Side

    battle_words = {"Battle at {box}: the attack": "Batalla en {box}: el ataque",
                    "The {side} side wins the battle at {box} (5.c)": "Gana {side} en {box} (5.c)",
                    "— {turn} —": "— {turn} [es] —"}
    compile_catalog(catalogs, "enginetest", {**ENGINE_WORDS, **battle_words})
    domain = ("enginetest", str(catalogs))
    events = [Event(3, Side.UNION, "turn", Msg("— {turn} —", domain=domain, turn="Turn 3")),
              Event(3, Side.UNION, "move", Msg("a march", domain=domain)),
              Event(3, Side.UNION, "battle", Msg("Battle at {box}: the attack", domain=domain, box="Cairo")),
              Event(3, Side.UNION, "fire", Msg("a shot", domain=domain)),
              Event(3, Side.UNION, "battle", Msg("The {side} side wins the battle at {box} (5.c)", domain=domain,
                                                  side="Union", box="Cairo")),
              Event(3, Side.UNION, "move", Msg("after", domain=domain))]
    english = log_groups(events)
    with core_i18n.language("es"):
        spanish = log_groups(events)
        union = core_i18n.render(Side.UNION)  # the engine's form of the side in Spanish
    assert english == [("Turn 3", "Union half-turn", [("", ["a march"]), ("Battle at Cairo: the attack",
                        ["a shot", "The Union side wins the battle at Cairo (5.c)"]), ("", ["after"])])]
    assert spanish == [("Turn 3 [es]", f"Media vuelta {union} [es]", [("", ["a march"]), ("Batalla en Cairo: el ataque",
                        ["a shot", "Gana Union en Cairo (5.c)"]), ("", ["after"])])]


def test_the_maps_zoom_buttons_are_titled_in_the_apps_language():
    """Issue 36: Leaflet titles its + and - buttons "Zoom in" and "Zoom out" (the real catalogs here)."""
    import ipyleaflet
    app = widgets.play("1861", union="human", confederate="heuristic", lang="es")
    try:
        zoom = app.map_view.map.zoom_control_instance
        assert (zoom.zoom_in_title, zoom.zoom_out_title) == ("Acercar", "Alejar")
        app.set_language("it")
        zoom = app.map_view.map.zoom_control_instance
        assert (zoom.zoom_in_title, zoom.zoom_out_title) == ("Ingrandisci", "Riduci")
        assert sum(isinstance(c, ipyleaflet.ZoomControl) for c in app.map_view.map.controls) == 1
    finally:
        ahd.set_language(None)
