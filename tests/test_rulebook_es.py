"""The Spanish rulebook (ahd/data/rulebook/es.md), its glossary and docs/rules.es.md."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from rulebook_translation import check_translation, glossary

from ahd import rulebook

ROOT = Path(__file__).resolve().parents[1]


def test_the_spanish_rulebook_is_complete_and_uses_the_glossary():
    check_translation("es")


def test_spanish_titles_and_search_use_the_original_rulebook_terms():
    assert rulebook.title("4.b", lang="es") == "Qué es una marcha"
    assert rulebook.title("5.2.6", lang="es") == "Retirada de la caballería"
    assert rulebook.title("4.2.5", lang="es") == "Fortificación"
    marches = rulebook.search("marcha", lang="es")
    assert {"4", "4.a", "4.b", "4.f"} <= set(marches) and "4.b" in marches[:3]
    assert rulebook.search("ciudad de reclutamiento", lang="es")[:1]
    assert "7.b" in rulebook.search("reclutas", lang="es")
    assert "Nueva Orleans" in rulebook.text("11.a", lang="es")
    # the Spanish book writes its links as "Véase también:"; they read the same as the English ones
    assert rulebook.entry("5.2.6", lang="es").see_also == rulebook.entry("5.2.6").see_also


def test_the_spanish_glossary_names_the_core_game_terms():
    terms = glossary("es")
    assert len(terms) >= 40
    expected = {"march": "marcha", "recruiting city": "ciudad de reclutamiento", "entrench": "fortificarse",
                "pool": "fondo de reclutamiento", "draft": "leva", "army maximum": "tamaño máximo de ejército",
                "phasing player": "jugador que posee el turno", "New Orleans": "Nueva Orleans"}
    assert {k: terms.get(k) for k in expected} == expected


def test_docs_rules_es_md_is_up_to_date_with_the_package_data():
    assert (ROOT / "docs" / "rules.es.md").read_text(encoding="utf-8") == rulebook.markdown("es"), \
        "docs/rules.es.md is out of date: run python scripts/make_rules_md.py --lang es"
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_rules_md.py"), "--check", "--lang", "es"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
