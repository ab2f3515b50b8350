"""The Italian rulebook (ahd/data/rulebook/it.md), its glossary (glossary.it.json) and docs/rules.it.md."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rulebook_translation import check_translation, glossary

from ahd import rulebook

ROOT = Path(__file__).resolve().parents[1]


def test_the_italian_rulebook_is_complete_and_uses_the_glossary():
    check_translation("it")


def test_italian_titles_and_search_use_the_terms_of_the_italian_rulebook():
    assert "it" in rulebook.LANGUAGES and "it" not in rulebook.PLANNED_LANGUAGES
    assert rulebook.title("4.b", lang="it") == "Che cos'è una marcia"
    assert rulebook.title("4.2.5", lang="it") == "Trinceramento"
    assert rulebook.title("5.2.6", lang="it") == "Fuga della cavalleria"
    assert {"4", "4.b", "4.2.5"} <= set(rulebook.search("marcia", lang="it"))
    assert {"4.a", "4.f", "4.1"} <= set(rulebook.search("marce", lang="it"))  # the plural
    assert {"0.5", "7", "7.c", "A-2.2"} <= set(rulebook.search("città di reclutamento", lang="it"))
    assert "5.2.5" in rulebook.search("ritirata", lang="it")
    # the Italian book writes its links as "Vedi anche:"; they read the same as the English ones
    assert rulebook.entry("5.2.6", lang="it").see_also == rulebook.entry("5.2.6").see_also
    assert "pozzo di reclutamento" in rulebook.text("0.5", lang="it").casefold()
    assert "Nuova Orleans" in rulebook.text("11.a", lang="it")
    # the same book: same parts, same entries in each part
    assert [ids for _, _, ids in rulebook.parts("it")] == [ids for _, _, ids in rulebook.parts("en")]


def test_the_italian_glossary_keeps_the_original_rulebook_s_terms():
    terms = glossary("it")
    assert len(terms) >= 40
    assert terms["march"] == "marcia"
    assert terms["recruiting city"] == "città di reclutamento"
    assert terms["entrenchment"] == "trinceramento"
    assert terms["crack (elite)"] == "di sfondamento"  # "Fanteria di Sfondamento" in the Italian rules
    assert terms["pool"] == "pozzo di reclutamento"


def test_docs_rules_it_md_is_up_to_date_with_the_package_data():
    assert (ROOT / "docs" / "rules.it.md").read_text(encoding="utf-8") == rulebook.markdown("it"), \
        "docs/rules.it.md is out of date: run python scripts/make_rules_md.py --lang it"
    assert rulebook.markdown("it").startswith("# A House Divided — il regolamento")
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_rules_md.py"), "--check", "--lang", "it"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
