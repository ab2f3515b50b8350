"""The rulebook in the project's own words: one entry per rule ID, for players, teachers and students.

    >>> from ahd import rulebook
    >>> rulebook.title("5.2.6")
    'Cavalry withdrawal'
    >>> "5.2.6" in rulebook.search("cavalry withdraw")
    True

The text is package data, one markdown file per language (``ahd/data/rulebook/en.md``): a line
``# Part`` opens a part of the book, a line ``## ID — Title`` opens an entry, and an optional last
line ``See also: ID, ID`` lists related entries (a translation may write it in its own language,
e.g. ``Véase también: ID, ID``). Everything else is the entry's text (markdown).
``docs/rules.md`` is generated from the same file by ``scripts/make_rules_md.py``.

Every rule ID the engine cites (refusals, log lines, outcomes, rule switches) has an entry;
``tests/test_rulebook.py`` checks it.
"""
from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["Entry", "LANGUAGES", "LANGUAGE_NAMES", "PLANNED_LANGUAGES", "anchor", "entry", "entries", "find_ids", "ids", "markdown",
           "parse", "parts", "search", "text", "title"]

#: The languages the rulebook is meant to come in.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "es": "Spanish", "it": "Italian"}
#: Languages whose rulebook ships with the package: those with a file ``ahd/data/rulebook/<lang>.md``.
LANGUAGES: tuple[str, ...] = tuple(lang for lang in LANGUAGE_NAMES
                                   if (resources.files("ahd") / "data" / "rulebook" / f"{lang}.md").is_file())
#: Languages announced but not written yet.
PLANNED_LANGUAGES: dict[str, str] = {lang: name for lang, name in LANGUAGE_NAMES.items() if lang not in LANGUAGES}

_HEADER = re.compile(r"^## (\S+) — (.+?)\s*$")
_PART = re.compile(r"^# (.+?)\s*$")
_SEE_ALSO = re.compile(r"^(?:See also|Véase también|Vedi anche):\s*(.+?)\s*$")
#: A rule ID as it appears in running text: "4.2.6", "5.1.a", "10", "A-2.3", "AO-8.11", "S-VT", "T-4".
RULE_ID = re.compile(r"(?<![\w.-])(?:(?:AO|A|C|H|O|S|T)-(?:VT|\d+(?:\.\d+)*)|\d{1,2}(?:\.\d+)*(?:\.[a-z])?)(?![\w-]|\.\w)")


@dataclass(frozen=True, slots=True)
class Entry:
    """One rule: its ID, short title, text (markdown), related IDs and the part of the book it is in."""

    id: str
    title: str
    text: str
    see_also: tuple[str, ...] = ()
    part: str = ""

    def __str__(self) -> str:
        return f"{self.id} {self.title}\n\n{self.text}"


@dataclass(frozen=True, slots=True)
class _Book:
    entries: dict[str, Entry]
    parts: tuple[tuple[str, str, tuple[str, ...]], ...]  # (heading, introduction, entry IDs)
    folded: dict[str, str]  # casefolded ID -> ID


def _check_language(lang: str) -> str:
    if lang in LANGUAGES:
        return lang
    if lang in PLANNED_LANGUAGES:
        raise ValueError(f"the rulebook is not yet available in {PLANNED_LANGUAGES[lang]} ({lang!r}); "
                         f"available: {', '.join(LANGUAGES)}")
    raise ValueError(f"no rulebook in language {lang!r}; available: {', '.join(LANGUAGES)}")


def parse(source: str) -> _Book:
    """Read a rulebook file (see the module's docstring); a malformed file raises ValueError."""
    entries: dict[str, Entry] = {}
    parts: list[tuple[str, list[str], list[str]]] = []
    current: tuple[str, str, str, list[str]] | None = None  # id, title, part, lines

    def close() -> None:
        if current is None:
            return
        rule, name, part, lines = current
        while lines and not lines[-1].strip():
            lines.pop()
        see: tuple[str, ...] = ()
        if lines and (match := _SEE_ALSO.match(lines[-1])):
            see = tuple(s.strip() for s in match.group(1).split(",") if s.strip())
            lines.pop()
        body = _unwrap(lines)
        if not body:
            raise ValueError(f"rulebook entry {rule} has no text")
        entries[rule] = Entry(rule, name, body, see, part)

    for number, line in enumerate(source.splitlines(), 1):
        if match := _HEADER.match(line):
            close()
            rule = match.group(1)
            if rule in entries or (current is not None and current[0] == rule):
                raise ValueError(f"line {number}: rulebook entry {rule} appears twice")
            if not parts:
                raise ValueError(f"line {number}: entry {rule} comes before any '# part' heading")
            current = (rule, match.group(2), parts[-1][0], [])
            parts[-1][2].append(rule)
        elif line.startswith("## "):
            raise ValueError(f"line {number}: an entry heading is '## ID — Title', got {line!r}")
        elif match := _PART.match(line):
            close()
            current = None
            parts.append((match.group(1), [], []))
        elif current is not None:
            current[3].append(line)
        elif parts:
            parts[-1][1].append(line)
    close()
    for rule in entries.values():
        unknown = [s for s in rule.see_also if s not in entries]
        if unknown:
            raise ValueError(f"rulebook entry {rule.id} refers to unknown entries: {', '.join(unknown)}")
    return _Book(entries, tuple((h, "\n".join(i).strip(), tuple(r)) for h, i, r in parts),
                 {rule.casefold(): rule for rule in entries})


_BLOCK = re.compile(r"^\s*(?:[-*] |\||> |\d+\. |#)")


def _unwrap(lines: list[str]) -> str:
    """Join the source's hard-wrapped lines into one line per paragraph or list item, so the text reads
    well in any width; tables, list items and quotes keep their own lines."""
    out: list[str] = []
    for line in lines:
        if not line.strip():
            out.append("")
        elif out and out[-1].strip() and not _BLOCK.match(line) and not out[-1].lstrip().startswith("|"):
            out[-1] = out[-1].rstrip() + " " + line.strip()
        else:
            out.append(line.rstrip())
    return re.sub(r"\n{3,}", "\n\n", "\n".join(out)).strip()


@lru_cache(maxsize=None)
def _book(lang: str = "en") -> _Book:
    lang = _check_language(lang)
    source = (resources.files("ahd") / "data" / "rulebook" / f"{lang}.md").read_text(encoding="utf-8")
    return parse(source)


def _resolve(rule_id: str, lang: str) -> Entry:
    book = _book(lang)
    if not isinstance(rule_id, str):
        raise TypeError(f"a rule ID is a string such as '5.2.6', got {rule_id!r}")
    key = rule_id.strip()
    key = key[1:].strip() if key.startswith("§") else key
    found = book.entries.get(key) or book.entries.get(book.folded.get(key.casefold(), ""))
    if found is not None:
        return found
    close = difflib.get_close_matches(key, list(book.entries), n=4, cutoff=0.6)
    children = [r for r in book.entries if r.startswith(key + ".") or r.startswith(key + "-")]
    suggestions = list(dict.fromkeys(children[:6] + close))
    hint = f"; did you mean {', '.join(suggestions)}?" if suggestions else ""
    raise LookupError(f"no rule {rule_id!r} in the rulebook{hint}")


def entry(rule_id: str, lang: str = "en") -> Entry:
    """The whole entry of ``rule_id`` (ID, title, text, see-also IDs, part); LookupError if unknown."""
    return _resolve(rule_id, lang)


def text(rule_id: str, lang: str = "en") -> str:
    """The text of rule ``rule_id`` (markdown), e.g. ``text("5.2.6")``.

    IDs are matched exactly, ignoring case and surrounding spaces (``"ao-8.1"`` is AO-8.1). An unknown
    ID raises LookupError naming it, with close matches; a language not available raises ValueError."""
    return _resolve(rule_id, lang).text


def title(rule_id: str, lang: str = "en") -> str:
    """The short title of rule ``rule_id``, e.g. ``title("4.2.6")`` -> ``'The Potomac'``."""
    return _resolve(rule_id, lang).title


def ids(lang: str = "en") -> list[str]:
    """Every rule ID of the rulebook, in the book's order."""
    return list(_book(lang).entries)


def entries(lang: str = "en") -> list[Entry]:
    """Every entry, in the book's order."""
    return list(_book(lang).entries.values())


def parts(lang: str = "en") -> list[tuple[str, str, list[str]]]:
    """The parts of the book: (heading, introduction, the IDs of its entries)."""
    return [(heading, intro, list(rules)) for heading, intro, rules in _book(lang).parts]


def fold(text: str) -> str:
    """``text`` for searching: case and accents set aside (Unicode NFKD, combining marks dropped, casefold),
    so "caballeria" finds "caballería", "citta" finds "città" and "elite" finds "élite"."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def search(query: str, lang: str = "en") -> list[str]:
    """The IDs of the entries that contain every word of ``query`` (case- and accent-insensitive: see
    :func:`fold`; a word matches inside longer words, so "retreat" finds "retreats"), best first: an exact
    ID, then entries whose title holds all the words, then those mentioning the words most often; ties in
    the book's order."""
    if not isinstance(query, str):
        return []
    book = _book(lang)
    words = [w for w in re.split(r"\s+", fold(query).strip()) if w]
    if not words:
        return []
    exact = book.folded.get(query.strip().casefold())
    scored = []
    for order, rule in enumerate(book.entries.values()):
        head, body = _folded(lang, rule.id)
        if not all(w in head or w in body for w in words):
            continue
        in_title = sum(w in head for w in words)
        hits = sum(body.count(w) for w in words)
        scored.append((rule.id != exact, -in_title, -hits, order, rule.id))
    return [rule for *_, rule in sorted(scored)]


@lru_cache(maxsize=None)
def _folded(lang: str, rule_id: str) -> tuple[str, str]:
    rule = _book(lang).entries[rule_id]
    return fold(f"{rule.id} {rule.title}"), fold(rule.text)


def find_ids(line: str, lang: str = "en") -> list[str]:
    """The rulebook IDs cited in a line of text (a refusal, a log line), in order, each once:
    ``find_ids("… (A-3, T-4)")`` -> ``['A-3', 'T-4']``. Tokens that are not entries are skipped, and a
    bare section number counts only in parentheses and not after a name ("Lee (3)" is no citation)."""
    book = _book(lang)
    found = []
    for match in RULE_ID.finditer(line):
        rule = match.group(0)
        if rule not in book.entries:
            continue
        if rule.isdigit() and not _cited_section(line, match.start(), match.end()):
            continue  # "Day 1", "Lee (3)": a number, not rule 1 or 3
        found.append(rule)
    return list(dict.fromkeys(found))


def _cited_section(line: str, start: int, end: int) -> bool:
    """A bare section number ("8", "10") is a citation only inside parentheses, among IDs, and not as
    the value after a name ("Lee (3)")."""
    opening = line.rfind("(", 0, start)
    closing = line.find(")", end)
    if opening < 0 or closing < 0 or ")" in line[opening:start] or "(" in line[end:closing]:
        return False
    items = [item.strip() for item in line[opening + 1:closing].split(",")]
    if not all(RULE_ID.fullmatch(item) or not item[:1].isdigit() for item in items):
        return False
    before = line[:opening].rstrip().split(" ")[-1:]
    return not (before and before[0][:1].isupper() and len(items) == 1)


def anchor(rule_id: str) -> str:
    """The HTML anchor of an entry in the rendered book: ``"5.2.6"`` -> ``"rule-5-2-6"``."""
    return "rule-" + re.sub(r"[^0-9A-Za-z]+", "-", rule_id).strip("-").lower()


#: The headings and introduction of the rendered book (:func:`markdown`), per language; English otherwise.
_MARKDOWN_WORDS: dict[str, dict[str, str]] = {
    "en": {"title": "A House Divided — the rulebook",
           "intro": "The rules of *A House Divided* in the project's own words, with the decisions the game engine "
                    "follows where the original rulebooks are unclear. In Python: `ahd.rulebook.text(\"5.2.6\")`, "
                    "`ahd.rulebook.search(\"retreat\")`.",
           "contents": "Contents", "see_also": "See also:"},
    "es": {"title": "A House Divided — el reglamento",
           "intro": "Las reglas de *A House Divided* con las palabras del propio proyecto, con las decisiones que "
                    "sigue el motor del juego donde los reglamentos originales no son claros. En Python: "
                    "`ahd.rulebook.text(\"5.2.6\", lang=\"es\")`, `ahd.rulebook.search(\"retirada\", lang=\"es\")`.",
           "contents": "Índice", "see_also": "Véase también:"},
    "it": {"title": "A House Divided — il regolamento",
           "intro": "Le regole di *A House Divided* con le parole del progetto, con le decisioni che il motore del "
                    "gioco segue dove i regolamenti originali non sono chiari. In Python: "
                    "`ahd.rulebook.text(\"5.2.6\", lang=\"it\")`, `ahd.rulebook.search(\"ritirata\", lang=\"it\")`.",
           "contents": "Indice", "see_also": "Vedi anche:"},
}


def markdown(lang: str = "en") -> str:
    """The whole rulebook as one markdown document (``docs/rules.md``; ``docs/rules.<lang>.md`` for a
    translation): an index, then every part and entry, each entry with an anchor and its see-also links."""
    book = _book(lang)
    words = _MARKDOWN_WORDS.get(lang, _MARKDOWN_WORDS["en"])
    link = lambda rule: f"[{rule}](#{anchor(rule)})"  # noqa: E731
    out = [f"# {words['title']}", "",
           "<!-- Generated from ahd/data/rulebook/" + lang + ".md by scripts/make_rules_md.py: edit that file, "
           "then run the script. -->", "",
           words["intro"], "",
           f"## {words['contents']}", ""]
    for heading, _, rules in book.parts:
        out.append(f"- **{heading}**: " + ", ".join(link(r) for r in rules))
    for heading, intro, rules in book.parts:
        out += ["", f"## {heading}", ""]
        if intro:
            out += [intro, ""]
        for rule in rules:
            item = book.entries[rule]
            out += [f'### <a id="{anchor(rule)}"></a>{rule} — {item.title}', "", item.text, ""]
            if item.see_also:
                out += [f"*{words['see_also']}* " + ", ".join(link(r) for r in item.see_also), ""]
    return "\n".join(out).rstrip() + "\n"
