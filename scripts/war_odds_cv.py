"""Choosing the war odds' estimator without the held-out games: cross-validation on the fit games, then the
chosen and the earlier estimators side by side on the held-out games (issue 34; docs/bots/issue34_seeds.txt).

    .venv/bin/python scripts/war_odds_cv.py cv docs/bots/games/stop44/g_9{44,46,54}000_*.jsonl.xz
    .venv/bin/python scripts/war_odds_cv.py compare --fit FIT.jsonl ... --heldout HELDOUT.jsonl ...

The estimators are the forms ``scripts/war_odds_calibration.py fit_cell`` can fit, by their grids: the model's
logit times a slope plus an offset, blended with the pair's prior by ``hold + (1 - hold) x time left``
(``ahd.odds.war.war_odds``); positions the rules have decided are exactly 0 or 1 in all of them.

- ``stop43``: offset, hold 0..0.9 (the estimator of stops 40-43);
- ``slope``: slope 0.2..2 by 0.1 as well;
- ``hold1``: hold up to 1 (1 is the prior alone: the base rate, with the decided positions exact);
- ``slope+hold1``: both;
- ``slope4``: slope 0.2..4 by 0.1 (stop 46: half the 60-game fit's slopes sat at 2.0, the end of ``slope``'s grid);
- ``prior``: the pair's prior alone (hold 1), the decided positions exact;
- ``late`` (stop 52): ``slope``'s grids, and a slope that grows as the time runs out, ``slope + late x (1 - time
  left)`` with late in :data:`LATES` (the app has no such term: a candidate, cross-validated only). Stop 51 found
  that the cells the Union nearly always wins miss the Brier measure because the odds are not sure enough late in
  the games the Union wins; this asks whether a surer end helps without hurting elsewhere.
- ``shape`` (stop 53): ``slope``'s grids, and the lean on the prior falling as the time left to a power in
  :data:`SHAPES`, ``hold + (1 - hold) x left ** shape`` (adopted at stop 53 by its declared rule: the app's lean
  since, docs/bots/war_odds_cv_stop53.txt). Stop 52 found that 1863 hard v normal lost to the base rate on
  1000000+, whose 32 games the Union all won, in turns 19-22, where the odds had left the prior and dipped below
  it, and beat it in the last turns: below 1, the odds keep to the prior longer and turn to the position later.
- ``shape16`` (stop 54): ``shape`` with the shape's grid widened to :data:`SHAPES16`, up to 16 (13 of the 30 cells of
  stop 53's fit chose shape 4, the top of ``shape``'s grid); adopted by its declared rule, the fit's grid since
  (docs/bots/war_odds_cv_stop54.txt).
- ``recal``, ``recal2`` (stop 55, candidates): a logistic recalibration per cell whose coefficients move with the
  share of the game played (:data:`RECAL`), fitted by weighted maximum likelihood (``woc.fit_recal``): the odds of
  the first half need not sit on the prior, nor one offset serve the whole game. Not shipped: their start odds are
  not the pair's measured result.
- ``anchor``, ``anchor_sqrt`` (stop 55): the same, anchored at the prior (its logit a fixed offset, so the start
  odds are the measured result); ``anchor`` adopted by its declared rule, the app's form since
  (``ahd.odds.war.RECAL_FORMS``; docs/bots/war_odds_blocks_stop55.txt).
- ``anchor_brier`` (stop 56, a candidate): ``anchor``'s form fitted by least squares on the odds, the Brier score
  the measure takes, instead of by likelihood (``woc.fit_recal(loss="brier")``), with the same weights and ridge.

``--estimators`` limits a run to some of them (the base rate is always scored).

``choose`` is stop 46's rule (declared before its held-out games, docs/bots/issue34_seeds.txt): of ``slope`` and
``slope4``, the one with the most cells below the base rate ships, and a cell where it is not below ``prior``
ships the prior alone (``war_odds_calibration.py fit --prior-alone``).

``cv``: per scenario and pair, 5-fold cross-validation over the games (game ``i`` of a cell, by seed, in fold
``i mod 5``): each estimator and the base rate (the training folds' (wins + 1) / (games + 2)) are fitted on four
folds and scored on the fifth, every position of a game weighted 1/(its positions), as the report does; printed
per cell, then how many cells each estimator has below the base rate and its mean Brier score.

``blocks`` (stop 55): leave one block out. The stored games come in blocks, each a seed range declared before it
was played (``g_<block>_<scenario>_<pair>.jsonl.xz``). For each block and cell, each estimator and the base rate
are fitted on the cell's games of all the other blocks and scored on that block's, as ``report`` scores a held-out
block. Printed: per cell, the blocks where the estimator is below the base rate and the pooled score over all the
blocks; per block, the cells below. Then, resampling the games' own scores (each by a fit that did not see it;
seeded), the chance that a block of N games a cell has the estimator below the base rate in each cell, and in all
of them: how often a held-out block of that size can meet the measure with this estimator.

``compare``: each estimator fitted on the ``--fit`` games and scored on the ``--heldout`` games, as ``report``
scores the shipped one (its figures for the shipped estimator are the report's, which checks the formula here).

Replaying the games is most of the time: ``war_odds_calibration.games_of`` keeps each game file's positions in
artifacts/war_odds_cv/ (ignored by git) and reads them from there next time.
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]

from ahd.analysis.bench import machine  # noqa: E402
from ahd.odds import war  # noqa: E402

import war_odds_calibration as woc  # noqa: E402  (scripts/, on the path above)

SLOPES = woc.SLOPES  # 0.2..2 by 0.1
HOLDS_09 = woc.HOLDS  # 0..0.9 by 0.1
HOLDS_1 = HOLDS_09 + (1.0,)
#: the late term's grid (stop 52): the slope's growth from the start to the deciding turn
LATES = (0.0, 1.0, 2.0, 4.0)
#: the shape's grid (stop 53): the power of the time left in the lean on the prior
SHAPES = (0.25, 0.5, 1.0, 2.0, 4.0)
#: the wider grid stop 54 tried, SHAPES and 8, 16 (4 was the top of SHAPES, chosen by 13 of stop 53's 30 cells);
#: adopted, the fit's grid since
SHAPES16 = woc.SHAPES


def grids(slopes, holds, lates=(0.0,), shapes=(1.0,)) -> dict:
    """An estimator's grids, as ``woc.fit_cell`` takes them (no late term and the lean of stops 40-52 unless given)."""
    return dict(slopes=slopes, holds=holds, lates=lates, shapes=shapes)


#: each estimator by name: its grids
ESTIMATORS = {"stop43": grids((1.0,), HOLDS_09), "slope": grids(SLOPES, HOLDS_09), "hold1": grids((1.0,), HOLDS_1),
              "slope+hold1": grids(SLOPES, HOLDS_1), "slope4": grids(*woc.GRIDS["0.2..4"]),
              "prior": grids(*woc.PRIOR_ALONE), "late": grids(SLOPES, HOLDS_09, lates=LATES),
              "shape": grids(SLOPES, HOLDS_09, shapes=SHAPES), "shape16": grids(SLOPES, HOLDS_09, shapes=SHAPES16),
              "recal": {}, "recal2": {}, "anchor": {}, "anchor_sqrt": {},  # stop 55's candidates: RECAL
              "anchor_brier": {}}  # stop 56's: LEAST_SQUARES
#: stop 46's rule (docs/bots/issue34_seeds.txt, 10:31 UTC): of these, the one with the most cells below the
#: base rate, then the lower mean Brier score, then the first; then the guard (``choose``)
CANDIDATES = ("slope", "slope4")
FOLDS = 5


#: stop 55's candidates (docs/bots/issue34_seeds.txt, 15:26 UTC): a logistic recalibration per cell whose coefficients
#: move with the share of the game played, t = 1 - time left, on the position model's logit z; the terms by name
RECAL = {"recal": ("1", "z", "zt", "t"), "recal2": ("1", "z", "zt", "t", "t2", "zt2"),
         # 15:33 UTC: recal's start odds are not the pair's measured result; these are anchored at it, logit(prior)
         # a fixed offset (no constant), so at the start (t = 0) the odds are the prior as in the app now
         # ("anchor": t, zt, t2, zt2; "anchor_sqrt": s, zs, t, zt with s the square root of t)
         **war.RECAL_FORMS}
#: the forms of RECAL whose logit starts from the pair's prior: the app's (``war.recalibrated``)
ANCHORED = tuple(war.RECAL_FORMS)
#: stop 56's candidate (docs/bots/issue34_seeds.txt, 18:19 UTC): an anchored form fitted by least squares on the
#: odds (the Brier score the measure takes) instead of by likelihood; by name, the form it fits
LEAST_SQUARES = {"anchor_brier": "anchor"}


def prior_of(games) -> float:
    return woc.prior_of([g["y"] for g in games])


def fit(games, estimator: str) -> tuple[float, tuple[float, float, float, float, float]]:
    """(prior, (offset, hold, slope, late, shape)) of an estimator fitted on a cell's games, as ``woc.fit`` does; for
    the recalibrations (:data:`RECAL`), (prior, (name, coefficients))."""
    prior = prior_of(games)
    pts = [(p, g["y"], 1 / len(g["pts"]), left) for g in games for p, _, decided, left in g["pts"] if not decided]
    if estimator in ANCHORED:  # as ``woc.fit`` fits the app's form
        return prior, (estimator, woc.fit_anchor(pts, prior, estimator))
    if estimator in LEAST_SQUARES:
        form = LEAST_SQUARES[estimator]
        return prior, (form, woc.fit_anchor(pts, prior, form, loss="brier"))
    if estimator in RECAL:
        p0, y, w, left = (np.array(column, dtype=float) for column in zip(*pts))
        return prior, (estimator, tuple(woc.fit_recal(war.logit(p0), 1 - left, y, w, RECAL[estimator])))
    return prior, woc.fit_cell(pts, prior, **ESTIMATORS[estimator])


def results(games) -> tuple[np.ndarray, np.ndarray]:
    """(results, weights) at every position of ``games``: each game weighs 1 in all, shared by its positions."""
    y = [g["y"] for g in games for _ in g["pts"]]
    w = [1 / len(g["pts"]) for g in games for _ in g["pts"]]
    return np.array(y, dtype=float), np.array(w)


def odds(games, prior: float, params) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(odds, results, weights) at every position of ``games``, as ``war.war_odds`` gives them for the fit."""
    p0, decided, left = (np.array([pt[i] for g in games for pt in g["pts"]], dtype=float) for i in (0, 2, 3))
    if params[0] in RECAL:  # stop 55's candidates
        if params[0] in ANCHORED:  # as the app gives them
            p = war.recalibrated(war.logit(p0), 1 - left, prior, params[0], params[1])
        else:
            p = war.adjusted(war.recal_columns(war.logit(p0), 1 - left, RECAL[params[0]])[0] @ np.array(params[1]))
        return (np.where(decided > 0, p0, p), *results(games))
    offset, hold, slope, late, shape = params
    p = war.lean_on_prior(war.adjusted(war.logit(p0), offset, slope + late * (1 - left)), prior, left, hold, shape)
    return (np.where(decided > 0, p0, p), *results(games))  # decided: exactly 0 or 1, whatever the fit


def brier(parts) -> float:
    p, y, w = (np.concatenate([part[i] for part in parts]) for i in range(3))
    return float(np.average((p - y) ** 2, weights=w))


def cells(games) -> dict:
    by = defaultdict(list)
    for g in games:
        by[(g["scenario"], g["pair"])].append(g)
    return {key: sorted(by[key], key=lambda g: g["seed"]) for key in sorted(by, key=woc._order)}


def cv_cell(games, names=tuple(ESTIMATORS)) -> dict[str, float]:
    """The cross-validated Brier score of the estimators ``names`` and of the base rate on one cell's games."""
    parts = defaultdict(list)
    for k in range(FOLDS):
        test = [g for i, g in enumerate(games) if i % FOLDS == k]
        train = [g for i, g in enumerate(games) if i % FOLDS != k]
        for name in names:
            parts[name].append(odds(test, *fit(train, name)))
        base = prior_of(train)
        y, w = results(test)
        parts["base"].append((np.full_like(y, base), y, w))  # the constant the report compares with
    return {name: brier(part) for name, part in parts.items()}


def tally(scores: dict, name: str) -> tuple[int, float]:
    """(cells below the base rate, mean Brier score) of estimator ``name`` over ``scores`` {cell: {estimator or
    "base": Brier}}."""
    return (sum(score[name] < score["base"] for score in scores.values()),
            sum(score[name] for score in scores.values()) / len(scores))


def choose(scores: dict) -> tuple[str, list]:
    """Stop 46's rule on the cross-validated ``scores`` {cell: {estimator or "base": Brier}}: the candidate
    with the most cells below the base rate (a tie: the lower mean Brier score, then the first), and the cells
    where it is not below the prior alone, which ship the prior alone (the guard)."""
    def rank(name):
        below, mean = tally(scores, name)
        return (-below, mean, CANDIDATES.index(name))
    form = min(CANDIDATES, key=rank)
    return form, [cell for cell, score in scores.items() if not score[form] < score["prior"]]


def cv(args) -> None:
    names = args.estimators
    print(f"machine: {machine()}\n{FOLDS}-fold cross-validation on {len(args.files)} files")
    scores = {}
    print(f"{'scenario':8} {'pair':16} {'games':>5} {'base':>7} " + " ".join(f"{name:>12}" for name in names))
    table = cells(woc.games_of(args.files))
    with ProcessPoolExecutor(args.jobs) as pool:  # cell by cell: each is independent
        for ((scenario, pair), games), score in zip(table.items(), pool.map(cv_cell, table.values(),
                                                                            [names] * len(table))):
            scores[(scenario, pair)] = score
            print(f"{scenario:8} {pair:16} {len(games):>5} {score['base']:>7.4f} "
                  + " ".join(f"{score[name]:>12.4f}" for name in names), flush=True)
    tallies = {name: tally(scores, name) for name in names}
    for name, (below, mean) in tallies.items():
        print(f"{name:12}: below the base rate in {below} of {len(table)} cells; mean Brier {mean:.6f}")
    ranked = sorted(names, key=lambda name: (-tallies[name][0], tallies[name][1]))
    print("by cells below the base rate, then the lower mean: " + ", ".join(ranked))
    if set(CANDIDATES) | {"prior"} <= set(names):
        form, guarded = choose(scores)
        print(f"stop 46's rule: {form} ships; the prior alone where {form} is not below it: "
              + (", ".join(f"{scenario}:{pair.replace(' v ', '-')}" for scenario, pair in guarded) or "nowhere"))


def game_scores(games, prior: float, params) -> np.ndarray:
    """Each game's own Brier score (the mean over its positions; a cell's score is the mean over its games)."""
    p, y, w = odds(games, prior, params)
    per_game = np.repeat(np.arange(len(games)), [len(g["pts"]) for g in games])
    return np.bincount(per_game, weights=w * (p - y) ** 2, minlength=len(games))


def block_cell(by_block: dict, names) -> dict:
    """{block: {estimator or "base": game scores}} of one cell, each block scored by the fits on the cell's games of
    the other blocks."""
    out = {}
    for block, games in by_block.items():
        train = [g for other, part in by_block.items() if other != block for g in part]
        y = np.array([g["y"] for g in games], dtype=float)
        out[block] = {"base": (prior_of(train) - y) ** 2}
        for name in names:
            out[block][name] = game_scores(games, *fit(train, name))
    return out


def block_of(path: str) -> str:
    """The block of a stored game file, ``g_<block>_<scenario>_<pair>.jsonl.xz``: its first seed."""
    name = Path(path).name
    if not name.startswith("g_") or not name.split("_")[1].isdigit():
        raise SystemExit(f"{path}: not a stored block's file (g_<block>_<scenario>_<pair>.jsonl[.xz])")
    return name.split("_")[1]


def chance_below(diffs: np.ndarray, n: int, rng, draws: int) -> float:
    """The share of ``draws`` resampled blocks of ``n`` games (with replacement from ``diffs``, each game's
    estimator score minus its base-rate score) whose mean is below 0."""
    return float(np.mean(rng.choice(diffs, size=(draws, n)).mean(axis=1) < 0))


def blocks(args) -> None:
    names = args.estimators
    paths = defaultdict(list)
    for path in args.files:
        paths[block_of(path)].append(path)
    order = sorted(paths, key=int)
    print(f"machine: {machine()}\nleave one block out: {len(order)} blocks ({', '.join(order)}), "
          f"{len(args.files)} files; estimators {', '.join(names)}")
    per_block = {block: cells(woc.games_of(paths[block])) for block in order}
    keys = sorted({key for table in per_block.values() for key in table}, key=woc._order)
    tables = [{block: per_block[block][key] for block in order if key in per_block[block]} for key in keys]
    below = {name: defaultdict(int) for name in names}
    diffs = {name: {} for name in names}
    pooled = {name: {} for name in names}
    print(f"{'scenario':8} {'pair':16} {'games':>5} {'base':>8} "
          + " ".join(f"{name:>8} {'blocks':>6}" for name in names))
    with ProcessPoolExecutor(args.jobs) as pool:
        for key, scored in zip(keys, pool.map(block_cell, tables, [names] * len(keys))):
            base = np.concatenate([s["base"] for s in scored.values()])
            line = f"{key[0]:8} {key[1]:16} {len(base):>5} {base.mean():>8.5f} "
            for name in names:
                model = np.concatenate([s[name] for s in scored.values()])
                diffs[name][key], pooled[name][key] = model - base, (model.mean(), base.mean())
                wins = [block for block, s in scored.items() if s[name].mean() < s["base"].mean()]
                for block in wins:
                    below[name][block] += 1
                line += f"{model.mean():>8.5f}{'' if model.mean() < base.mean() else '*'} {len(wins):>2}/{len(scored):<3} "
            print(line.rstrip(), flush=True)
    print("(* not below the base rate pooled; blocks: the blocks where it is below)")
    for name in names:
        count = sum(m < b for m, b in pooled[name].values())
        mean = sum(m for m, _ in pooled[name].values()) / len(keys)
        print(f"{name:8}: below the base rate pooled in {count} of {len(keys)} cells, mean Brier {mean:.6f}; cells below, "
              "block by block: " + ", ".join(f"{block} {below[name][block]}/{sum(block in t for t in tables)}"
                                             for block in order))
    for name in names:
        rng = np.random.default_rng(args.seed)
        print(f"\n{name}: resampled blocks ({args.draws} a size, seed {args.seed}), the chance of being below the base rate")
        print(f"{'scenario':8} {'pair':16} " + " ".join(f"{'N=' + str(n):>7}" for n in args.sizes))
        chances = {n: [] for n in args.sizes}
        for key in keys:
            row = [chance_below(diffs[name][key], n, rng, args.draws) for n in args.sizes]
            for n, c in zip(args.sizes, row):
                chances[n].append(c)
            print(f"{key[0]:8} {key[1]:16} " + " ".join(f"{c:>7.3f}" for c in row))
        print(f"{'every cell':25} " + " ".join(f"{np.prod(chances[n]):>7.3f}" for n in args.sizes)
              + "   (the product: the cells' games are independent)")
        print(f"{'cells expected below':25} " + " ".join(f"{sum(chances[n]):>7.1f}" for n in args.sizes))


def compare(args) -> None:
    print(f"machine: {machine()}\nfitted on {len(args.fit)} files, scored on {len(args.heldout)} held-out files")
    fitted, heldout = cells(woc.games_of(args.fit)), cells(woc.games_of(args.heldout))
    names = args.estimators
    print(f"{'scenario':8} {'pair':16} {'games':>5} {'base':>7} " + " ".join(f"{name:>12}" for name in names))
    scores = {}
    for key, games in heldout.items():
        base = prior_of(fitted[key])
        y, w = results(games)
        score = {"base": float(np.average((base - y) ** 2, weights=w))}
        for name in names:
            score[name] = brier([odds(games, *fit(fitted[key], name))])
        scores[key] = score
        print(f"{key[0]:8} {key[1]:16} {len(games):>5} {score['base']:>7.4f} "
              + " ".join(f"{score[name]:>12.4f}" for name in names))
    for name in names:
        print(f"{name:12}: below the base rate in {tally(scores, name)[0]} of {len(heldout)} cells")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    c = sub.add_parser("cv")
    c.add_argument("files", nargs="+")
    c.add_argument("--jobs", type=int, default=2, help="processes (one cell each at a time)")
    m = sub.add_parser("compare")
    m.add_argument("--fit", nargs="+", required=True)
    m.add_argument("--heldout", nargs="+", required=True)
    b = sub.add_parser("blocks")
    b.add_argument("files", nargs="+")
    b.add_argument("--estimators", type=estimators, default=("anchor",),
                   help="comma-separated, of: " + ", ".join(ESTIMATORS) + " (default: anchor, the app's since stop 55)")
    b.add_argument("--jobs", type=int, default=2, help="processes (one cell each at a time)")
    b.add_argument("--sizes", type=lambda t: [int(n) for n in t.split(",")], default=[40, 80, 120, 200],
                   help="block sizes to resample, games a cell (comma-separated)")
    b.add_argument("--draws", type=int, default=4000, help="resampled blocks a size")
    b.add_argument("--seed", type=int, default=55)
    for command in (c, m):
        command.add_argument("--estimators", type=estimators, default=tuple(ESTIMATORS),
                             help="comma-separated, of: " + ", ".join(ESTIMATORS) + " (default: all)")
    args = parser.parse_args()
    {"cv": cv, "compare": compare, "blocks": blocks}[args.command](args)


def estimators(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in ESTIMATORS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(f"unknown estimator {', '.join(unknown) or text!r}; "
                                         f"choose from {', '.join(ESTIMATORS)}")
    return names


if __name__ == "__main__":
    main()
