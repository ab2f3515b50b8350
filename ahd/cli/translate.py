"""The command line's own words in the player's language: argparse's texts ("usage:", "options", its error
messages) through argparse's gettext hooks (its module-level ``_`` and ``ngettext``), read from the engine's
catalogs, and the language a command line asks for (``--lang``) found before argparse parses it, so that
``--help`` is already in that language."""
from __future__ import annotations

import argparse
from contextlib import contextmanager
from typing import Iterator, Sequence

from ..core.i18n import N_, check_language, get_language, translation


def ngettext(singular: str, plural: str, n: int) -> str:
    """Marks a plural message for the catalogs (argparse's own, translated by :func:`argparse_language`)."""
    return singular if n == 1 else plural


#: argparse's messages that a player can see (Python 3.11-3.13), marked for the engine's catalog.
ARGPARSE_MESSAGES = (
    N_("usage: "), N_("positional arguments"), N_("options"), N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"), N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"), N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"), N_("argument %(argument_name)s: %(message)s"),
    N_("expected one argument"), N_("expected at least one argument"), N_("expected at most one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"), N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"), N_("ignored explicit argument %r"),
    N_("can't open '%(filename)s': %(error)s"),
    ngettext("expected %s argument", "expected %s arguments", 1),
)


def argv_language(argv: Sequence[str]) -> str | None:
    """The language a command line asks for with ``--lang X`` / ``--lang=X`` (None: none, or not one we
    speak; argparse then says what is wrong)."""
    argv = list(argv)
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        value = arg.partition("=")[2] if arg.startswith("--lang=") else (
            argv[i + 1] if arg == "--lang" and i + 1 < len(argv) else None)
        if value is not None:
            try:
                return check_language(value)
            except ValueError:
                return None
    return None


@contextmanager
def argparse_language(lang: str | None = None) -> Iterator[str]:
    """argparse's own texts in ``lang`` (default: the current language) inside the block."""
    lang = lang or get_language()
    catalog = translation(lang)
    saved = argparse._, argparse.ngettext  # type: ignore[attr-defined]
    argparse._ = catalog.gettext  # type: ignore[attr-defined]
    argparse.ngettext = catalog.ngettext  # type: ignore[attr-defined]
    try:
        yield lang
    finally:
        argparse._, argparse.ngettext = saved  # type: ignore[attr-defined]
