"""The app's words in the player's language: the standard library's gettext over ``widgets/locale``
(see :mod:`ahd.core.i18n`; the language is the engine's current language, ``ahd.set_language``)."""
from __future__ import annotations

from pathlib import Path

from ahd.core.i18n import (N_, LANGUAGE_NAMES, LANGUAGES, domain, euphony, format_date, format_decimal,
                           format_percent, get_language, language, render, set_language)

__all__ = ["_", "_n", "_p", "kernel_state", "loading_texts", "moment", "num", "pct", "date", "format_decimal", "format_percent", "format_date", "N_", "LANGUAGES", "LANGUAGE_NAMES", "get_language", "language", "render", "set_language"]

LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
_catalog = domain("widgets", lambda: LOCALE_DIR)  # read at each call: tests may point LOCALE_DIR elsewhere


class _Said(str):
    """A translated text whose ``format`` also makes the language's sound changes once the names are in
    (Italian "a {box}" with Atlanta reads "ad Atlanta": :func:`ahd.core.i18n.euphony`)."""

    lang = "en"

    def format(self, *args, **kwargs) -> str:  # type: ignore[override]
        return euphony(str.format(self, *args, **kwargs), self.lang)


class _SaidIt(_Said):
    lang = "it"


def _said(text: str, lang: str | None = None) -> str:
    return _SaidIt(text) if (lang or get_language()) == "it" else text


def _(message: str, lang: str | None = None) -> str:
    """An app text in ``lang`` (default: the current language)."""
    return _said(_catalog(message, lang), lang)


_.pgettext = lambda context, message, lang=None: _said(_catalog.pgettext(context, message, lang), lang)  # type: ignore[attr-defined]
_.ngettext = lambda singular, plural, n, lang=None: _said(_catalog.ngettext(singular, plural, n, lang), lang)  # type: ignore[attr-defined]


def _n(singular: str, plural: str, n: int) -> str:
    """``_n("{n} unit", "{n} units", n).format(n=n)``: the form for ``n`` in the current language."""
    return _.ngettext(singular, plural, n)  # type: ignore[attr-defined]


def _p(context: str, message: str) -> str:
    """A message with gettext's context."""
    return _.pgettext(context, message)  # type: ignore[attr-defined]


def loading_texts(lang: str | None = None) -> dict[str, str]:
    """What voila's page says while the kernel starts and runs the app's notebook, in ``lang`` (default: the
    current language): given to the ``ahd`` template as ``resources.ahd`` (``widgets.server.classroom``)."""
    with language(lang):
        return {"lang": get_language(), "starting": _("Starting your game…"),
                # TRANSLATORS: {index} and {count} are filled in by the page's script (step 2 of 5)
                "step": _("Starting your game… (step {index} of {count})")}


# Numbers, percentages and dates in the app: the engine's formatter (ahd.core.i18n, checked against Babel in
# tests/test_i18n_local.py), so the app and the engine's log write "0,231" and "99,3 %" the same way.
def num(value: object, digits: int | None = None) -> str:
    """``value`` written in the current language: ``num(0.231, 3)`` -> ``"0,231"`` in Spanish and Italian;
    ``digits`` digits after the decimal sign, as ``{:.Nf}`` writes them (``num(2, 1)`` -> ``"2,0"``)."""
    return format_decimal(value, digits, get_language(), strip=digits is None)


def pct(fraction: object, digits: int = 1) -> str:
    """A fraction as a percentage in the current language: "99,3 %" (es), "99,3%" (it), "99.3%" (en)."""
    return format_percent(fraction, digits, get_language(), strip=False)


def date(value: object) -> str:
    """A date in the current language: "27 de noviembre de 2026", "27 novembre 2026", "November 27, 2026"."""
    return format_date(value, get_language())


def moment(seconds: float) -> str:
    """A moment (seconds since the epoch, local time) in the current language: "27 de noviembre de 2026, 08:15"."""
    import datetime
    when = datetime.datetime.fromtimestamp(seconds)
    return _("{date}, {time}").format(date=format_date(when, get_language()), time=when.strftime("%H:%M"))


#: A kernel's state as Jupyter reports it, for the teacher's page.
KERNEL_STATES = {"idle": N_("idle"), "busy": N_("busy"), "starting": N_("starting"), "restarting": N_("restarting"),
                 "dead": N_("dead"), "unknown": N_("unknown")}


def kernel_state(state: object) -> str:
    """"idle", "busy", ... in the current language (a state we do not know: as it is)."""
    text = str(state or "")
    return _(KERNEL_STATES[text]) if text in KERNEL_STATES else text
