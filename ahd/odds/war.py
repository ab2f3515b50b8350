"""Odds of the war: the live model of the chance that the Union wins the game from a position.

Two modes (``ahd.war_odds``; this module is the live one, ``ahd.analysis.war_odds`` adds the deep one):

- ``"live"``: a logistic model of a few features of the position (army maxima, units on the map,
  victory cities held, capitals, turns left to the deciding turn). Its coefficients are in
  ``ahd/data/war_odds.json``, fitted on simulated games by ``scripts/fit_war_odds.py`` (seeded; the
  script prints the calibration on held-out games). Microseconds to milliseconds per call. The
  uncertainty given is the standard error of the model's prediction (from the fit's covariance), so
  it says how well the data pin the model down, not how wrong the model's form may be.
- ``"deep"``: ``n`` playouts from the position between bots (by default the players the live model
  was fitted on), seeded like ``ahd.simulate`` (playout ``i`` from ``SeedSequence(seed).spawn(n)[i]``,
  so the same whatever the number of workers or the executor), with a ``progress(done, n)`` callback;
  the Union's win rate with its 95% Wilson interval (a draw counts as half a win).

Two models are kept, by how the game is decided: ``campaign`` (the Union must take the seven
cities by turn 40; 1861 and year scenarios played on) and ``scored`` (the short game and year
scenarios scored on the victory table, decided by the difference of the army maxima).
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

import numpy as np

from ..core.board import VICTORY_CITIES
from ..core.calendar import LAST_TURN
from ..core.display import html_table, percent
from ..core.errors import AhdError
from ..core.i18n import Msg, N_, _
from ..core.sides import CHANCE, Side
from ..core.victory import SCORE_TABLE, SHORT_GAME_MARGIN
from .decided import decided
from .pairs import DEFAULT_PAIR, FALLBACK, pair_of

MODES = ("live", "deep")

FEATURES = {
    "campaign": ("bias", "max_diff", "cities", "cities_x_late", "units_diff", "late", "max_diff_x_late",
                 "washington_lost", "richmond_lost", "pool_diff"),
    "scored": ("bias", "margin", "margin_x_close", "units_diff", "units_diff_x_close", "cities", "close"),
}


class WarOddsError(AhdError, ValueError):
    """Bad arguments for the war odds (unknown mode, finished game, bad counts...)."""


@dataclass(frozen=True, slots=True)
class WarOdds:
    """The Union's chance to win, with its uncertainty.

    ``p_union``: probability; ``stderr``: its standard error; ``low``/``high``: a 95% interval;
    ``mode``: ``"live"`` or ``"deep"``; ``model``: which live model (``campaign``/``scored``) or
    the playout bots; ``n``: playouts (deep) or training games of the model (live).
    """

    p_union: float
    stderr: float
    low: float
    high: float
    mode: str
    model: str
    n: int
    wins: float = 0.0  # deep: Union wins (draws count half)
    pair: str = ""  # live: the shipped player pair whose fit gave the odds ("normal-hard"; ``ahd.odds.pairs``)

    @property
    def p_confederate(self) -> float:
        return 1.0 - self.p_union

    def summary(self) -> Msg:
        """'Union wins 54.0% (95% interval 48.1%–59.8%; live, campaign model)', as a message."""
        if self.model == "decided":
            return Msg("Union wins {p:.0%}: the rules have already decided it", p=self.p_union)
        how = (Msg("{n} playouts", n=self.n) if self.mode == "deep"
               else Msg("{model} model", model=self.model))
        return Msg("Union wins {p:.1%} (95% interval {low:.1%}–{high:.1%}; {mode}, {how})", p=self.p_union,
                   low=self.low, high=self.high, mode=self.mode, how=how)

    def __str__(self) -> str:
        return self.summary().render()

    def _repr_html_(self) -> str:
        rows = [(_("Union wins"), percent(self.p_union)), (_("Confederacy wins"), percent(self.p_confederate)),
                (_("95% interval (Union)"), f"{percent(self.low)} – {percent(self.high)}"),
                (_("standard error"), percent(self.stderr))]
        how = (_("{n} playouts ({model})") if self.mode == "deep" else
               _("{model} model, {n} training games")).format(n=f"{self.n:,}", model=self.model)
        return html_table(_("War odds"), rows, f"{self.mode}: {how}")


# --------------------------------------------------------------------------- features
def game_kind(scenario, play_on: bool) -> str:
    """``campaign`` or ``scored``: how a game of this scenario is decided."""
    return "scored" if scenario.end == "short" or (scenario.end == "table" and not play_on) else "campaign"


def _deadline_and_threshold(scenario, play_on: bool) -> tuple[int, int]:
    if scenario.end == "short":
        return scenario.last_turn, SHORT_GAME_MARGIN
    if scenario.end == "table" and not play_on:
        return scenario.score_turn, SCORE_TABLE[scenario.score_turn]
    return LAST_TURN, 0


def features(state, scenario, play_on: bool = False) -> tuple[str, np.ndarray]:
    """(kind, feature vector) of a position, in the order of ``FEATURES[kind]``."""
    kind = game_kind(scenario, play_on)
    deadline, threshold = _deadline_and_threshold(scenario, play_on)
    u_max, c_max = state.army_max(Side.UNION), state.army_max(Side.CONFEDERATE)
    u_units, c_units = state.units_on_map(Side.UNION), state.units_on_map(Side.CONFEDERATE)
    cities = sum(1 for b in VICTORY_CITIES if state.control[b] is Side.UNION) / len(VICTORY_CITIES)
    # half-turns left before the deciding turn ends (0 in its Confederate half)
    left = max(0, 2 * (deadline - state.turn) + (1 if state.phasing is Side.UNION else 0))
    span = max(1, 2 * (deadline - scenario.start_turn) + 1)
    units_diff = (u_units - c_units) / 10
    if kind == "campaign":
        late = 1.0 - left / span
        pools = len(state.pool(Side.UNION)) - len(state.pool(Side.CONFEDERATE))
        x = [1.0, (u_max - c_max) / 10, cities, cities * late, units_diff, late, (u_max - c_max) / 10 * late,
             float(state.control["washington"] is not Side.UNION), float(state.control["richmond"] is not Side.CONFEDERATE),
             pools / 10]
    else:
        close = 1.0 / (1.0 + left / 2)
        margin = (u_max - c_max - threshold) / 5
        x = [1.0, margin, margin * close, units_diff, units_diff * close, cities, close]
    return kind, np.asarray(x, dtype=float)


def game_features(game) -> tuple[str, np.ndarray]:
    return features(game.state, game.scenario, game.play_on)


# --------------------------------------------------------------------------- the live model
#: The live model the app shows (fitted on games between the strongest players, ``scripts/fit_war_odds.py``).
MODEL = "war_odds.json"
#: The first fit (games between the heuristic, a noisy heuristic and a random player), kept as the search
#: bot's evaluation of the positions its continuations reach: ``search`` is the player measured with it
#: (README, "Difficulty levels"), so a refit of the app's model does not change it.
SEARCH_MODEL = "war_odds_heuristic.json"


@lru_cache(maxsize=4)
def load_model(name: str = MODEL) -> dict[str, Any]:
    """The fitted coefficients (``ahd/data/war_odds.json``, or another model file there by ``name``)."""
    try:
        text = resources.files("ahd").joinpath(f"data/{name}").read_text(encoding="utf-8")
    except OSError as exc:  # pragma: no cover - a broken installation
        raise WarOddsError(f"the war-odds model file is missing ({exc}); run scripts/fit_war_odds.py") from None
    data = json.loads(text)
    models = {}
    for kind, model in data["models"].items():
        if tuple(model["features"]) != FEATURES[kind]:
            raise WarOddsError(f"ahd/data/{name}: the {kind} model's features {model['features']} do not "
                               f"match this program's {FEATURES[kind]}; run scripts/fit_war_odds.py")
        models[kind] = {"coef": np.asarray(model["coef"], dtype=float),
                        "cov": np.asarray(model["cov"], dtype=float), "games": int(model["games"])}
    return models


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def model_logit(kind: str, x: np.ndarray, name: str = MODEL) -> tuple[float, float]:
    """(z, its standard error) of the live model (or the model file ``name``) for a feature vector: the logit of
    its odds before any pair's adjustment, and how well the fit pins it down (from the fit's covariance)."""
    model = load_model(name)[kind]
    return float(x @ model["coef"]), math.sqrt(max(float(x @ model["cov"] @ x), 0.0))


def predict(kind: str, x: np.ndarray, name: str = MODEL, shift: float = 0.0,
            scale: float = 1.0) -> tuple[float, float, float, float]:
    """(p, stderr, low, high) of the live model (or the model file ``name``) for a feature vector; its logit
    is multiplied by ``scale`` (a pair's slope) and ``shift`` added (a pair's offset in a scenario)."""
    z, sz = model_logit(kind, x, name)
    z, sz = scale * z + shift, abs(scale) * sz
    p = _sigmoid(z)
    return p, p * (1 - p) * sz, _sigmoid(z - 1.96 * sz), _sigmoid(z + 1.96 * sz)


def live_value(state, scenario, play_on: bool = False, name: str = MODEL) -> float:
    """The live model's (or model file ``name``'s) Union win chance for a bare state (the search bot's
    leaves use ``SEARCH_MODEL``)."""
    kind, x = features(state, scenario, play_on)
    return predict(kind, x, name)[0]


def finished(game) -> WarOdds:
    winner = game.outcome.winner
    p = 1.0 if winner is Side.UNION else 0.0 if winner is Side.CONFEDERATE else 0.5
    return WarOdds(p, 0.0, p, p, "final", "outcome", 0, p)


@lru_cache(maxsize=16)
def scenario_adjustments(name: str = MODEL, pair: str = DEFAULT_PAIR) -> dict[str, dict[str, Any]]:
    """Per built-in scenario, for the player pair ``pair`` (``scripts/war_odds_calibration.py fit``):
    ``offset``, added to the model's logit (what the hard v hard fit misses of the scenario's balance
    between these players), ``slope``, by which the logit is multiplied first (1 if absent: how far the
    position model's swings carry for these players; below 1 where they decide less than the model says),
    and ``prior``, the pair's Union result in its fit games ((wins + 1) / (games + 2)), the odds at the scenario's
    start. Since stop 55 a fit is a recalibration anchored at the prior: ``form`` (of ``RECAL_FORMS``) and its
    ``coef``, and nothing else (``recalibrated``; docs/bots/war_odds_blocks_stop55.txt), fitted by least squares on
    the odds since stop 56 (docs/bots/war_odds_blocks_stop56.txt). Before, the odds leaned
    on the prior as the time left falls (all of it at the scenario's start, ``hold`` of it at its end: ``blend_weight``);
    ``hold``, the share of the prior kept to the end (0 if absent: the lean is then the time left alone; fitted
    with the offset where the position model tells these players' games apart less well); ``shape``, the power
    of the time left in that lean (1 if absent; below 1 the odds keep to the prior longer and turn to the
    position later: stop 53, docs/bots/war_odds_cv_stop53.txt); ``games``, how many.
    Empty for a model file without them."""
    data = json.loads(resources.files("ahd").joinpath(f"data/{name}").read_text(encoding="utf-8"))
    by = data.get("pairs", {}).get(pair, {}).get("by_scenario")
    if by is None and pair == DEFAULT_PAIR:  # a model file from before pairs
        by = data.get("scenarios", {}).get("by_scenario", {})
    keys = ("offset", "slope", "prior", "hold", "shape", "games")
    out = {}
    for k, v in (by or {}).items():
        out[k] = {key: float(v[key]) for key in keys if key in v}
        if "coef" in v:  # a recalibrated fit (RECAL_FORMS)
            if v.get("form") not in RECAL_FORMS or len(v["coef"]) != len(RECAL_FORMS[v["form"]]):
                raise WarOddsError(f"ahd/data/{name}: the {pair} fit of {k} has form {v.get('form')!r} with "
                                   f"{len(v['coef'])} coefficients; this program knows {RECAL_FORMS}")
            out[k] |= {"form": v["form"], "coef": tuple(float(c) for c in v["coef"])}
    return out


def fitted_pair(pair: str, scenario: str) -> str:
    """The pair whose fit the odds use in ``scenario``: ``pair`` if it has one there, else the first of
    ``FALLBACK`` that has (a pair the machine had no time to measure in a scenario; the note and the
    docs say which)."""
    for candidate in (pair, *FALLBACK):
        if scenario in scenario_adjustments(pair=candidate):
            return candidate
    return pair


def heldout(pair: str, scenario: str, name: str = MODEL) -> dict[str, float]:
    """The held-out figures of a pair in a scenario (``scripts/war_odds_calibration.py report --store``):
    ``games``, ``brier``, ``base_brier`` (always answering the fit games' Union result), ``base_rate``,
    ``union`` (the Union's result in those games); empty if none are stored."""
    data = json.loads(resources.files("ahd").joinpath(f"data/{name}").read_text(encoding="utf-8"))
    entry = data.get("pairs", {}).get(pair, {}).get("by_scenario", {}).get(scenario, {})
    return {k: float(v) for k, v in entry.get("heldout", {}).items()}


def time_left(state, scenario, play_on: bool = False) -> float:
    """The share of the game's half-turns still to play before its deciding turn ends (1 at the start)."""
    deadline, _ = _deadline_and_threshold(scenario, play_on)
    left = max(0, 2 * (deadline - state.turn) + (1 if state.phasing is Side.UNION else 0))
    return min(1.0, left / max(1, 2 * (deadline - scenario.start_turn) + 1))


def blend_weight(left: float, hold: float = 0.0, shape: float = 1.0) -> float:
    """How much the odds lean on the pair's prior with the share ``left`` of the game still to play: all of
    it at the start, falling with the time left to the power ``shape`` to ``hold`` at the deciding turn (a
    shape below 1 keeps to the prior longer and leaves it later and faster)."""
    return hold + (1.0 - hold) * left ** shape


def lean_on_prior(p, prior, left, hold: float = 0.0, shape: float = 1.0):
    """The odds ``p`` leaning on the pair's ``prior`` by ``blend_weight(left, hold, shape)``, as ``war_odds``
    gives them (numbers or numpy arrays alike: the calibration scripts fit and score with this very function)."""
    lean = blend_weight(left, hold, shape)
    return (1 - lean) * p + lean * prior


def logit(p):
    """The logit of the model's odds ``p``, clipped at 1e-6 from 0 and 1 (numbers or numpy arrays)."""
    p = np.asarray(p, dtype=float)
    return np.log(np.maximum(p, 1e-6) / np.maximum(1 - p, 1e-6))


def adjusted(z, offset=0.0, slope=1.0):
    """The odds of the model's logit ``z`` times a pair's ``slope`` plus its ``offset`` (as ``predict``
    gives them; numbers or numpy arrays, broadcast)."""
    return 1 / (1 + np.exp(-(slope * z + offset)))


#: The recalibrations a pair's fit may take (stop 55, docs/bots/war_odds_blocks_stop55.txt): the logit of the odds
#: is the pair's prior's plus these terms times the fitted ``coef``, with ``t`` the share of the game played
#: (1 - ``time_left``), ``s`` its square root and ``z`` the position model's logit, so at a scenario's start the odds
#: are the prior and the position's weight grows with the game (``scripts/war_odds_calibration.py fit``).
RECAL_FORMS = {"anchor": ("t", "zt", "t2", "zt2"), "anchor_sqrt": ("s", "zs", "t", "zt")}


def recal_columns(z, t, terms):
    """The columns ``terms`` of a recalibration (``RECAL_FORMS``; also a constant ``1`` and ``z`` for the scripts'
    candidates) at positions of model logit ``z`` and share played ``t`` (numbers or numpy arrays): a matrix with a
    row per position, and (numbers) its one row's columns' derivatives by ``z`` as a second matrix."""
    z, t = np.atleast_1d(np.asarray(z, dtype=float)), np.atleast_1d(np.asarray(t, dtype=float))
    s = np.sqrt(np.maximum(t, 0.0))
    one = np.ones_like(z * t)
    value = {"1": one, "z": z * one, "t": t * one, "zt": z * t, "t2": t * t * one, "zt2": z * t * t, "s": s * one,
             "zs": z * s}
    slope = {"1": 0 * one, "z": one, "t": 0 * one, "zt": t * one, "t2": 0 * one, "zt2": t * t * one, "s": 0 * one,
             "zs": s * one}
    return (np.column_stack([value[term] for term in terms]), np.column_stack([slope[term] for term in terms]))


def recalibrated(z, t, prior, form: str, coef):
    """The odds of a recalibrated fit (``RECAL_FORMS``) at model logit ``z`` and share played ``t`` (numbers or
    numpy arrays): the logit of ``prior`` plus the form's terms times ``coef``."""
    columns, _ = recal_columns(z, t, RECAL_FORMS[form])
    return adjusted(columns @ np.asarray(coef, dtype=float), logit(prior))


def _recal_odds(kind: str, x: np.ndarray, left: float, adjust: dict) -> tuple[float, float, float, float]:
    """(p, stderr, low, high) of a pair's recalibrated fit: the uncertainty of the model's logit carried through
    the form, and that of the prior (its games), on the logit scale."""
    z, sz = model_logit(kind, x)
    prior, games = adjust["prior"], adjust.get("games", 0)
    columns, slopes = recal_columns(z, 1.0 - left, RECAL_FORMS[adjust["form"]])
    coef = np.asarray(adjust["coef"], dtype=float)
    eta = float(logit(prior)) + float(columns[0] @ coef)
    se = math.sqrt((float(slopes[0] @ coef) * sz) ** 2 + 1.0 / max((games + 2) * prior * (1 - prior), 1e-9))
    p = _sigmoid(eta)
    return p, p * (1 - p) * se, _sigmoid(eta - 1.96 * se), _sigmoid(eta + 1.96 * se)


def war_odds(game, mode: str = "live", offsets: bool = True, *, union: str | None = None,
             confederate: str | None = None) -> WarOdds:
    """The live model's chance that the Union wins ``game`` from its current position, if the Union plays
    on as ``union`` and the Confederacy as ``confederate`` do (player names of the app's menus: ``human``,
    ``easy``, ``normal``, ``hard``, ``random``, ``heuristic``, ``search``; not given: ``hard``). The players
    pick the shipped pair whose fit is used (``ahd.odds.pairs``: a person is modelled as ``normal``).

    Where the rules have already decided the game (``ahd.odds.decided``: turn 40 ending without the
    seven cities, cities out of reach in the turns left, a short game or scenario score the Union can no
    longer reach) the answer is exactly 0 (model ``decided``; never 1 before the end: see that module).
    Otherwise the fitted model, with the pair's fit in the scenario (``scenario_adjustments``: since stop 55 the
    model's logit recalibrated from the pair's measured result, ``recalibrated``; ``offsets=False``: the model
    alone, as the fits take it).

    The deep estimate (playouts between computer players) is ``ahd.war_odds(game, "deep", ...)``:
    it needs the computer players, a layer above the odds. A finished game gives its result
    (1, 0 or ½ for a draw) with no uncertainty.
    """
    if mode == "deep":
        raise WarOddsError("deep war odds play the game out between computer players: "
                           "use ahd.war_odds(game, 'deep', ...) (ahd.analysis.war_odds)")
    if mode != "live":
        raise WarOddsError(f"unknown mode {mode!r}: choose 'live' (a fitted model, fast) or 'deep' (playouts)")
    if not hasattr(game, "state") or not hasattr(game, "scenario"):
        raise WarOddsError(f"war_odds needs a Game (ahd.new_game(...)), got {type(game).__name__}")
    try:
        pair = pair_of(union, confederate)
    except ValueError as exc:
        raise WarOddsError(str(exc)) from None
    if game.is_over:
        return finished(game)
    known = decided(game.state, game.scenario, game.play_on)
    if known is not None:
        return WarOdds(known, 0.0, known, known, "live", "decided", 0, known, pair)
    kind, x = game_features(game)
    adjust = {}
    if offsets and game.scenario.is_built_in:
        pair = fitted_pair(pair, game.scenario.id)
        adjust = scenario_adjustments(pair=pair).get(game.scenario.id, {})
    if "coef" in adjust:  # a recalibrated fit (stop 55)
        p, se, low, high = _recal_odds(kind, x, time_left(game.state, game.scenario, game.play_on), adjust)
        return WarOdds(p, se, low, high, "live", kind, load_model()[kind]["games"], pair=pair)
    p, se, low, high = predict(kind, x, shift=adjust.get("offset", 0.0), scale=adjust.get("slope", 1.0))
    if "prior" in adjust:
        left, hold = time_left(game.state, game.scenario, game.play_on), adjust.get("hold", 0.0)
        prior, shape = adjust["prior"], adjust.get("shape", 1.0)
        prior_se = math.sqrt(prior * (1 - prior) / (adjust.get("games", 0) + 2))  # the prior's own uncertainty
        prior_low, prior_high = max(0.0, prior - 1.96 * prior_se), min(1.0, prior + 1.96 * prior_se)
        p, low, high, se = (lean_on_prior(v, w, left, hold, shape) for v, w in
                            ((p, prior), (low, prior_low), (high, prior_high), (se, prior_se)))
    return WarOdds(p, se, low, high, "live", kind, load_model()[kind]["games"], pair=pair)


#: What each player of the fitted games is, by its name: ``scripts/fit_war_odds.py`` writes these in the
#: model file, and they are marked here for the catalogs, so the app's war-odds note says them in its language.
PLAYERS_ABOUT = {
    "heuristic": N_("the heuristic computer player"),
    "noisy": N_("the heuristic player making a random legal move one time in five"),
    "random": N_("a player choosing uniformly among the legal moves"),
    "easy": N_("the 'easy' computer player (the heuristic with shared garrisons)"),
    "normal": N_("the 'normal' computer player (the campaign plan as the Union, the heuristic as the Confederacy)"),
    "hard": N_("the 'hard' computer player, the strongest (campaign plans on both sides: gather, storm with the "
               "odds, guard the capital)"),
}
PLAYER_ABOUT = tuple(PLAYERS_ABOUT.values())


def players(lang: str | None = None) -> list[tuple[str, float, str]]:
    """Who played the games the live model was fitted on: (player, share of the sides played, what it is,
    said in ``lang``, default the current language), from ``ahd/data/war_odds.json`` (empty for a model
    file written before it said so)."""
    text = resources.files("ahd").joinpath("data/war_odds.json").read_text(encoding="utf-8")
    return [(p["player"], float(p["share"]), _(_about(p), lang) if p.get("about") else "")
            for p in json.loads(text).get("players", [])]


@dataclass(frozen=True, slots=True)
class Calibration:
    """How the live model did on held-out simulated games (written by scripts/fit_war_odds.py).

    ``positions``: training positions; ``reliability``: rows over the held-out positions (bin low,
    bin high, positions, mean predicted, observed Union wins).
    """

    kind: str
    games: int
    heldout_games: int
    positions: int
    brier: float
    base_rate: float
    base_rate_brier: float
    reliability: tuple[tuple[float, float, int, float, float], ...]

    @property
    def skill(self) -> float:
        """Brier skill score: 1 − Brier / base-rate Brier (0 = no better than the base rate)."""
        return 1.0 - self.brier / self.base_rate_brier


def calibration() -> dict[str, Calibration]:
    """The stored held-out calibration of each live model (``campaign``, ``scored``)."""
    text = resources.files("ahd").joinpath("data/war_odds.json").read_text(encoding="utf-8")
    result = {}
    for kind, model in json.loads(text)["models"].items():
        result[kind] = Calibration(kind, int(model["games"]), int(model["heldout_games"]), int(model["positions"]),
                                   float(model["heldout_brier"]), float(model["base_rate"]),
                                   float(model["base_rate_brier"]),
                                   tuple(tuple(row) for row in model["reliability"]))
    return result


def _about(player: dict) -> str:
    """A player's description as the model file gives it (marked ``N_`` in ``PLAYER_ABOUT``)."""
    return player["about"]
