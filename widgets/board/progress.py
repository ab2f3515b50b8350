"""A progress bar for long computations that report ``progress(done, total)``, such as ``ahd.analysis.simulate``.

    from widgets.board.progress import ProgressBar
    bar = ProgressBar("basic")
    display(bar)
    results = ahd.simulate(20, progress=bar)

The bar is an ipywidgets ``IntProgress`` with a label; calling it moves both. ``calls`` keeps what
it was told, so a run can be checked after the fact.
"""
from __future__ import annotations

import time

import ipywidgets as w

from widgets.model.i18n import _, num


class ProgressBar(w.HBox):
    """``bar(done, total)`` sets the bar to ``done`` of ``total`` and says how long it has taken."""

    def __init__(self, description: str = "", total: int = 1, *, clock=time.monotonic) -> None:
        self.clock = clock
        self.started: float | None = None
        self.calls: list[tuple[int, int]] = []
        self.bar = w.IntProgress(value=0, min=0, max=max(1, total), description=description,
                                 bar_style="info", layout=w.Layout(width="50%"))
        self.label = w.Label(f"0 / {total}")
        super().__init__([self.bar, self.label])

    def start(self, total: int) -> None:
        """Reset to 0 of ``total`` (called by the first report of a run if not called before)."""
        if total < 1:
            raise ValueError(f"total must be positive, got {total}")
        self.started = self.clock()
        self.calls = []
        self.bar.max, self.bar.value, self.bar.bar_style = total, 0, "info"
        self.label.value = f"0 / {total}"

    def __call__(self, done: int, total: int) -> None:
        if self.started is None or total != self.bar.max or done < self.bar.value:
            self.start(total)
        if not 0 <= done <= total:
            raise ValueError(f"progress {done} of {total} is out of range")
        self.calls.append((done, total))
        self.bar.value = done
        elapsed = self.clock() - self.started
        self.label.value = _("{done} / {total} in {seconds} s").format(done=done, total=total, seconds=num(elapsed, 1))
        if done == total:
            self.bar.bar_style = "success"

    @property
    def done(self) -> bool:
        return self.bar.value == self.bar.max and self.bar.bar_style == "success"
