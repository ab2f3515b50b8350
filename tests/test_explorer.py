"""The battle odds explorer, driven without a browser: its controls give ``battle_odds`` its
arguments and its bqplot marks show exactly what ``battle_odds`` returns."""
from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("bqplot")  # the app extra; ./run.sh installs it

from ahd.odds import BattleOdds, SimulatedOdds, battle_odds
from widgets.board.explorer import BattleExplorer


def distribution(odds: BattleOdds, side: str, size: int) -> list[float]:
    out = [0.0] * (size + 1)
    for units, p in odds.survivors[side].items():
        out[len(units)] += p
    return out


def test_the_charts_show_battle_odds_for_forces_set_by_method():
    explorer = BattleExplorer()
    explorer.set_forces(["FV", "FV", "MF:reduced"], ["FV", "MF"], defender_entrenched=True)
    assert explorer.defender_units() == ["MF:entrenched", "FV:entrenched"]
    expected = battle_odds(["FV", "FV", "MF:reduced"], ["FV:entrenched", "MF:entrenched"])
    assert isinstance(explorer.odds, BattleOdds)
    assert list(explorer.win_bars.y) == pytest.approx([expected.attacker_wins, expected.defender_wins,
                                                       expected.neither], abs=1e-12)
    shown = explorer.survivor_distribution()
    assert list(explorer.survivor_bars.x) == [0, 1, 2, 3]
    assert list(shown[0]) == pytest.approx(distribution(expected, "attacker", 3), abs=1e-12)
    assert list(shown[1]) == pytest.approx(distribution(expected, "defender", 3), abs=1e-12)
    assert shown.sum(axis=1) == pytest.approx([1.0, 1.0])
    # the loser has no units left: P(attacker left with 0) is the defender's win chance
    assert shown[0, 0] == pytest.approx(expected.defender_wins)


def test_setting_the_controls_recomputes_like_the_engine():
    explorer = BattleExplorer(["FV"], ["FV"])
    before = list(explorer.win_bars.y)
    explorer.attacker_fields[("FV", False)].value = 3        # a typed count
    explorer.crossing.value = True
    explorer.defender_fields[("FS", True)].value = 1
    expected = battle_odds(["FV:crossing"] * 3, ["FV", "FS:reduced"])
    assert list(explorer.win_bars.y) == pytest.approx([expected.attacker_wins, expected.defender_wins,
                                                       expected.neither], abs=1e-12)
    assert list(explorer.win_bars.y) != before
    # crossing is +1 for the defender in rounds 1-2 only (5.2.3): it must cost the attacker
    dry = battle_odds(["FV"] * 3, ["FV", "FS:reduced"])
    assert expected.attacker_wins < dry.attacker_wins


@pytest.mark.parametrize("battle", [
    dict(round=2, firing="attacker"),
    dict(round=5, options=["O-2.2"]),           # round 5 is the round class '3 or later'; H-2 off
    dict(options=["H-2", "O-2.2"], attacker_retreat="outnumbered", defender_retreat="outnumbered"),
])
def test_round_firing_options_and_retreats_reach_battle_odds(battle):
    explorer = BattleExplorer()
    explorer.set_forces(["CV", "CV", "MF"], ["FV", "MC", "CV:reduced"])
    explorer.set_battle(**battle)
    args = explorer.arguments()
    assert args["round"] == min(battle.get("round", 1), 3)
    assert ("H-2" in args["options"]) == ("H-2" in battle.get("options", ["H-2"]))
    assert ("O-2.2" in args["options"]) == ("O-2.2" in battle.get("options", []))
    assert "H-1" in args["options"]  # the defaults the explorer does not show stay on
    expected = battle_odds(["CV", "CV", "MF"], ["FV", "MC", "CV:reduced"], round=args["round"],
                           firing=battle.get("firing", "defender"), options=args["options"],
                           attacker_retreat=battle.get("attacker_retreat", "never"),
                           defender_retreat=battle.get("defender_retreat", "never"))
    assert list(explorer.win_bars.y) == pytest.approx([expected.attacker_wins, expected.defender_wins,
                                                       expected.neither], abs=1e-12)


def test_o22_moves_the_odds_and_h2_cannot_without_leaders():
    """O-2.2 forces cavalry to fire at cavalry first: the odds of a mixed battle change. H-2 only
    matters at an effective value of 6, out of reach without leaders (at most 3 + 1 crossing)."""
    explorer = BattleExplorer()
    explorer.set_forces(["CV", "FV"], ["MC", "FV"])
    plain = list(explorer.win_bars.y)
    explorer.option_boxes["O-2.2"].value = True
    targeted = list(explorer.win_bars.y)
    assert targeted != pytest.approx(plain)
    assert targeted == pytest.approx(_wins(battle_odds(["CV", "FV"], ["MC", "FV"], options="neutral")))
    explorer.set_forces(["FS", "FS"], ["FV"], crossing=True)
    with_h2 = list(explorer.win_bars.y)
    explorer.option_boxes["H-2"].value = False
    assert "H-2" not in explorer.arguments()["options"]
    assert list(explorer.win_bars.y) == pytest.approx(with_h2, abs=1e-12)


def _wins(odds):
    return [odds.attacker_wins, odds.defender_wins, odds.neither]


def test_an_empty_side_shows_nothing_and_says_why():
    explorer = BattleExplorer()
    explorer.set_forces(["FV"], [])
    assert explorer.odds is None
    assert list(explorer.win_bars.y) == [0.0, 0.0, 0.0]
    assert "at least one unit" in explorer.message.value


def test_a_battle_too_large_is_estimated_by_simulation():
    explorer = BattleExplorer(max_states=50)
    explorer.set_forces(["FV"] * 4, ["FV"] * 4, defender_entrenched=True)
    assert isinstance(explorer.odds, SimulatedOdds)
    exact = battle_odds(["FV"] * 4, ["FV:entrenched"] * 4)
    assert explorer.win_bars.y[1] == pytest.approx(exact.defender_wins, abs=0.03)
    assert "simulated" in explorer.message.value
    assert np.all(explorer.survivor_distribution() == 0.0)


def test_mixed_side_flags_and_impossible_flags_are_refused():
    explorer = BattleExplorer()
    with pytest.raises(ValueError, match="all its units or none"):
        explorer.set_forces(["FV"], ["FV:entrenched", "MF"])
    with pytest.raises(ValueError, match="never entrenched"):
        explorer.set_forces(["FV:entrenched"], ["FV"])
    with pytest.raises(ValueError, match="at most 8"):
        explorer.set_forces(["FV"] * 9, ["FV"])
    with pytest.raises(ValueError, match="explorer's options"):
        explorer.set_battle(options=["O-3.2"])


def test_the_explorer_charts_have_round_ticks_and_no_legend_over_the_bars():
    explorer = BattleExplorer(["FV"], ["MF"])
    for figure in (explorer.win_figure, explorer.survivor_figure):
        percent = [a for a in figure.axes if a.tick_format == ".0%"]
        assert percent and all(list(a.tick_values) == [0.0, 0.25, 0.5, 0.75, 1.0] for a in percent)
        assert not any(mark.display_legend for mark in figure.marks)
