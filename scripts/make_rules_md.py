"""Write docs/rules.md, the rulebook for reading on GitHub, from the package data (ahd/data/rulebook/en.md).

    python scripts/make_rules_md.py           # write docs/rules.md
    python scripts/make_rules_md.py --check   # exit 1 if docs/rules.md is out of date
    python scripts/make_rules_md.py --lang es # write docs/rules.es.md from ahd/data/rulebook/es.md
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ahd.core import rulebook  # noqa: E402

TARGET = ROOT / "docs" / "rules.md"


def target(lang: str = "en") -> Path:
    """docs/rules.md for English, docs/rules.<lang>.md for a translation."""
    return TARGET if lang == "en" else ROOT / "docs" / f"rules.{lang}.md"


def main(argv: list[str]) -> int:
    lang = argv[argv.index("--lang") + 1] if "--lang" in argv[:-1] else "en"
    path = target(lang)
    again = "python scripts/make_rules_md.py" + ("" if lang == "en" else f" --lang {lang}")
    text = rulebook.markdown(lang)
    if "--check" in argv:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print(f"{path.relative_to(ROOT)} is out of date: run {again}")
            return 1
        print(f"{path.relative_to(ROOT)} is up to date ({len(rulebook.ids(lang))} entries)")
        return 0
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)} ({len(rulebook.ids(lang))} entries)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
