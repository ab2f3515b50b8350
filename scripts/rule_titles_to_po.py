"""Suggest translations of the rule titles that citations use, from the translated rulebooks.

Errors and logs cite rules as ``"5.2.6 cavalry retreat"``: the titles are ``ahd.core.rules.RULE_TITLES``
(marked ``N_``, so they are msgids of the engine's catalog). The Spanish and Italian rulebooks
(``ahd/data/rulebook/{es,it}.md``) already give every rule a title in their language; this prints,
for each language, ``{english_title: translated_title}`` as JSON, so the catalog's translators can
reuse the rulebook's own words::

    .venv/bin/python scripts/rule_titles_to_po.py              # {"es": {...}, "it": {...}}
    .venv/bin/python scripts/rule_titles_to_po.py --lang es    # {"dice, natural roll": "dados", ...}
    .venv/bin/python scripts/rule_titles_to_po.py --by-id      # {"0.3": {"en": ..., "es": ..., "it": ...}}

A citation's title starts in lower case ("5.2.6 cavalry retreat") where the English one does, so the
rulebook's capital is lowered the same way ("Retirada de la caballería" -> "retirada de la caballería")
unless ``--keep-case``. Two rules with the same English title ("short game": 13 and S-13) give one
msgid; when their rulebook titles differ the shortest is kept and the others are listed on stderr.
A rule the rulebook of a language lacks is left out and named on stderr. Nothing is written: the
lead merges the suggestions into the ``.po`` files.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ahd.core import rulebook  # noqa: E402
from ahd.core.rules import RULE_TITLES  # noqa: E402

#: The languages with a translated rulebook (English is the catalogs' source language).
TARGETS = tuple(lang for lang in rulebook.LANGUAGES if lang != "en")


def citation_case(english: str, translated: str) -> str:
    """The rulebook's title with the English citation's initial case: lowered when the English title
    starts in lower case ("dice, natural roll") and the translated word is not an all-capitals one."""
    if not translated or not english[:1].islower() or not translated[:1].isupper():
        return translated
    first_word = translated.split()[0]
    if len(first_word) > 1 and first_word.isupper():  # an acronym
        return translated
    return translated[0].lower() + translated[1:]


def titles_by_id(langs: tuple[str, ...] = TARGETS, keep_case: bool = False,
                 problems: list[str] | None = None) -> dict[str, dict[str, str]]:
    """``{rule_id: {"en": citation title, lang: rulebook title, ...}}`` for every RULE_TITLES entry."""
    result: dict[str, dict[str, str]] = {}
    for rule_id, english in RULE_TITLES.items():
        row = {"en": english}
        for lang in langs:
            try:
                title = rulebook.title(rule_id, lang=lang)
            except LookupError:
                if problems is not None:
                    problems.append(f"{lang}: rule {rule_id} ({english!r}) is not in the {lang} rulebook")
                continue
            row[lang] = title if keep_case else citation_case(english, title)
        result[rule_id] = row
    return result


def suggestions(langs: tuple[str, ...] = TARGETS, keep_case: bool = False,
                problems: list[str] | None = None) -> dict[str, dict[str, str]]:
    """``{lang: {english_title: translated_title}}``: one suggestion per msgid of RULE_TITLES."""
    rows = titles_by_id(langs, keep_case, problems)
    result: dict[str, dict[str, str]] = {}
    for lang in langs:
        candidates: dict[str, dict[str, str]] = {}  # english -> {translated: rule_id}
        for rule_id, row in rows.items():
            if lang in row:
                candidates.setdefault(row["en"], {}).setdefault(row[lang], rule_id)
        chosen: dict[str, str] = {}
        for english, options in candidates.items():
            best = min(options, key=lambda text: (len(text), text))
            chosen[english] = best
            if len(options) > 1 and problems is not None:
                others = "; ".join(f"{rule_id}: {text!r}" for text, rule_id in options.items() if text != best)
                problems.append(f"{lang}: {english!r} is the title of several rules; kept {options[best]}: {best!r} "
                                f"over {others}")
        result[lang] = chosen
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lang", action="append", choices=TARGETS,
                        help="only this language (repeatable); default: " + ", ".join(TARGETS))
    parser.add_argument("--by-id", action="store_true", help="one object per rule ID with every language's title")
    parser.add_argument("--keep-case", action="store_true", help="keep the rulebook's capital letters")
    args = parser.parse_args(argv)
    langs = tuple(args.lang) if args.lang else TARGETS
    problems: list[str] = []
    if args.by_id:
        data: object = titles_by_id(langs, args.keep_case, problems)
    else:
        found = suggestions(langs, args.keep_case, problems)
        data = found[langs[0]] if args.lang and len(langs) == 1 else found
    json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    for problem in problems:
        print(problem, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
