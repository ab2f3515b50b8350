"""What a battle under evaluation is, for the exact odds (:mod:`ahd.odds.exact`) and the simulated ones
(:mod:`ahd.odds.montecarlo`) alike: the sides, the units (``Fighter``: type, reduced, entrenched, crossing)
and their packed codes, the inputs checked, the result (``BattleOdds``), the retreat and leader policies,
and the rules whose effect on a battle only the simulation models (``SIMULATED``).

Split from ``ahd/odds/exact.py`` (issue 30: no module over 500 lines); ``from ahd.odds.exact import ...``
of these names still works.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..core.display import html_table, percent
from ..core.i18n import Msg, N_, _
from ..core.options import Options
from ..core.units import UNIT_TYPES, UnitType, parse_type

ATTACKER, DEFENDER = "attacker", "defender"
DEFAULT_MAX_STATES = 200_000


class OddsError(ValueError):
    """Bad arguments for the odds, or a battle too large for the exact method."""


@dataclass(frozen=True, slots=True, order=True)
class Fighter:
    """A unit in a battle being evaluated: type code, reduced?, entrenched?, crossing (5.2.3)?"""

    code: str
    reduced: bool = False
    entrenched: bool = False
    crossing: bool = False

    @classmethod
    def parse(cls, spec: "Fighter | str | dict") -> "Fighter":
        """``"FV"``, ``"FV:reduced"``, ``"MF:entrenched"``, ``"FS:crossing:reduced"`` or a dict."""
        if isinstance(spec, Fighter):
            return spec
        if isinstance(spec, dict):
            flags = {k for k in ("reduced", "entrenched", "crossing") if spec.get(k)}
            code = str(spec.get("type", spec.get("code", "")))
        elif isinstance(spec, str):
            code, *rest = spec.strip().split(":")
            flags = {r.strip().lower() for r in rest}
            unknown = flags - {"reduced", "entrenched", "crossing"}
            if unknown:
                raise OddsError(f"unknown unit flag(s) {sorted(unknown)} in {spec!r}: use reduced, entrenched, crossing")
        else:
            raise OddsError(f"not a unit: {spec!r}")
        try:
            code = parse_type(code).code
        except ValueError as exc:
            raise OddsError(str(exc)) from None
        return cls(code, "reduced" in flags, "entrenched" in flags, "crossing" in flags)

    @property
    def type(self) -> UnitType:
        return UNIT_TYPES[self.code]

    def __str__(self) -> str:
        flags = [f for f in ("reduced", "entrenched", "crossing") if getattr(self, f)]
        return ":".join([self.code] + flags)


_CODES = tuple(UNIT_TYPES)  # index -> type code
_REDUCED, _ENTRENCHED, _CROSSING = 4, 2, 1


def _encode(f: Fighter) -> int:
    return _CODES.index(f.code) * 8 + _REDUCED * f.reduced + _ENTRENCHED * f.entrenched + _CROSSING * f.crossing


def _decode(n: int) -> Fighter:
    return Fighter(_CODES[n >> 3], bool(n & _REDUCED), bool(n & _ENTRENCHED), bool(n & _CROSSING))


#: The survivors' row of an odds table, by side.
SURVIVORS = {ATTACKER: N_("expected attacker survivors"), DEFENDER: N_("expected defender survivors")}


@dataclass(slots=True)
class BattleOdds:
    """The result: probabilities of each end, survivors, expected rounds."""

    attacker_wins: float
    defender_wins: float
    neither: float
    expected_rounds: float
    survivors: dict[str, dict[tuple[Fighter, ...], float]] = field(default_factory=dict)
    states: int = 0
    method: str = "exact"

    def survival(self, side: str) -> dict[str, float]:
        """Expected number of surviving units of each type for ``side``."""
        out: dict[str, float] = defaultdict(float)
        for units, p in self.survivors[side].items():
            for u in units:
                out[u.code] += p
        return dict(out)

    def expected_survivors(self, side: str) -> float:
        return sum(len(units) * p for units, p in self.survivors[side].items())

    def summary(self) -> Msg:
        """'attacker wins 41.2%, defender wins 52.0%, neither 6.8%; expected rounds 3.10', as a message."""
        return Msg("attacker wins {attacker:.1%}, defender wins {defender:.1%}, neither {neither:.1%}; "
                   "expected rounds {rounds:.2f}", attacker=self.attacker_wins, defender=self.defender_wins,
                   neither=self.neither, rounds=self.expected_rounds)

    def __str__(self) -> str:
        return self.summary().render()

    def __repr__(self) -> str:  # the survivor distributions can be large: left out
        return (f"BattleOdds(attacker_wins={self.attacker_wins:.4f}, defender_wins={self.defender_wins:.4f}, "
                f"neither={self.neither:.4f}, expected_rounds={self.expected_rounds:.2f}, method={self.method!r}, "
                f"states={self.states})")

    def _repr_html_(self) -> str:
        rows = [(_("attacker wins"), percent(self.attacker_wins)), (_("defender wins"), percent(self.defender_wins)),
                (_("neither"), percent(self.neither)), (_("expected rounds"), f"{self.expected_rounds:.2f}")]
        rows += [(_(SURVIVORS[side]), f"{self.expected_survivors(side):.2f}")
                 for side in (ATTACKER, DEFENDER) if side in self.survivors]
        return html_table(_("Battle odds"), rows, _("{method}, {states} states").format(method=self.method,
                                                                                       states=self.states))


# --------------------------------------------------------------------------- policies
def _never(own: int, enemy: int, rnd: int) -> bool:
    return False


def leader_points(attacker_leaders, defender_leaders) -> dict[str, int]:
    """The leader points per firing moment of each side (AO-8.2.2), checked."""
    points = {ATTACKER: attacker_leaders, DEFENDER: defender_leaders}
    for side, value in points.items():
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 12:
            raise OddsError(f"{side}_leaders is the summed value of that side's leaders present, "
                            f"a whole number from 0 to 12; got {value!r}")
    return points


def _retreat_policy(policy) -> Callable[[int, int, int], bool]:
    if policy in (None, "never", "fight to the end"):
        return _never
    if policy == "outnumbered":
        return lambda own, enemy, rnd: rnd >= 2 and enemy >= 2 * own
    if callable(policy):
        return policy
    raise OddsError(f"unknown retreat policy {policy!r}: 'never', 'outnumbered' or a callable")


_TYPE_VALUE = tuple(UNIT_TYPES[c].value for c in _CODES)
_CRACK = tuple(UNIT_TYPES[c].is_crack_infantry for c in _CODES)


def _expand(units, side: str) -> list:
    """A list of units, or a mapping unit -> count (e.g. ``{"MF": 3, "FV:entrenched": 1}``)."""
    if isinstance(units, (str, bytes)):
        raise OddsError(f"the {side} must be a list of units, e.g. ['FV', 'MF:entrenched'], not the string {units!r}")
    if isinstance(units, dict) and not ({"type", "code"} & set(units)):
        out = []
        for spec, count in units.items():
            if isinstance(count, bool) or not isinstance(count, int):
                raise OddsError(f"the {side}'s count of {spec!r} must be an integer, got {count!r}")
            if count < 0:
                raise OddsError(f"the {side}'s count of {spec!r} is negative ({count})")
            out += [spec] * count
        return out
    try:
        return list(units)
    except TypeError:
        raise OddsError(f"the {side} must be a list of units, e.g. ['FV', 'MF:entrenched']") from None


def _fighters(units: Iterable, side: str) -> tuple[Fighter, ...]:
    try:
        fighters = tuple(sorted(Fighter.parse(u) for u in _expand(units, side)))
    except TypeError:
        raise OddsError(f"the {side} must be a list of units, e.g. ['FV', 'MF:entrenched']") from None
    for f in fighters:  # states no battle can reach (5.2.1, 5.2.3)
        if side == "attacker" and f.entrenched:
            raise OddsError(f"impossible battle: an attacking unit is never entrenched ({f})")
        if side == "defender" and f.crossing:
            raise OddsError(f"impossible battle: only attackers cross a river or come by sea ({f})")
    return fighters


# --------------------------------------------------------------------------- rules left to the simulation
#: Switches whose effect on a battle only the simulation models (the exact chain's states would need
#: each day's commands and every unit's rout): with one on, ``odds`` and ``odds_for`` simulate.
SIMULATED = {"A-7": N_("daily command limits"), "AO-8.1": N_("battlefield morale")}


def not_modelled(options, method: str = "exact") -> list[str]:
    """The rules in force whose effect on battles odds by ``method`` leave out: for the exact chain the
    ``SIMULATED`` ones (e.g. ``["AO-8.1 battlefield morale"]``, said in the current language), for the
    simulation none."""
    options = Options.parse(options)
    if method != "exact":
        return []
    return [f"{rule} {_(what)}" for rule, what in SIMULATED.items() if rule in options]
