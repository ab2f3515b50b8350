"""Checks shared by the tests of each translated rulebook (tests/test_rulebook_<lang>.py).

A translation has the English book's entries in the same order with the same "see also" links,
cites the same rule IDs in each entry, and uses its language's glossary
(``ahd/data/rulebook/glossary.<lang>.json``: English term -> the term of that language's original
rulebook), every term of which appears in the translated book.
"""
from __future__ import annotations

import json
import re
from importlib import resources

from ahd import rulebook

#: Rule IDs that cannot be mistaken for ordinary numbers: "A-2.2", "T-4", "5.2.6", "9.b".
CITED = re.compile(r"(?<![\w.-])(?:(?:AO|A|C|H|O|S|T)-(?:VT|\d+(?:\.\d+)*)|\d{1,2}(?:\.\d+)+(?:\.[a-z])?|\d{1,2}\.[a-z])(?![\w-])")


def glossary(lang: str) -> dict[str, str]:
    text = (resources.files("ahd") / "data" / "rulebook" / f"glossary.{lang}.json").read_text(encoding="utf-8")
    return json.loads(text)


def check_translation(lang: str) -> None:
    assert lang in rulebook.LANGUAGES, f"no rulebook file for {lang!r}"
    english, translated = rulebook.entries("en"), rulebook.entries(lang)
    assert [e.id for e in translated] == [e.id for e in english], "the entries differ from the English book's"
    for en, tr in zip(english, translated):
        assert tr.see_also == en.see_also, f"{tr.id}: 'see also' differs from the English entry's"
        assert tr.title.strip() and tr.text.strip(), f"{tr.id}: empty title or text"
        assert set(CITED.findall(tr.title + " " + tr.text)) == set(CITED.findall(en.title + " " + en.text)), \
            f"{tr.id}: cites other rules than the English entry"
        assert tr.text != en.text, f"{tr.id}: not translated"
    terms = glossary(lang)
    assert len(terms) >= 25, "a glossary of the game's terms (at least 25)"
    book = "\n".join(f"{e.title}\n{e.text}" for e in translated).casefold()
    missing = [term for term in terms.values() if term.casefold() not in book]
    assert not missing, f"glossary terms the {lang} book never uses: {missing}"
    # the API answers in the language
    assert rulebook.search(next(iter(terms.values())), lang=lang)
    assert rulebook.text("5.2.6", lang=lang) != rulebook.text("5.2.6")
