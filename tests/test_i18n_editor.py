"""The scenario editor says its words in the current language: labels, choices, tab titles, the status line,
the verdict (the problems' headings and rules) and the cards; the loader's own message stays as the engine
gives it. ``relabel()`` says them again after a change of language, keeping the scenario and the choices.
With tiny test catalogs for the app ("widgets") and the engine ("ahd"), compiled with Babel into a temporary
folder, so the test does not depend on the shipped translations being complete."""
from __future__ import annotations

import pytest

pytest.importorskip("ipyleaflet")  # the app extra
pytest.importorskip("babel")

from ahd.core import i18n, languages  # noqa: E402
from ahd.core.i18n import language  # noqa: E402
import widgets  # noqa: E402

from i18n_catalogs import compile_catalog, use_catalogs  # noqa: E402

#: The engine's words in the test's Spanish: (context, English, Spanish).
ENGINE = [("box", "New Orleans", "Nueva Orleans"), ("unit", "militia infantry", "infantería de milicia"),
          ("side", "Confederate", "de la Confederación"), (None, "A 6 always misses", "Un 6 siempre falla")]
#: The app's words in the test's Spanish: English -> Spanish, or (singular, plural) -> (one, many).
APP = {
    "Add unit": "Añadir unidad",
    "Leader": "Líder",
    "Click adds:": "El clic añade:",
    "Union": "Unión",
    "Scenario": "Escenario",
    "Test it": "Pruébalo",
    "Games": "Partidas",
    "My scenario": "Mi escenario",
    "End": "Final",
    "campaign": "campaña",
    "table": "tabla",
    "undo the last change": "deshacer el último cambio",
    "The loader accepts the scenario.": "El cargador acepta el escenario.",
    "rule {rule}": "regla {rule}",
    "problem: {message}": "problema: {message}",
    "<b>Army maxima</b> (turn {turn}): Union <b>{union}</b>, Confederacy <b>{confederate}</b>":
        "<b>Máximos de los ejércitos</b> (turno {turn}): Unión <b>{union}</b>, Confederación <b>{confederate}</b>",
    "Fix the problems first: the scenario does not load.": "Corrige primero los problemas: el escenario no carga.",
    "{box}: union control marker.": "{box}: marcador de control de la Unión.",
    ("{n} problem", "{n} problems"): ("{n} problema", "{n} problemas"),
    ("Added {count} {side} {unit_type} to {box}.", "Added {count} {side} {unit_type} to {box}."):
        ("Añadida {count} {unit_type} {side} a {box}.", "Añadidas {count} {unit_type} {side} a {box}."),
}


@pytest.fixture
def catalogs(tmp_path, monkeypatch):
    """Both domains' Spanish catalogs replaced by the test's; the process speaks English (``language`` says
    otherwise for a block)."""
    compile_catalog(tmp_path, "ahd", ENGINE)
    compile_catalog(tmp_path, "widgets", APP)
    monkeypatch.setattr(languages, "_process_language", "en")
    with use_catalogs(monkeypatch, engine=tmp_path, app=tmp_path):
        yield tmp_path


def _label(options, value):
    """The label shown for ``value`` among a selection widget's options."""
    return dict((v, label) for label, v in options)[value]


def test_an_editor_built_in_spanish_labels_its_controls_and_verdict_in_spanish(catalogs):
    with language("es"):
        editor = widgets.editor()
        assert _label(editor.tool.options, "Add unit") == "Añadir unidad" and editor.tool.value == "Add unit"
        assert editor.tool.description == "El clic añade:"
        assert _label(editor.side.options, "union") == "Unión"
        assert _label(editor.unit_type.options, "MF") == "infantería de milicia (MF)"
        assert editor.undo_button.tooltip == "deshacer el último cambio"
        assert editor.tabs.titles[0] == "Escenario" and editor.tabs.titles[2] == "Pruébalo"
        assert editor.fields["end"].description == "Final"
        assert editor.progress.bar.description == "Partidas"
        assert editor.to_scenario()["title"] == "Mi escenario"   # a new scenario's title, the author's to change
        assert editor.to_scenario()["id"] == "my-scenario"
        assert _label(editor.fields["end"].options, "campaign") == "campaña"
        assert _label(editor.fields["options"].options, "H-2") == "H-2: Un 6 siempre falla"   # the engine's title
        assert "El cargador acepta el escenario." in editor.problems_html.value
        assert "<b>Máximos de los ejércitos</b> (turno 1): Unión <b>" in editor.maxima_html.value
        assert '<span class="ahd-name">Nueva Orleans</span>' in editor.card("new_orleans")
        assert 'data-box="new_orleans"' in editor.card("new_orleans")      # tests and clicks find cards by id
        assert 'title="Nueva Orleans' in editor.layer.cards["new_orleans"]

        # a validation message: nine Confederate militia infantry break the counter mix (1.3.a)
        editor.add_unit("new_orleans", "confederate", "MF", count=9)
        assert "Añadidas 9 infantería de milicia de la Confederación a Nueva Orleans." in editor.status.value
        [problem] = editor.problems
        assert problem.rule == "1.3.a" and "counter mix allows 8" in problem.message   # the loader's, as it comes
        verdict = editor.problems_html.value
        assert "<b>1 problema</b>" in verdict and "regla 1.3.a" in verdict and "<b>Nueva Orleans</b>" in verdict
        assert "1 problem</b>" not in verdict and " rule " not in verdict and "accepts" not in verdict
        assert "problema: " in editor.card("new_orleans") and "1.3.a" in editor.card("new_orleans")
        assert editor.play() is None
        assert "Corrige primero los problemas: el escenario no carga." in editor.status.value
        editor.undo()
        editor.set_control("new_orleans", "union")
        assert "Nueva Orleans: marcador de control de la Unión." in editor.status.value

    # the same steps in English say what they always said
    english = widgets.editor()
    english.add_unit("new_orleans", "confederate", "MF", count=9)
    assert "Added 9 Confederate militia infantry to New Orleans." in english.status.value
    assert "<b>1 problem</b>" in english.problems_html.value and " — rule 1.3.a: " in english.problems_html.value
    assert _label(english.tool.options, "Add unit") == "Add unit" and english.tabs.titles[0] == "Scenario"
    assert english.to_scenario()["title"] == "My scenario"


def test_relabel_says_everything_again_and_keeps_the_scenario_and_the_choices(catalogs):
    editor = widgets.editor()
    editor.tool.value, editor.side.value, editor.unit_type.value = "Leader", "confederate", "MF"
    editor.set(end="table", score_turn=17, last_turn=20, options=["H-2"])
    editor.add_unit("new_orleans", "confederate", "MF", count=9)
    scenario, undo = editor.to_scenario(), len(editor._undo)
    assert editor.tabs.titles[0] == "Scenario" and "1 problem</b>" in editor.problems_html.value

    with language("es"):
        editor.relabel()
        assert editor.tabs.titles[0] == "Escenario" and editor.tool.description == "El clic añade:"
        assert _label(editor.tool.options, "Leader") == "Líder"
        assert _label(editor.fields["end"].options, "table") == "tabla"
        assert _label(editor.fields["options"].options, "H-2") == "H-2: Un 6 siempre falla"
        assert "<b>1 problema</b>" in editor.problems_html.value and "regla 1.3.a" in editor.problems_html.value
        assert '<span class="ahd-name">Nueva Orleans</span>' in editor.card("new_orleans")
        assert editor.layer.cards["new_orleans"] == editor.card("new_orleans")   # the card was re-sent
        assert 'title="Nueva Orleans' in editor.layer.cards["new_orleans"]
        assert editor.progress.bar.description == "Partidas"
    # the choices made and the scenario are as they were; relabelling is not an edit
    assert (editor.tool.value, editor.side.value, editor.unit_type.value) == ("Leader", "confederate", "MF")
    assert editor.fields["end"].value == "table" and editor.fields["options"].value == ("H-2",)
    assert editor.fields["score_turn"].value == 17 and editor.fields["last_turn"].value == 20
    assert editor.to_scenario() == scenario and len(editor._undo) == undo
    assert editor.leader.layout.display is None and editor.unit_type.layout.display == "none"  # the Leader tool's

    editor.relabel()  # and back in English
    assert editor.tabs.titles[0] == "Scenario" and _label(editor.tool.options, "Leader") == "Leader"
    assert '<span class="ahd-name">New Orleans</span>' in editor.card("new_orleans")
    assert "1 problem</b>" in editor.problems_html.value
