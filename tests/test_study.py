"""Balance-study summaries (ahd.analysis.study) and their charts (widgets.authoring.study) agree with the games."""
from __future__ import annotations

import numpy as np
import pytest

import ahd
from ahd.analysis.simulate import GameResult, SimulationResults, wilson
from ahd.analysis.study import endings, maxima_trajectory, preset_rows


def result(index, winner, rule, maxima):
    return GameResult(index, winner, rule, "", maxima[-1][0], tuple(maxima), 0, 0)


RUN = SimulationResults([
    result(0, "union", "13", [(1, 34, 29), (2, 35, 27), (3, 36, 25)]),
    result(1, "confederate", "11.b", [(1, 34, 29), (2, 30, 31)]),
    result(2, None, "S-VT", [(1, 30, 22), (2, 32, 24), (3, 34, 20)]),
    result(3, "union", "13", [(1, 34, 29), (2, 35, 28), (3, 36, 26)]),
], "test", "heuristic", "heuristic")


def test_rows_hold_rates_intervals_draws_and_turns():
    (row,) = preset_rows({"basic": RUN})
    assert row["games"] == 4
    assert row["union"] == 0.5 and row["confederate"] == 0.25 and row["draws"] == 0.25
    assert (row["union_low"], row["union_high"]) == pytest.approx(wilson(2, 4))
    assert (row["confederate_low"], row["confederate_high"]) == pytest.approx(wilson(1, 4))
    assert row["union_low"] < row["union"] < row["union_high"]
    assert row["median_turn"] == 3.0


def test_endings_count_winner_rule_and_turn():
    counts = endings({"basic": RUN})["basic"]
    assert counts == {("union", "13", 3): 2, ("confederate", "11.b", 2): 1, ("draw", "S-VT", 3): 1}


def test_trajectory_averages_the_games_still_going():
    t = maxima_trajectory(RUN)
    assert list(t.turns) == [1, 2, 3]
    assert list(t.games) == [4, 4, 3]  # game 1 ended at turn 2
    assert t.union[2] == pytest.approx((36 + 34 + 36) / 3)
    assert t.confederate[1] == pytest.approx((27 + 31 + 24 + 28) / 4)
    assert t.difference[0] == pytest.approx(np.mean([5, 5, 8, 5]))


def test_summaries_of_real_games_are_consistent():
    run = ahd.simulate(6, scenario="short", union="random", confederate="random", seed=5)
    (row,) = preset_rows({"basic": run})
    assert row["union"] + row["confederate"] + row["draws"] == pytest.approx(1.0)
    assert sum(endings({"basic": run})["basic"].values()) == 6
    t = maxima_trajectory(run)
    assert t.turns[0] == 1 and t.turns[-1] == 10  # the short game is turns 1-10 (S-13)
    assert t.games[0] == 6 and np.all(np.diff(t.games) <= 0)


def test_charts_show_the_rows():
    pytest.importorskip("bqplot")
    from widgets.authoring.study import MaximaChart, WinRateChart, endings_table, rates_table
    other = SimulationResults(RUN.rows[:2], "test", "heuristic", "heuristic")
    rows = preset_rows({"basic": RUN, "neutral": other})
    chart = WinRateChart(rows)
    assert list(chart.bars.y) == [0.5, 0.5]
    assert np.array(chart.whiskers.y).tolist() == [list(wilson(2, 4)), list(wilson(1, 2))]
    confederate = WinRateChart(rows, side="confederate")
    assert list(confederate.bars.y) == [0.25, 0.5]
    maxima = MaximaChart({"basic": maxima_trajectory(RUN)}, reference=5, reference_label="S-13 margin")
    assert list(maxima.lines["basic"].y) == pytest.approx(list(maxima_trajectory(RUN).difference))
    assert list(maxima.reference.y) == [5, 5]
    table = endings_table(endings({"basic": RUN})).value
    assert table.count("<tr>") == 4 and "11.b" in table and "50%" in table
    assert rates_table(rows).value.count("<tr>") == 3
