"""Write docs/rules.md, the rulebook for reading on GitHub, from the package data (ahd/data/rulebook/en.md).

    python scripts/make_rules_md.py           # write docs/rules.md
    python scripts/make_rules_md.py --check   # exit 1 if docs/rules.md is out of date
"""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from ahd.core import rulebook  # noqa: E402

TARGET = ROOT / "docs" / "rules.md"


def main(argv: list[str]) -> int:
    text = rulebook.markdown("en")
    if "--check" in argv:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET.relative_to(ROOT)} is out of date: run python scripts/make_rules_md.py")
            return 1
        print(f"{TARGET.relative_to(ROOT)} is up to date ({len(rulebook.ids())} entries)")
        return 0
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(ROOT)} ({len(rulebook.ids())} entries)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
