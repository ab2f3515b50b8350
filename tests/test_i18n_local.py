"""Issue 36: numbers, percentages and dates written the local way (the engine's own table, checked against
Babel), and the rules searched without accents."""
from __future__ import annotations

import datetime
import random
from decimal import Decimal

import pytest
from babel.dates import format_date as babel_date
from babel.numbers import format_decimal as babel_decimal, format_percent as babel_percent

from ahd.core import rulebook
from ahd.core.i18n import Msg, Num, Pct, format_date, format_decimal, format_percent, month_name

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
