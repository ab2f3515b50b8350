"""bqplot charts and tables for balance studies (``ahd.analysis.study`` summaries of ``ahd.analysis.simulate`` runs)."""
from __future__ import annotations

import html
from collections import Counter
from typing import Mapping, Sequence

import bqplot as bq
import ipywidgets as w
import numpy as np

from ahd.analysis.study import Trajectory

from widgets.model.i18n import N_, _, pct
from widgets.board.layers import CONFEDERATE_GREY, UNION_BLUE, side_word

PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"]


def _layout() -> w.Layout:
    return w.Layout(width="100%", height="320px")


class WinRateChart:
    """Each run's win rate for one side, a bar, with its 95% interval as a black segment."""

    def __init__(self, rows: Sequence[dict], side: str = "union") -> None:
        names = [row["preset"] for row in rows]
        self.rates = np.array([row[side] for row in rows], dtype=float)
        self.intervals = np.array([[row[f"{side}_low"], row[f"{side}_high"]] for row in rows], dtype=float)
        x = bq.OrdinalScale(domain=names)
        y = bq.LinearScale(min=0.0, max=1.0)
        colour = UNION_BLUE if side == "union" else CONFEDERATE_GREY
        self.bars = bq.Bars(x=names, y=self.rates, scales={"x": x, "y": y}, colors=[colour], opacities=[0.8],
                            label_display=True, label_display_format=".0%")
        self.whiskers = bq.Lines(x=[[n, n] for n in names], y=self.intervals, scales={"x": x, "y": y},
                                 colors=["black"], stroke_width=3)
        self.even = bq.Lines(x=[names[0], names[-1]], y=[0.5, 0.5], scales={"x": x, "y": y}, colors=["#888"],
                             line_style="dashed")
        label = side_word("union" if side == "union" else "confederate")
        self.widget = bq.Figure(marks=[self.bars, self.whiskers, self.even],
                                axes=[bq.Axis(scale=x, label=_("option preset")),
                                      bq.Axis(scale=y, side="left", tick_format=".0%",
                                              label=_("{side} wins").format(side=label))],
                                title=_("{side} win rate with 95% interval").format(side=label), layout=_layout(),
                                fig_margin=dict(top=40, bottom=50, left=60, right=20))


class MaximaChart:
    """Mean army-maximum difference D = Union − Confederate per turn, one line per run, with a reference."""

    def __init__(self, trajectories: Mapping[str, Trajectory], reference: float | None = None,
                 reference_label: str = "") -> None:
        x = bq.LinearScale()
        y = bq.LinearScale()
        self.lines = {}
        marks = []
        for i, (name, t) in enumerate(trajectories.items()):
            line = bq.Lines(x=t.turns, y=t.difference, scales={"x": x, "y": y}, colors=[PALETTE[i % len(PALETTE)]],
                            stroke_width=3, marker="circle", marker_size=16, labels=[name], display_legend=True)
            self.lines[name] = line
            marks.append(line)
        turns = np.concatenate([t.turns for t in trajectories.values()])
        self.reference = None
        if reference is not None:
            self.reference = bq.Lines(x=[turns.min(), turns.max()], y=[reference, reference],
                                      scales={"x": x, "y": y}, colors=["#c62828"], line_style="dotted",
                                      labels=[reference_label or f"D = {reference}"], display_legend=True)
            marks.append(self.reference)
        self.widget = bq.Figure(marks=marks, axes=[bq.Axis(scale=x, label=_("game turn")),
                                                   bq.Axis(scale=y, side="left", label=_("Union max − Confederate max"))],
                                title=_("Army maxima: mean difference at the end of each turn"), layout=_layout(),
                                legend_location="top-right", fig_margin=dict(top=40, bottom=50, left=60, right=20))


def endings_table(endings: Mapping[str, Counter]) -> w.HTML:
    """How games ended, per run: winner, rule and final turn with counts, as an HTML table."""
    rows = []
    for name, counts in endings.items():
        total = sum(counts.values())
        for (winner, rule, turn), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0][2])):
            rows.append(f"<tr><td>{html.escape(name)}</td><td>{html.escape(winner)}</td><td>{html.escape(rule)}</td>"
                        f"<td style='text-align:right'>{turn}</td><td style='text-align:right'>{n}</td>"
                        f"<td style='text-align:right'>{pct(n / total, 0)}</td></tr>")
    head = "<tr>" + "".join(f"<th>{html.escape(_(h))}</th>" for h in (
        N_("preset"), N_("winner"), N_("rule"), N_("final turn"), N_("games"), N_("share"))) + "</tr>"
    return w.HTML(f"<table style='border-collapse:collapse;font-size:14px' cellpadding='4'>{head}{''.join(rows)}"
                  f"</table>")


def rates_table(rows: Sequence[dict]) -> w.HTML:
    """The win rates with their 95% intervals, one row per run."""
    body = "".join(
        f"<tr><td>{html.escape(r['preset'])}</td><td style='text-align:right'>{r['games']}</td>"
        f"<td>{pct(r['union'], 0)} ({pct(r['union_low'], 0)}–{pct(r['union_high'], 0)})</td>"
        f"<td>{pct(r['confederate'], 0)} ({pct(r['confederate_low'], 0)}–{pct(r['confederate_high'], 0)})</td>"
        f"<td style='text-align:right'>{pct(r['draws'], 0)}</td><td style='text-align:right'>{r['median_turn']:.0f}</td></tr>"
        for r in rows)
    head = "<tr>" + "".join(f"<th>{html.escape(_(h))}</th>" for h in (
        N_("preset"), N_("games"), N_("Union wins (95%)"), N_("Confederate wins (95%)"), N_("draws"),
        N_("median final turn"))) + "</tr>"
    return w.HTML(f"<table style='border-collapse:collapse;font-size:14px' cellpadding='4'>{head}{body}</table>")
