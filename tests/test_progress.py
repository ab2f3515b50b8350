"""The progress bar adapter follows ``ahd.analysis.simulate``'s progress callback."""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")  # the app extra; ./run.sh installs it

import ahd
from widgets.board.progress import ProgressBar


def test_simulate_drives_the_bar_to_the_end():
    bar = ProgressBar("short")
    results = ahd.simulate(5, scenario="short", union="random", confederate="random", seed=2, chunk=2,
                           progress=bar)
    assert len(results) == 5
    assert bar.calls == [(2, 5), (4, 5), (5, 5)]  # one report per chunk of 2 games
    assert (bar.bar.value, bar.bar.max) == (5, 5)
    assert bar.done and bar.bar.bar_style == "success"
    assert bar.label.value.startswith("5 / 5 in ")


def test_partial_progress_and_a_new_run_reset_the_bar():
    ticks = iter([10.0, 12.5, 20.0, 21.0])
    bar = ProgressBar(clock=lambda: next(ticks))
    bar(1, 4)
    assert (bar.bar.value, bar.bar.max, bar.label.value) == (1, 4, "1 / 4 in 2.5 s")
    assert not bar.done and bar.bar.bar_style == "info"
    bar(0, 3)  # a new run with another total starts again
    assert (bar.bar.value, bar.bar.max, bar.calls) == (0, 3, [(0, 3)])
    assert bar.label.value == "0 / 3 in 1.0 s"


def test_impossible_reports_are_refused():
    bar = ProgressBar()
    with pytest.raises(ValueError, match="out of range"):
        bar(6, 5)
    with pytest.raises(ValueError, match="positive"):
        bar.start(0)
