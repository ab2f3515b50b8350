"""The rulebook (ahd.rulebook): an entry for every rule the engine can cite, its API, and docs/rules.md."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import ahd
from ahd import rulebook
from ahd.bots import RandomBot, play
from ahd.bots.heuristic import HeuristicBot
from ahd.core.options import SWITCHES
from ahd.core.rules import RULE_TITLES

ROOT = Path(__file__).resolve().parents[1]

# A rule ID as the engine writes it: "4.2.6", "5.1.a", "10", "A-2.3", "AO-8.11", "S-1862", "S-VT", "T-4".
ID = r"(?:(?:AO|A|C|H|O|S|T)-(?:VT|\d+(?:\.\d+)*)|\d{1,2}(?:\.\d+)*(?:\.[a-z])?)"
LITERAL = rf"\"({ID})\""
# Where the engine's source names the rule it cites: refusals, citations, rule variables (including
# `rule = "X" if … else "Y"`), outcomes, rule switches and `"X" in options` tests.
CITING = [
    re.compile(rf"IllegalActionError\(\s*{LITERAL}"),
    re.compile(rf"cite\(\s*{LITERAL}\s*\)"),
    re.compile(rf"\brule\s*=\s*{LITERAL}(?:\s+if\b.*?\belse\s+{LITERAL})?"),
    re.compile(rf"\brule\s*=\s*\"({ID}(?:, {ID})+)\""),
    re.compile(rf"Outcome\([^,]+,\s*{LITERAL}"),
    re.compile(rf"Switch\(\s*{LITERAL}"),
    re.compile(rf"{LITERAL} (?:not )?in (?:\w+\.)*options\b"),
]


def _source_citations() -> dict[str, set[str]]:
    """Rule ID -> the files citing it, over every module of ahd/ and the scenario files."""
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / "ahd").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        for pattern in CITING:
            for match in pattern.finditer(source):
                for group in filter(None, match.groups()):
                    for rule in group.split(", "):
                        found.setdefault(rule, set()).add(path.relative_to(ROOT).as_posix())
    for path in sorted((ROOT / "ahd" / "data" / "scenarios").glob("*.json")):
        rule = json.loads(path.read_text(encoding="utf-8")).get("rule")
        if rule:
            found.setdefault(rule, set()).add(path.relative_to(ROOT).as_posix())
    return found


def _log_citations(line: str) -> set[str]:
    """The rule IDs cited in parentheses in a log line ("(5.2.6)", "(A-3, T-4)", "(cavalry-held, 9.b)"),
    leaving out a leader's value ("Grant (1)")."""
    found = set()
    for match in re.finditer(r"(\S*)\s*\(([^()]*)\)", line):
        before, inside = match.groups()
        for item in (part.strip() for part in inside.split(",")):
            if re.fullmatch(ID, item) and not (item.isdigit() and before[:1].isupper()):
                found.add(item)
    return found


# --------------------------------------------------------------------------- coverage
def test_every_rule_title_of_the_engine_has_an_entry():
    missing = [rule for rule in RULE_TITLES if rule not in rulebook.ids()]
    assert not missing, f"no rulebook entry for {missing}"


def test_coverage_count_against_the_engine_rule_titles():
    covered = sum(rule in rulebook.ids() for rule in RULE_TITLES)
    assert covered == len(RULE_TITLES) >= 84  # 84 when the rulebook was written; more may come
    # The book has more: overviews of sections (5, 5.2, A-2 …), the tables T-1…T-8, the scenarios and
    # the conventions, one entry each.
    assert len(rulebook.ids()) >= len(RULE_TITLES) + 30
    assert {f"T-{n}" for n in range(1, 9)} <= set(rulebook.ids())


def test_every_rule_the_engine_source_cites_has_an_entry():
    cited = _source_citations()
    assert len(cited) >= 60, f"the scan found too few citations ({len(cited)}): has the source's form changed?"
    for rule in ("4.2.6", "5.2.4", "O-3.1", "AO-8.2", "A-3", "T-4", "S-VT", "S-1862", "11.c", "H-2"):
        assert rule in cited, rule  # the scan sees each form of citation
    missing = {rule: sorted(files) for rule, files in cited.items() if rule not in rulebook.ids()}
    assert not missing, f"cited but not in the rulebook: {missing}"


def test_every_rule_switch_has_an_entry():
    assert not [rule for rule in SWITCHES if rule not in rulebook.ids()]


@pytest.mark.parametrize("scenario, seed", [("1861", 1), ("1861", 2), ("1863", 3), ("1864", 4)])
def test_every_rule_in_the_log_of_a_seeded_everything_game_has_an_entry(scenario, seed):
    game = ahd.new_game(scenario, seed=seed, options="everything")
    play(game, HeuristicBot(seed), RandomBot(seed) if seed % 2 else HeuristicBot(seed + 10))
    cited: dict[str, str] = {}
    for event in game.log:
        for rule in _log_citations(event.text):
            cited.setdefault(rule, event.text)
    cited.setdefault(game.outcome.rule, str(game.outcome))
    assert len(cited) >= 15, sorted(cited)
    missing = {rule: line for rule, line in cited.items() if rule not in rulebook.ids()}
    assert not missing, f"logged but not in the rulebook: {missing}"
    assert set(cited) >= {"4.2.5", "5.1.a", "7.b", "9.a", "A-2"}  # the log citations were read


def test_log_citations_leave_out_leader_values():
    assert _log_citations("Grant (1) arrives at Baltimore (AO-8.2.0)") == {"AO-8.2.0"}
    assert _log_citations("Day 1: Union command roll 4: T-4 3 = 3 (A-3, T-4)") == {"A-3", "T-4"}
    assert _log_citations("Draft: 4 militia infantry join the Union pool (8)") == {"8"}


# --------------------------------------------------------------------------- the API
def test_text_and_title():
    assert "cavalry" in rulebook.text("5.2.6").lower()
    assert rulebook.title("5.2.6") == "Cavalry withdrawal"
    assert rulebook.title("4.2.6") == "The Potomac"
    assert "Potomac" in rulebook.text("4.2.6")
    assert rulebook.entry("5.2.6").see_also and all(r in rulebook.ids() for r in rulebook.entry("5.2.6").see_also)
    assert rulebook.entry("5.2.6").part.startswith("5.")


def test_parents_and_children_both_exist():
    for parent, child in (("5", "5.2"), ("5.2", "5.2.6"), ("4.2", "4.2.6"), ("5.1", "5.1.a"), ("A-2", "A-2.2"),
                          ("AO-8.2", "AO-8.2.1"), ("2", "S-1")):
        assert rulebook.text(parent) and rulebook.text(child)
        assert rulebook.text(parent) != rulebook.text(child)


def test_ids_are_matched_ignoring_case_and_spaces():
    assert rulebook.text(" ao-8.1 ") == rulebook.text("AO-8.1")
    assert rulebook.text("s-vt") == rulebook.text("S-VT")
    assert rulebook.text("§4.2.6") == rulebook.text("4.2.6")


def test_an_unknown_id_is_a_lookup_error_naming_it_with_close_matches():
    with pytest.raises(LookupError, match=r"'5\.2\.9'.*5\.2\.[0-9a]"):
        rulebook.text("5.2.9")
    with pytest.raises(LookupError, match=r"'O-3'.*O-3\.1"):
        rulebook.title("O-3")
    with pytest.raises(LookupError, match="'nonsense'"):
        rulebook.entry("nonsense")
    with pytest.raises(TypeError):
        rulebook.text(526)


def test_languages_not_yet_available_are_refused_clearly():
    assert rulebook.text("5.2.6", lang="en") == rulebook.text("5.2.6")
    assert "es" in rulebook.LANGUAGES and rulebook.text("5.2.6", lang="es") != rulebook.text("5.2.6")
    assert "it" in rulebook.LANGUAGES and rulebook.text("5.2.6", lang="it") != rulebook.text("5.2.6")
    assert not rulebook.PLANNED_LANGUAGES  # every announced language ships
    with pytest.raises(ValueError, match="no rulebook in language 'xx'"):
        rulebook.ids(lang="xx")


def test_search_finds_every_word_case_insensitively_best_first():
    found = rulebook.search("retreat")
    assert found[0] == "5.2.5" and {"5.2.6", "C-1", "AO-8.12"} <= set(found)
    assert rulebook.search("RETREAT") == found
    both = rulebook.search("cavalry retreat")
    assert set(both) <= set(found) and "5.2.6" in both and both.index("5.2.6") < 3
    assert rulebook.search("potomac")[0] == "4.2.6"
    assert rulebook.search("5.2.6")[0] == "5.2.6"  # an exact ID first
    assert rulebook.search("zeppelin") == [] and rulebook.search("  ") == []
    for rule in rulebook.search("washington fort"):
        body = (rulebook.title(rule) + " " + rulebook.text(rule)).lower()
        assert "washington" in body and "fort" in body


def test_every_entry_has_a_title_a_text_and_valid_links():
    entries = rulebook.entries()
    assert [e.id for e in entries] == rulebook.ids() and len(set(rulebook.ids())) == len(entries)
    for e in entries:
        assert e.title.strip() and len(e.text) >= 40, e.id
        assert "TODO" not in e.text and "\n## " not in e.text, e.id
        assert all(s in rulebook.ids() and s != e.id for s in e.see_also), e.id
    assert sum(len(rules) for _, _, rules in rulebook.parts()) == len(entries)


def test_find_ids_reads_citations_in_a_line():
    assert rulebook.find_ids("Day 1 at Manassas Junction: Union command roll 4 (A-3, T-4)") == ["A-3", "T-4"]
    assert rulebook.find_ids("Lee (3) arrives at Fredericksburg (AO-8.2.0)") == ["AO-8.2.0"]
    assert rulebook.find_ids("4.2.6 Potomac: Confederate units may never use the Potomac line") == ["4.2.6"]
    assert rulebook.find_ids("Draft: 4 militia infantry join the Union pool (8)") == ["8"]
    assert rulebook.find_ids("Union half-turn: 2 marches without a roll on the first turn (4.1)") == ["4.1"]


def test_malformed_rulebook_files_are_refused():
    with pytest.raises(ValueError, match="twice"):
        rulebook.parse("# P\n\n## 1.1 — A\n\nSome text here.\n\n## 1.1 — B\n\nMore text.\n")
    with pytest.raises(ValueError, match="ID — Title"):
        rulebook.parse("# P\n\n## 1.1 A title without a dash\n\ntext\n")
    with pytest.raises(ValueError, match="unknown entries: 9.9"):
        rulebook.parse("# P\n\n## 1.1 — A\n\nSome text.\n\nSee also: 9.9\n")
    with pytest.raises(ValueError, match="no text"):
        rulebook.parse("# P\n\n## 1.1 — A\n\n## 1.2 — B\n\ntext\n")
    book = rulebook.parse("# P\n\nIntro.\n\n## 1.1 — A\n\nOne\nline.\n\n- item\n  continued\n\nSee also: 1.2\n\n## 1.2 — B\n\nTwo.\n")
    assert book.entries["1.1"].text == "One line.\n\n- item continued"
    assert book.entries["1.1"].see_also == ("1.2",) and book.parts[0][1] == "Intro."


# --------------------------------------------------------------------------- docs/rules.md
def test_docs_rules_md_is_up_to_date_with_the_package_data():
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == rulebook.markdown(), \
        "docs/rules.md is out of date: run python scripts/make_rules_md.py"


def test_make_rules_md_check_passes():
    result = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_rules_md.py"), "--check"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_docs_rules_md_links_every_entry():
    md = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in rulebook.ids():
        assert f'<a id="{rulebook.anchor(rule)}"></a>{rule} — ' in md, rule
    for target in set(re.findall(r"\]\(#([\w-]+)\)", md)):
        assert f'<a id="{target}">' in md, target
