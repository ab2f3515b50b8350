"""The engine's language mechanism (issue 16): choosing a language, lazy messages, refusals, the log,
outcomes, the calendar and the command line — in English as before, and in another language through a
small catalog built here (the real Spanish and Italian catalogs are translated elsewhere)."""
from __future__ import annotations

import io
import random
import re

import pytest

import ahd
from ahd.cli import main as cli_main
from ahd.core import i18n, languages
from ahd.core.calendar import Turn
from ahd.core.errors import IllegalActionError
from ahd.core.i18n import Msg, Msgn, Term, check_language, default_language, language
from ahd.core.sides import CHANCE, Side
from ahd.core.state import Outcome
from ahd.core.units import REDUCED, UNIT_TYPES, Unit

from conftest import make_game
from i18n_catalogs import compile_catalog, use_catalogs

#: A tiny Spanish catalog: only what the tests below read (context, English, Spanish).
SPANISH = [
    ("side", "Union", "unionista"),
    ("side", "Confederate", "confederado"),
    ("box", "New Orleans", "Nueva Orleans"),
    ("box", "Richmond", "Richmond"),
    ("unit", "militia infantry", "infantería de milicia"),
    ("unit", "veteran infantry", "infantería veterana"),
    ("line", "road", "carretera"),
    ("line", "rail", "ferrocarril"),
    ("scenario", "The 1861 campaign", "La campaña de 1861"),
    (None, "{kind} {id}", "{kind} {id}"),
    (None, "reduced {kind} {id}", "{kind} reducida {id}"),
    (None, "July", "julio"),
    (None, "Turn {number} ({months} {year})", "Turno {number} ({months} de {year})"),
    (None, "— {turn} —", "— {turn} —"),
    (None, "{title}: the game begins", "{title}: comienza la partida"),
    (None, "{side} march roll {roll}: {n} marches ({rule})", "Tirada de marcha {side} {roll}: {n} marchas ({rule})"),
    (None, "{side} march roll ({rules})", "tirada de marcha {side} ({rules})"),
    (None, "{unit} is already entrenched", "{unit} ya está fortificada"),
    (None, "{reason} ({rule})", "{reason} ({rule})"),
    (None, "the Confederacy controls Washington", "la Confederación controla Washington"),
    (None, "{side} victory on turn {turn}: {reason} ({rule})", "victoria {side} en el turno {turn}: {reason} ({rule})"),
    (None, "Outcome: {outcome}", "Resultado: {outcome}"),
    (None, ("{kind} may move at most {n} link by {lines}", "{kind} may move at most {n} links by {lines}"),
     ("{kind} puede mover como máximo {n} enlace por {lines}", "{kind} puede mover como máximo {n} enlaces por {lines}")),
]


@pytest.fixture
def spanish(tmp_path, monkeypatch):
    """The engine's Spanish catalog replaced by :data:`SPANISH`, compiled with Babel into ``tmp_path``."""
    compile_catalog(tmp_path, "ahd", SPANISH)
    with use_catalogs(monkeypatch, engine=tmp_path):
        yield "es"


# --------------------------------------------------------------------------- choosing a language
@pytest.mark.parametrize("typed,code", [("es", "es"), ("ES", "es"), ("es_AR.UTF-8", "es"), ("es-MX", "es"),
                                        ("Español", "es"), ("italiano", "it"), ("it_IT", "it"), ("en_US.UTF-8", "en"),
                                        ("English", "en"), (" it ", "it")])
def test_check_language_accepts_codes_locales_and_names(typed, code):
    assert check_language(typed) == code


def test_check_language_refuses_with_the_choices_and_a_suggestion():
    with pytest.raises(ValueError) as refused:
        check_language("sp")
    text = str(refused.value)
    assert "'sp'" in text and "the game speaks en, es, it" in text and "did you mean 'es'?" in text
    with pytest.raises(ValueError, match="did you mean 'it'"):
        check_language("Italian")
    with pytest.raises(ValueError) as refused:
        check_language("klingon")
    assert "did you mean" not in str(refused.value) and "en, es, it" in str(refused.value)
    for bad in ("", "  ", None, 3):
        with pytest.raises(ValueError, match="en, es, it"):
            check_language(bad)


@pytest.mark.parametrize("environ,expected", [
    ({}, "en"),
    ({"LANG": "es_ES.UTF-8"}, "es"),
    ({"LANG": "it_IT.UTF-8", "AHD_LANG": "es"}, "es"),          # the app's --lang wins
    ({"LANG": "it_IT.UTF-8", "AHD_LANG": "xx"}, "it"),          # a bad AHD_LANG is ignored
    ({"LANGUAGE": "fr:it:es", "LANG": "es_ES.UTF-8"}, "it"),    # the first of LANGUAGE's list we speak
    ({"LANGUAGE": "fr", "LANG": "es_ES.UTF-8"}, "es"),          # none in LANGUAGE: the locale
    ({"LC_ALL": "it_IT.UTF-8", "LANG": "es_ES.UTF-8"}, "it"),   # LC_ALL before LANG
    ({"LC_MESSAGES": "es_ES", "LANG": "it_IT"}, "es"),
    ({"LC_ALL": "C", "LANG": "es_ES.UTF-8"}, "en"),             # the C locale: English, LANG not read
    ({"LANG": "C.UTF-8"}, "en"),
    ({"LANG": "POSIX"}, "en"),
    ({"LANG": "fr_FR.UTF-8"}, "en"),                            # a language we do not speak
])
def test_default_language_follows_the_environment(environ, expected):
    assert default_language(environ) == expected


def test_current_language_nests_and_falls_back(monkeypatch):
    monkeypatch.setattr(languages, "_process_language", None)
    monkeypatch.setenv("AHD_LANG", "it")
    assert i18n.get_language() == "it"
    with language("es"):
        assert i18n.get_language() == "es"
        with language(None):
            assert i18n.get_language() == "es"
        with language("en"):
            assert i18n.get_language() == "en"
        assert i18n.get_language() == "es"
    assert i18n.get_language() == "it"
    with pytest.raises(ValueError, match="did you mean 'es'"):
        with language("sp"):
            pass


def test_new_game_refuses_an_unknown_language_clearly():
    with pytest.raises(ValueError) as refused:
        ahd.new_game("1861", lang="xx")
    assert "'xx'" in str(refused.value) and "the game speaks en, es, it" in str(refused.value)
    with pytest.raises(ValueError, match="did you mean 'es'"):
        ahd.new_game("1861", lang="spanish")
    assert ahd.new_game("1861", lang="ES_es.utf8").lang == "es"


# --------------------------------------------------------------------------- messages
def test_msg_renders_sides_units_terms_and_format_specs(spanish):
    unit = Unit("U-MF-03", Side.UNION, UNIT_TYPES["MF"], "new_orleans")
    message = Msg("{side} {unit} at {box:>16}|{total:+d}|{share:.1f}", side=Side.CONFEDERATE, unit=unit,
                  box=Term.box("New Orleans"), total=3, share=0.25)
    assert message.render("en") == "Confederate militia infantry U-MF-03 at      New Orleans|+3|0.2"
    assert message.render("es") == "confederado infantería de milicia U-MF-03 at    Nueva Orleans|+3|0,2"  # the decimal comma of es
    unit.strength = REDUCED
    assert Msg("{unit}", unit=unit).render("es") == "infantería de milicia reducida U-MF-03"
    assert Msg("{unit}", unit=unit).render("it") == "reduced militia infantry U-MF-03"  # no catalog: English
    with language("es"):
        assert str(message).startswith("confederado")
    assert str(message).startswith("Confederate")  # the tests' language is English
    # a message equals its English text, keeps its parameters, and never changes by being read
    assert message == "Confederate reduced militia infantry U-MF-03 at      New Orleans|+3|0.2"
    assert message.params["total"] == 3 and message.msgid.startswith("{side} {unit}")
    plural = Msgn("{n} march", "{n} marches", n=1), Msgn("{n} march", "{n} marches", n=3)
    assert [m.render("en") for m in plural] == ["1 march", "3 marches"]


def test_a_broken_translation_falls_back_to_english(tmp_path, monkeypatch):
    misspelt = [(None, "{unit} is already entrenched", "{unita} è già trincerata")]  # a misspelt placeholder
    compile_catalog(tmp_path, "ahd", misspelt, lang="it")
    with use_catalogs(monkeypatch, engine=tmp_path):
        assert i18n.translation("it").gettext("{unit} is already entrenched") == "{unita} è già trincerata"
        assert Msg("{unit} is already entrenched", unit="U-MF-03").render("it") == "U-MF-03 is already entrenched"


def test_turns_say_their_months_in_each_language(spanish):
    assert str(Turn.of(1)) == "Turn 1 (July 1861)" and str(Turn.of(5)) == "Turn 5 (November–December 1861)"
    assert Turn.of(1).__msg__("es") == "Turno 1 (julio de 1861)"
    assert Turn.of(11).month_names("es") == "julio" and Turn.of(11).long_months == "July"
    assert Msg("— {turn} —", turn=Turn.of(21)).render("es") == "— Turno 21 (julio de 1863) —"
    with language("es"):
        assert str(Turn.of(1)) == "Turno 1 (julio de 1861)"


def test_outcomes_keep_their_sentence_as_a_message(spanish):
    outcome = Outcome(Side.CONFEDERATE, "11.b", Msg("the Confederacy controls Washington"), 12)
    assert str(outcome) == "Confederate victory on turn 12: the Confederacy controls Washington (11.b)"
    assert outcome.reason == "the Confederacy controls Washington"
    assert outcome.text("es") == "victoria confederado en el turno 12: la Confederación controla Washington (11.b)"
    with language("es"):
        assert outcome.reason == "la Confederación controla Washington"
        assert str(outcome).startswith("victoria confederado")
    # a sentence given as plain text still works
    assert str(Outcome(None, "10", "agreed", 3)) == "Nobody wins on turn 3: agreed (10)"


# --------------------------------------------------------------------------- refusals
def test_a_refusal_says_itself_in_any_language_and_keeps_its_rule(spanish):
    game = make_game([("union", "MF", "new_orleans", 1, True)], options="basic")
    unit = game.units_in("new_orleans")[0]
    game.apply(ahd.BeginMarch("new_orleans"))
    error = game.why_not(ahd.Entrench(unit.id))
    assert isinstance(error, IllegalActionError) and error.rule == "4.2.5"
    assert isinstance(error.message, Msg)
    english, spanish_text = error.text("en"), error.text("es")
    assert error.reason == f"militia infantry {unit.id} is already entrenched"
    assert english == (f"illegal action Entrench militia infantry {unit.id}: militia infantry {unit.id} is already "
                       f"entrenched (4.2.5 entrenchment)")
    # the reason and the unit's name in Spanish; the rule ID cited as in English
    assert f"infantería de milicia {unit.id} ya está fortificada (4.2.5" in spanish_text
    assert spanish_text != english
    assert str(error) == english  # said in the language it was raised in (English here)
    # raised in a Spanish game, it reads Spanish, and still in English on request
    game.lang = "es"
    error = game.why_not(ahd.Entrench(unit.id))
    assert error.lang == "es" and "ya está fortificada (4.2.5" in str(error) and error.text("en") == english
    with pytest.raises(IllegalActionError) as raised:
        game.apply(ahd.Entrench(unit.id))
    assert "ya está fortificada" in str(raised.value) and raised.value.rule == "4.2.5"


def test_movement_refusals_name_unit_types_and_lines_in_the_language(spanish):
    board = ahd.new_game("1861").state.board
    ids = [box.id for box in board]
    start, first, second = next((a, b, c) for a in ids for b in ids if "road" in board.link_kinds(a, b)
                                for c in ids if c not in (a, b) and "road" in board.link_kinds(b, c))
    game = make_game([("union", "MF", start, 1)], control={"union": [start, first, second]}, options="basic")
    unit = game.units_in(start)[0]
    game.apply(ahd.BeginMarch(start))
    error = game.why_not(ahd.Move(unit.id, (start, first, second), ("road", "road")))
    assert error is not None and error.rule == "4.c"
    assert error.reason == "militia infantry may move at most 1 link by road"
    assert "militia infantry may move at most 1 link by road (4.c" in error.text("en")
    assert "infantería de milicia puede mover como máximo 1 enlace por carretera (4.c" in error.text("es")


# --------------------------------------------------------------------------- the log
def _play(lang: str | None, seed: int, options, decisions: int) -> ahd.Game:
    game = ahd.new_game("1861", options=options, seed=seed, lang=lang)
    choose = random.Random(seed)
    for _ in range(decisions):
        if game.is_over:
            break
        game.apply(choose.choice(game.legal_actions()))
    return game


def test_every_log_line_is_a_message_and_reads_as_before():
    game = _play("en", 4, "everything", 300)
    assert len(game.log) > 40
    for event in game._engine.events:
        assert isinstance(event.message, Msg), (event.kind, event.message)
        assert event.text == event.message.render("en")
    texts = [event.text for event in game.log]
    assert texts[0] == "The 1861 campaign: the game begins" and texts[1] == "— Turn 1 (July 1861) —"
    # a log line keeps the unit as it was: reducing every unit afterwards changes no line
    for unit in game.state.units.values():
        unit.strength = REDUCED
    assert [event.text for event in game.log] == texts


def test_changing_the_games_language_says_the_log_again(spanish):
    game = _play("en", 2, None, 80)
    english = [event.text for event in game.log]
    assert english[:2] == ["The 1861 campaign: the game begins", "— Turn 1 (July 1861) —"]
    rolls = [i for i, text in enumerate(english) if re.fullmatch(r"Union march roll \d: \d marches \(4\.a\)", text)]
    assert rolls, english
    game.lang = "es"
    spanish_log = [event.text for event in game.log]
    assert spanish_log[:2] == ["La campaña de 1861: comienza la partida", "— Turno 1 (julio de 1861) —"]
    assert all(re.fullmatch(r"Tirada de marcha unionista \d: \d marchas \(4\.a\)", spanish_log[i]) for i in rolls)
    assert spanish_log != english
    assert len(spanish_log) == len(english)
    game.lang = None
    assert [event.text for event in game.log] == english  # the tests' language
    with language("es"):
        assert [event.text for event in game.log] == spanish_log
    game.lang = "en"
    assert [event.text for event in game.log] == english
    with pytest.raises(ValueError, match="the game speaks en, es, it"):
        game.lang = "xx"
    assert game.lang == "en"


def test_pending_roll_is_said_in_the_games_language(spanish):
    game = ahd.new_game("1862", seed=1, dice="manual", lang="es")
    while game.current_player != CHANCE or game.decision != "march_roll":
        game.apply(game.legal_actions()[-1]) if game.current_player != CHANCE else game.roll(3)
    assert game.pending_roll.startswith("tirada de marcha ")
    game.lang = "en"
    assert game.pending_roll in ("Union march roll (4.a)", "Confederate march roll (4.a)")


@pytest.mark.parametrize("seed", [1, 7])
def test_the_record_is_the_same_in_every_language(seed):
    games = {lang: _play(lang, seed, "everything" if seed == 7 else None, 250) for lang in ("en", "es", "it")}
    records = {lang: game.to_dict() for lang, game in games.items()}
    assert records["es"] == records["en"] == records["it"]
    assert games["es"].to_json() == games["en"].to_json()
    assert [e.message for e in games["es"].log] == [e.message for e in games["en"].log]


# --------------------------------------------------------------------------- the command line
def test_cli_play_speaks_the_language_asked_for(spanish, capsys):
    out = io.StringIO()
    assert cli_main(["play", "--scenario", "short", "--seed", "3", "--quiet", "--lang", "ES"], out=out) == 0
    text = out.getvalue()
    assert "Resultado: victoria " in text and "Outcome:" not in text
    out = io.StringIO()
    assert cli_main(["play", "--scenario", "short", "--seed", "3", "--quiet", "--lang", "en"], out=out) == 0
    assert "Outcome: " in out.getvalue() and "Resultado" not in out.getvalue()


def test_cli_play_follows_the_locale_by_default(spanish, monkeypatch):
    monkeypatch.setattr(languages, "_process_language", None)
    for key in ("AHD_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("LANG", "es_ES.UTF-8")
    out = io.StringIO()
    assert cli_main(["play", "--scenario", "1861", "--seed", "2", "--quiet"], out=out) == 0
    assert out.getvalue().startswith("La campaña de 1861; ") and "Resultado: " in out.getvalue()


def test_cli_refuses_an_unknown_language(capsys):
    with pytest.raises(SystemExit) as exited:
        cli_main(["play", "--lang", "sp"])
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert "--lang" in err and "did you mean 'es'" in err and "en, es, it" in err


def test_a_refusal_is_said_when_first_read_and_keeps_its_language():
    """A refusal is said when it is read (the legal-move search makes and drops thousands); read later, in
    another language, pickled or shown by ``repr``, it still says what it said in the language it was raised in."""
    import pickle
    game = make_game([("union", "MF", "new_orleans", 1, True)], options="basic")
    unit = game.units_in("new_orleans")[0]
    game.apply(ahd.BeginMarch("new_orleans"))
    with language("es"):
        error = game.why_not(ahd.Entrench(unit.id))
    assert error._said is None  # nothing said yet
    with language("it"):
        spanish = str(error)
    assert error.lang == "es" and "ya está fortificada (4.2.5" in spanish
    assert error.args == (spanish,) and repr(error) == f"IllegalActionError({spanish!r})"
    again = pickle.loads(pickle.dumps(error))
    assert type(again) is IllegalActionError and str(again) == spanish and again.rule == "4.2.5"
    assert again.text("en") == error.text("en") and "already entrenched" in again.text("en")
