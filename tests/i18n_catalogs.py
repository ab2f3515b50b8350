"""Tiny test catalogs for the language tests (tests/test_i18n_*.py): compiled with Babel into a temporary
folder and put in place of the shipped ones, so that a test says what the mechanism does whatever the real
catalogs hold.

    compile_catalog(tmp_path, "ahd", [("box", "New Orleans", "Nueva Orleans"), (None, "Undo", "Deshacer")])
    with use_catalogs(monkeypatch, engine=tmp_path):
        ...

The engine (:func:`ahd.core.i18n.translation`) reads ``ahd.core.languages.ENGINE_LOCALE_DIR`` at each call and
the app's ``_`` reads ``widgets.model.i18n.LOCALE_DIR`` at each call, so pointing those at the folder is enough;
the catalogs already read are cached, so the cache is cleared on the way in and on the way out.
"""
from __future__ import annotations

from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator, Mapping, Union

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo

from ahd.core import i18n, languages
from widgets.model import i18n as app_i18n

#: A message id or a translation: a string, or (singular, plural) / (one, many...) for a plural entry.
Text = Union[str, tuple]


def compile_catalog(folder: Path | str, domain: str,
                    messages: Mapping[Text, Text] | Iterable[tuple[str | None, Text, Text]],
                    lang: str = "es") -> Path:
    """Writes ``<folder>/<lang>/LC_MESSAGES/<domain>.mo`` (again, if it is there) and returns its path.

    ``messages``: (context or None, msgid, msgstr) triples, or a mapping msgid -> msgstr (no context); a
    plural entry's msgid is (singular, plural) and its msgstr one form per plural form of ``lang``."""
    entries = [(None, msgid, msgstr) for msgid, msgstr in messages.items()] if isinstance(messages, Mapping) \
        else list(messages)
    catalog = Catalog(locale=lang, domain=domain)
    # the plural forms of the shipped catalogs, whatever the installed Babel's CLDR data says
    if lang in languages.PLURAL_FORMS:
        catalog.mime_headers = [("Plural-Forms", languages.PLURAL_FORMS[lang])]
    for context, msgid, msgstr in entries:
        catalog.add(msgid, msgstr, context=context)
    target = Path(folder) / lang / "LC_MESSAGES"
    target.mkdir(parents=True, exist_ok=True)
    path = target / f"{domain}.mo"
    with open(path, "wb") as out:
        write_mo(out, catalog)
    return path


@contextmanager
def use_catalogs(monkeypatch, engine: Path | str | None = None, app: Path | str | None = None) -> Iterator[None]:
    """Inside the block the engine's catalogs (domain ``ahd``) are read from ``engine`` and the app's
    (``widgets``) from ``app``; ``None`` leaves that one as shipped. ``monkeypatch`` puts the folders back
    after the test; the cache of catalogs read is cleared before and after, so no other test sees these."""
    i18n.translation.cache_clear()
    if engine is not None:
        monkeypatch.setattr(languages, "ENGINE_LOCALE_DIR", Path(engine))
    if app is not None:
        monkeypatch.setattr(app_i18n, "LOCALE_DIR", Path(app))
    try:
        yield
    finally:
        i18n.translation.cache_clear()
