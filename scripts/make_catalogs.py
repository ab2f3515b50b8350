"""Extract, merge and compile the message catalogs (Babel; a development tool, never needed at run time).

    .venv/bin/python scripts/make_catalogs.py            # rewrite .pot, merge into every .po, compile .mo
    .venv/bin/python scripts/make_catalogs.py --check    # exit 1 if anything is stale or untranslated
    .venv/bin/python scripts/make_catalogs.py --report   # messages and translated counts per language

Two domains: ``ahd`` (the engine: ``ahd/locale``) and ``widgets`` (the app: ``widgets/locale``).
Besides the strings marked in the source (``_``, ``N_``, ``Msg``, ``Msgn``, ``Msgc``, ``Term``), the
engine's catalog holds the names that come from data: every box of the board (context ``box``), the
unit types (``unit``), the two sides (``side``) and the events and notes of the real war in
``ahd/data/history.json`` (``history``).
"""
from __future__ import annotations

import argparse
import datetime
import io
import json
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from ahd.core.languages import PLURAL_FORMS  # noqa: E402  (the checkout's engine, found through ROOT)

LANGS = ("es", "it")
KEYWORDS = {
    "_": None, "N_": None, "Msg": None, "Msgn": (1, 2), "Msgc": ((1, "c"), 2), "Term": ((1, "c"), 2),
    "_n": (1, 2), "_p": ((1, "c"), 2), "ngettext": (1, 2), "pgettext": ((1, "c"), 2),
}
DOMAINS = {
    "ahd": (ROOT / "ahd", ROOT / "ahd" / "locale"),
    "widgets": (ROOT / "widgets", ROOT / "widgets" / "locale"),
}
#: A fixed date in the headers, so that the same source always gives the same bytes (.pot, .po and .mo).
DATE = datetime.datetime(2026, 11, 24, tzinfo=datetime.timezone.utc)
HEADER = "Messages of A House Divided ({domain}). Made by scripts/make_catalogs.py; translate the .po files."


def data_terms() -> list[tuple[str, str, str]]:
    """(context, text, where) for names that live in data files, not in the source."""
    from ahd.core.units import UNIT_TYPES
    board = json.loads((ROOT / "ahd" / "data" / "board.json").read_text(encoding="utf-8"))
    terms = [("box", box["name"], "ahd/data/board.json") for box in board["boxes"]]
    terms += [("unit", t.name, "ahd/core/units.py") for t in UNIT_TYPES.values()]
    terms += [("unit", "coastal defence", "ahd/core/units.py")]
    terms += [("side", "Union", "ahd/core/sides.py"), ("side", "Confederate", "ahd/core/sides.py")]
    # the real war beside the game (issue 35): each row's event and note, read by ahd.analysis.history
    history = json.loads((ROOT / "ahd" / "data" / "history.json").read_text(encoding="utf-8"))
    terms += [("history", row[key], "ahd/data/history.json") for row in history["rows"] for key in ("event", "note")]
    # the decisions and the kinds of action a refusal names ("now the decision is movement (accepted: ...)")
    from ahd.core.actions import ACTION_TYPES
    from ahd.core.decisions import DECISIONS
    terms += [("decision", step.replace("_", " "), "ahd/core/decisions.py") for step in DECISIONS]
    terms += [("action kind", kind, "ahd/core/actions.py") for kind in ACTION_TYPES]
    return terms


#: Marking functions as the AST sees them: name -> (index of the context or None, indices of the message(s)).
MARKERS = {"_": (None, (0,)), "N_": (None, (0,)), "Msg": (None, (0,)), "Term": (0, (1,)), "Msgc": (0, (1,)),
           "_p": (0, (1,)), "pgettext": (0, (1,)), "Msgn": (None, (0, 1)), "_n": (None, (0, 1)), "ngettext": (None, (0, 1))}


def marked_strings(source: Path, inside_fstrings_only: bool = False):
    """(file, line, message, context) of every literal passed to a marking function, found with the AST —
    also inside f-strings, where Babel's extractor (Python 3.11 tokens) does not look."""
    import ast
    for path in sorted(source.rglob("*.py")):
        if "locale" in path.parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        scopes = [n for n in ast.walk(tree) if isinstance(n, ast.JoinedStr)] if inside_fstrings_only else [tree]
        for scope in scopes:
            for node in ast.walk(scope):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in MARKERS):
                    continue
                context_at, message_at = MARKERS[node.func.id]
                args = node.args
                if len(args) <= max(message_at) or not all(isinstance(args[i], ast.Constant) and isinstance(args[i].value, str)
                                                            for i in message_at):
                    continue
                context = None
                if context_at is not None:
                    if not (isinstance(args[context_at], ast.Constant) and isinstance(args[context_at].value, str)):
                        continue
                    context = args[context_at].value
                message = args[message_at[0]].value if len(message_at) == 1 else tuple(args[i].value for i in message_at)
                yield f"{source.name}/{path.relative_to(source)}", node.lineno, message, context


def template(domain: str) -> Catalog:
    source, _locale = DOMAINS[domain]
    catalog = Catalog(project="A House Divided", domain=domain, header_comment="# " + HEADER.format(domain=domain),
                      charset="utf-8", fuzzy=False, creation_date=DATE, revision_date=DATE)
    method_map = [("**/locale/**", "ignore"), ("**.py", "python")]
    for filename, lineno, message, comments, context in extract_from_dir(
            str(source), method_map=method_map, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",),
            strip_comment_tags=True):
        where = (f"{source.name}/{filename}", lineno)
        if isinstance(message, tuple) and not all(message):
            continue
        if not message:
            continue
        catalog.add(message, locations=[where], auto_comments=comments, context=context,
                    flags=("python-brace-format",) if "{" in (message[0] if isinstance(message, tuple) else message) else ())
    for filename, lineno, message, context in marked_strings(source, inside_fstrings_only=True):
        catalog.add(message, locations=[(filename, lineno)], context=context,
                    flags=("python-brace-format",) if "{" in (message[0] if isinstance(message, tuple) else message) else ())
    if domain == "ahd":
        for context, text, where in data_terms():
            catalog.add(text, locations=[(where, 0)], context=context)
    return catalog


def _po_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=100, omit_header=False, sort_output=True, include_lineno=False)
    # no "Generated-By: Babel x.y" line: the same messages give the same file whichever Babel wrote it
    return b"\n".join(line for line in out.getvalue().split(b"\n") if not line.startswith(b'"Generated-By:'))


def _mo_bytes(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def _messages(catalog: Catalog) -> tuple:
    """What a catalog says, header lines (dates, the tool's version) left out: its plural forms and every
    message with its translation, context, flags, locations and comments."""
    return (catalog.plural_forms if catalog.locale else None,
            sorted((m.context or "", repr(m.id), repr(m.string), sorted(m.flags), sorted(m.locations),
                    m.auto_comments, m.user_comments) for m in catalog if m.id))


def _po_messages(data: bytes, lang: str | None = None) -> tuple:
    return _messages(read_po(io.BytesIO(data), locale=lang))


def _mo_messages(data: bytes) -> tuple:
    """A compiled catalog's plural forms and (context, id, translation) of every message."""
    catalog = read_mo(io.BytesIO(data))

    def text(value):  # Babel 2.18's read_mo leaves a context as bytes
        return value.decode("utf-8") if isinstance(value, bytes) else value
    return (catalog.plural_forms, sorted((text(m.context) or "", repr(m.id), repr(m.string)) for m in catalog if m.id))


def merged(domain: str, lang: str, tmpl: Catalog) -> Catalog:
    _source, locale = DOMAINS[domain]
    path = locale / lang / "LC_MESSAGES" / f"{domain}.po"
    if path.exists():
        with path.open("rb") as f:
            catalog = read_po(f, locale=lang, domain=domain)
    else:
        catalog = Catalog(locale=lang, domain=domain, project="A House Divided", fuzzy=False)
    catalog.update(tmpl, no_fuzzy_matching=True, update_header_comment=True)
    catalog.mime_headers = [("Plural-Forms", PLURAL_FORMS[lang])]  # ours, not the installed Babel's CLDR
    catalog.obsolete.clear()
    catalog.fuzzy = False
    catalog.creation_date = tmpl.creation_date
    catalog.revision_date = DATE
    return catalog


def problems(catalog: Catalog, lang: str) -> list[str]:
    """Untranslated messages and translations whose placeholders differ from the English."""
    from ahd.core.i18n import placeholders
    found = []
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, (list, tuple)) else (message.id,)
        strings = message.string if isinstance(message.string, (list, tuple)) else (message.string,)
        if not all(strings):
            found.append(f"{lang}: untranslated: {ids[0]!r}")
            continue
        if message.fuzzy:  # left out of the .mo: as good as untranslated
            found.append(f"{lang}: fuzzy (check and clear the flag): {ids[0]!r}")
            continue
        wanted = set().union(*(placeholders(i) for i in ids))
        for text in strings:
            try:
                got = placeholders(text)
            except ValueError as exc:
                found.append(f"{lang}: {ids[0]!r}: translation is not a valid format string ({exc})")
                continue
            if got != wanted and not (len(ids) == 2 and got <= wanted):
                found.append(f"{lang}: {ids[0]!r}: placeholders {sorted(got)} != {sorted(wanted)}")
    return found


def run(check: bool, report: bool, only: str | None = None) -> int:
    stale, bad = [], []
    want_domain, _, want_lang = (only or ":").partition(":")
    for domain, (_source, locale) in DOMAINS.items():
        if want_domain and domain != want_domain:
            continue
        tmpl = template(domain)
        pot = locale / f"{domain}.pot"
        new_pot = _po_bytes(tmpl)
        if not pot.exists() or _po_messages(pot.read_bytes()) != _po_messages(new_pot):
            stale.append(str(pot.relative_to(ROOT)))
            if not check:
                pot.parent.mkdir(parents=True, exist_ok=True)
                pot.write_bytes(new_pot)
        for lang in LANGS:
            if want_lang and lang != want_lang:
                continue
            catalog = merged(domain, lang, tmpl)
            po = locale / lang / "LC_MESSAGES" / f"{domain}.po"
            mo = po.with_suffix(".mo")
            new_po, new_mo = _po_bytes(catalog), _mo_bytes(catalog)
            if not po.exists() or _po_messages(po.read_bytes(), lang) != _po_messages(new_po, lang):
                stale.append(str(po.relative_to(ROOT)))
            if not mo.exists() or _mo_messages(mo.read_bytes()) != _mo_messages(new_mo):
                stale.append(str(mo.relative_to(ROOT)))
            if not check:
                po.parent.mkdir(parents=True, exist_ok=True)
                po.write_bytes(new_po)
                mo.write_bytes(new_mo)
            bad += problems(catalog, lang)
            if report:
                total = sum(1 for m in catalog if m.id)
                done = sum(1 for m in catalog if m.id and (all(m.string) if isinstance(m.string, (list, tuple)) else m.string))
                print(f"{domain:8} {lang}: {done:4d} of {total:4d} messages translated")
    if check:
        for path in stale:
            print(f"stale: {path} (run scripts/make_catalogs.py)")
        for line in bad:
            print(line)
        return 1 if stale or bad else 0
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if stale or untranslated")
    parser.add_argument("--report", action="store_true", help="print messages and translations per language")
    parser.add_argument("--only", metavar="DOMAIN:LANG", help="one catalog, e.g. ahd:es (the .pot of DOMAIN too)")
    args = parser.parse_args(argv)
    return run(args.check, args.report, args.only)


if __name__ == "__main__":
    sys.exit(main())
