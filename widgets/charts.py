"""bqplot charts bound to a session: battle odds, the war's odds and the army maxima."""
from __future__ import annotations

import bqplot as bq
import ipywidgets as w
import numpy as np

from .layers import CONFEDERATE_GREY, UNION_BLUE
from .session import Session

ATTACKER_COLOUR, DEFENDER_COLOUR, NEITHER_COLOUR = "#2e7d32", "#c62828", "#9e9e9e"
TITLE = {"font-size": "16px"}


def _figure(title: str, marks: list, axes: list, **kwargs) -> bq.Figure:
    return bq.Figure(marks=marks, axes=axes, title=title, title_style=TITLE, padding_y=0.0,
                     fig_margin=dict(top=40, bottom=45, left=55, right=20),
                     layout=w.Layout(width="100%", height="250px"), **kwargs)


class BattleOddsChart:
    """Win / lose / neither for the battle in progress or the attack being considered."""

    CATEGORIES = ["Attacker wins", "Defender wins", "Neither"]

    def __init__(self, session: Session) -> None:
        self.session = session
        x = bq.OrdinalScale()
        y = bq.LinearScale(min=0.0, max=1.0)
        colour = bq.OrdinalColorScale(domain=[0, 1, 2], colors=[ATTACKER_COLOUR, DEFENDER_COLOUR, NEITHER_COLOUR])
        self.bars = bq.Bars(x=self.CATEGORIES, y=[0.0, 0.0, 0.0], color=[0, 1, 2],
                            scales={"x": x, "y": y, "color": colour},
                            label_display=True, label_display_format=".0%",
                            label_font_style={"font-size": "15px", "font-weight": "bold"})
        axes = [bq.Axis(scale=x, tick_style={"font-size": "14px"}),
                bq.Axis(scale=y, side="left", tick_format=".0%", num_ticks=5)]
        self.figure = _figure("Battle odds: no battle considered", [self.bars], axes)
        self.caption = w.HTML()
        self.widget = w.VBox([self.figure, self.caption])
        session.observe(self._redraw, names=["battle_odds"])
        self._redraw()

    def _redraw(self, change=None) -> None:
        odds = self.session.battle_odds
        with self.figure.hold_sync(), self.bars.hold_sync():
            if not odds:
                self.bars.y = [0.0, 0.0, 0.0]
                self.figure.title = "Battle odds: no battle considered"
                self.caption.value = ("<div style='font-size:14px;color:#555'>Select an attacking move in the list "
                                      "of legal actions, or fight a battle, to see its odds.</div>")
                return
            self.bars.y = [odds["attacker_wins"], odds["defender_wins"], odds["neither"]]
            attacker, defender = odds["attacker"].capitalize(), odds["defender"].capitalize()
            self.bars.x = [f"{attacker} (attacker) wins", f"{defender} (defender) wins", "Neither"]
            self.figure.title = f"Battle odds: {odds['label']}"[:90]
            caveat = ""
            if odds.get("not_modelled"):
                caveat = (f"<br><b>Approximate:</b> leaves out {', '.join(odds['not_modelled'])}.")
            self.caption.value = (
                f"<div style='font-size:14px'>Expected survivors: attacker {odds['attacker_survivors']:.1f}, "
                f"defender {odds['defender_survivors']:.1f}; expected rounds {odds['expected_rounds']:.1f} "
                f"({odds['method']}; the engine's automatic firing, no retreat){caveat}</div>")


def _turn_scale() -> bq.LinearScale:
    """The game-turn axis: turns 1-41 with half a turn either side, so a first or last marker shows whole."""
    return bq.LinearScale(min=0.5, max=41.5, allow_padding=False)


class WarChart:
    """The chance that the Union wins, per half-turn, with its uncertainty band."""

    def __init__(self, session: Session) -> None:
        self.session = session
        x = _turn_scale()
        y = bq.LinearScale(min=0.0, max=1.0, allow_padding=False)  # the markers would widen it to -2%..102%
        self.band = bq.Lines(x=[], y=[], scales={"x": x, "y": y}, fill="between", colors=["#7ea6e0", "#7ea6e0"],
                             fill_colors=["#bcd2f2"], fill_opacities=[0.6], stroke_width=0)
        self.line = bq.Lines(x=[], y=[], scales={"x": x, "y": y}, colors=[UNION_BLUE], stroke_width=3,
                             marker="circle", marker_size=24, labels=["Union win probability"], display_legend=True)
        self.even = bq.Lines(x=[1, 41], y=[0.5, 0.5], scales={"x": x, "y": y}, colors=["#888"],
                             line_style="dashed", labels=["even"], display_legend=False)
        axes = [bq.Axis(scale=x, label="game turn"),
                bq.Axis(scale=y, side="left", tick_format=".0%", num_ticks=5)]
        self.figure = _figure("Chance that the Union wins the war", [self.band, self.even, self.line], axes,
                              legend_location="top-left")
        self.widget = self.figure
        session.observe(self._redraw, names=["war_odds"])
        self._redraw()

    def _redraw(self, change=None) -> None:
        points = self.session.war_odds
        with self.figure.hold_sync():
            if not points:
                self.line.x, self.line.y = [], []
                self.band.x, self.band.y = [], []
                return
            data = np.array(points, dtype=float)
            self.line.x, self.line.y = data[:, 0], data[:, 1]
            self.band.x = data[:, 0]
            self.band.y = [data[:, 2], data[:, 3]]
            self.figure.title = f"Chance that the Union wins the war: {data[-1, 1]:.0%} now"


class ArmyChart:
    """Army maxima of both sides per half-turn, with the Confederate economic-victory line (11.b)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        x = _turn_scale()
        y = bq.LinearScale(min=0.0)
        scales = {"x": x, "y": y}
        self.union = bq.Lines(x=[], y=[], scales=scales, colors=[UNION_BLUE], stroke_width=3, marker="circle",
                              marker_size=20, labels=["Union maximum"], display_legend=True)
        self.confederate = bq.Lines(x=[], y=[], scales=scales, colors=[CONFEDERATE_GREY], stroke_width=3,
                                    marker="square", marker_size=20, line_style="dashed",
                                    labels=["Confederate maximum"], display_legend=True)
        self.threshold = bq.Lines(x=[], y=[], scales=scales, colors=["#c62828"], stroke_width=2, line_style="dotted",
                                  labels=["Confederate economic victory at or above (11.b)"], display_legend=True)
        axes = [bq.Axis(scale=x, label="game turn"), bq.Axis(scale=y, side="left", label="army maximum")]
        self.figure = _figure("Army maxima", [self.union, self.confederate, self.threshold], axes,
                              legend_location="bottom-left")
        self.widget = self.figure
        session.observe(self._redraw, names=["army_history"])
        self._redraw()

    def _redraw(self, change=None) -> None:
        points = self.session.army_history
        with self.figure.hold_sync():
            if not points:
                for line in (self.union, self.confederate, self.threshold):
                    line.x, line.y = [], []
                return
            data = np.array(points, dtype=float)
            self.union.x, self.union.y = data[:, 0], data[:, 1]
            self.confederate.x, self.confederate.y = data[:, 0], data[:, 2]
            self.threshold.x, self.threshold.y = data[:, 0], data[:, 1] + 1


def reliability_chart(table) -> bq.Figure:
    """A reliability diagram of an ``ahd.odds.war.Calibration``: observed Union wins against the mean
    prediction in each bin (marker area ∝ positions), with the diagonal of perfect calibration."""
    rows = np.array([row[2:] for row in table.reliability], dtype=float)  # positions, predicted, observed
    x, y = bq.LinearScale(min=0.0, max=1.0), bq.LinearScale(min=0.0, max=1.0)
    size = bq.LinearScale(min=0.0, max=float(rows[:, 0].max()))
    diagonal = bq.Lines(x=[0, 1], y=[0, 1], scales={"x": x, "y": y}, colors=["#888"], line_style="dashed",
                        labels=["perfect calibration"], display_legend=True)
    points = bq.Scatter(x=rows[:, 1], y=rows[:, 2], size=rows[:, 0], scales={"x": x, "y": y, "size": size},
                        colors=[UNION_BLUE], default_size=600, labels=["held-out positions"], display_legend=True)
    axes = [bq.Axis(scale=x, label="predicted Union win probability", tick_format=".0%"),
            bq.Axis(scale=y, side="left", label="observed Union wins", tick_format=".0%")]
    return _figure(f"{table.kind} model: Brier {table.brier:.3f} (base rate {table.base_rate_brier:.3f})",
                   [diagonal, points], axes, legend_location="top-left")
