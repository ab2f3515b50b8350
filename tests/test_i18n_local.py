"""Issue 36: numbers, percentages and dates written the local way (the engine's own table, checked against
Babel), and the rules searched without accents."""
from __future__ import annotations

import copy
import datetime
import json
import random
import re
from pathlib import Path
from decimal import Decimal

import pytest
from babel.dates import format_date as babel_date
from babel.numbers import format_decimal as babel_decimal, format_percent as babel_percent

from ahd.core import rulebook
from ahd.core.errors import DataFileError, RecordError
from ahd.core.game import Game, new_game
from ahd.core.i18n import Msg, Num, Pct, format_date, format_decimal, format_percent, language, month_name, render
from ahd.core.jsonfile import JsonProblem, parse
from ahd.core.scenario import load_scenario, scenario_from_dict

LANGS = ("en", "es", "it")


def _values():
    rng = random.Random(36)
    values = [0, 1, -1, 0.5, 0.231, 0.1, 12.25, 999, 1000, 1234, 12345.5, 1234567.891, -4321.05, 10 ** 9]
    values += [round(rng.uniform(-1e7, 1e7), rng.randint(0, 3)) for _ in range(300)]
    return values


@pytest.mark.parametrize("lang", LANGS)
def test_decimals_as_babel_writes_them(lang):
    for value in _values():
        for digits in (0, 1, 2, 3):
            expected = babel_decimal(round(value, digits), format="#,##0." + "#" * digits if digits else "#,##0",
                                     locale=lang)
            assert format_decimal(value, digits, lang) == expected, (value, digits)


@pytest.mark.parametrize("lang", LANGS)
def test_percentages_and_dates_as_babel_writes_them(lang):
    for value in [0, 0.5, 0.993, 0.0314, 1, 0.12345] + [random.Random(i).random() for i in range(100)]:
        rounded = Decimal(str(round(value * 100, 1))) / 100  # the locale's own pattern, no further rounding
        assert format_percent(value, 1, lang) == babel_percent(rounded, locale=lang, decimal_quantization=False)
        if lang == "es":
            assert "\u00a0%" in format_percent(value, 1, lang)
    for month in range(1, 13):
        day = datetime.date(2026, month, 3 + month)
        assert format_date(day, lang) == babel_date(day, "long", locale=lang)


def test_the_issue_examples():
    assert (format_decimal(0.231, 3, "es"), format_decimal(0.231, 3, "it"), format_decimal(0.231, 3, "en")) == (
        "0,231", "0,231", "0.231")
    assert (format_percent(0.993, 1, "es"), format_percent(0.993, 1, "it")) == ("99,3\u00a0%", "99,3%")
    assert month_name(11, "es") == "noviembre" and month_name(11, "it") == "novembre"
    message = Msg("attacker {p}, won {w}", p=Num(0.1, 1), w=Pct(0.993))
    assert (message.render("en"), message.render("es")) == ("attacker 0.1, won 99.3%", "attacker 0,1, won 99,3\u00a0%")


def test_bad_numbers_are_written_as_they_are():
    for bad in (None, "x", float("nan"), float("inf"), [1]):
        assert format_decimal(bad, 2, "es") == str(bad)
        assert isinstance(format_percent(bad, 1, "it"), str)


@pytest.mark.parametrize("lang, plain, accented", [
    ("es", "caballeria", "caballería"), ("it", "citta", "città"), ("en", "elite", "élite"), ("es", "elite", "élite"),
    ("it", "CAVALLERIA", "cavalleria"), ("es", "REGLA OPCIONAL", "regla opcional")])
def test_rules_search_without_accents_or_case(lang, plain, accented):
    found = rulebook.search(plain, lang)
    assert found, plain
    assert found == rulebook.search(accented, lang)


def test_search_never_fails_on_odd_queries():
    for query in ("", "   ", "\u0301", "ﬁ", "(", "*", "🙂", "a" * 10_000):
        assert isinstance(rulebook.search(query, "es"), list)
    assert rulebook.search(None, "es") == []  # type: ignore[arg-type]


# -- the loader's messages (scenario files, records) in the player's language ---------------------------------
ENGLISH = re.compile(r"\b(expected|got|unknown|must|missing|invalid|line|not valid|allowed|listed|counters?|"
                     r"between|only with|shipped|the file|too large|cannot|action|lacks|field|item|Expecting|"
                     r"delimiter|value|column|did you mean)\b")


def _broken_scenarios():
    base = copy.deepcopy(load_scenario("1861").data)
    cases = [b"", b"{", b"[1,]", b'{"a": 1, "a": 2}', b"NaN", b"\xff\xfe{", "{\"x\": \"\x01\"}".encode(), b"[" * 50]
    for key in list(base):
        for bad in (None, "x", -3, [], {}, True, 10 ** 6, [{"side": "north"}]):
            cases.append(dict(base, **{key: bad}))
        cases.append({k: v for k, v in base.items() if k != key})
    cases.append(dict(base, units=base["units"] + [{"side": "union", "type": "XX", "box": "nowhere"}]))
    cases.append(dict(base, units=base["units"] + [{"side": "union", "type": "MF", "box": "washington", "count": 90}]))
    cases.append(dict(base, units=[dict(u, box="atlantis") for u in base["units"]]))
    cases.append(dict(base, cavalry_held=["richmond"], control={}))
    cases.append(dict(base, extra_key=1, format="house-divided-record"))
    cases.append(dict(base, leaders=[{"name": "napoleon", "box": "richmond"}], options=["Z-9"]))
    cases.append(dict(base, end="table", score_turn=3))
    cases.append({"format": "house-divided-scenario", "based_on": "1999"})
    return cases


def _loader_messages(lang):
    out = []
    for case in _broken_scenarios():
        try:
            with language(lang):
                data = parse(case) if isinstance(case, bytes) else case
                scenario_from_dict(data, "test.json")
        except JsonProblem as exc:
            out.append(("<json>", render(exc.problem, lang)))
        except DataFileError as exc:
            out.append((exc.key, exc.text(lang)))
    return out


@pytest.mark.parametrize("lang", ("es", "it"))
def test_the_loader_speaks_the_players_language(lang):
    english = _loader_messages("en")
    said = _loader_messages(lang)
    assert len(said) == len(english) > 80  # every broken case is refused, in both languages
    for (key, text), (key_en, text_en) in zip(said, english):
        assert key == key_en  # the key path is the same in every language
        assert text != text_en or not ENGLISH.search(text_en), text
        assert not ENGLISH.search(re.sub(r"'[^']*'|\"[^\"]*\"|\{[^}]*\}|[\w.]+\[\d+\][\w.]*|\b[a-z]+_[a-z_]+\b",
                                         "", text.split(": ", 1)[-1])), text
        for rule in re.findall(r"\((?:[A-Z]{1,2}-)?\d+(?:\.\d+)*(?:\.[a-z])?\)", text_en):
            assert rule in text, (rule, text)  # rule IDs kept


@pytest.mark.parametrize("lang, fragments", [
    ("es", ("línea 1", "JSON no válido", "tipo de acción desconocido 'Move'")),
    ("it", ("riga 1", "JSON non valido", "tipo di azione sconosciuto 'Move'"))])
def test_a_broken_record_is_refused_in_the_players_language(lang, fragments):
    with language(lang):
        with pytest.raises(RecordError) as bad_json:
            Game.from_json("{")
        record = json.loads(new_game("short", seed=1).to_json())
        record["actions"] = [{"type": "Move"}]
        with pytest.raises(RecordError) as bad_action:
            Game.from_dict(record)
    assert fragments[0] in str(bad_json.value) and fragments[1] in str(bad_json.value)
    assert fragments[2] in str(bad_action.value) and "actions[0].type" == bad_action.value.key


# -- the command line: help, argparse's own words, the odds header -----------------------------------------------
HELP_ENGLISH = re.compile(r"\b(usage|options|positional|arguments?|show this help|default|the|an|of|for|and|or|"
                          r"game|games|player|file|language|serve|print|play|with|every|required|"
                          r"unrecognized|expected|Exact odds|Monte Carlo estimate)\b")


#: English words that are words of the language too ("il file").
ALSO_WORDS_OF = {"es": {"error"}, "it": {"file", "serve"}}


def _help(main, argv, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    captured = capsys.readouterr()
    return captured.out + captured.err


def _prose(text: str) -> str:
    """Help text without what is not prose: option names, metavars, choices, commands and examples."""
    text = re.sub(r"'[^']*'|https?://\S+", " ", text)  # quoted values, and example URLs
    text = re.sub(r"--?[\w-]+(?:[ =][A-Z][A-Z_.]*(?: \[[A-Z_ .]+\])?)?|\{[^}]*\}|\b[A-Z][A-Z_.\-0-9]+\b", " ", text)
    text = re.sub(r"\b(?:python -m ahd|house-divided|search:\S+|[a-z]+:[a-z]+|ahd\.load|voila|Binder|XSRF|API|URL|"
                  r"QR|Lee|notebooks/|games\.sqlite3|~/house-divided-games|A House Divided|Monte Carlo|English|"
                  r"Español|Italiano|easy|normal|hard|random|heuristic|search|auto|exact|short|union|confederate|"
                  r"defender|attacker|never|outnumbered|basic|app|classroom|publish|play|demo|simulate|odds|bench|"
                  r"validate|options|auto|kernel|kernels|token|extra|pip install)\b", " ", text)
    return text


@pytest.mark.parametrize("lang", ("es", "it"))
def test_command_line_help_in_the_players_language(lang, capsys, monkeypatch):
    from ahd.cli import main as engine_main
    from widgets.server.cli import main as app_main
    import ahd.core.languages as engine_languages
    monkeypatch.setenv("AHD_LANG", "en")
    # the environment's language, not one an earlier test chose for the process (widgets.play(lang=...))
    monkeypatch.setattr(engine_languages, "_process_language", None)
    pages = []
    for command in ("play", "demo", "simulate", "odds", "options", "bench", "validate"):
        pages.append(_help(engine_main, [command, "--help", "--lang", lang], capsys))
    for command in ("app", "classroom", "publish"):
        pages.append(_help(app_main, [command, f"--lang={lang}", "-h"], capsys))
    monkeypatch.setenv("AHD_LANG", lang)  # the environment's language when no --lang is given
    pages.append(_help(engine_main, ["--help"], capsys))
    pages.append(_help(app_main, ["--help"], capsys))
    pages.append(_help(app_main, ["publish", "--help"], capsys))
    pages.append(_help(engine_main, ["play", "--bogus"], capsys))  # argparse's own error message
    pages.append(_help(engine_main, ["odds"], capsys))
    for page in pages:
        assert ("uso:" in page), page
        leftover = [w for w in HELP_ENGLISH.findall(_prose(page)) if w not in ALSO_WORDS_OF[lang]]
        assert not leftover, (leftover, page)


@pytest.mark.parametrize("lang, header, number", [("es", "Probabilidades exactas (27 estados de batalla):", "92,6\u00a0%"),
                                                  ("it", "Probabilità esatte (27 stati della battaglia):", "92,6%"),
                                                  ("en", "Exact odds (27 battle states):", "92.6%")])
def test_the_odds_header_and_figures(lang, header, number):
    from io import StringIO
    from ahd.cli import main as engine_main
    out = StringIO()
    assert engine_main(["odds", "--attacker", "FV", "FV", "--defender", "MF:entrenched", "--lang", lang], out=out) == 0
    assert header in out.getvalue() and number in out.getvalue()


# -- the battle-odds caption ------------------------------------------------------------------------------------
ODDS = {"label": "Battle of Richmond, round 1", "attacker": "confederate", "defender": "union", "attacker_wins": 0.993,
        "defender_wins": 0.005, "neither": 0.002, "expected_rounds": 2.25, "attacker_survivors": 0.1,
        "defender_survivors": 0.231, "attacker_left": [], "defender_left": [], "method": "exact", "not_modelled": []}


@pytest.mark.parametrize("lang, attacks, figures, english", [
    ("es", "Ataca la Confederación.", ("atacante 0,1", "defensor 0,2", "rondas esperadas 2,2", "(exacto;"),
     ("exact;", "Ataca el bando", "0.1")),
    ("it", "Attacca la Confederazione.", ("attaccante 0,1", "difensore 0,2", "round attesi 2,2", "(esatto;"),
     ("exact;", "il fronte", "0.1")),
    ("en", "The Confederacy attacks.", ("attacker 0.1", "defender 0.2", "expected rounds 2.2", "(exact;"), ("0,1",))])
def test_the_battle_odds_caption(lang, attacks, figures, english):
    from widgets.board.charts import BattleOddsChart
    from widgets.model.session import Session
    with language(lang):
        session = Session(new_game("1861", seed=1), war_odds=False)
        chart = BattleOddsChart(session)
        session.battle_odds = dict(ODDS)
        caption = chart.caption.value
    assert attacks in caption and all(f in caption for f in figures), caption
    assert not any(e in caption for e in english), caption


# -- one name per box and language: the map, the rulebook and the notebooks agree ---------------------------------
@pytest.mark.parametrize("lang", ("es", "it"))
def test_each_box_has_one_name_per_language(lang):
    import glob
    from ahd.core.board import default_board
    from ahd.core.i18n import Term
    root = Path(__file__).resolve().parents[1]
    texts = {"rulebook": rulebook.markdown(lang)}
    texts.update({path: Path(path).read_text(encoding="utf-8")
                  for path in glob.glob(str(root / "notebooks" / lang / "**" / "*.ipynb"), recursive=True)})
    # the one sentence that names the English form on purpose (it.md, 2.a)
    allowed = {"it": ["New Orleans si chiama Nuova Orleans"], "es": []}[lang]
    renamed = 0
    for box in default_board():
        local = render(Term.box(box.name), lang)
        if local == box.name:
            continue
        renamed += 1
        for where, text in texts.items():
            for sentence in allowed:
                text = text.replace(sentence, "")
            assert box.name not in text, (box.name, local, where)
    assert renamed >= 3
    assert render(Term.box("St. Louis"), lang) == "St. Louis"  # as the originals write it
    assert "St. Louis" in rulebook.markdown(lang)


# -- Italian grammar -------------------------------------------------------------------------------------------
def test_italian_prepositions_and_the_computer_players_name():
    from babel.messages.pofile import read_po
    from widgets.board.explain import war_odds_note
    from widgets.model.i18n import _, _n
    with language("it"):
        note = war_odds_note(new_game("1861", seed=1), (0.5, 0.4, 0.6))
        moved = [_n("Moved {n} unit to {box}", "Moved {n} units to {box}", 3).format(n=3, box=box)
                 for box in ("Atlanta", "Baltimore", "Albany")]
        logged = Msg("{n} at {box}", n=1, box="Atlanta").render("it")
    assert "giocati dal giocatore del computer «difficile»" in note and "da il" not in note and "'hard'" not in note
    assert moved == ["3 unità spostate ad Atlanta", "3 unità spostate a Baltimore", "3 unità spostate ad Albany"]
    assert "Atlanta" in logged
    root = Path(__file__).resolve().parents[1]
    with open(root / "widgets" / "locale" / "it" / "LC_MESSAGES" / "widgets.po", "rb") as f:
        catalog = read_po(f, locale="it")
    said = [s for m in catalog if m.id for s in (m.string if isinstance(m.string, tuple) else (m.string,))]
    assert not [s for s in said if re.search(r"\b[Ii]n \{box\}", s)]  # a city: "a {box}", as the log says
    assert not [s for s in said if "ritirata della cavalleria" in s]  # the rule's name: fuga della cavalleria
    assert "needs" not in rulebook.markdown("it") and "or less" not in rulebook.markdown("it")


def test_two_units_are_both():
    from widgets.model.session import Session
    from ahd.core.i18n import euphony
    assert euphony("a Atlanta, a Baltimore, A Indianapolis, casa", "it") == "ad Atlanta, a Baltimore, Ad Indianapolis, casa"
    assert euphony("a Atlanta", "es") == "a Atlanta"
    game = new_game("1861", seed=1)
    box = next(b for b in game.board if len([u for u in game.units_in(b.id) if u.side is game.phasing]) == 2)
    with language("it"):
        session = Session(game, union="human", confederate="heuristic")
        session.click_box(box.id)
        text = session.status
    assert "entrambe le unità" in text and "tutte le 2" not in text, text


# -- the teacher's pages -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("lang, month, idle", [("es", "noviembre", "en espera"), ("it", "novembre", "inattivo")])
def test_teacher_pages_say_results_dates_and_states_in_the_servers_language(lang, month, idle, monkeypatch):
    from ahd.bots import RandomBot, play
    from widgets.classmates import teacher_games
    from widgets.model.i18n import kernel_state, moment
    finished = new_game("short", seed=3)
    play(finished, RandomBot(1), RandomBot(2))
    assert finished.is_over
    english = render(finished.outcome, "en")

    class Row:
        id, seq, outcome = 1, len(finished.history), english

    class FakeStore:
        def replay(self, game_id):
            return finished

    store = FakeStore()
    with language(lang):
        said = teacher_games._outcome(store, Row)
        when = moment(datetime.datetime(2026, 11, 27, 8, 15).timestamp())
        state = kernel_state("idle")
        unknown = kernel_state("weird")
    assert said == render(finished.outcome, lang) and said != english
    assert month in when and "08:15" in when and "Nov" not in when
    assert state == idle and unknown == "weird"


# -- the notebooks: every English notebook links to its translations; the README says all are translated ------------
def test_english_notebooks_link_to_their_translations():
    root = Path(__file__).resolve().parents[1] / "notebooks"
    translated = sorted(p.relative_to(root / "es") for p in (root / "es").rglob("*.ipynb"))
    assert len(translated) == 16  # start-here, four scenarios, tutorials 00-10
    for rel in translated:
        assert (root / "it" / rel).exists(), rel
        first = next(c for c in json.loads((root / rel).read_text(encoding="utf-8"))["cells"]
                     if c["cell_type"] == "markdown")
        text = "".join(first["source"])
        for lang in ("es", "it"):
            link = re.search(r"\]\(((?:\.\./)*%s/%s)\)" % (lang, re.escape(rel.as_posix())), text)
            assert link, (rel, lang)
            assert ((root / rel).parent / link.group(1)).resolve() == (root / lang / rel).resolve()
    readme = (root.parent / "README.md").read_text(encoding="utf-8")
    assert "tutorials 00–10" in readme and "tutorials 00–02" not in readme


# -- every string of the app and the engine, per language: no English word left ---------------------------------------
@pytest.mark.parametrize("lang", ("es", "it"))
def test_no_english_word_in_any_translation(lang):
    from babel.messages.pofile import read_po
    from english_words import CODE, english, leftovers
    assert {"the", "march", "battle", "unit", "retreat"} <= english()  # the list is the game's English
    root = Path(__file__).resolve().parents[1]
    found = {}
    for domain in ("ahd", "widgets"):
        with open(root / domain / "locale" / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as f:
            for message in read_po(f, locale=lang):
                if not message.id:
                    continue
                source = " ".join(message.id) if isinstance(message.id, (list, tuple)) else message.id
                for text in message.string if isinstance(message.string, tuple) else (message.string,):
                    words = [w for w in leftovers(text, lang, source) if w not in CODE]
                    if words:
                        found[text[:80]] = words
    assert found == {}
    assert leftovers("Ataca el bando Confederación. … (exact; sin retirada)", "es") == ["exact"]  # it can fail
    assert leftovers("giocati da il giocatore del computer 'hard' the end", "it") == ["the", "end"]


@pytest.mark.parametrize("lang, words", [("es", "fichas de infantería"), ("it", "pedine di milizia di fanteria")])
def test_the_editors_problem_list_speaks_the_players_language(lang, words):
    from english_words import leftovers
    from widgets.authoring.scenario_check import check
    data = copy.deepcopy(load_scenario("1861").data)
    data["units"].append({"side": "confederate", "type": "MF", "box": "new_orleans", "count": 9})
    data["units"].append({"side": "union", "type": "XX", "box": "atlantis"})
    with language(lang):
        problems = check(data)
    assert len(problems) >= 2 and problems[0].key == "units[%d].type" % (len(data["units"]) - 1)
    assert any(words in p.message for p in problems), [p.message for p in problems]
    assert any(p.rule == "1.3.a" for p in problems)  # the rule found in a translated message
    for p in problems:
        assert leftovers(p.message, lang) == [], p.message
