"""English words left in a Spanish or Italian text (issue 36): a word of the English vocabulary of the game
(every word of the English messages of the engine's and the app's catalogs, and of the English rulebook)
that is not a word of that language as the project writes it (the words of its rulebook and of its
catalogs' translations of whole sentences), nor a proper name of the short list below."""
from __future__ import annotations

import io
import re
from functools import lru_cache
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)

#: Proper names and codes that read the same in every language (the map's names come from the board).
PROPER = {"union", "confederate", "confederacy", "voila", "jupyter", "python", "json", "ahd", "house", "divided",
          "grant", "sherman", "lee", "monte", "carlo", "brier", "token", "url", "xsrf", "api", "binder", "chromium",
          "html", "svg", "utc", "tripleA".lower(), "ipynb", "csv", "zip", "sqlite", "gdw", "github", "kernel",
          "kernels", "widgets", "replayapp", "english", "español", "italiano", "ctrl", "pip", "jupyterhub", "readme",
          "conf", "uxxxx", "str", "dir", "http", "https", "caddy", "pem"}
#: Words of the language that English writes the same (loanwords and cognates the translations use on purpose).
ALSO_NATIVE = {
    "es": {"editor", "escape", "socket", "captor", "panel", "bot", "bots", "personal", "plan", "byte", "bytes", "legal", "control", "capital", "manual", "normal",
           "base", "terminal", "error", "final", "total", "simple", "general", "social", "local", "central", "real",
           "min", "max", "auto", "app", "web", "online", "software", "hardware", "notebook", "notebooks", "link",
           "defender", "proxy"},
    "it": {"editor", "escape", "computer", "file", "server", "link", "bot", "bots", "byte", "bytes", "app", "notebook", "notebooks",
           "standard", "note", "menu", "browser", "handicap", "simulate", "normal", "max", "min", "pipe", "socket",
           "manual", "control", "web", "online", "software", "hardware", "test", "extra", "default", "hobby",
           "partner", "leader", "mouse", "tab", "click", "chat", "team", "round",
           "compare", "proxy", "state", "create"},
}


def _words(text: str) -> set[str]:
    return {w.casefold() for w in WORD.findall(text)}


@lru_cache(maxsize=None)
def english() -> frozenset[str]:
    words: set[str] = set()
    for pot in (ROOT / "ahd" / "locale" / "ahd.pot", ROOT / "widgets" / "locale" / "widgets.pot"):
        with pot.open("rb") as f:
            for m in read_po(f):
                for text in (m.id if isinstance(m.id, (list, tuple)) else (m.id,)):
                    if text:
                        words |= _words(re.sub(r"\{[^}]*\}", " ", text))
    words |= _words((ROOT / "ahd" / "data" / "rulebook" / "en.md").read_text(encoding="utf-8"))
    return frozenset(words)


@lru_cache(maxsize=None)
def native(lang: str) -> frozenset[str]:
    from ahd.core.board import default_board
    words = _words((ROOT / "ahd" / "data" / "rulebook" / f"{lang}.md").read_text(encoding="utf-8"))
    for box in default_board():
        words |= _words(box.name)
    return frozenset(words | PROPER | ALSO_NATIVE.get(lang, set()))


#: The command line's and the file formats' own words, quoted as they are in a few messages (house-divided app,
#: "auto": true, --union easy): code, not prose.
CODE = {"true", "false", "auto", "load", "end", "publish", "classroom", "play", "simulate", "bench", "options", "odds",
        "easy", "hard", "random", "heuristic", "search", "candidates", "install", "games", "app", "demo", "validate"}


def names_kept(text: str, source: str) -> set[str]:
    """Proper names a translation keeps from its English ``source``: words written with a capital in both
    (Port Hudson, Jubal Early, Pennsylvania), the names of the history table's events and notes."""
    capitals = re.compile(r"\b[A-Z][^\W\d_]+")
    return {w.casefold() for w in capitals.findall(text)} & {w.casefold() for w in capitals.findall(source)}


def leftovers(text: str, lang: str, source: str = "") -> list[str]:
    """The English words in ``text`` (a page's visible text in ``lang``), in order, each once; with the English
    ``source`` it translates, the proper names kept from it are not counted (:func:`names_kept`)."""
    # what is not prose: placeholders, codes in capitals (LC_ALL, MF), identifiers (start_turn), quoted keys and
    # values of a file ("format", 'union'), command-line options and values (--attacker, :reduced); a command
    # ("house-divided publish")
    text = re.sub(r"\b(?:house-divided|python -m ahd)(?: [a-z]+)?\b|\{[^}]*\}|%\([a-z_]+\)[rsd]|\b[A-Z][A-Z0-9_]+\b|\b\w+_\w+\b|\"[^\"]*\"|'[^' ]*'|--?[\w-]+|:\w+|"
                  r"<[^>]*>", " ", text)
    text = re.sub(r"\b[A-Z]{1,3}-\d[\w.\-]*|\b\d[\w.]*\b|https?://\S*|\S+@\S+|[\w/-]+\.(?:json|ipynb|zip|py|sqlite3|md)\b", " ", text)
    found = [w.casefold() for w in WORD.findall(text)]
    en, own = english(), native(lang) | names_kept(text, source)
    return list(dict.fromkeys(w for w in found if w in en and w not in own))
