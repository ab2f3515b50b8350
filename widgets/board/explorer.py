"""Battle odds explorer: pick two forces and the modifiers, see the exact odds (``ahd.odds``) as charts.

    from widgets.board.explorer import BattleExplorer
    explorer = BattleExplorer()
    explorer.set_forces(["FV", "FV", "MF"], ["FV", "MF"], defender_entrenched=True)
    explorer                      # in a notebook: the controls and two bqplot charts
    explorer.odds                 # the ahd.odds.BattleOdds shown

Every unit of a side shares the side's flags: the attacker may be crossing a river (5.2.3), the
defender may be entrenched (5.2.1). Counts are per type, full strength and reduced (5.1.c). Battles
too large for the exact method (over ``max_states`` chain states) are estimated by simulation
(``ahd.odds.simulate_battles``), which gives no survivor distribution.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable, Sequence

import bqplot as bq
import ipywidgets as w
import numpy as np

from ahd.odds import ATTACKER, DEFENDER, BattleOdds, Fighter, OddsError, SimulatedOdds, battle_odds, simulate_battles
from ahd.core.options import SWITCHES, Options
from ahd.core.units import UNIT_TYPES

from ahd.core.i18n import Term, render

from widgets.board.charts import ATTACKER_COLOUR, DEFENDER_COLOUR, NEITHER_COLOUR, PERCENT_TICKS, legend_html
from widgets.model.i18n import N_, _, num, pct

#: The switches a battle reads (H-1 only concerns reinforcements, which the explorer has none of). H-2
#: matters only for an effective value of 6 or more, which takes leader points (AO-8.2.2): without them
#: the best shot is a value-3 unit at a crossing attacker, 4.
BATTLE_OPTIONS = ("H-2", "O-2.2")
MAX_PER_FIELD = 8
ROUNDS = {"1": 1, "2": 2, "3 or later": 3}    # the round classes (keys are what ``round.value`` holds)
RETREATS = ("never", "outnumbered")
#: The words the dropdowns show for their values (values stay as ``battle_odds`` reads them).
LABELS = {"3 or later": N_("3 or later"), "never": N_("never"), "outnumbered": N_("outnumbered"),
          ATTACKER: N_("attacker"), DEFENDER: N_("defender")}


def _options(values) -> list[tuple[str, str]]:
    """(label in the current language, value) pairs for a dropdown."""
    return [(_(LABELS.get(value, value)), value) for value in values]
SIMULATED_BATTLES = 5_000


def _counts_box(side: str) -> tuple[dict[tuple[str, bool], w.BoundedIntText], w.GridBox]:
    fields = {}
    cells: list[w.Widget] = [w.HTML(f"<b>{_('type')}</b>"), w.HTML(f"<b>{_('full')}</b>"),
                             w.HTML(f"<b>{_('reduced')}</b>")]
    for code, unit_type in UNIT_TYPES.items():
        name = render(Term("unit", unit_type.name))
        cells.append(w.HTML(f"{code} <span style='color:#666'>{name} ({unit_type.value})</span>"))
        for reduced in (False, True):
            field = w.BoundedIntText(value=0, min=0, max=MAX_PER_FIELD, layout=w.Layout(width="60px"),
                                     tooltip=f"{_(LABELS[side])} {code} {_('reduced') if reduced else _('full')}")
            fields[(code, reduced)] = field
            cells.append(field)
    grid = w.GridBox(cells, layout=w.Layout(grid_template_columns="auto 70px 70px", grid_gap="2px 6px"))
    return fields, grid


class BattleExplorer(w.VBox):
    """Controls for two forces and the modifiers, a win/lose bar chart and the survivor distribution.

    ``odds`` is the last result (a ``BattleOdds``, a ``SimulatedOdds`` for a battle too large, or None
    when the forces are incomplete); ``message`` explains what is shown.
    """

    def __init__(self, attacker: Sequence = ("FV", "FV"), defender: Sequence = ("FV",), *,
                 max_states: int = 4_000) -> None:
        self.max_states = max_states
        self.odds: BattleOdds | SimulatedOdds | None = None
        self._holding = False
        self.attacker_fields, attacker_grid = _counts_box(ATTACKER)
        self.defender_fields, defender_grid = _counts_box(DEFENDER)
        self.crossing = w.Checkbox(value=False, description=_("crossing a river (5.2.3)"), indent=False)
        self.entrenched = w.Checkbox(value=False, description=_("entrenched (5.2.1)"), indent=False)
        self.attacker_retreat = w.Dropdown(options=_options(RETREATS), value="never", description=_("retreat"),
                                           layout=w.Layout(width="220px"))
        self.defender_retreat = w.Dropdown(options=_options(RETREATS), value="never", description=_("retreat"),
                                           layout=w.Layout(width="220px"))
        self.round = w.Dropdown(options=_options(ROUNDS), value="1", description=_("round"),
                                layout=w.Layout(width="180px"))
        self.firing = w.Dropdown(options=_options([DEFENDER, ATTACKER]), value=DEFENDER, description=_("fires next"),
                                 layout=w.Layout(width="220px"))
        self.option_boxes = {rule: w.Checkbox(value=SWITCHES[rule].default, indent=False,
                                              description=f"{rule} {SWITCHES[rule].title_in()}")
                             for rule in BATTLE_OPTIONS}
        self.message = w.HTML()

        x = bq.OrdinalScale()
        y = bq.LinearScale(min=0.0, max=1.0, allow_padding=False)
        self.win_bars = bq.Bars(x=[_("Attacker wins"), _("Defender wins"), _("Neither")], y=[0.0, 0.0, 0.0],
                                scales={"x": x, "y": y}, color_mode="element",
                                colors=[ATTACKER_COLOUR, DEFENDER_COLOUR, NEITHER_COLOUR],
                                label_display=True, label_display_format=".1%")
        self.win_figure = bq.Figure(marks=[self.win_bars], title=_("Who wins"),
                                    axes=[bq.Axis(scale=x), bq.Axis(scale=y, side="left",
                                                                    tick_format=".0%", tick_values=PERCENT_TICKS)],
                                    fig_margin=dict(top=40, bottom=40, left=55, right=15),
                                    layout=w.Layout(width="100%", height="260px"))
        sx = bq.OrdinalScale()
        sy = bq.LinearScale(min=0.0, max=1.0, allow_padding=False)
        self.survivor_bars = bq.Bars(x=[0], y=[[0.0], [0.0]], scales={"x": sx, "y": sy}, type="grouped",
                                     colors=[ATTACKER_COLOUR, DEFENDER_COLOUR], labels=[_("attacker"), _("defender")],
)
        self.survivor_figure = bq.Figure(
            marks=[self.survivor_bars], title=_("Units left at the end"),
            axes=[bq.Axis(scale=sx, label=_("units left (any strength)")),
                  bq.Axis(scale=sy, side="left", tick_format=".0%", tick_values=PERCENT_TICKS)],
            fig_margin=dict(top=40, bottom=45, left=55, right=15),
            layout=w.Layout(width="100%", height="260px"))

        for widget in self._controls():
            widget.observe(self._changed, names="value")
        attacker_box = w.VBox([w.HTML(f"<h4>{_('Attacker')}</h4>"), attacker_grid, self.crossing,
                               self.attacker_retreat])
        defender_box = w.VBox([w.HTML(f"<h4>{_('Defender')}</h4>"), defender_grid, self.entrenched,
                               self.defender_retreat])
        battle_box = w.VBox([w.HTML(f"<h4>{_('Battle')}</h4>"), self.round, self.firing,
                             *self.option_boxes.values()])
        charts = w.HBox([w.Box([self.win_figure], layout=w.Layout(width="50%")),
                         w.VBox([self.survivor_figure,  # the legend under the plot, where it hides no bar
                                 w.HTML(legend_html([(_("attacker"), ATTACKER_COLOUR, "box"),
                                                     (_("defender"), DEFENDER_COLOUR, "box")]))],
                                layout=w.Layout(width="50%"))])
        super().__init__([w.HBox([attacker_box, defender_box, battle_box]), self.message, charts])
        self.set_forces(attacker, defender)

    # ------------------------------------------------------------------ public
    def set_forces(self, attacker: Iterable, defender: Iterable, *, crossing: bool | None = None,
                   defender_entrenched: bool | None = None) -> None:
        """Set both forces from unit specs (``"FV"``, ``"MF:reduced"``, ``Fighter``) and recompute once.

        The attacker's ``crossing`` and the defender's ``entrenched`` flags are side-wide: given in
        the specs, they must be the same for every unit of the side (else ValueError); keyword
        arguments override them. Other flags are refused (attackers are never entrenched, 4.2.5;
        defenders never cross)."""
        att = [Fighter.parse(u) for u in attacker]
        dfn = [Fighter.parse(u) for u in defender]
        if any(f.entrenched for f in att):
            raise ValueError("an attacker is never entrenched in the battle box")
        if any(f.crossing for f in dfn):
            raise ValueError("only attackers cross a river (5.2.3)")
        att_crossing = self._uniform(att, "crossing", "attacker") if crossing is None else crossing
        dfn_entrenched = (self._uniform(dfn, "entrenched", "defender") if defender_entrenched is None
                          else defender_entrenched)
        counts = [Counter((f.code, f.reduced) for f in units) for units in (att, dfn)]
        for count in counts:
            for (code, reduced), n in count.items():
                if n > MAX_PER_FIELD:
                    raise ValueError(f"at most {MAX_PER_FIELD} {'reduced' if reduced else 'full'} {code} per side")
        with self.hold():
            for fields, count in zip((self.attacker_fields, self.defender_fields), counts):
                for key, field in fields.items():
                    field.value = count[key]
            self.crossing.value = bool(att_crossing)
            self.entrenched.value = bool(dfn_entrenched)

    def set_battle(self, *, round: int | None = None, firing: str | None = None, options: Iterable[str] | None = None,
                   attacker_retreat: str | None = None, defender_retreat: str | None = None) -> None:
        """Set where the battle stands, the battle options on (the others off) and the retreat policies."""
        with self.hold():
            if round is not None:
                self.round.value = next(label for label, r in ROUNDS.items() if r == min(round, 3))
            if firing is not None:
                self.firing.value = firing
            if options is not None:
                on = set(options)
                unknown = on - set(BATTLE_OPTIONS)
                if unknown:
                    raise ValueError(f"the explorer's options are {', '.join(BATTLE_OPTIONS)}, not {sorted(unknown)}")
                for rule, box in self.option_boxes.items():
                    box.value = rule in on
            if attacker_retreat is not None:
                self.attacker_retreat.value = attacker_retreat
            if defender_retreat is not None:
                self.defender_retreat.value = defender_retreat

    def attacker_units(self) -> list[str]:
        return self._units(self.attacker_fields, "crossing" if self.crossing.value else "")

    def defender_units(self) -> list[str]:
        return self._units(self.defender_fields, "entrenched" if self.entrenched.value else "")

    def options(self) -> Options:
        """The options the odds are computed under: the defaults, with the battle options as ticked."""
        opts = Options.default()
        for rule, box in self.option_boxes.items():
            opts = opts.with_rule(rule, box.value)
        return opts

    def arguments(self) -> dict:
        """The keyword arguments given to ``battle_odds`` for the current controls."""
        return dict(attacker=self.attacker_units(), defender=self.defender_units(), round=ROUNDS[self.round.value],
                    firing=self.firing.value, options=self.options(), attacker_retreat=self.attacker_retreat.value,
                    defender_retreat=self.defender_retreat.value)

    def compute(self) -> BattleOdds | SimulatedOdds | None:
        """Recompute the odds and redraw the charts; returns what is shown."""
        args = self.arguments()
        if not args["attacker"] or not args["defender"]:
            self.odds = None
            self._draw(None, _("Give each side at least one unit."))
            return None
        try:
            self.odds = battle_odds(**args, max_states=self.max_states)
            note = _("Exact odds ({states} battle states).").format(states=num(self.odds.states))
        except OddsError:
            self.odds = simulate_battles(**args, n=SIMULATED_BATTLES, seed=0)
            note = _("Too large for the exact method within {states} states: estimated from {battles} "
                     "simulated battles (± {error} at worst); no survivor distribution.").format(
                states=num(self.max_states), battles=num(SIMULATED_BATTLES), error=pct(self.odds.stderr(0.5)))
        self._draw(self.odds, note)
        return self.odds

    def survivor_distribution(self) -> np.ndarray:
        """Rows attacker, defender; column k = P(k units of that side left at the end)."""
        return np.array(self.survivor_bars.y, dtype=float)

    def hold(self):
        """A context in which control changes do not recompute; recomputes once on leaving."""
        explorer = self

        class _Hold:
            def __enter__(self):
                self.outer = explorer._holding
                explorer._holding = True

            def __exit__(self, *exc):
                explorer._holding = self.outer
                if not self.outer and exc[0] is None:
                    explorer.compute()
                return False

        return _Hold()

    # ------------------------------------------------------------------ internals
    def _controls(self) -> list[w.Widget]:
        return [*self.attacker_fields.values(), *self.defender_fields.values(), self.crossing, self.entrenched,
                self.attacker_retreat, self.defender_retreat, self.round, self.firing, *self.option_boxes.values()]

    def _changed(self, change=None) -> None:
        if not self._holding:
            self.compute()

    @staticmethod
    def _uniform(units: list[Fighter], flag: str, side: str) -> bool:
        values = {getattr(f, flag) for f in units}
        if len(values) > 1:
            raise ValueError(f"the explorer sets '{flag}' for the whole {side}: all its units or none")
        return values == {True}

    @staticmethod
    def _units(fields: dict, flag: str) -> list[str]:
        units = []
        for (code, reduced), field in fields.items():
            spec = ":".join([code] + (["reduced"] if reduced else []) + ([flag] if flag else []))
            units.extend([spec] * field.value)
        return units

    def _draw(self, odds, note: str) -> None:
        with self.win_figure.hold_sync(), self.win_bars.hold_sync(), self.survivor_figure.hold_sync(), \
                self.survivor_bars.hold_sync():
            if odds is None:
                self.win_bars.y = [0.0, 0.0, 0.0]
                self.survivor_bars.x, self.survivor_bars.y = [0], [[0.0], [0.0]]
                self.win_figure.title = _("Who wins")
                self.message.value = f"<span style='color:#c62828'>{note}</span>"
                return
            self.win_bars.y = [odds.attacker_wins, odds.defender_wins, odds.neither]
            self.win_figure.title = _("Who wins (expected rounds {rounds})").format(rounds=num(odds.expected_rounds, 2))
            if isinstance(odds, BattleOdds):
                size = max(len(self.attacker_units()), len(self.defender_units()))
                table = np.zeros((2, size + 1))
                for row, side in enumerate((ATTACKER, DEFENDER)):
                    for units, p in odds.survivors[side].items():
                        table[row, len(units)] += p
                self.survivor_bars.x = list(range(size + 1))
                self.survivor_bars.y = table
                survivors = _("Expected units left: attacker {attacker}, defender {defender}.").format(
                    attacker=num(odds.expected_survivors(ATTACKER), 2), defender=num(odds.expected_survivors(DEFENDER), 2))
            else:
                self.survivor_bars.x, self.survivor_bars.y = [0], [[0.0], [0.0]]
                survivors = _("Expected units left: attacker {attacker}, defender {defender}.").format(
                    attacker=num(odds.expected_survivors[ATTACKER], 2), defender=num(odds.expected_survivors[DEFENDER], 2))
            self.message.value = f"<div style='font-size:14px'>{odds}<br>{survivors} {note}</div>"
