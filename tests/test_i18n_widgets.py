"""The map, the charts, the Rules tab and the guide say their words in the current language, and say them
again after a change of language (``relabel()``): with tiny test catalogs for the app ("widgets") and the
engine ("ahd"), compiled with Babel into a temporary folder, so the test does not depend on the shipped
translations being complete."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("ipyleaflet")  # the app extra
pytest.importorskip("babel")

import ahd  # noqa: E402
from ahd import rulebook  # noqa: E402
from ahd.core import i18n, languages  # noqa: E402
from ahd.core.actions import ChooseBattle  # noqa: E402
from widgets.model import i18n as app_i18n  # noqa: E402
from widgets.board import layers  # noqa: E402
from widgets.board.charts import ArmyChart, BattleOddsChart, WarChart  # noqa: E402
from widgets.teaching.guide_words import why  # noqa: E402
from widgets.board.mapview import MapView  # noqa: E402
from widgets.teaching.rules import RuleButtons, RulesView, book_language  # noqa: E402
from widgets.model.session import Session  # noqa: E402

from i18n_catalogs import compile_catalog, use_catalogs  # noqa: E402

#: The engine's words (box and unit names, sides) in the test's Spanish: (context, English, Spanish).
ENGINE = [("box", "New Orleans", "Nueva Orleans"), ("unit", "militia infantry", "infantería de milicia"),
          ("side", "Union", "de la Unión"), ("side", "Confederate", "Confederado")]
#: The app's words in the test's Spanish.
APP = {
    "Union value {value}": "Valor de la Unión {value}",
    # a side named on its own (legends, labels): the app's nouns, not the engine's "de la Unión"
    "Union": "Unión", "Confederate": "Confederación",
    "Confederate value {value}": "Valor confederado {value}",
    "{n} {unit_type}": "{n} {unit_type}",
    "port": "puerto",
    "Hover over a box to see its state.": "Pasa el ratón sobre una casilla para ver su estado.",
    "Battle odds: no battle considered": "Probabilidades de la batalla: ninguna batalla considerada",
    "Units left at the end": "Unidades que quedan al final",
    "Attacker wins": "Gana el atacante",
    "Army maxima": "Máximos de los ejércitos",
    "game turn": "turno de juego",
    "army maximum": "máximo del ejército",
    "Union wins the war": "La Unión gana la guerra",
    "Search the rules: a word (retreat) or an ID (5.2.6)": "Buscar en las reglas: una palabra (retirada) o un ID (5.2.6)",
    "Search": "Buscar",
    "See also:": "Véase también:",
    "Open rule {rule} ({title}) in the Rules tab": "Abrir la regla {rule} ({title}) en la pestaña Reglas",
    "the battles are fought one by one: {box} first.": "las batallas se libran una a una: primero {box}.",
}


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """Both domains' Spanish catalogs replaced by the test's; the process speaks English until a test says
    otherwise (``speak``)."""
    compile_catalog(tmp_path, "ahd", ENGINE)
    compile_catalog(tmp_path, "widgets", APP)
    monkeypatch.setattr(languages, "_process_language", "en")
    with use_catalogs(monkeypatch, engine=tmp_path, app=tmp_path):
        yield tmp_path


def speak(monkeypatch, lang: str) -> None:
    monkeypatch.setattr(languages, "_process_language", lang)


def _name_of(card: str) -> str:
    return re.search(r'<span class="ahd-name">([^<]*)</span>', card).group(1)


def test_a_card_says_the_box_name_and_values_in_the_language_and_keeps_its_english_id(catalogs, monkeypatch):
    game = ahd.new_game("1861", seed=1)
    english, _ = layers.card_html(game, "new_orleans")
    assert _name_of(english) == "New Orleans" and "Confederate value 2" in english
    speak(monkeypatch, "es")
    spanish, description = layers.card_html(game, "new_orleans")
    assert _name_of(spanish) == "Nueva Orleans"
    assert 'data-box="new_orleans"' in spanish               # tests and the guide's ring find cards by id
    assert "Valor confederado 2" in description and "puerto" in description.split("; ")
    assert description.startswith("Nueva Orleans (LA); Confederación")
    assert [u.type.code for u in game.units_in("new_orleans")] == ["MF"]
    assert "Confederación: 1 infantería de milicia" in description    # the chip's title: the unit type in Spanish
    assert "1 militia infantry" in english and "militia" not in spanish


def test_the_map_view_relabels_its_cards_hover_text_and_key(catalogs, monkeypatch):
    session = Session(ahd.new_game("1861", seed=1))
    view = MapView(session)
    assert _name_of(view.card("new_orleans")) == "New Orleans"
    assert "Hover over a box" in view.info.value and "(solid rim)" in view.legend.value
    layers_before = list(view.map.layers)
    speak(monkeypatch, "es")
    view.relabel()
    assert _name_of(view.card("new_orleans")) == "Nueva Orleans"
    assert view.layer.cards["new_orleans"] == view.card("new_orleans")   # the card was re-sent
    assert view.map.layers == tuple(layers_before) and view.card_count == len(session.game.board)  # no new layer
    assert "Pasa el ratón sobre una casilla" in view.info.value
    assert "Unión" in view.legend.value and "Confederación" in view.legend.value and "de la Unión" not in view.legend.value
    session.hover("new_orleans")
    assert "Nueva Orleans" in view.info.value and "New Orleans" not in view.info.value


def test_chart_titles_axes_and_legends_change_with_the_language(catalogs, monkeypatch):
    session = Session(ahd.new_game("1861", seed=1), war_odds=False)
    battle, army, war = BattleOddsChart(session), ArmyChart(session), WarChart(session)
    assert battle.figure.title == "Battle odds: no battle considered" and army.figure.title == "Army maxima"
    assert army.turn_axis.label == "game turn" and list(battle.bars.x)[0] == "Attacker wins"
    battle._survivor_chart()  # made at the first exact odds; here before the language changes
    speak(monkeypatch, "es")
    for chart in (battle, army, war):
        chart.relabel()
    assert battle.figure.title == "Probabilidades de la batalla: ninguna batalla considerada"
    assert battle.survivor_figure.title == "Unidades que quedan al final"
    assert list(battle.bars.x)[0] == "Gana el atacante"
    assert army.figure.title == "Máximos de los ejércitos"
    assert (army.turn_axis.label, army.value_axis.label) == ("turno de juego", "máximo del ejército")
    assert "Unión" in army.legend.value and "Confederación" in army.legend.value and "de la Unión" not in army.legend.value
    assert war.turn_axis.label == "turno de juego" and "La Unión gana la guerra" in war.legend.value
    # a chart built in Spanish is Spanish from the start
    assert ArmyChart(session).figure.title == "Máximos de los ejércitos"


def test_the_rules_tab_shows_the_spanish_rulebook(catalogs, monkeypatch):
    view = RulesView()
    view.open("5.2.6")
    english_title = rulebook.title("5.2.6", "en")
    assert english_title in view.text.value and view.query.placeholder.startswith("Search the rules")
    speak(monkeypatch, "es")
    assert book_language() == "es"
    view.relabel()
    entry = rulebook.entry("5.2.6", "es")
    assert view.current == "5.2.6" and f"data-rule='5.2.6' lang='es'" in view.text.value
    assert entry.title in view.text.value and entry.title != english_title
    assert view.query.placeholder == "Buscar en las reglas: una palabra (retirada) o un ID (5.2.6)"
    assert view.go.description == "Buscar"
    assert dict((value, label) for label, value in view.results.options)["5.2.6"] == f"5.2.6 — {entry.title}"
    # searching searches the Spanish book: a word of the Spanish entry finds it
    assert "5.2.6" in view.search("retirada caballería")
    # a tab opened in Spanish shows the Spanish entry at once, and its rule buttons say Spanish titles
    fresh = RulesView()
    fresh.open("5.2.6")
    assert entry.title in fresh.text.value
    row = RuleButtons(fresh.open, intro=app_i18n.N_("See also:"))
    row.show_ids(["5.2.6"])
    assert row.buttons[0].description.startswith("5.2.6 ") and "Véase también:" in row.intro.value
    assert row.buttons[0].tooltip == f"Abrir la regla 5.2.6 ({entry.title}) en la pestaña Reglas"


def test_the_guides_reasons_name_boxes_in_the_language(catalogs, monkeypatch):
    game = ahd.new_game("1861", seed=1)
    assert why(game, ChooseBattle(box="new_orleans")) == "the battles are fought one by one: New Orleans first."
    speak(monkeypatch, "es")
    assert why(game, ChooseBattle(box="new_orleans")) == "las batallas se libran una a una: primero Nueva Orleans."
