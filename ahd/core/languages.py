"""Which language, and its catalogs: the languages the game speaks, the choice (``set_language`` for the
process, ``with language(...)`` for a block, else the environment's locale) and the standard library's
:mod:`gettext` catalogs of the engine (``ahd/locale``) and of other packages (:func:`domain`). The messages that
are said in that language are in :mod:`ahd.core.i18n`, which offers these names too.
"""
from __future__ import annotations

import difflib
import gettext as _gettext
import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator

#: The languages the game speaks, with their names in their own language (for menus).
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "es": "Español", "it": "Italiano"}
LANGUAGES: tuple[str, ...] = tuple(LANGUAGE_NAMES)

#: The plural forms our catalogs are written with (the header of every .po and .mo). Fixed here rather
#: than taken from the CLDR data of whichever Babel made a catalog: CLDR 46 (Babel 2.19) gave Spanish and
#: Italian a third form ("many", for exact millions), and a catalog with two forms read by that rule
#: leaves every plural of 2 or more untranslated.
PLURAL_FORMS: dict[str, str] = {"es": "nplurals=2; plural=(n != 1);", "it": "nplurals=2; plural=(n != 1);"}

#: The engine's catalogs (``ahd/locale``).
ENGINE_DOMAIN = "ahd"
ENGINE_LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

#: Names a player may type for a language we speak, offered as "did you mean" (never accepted silently).
_HINTS = {"sp": "es", "spa": "es", "esp": "es", "spanish": "es", "espanol": "es", "castellano": "es",
          "ita": "it", "italian": "it", "eng": "en", "inglés": "en", "ingles": "en", "inglese": "en"}

_current: ContextVar[str | None] = ContextVar("ahd_language", default=None)
_process_language: str | None = None


def check_language(lang: object) -> str:
    """``"es"``, ``"ES"``, ``"es_AR.UTF-8"`` -> ``"es"``; anything else is a ValueError naming the choices."""
    if not isinstance(lang, str) or not lang.strip():
        raise ValueError(f"a language must be one of {', '.join(LANGUAGES)}, got {lang!r}")
    code = lang.strip().replace("-", "_").split(".")[0].split("_")[0].lower()
    if code in LANGUAGES:
        return code
    for lang_code, name in LANGUAGE_NAMES.items():  # "Español", "italiano", "english"
        if lang.strip().casefold() == name.casefold():
            return lang_code
    typed = lang.strip().lower()
    close = [_HINTS[typed]] if typed in _HINTS else difflib.get_close_matches(
        typed, list(LANGUAGES) + [n.lower() for n in LANGUAGE_NAMES.values()], 1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise ValueError(f"unknown language {lang!r}{hint}; the game speaks {', '.join(LANGUAGES)}")


def default_language(environ: dict[str, str] | None = None) -> str:
    """``AHD_LANG`` (set by ``house-divided app --lang``), else the environment's locale as gettext reads
    it (``LANGUAGE`` may list several, ``es:it``), else English."""
    env = os.environ if environ is None else environ
    if env.get("AHD_LANG"):
        try:
            return check_language(env["AHD_LANG"])
        except ValueError:
            pass
    for key in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(key)
        if not value:
            continue
        for part in value.split(":"):
            if part in ("C", "POSIX") or part.startswith(("C.", "POSIX.")):
                continue
            try:
                return check_language(part)
            except ValueError:
                continue
        if key != "LANGUAGE":  # gettext stops at the first of LC_ALL / LC_MESSAGES / LANG that is set
            break
    return "en"


def set_language(lang: str | None) -> str:
    """The language of this process from now on (``None``: back to the environment's locale)."""
    global _process_language
    _process_language = None if lang is None else check_language(lang)
    return get_language()


def chosen_language() -> str | None:
    """The language chosen in this process (``with language(...)``, ``set_language``), or None: the locale's."""
    return _current.get() or _process_language


def get_language() -> str:
    """The current language: the innermost ``with language(...)``, else ``set_language``, else the locale."""
    return _current.get() or _process_language or default_language()


@contextmanager
def language(lang: str | None) -> Iterator[str]:
    """``with language("es"):`` renders messages in Spanish inside the block (``None`` changes nothing)."""
    if lang is None:
        yield get_language()
        return
    token = _current.set(check_language(lang))
    try:
        yield _current.get()  # type: ignore[misc]
    finally:
        _current.reset(token)


def translation(lang: str, domain_name: str = ENGINE_DOMAIN,
                localedir: str | None = None) -> _gettext.NullTranslations:
    """The catalog of ``domain_name`` in ``lang`` (English: the messages themselves); ``localedir``
    defaults to ``ENGINE_LOCALE_DIR`` as it is at the call (tests point it at a catalog of their own
    and call ``translation.cache_clear()``)."""
    return _translation(lang, domain_name, str(ENGINE_LOCALE_DIR) if localedir is None else str(localedir))


@lru_cache(maxsize=None)
def _translation(lang: str, domain_name: str, localedir: str) -> _gettext.NullTranslations:
    if lang == "en":
        return _gettext.NullTranslations()
    return _gettext.translation(domain_name, localedir, languages=[lang], fallback=True)


translation.cache_clear = _translation.cache_clear  # type: ignore[attr-defined]


def domain(domain_name: str, localedir: "str | Path | Callable[[], str | Path]") -> Callable[..., str]:
    """A ``_`` for another package's catalogs (the app's: ``widgets``). ``localedir`` may be a function
    returning the folder, read at each call (so tests can point it at a catalog of their own)."""

    def where() -> str:
        return str(localedir() if callable(localedir) else localedir)

    def translate(message: str, lang: str | None = None) -> str:
        return translation(lang or get_language(), domain_name, where()).gettext(message)

    translate.pgettext = lambda context, message, lang=None: translation(  # type: ignore[attr-defined]
        lang or get_language(), domain_name, where()).pgettext(context, message)
    translate.ngettext = lambda singular, plural, n, lang=None: translation(  # type: ignore[attr-defined]
        lang or get_language(), domain_name, where()).ngettext(singular, plural, n)
    return translate


def _(message: str, lang: str | None = None) -> str:
    """An engine message translated into ``lang`` (default: the current language)."""
    return translation(lang or get_language()).gettext(message)


def N_(message: str) -> str:
    """Marks a message for the catalogs without translating it (tables of names, rule titles)."""
    return message
