"""scripts/war_odds_cv.py scores the war odds' estimators from cached positions with its own formula: it must be the
app's (``ahd.odds.war.war_odds`` with a pair's fitted values), position by position, or its choice would be of
something the app does not show; and the kept games (docs/bots/games/, xz) read as the plain files do."""
from __future__ import annotations

import argparse
import lzma

import pytest

from ahd.odds import war
from ahd.odds.pairs import DEFAULT_PAIR
from script_module import load_script


def test_the_cross_validations_odds_are_the_apps_position_by_position(tmp_path, monkeypatch):
    cv = load_script("war_odds_cv")
    games = tmp_path / "games.jsonl"
    cv.woc.play(argparse.Namespace(scenarios="1862", pairs="easy-normal", games=2, seed=5, save=str(games)))
    packed = tmp_path / "games.jsonl.xz"
    packed.write_bytes(lzma.compress(games.read_bytes()))
    assert cv.woc.load([str(packed)]) == cv.woc.load([str(games)])
    kept = cv.woc.games_of([str(packed)], cache_dir=tmp_path / "cache")
    assert cv.woc.games_of([str(games)], cache_dir=tmp_path / "cache") == kept  # the same games: one cache entry
    assert len(list((tmp_path / "cache").iterdir())) == 1
    rows = cv.woc.load([str(games)])
    prior, params = cv.fit(kept, "slope+hold1")
    assert params[3:] == (0.0, 1.0)  # no late term and the app's lean in the forms the app can show
    anchored = cv.fit(kept, "anchor")[1]
    assert anchored[0] == "anchor" and len(anchored[1]) == 4  # stop 55's form, the app's since
    for fitted in (params, (-0.7, 0.3, 0.6, 0.0, 1.0), (0.4, 0.0, 1.0, 0.0, 1.0), anchored,
                   ("anchor", (0.5, 1.5, -0.4, 0.8)), ("anchor_sqrt", (0.2, 0.9, 0.1, 0.6))):
        if fitted[0] in war.RECAL_FORMS:
            adjust = {"1862": {"prior": prior, "games": 2, "form": fitted[0], "coef": fitted[1]}}
        else:
            offset, hold, slope, _, _ = fitted
            adjust = {"1862": {"offset": offset, "slope": slope, "hold": hold, "prior": prior, "games": 2}}
        monkeypatch.setattr(war, "scenario_adjustments", lambda name=war.MODEL, pair=DEFAULT_PAIR: adjust)
        mine, _, _ = cv.odds(kept, prior, fitted)
        apps = [war.war_odds(game).p_union for row in rows for game in cv.woc.positions(row["record"])
                if not game.is_over]
        assert len(apps) == len(mine) > 10
        assert mine == pytest.approx(apps, abs=1e-9)


def test_stop_46s_rule_picks_the_form_with_more_cells_below_the_base_rate_and_guards_the_others():
    cv = load_script("war_odds_cv")
    scores = {("1861", "hard v hard"): {"base": 0.20, "slope": 0.19, "slope4": 0.18, "prior": 0.199},
              ("1864", "normal v hard"): {"base": 0.02, "slope": 0.019, "slope4": 0.021, "prior": 0.0195},
              ("short", "normal v easy"): {"base": 0.03, "slope": 0.029, "slope4": 0.031, "prior": 0.028}}
    form, guarded = cv.choose(scores)
    assert form == "slope"  # below the base rate in 3 cells against slope4's 1
    assert guarded == [("short", "normal v easy")]  # slope is not below the prior alone there
    tie = {cell: {**score, "slope4": score["slope"] - 0.002} for cell, score in scores.items()}
    assert cv.choose(tie) == ("slope4", [])  # the same count: the lower mean Brier score
    same = {cell: {**score, "slope4": score["slope"]} for cell, score in scores.items()}
    assert cv.choose(same)[0] == "slope"  # and then the first


def test_the_replay_cache_key_follows_the_odds_code_not_its_docstrings(tmp_path):
    """The cached positions stay valid through a docstring, comment or line-wrap edit of the odds code and are
    replayed afresh after any change of what it computes, in ``war.py`` as in ``decided.py``."""
    woc = load_script("war_odds_calibration")
    for name in (*woc.ODDS_CODE, "ahd/data/war_odds.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text((woc.ROOT / name).read_text("utf-8"), "utf-8")
    key = woc.odds_key(tmp_path)
    assert key == woc.odds_key()
    war_py, decided_py = (tmp_path / name for name in woc.ODDS_CODE)
    source = war_py.read_text("utf-8")
    docstring = '    """The live model\'s chance'
    assert docstring in source
    war_py.write_text(source.replace(docstring, '    # a comment\n    """Reworded: the live model\'s chance')
                      .replace("import math\n", "import math  # a note\n\n"), "utf-8")
    assert woc.odds_key(tmp_path) == key  # words only: the cache holds
    war_py.write_text(source.replace("return WarOdds(", "return  WarOdds(", 1), "utf-8")
    assert woc.odds_key(tmp_path) == key  # spacing only
    war_py.write_text(source.replace("if game.is_over:", "if game.is_over and game.state:", 1), "utf-8")
    assert woc.odds_key(tmp_path) != key  # war.py's code: replayed afresh (the old key left it out)
    war_py.write_text(source, "utf-8")
    decided_source = decided_py.read_text("utf-8")
    assert "LAST_TURN" in decided_source
    decided_py.write_text(decided_source.replace("LAST_TURN", "(LAST_TURN)"), "utf-8")
    assert woc.odds_key(tmp_path) == key  # brackets that change nothing
    decided_py.write_text(decided_source.replace("from collections import deque", "from collections import deque\n"
                                                 "X = 1"), "utf-8")
    assert woc.odds_key(tmp_path) != key


def test_the_late_term_is_found_where_the_odds_grow_surer_towards_the_end_and_is_zero_where_they_do_not(monkeypatch):
    """Stop 52's candidate ``late`` (scripts/war_odds_cv.py): on positions whose true odds are the model's logit times
    1 + 2 x (1 - time left) (blended with the prior as the app does), the fit finds slope 1 and late 2; on positions
    whose odds are the model's own, it finds no late term. Without ``lates`` the fit is the app's form (late 0)."""
    import numpy as np
    woc = load_script("war_odds_calibration")
    monkeypatch.setattr(woc, "OFFSETS", np.round(np.arange(-0.4, 0.4001, 0.02), 4))  # the true offset is 0
    rng = np.random.default_rng(52)
    n = 20000
    z, left = rng.normal(0, 1.2, n), rng.uniform(0, 1, n)

    def positions(true_slope, prior=0.5):  # as the app blends: the prior's share falls with the time left (hold 0)
        y = (rng.uniform(0, 1, n) < war.lean_on_prior(war.adjusted(z, 0.0, true_slope), prior, left)).astype(float)
        return [(1 / (1 + np.exp(-a)), b, 1.0, c) for a, b, c in zip(z, y, left)], prior

    surer, prior = positions(1 + 2 * (1 - left))
    grids = dict(slopes=(0.5, 1.0, 1.5, 2.0, 3.0), holds=(0.0,))
    with_late = woc.fit_cell(surer, prior, lates=(0.0, 1.0, 2.0, 3.0), **grids)
    without = woc.fit_cell(surer, prior, **grids)
    assert with_late[2:4] == (1.0, 2.0) and without[3] == 0.0
    plain, prior = positions(np.ones(n))
    assert woc.fit_cell(plain, prior, lates=(0.0, 1.0, 2.0, 3.0), **grids)[3] == 0.0


def test_the_shape_is_found_where_the_odds_keep_to_the_prior_longer_and_is_one_where_they_do_not(monkeypatch):
    """Stop 53's ``shape`` (scripts/war_odds_cv.py, adopted): on positions whose true odds lean on the prior by the
    square root of the time left (the prior kept longer), the fit finds shape 0.5; on positions blended as the app
    blends them, shape 1; ``cv`` scores the odds with the shape fitted, and its other estimators keep shape 1."""
    import numpy as np
    woc = load_script("war_odds_calibration")
    cvs = load_script("war_odds_cv")
    monkeypatch.setattr(woc, "OFFSETS", np.round(np.arange(-0.4, 0.4001, 0.02), 4))  # the true offset is 0
    rng = np.random.default_rng(53)
    n = 20000
    z, left = rng.normal(0, 1.5, n), rng.uniform(0, 1, n)

    def positions(power, prior=0.8):
        y = (rng.uniform(0, 1, n) < war.lean_on_prior(war.adjusted(z), prior, left ** power)).astype(float)
        return [(1 / (1 + np.exp(-a)), b, 1.0, c) for a, b, c in zip(z, y, left)], prior

    grids = dict(slopes=(0.5, 1.0, 1.5), holds=(0.0, 0.2), shapes=(0.25, 0.5, 1.0, 2.0))
    longer, prior = positions(0.5)
    assert woc.fit_cell(longer, prior, **grids)[1:] == (0.0, 1.0, 0.0, 0.5)
    plain, prior = positions(1.0)
    assert woc.fit_cell(plain, prior, **grids)[1:] == (0.0, 1.0, 0.0, 1.0)
    games = [{"y": 1.0, "pts": [(0.5, 20, False, 0.25)]}]
    p, _, _ = cvs.odds(games, 0.8, (0.0, 0.0, 1.0, 0.0, 0.5))
    assert p[0] == pytest.approx(0.5 * 0.5 + 0.5 * 0.8)  # lean 0.25 ** 0.5 = 0.5 on the prior
    assert cvs.fit([{"y": 1.0, "pts": [(0.5, 20, False, 0.25)]}] * 3, "late")[1][4] == 1.0  # late keeps shape 1


def test_the_fit_scores_every_grid_point_as_the_odds_it_would_give():
    """fit_cell scores the grids with two matrix products (stop 54); on random positions it picks what a plain search
    over every (slope, late, shape, hold, offset) picks, scoring each with the odds ``war.lean_on_prior`` gives."""
    import itertools
    import math

    import numpy as np
    woc = load_script("war_odds_calibration")
    rng = np.random.default_rng(54)
    n = 400
    p0, left = rng.uniform(0.02, 0.98, n), rng.uniform(0, 1, n)
    y = (rng.uniform(0, 1, n) < p0).astype(float)
    w = rng.uniform(0.01, 0.05, n)
    prior = 0.63
    grid = dict(slopes=(0.6, 1.3), holds=(0.0, 0.5, 1.0), lates=(0.0, 2.0), shapes=(0.5, 1.0, 4.0))
    best = (math.inf,)
    for slope, late, shape, hold in itertools.product(grid["slopes"], grid["lates"], grid["shapes"], grid["holds"]):
        for offset in woc.OFFSETS:
            q = war.adjusted(war.logit(p0), offset, slope + late * (1 - left))
            p = war.lean_on_prior(q, prior, left, hold, shape)
            score = (np.average((p - y) ** 2, weights=w) + 1e-5 * (offset ** 2 + (slope - 1) ** 2 + late ** 2
                                                                  + math.log(shape) ** 2))
            if score < best[0] - 1e-12:
                best = (score, float(offset), hold, slope, late, shape)
    assert woc.fit_cell(list(zip(p0, y, w, left)), prior, **grid) == pytest.approx(best[1:], abs=1e-9)


def test_the_recalibration_fit_finds_the_coefficients_it_is_given_and_does_not_diverge():
    """Stop 55: ``fit_recal`` (weighted maximum likelihood, Newton's steps halved when they go downhill) recovers the
    coefficients of positions drawn from a recalibration, anchored at a prior or not; on results that are all
    but certain it stays finite (recal2's plain Newton steps diverged in 1862 normal v hard)."""
    import numpy as np
    woc = load_script("war_odds_calibration")
    rng = np.random.default_rng(55)
    n = 40000
    z, t, w = rng.normal(0, 1.5, n), rng.uniform(0, 1, n), np.full(n, 0.01)
    true = np.array([0.6, 1.4, -0.5, -0.8])
    p = war.recalibrated(z, t, 0.7, "anchor", true)
    y = (rng.uniform(0, 1, n) < p).astype(float)
    got = woc.fit_recal(z, t, y, w, war.RECAL_FORMS["anchor"], offset=float(war.logit(0.7)), ridge=1e-6)
    assert got == pytest.approx(true, abs=0.15)
    assert woc.fit_recal(z, t, y, w, war.RECAL_FORMS["anchor"], offset=float(war.logit(0.3)),
                         ridge=1e-6)[0] > got[0] + 1  # a wrong anchor: the t term makes up for it
    free = woc.fit_recal(z, t, (rng.uniform(0, 1, n) < war.adjusted(0.3 + 0.8 * z)).astype(float), w,
                         ("1", "z", "zt", "t"), ridge=1e-6)
    assert free == pytest.approx([0.3, 0.8, 0.0, 0.0], abs=0.1)
    rare = (rng.uniform(0, 1, n) < 0.002).astype(float)  # nearly always 0
    steep = woc.fit_recal(z, t, rare, w, ("1", "z", "zt", "t", "t2", "zt2"))
    assert np.all(np.isfinite(steep)) and war.adjusted(woc.war.recal_columns(z, t, ("1", "z", "zt", "t", "t2",
                                                                                     "zt2"))[0] @ steep).mean() < 0.01


def test_the_least_squares_fit_minimizes_the_penalized_brier_score():
    """Stop 56: ``fit_recal(loss="brier")`` (Gauss-Newton on the odds) recovers the coefficients positions were
    drawn from, and where it stops no nearby coefficients give a lower penalized Brier score (a minimum the
    likelihood's fit is not); a nearly certain result that the positions do not tell leaves the odds at the prior
    (docs/bots/war_odds_blocks_stop56.txt). A loss it does not know is an error, not the likelihood."""
    import numpy as np
    woc = load_script("war_odds_calibration")
    rng = np.random.default_rng(56)
    n = 40000
    z, t, w = rng.normal(0, 1.5, n), rng.uniform(0, 1, n), np.full(n, 0.01)
    terms, offset = war.RECAL_FORMS["anchor"], float(war.logit(0.7))
    true = np.array([0.6, 1.4, -0.5, -0.8])
    y = (rng.uniform(0, 1, n) < war.recalibrated(z, t, 0.7, "anchor", true)).astype(float)
    got = woc.fit_recal(z, t, y, w, terms, offset=offset, ridge=1e-6, loss="brier")
    assert got == pytest.approx(true, abs=0.2)
    x = war.recal_columns(z, t, terms)[0]
    ridge = 1e-3

    def score(b):
        return float(w @ (war.adjusted(x @ b, offset) - y) ** 2) + 0.5 * ridge * w.sum() * float(b @ b)
    best = woc.fit_recal(z, t, y, w, terms, offset=offset, ridge=ridge, loss="brier")
    assert min(score(best + step) for step in rng.normal(0, 0.02, (100, 4))) > score(best)
    assert not np.allclose(best, woc.fit_recal(z, t, y, w, terms, offset=offset, ridge=ridge))  # not the likelihood's
    sure = (rng.uniform(0, 1, n) < 0.985).astype(float)  # the Union nearly always wins, whatever the position
    flat = woc.fit_recal(z, t, sure, w, terms, offset=float(war.logit(0.985)), loss="brier")
    assert np.all(np.abs(flat) < 0.1)
    assert war.recalibrated(z, t, 0.985, "anchor", flat) == pytest.approx(0.985, abs=0.003)
    with pytest.raises(ValueError, match="loss 'squared'"):
        woc.fit_recal(z, t, y, w, terms, loss="squared")


def test_leaving_one_block_out_scores_each_block_by_the_fit_on_the_others(monkeypatch):
    """``blocks`` (stop 55): a block's games are scored by the fit on the other blocks' games only; a cell's score
    is the mean of its games' own scores (the report's weighting); the resampled chance is of the mean below 0."""
    import numpy as np
    cv = load_script("war_odds_cv")
    rng = np.random.default_rng(7)

    def game(seed):
        return {"seed": seed, "y": float(rng.uniform() < 0.6),
                "pts": [(float(p), k, False, 1 - k / 6) for k, p in enumerate(rng.uniform(0.2, 0.9, int(rng.integers(3, 7))))]}
    by_block = {"944000": [game(944000 + i) for i in range(12)], "946000": [game(946000 + i) for i in range(9)],
                "954000": [game(954000 + i) for i in range(10)]}
    seen = []
    fit = cv.fit
    monkeypatch.setattr(cv, "fit", lambda games, name: seen.append({g["seed"] // 1000 for g in games}) or fit(games, name))
    scored = cv.block_cell(by_block, ("anchor",))
    assert seen == [{946, 954}, {944, 954}, {944, 946}]
    for block, games in by_block.items():
        train = [g for other, part in by_block.items() if other != block for g in part]
        prior, params = fit(train, "anchor")
        assert scored[block]["anchor"].mean() == pytest.approx(cv.brier([cv.odds(games, prior, params)]))
        y = np.array([g["y"] for g in games])
        assert scored[block]["base"] == pytest.approx((cv.prior_of(train) - y) ** 2)
    assert cv.chance_below(np.array([-0.01, -0.02]), 5, rng, 50) == 1.0
    assert cv.chance_below(np.array([0.01, 0.02]), 5, rng, 50) == 0.0
    assert 0.2 < cv.chance_below(np.array([-1.0, 1.0]), 3, rng, 4000) < 0.8
    assert cv.block_of("docs/bots/games/stop44/g_1030000_short_hard-normal.jsonl.xz") == "1030000"
    with pytest.raises(SystemExit, match="not a stored block"):
        cv.block_of("artifacts/odds40_fit.jsonl")
