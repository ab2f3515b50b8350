"""Issue 16: the catalogs are complete — every message of the engine and the app has a Spanish and an
Italian translation with the English placeholders — and the shipped files are up to date with the source."""
from __future__ import annotations

import gettext
import subprocess
import sys
from pathlib import Path

import pytest

from ahd.core.i18n import placeholders
from ahd.core.languages import ENGINE_LOCALE_DIR
from widgets.model.i18n import LOCALE_DIR as APP_LOCALE_DIR

babel_pofile = pytest.importorskip("babel.messages.pofile")

ROOT = Path(__file__).resolve().parents[1]
CATALOGS = [(ENGINE_LOCALE_DIR, "ahd", lang) for lang in ("es", "it")] + \
           [(APP_LOCALE_DIR, "widgets", lang) for lang in ("es", "it")]


def read(locale_dir: Path, domain: str, lang: str):
    with (locale_dir / lang / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return babel_pofile.read_po(f, locale=lang)


@pytest.mark.parametrize("locale_dir,domain,lang", CATALOGS, ids=[f"{d}-{l}" for _, d, l in CATALOGS])
def test_every_message_is_translated_with_the_same_placeholders(locale_dir, domain, lang):
    catalog = read(locale_dir, domain, lang)
    messages = [m for m in catalog if m.id]
    assert len(messages) > 100
    untranslated, different = [], []
    for message in messages:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings) or message.fuzzy:
            untranslated.append(ids[0])
            continue
        wanted = set().union(*(placeholders(i) for i in ids))
        for text in strings:
            got = placeholders(text)
            # a plural form may leave out {n} ("una marcha"), never add or rename a placeholder
            if got != wanted and not (len(ids) == 2 and got <= wanted):
                different.append((ids[0], text))
    assert not untranslated, f"{domain} {lang}: {len(untranslated)} of {len(messages)} untranslated, e.g. {untranslated[:8]}"
    assert not different, f"{domain} {lang}: placeholders differ: {different[:8]}"


@pytest.mark.parametrize("locale_dir,domain,lang", CATALOGS, ids=[f"{d}-{l}" for _, d, l in CATALOGS])
def test_compiled_catalog_is_what_the_standard_library_reads(locale_dir, domain, lang):
    catalog = read(locale_dir, domain, lang)
    compiled = gettext.translation(domain, str(locale_dir), languages=[lang])
    for message in catalog:
        if message.id and not isinstance(message.id, tuple) and message.string and not message.context:
            assert compiled.gettext(message.id) == message.string


def test_catalogs_are_up_to_date_with_the_source():
    """Extraction from the source gives exactly the shipped .pot/.po/.mo (run scripts/make_catalogs.py)."""
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_catalogs.py"), "--check"],
                          capture_output=True, text=True, timeout=300)
    stale = [line for line in done.stdout.splitlines() if line.startswith("stale:")]
    assert not stale, "\n".join(stale)


def test_a_planted_gap_is_found(tmp_path):
    """The completeness check fails on a catalog with an untranslated message or a renamed placeholder."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from make_catalogs import problems
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    from babel.messages.catalog import Catalog
    catalog = Catalog(locale="es")
    catalog.add("{unit} at {box}", "{unidad} en {box}")
    catalog.add("Move", "")
    catalog.add("Roll a {value}", "Tira un {value}")
    found = problems(catalog, "es")
    assert any("untranslated: 'Move'" in p for p in found)
    assert any("placeholders" in p and "{unit} at {box}" in p for p in found)
    assert not any("Roll a" in p for p in found)


def test_every_marked_string_is_in_the_catalogs():
    """Every literal given to ``_``, ``Msg``, ``Term``... (found with the AST, also inside f-strings, where
    Babel does not look) is a message of its package's template."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        from make_catalogs import DOMAINS, marked_strings
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    for domain, (source, locale_dir) in DOMAINS.items():
        with (locale_dir / f"{domain}.pot").open("rb") as f:
            template = babel_pofile.read_po(f)
        known = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
        marked = list(marked_strings(source))
        assert len(marked) > 300
        missing = [(where, line, message) for where, line, message, context in marked
                   if (context, message if isinstance(message, str) else message[0]) not in known]
        assert not missing, f"{domain}: marked but not extracted: {missing[:8]}"
