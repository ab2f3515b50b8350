"""Issue 16: a seeded game played in Spanish and in Italian says every refusal and log line in that
language (no English left), and its record is the English game's record."""
from __future__ import annotations

import gettext
import re

import pytest

import ahd
from ahd import BeginMarch, EndMarch, EndMovement, Promote, Recruit
from ahd.bots.base import RandomBot
from ahd.bots.heuristic import HeuristicBot
from ahd.core.i18n import Msg, Term, translation
from ahd.core.sides import CHANCE, Side

LANGS = ("es", "it")
ENGLISH_WORD = re.compile(r"\b[a-z]{3,}\b")
#: Games long enough to meet most kinds of log line: the basic game and every switch at once.
GAMES = [("1861", "basic", 3, 40), ("1862", "everything", 11, 30)]


def catalog_keys(lang: str) -> dict[str, str]:
    catalog = translation(lang)
    assert isinstance(catalog, gettext.GNUTranslations), f"no compiled {lang} catalog in ahd/locale"
    return catalog._catalog  # type: ignore[attr-defined]


def untranslated(value, keys: dict[str, str]) -> list[str]:
    """Every message or term inside ``value`` (its parameters too) that the catalog does not translate."""
    missing: list[str] = []
    if isinstance(value, Msg):
        key = value.msgid if value.context is None else f"{value.context}\x04{value.msgid}"
        if value.plural is not None:
            if not keys.get((key, 0)):
                missing.append(value.msgid)
        elif not keys.get(key):
            missing.append(value.msgid)
        for param in value.params.values():
            missing += untranslated(param, keys)
    elif isinstance(value, Term):
        if not keys.get(f"{value.context}\x04{value.text}"):
            missing.append(f"{value.context}: {value.text}")
    elif isinstance(value, str) and not isinstance(value, Side) and ENGLISH_WORD.search(value):
        # ids ("U-MF-03"), rule IDs ("4.a"), leaders' names and numbers are the same in every language;
        # a lower-case word of three letters or more is English text that escaped the catalog
        missing.append(f"plain text: {value!r}")
    return missing


def refusals(game: ahd.Game) -> list[ahd.IllegalActionError]:
    """A few refused actions at the current decision (each leaves the game as it was)."""
    tries = [BeginMarch("richmond"), BeginMarch("washington"), EndMarch(), EndMovement(), Promote("U-MF-01"),
             Recruit("C-MF-01", "richmond"), 42]  # 42: not an action at all (3.a)
    errors = []
    for action in tries:
        error = game.why_not(action)
        if error is not None:
            errors.append(error)
    return errors


def play(scenario: str, options: str, seed: int, turns: int, lang: str | None):
    game = ahd.new_game(scenario, options=options, seed=seed, lang=lang)
    union, confederate = HeuristicBot(), RandomBot(seed=seed)
    errors: list[ahd.IllegalActionError] = []
    decisions = 0
    while not game.is_over and game.turn.number < turns:
        player = game.current_player
        if player == CHANCE:
            game.roll()
            continue
        if decisions % 7 == 0:
            errors += refusals(game)
        decisions += 1
        bot = union if player is Side.UNION else confederate
        game.apply(bot.choose(game))
    return game, errors


@pytest.mark.parametrize("scenario,options,seed,turns", GAMES, ids=[g[0] + "-" + g[1] for g in GAMES])
def test_seeded_game_speaks_spanish_and_italian(scenario, options, seed, turns):
    english, english_errors = play(scenario, options, seed, turns, "en")
    assert len(english.log) > 100 and len(english_errors) > 20
    for lang in LANGS:
        keys = catalog_keys(lang)
        game, errors = play(scenario, options, seed, turns, lang)
        # the record never depends on the language
        assert game.to_dict() == english.to_dict()
        assert ahd.Game.from_json(game.to_json()).to_dict() == english.to_dict()
        # every log line: a message the catalog translates, and said differently from the English
        missing = {}
        same = []
        for event, english_event in zip(game.log, english.log, strict=True):
            for problem in untranslated(event.message, keys):
                missing.setdefault(problem, event.text)
            if event.text == english_event.text:
                same.append(event.text)
        assert not missing, f"{lang}: log lines not translated: {list(missing.items())[:10]}"
        assert not same, f"{lang}: log lines still in English: {same[:10]}"
        # every refusal: the reason translated, the rule ID kept
        assert [e.rule for e in errors] == [e.rule for e in english_errors]
        for error, english_error in zip(errors, english_errors, strict=True):
            assert not untranslated(error.message, keys), (lang, error.message)
            assert error.lang == lang
            assert str(error) != str(english_error), (lang, str(error))
            assert error.rule in str(error)
            assert error.text("en") == str(english_error)


def test_changing_a_games_language_says_the_log_again():
    game, _ = play("1861", "basic", 3, 4, "es")
    spanish = [e.text for e in game.log]
    game.lang = "it"
    italian = [e.text for e in game.log]
    game.lang = "en"
    english = [e.text for e in game.log]
    assert len(spanish) == len(italian) == len(english) > 10
    assert spanish != english and italian != english and spanish != italian
    with pytest.raises(ValueError, match="the game speaks en, es, it"):
        game.lang = "klingon"


def test_a_record_played_in_spanish_loads_anywhere(tmp_path):
    game, _ = play("1861", "basic", 5, 3, "es")
    english, _ = play("1861", "basic", 5, 3, None)
    path, english_path = tmp_path / "partida.json", tmp_path / "game.json"
    game.save(path)
    english.save(english_path)
    assert path.read_bytes() == english_path.read_bytes()
    again = ahd.load(path)
    assert again.lang is None and again.to_dict() == game.to_dict()
