"""Every rule in the implemented scope is named by at least one test's rule marker."""
from __future__ import annotations

import re
from pathlib import Path

#: Rules 1–13, H-1, H-2, C-1, S-1, S-12, S-13 (the basic game).
BASIC_GAME = [
    "1.1", "1.3", "1.3.a", "2", "3.a", "3.b", "3.c",
    "4.a", "4.b", "4.c", "4.d", "4.e", "4.f", "4.g", "4.1",
    "4.2.1", "4.2.2", "4.2.3", "4.2.4", "4.2.5", "4.2.6",
    "5.a", "5.b", "5.c", "5.d", "5.1.a", "5.1.b", "5.1.c", "5.2.a",
    "5.2.1", "5.2.2", "5.2.3", "5.2.4", "5.2.5", "5.2.6", "5.2.7",
    "6.a", "6.b", "6.c", "7.a", "7.b", "7.c", "7.d", "8",
    "9.a", "9.b", "9.c", "9.d", "9.e", "10", "11.a", "11.b", "11.c", "12", "13",
    "H-1", "H-2", "C-1", "S-1", "S-12", "S-13",
]


def marked_rules() -> set[str]:
    rules = set()
    for path in Path(__file__).parent.glob("test_*.py"):
        rules |= set(re.findall(r"mark\.rule\(\s*\"([^\"]+)\"", path.read_text()))
    return rules


def test_every_basic_rule_has_a_marked_test():
    missing = [rule for rule in BASIC_GAME if rule not in marked_rules()]
    assert not missing, f"rules without a marked test: {missing}"


#: The advanced and advanced optional rules implemented (issue 4); each has marked tests.
ADVANCED_GAME = ["A-2.1", "A-2.2", "A-2.3", "A-3", "A-5", "A-6", "A-7",
                 "AO-8.2.0", "AO-8.2.1", "AO-8.2.2", "C-2", "C-3", "AO-8.3", "A-4",
                 "AO-8.1", "AO-8.11", "AO-8.12", "AO-8.2.3", "H-3", "AO-8.4"]


def test_every_implemented_advanced_rule_has_a_marked_test():
    missing = [rule for rule in ADVANCED_GAME if rule not in marked_rules()]
    assert not missing, f"rules without a marked test: {missing}"


def test_every_advanced_switch_is_an_implemented_rule():
    """A switch is registered only once its rule is implemented (listed above, hence tested)."""
    from ahd.core.options import SWITCHES
    for switch in (rule for rule in SWITCHES if rule.startswith("A")):
        assert any(rule == switch or rule.startswith(switch + ".") for rule in ADVANCED_GAME), switch
