"""Languages: every word a player reads goes through the standard library's :mod:`gettext`.

Catalogs are package data: ``ahd/locale/<lang>/LC_MESSAGES/ahd.mo`` for the engine (refusals, log
lines, rule titles, box and unit names) and ``widgets/locale/.../widgets.mo`` for the app. They are
compiled from the ``.po`` files beside them by ``scripts/make_catalogs.py`` (Babel, a development tool
only); at run time nothing but :mod:`gettext` reads them.

Two kinds of text:

* ``_("Move")`` translates now, in the current language (labels built when a widget is built).
* ``Msg("{unit} reinforces from {box} (5.2.4)", unit=unit, box=Term.box(name))`` is a message kept
  with its parameters and rendered later, in whatever language is asked for: a game's log keeps
  messages, so the same game reads in Spanish after the language changes, and a record (actions,
  seed, dice) never holds a word of any language.

A parameter that knows how to say itself in a language (a method ``__msg__(lang)``: sides, units,
terms, nested messages) is rendered in the message's language; other values are formatted as they are.

The language: ``set_language("es")`` for the process (the app's menu), ``with language("it"):`` for a
block (a game renders its messages in ``game.lang``), and by default the environment's locale
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``), English when it names none of ours.
"""
from __future__ import annotations

import numbers
import re
import string
from typing import Any

from .languages import (LANGUAGE_NAMES, LANGUAGES, N_, _, check_language, default_language,  # noqa: F401  (offered
                        domain, get_language, language, set_language, translation)          # here too: __all__)

__all__ = ["Joined", "LANGUAGES", "LANGUAGE_NAMES", "Msg", "Msgc", "Msgn", "Num", "Pct", "Term", "N_", "_", "check_language",
           "default_language", "domain", "euphony", "format_date", "format_decimal", "format_percent", "month_name", "get_language", "language", "placeholders", "render", "set_language", "translation"]


def placeholders(message: str) -> set[str]:
    """The ``{names}`` a message fills in: ``"{unit} at {box}"`` -> ``{"unit", "box"}``."""
    names: set[str] = set()
    for _text, field, _spec, _conv in string.Formatter().parse(message):
        if field is not None:
            names.add(field.split(".")[0].split("[")[0])
    return names


def render(value: Any, lang: str | None = None) -> str:
    """Any message, term, side or unit (``__msg__``) in ``lang``; other values as ``str``."""
    lang = lang or get_language()
    say = getattr(value, "__msg__", None)
    if say is not None and not isinstance(value, type):
        return say(lang)
    return str(value)


class _Said:
    """A parameter already rendered, formatted as text (keeps format specs such as ``{box:<12}``)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text

    def __format__(self, spec: str) -> str:
        return format(self.text, spec)

    def __str__(self) -> str:
        return self.text


#: Italian writes "ad" for "a" before a name that begins with a vowel ("ad Atlanta", "ad Albany").
_ITALIAN_AD = re.compile(r"(?<![\w'’])([Aa]) (?=[AEIOUÀÈÉÌÒÙ][a-zà-ÿ])")


def euphony(text: str, lang: str) -> str:
    """``text`` once its names are filled in, with the sound changes ``lang`` makes at a word's edge: Italian
    "a Atlanta" -> "ad Atlanta" (a box's name comes at run time, so the catalog cannot write it)."""
    if lang == "it" and " " in text:
        return _ITALIAN_AD.sub(r"\1d ", text)
    return text


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


class _Number:
    """A number parameter formatted with its spec (``{p:.1%}``, ``{x:,}``, ``{r:.2f}``), then written the
    way the message's language writes numbers: "92,6 %" in Spanish, "92,6%" in Italian, "12.345" for both."""

    __slots__ = ("value", "lang")

    def __init__(self, value: Any, lang: str) -> None:
        self.value = value
        self.lang = lang

    def __format__(self, spec: str) -> str:
        return localize_number(format(self.value, spec), self.lang)

    def __str__(self) -> str:
        return self.__format__("")


def localize_number(text: str, lang: str) -> str:
    """A number written the English way (``"12,345.6"``, ``"92.6%"``) written the way ``lang`` writes it."""
    formats = NUMBER_FORMATS.get(lang)
    if formats is None or lang == "en":
        return text
    point, sep, percent = formats
    out = text.translate({ord("."): point, ord(","): sep}) if text.replace("%", "").strip().lstrip("+-")[:1].isdigit() or (
        text.strip()[:1] in ".,") else text
    if out.endswith("%"):
        out = percent.format(out[:-1].rstrip())
    return out


class Msg:
    """A message with its parameters, rendered when read (see the module's docstring).

    ``Msg(singular, plural=..., n=3, ...)`` picks the form by ``n`` (``ngettext``); ``context`` is
    gettext's ``msgctxt`` for a word that reads differently in two places.
    """

    __slots__ = ("msgid", "plural", "context", "params", "domain")

    def __init__(self, msgid: str, /, *, plural: str | None = None, context: str | None = None,
                 domain: tuple[str, str] | None = None, **params: Any) -> None:
        if not isinstance(msgid, str):
            raise TypeError(f"a message is a string, got {type(msgid).__name__}")
        self.msgid = msgid
        self.plural = plural
        self.context = context
        self.params = params
        self.domain = domain

    def template(self, lang: str) -> str:
        catalog = translation(lang) if self.domain is None else translation(lang, *self.domain)
        if self.plural is not None:
            n = self.params.get("n", 1)
            if self.context is not None:
                return catalog.npgettext(self.context, self.msgid, self.plural, n)
            return catalog.ngettext(self.msgid, self.plural, n)
        if self.context is not None:
            return catalog.pgettext(self.context, self.msgid)
        return catalog.gettext(self.msgid)

    def render(self, lang: str | None = None) -> str:
        lang = lang or get_language()
        template = self.template(lang)
        if not self.params:
            return template
        values = {key: (_Said(render(value, lang)) if hasattr(value, "__msg__") else
                        _Number(value, lang) if lang != "en" and _is_number(value) else value)
                  for key, value in self.params.items()}
        try:
            return euphony(template.format(**values), lang)
        except (KeyError, IndexError, ValueError):  # a broken translation: say it in English rather than fail
            fallback = self.plural if (self.plural is not None and self.params.get("n", 1) != 1) else self.msgid
            return fallback.format(**values)

    __msg__ = render

    def __str__(self) -> str:
        return self.render()

    def __repr__(self) -> str:
        return f"Msg({self.msgid!r}, {', '.join(f'{k}={v!r}' for k, v in self.params.items())})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Msg):
            return (self.msgid, self.plural, self.context, self.params) == (other.msgid, other.plural, other.context, other.params)
        if isinstance(other, str):
            return self.render("en") == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.msgid, self.context))

    # plain-string conveniences, so callers that treated texts as strings keep working
    def __contains__(self, item: str) -> bool:
        return item in self.render()

    def __add__(self, other: object) -> str:
        return self.render() + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + self.render()

    def __format__(self, spec: str) -> str:
        return format(self.render(), spec)


class Term:
    """A name that has a usual form in each language: a box ("New Orleans" -> "Nueva Orleans"), a unit
    type, a side. Translated with gettext's context (``msgctxt``), so "Union" the side and "Union" the
    word never clash."""

    __slots__ = ("context", "text")

    def __init__(self, context: str, text: str) -> None:
        self.context = context
        self.text = text

    @classmethod
    def box(cls, name: str) -> "Term":
        return cls("box", name)

    def __msg__(self, lang: str) -> str:
        return translation(lang).pgettext(self.context, self.text)

    def __str__(self) -> str:
        return self.__msg__(get_language())

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Term({self.context!r}, {self.text!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Term):
            return (self.context, self.text) == (other.context, other.text)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.context, self.text))


def Msgn(singular: str, plural: str, /, *, n: int, **params: Any) -> Msg:
    """A message with a plural form chosen by ``n``: ``Msgn("{n} unit", "{n} units", n=3)``."""
    return Msg(singular, plural=plural, n=n, **params)


def Msgc(context: str, message: str, /, **params: Any) -> Msg:
    """A message with gettext's context, for a word that reads differently in two places."""
    return Msg(message, context=context, **params)


class Joined:
    """Parts (messages, units, boxes, terms, texts) said in one language and joined by ``sep``: a message's
    list parameter ("Richmond → Fredericksburg", "road/rail", "militia infantry U-MF-01, cavalry U-CV-02")."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts: Any, sep: str = ", ") -> None:
        self.parts = tuple(parts)
        self.sep = sep

    def __msg__(self, lang: str) -> str:
        return self.sep.join(render(part, lang) for part in self.parts)

    def __str__(self) -> str:
        return self.__msg__(get_language())

    def __repr__(self) -> str:
        return f"Joined({self.parts!r}, {self.sep!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Joined):
            return (self.parts, self.sep) == (other.parts, other.sep)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.parts, self.sep))


# -- numbers, percentages and dates written the way each language writes them ------------------------------
# The engine stays standard library + numpy, so this is a small table, not Babel: what CLDR (and so Babel's
# format_decimal / format_percent / format_date) says for these three languages. tests/test_i18n_numbers.py
# compares it with Babel, a development dependency, over many values.

#: decimal sign, group sign and how a percentage is written (as Babel 2.19 writes them).
NUMBER_FORMATS: dict[str, tuple[str, str, str]] = {
    "en": (".", ",", "{}%"),
    "es": (",", ".", "{}\u00a0%"),   # "99,3 %" (a no-break space, as CLDR writes it)
    "it": (",", ".", "{}%"),          # "99,3%"
}
#: The months, marked for the catalogs (context "month"): dates on the teacher's pages.
MONTHS = (Term("month", "January"), Term("month", "February"), Term("month", "March"), Term("month", "April"),
          Term("month", "May"), Term("month", "June"), Term("month", "July"), Term("month", "August"),
          Term("month", "September"), Term("month", "October"), Term("month", "November"),
          Term("month", "December"))
#: A day, month and year in each language ({month} from the catalogs).
DATE_FORMATS = {"en": "{month} {day}, {year}", "es": "{day} de {month} de {year}", "it": "{day} {month} {year}"}


def _group(digits: str, sep: str) -> str:
    if len(digits) < 4:
        return digits
    head, tail = digits[:len(digits) % 3], digits[len(digits) % 3:]
    parts = ([head] if head else []) + [tail[i:i + 3] for i in range(0, len(tail), 3)]
    return sep.join(parts)


def format_decimal(value: Any, digits: int | None = None, lang: str | None = None, *, group: bool = True,
                   strip: bool = True) -> str:
    """``value`` written in ``lang``: ``format_decimal(0.231, 3, "es")`` -> ``"0,231"``, ``12345`` -> ``"12.345"``.
    ``digits``: digits after the decimal sign (None: as many as the number has, at most 6); ``strip``: drop
    trailing zeros after rounding (``0.10`` -> ``"0,1"``). Anything not a finite number is written as it is."""
    lang = lang if lang in NUMBER_FORMATS else check_language(lang or get_language())
    point, sep, _percent = NUMBER_FORMATS[lang]
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return str(value)
    if number != number or number in (float("inf"), float("-inf")):
        return str(value)
    if isinstance(value, int) and not isinstance(value, bool) and digits is None:
        text = str(abs(value))
        whole, frac = text, ""
    else:
        text = f"{abs(number):.{6 if digits is None else max(0, int(digits))}f}"
        whole, _dot, frac = text.partition(".")
        if strip or digits is None:
            frac = frac.rstrip("0")
    negative = (value < 0 if isinstance(value, int) else number < 0) and (whole.strip("0") or frac.strip("0"))
    out = (_group(whole, sep) if group else whole) + (point + frac if frac else "")
    return ("-" if negative else "") + out


def format_percent(fraction: Any, digits: int = 1, lang: str | None = None, *, strip: bool = True) -> str:
    """A fraction as a percentage in ``lang``: ``format_percent(0.993, 1, "es")`` -> ``"99,3 %"``, ``"it"`` ->
    ``"99,3%"``, ``"en"`` -> ``"99.3%"``."""
    lang = lang if lang in NUMBER_FORMATS else check_language(lang or get_language())
    try:
        number = float(fraction) * 100
    except (TypeError, ValueError, OverflowError):
        return str(fraction)
    return NUMBER_FORMATS[lang][2].format(format_decimal(number, digits, lang, strip=strip))


def month_name(month: int, lang: str | None = None) -> str:
    """The name of month 1–12 in ``lang`` (from the catalogs)."""
    return render(MONTHS[int(month) - 1], lang or get_language())


def format_date(value: Any, lang: str | None = None) -> str:
    """A date (or datetime) in ``lang``: "November 27, 2026", "27 de noviembre de 2026", "27 novembre 2026"."""
    lang = lang if lang in DATE_FORMATS else check_language(lang or get_language())
    return DATE_FORMATS[lang].format(day=value.day, month=month_name(value.month, lang), year=value.year)


class Num:
    """A number as a message parameter, written the way the message's language writes it
    (``Msg("attacker {p}", p=Num(0.1, 3))`` reads "atacante 0,1")."""

    __slots__ = ("value", "digits", "strip")

    def __init__(self, value: Any, digits: int | None = None, strip: bool = True) -> None:
        self.value = value
        self.digits = digits
        self.strip = strip

    def __msg__(self, lang: str) -> str:
        return format_decimal(self.value, self.digits, lang, strip=self.strip)

    def __str__(self) -> str:
        return self.__msg__(get_language())

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Num({self.value!r}, {self.digits!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Num) and (self.value, self.digits, self.strip) == (other.value, other.digits, other.strip)

    def __hash__(self) -> int:
        return hash((self.value, self.digits))


class Pct(Num):
    """A fraction as a percentage parameter ("99,3 %" in Spanish, "99,3%" in Italian)."""

    __slots__ = ()

    def __init__(self, value: Any, digits: int = 1, strip: bool = True) -> None:
        super().__init__(value, digits, strip)

    def __msg__(self, lang: str) -> str:
        return format_percent(self.value, self.digits if self.digits is not None else 1, lang, strip=self.strip)

    def __repr__(self) -> str:
        return f"Pct({self.value!r}, {self.digits!r})"
