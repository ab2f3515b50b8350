"""The tutorial module and the classroom's pages speak the current language (issue 16).

A tiny test catalog (Spanish, for the ``widgets`` and ``ahd`` domains) is compiled into a temporary
folder, so these tests do not depend on how far the real catalogs are translated: a question's prompt
and verdicts, the set-up and calendar tables, the classroom's "the class is full" page and a store's
refusal change language, while answers and keys stay what code compares.
"""
from __future__ import annotations

import pytest

pytest.importorskip("ipyleaflet")

import ahd
from ahd.core import i18n
from ahd.core.i18n import language

from i18n_catalogs import compile_catalog, use_catalogs

#: The app's words (domain ``widgets``): English -> Spanish, or (singular, plural) -> (one, many).
WIDGETS = {
    "What are {box}'s recruiting values?": "¿Cuáles son los valores de reclutamiento de {box}?",
    "two numbers, Union first, e.g. 2, 0": "dos números, primero la Unión, p. ej. 2, 0",
    "answer with two numbers: (Union value, Confederate value).":
        "responde con dos números: (valor de la Unión, valor confederado).",
    "the right numbers in the wrong order: the Union (blue) value comes first.":
        "los números correctos en el orden equivocado: primero va el valor de la Unión (azul).",
    "type your answer in the box.": "escribe tu respuesta en la casilla de texto.",
    "not done yet:": "aún no:",
    "answer with a whole number.": "responde con un número entero.",
    "How many marches does each side have on turn 1 of the {scenario} campaign?":
        "¿Cuántas marchas tiene cada bando en el turno 1 de la campaña de {scenario}?",
    ("{n} march each, with no roll, so no naval invasion on turn 1 (4.1).",
     "{n} marches each, with no roll, so no naval invasion on turn 1 (4.1)."):
        ("{n} marcha cada uno, sin tirada (4.1).", "{n} marchas cada uno, sin tirada (4.1)."),
    "Which boxes are permanent forts?": "¿Qué casillas son fuertes permanentes?",
    "the four permanent forts: {boxes}.": "los cuatro fuertes permanentes: {boxes}.",
    ("{n} fort missing", "{n} forts missing"): ("falta {n} fuerte", "faltan {n} fuertes"),
    "{problems}. Look for the ★ on the map.": "{problems}. Busca la ★ en el mapa.",
    "fort: entrenched while held (4.2.5 d)": "fuerte: fortificado mientras se controle (4.2.5 d)",
    "draft (8); the {year} scenario starts": "leva (8); empieza el escenario de {year}",
    "year": "año",
    "The class is full": "La clase está llena",
    "{page} — A House Divided": "{page} — Una casa dividida",
    ("{running} of {cap} game is being played on this server, the most it takes.",
     "{running} of {cap} games are being played on this server, the most it takes."):
        ("Se juega {running} de {cap} partida en este servidor, el máximo que admite.",
         "Se juegan {running} de {cap} partidas en este servidor, el máximo que admite."),
    "This page tries again by itself every {seconds} seconds, or {link}try again now{end}.":
        "Esta página vuelve a intentarlo sola cada {seconds} segundos, o {link}inténtalo ahora{end}.",
    "type the game's code (6 letters and digits) that your classmate sees":
        "escribe el código de la partida (6 letras y cifras) que ve tu compañero",
    "Games against a classmate": "Partidas contra un compañero",
    "Union": "Unión",  # a side's name on its own (a table's cell, as in the panel)
    "Confederate": "Confederación",
    "it is the {side} side's turn to move ({other} decides); you play the {mine} side, wait for their move":
        "le toca mover al bando {side} (decide {other}); tú juegas con el bando {mine}, espera su movimiento",
}

#: The engine's words the tables use (box names, sides, unit types, months): (context, English, Spanish).
ENGINE = [
    ("box", "Fort Monroe", "Fuerte Monroe"),
    ("box", "Washington", "Washington D. C."),
    ("side", "Union", "unionista"),  # the side inside a sentence: "the {side} side"
    ("side", "Confederate", "confederado"),
    (None, "Turn {number} ({months} {year})", "Turno {number} ({months} de {year})"),
    ("unit", "militia infantry", "infantería de milicia"),
    (None, "July", "julio"),
    (None, "January–February", "enero–febrero"),
]


@pytest.fixture
def spanish(tmp_path, monkeypatch):
    """The test catalogs in place of the real ones (both domains), the language Spanish for the test."""
    compile_catalog(tmp_path, "widgets", WIDGETS)
    compile_catalog(tmp_path, "ahd", ENGINE)
    with use_catalogs(monkeypatch, engine=tmp_path, app=tmp_path), language("es"):
        yield


def test_a_question_asks_and_answers_in_the_current_language(spanish):
    from widgets.tutorials import tutorial

    game = ahd.new_game("1861")
    with language("en"):
        english = tutorial.values_question(game, "evansville")
    q = tutorial.values_question(game, "evansville")
    assert english.prompt == "What are Evansville's recruiting values?"
    assert q.prompt == "¿Cuáles son los valores de reclutamiento de Evansville?"
    assert q.placeholder == "dos números, primero la Unión, p. ej. 2, 0"
    # the answer is the same numbers in any language; the verdicts speak Spanish
    assert q.check((0, 1)).ok
    assert q.check((1, 0)).message.startswith("los números correctos en el orden equivocado")
    assert q.check("x").message == "responde con dos números: (valor de la Unión, valor confederado)."
    waiting = q.check(None)
    assert str(waiting) == "aún no: escribe tu respuesta en la casilla de texto."
    with language("en"):
        assert str(q.check(None)) == "not done yet: type your answer in the box."
    # the typed answer, judged as it is typed, in the widget
    q.widget
    q.answer.value = "0, 1"
    assert "✓" in q.verdict.value
    assert "¿Cuáles son los valores" in q.widget.children[0].value


def test_number_answers_parse_alike_in_every_language(spanish):
    from widgets.tutorials import tutorial

    q = tutorial.first_turn_marches_question()
    assert q.prompt == "¿Cuántas marchas tiene cada bando en el turno 1 de la campaña de 1861?"
    for typed in ("2", " 2 ", "2\t"):
        assert q.check(tutorial.parse_answer(typed)).message == "2 marchas cada uno, sin tirada (4.1)."
    assert q.check(tutorial.parse_answer("dos")).message == "responde con un número entero."
    with language("en"):
        assert q.check(tutorial.parse_answer(" 2 ")).ok
        assert q.check("two").message == "answer with a whole number."


def test_box_names_are_said_and_read_in_the_readers_language(spanish):
    from widgets.tutorials import tutorial

    forts = tutorial.forts_question(ahd.new_game("1861"))
    assert forts.prompt == "¿Qué casillas son fuertes permanentes?"
    # the Spanish name, the printed English name and the id all name the same box
    done = forts.check(["Fuerte Monroe", "Washington", "richmond", "vicksburg"])
    assert done.ok and "Fuerte Monroe" in done.message and done.message.startswith("los cuatro fuertes permanentes")
    assert forts.check(["fort monroe", "washington"]).message == "faltan 2 fuertes. Busca la ★ en el mapa."
    assert forts.check(["Fuerte Monroe", "Washington", "Richmond"]).message == "falta 1 fuerte. Busca la ★ en el mapa."


def test_setup_and_calendar_tables_in_the_current_language(spanish):
    from widgets.tutorials import tutorial

    rows = tutorial.setup_rows("1861")
    assert rows[0] == {"side": "Unión", "box": "Washington D. C.", "count": 3, "code": "MF",
                       "unit": "infantería de milicia", "note": "fuerte: fortificado mientras se controle (4.2.5 d)"}
    with language("en"):
        assert tutorial.setup_rows("1861")[0]["side"] == "Union"
    # counter_mix keys are the sides' English adjectives whatever the language (a notebook reads them)
    assert set(tutorial.counter_mix(ahd.new_game("1861"))) == {"Union", "Confederate"}
    calendar = tutorial.calendar_rows()
    assert calendar[0]["months"] == "julio" and calendar[5]["months"] == "enero–febrero"
    assert calendar[7]["events"] == "leva (8); empieza el escenario de 1862"
    assert [r["turn"] for r in calendar if r["two_months"]] == [5, 6, 15, 16, 25, 26, 35, 36]
    grid = tutorial.calendar_grid().data
    assert ">año</th>" in grid and ">enero–febrero</th>" in grid and ">julio</th>" in grid
    # every turn is in the grid once, in its month's column, whatever the language
    assert sum(f">{n}</td>" in grid or f"<b>{n}</b>" in grid for n in range(1, 41)) == 40
    # a table's cells that say themselves (a side) are said in the language; the headings are the notebook's
    html = tutorial.table([{"side": ahd.Side.UNION, "n": 3}], {"side": "bando", "n": "unidades"}).data
    assert "<th" in html and ">bando</th>" in html and ">Unión</td>" in html


def test_the_class_is_full_page_in_the_servers_language(spanish):
    from widgets.server import classroom

    state = classroom.ClassState(classroom.ServeOptions(mode="classroom", students=2))
    html = classroom.full_page(state, 2, "/?token=x")
    assert '<html lang="es">' in html
    assert "<title>La clase está llena — Una casa dividida</title>" in html
    assert ">La clase está llena</h1>" in html
    assert "Se juegan 2 de 2 partidas en este servidor" in html
    assert 'o <a href="/?token=x">inténtalo ahora</a>.' in html
    with language("en"):
        english = classroom.full_page(state, 2, "/?token=x")
    assert '<html lang="en">' in english and ">The class is full</h1>" in english
    assert "2 of 2 games are being played on this server" in english
    assert 'or <a href="/?token=x">try again now</a>.' in english


def test_a_store_refusal_in_the_students_language(spanish, tmp_path):
    from widgets.classmates.store import JoinError, Store, store_path

    (tmp_path / "data").mkdir()
    store = Store(store_path(tmp_path / "data"), check=False)
    with pytest.raises(JoinError, match="escribe el código de la partida"):
        store.join("")
    with language("en"), pytest.raises(JoinError, match="type the game's code"):
        store.join("")


def test_the_store_keeps_english_and_the_teacher_reads_the_servers_language(spanish, tmp_path):
    from ahd.core.errors import IllegalActionError
    from widgets.classmates.store import Store, store_path
    from widgets.classmates.teacher_games import games_section

    (tmp_path / "data").mkdir()
    store = Store(store_path(tmp_path / "data"), check=False)
    ann = store.create(side="confederate", name="Ann", scenario="1861", seed=7)   # a page in Spanish
    store.join(ann.code, "Bob")
    ann.sync()
    (row,) = store.games()
    assert row.turn == "Turn 1 (July 1861)" and row.to_move == "union"   # no word of the page's language
    # Ann (Confederate) tries to move on the Union's turn: refused in her language, said again in English
    with pytest.raises(IllegalActionError) as refused:
        ann.game.apply(ann.game.legal_actions()[0])
    assert refused.value.reason == ("le toca mover al bando unionista (decide Bob); tú juegas con el bando "
                                    "confederado, espera su movimiento")
    assert i18n.render(refused.value.message, "en") == ("it is the Union side's turn to move (Bob decides); you "
                                                        "play the Confederate side, wait for their move")
    html = games_section(store, "k")
    assert "<h2>Partidas contra un compañero</h2>" in html
    assert "<td>Turno 1 (julio de 1861)</td>" in html and "<td>Unión</td><td>" in html
    assert "<th>Unión</th><th>Confederación</th>" in html
    with language("en"):
        english = games_section(store, "k")
    assert "<td>Turn 1 (July 1861)</td>" in english and "<th>Union</th>" in english
