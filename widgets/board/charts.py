"""bqplot charts bound to a session: battle odds, the war's odds and the army maxima."""
from __future__ import annotations

from contextlib import ExitStack
from html import escape

import bqplot as bq
import ipywidgets as w
import numpy as np

from widgets.model.i18n import N_, _, num, pct
from widgets.board.layers import CONFEDERATE_GREY, UNION_BLUE, side_word
from widgets.model.session import Session

ATTACKER_COLOUR, DEFENDER_COLOUR, NEITHER_COLOUR = "#2e7d32", "#c62828", "#9e9e9e"
TITLE = {"font-size": "16px"}
#: Probability axes read 0%, 25%, 50%, 75%, 100% (d3 picks -3%, 24%, 76%, 103% when markers pad the scale).
PERCENT_TICKS = np.array([0.0, 0.25, 0.5, 0.75, 1.0])
#: A category label longer than this overlaps its neighbours in a third of the app's width at 1366 px.
MAX_CATEGORY_CHARS = 16


def _figure(title: str, marks: list, axes: list, height: str = "250px", **kwargs) -> bq.Figure:
    return bq.Figure(marks=marks, axes=axes, title=title, title_style=TITLE, padding_y=0.0,
                     fig_margin=dict(top=40, bottom=45, left=55, right=20),
                     layout=w.Layout(width="100%", height=height), **kwargs)


def _percent_axis(scale: bq.Scale, **kwargs) -> bq.Axis:
    return bq.Axis(scale=scale, side="left", tick_format=".0%", tick_values=PERCENT_TICKS, **kwargs)


def legend_html(entries: list[tuple[str, str, str]]) -> str:
    """A legend drawn under a chart, where it covers no data: (label, colour, 'solid'/'dashed'/'dotted'/'box')."""
    items = []
    for label, colour, style in entries:
        if style == "box":
            swatch = f"<span style='display:inline-block;width:14px;height:10px;background:{colour}'></span>"
        else:
            swatch = (f"<span style='display:inline-block;width:22px;border-top:3px {style} {colour};"
                      f"vertical-align:middle'></span>")
        items.append(f"<span style='white-space:nowrap;margin-right:12px'>{swatch} {escape(label)}</span>")
    return f"<div class='ahd-legend' style='font-size:13px;line-height:1.6'>{''.join(items)}</div>"


def _synced(*widgets):
    """One message per widget for all the trait changes made inside (``hold_sync`` on each)."""
    stack = ExitStack()
    for widget in widgets:
        stack.enter_context(widget.hold_sync())
    return stack


class BattleOddsChart:
    """Win / lose / neither for the battle in progress or the attack being considered, and the
    distribution of the units each side has left at the end (exact odds only)."""

    CATEGORIES = [N_("Attacker wins"), N_("Defender wins"), N_("Neither")]

    def __init__(self, session: Session) -> None:
        self.session = session
        x = bq.OrdinalScale()
        y = bq.LinearScale(min=0.0, max=1.0, allow_padding=False)
        colour = bq.OrdinalColorScale(domain=[0, 1, 2], colors=[ATTACKER_COLOUR, DEFENDER_COLOUR, NEITHER_COLOUR])
        self.bars = bq.Bars(x=[_(c) for c in self.CATEGORIES], y=[0.0, 0.0, 0.0], color=[0, 1, 2],
                            scales={"x": x, "y": y, "color": colour},
                            label_display=True, label_display_format=".0%",
                            label_font_style={"font-size": "14px", "font-weight": "bold"})
        axes = [bq.Axis(scale=x, tick_style={"font-size": "13px"}), _percent_axis(y)]
        self.figure = _figure(_("Battle odds: no battle considered"), [self.bars], axes, height="230px")
        # the survivors: P(k units left) for each side, side by side
        sx = bq.OrdinalScale()
        sy = bq.LinearScale(min=0.0, max=1.0, allow_padding=False)
        self.survivor_bars = bq.Bars(x=[0], y=[[0.0], [0.0]], scales={"x": sx, "y": sy}, type="grouped",
                                     colors=[ATTACKER_COLOUR, DEFENDER_COLOUR], padding=0.15)
        self.survivor_axis = bq.Axis(scale=sx, label=_("units left"), tick_style={"font-size": "13px"})
        self.survivor_figure = _figure(_("Units left at the end"), [self.survivor_bars],
                                       [self.survivor_axis, _percent_axis(sy)], height="200px")
        self.survivor_legend = w.HTML()
        self.caption = w.HTML()
        self.widget = w.VBox([self.figure, self.survivor_figure, self.survivor_legend, self.caption])
        session.observe(self._redraw, names=["battle_odds"])
        self._redraw()

    def relabel(self) -> None:
        """Say the chart's words again in the current language (after ``set_language``)."""
        with _synced(self.survivor_figure, self.survivor_axis):
            self.survivor_figure.title = _("Units left at the end")
            self.survivor_axis.label = _("units left")
        self._redraw()

    def survivor_distribution(self) -> np.ndarray:
        """Rows attacker, defender; column k = P(k units of that side left at the end)."""
        return np.array(self.survivor_bars.y, dtype=float)

    def _redraw(self, change=None) -> None:
        odds = self.session.battle_odds
        with _synced(self.figure, self.bars, self.survivor_figure, self.survivor_bars, self.survivor_legend,
                     self.caption):
            if not odds:
                self.bars.y = [0.0, 0.0, 0.0]
                self.bars.x = [_(c) for c in self.CATEGORIES]
                self.survivor_bars.x, self.survivor_bars.y = [0], [[0.0], [0.0]]
                self.survivor_figure.layout.display = "none"
                self.survivor_legend.value = ""
                self.figure.title = _("Battle odds: no battle considered")
                self.caption.value = ("<div style='font-size:14px;color:#555'>" + escape(_(
                    "Select an attacking move in the list of legal actions, or fight a battle, to see its odds."))
                    + "</div>")
                return
            attacker, defender = side_word(odds["attacker"]), side_word(odds["defender"])
            self.bars.y = [odds["attacker_wins"], odds["defender_wins"], odds["neither"]]
            self.bars.x = [_("{side} wins").format(side=attacker), _("{side} wins").format(side=defender),
                           _("Neither")]  # short: no overlap
            self.figure.title = _("Battle odds: {battle}").format(battle=odds["label"])[:90]
            left = [odds.get("attacker_left") or [], odds.get("defender_left") or []]
            if left[0] and left[1]:
                size = max(len(left[0]), len(left[1]))
                table = np.zeros((2, size))
                for row, dist in enumerate(left):
                    table[row, :len(dist)] = dist
                self.survivor_bars.x = list(range(size))
                self.survivor_bars.y = table
                self.survivor_figure.layout.display = ""
                self.survivor_legend.value = legend_html([
                    (_("{side} (attacker)").format(side=attacker), ATTACKER_COLOUR, "box"),
                    (_("{side} (defender)").format(side=defender), DEFENDER_COLOUR, "box")])
                spread = ""
            else:
                self.survivor_bars.x, self.survivor_bars.y = [0], [[0.0], [0.0]]
                self.survivor_figure.layout.display = "none"
                self.survivor_legend.value = ""
                spread = " " + escape(_("The spread of survivors is shown for exact odds only."))
            caveat = ""
            if odds.get("not_modelled"):
                caveat = "<br>" + _("<b>Approximate:</b> leaves out {what}.").format(
                    what=escape(", ".join(odds["not_modelled"])))
            attacks = _("The Union attacks.") if odds["attacker"] == "union" else _("The Confederacy attacks.")
            method = _("exact") if odds["method"] == "exact" else odds["method"]
            self.caption.value = (
                "<div style='font-size:14px'>" + escape(_(
                    "{attacks} Expected units left: attacker {attacker}, defender {defender}; expected rounds "
                    "{rounds} ({method}; the engine's automatic firing, no retreat).").format(
                    attacks=attacks, attacker=num(odds["attacker_survivors"], 1),
                    defender=num(odds["defender_survivors"], 1), rounds=num(odds["expected_rounds"], 1),
                    method=method))
                + f"{spread}{caveat}</div>")


def _turn_scale() -> bq.LinearScale:
    """The game-turn axis: turns 1-41 with half a turn either side, so a first or last marker shows whole."""
    return bq.LinearScale(min=0.5, max=41.5, allow_padding=False)


class WarChart:
    """The chance that the Union wins, per half-turn, with its uncertainty band."""

    BAND = "#bcd2f2"

    def __init__(self, session: Session) -> None:
        self.session = session
        x = _turn_scale()
        y = bq.LinearScale(min=0.0, max=1.0, allow_padding=False)  # the markers would widen it to -2%..102%
        self.band = bq.Lines(x=[], y=[], scales={"x": x, "y": y}, fill="between", colors=["#7ea6e0", "#7ea6e0"],
                             fill_colors=[self.BAND], fill_opacities=[0.6], stroke_width=0)
        self.line = bq.Lines(x=[], y=[], scales={"x": x, "y": y}, colors=[UNION_BLUE], stroke_width=3,
                             marker="circle", marker_size=24, labels=[_("Union win probability")])
        self.even = bq.Lines(x=[1, 41], y=[0.5, 0.5], scales={"x": x, "y": y}, colors=["#888"],
                             line_style="dashed", labels=[_("even")])
        self.turn_axis = bq.Axis(scale=x, label=_("game turn"))
        axes = [self.turn_axis, _percent_axis(y)]
        self.figure = _figure(_("Chance that the Union wins the war"), [self.band, self.even, self.line], axes)
        # the legend under the plot (bqplot's legend box drew empty and covered the data)
        self.legend = w.HTML(self._legend())
        from widgets.board.explain import WarOddsNote  # what the odds estimate, from whose games, how sure (issue 15)
        self.note = WarOddsNote(session)
        self.widget = w.VBox([self.figure, self.legend, self.note.widget])
        session.observe(self._redraw, names=["war_odds"])
        self._redraw()

    def _legend(self) -> str:
        return legend_html([(_("Union wins the war"), UNION_BLUE, "solid"),
                            (_("model's uncertainty"), self.BAND, "box"), (_("even"), "#888", "dashed")])

    def relabel(self) -> None:
        """Say the chart's words again in the current language (after ``set_language``)."""
        with _synced(self.line, self.even, self.turn_axis, self.legend):
            self.line.labels = [_("Union win probability")]
            self.even.labels = [_("even")]
            self.turn_axis.label = _("game turn")
            self.legend.value = self._legend()
        self._redraw()
        refresh = getattr(self.note, "relabel", None) or getattr(self.note, "refresh", None)
        if refresh is not None:  # the note (widgets.board.explain) is another helper's: redrawn if it knows how
            refresh()

    def _redraw(self, change=None) -> None:
        points = self.session.war_odds
        with _synced(self.figure, self.line, self.band):
            if not points:
                self.line.x, self.line.y = [], []
                self.band.x, self.band.y = [], []
                self.figure.title = _("Chance that the Union wins the war")
                return
            data = np.array(points, dtype=float)
            self.line.x, self.line.y = data[:, 0], data[:, 1]
            self.band.x = data[:, 0]
            self.band.y = [data[:, 2], data[:, 3]]
            self.figure.title = _("Chance that the Union wins the war: {chance} now").format(chance=pct(data[-1, 1], 0))


class ArmyChart:
    """Army maxima of both sides per half-turn, with the Confederate economic-victory line (11.b)."""

    THRESHOLD = "#c62828"

    def __init__(self, session: Session) -> None:
        self.session = session
        x = _turn_scale()
        y = bq.LinearScale(min=0.0)
        scales = {"x": x, "y": y}
        self.union = bq.Lines(x=[], y=[], scales=scales, colors=[UNION_BLUE], stroke_width=3, marker="circle",
                              marker_size=20, labels=[_("Union maximum")])
        self.confederate = bq.Lines(x=[], y=[], scales=scales, colors=[CONFEDERATE_GREY], stroke_width=3,
                                    marker="square", marker_size=20, line_style="dashed",
                                    labels=[_("Confederate maximum")])
        self.threshold = bq.Lines(x=[], y=[], scales=scales, colors=[self.THRESHOLD], stroke_width=2,
                                  line_style="dotted", labels=[_("Confederate economic victory at or above (11.b)")])
        self.turn_axis = bq.Axis(scale=x, label=_("game turn"))
        self.value_axis = bq.Axis(scale=y, side="left", label=_("army maximum"))
        self.figure = _figure(_("Army maxima"), [self.union, self.confederate, self.threshold],
                              [self.turn_axis, self.value_axis])
        # the legend under the plot: bqplot's box covered half of it
        self.legend = w.HTML(self._legend())
        self.widget = w.VBox([self.figure, self.legend])
        session.observe(self._redraw, names=["army_history"])
        self._redraw()

    def _legend(self) -> str:
        return legend_html([(side_word("union"), UNION_BLUE, "solid"),
                            (side_word("confederate"), CONFEDERATE_GREY, "dashed"),
                            (_("Confederacy wins at or above (11.b)"), self.THRESHOLD, "dotted")])

    def relabel(self) -> None:
        """Say the chart's words again in the current language (after ``set_language``)."""
        with _synced(self.figure, self.union, self.confederate, self.threshold, self.turn_axis, self.value_axis,
                     self.legend):
            self.figure.title = _("Army maxima")
            self.union.labels = [_("Union maximum")]
            self.confederate.labels = [_("Confederate maximum")]
            self.threshold.labels = [_("Confederate economic victory at or above (11.b)")]
            self.turn_axis.label = _("game turn")
            self.value_axis.label = _("army maximum")
            self.legend.value = self._legend()

    def _redraw(self, change=None) -> None:
        points = self.session.army_history
        with _synced(self.figure, self.union, self.confederate, self.threshold):
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
                        labels=[_("perfect calibration")], display_legend=True)
    points = bq.Scatter(x=rows[:, 1], y=rows[:, 2], size=rows[:, 0], scales={"x": x, "y": y, "size": size},
                        colors=[UNION_BLUE], default_size=600, labels=[_("held-out positions")], display_legend=True)
    axes = [bq.Axis(scale=x, label=_("predicted Union win probability"), tick_format=".0%", tick_values=PERCENT_TICKS),
            _percent_axis(y, label=_("observed Union wins"))]
    return _figure(_("{kind} model: Brier {brier} (base rate {base})").format(
                       kind=table.kind, brier=num(table.brier, 3), base=num(table.base_rate_brier, 3)),
                   [diagonal, points], axes, legend_location="top-left")
