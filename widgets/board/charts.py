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


def half_turn(x: float) -> str:
    """A point of the turn axis in words: 3.0 "turn 3, Union half", 3.5 "turn 3, Confederate half", and the end
    of a game (drawn half a turn on) "end of turn 40"."""
    turn, rest = int(x), round(x - int(x), 2)
    if rest == 0.5:
        return _("turn {turn}, Confederate half").format(turn=turn)
    if rest == 0.0:
        return _("turn {turn}, Union half").format(turn=turn)
    return _("end of turn {turn}").format(turn=turn)


def table_html(caption: str, heads: list[str], rows: list[list[str]]) -> str:
    """A data table (a chart's text alternative): a caption, column heads, one row per point."""
    head = "".join(f"<th scope='col'>{escape(h)}</th>" for h in heads)
    body = "".join("<tr>" + "".join((f"<th scope='row'>{escape(c)}</th>" if i == 0 else f"<td>{escape(c)}</td>")
                                    for i, c in enumerate(row)) + "</tr>" for row in rows)
    return (f"<table class='ahd-chart-table'><caption>{escape(caption)}</caption>"
            f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


class ChartText:
    """A chart's text alternative (WCAG 1.1.1): a sentence that says what the chart shows now (visible, under the
    chart), and its data as a table behind a "Show the data as a table" button; both follow the chart."""

    STYLE = ("<style>.ahd-chart-text { font-size: 14px; color: #222; } "
             ".ahd-chart-table { border-collapse: collapse; font-size: 13px; margin: 4px 0; } "
             ".ahd-chart-table caption { text-align: left; font-weight: bold; } "
             ".ahd-chart-table th, .ahd-chart-table td { border: 1px solid #bbb; padding: 1px 6px; "
             "text-align: right; color: #222; } "
             ".ahd-chart-table th[scope='row'] { text-align: left; font-weight: normal; }</style>")

    def __init__(self) -> None:
        self.summary = w.HTML()
        self.summary.add_class("ahd-chart-text")
        self.table = w.HTML(layout=w.Layout(display="none", max_height="260px", overflow="auto"))
        self.button = w.Button(layout=w.Layout(width="auto"))
        self.button.add_class("ahd-chart-table-button")
        self.button.on_click(self._toggle)
        self.widget = w.VBox([self.summary, self.button, self.table])
        self.relabel()

    @property
    def shown(self) -> bool:
        return self.table.layout.display != "none"

    def _toggle(self, _button=None) -> None:
        self.table.layout.display = "none" if self.shown else ""
        self.relabel()

    def relabel(self) -> None:
        self.button.description = _("Hide the table") if self.shown else _("Show the data as a table")

    def show(self, sentence: str, table: str) -> None:
        self.summary.value = f"{self.STYLE}<p class='ahd-chart-text' style='margin:2px 0'>{escape(sentence)}</p>"
        self.table.value = table


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
        # the survivors: P(k units left) for each side, side by side; made for the first exact odds (a hidden
        # figure has no size: bqplot would draw it with negative widths)
        self.survivor_figure: bq.Figure | None = None
        self.survivor_bars: bq.Bars | None = None
        self.survivor_axis: bq.Axis | None = None
        self.survivor_legend = w.HTML()
        self.caption = w.HTML()
        self.text = ChartText()
        self.widget = w.VBox([self.figure, self.survivor_legend, self.caption, self.text.widget])
        session.observe(self._redraw, names=["battle_odds"])
        self._redraw()

    def _survivor_chart(self) -> bq.Bars:
        """The survivors' bars, their figure made and put under the odds the first time."""
        if self.survivor_bars is None:
            sx = bq.OrdinalScale()
            sy = bq.LinearScale(min=0.0, max=1.0, allow_padding=False)
            self.survivor_bars = bq.Bars(x=[0], y=[[0.0], [0.0]], scales={"x": sx, "y": sy}, type="grouped",
                                         colors=[ATTACKER_COLOUR, DEFENDER_COLOUR], padding=0.15)
            self.survivor_axis = bq.Axis(scale=sx, label=_("units left"), tick_style={"font-size": "13px"})
            self.survivor_figure = _figure(_("Units left at the end"), [self.survivor_bars],
                                           [self.survivor_axis, _percent_axis(sy)], height="200px")
            self.widget.children = (self.figure, self.survivor_figure, *self.widget.children[1:])
        return self.survivor_bars

    def _hide_survivors(self) -> None:
        if self.survivor_figure is not None:
            with _synced(self.survivor_figure, self.survivor_bars):
                self.survivor_bars.x, self.survivor_bars.y = [0], [[0.0], [0.0]]
                self.survivor_figure.layout.display = "none"

    def relabel(self) -> None:
        """Say the chart's words again in the current language (after ``set_language``)."""
        if self.survivor_figure is not None:
            with _synced(self.survivor_figure, self.survivor_axis):
                self.survivor_figure.title = _("Units left at the end")
                self.survivor_axis.label = _("units left")
        self.text.relabel()
        self._redraw()

    def survivor_distribution(self) -> np.ndarray:
        """Rows attacker, defender; column k = P(k units of that side left at the end)."""
        if self.survivor_bars is None:
            return np.zeros((2, 1))
        return np.array(self.survivor_bars.y, dtype=float)

    def _redraw(self, change=None) -> None:
        odds = self.session.battle_odds
        with _synced(self.figure, self.bars, self.survivor_legend, self.caption):
            if not odds:
                self.bars.y = [0.0, 0.0, 0.0]
                self.bars.x = [_(c) for c in self.CATEGORIES]
                self._hide_survivors()
                self.survivor_legend.value = ""
                self.figure.title = _("Battle odds: no battle considered")
                self.caption.value = ("<div style='font-size:14px;color:#555'>" + escape(_(
                    "Select an attacking move in the list of legal actions, or fight a battle, to see its odds."))
                    + "</div>")
                self.text.show(_("Battle odds: no battle considered"), "")
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
                bars = self._survivor_chart()
                with _synced(self.survivor_figure, bars):
                    bars.x = list(range(size))
                    bars.y = table
                    self.survivor_figure.layout.display = ""
                self.survivor_legend.value = legend_html([
                    (_("{side} (attacker)").format(side=attacker), ATTACKER_COLOUR, "box"),
                    (_("{side} (defender)").format(side=defender), DEFENDER_COLOUR, "box")])
                spread = ""
            else:
                self._hide_survivors()
                self.survivor_legend.value = ""
                spread = " " + escape(_("The spread of survivors is shown for exact odds only."))
            caveat = ""
            if odds.get("not_modelled"):
                caveat = "<br>" + _("<b>Approximate:</b> leaves out {what}.").format(
                    what=escape(", ".join(odds["not_modelled"])))
            self._describe(odds, attacker, defender, left if left[0] and left[1] else None)
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


    def _describe(self, odds: dict, attacker: str, defender: str, left: list | None) -> None:
        """The chart in words and as a table: the three outcomes, and the survivors' spread (exact odds)."""
        outcomes = [(_("{side} wins").format(side=attacker), odds["attacker_wins"]),
                    (_("{side} wins").format(side=defender), odds["defender_wins"]), (_("Neither"), odds["neither"])]
        sentence = _("Battle odds: {battle}.").format(battle=odds["label"]) + " " + "; ".join(
            f"{label} {pct(p, 0)}" for label, p in outcomes) + "."
        table = table_html(_("Battle odds: {battle}").format(battle=odds["label"]), [_("Outcome"), _("Chance")],
                           [[label, pct(p, 0)] for label, p in outcomes])
        if left:
            size = max(len(left[0]), len(left[1]))
            rows = [[num(k), pct(left[0][k] if k < len(left[0]) else 0.0, 0),
                     pct(left[1][k] if k < len(left[1]) else 0.0, 0)] for k in range(size)]
            table += table_html(_("Units left at the end"),
                                [_("units left"), _("{side} (attacker)").format(side=attacker),
                                 _("{side} (defender)").format(side=defender)], rows)
        self.text.show(sentence, table)


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
        self.text = ChartText()
        self.widget = w.VBox([self.figure, self.legend, self.text.widget, self.note.widget])
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
        self.text.relabel()
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
                self.text.show(_("Chance that the Union wins the war: not estimated yet."), "")
                return
            data = np.array(points, dtype=float)
            self.line.x, self.line.y = data[:, 0], data[:, 1]
            self.band.x = data[:, 0]
            self.band.y = [data[:, 2], data[:, 3]]
            self.figure.title = _("Chance that the Union wins the war: {chance} now").format(chance=pct(data[-1, 1], 0))
            x, p, low, high = data[-1]
            sentence = _("Chance that the Union wins the war: {chance} at {when} (the model's uncertainty: {low} to "
                         "{high}).").format(chance=pct(p, 0), when=half_turn(x), low=pct(low, 0), high=pct(high, 0))
            if len(data) > 1:
                sentence += " " + _("It was {first} at {start}.").format(first=pct(data[0, 1], 0),
                                                                         start=half_turn(data[0, 0]))
            self.text.show(
                sentence,
                table_html(_("Chance that the Union wins the war"),
                           [_("When"), _("Union wins the war"), _("lowest"), _("highest")],
                           [[half_turn(r[0]), pct(r[1], 0), pct(r[2], 0), pct(r[3], 0)] for r in data]))


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
        self.text = ChartText()
        self.widget = w.VBox([self.figure, self.legend, self.text.widget])
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
        self.text.relabel()
        self._redraw()

    def _redraw(self, change=None) -> None:
        points = self.session.army_history
        with _synced(self.figure, self.union, self.confederate, self.threshold):
            if not points:
                for line in (self.union, self.confederate, self.threshold):
                    line.x, line.y = [], []
                self.text.show(_("Army maxima: none yet."), "")
                return
            data = np.array(points, dtype=float)
            self.union.x, self.union.y = data[:, 0], data[:, 1]
            self.confederate.x, self.confederate.y = data[:, 0], data[:, 2]
            self.threshold.x, self.threshold.y = data[:, 0], data[:, 1] + 1
            x, union, confederate = points[-1][0], int(points[-1][1]), int(points[-1][2])
            self.text.show(
                _("Army maxima at {when}: Union {union}, Confederate {confederate}; the Confederacy wins at "
                  "{threshold} or above (11.b).").format(when=half_turn(x), union=num(union),
                                                        confederate=num(confederate), threshold=num(union + 1)),
                table_html(_("Army maxima"), [_("When"), side_word("union"), side_word("confederate"),
                                              _("Confederacy wins at or above (11.b)")],
                           [[half_turn(r[0]), num(int(r[1])), num(int(r[2])), num(int(r[1]) + 1)] for r in points]))


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
