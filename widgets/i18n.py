"""The app's words in the player's language: the standard library's gettext over ``widgets/locale``
(see :mod:`ahd.core.i18n`; the language is the engine's current language, ``ahd.set_language``)."""
from __future__ import annotations

from pathlib import Path

from ahd.core.i18n import N_, LANGUAGE_NAMES, LANGUAGES, domain, get_language, language, render, set_language

__all__ = ["_", "_n", "_p", "loading_texts", "N_", "LANGUAGES", "LANGUAGE_NAMES", "get_language", "language", "render", "set_language"]

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
_ = domain("widgets", lambda: LOCALE_DIR)  # read at each call: tests may point LOCALE_DIR elsewhere


def _n(singular: str, plural: str, n: int) -> str:
    """``_n("{n} unit", "{n} units", n).format(n=n)``: the form for ``n`` in the current language."""
    return _.ngettext(singular, plural, n)  # type: ignore[attr-defined]


def _p(context: str, message: str) -> str:
    """A message with gettext's context."""
    return _.pgettext(context, message)  # type: ignore[attr-defined]


def loading_texts(lang: str | None = None) -> dict[str, str]:
    """What voila's page says while the kernel starts and runs the app's notebook, in ``lang`` (default: the
    current language): given to the ``ahd`` template as ``resources.ahd`` (``widgets.classroom``)."""
    with language(lang):
        return {"lang": get_language(), "starting": _("Starting your game…"),
                # TRANSLATORS: {index} and {count} are filled in by the page's script (step 2 of 5)
                "step": _("Starting your game… (step {index} of {count})")}
