"""War odds per scenario and per player pair: play games (or read saved ones), then print how the
live war odds did on them (``ahd.war_odds(game, union=..., confederate=...)``, what the app's chart shows
for those players), and write it to a file.

    nice -n 19 .venv/bin/python scripts/war_odds_calibration.py play --pairs hard-hard,normal-hard --games 8 \
        --seed 942000 --save artifacts/odds34_fit.jsonl
    .venv/bin/python scripts/war_odds_calibration.py fit artifacts/odds34_fit.jsonl
    .venv/bin/python scripts/war_odds_calibration.py report artifacts/odds34_heldout.jsonl \
        --base artifacts/odds34_fit.jsonl --store --out docs/bots/war_odds_calibration.txt

``play``: for each scenario (``--scenarios``, default 1861, short, 1862, 1863, 1864) and each pair
``UNION-CONFEDERATE`` of ``ahd.bots.make_bot`` names, ``--games`` games, game ``i`` with dice seed
``s = seed + i`` and the bots seeded as ``bot_seeds`` says (``--bot-seeds``: ``apart`` from the dice, the
default from stop 60; ``same``, the blocks before 1090000). One JSON line per game
(scenario, pair, result, the bots' seeds, the game's record) appended to ``--save``. Seeds are fixed in
advance (docs/bots/issue34_seeds.txt): the model is fitted (``fit``) on one range and reported on another.
``--cell-step N`` gives every cell seeds of its own (cell ``k``, scenarios outer and pairs inner: ``seed + N k
+ i``); ``--by-round`` plays game ``i`` of every cell before game ``i + 1`` of any, ``--part J/M`` only the
games with ``i % M == J`` (M processes), ``--stop-at`` starts no round after a time, and ``--save`` may name
a file a cell (``{scenario}``, ``{pair}``). ``gather`` then makes one file a cell of the parts, keeping the
rounds every cell finished, so that a block cut short still has the same number of games in every cell.

``report``: every game is replayed; at the start of each half-turn the live odds for the game's players
are compared with the result (Union win 1, loss 0, scenario draw ½). Per scenario and pair: positions,
games, Brier score against the base rate (the pair's smoothed result in the ``--base`` games,
(wins + 1) / (games + 2): the pair's prior, what the odds say at the start) and against hindsight (the
held-out games' own mean), the decided positions (odds exactly 0 or 1) and whether each was right, the
start-of-scenario odds against the Union's measured result with its 95% Wilson interval, and a
reliability table (predicted bin, positions, mean predicted, observed); a summary of the measures first,
and beside it the start odds of all cells together (``start_chi_square``) and what the start measure gives by
chance alone with right odds and these numbers of games (``start_by_chance``).
``--out`` writes it to a file, keeping the file's text above ``MARK`` (the commands, the notes); with ``--keep``
the cells these games do not cover keep what the file's previous report said of them (a report of replayed cells).
``--store`` writes each cell's held-out figures to ``ahd/data/war_odds.json`` (the app's note cites them).

``fit`` and ``report`` replay every game (most of their time); ``fit`` keeps each file's positions in
artifacts/war_odds_cv/ (``games_of``, shared with scripts/war_odds_cv.py) and reads them from there next time.

``fit``: per pair and scenario, in ``ahd/data/war_odds.json`` "pairs": the pair's smoothed result in the
games given, ``(wins + 1) / (games + 2)``, the prior, which is the odds at the scenario's start, and (stop 55,
``--form anchor``, the default) the coefficients of the recalibration anchored at it (``ahd.odds.war.RECAL_FORMS``:
logit p = logit(prior) + b1 t + b2 z t + b3 t² + b4 z t², t the share of the game played, z the position model's
logit) by weighted maximum likelihood with a small ridge (``fit_recal``; every position of a game weighted
1/(its positions)). Chosen by leaving one stored block out at a time (scripts/war_odds_cv.py blocks,
docs/bots/war_odds_blocks_stop55.txt). ``--form shape`` fits stops 40-54's form instead: the odds lean on the prior
(all of it at the start, falling with the time left to the power ``shape`` to ``hold`` at the deciding turn) and
the logit offset, slope, ``hold`` and ``shape`` with the lowest Brier score on the grids (``fit_cell``).
Pairs and scenarios not in the games given are kept.
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import lzma
import math
import pickle
import re
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ahd.analysis.bench import machine  # noqa: E402
from ahd.analysis.simulate import wilson  # noqa: E402
from ahd.bots import make_bot  # noqa: E402
from ahd.core.game import Game, new_game  # noqa: E402
from ahd.core.sides import CHANCE, Side  # noqa: E402
from ahd.odds import war  # noqa: E402

SCENARIOS = ("1861", "short", "1862", "1863", "1864")
#: ``report --out`` keeps what a file says above this line and writes the rest
MARK = "=== below: written by scripts/war_odds_calibration.py report ==="


def result_of(game) -> float:
    winner = game.outcome.winner
    return 1.0 if winner is Side.UNION else 0.0 if winner is Side.CONFEDERATE else 0.5


#: how ``play`` seeds the bots of the game with dice seed ``s`` (``bot_seeds``)
BOT_SEEDS = ("apart", "same")


def bot_seeds(seed: int, how: str = "apart") -> tuple[int, int]:
    """The seeds of the Union's and the Confederacy's bots in the game with dice seed ``seed``. ``apart``
    (stop 60 on): ``2**32 + 2 seed`` and ``2**32 + 2 seed + 1``, never a dice seed of any block (those are
    below 2**32) nor the other bot's, so the three generators of a game (``default_rng`` of each seed) are
    independent. ``same`` (the blocks before 1090000): ``seed`` and ``seed + 1``, the Union's bot on the dice's
    own stream and the Confederacy's on the next game's dice."""
    if how == "same":
        return seed, seed + 1
    if how != "apart":
        raise ValueError(f"bot seeds: {how!r} is not one of {', '.join(BOT_SEEDS)}")
    if not 0 <= seed < 2 ** 32:
        raise ValueError(f"bot seeds: dice seed {seed} is outside 0 <= seed < 2**32")
    return 2 ** 32 + 2 * seed, 2 ** 32 + 2 * seed + 1


def play_jobs(scenarios, pairs, games: int, seed: int, *, cell_step: int = 0, by_round: bool = False,
              part: tuple[int, int] = (0, 1)) -> list[tuple[str, str, int]]:
    """The games ``play`` plays, in order: (scenario, pair, seed). Cell ``k`` (scenarios outer, pairs
    inner) has seeds ``seed + cell_step * k + i`` for game ``i``; ``by_round`` plays game ``i`` of every
    cell before game ``i + 1`` of any; part ``(j, m)`` keeps the games ``i`` with ``i % m == j``."""
    cells = [(scenario, pair) for scenario in scenarios for pair in pairs]
    index = [(k, i) for i in range(games) for k in range(len(cells))] if by_round else \
        [(k, i) for k in range(len(cells)) for i in range(games)]
    j, m = part
    return [(*cells[k], seed + cell_step * k + i) for k, i in index if i % m == j]


def play(args) -> None:
    """Plays the games of ``play_jobs``; ``--save`` may name a file per cell with ``{scenario}`` and
    ``{pair}``; with ``--stop-at`` (epoch seconds) no new round of ``--by-round`` starts after that time."""
    opts = vars(args)
    jobs = play_jobs(args.scenarios.split(","), args.pairs.split(","), args.games, args.seed,
                     cell_step=opts.get("cell_step", 0), by_round=opts.get("by_round", False),
                     part=opts.get("part", (0, 1)))
    stop_at = opts.get("stop_at")
    t0 = time.perf_counter()
    for done, (scenario, pair, seed) in enumerate(jobs):
        starts_round = done and (scenario, pair) == jobs[0][:2]
        if stop_at is not None and starts_round and time.time() >= stop_at:
            print(f"stopped at {time.strftime('%H:%M:%S', time.gmtime())} UTC before seed {seed} (--stop-at)", flush=True)
            return
        out = Path(args.save.format(scenario=scenario, pair=pair))
        out.parent.mkdir(parents=True, exist_ok=True)
        union, confederate = pair.split("-")
        game = new_game(scenario, seed=seed)
        seeds = bot_seeds(seed, opts.get("bot_seeds", "apart"))
        bots = {Side.UNION: make_bot(union, seeds[0]), Side.CONFEDERATE: make_bot(confederate, seeds[1])}
        while not game.is_over:
            if game.current_player == CHANCE:
                game.roll()
                continue
            game.apply(bots[game.current_player].choose(game))
        row = {"scenario": scenario, "union": union, "confederate": confederate, "seed": seed,
               "bot_seeds": list(seeds), "y": result_of(game), "turn": game.state.turn, "record": game.to_dict()}
        with out.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(row) + "\n")
        print(f"{scenario:6} {pair:22} seed {seed}: {row['y']} at turn {row['turn']} "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)


def gather(args) -> None:
    """The parts of a ``play --by-round`` block, one file a cell: every cell keeps its games 0..n-1, n the
    number of rounds every cell finished (a round cut short by ``--stop-at`` or a stopped part is left out,
    so that every cell has the same number of games), sorted by seed, written to ``--save``'s pattern."""
    scenarios, pairs = args.scenarios.split(","), args.pairs.split(",")
    cells = {(scenario, pair): first  # each cell's game 0, as play gave it
             for scenario, pair, first in play_jobs(scenarios, pairs, 1, args.seed, cell_step=args.cell_step)}
    got: dict = defaultdict(dict)
    for row in load(args.files):
        cell = (row["scenario"], f"{row['union']}-{row['confederate']}")
        if cell not in cells:
            raise SystemExit(f"gather: a game of {cell[0]} {cell[1]} (seed {row['seed']}) is not in this block's cells")
        got[cell][row["seed"] - cells[cell]] = row
    rounds = min(next(i for i in range(len(got[cell]) + 1) if i not in got[cell]) for cell in cells)
    for cell, first in cells.items():
        out = Path(args.save.format(scenario=cell[0], pair=cell[1]))
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(json.dumps(got[cell][i]) + "\n" for i in range(rounds)), encoding="utf-8")
    print(f"{rounds} games a cell in {len(cells)} cells (seeds from {min(cells.values())}); "
          f"left out: {sum(len(games) for games in got.values()) - rounds * len(cells)} games of unfinished rounds")


def positions(record: dict):
    """(game at the start of each half-turn, and at the end) of a recorded game."""
    final = Game.from_dict(record)
    actions = final._history
    game = Game.from_dict(dict(record, actions=[], dice="manual"))
    last = None
    for index in range(len(actions) + 1):
        key = (game.state.turn, game.state.phasing)
        if key != last:
            last = key
            yield game
        if index < len(actions):
            game._replay_one(*actions[index])
    if game.is_over:
        yield game


def load(paths: list[str]) -> list[dict]:
    """The games of the files given, one JSON line each (``.jsonl``, or xz-compressed ``.jsonl.xz``, as the games
    kept in docs/bots/games/ are)."""
    rows = []
    for path in paths:
        data = Path(path).read_bytes()
        text = (lzma.decompress(data) if path.endswith(".xz") else data).decode("utf-8")
        rows += [json.loads(line) for line in text.splitlines() if line.strip()]
    return rows


def samples(rows: list[dict], estimator=None):
    """Per game: (scenario, pair, y, [(p, turn, decided?, time left), ...]) at each half-turn start before the end;
    the odds are the app's for the game's players (``war_odds(game, union=..., confederate=...)``)."""
    for row in rows:
        points = []
        for game in positions(row["record"]):
            if game.is_over:
                continue  # the result itself: no forecast to judge
            odds = (estimator(game) if estimator else
                    war.war_odds(game, union=row["union"], confederate=row["confederate"]))
            points.append((odds.p_union, game.state.turn, odds.model == "decided",
                           war.time_left(game.state, game.scenario, game.play_on)))
        yield row["scenario"], f"{row['union']} v {row['confederate']}", row["y"], points


def samples_of(path: str) -> list:
    """``samples`` of one file's games (a process's share of ``report --jobs``)."""
    return list(samples(load([path])))


CACHE = ROOT / "artifacts" / "war_odds_cv"
#: the code that turns a recorded position into the cached odds: the model (``war.war_odds(offsets=False)``)
#: and the rules' decided positions (the engine is not in the key: a record that no longer replays raises)
ODDS_CODE = ("ahd/odds/war.py", "ahd/odds/decided.py")


def behaviour(source: str) -> str:
    """``source``'s syntax tree without its docstrings: what a docstring, a comment or a reflowed line leaves
    alone (``ast.dump`` keeps no line numbers) and any change of code alters."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


def odds_key(root: Path = ROOT) -> str:
    """What the cached positions' odds depend on: the live model's coefficients (``war_odds.json`` "models")
    and the behaviour of the code in ``ODDS_CODE``; not the pairs' fits, which the cache's users apply."""
    models = json.loads((root / "ahd" / "data" / "war_odds.json").read_text("utf-8"))["models"]
    return json.dumps(models, sort_keys=True) + "".join(behaviour((root / name).read_text("utf-8"))
                                                        for name in ODDS_CODE)


def games_of(paths: list[str], cache_dir: Path = CACHE) -> list[dict]:
    """Per game: scenario, pair ("hard v normal"), y, seed and pts = [(model p without adjustments, turn,
    decided?, time left)] at each half-turn start before the end (cached in artifacts/war_odds_cv/, keyed on the
    games and ``odds_key``)."""
    base = lambda game: war.war_odds(game, offsets=False)  # noqa: E731
    code = odds_key()
    out = []
    for path in paths:
        rows = load([path])
        digest = hashlib.sha1((json.dumps(rows, sort_keys=True) + code).encode()).hexdigest()[:16]
        cache = cache_dir / f"{Path(path).name.split('.')[0]}-{digest}.pkl"
        if cache.exists():
            out += pickle.loads(cache.read_bytes())
            continue
        cache.parent.mkdir(parents=True, exist_ok=True)
        games = [dict(scenario=scenario, pair=pair, y=y, seed=row["seed"], pts=pts)
                 for row, (scenario, pair, y, pts) in zip(rows, samples(rows, base))]
        cache.write_bytes(pickle.dumps(games))
        out += games
    return out


def prior_of(results) -> float:
    """A pair's prior from its results (1, 0, ½ each): the smoothed mean (wins + 1) / (games + 2)."""
    return (sum(results) + 1) / (len(results) + 2)


def _order(key):
    scenario, pair = key
    return (SCENARIOS.index(scenario) if scenario in SCENARIOS else 9, pair)


def report(args) -> None:
    jobs = vars(args).get("jobs", 1)
    if jobs > 1:  # file by file in processes; the same order as one process
        with ProcessPoolExecutor(jobs) as pool:
            per_file = list(pool.map(samples_of, args.files))
    else:
        per_file = [samples_of(path) for path in args.files]
    groups = defaultdict(list)
    for scenario, pair, y, points in (sample for part in per_file for sample in part):
        groups[(scenario, pair)].append((y, points))
    base_rates = defaultdict(list)  # without --base: the reported games' own results
    if args.base:
        for row in load(args.base):
            base_rates[(row["scenario"], f"{row['union']} v {row['confederate']}")].append(row["y"])
    else:
        for key, games in groups.items():
            base_rates[key] = [y for y, _ in games]
    lines = [f"War odds (live, as the app's chart shows them for the game's players) on recorded games: "
             f"{files_said(args.files)}" + (f"; base rate from {files_said(args.base)}" if args.base else ""),
             f"machine: {machine()}",
             "The base rate: the Union's smoothed result in the base games, (wins + 1) / (games + 2), the "
             "pair's prior; 'hindsight' is the held-out games' own mean result (the best constant, known only "
             "afterwards).", ""]
    summary, blocks, store, starts, chances = {}, {}, defaultdict(dict), [], []
    for (scenario, pair), games in sorted(groups.items(), key=lambda kv: _order(kv[0])):
        ys = np.array([y for y, _ in games])
        p = np.array([pt[0] for _, pts in games for pt in pts])
        y = np.array([yy for yy, pts in games for _ in pts])
        w = np.array([1 / len(pts) for _, pts in games for _ in pts])
        decided = [(pt[0], yy) for yy, pts in games for pt in pts if pt[2]]
        wrong = sum(1 for pd, yy in decided if abs(pd - yy) > 1e-9)
        fitted = base_rates[(scenario, pair)]
        base = prior_of(fitted)  # 0.5 without games
        brier = float(np.average((p - y) ** 2, weights=w))
        brier_base = float(np.average((base - y) ** 2, weights=w))
        brier_hind = float(np.average((ys.mean() - y) ** 2, weights=w))
        diff, diff_se = brier_margin(games, base)
        start = float(np.mean([pts[0][0] for _, pts in games]))
        low, high = wilson(float(ys.sum()), len(ys))  # a draw counts half, unrounded
        inside = "inside" if low <= start <= high else "OUTSIDE"
        starts.append((float(ys.sum()), len(ys), start))
        chances.append(((sum(fitted) + ys.sum()) / (len(fitted) + len(ys)), len(fitted), len(ys)))
        met = "below" if brier < brier_base else "NOT below"
        cell = [f"{scenario} — {pair}: {len(games)} held-out games, {len(p)} positions (each game weighted "
                  f"equally); base: {sum(fitted):g}/{len(fitted)} fit games",
                  f"  Brier {brier:.4f} vs the base rate {base:.3f}: {brier_base:.4f} ({met} the base rate); "
                  f"hindsight {ys.mean():.2f}: {brier_hind:.4f}",
                  f"  Brier minus the base rate's {diff:+.4f}, its standard error over the {len(games)} games "
                  f"{diff_se:.4f} (a game's positions together are one draw)",
                  f"  decided positions (odds exactly 0 or 1 before the end): {len(decided)} in "
                  f"{sum(1 for _, pts in games if any(pt[2] for pt in pts))} games, wrong {wrong}",
                  f"  start odds {start:.2f}; Union measured {ys.sum():g}/{len(ys)} = {ys.mean():.2f} "
                  f"(95% {low:.2f}-{high:.2f}): {inside}",
                  "  reliability: bin, positions, mean predicted, observed"]
        for lo in np.linspace(0, 0.9, 10):
            mask = (p >= lo) & ((p < lo + 0.1) if lo < 0.85 else (p <= 1))
            if mask.any():
                cell.append(f"    {lo:.1f}-{lo + 0.1:.1f} {int(mask.sum()):>6} {p[mask].mean():>7.3f} {y[mask].mean():>7.3f}")
        blocks[(scenario, pair)] = cell
        summary[(scenario, pair)] = (f"{scenario:6} {pair:16} {len(games):>5} {brier:>7.4f} {brier_base:>7.4f} "
                                     f"{met:>9}   {start:>5.2f} {ys.sum():>4g}/{len(ys):<3} {low:.2f}-{high:.2f} "
                                     f"{inside:>7}   {len(decided):>3} {wrong:>3}")
        store[pair.replace(" v ", "-")][scenario] = {
            "games": len(games), "brier": round(brier, 4), "base_brier": round(brier_base, 4),
            "base_rate": round(base, 4), "union": round(float(ys.mean()), 4)}
    head = ["The measures (issue 34): held-out Brier below the base rate; start odds inside the 95% Wilson "
            "interval of the held-out result; decided positions (exactly 0 or 1) never wrong.",
            "scenario pair             games   Brier    base       met   start  Union    95%     start    "
            "decided wrong"]
    out = Path(args.out) if args.out else None
    old = out.read_text(encoding="utf-8") if out is not None and out.exists() else ""
    if args.keep:  # the cells these games do not cover: as the file reported them before
        kept_summary, kept_blocks = previous_cells(old)
        kept = sorted(set(kept_summary) - set(summary), key=_order)
        for key in kept:
            summary[key], blocks[key] = kept_summary[key], kept_blocks.get(key, [])
        if kept:
            lines.append(f"Kept from this file's previous report (cells not in these games, {len(kept)}): "
                         + ", ".join(f"{scenario} {pair}" for scenario, pair in kept) + ".")
            lines.append("")
    order = sorted(summary, key=_order)
    for key in order:
        lines += blocks[key] + [""]
    k = len(starts)
    statistic, point = start_chi_square(starts)
    joint = [f"All {k} cells' start odds against their held-out results together (beside the measure, not "
             f"instead; how many cells fall outside by chance is on the next line): Pearson chi-square "
             f"{statistic:.2f}, 95% point for {k} degrees of freedom {point:.2f}: "
             + ("consistent" if statistic <= point else "NOT consistent") + "."] if k else []
    if k:
        every, expected = start_by_chance(chances)
        joint.append(f"By chance alone, with each cell's true result its games' mean (fit and held-out) and "
                     f"as many fit and held-out games drawn anew, every start inside in {every:.0%} of "
                     f"repetitions, {expected:.1f} of {k} outside on average (start_by_chance).")
    text = "\n".join(head + [summary[key] for key in order] + [""] + joint + [""] + lines)
    print(text)
    if out is not None:  # the file's hand-written preface (above MARK) is kept, the rest written again
        preface = old[:old.index(MARK)] if MARK in old else ""
        out.write_text(preface + MARK + "\n\n" + text + "\n", encoding="utf-8")
    if args.store:
        path = ROOT / "ahd" / "data" / "war_odds.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        for pair, by in store.items():
            for scenario, figures in by.items():
                entry = data.setdefault("pairs", {}).setdefault(pair, {}).setdefault("by_scenario", {})
                entry.setdefault(scenario, {})["heldout"] = figures
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        print(f"written the held-out figures to {path}")


def brier_margin(games, base: float) -> tuple[float, float]:
    """The cell's Brier score minus the base rate's, as the report weighs positions (each game 1), and its
    standard error with the games as the draws: (mean of d, sd(d) / sqrt(games)), d a game's mean over its
    positions of (p - y)^2 - (base - y)^2. Beside the measure: how far a miss or a pass is from noise."""
    d = np.array([np.mean([(pt[0] - y) ** 2 - (base - y) ** 2 for pt in pts]) for y, pts in games])
    return float(d.mean()), float(d.std(ddof=1) / math.sqrt(len(d))) if len(d) > 1 else 0.0


def start_chi_square(cells) -> tuple[float, float]:
    """The start odds ``p`` of every cell against its held-out result, ``wins`` (a draw half) of ``games``,
    all cells together: (Pearson's chi-square, the sum of (wins - games p)^2 / (games p (1 - p)), and its 95%
    point for as many degrees of freedom as cells, by Wilson and Hilferty's approximation: 43.77 for 30 cells,
    against the tables' 43.773)."""
    statistic = sum((wins - games * p) ** 2 / (games * p * (1 - p)) for wins, games, p in cells)
    k = len(cells)
    return statistic, (k * (1 - 2 / (9 * k) + 1.6449 * math.sqrt(2 / (9 * k))) ** 3 if k else 0.0)


def _binomial(n: int, p: float) -> list[float]:
    """P(k of n) for k = 0..n (in logs: n may be large)."""
    if p <= 0 or p >= 1:
        return [float(k == (0 if p <= 0 else n)) for k in range(n + 1)]
    return [math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p)
                     + (n - k) * math.log1p(-p)) for k in range(n + 1)]


def start_by_chance(cells) -> tuple[float, float]:
    """What the start-odds measure gives by chance alone when the estimator is right: for each cell, its true
    Union result taken as ``p`` (all its games' mean), the start odds as the smoothed result of ``fit_games``
    drawn anew, the held-out result as ``games`` more; (the chance that every cell's start odds fall inside its
    95% Wilson interval, the expected number of cells outside), computed exactly over both binomials (a draw
    counted as half a win is left out: draws only narrow the spread). Cells are independent (own seeds)."""
    all_inside, outside = 1.0, 0.0
    for p, fit_games, games in cells:
        intervals = [wilson(b, games) for b in range(games + 1)]
        held = _binomial(games, p)
        inside = 0.0
        for a, pa in enumerate(_binomial(fit_games, p)):
            start = (a + 1) / (fit_games + 2)  # prior_of the fit games
            inside += pa * sum(pb for (low, high), pb in zip(intervals, held) if low <= start <= high)
        all_inside *= inside
        outside += 1 - inside
    return all_inside, outside


def previous_cells(text: str) -> tuple[dict, dict]:
    """What a report written by ``report --out`` says per cell, read back: its summary rows and its cells'
    paragraphs, each by (scenario, pair) (``report --keep``)."""
    body = text[text.index(MARK) + len(MARK):] if MARK in text else ""
    summary, blocks, current = {}, {}, None
    for line in body.splitlines():
        row = re.match(r"(\S+)\s+(\w+ v \w+)\s+\d+\s+\d\.\d{4}\s", line)
        head = re.match(r"(\S+) — (\w+ v \w+): ", line)
        if row and row[1] in SCENARIOS:
            summary[(row[1], row[2])] = line
        elif head and head[1] in SCENARIOS:
            current = (head[1], head[2])
            blocks[current] = [line]
        elif current is not None and line.startswith("  "):
            blocks[current].append(line)
        else:
            current = None
    return summary, blocks


def seed_ranges(seeds) -> str:
    """The seeds of a cell's games as runs, e.g. "944000-944019, 946000-946019"."""
    runs: list[list[int]] = []
    for seed in sorted(set(seeds)):
        if runs and seed == runs[-1][1] + 1:
            runs[-1][1] = seed
        else:
            runs.append([seed, seed])
    return ", ".join(f"{a}-{b}" if a != b else str(a) for a, b in runs)


def files_said(paths: list[str]) -> str:
    """The game files ``paths`` as the shell pattern that names exactly them when there is one (kept games,
    ``FOLDER/g_SEED_SCENARIO_PAIR.jsonl.xz``, by their first seeds: ``FOLDER/g_{944000,946000}_*.jsonl.xz``),
    else one by one."""
    found = [re.fullmatch(r"(.*/)?g_(\d+)_[^/]+\.jsonl(\.xz)?", path) for path in paths]
    if not all(found) or len({(m[1], m[3]) for m in found}) != 1:
        return " ".join(paths)
    folder, ext = found[0][1] or "", found[0][3] or ""
    blocks = sorted({m[2] for m in found}, key=int)
    named = sorted(str(Path(folder) / f.name) if folder else f.name
                   for block in blocks for f in Path(folder or ".").glob(f"g_{block}_*.jsonl{ext}"))
    if named != sorted(paths):
        return " ".join(paths)
    return f"{folder}g_" + (f"{{{','.join(blocks)}}}" if len(blocks) > 1 else blocks[0]) + f"_*.jsonl{ext}"


#: the grids ``fit_cell`` searches: the logit offset, the slope on the model's logit, the share of the prior held
OFFSETS = np.round(np.arange(-4.0, 4.0001, 0.02), 4)
#: the slope, from stop 44 (chosen by cross-validation on the 60 earlier games a cell: scripts/war_odds_cv.py,
#: docs/bots/issue34_seeds.txt); (1.0,) is the estimator of stops 40-43
SLOPES = tuple(float(a) for a in np.round(np.arange(0.2, 2.0001, 0.1), 2))
#: the wider grid stop 46 tries (docs/bots/issue34_seeds.txt): half the 60-game fit's slopes sat at 2.0
SLOPES4 = tuple(float(a) for a in np.round(np.arange(0.2, 4.0001, 0.1), 2))
HOLDS = tuple(float(h) for h in np.round(np.arange(0.0, 0.95, 0.1), 2))
#: the power of the time left in the lean on the prior (stop 53, chosen by cross-validation on the 220 fit games a
#: cell: docs/bots/war_odds_cv_stop53.txt; widened from 4 to 16 at stop 54 by its own,
#: docs/bots/war_odds_cv_stop54.txt); (1.0,) is the lean of stops 40-52
SHAPES = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
#: fit's grids by its --slopes, and the grids that leave the pair's prior alone (hold 1: offset and slope moot)
GRIDS = {"0.2..2": (SLOPES, HOLDS), "0.2..4": (SLOPES4, HOLDS)}
PRIOR_ALONE = ((1.0,), (1.0,))


def fit_cell(pts, prior: float, slopes=SLOPES, holds=HOLDS, lates=(0.0,),
             shapes=(1.0,)) -> tuple[float, float, float, float, float]:
    """The (offset, hold, slope, late, shape) of one pair in one scenario: the values, on the grids, whose odds have
    the lowest Brier score over the fit games' undecided positions ``pts`` = [(model p without offsets, result,
    weight, time left)], blended with ``prior`` as ``ahd.odds.war.war_odds`` does (the logit times ``slope``
    plus ``offset``). A hold of 1 is the constant prior, the base rate itself; a tiny penalty prefers the
    smaller offset, the slope nearer 1, the smaller late and the shape nearer 1.

    ``late`` (stop 52, a candidate of scripts/war_odds_cv.py only; the app has none, so ``fit`` keeps 0): the
    slope grows as the time runs out, ``slope + late x (1 - time left)``, so that the odds can grow surer towards
    the end than at the start.

    ``shape`` (stop 53; ``fit`` searches :data:`SHAPES`, adopted by its declared cross-validation,
    docs/bots/war_odds_cv_stop53.txt, and widened to 16 by stop 54's): the lean on the prior falls as the time left
    to the power ``shape``, ``hold + (1 - hold) x left ** shape`` (``ahd.odds.war.blend_weight``), so that below 1
    the odds keep to the prior longer and leave it later and faster."""
    if all(hold >= 1 for hold in holds):  # the prior alone: what the penalties pick, with no search
        return 0.0, 1.0, min(slopes, key=lambda slope: (abs(slope - 1), slope)), 0.0, 1.0
    z = war.logit([v[0] for v in pts])
    y = np.array([v[1] for v in pts], dtype=float)
    w = np.array([v[2] for v in pts], dtype=float)
    left = np.array([v[3] for v in pts], dtype=float)
    # p - y = (1 - lean) (q - prior) + (prior - y): the weighted sum of its square is two matrix products over the
    # positions, one column per (shape, hold) in the order of the loops it replaces (the first best wins, as there)
    combos = [(shape, hold) for shape in shapes for hold in holds]
    keep = np.array([1 - war.blend_weight(left, hold, shape) for shape, hold in combos]).T  # positions x combos
    square, cross = w[:, None] * keep ** 2, (w * (prior - y))[:, None] * keep
    rest = float((w * (prior - y) ** 2).sum())
    penalty = np.array([1e-5 * math.log(shape) ** 2 for shape, _ in combos])[:, None] + 1e-5 * OFFSETS ** 2
    best = (math.inf, 0.0, 0.0, 1.0, 0.0, 1.0)
    for slope in slopes:
        for late in lates:
            d = war.adjusted(z[None, :], OFFSETS[:, None], slope + late * (1 - left)[None, :]) - prior  # offsets x pos.
            score = (((d ** 2) @ square + 2 * (d @ cross) + rest) / w.sum()).T  # combos x offsets
            score += penalty + 1e-5 * (slope - 1) ** 2 + 1e-5 * late ** 2
            c, k = np.unravel_index(int(np.argmin(score)), score.shape)
            if score[c, k] < best[0]:
                shape, hold = combos[c]
                best = (float(score[c, k]), float(OFFSETS[k]), float(hold), float(slope), float(late), float(shape))
    return best[1:]


#: the recalibration's ridge, times the cell's total weight, on every coefficient but the constant
RIDGE = 1e-3


def fit_recal(z, t, y, w, terms, ridge: float = RIDGE, rounds: int = 100, offset: float | None = None,
              loss: str = "log") -> np.ndarray:
    """The recalibration's coefficients by weighted maximum likelihood (``loss="log"``: Newton's method; results 1,
    0 or ½) or by weighted least squares on the odds (``loss="brier"``, the Brier score itself, stop 56:
    Gauss-Newton), with the ridge on all but the constant; ``offset``: a fixed logit added to every position (the
    anchored forms'). Each step is halved until the penalized loss does not grow (recal2 diverged without)."""
    if loss not in ("log", "brier"):
        raise ValueError(f"fit_recal: loss {loss!r}; log or brier")
    x = war.recal_columns(z, t, terms)[0]
    constant = terms[0] == "1"
    penalty = ridge * w.sum() * np.r_[0.0 if constant else 1.0, np.ones(x.shape[1] - 1)]
    beta = np.zeros(x.shape[1])
    if constant:
        mean = np.clip(np.average(y, weights=w), 1e-3, 1 - 1e-3)
        beta[0] = np.log(mean / (1 - mean))
    shift = 0.0 if offset is None else offset

    def cost(b):  # the penalized loss, to be minimized
        eta = x @ b + shift
        fit = (-float(w @ (y * eta - np.logaddexp(0.0, eta))) if loss == "log"
               else float(w @ (war.adjusted(eta) - y) ** 2))
        return fit + 0.5 * float(penalty @ (b * b))

    def step_from(b):  # Newton's step (log) or Gauss-Newton's (brier)
        p = war.adjusted(x @ b, shift)
        if loss == "log":
            descent = x.T @ (w * (y - p)) - penalty * b
            hessian = (x * (w * p * (1 - p))[:, None]).T @ x + np.diag(penalty)
        else:
            jacobian = x * (p * (1 - p))[:, None]
            descent = -(jacobian.T @ (w * (p - y)) + 0.5 * penalty * b)
            hessian = (jacobian * w[:, None]).T @ jacobian + 0.5 * np.diag(penalty)
        return np.linalg.solve(hessian + 1e-9 * np.eye(len(b)), descent)

    slack = 1e-12 if loss == "log" else 1e-15  # a growth of the loss let pass (stops 55 and 56: their fits kept)
    now = cost(beta)
    for _ in range(rounds):
        step = step_from(beta)
        while (trial := cost(beta + step)) > now + slack and np.max(np.abs(step)) > 1e-12:
            step = step / 2
        beta, now = beta + step, trial  # the loss of the step taken: not computed again next round
        if np.max(np.abs(step)) < 1e-10:
            break
    return beta


def fit_anchor(pts, prior: float, form: str = "anchor", loss: str = "log") -> tuple[float, ...]:
    """The coefficients of a recalibration anchored at the pair's prior (``ahd.odds.war.RECAL_FORMS``, stop 55) on
    a cell's undecided positions ``pts`` = [(model p without adjustments, result, weight, time left)]: the logit of
    the prior a fixed offset, so at the scenario's start the odds are the prior."""
    p0, y, w, left = (np.array(column, dtype=float) for column in zip(*pts))
    return tuple(float(c) for c in fit_recal(war.logit(p0), 1 - left, y, w, war.RECAL_FORMS[form],
                                             offset=float(war.logit(prior)), loss=loss))


def fit(args) -> None:
    """Per pair and scenario: the prior and (``--form anchor``, stop 55) the recalibration anchored at it
    (``fit_anchor``; by least squares on the odds since stop 56, ``--loss brier``), or (``--form shape``) a logit
    offset and slope on top of the base model, the share of the prior held to the end and the lean's shape
    (``fit_cell``); merged into ``ahd/data/war_odds.json`` "pairs" (other pairs and scenarios kept)."""
    per, results, seeds = defaultdict(list), defaultdict(list), defaultdict(list)
    for g in games_of(args.files):  # the model's odds without offsets: the same for every pair
        key = (g["pair"].replace(" v ", "-"), g["scenario"])
        per[key] += [(p, g["y"], 1 / len(g["pts"]), left) for p, _, decided, left in g["pts"] if not decided]
        results[key].append(g["y"])
        seeds[key].append(g["seed"])
    unknown = sorted(set(args.prior_alone) - {f"{scenario}:{pair}" for pair, scenario in per})
    if unknown:
        raise SystemExit(f"--prior-alone: no fit games for {', '.join(unknown)} (SCENARIO:UNION-CONFEDERACY)")
    path = ROOT / "ahd" / "data" / "war_odds.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    pairs, dropped = data.setdefault("pairs", {}), []
    for (pair, scenario), pts in sorted(per.items()):
        ys = results[(pair, scenario)]
        prior = prior_of(ys)
        alone = f"{scenario}:{pair}" in args.prior_alone
        form = args.form
        if form in war.RECAL_FORMS and not alone:  # stop 55: a recalibration anchored at the prior
            coef = fit_anchor(pts, round(prior, 4), form, loss=args.loss)
            entry = {"prior": round(prior, 4), "form": form, "coef": [round(c, 6) for c in coef], "games": len(ys),
                     "seeds": seed_ranges(seeds[(pair, scenario)])}
            said = f"{form} " + " ".join(f"{term} {c:+.3f}" for term, c in zip(war.RECAL_FORMS[form], coef))
        else:
            slopes, holds = PRIOR_ALONE if alone else GRIDS[args.slopes]
            shapes = (1.0,) if alone or args.no_shape else SHAPES
            offset, hold, slope, _, shape = fit_cell(pts, prior, slopes=slopes, holds=holds, shapes=shapes)  # no late
            entry = {"offset": round(offset, 4), "slope": slope, "prior": round(prior, 4), "hold": hold,
                     "shape": shape, "games": len(ys), "seeds": seed_ranges(seeds[(pair, scenario)])}
            said = f"offset {offset:+.2f}, slope {slope:.1f}, hold {hold:.1f}, shape {shape:g}"
        by_scenario = pairs.setdefault(pair, {}).setdefault("by_scenario", {})
        if "heldout" in by_scenario.get(scenario, {}):
            dropped.append(f"{scenario}:{pair}")  # they describe the fit replaced here
        by_scenario[scenario] = entry
        print(f"{pair:14} {scenario}: {said} on {len(pts)} positions; prior {prior:.3f} (Union {sum(ys):g}/{len(ys)})")
    for pair in {p for p, _ in per}:
        pairs[pair]["command"] = ("python scripts/war_odds_calibration.py fit " + files_said(args.files)
                                  + (f" --form {args.form}" if args.form != "anchor" else "")
                                  + (f" --loss {args.loss}" if args.form in war.RECAL_FORMS else "")
                                  + (f" --slopes {args.slopes}" if args.slopes != "0.2..2" else "")
                                  + (" --no-shape" if args.no_shape else "")
                                  + (" --prior-alone " + " ".join(args.prior_alone) if args.prior_alone else ""))
    data.pop("scenarios", None)  # before pairs: hard v hard only (now pairs["hard-hard"])
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"written {path}")
    if dropped:
        print(f"the held-out figures of {len(dropped)} refitted cells are dropped (they were of the earlier fit): "
              "run report --store on held-out games for the app's note")


def part_of(text: str) -> tuple[int, int]:
    try:
        j, m = (int(x) for x in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--part: {text!r} is not J/M (e.g. 0/2)") from None
    if not 0 <= j < m:
        raise argparse.ArgumentTypeError(f"--part: {text!r} needs 0 <= J < M")
    return j, m


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("play")
    p.add_argument("--scenarios", default=",".join(SCENARIOS))
    p.add_argument("--pairs", default="hard-hard")
    p.add_argument("--games", type=int, default=6)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--save", required=True, help="the file; {scenario} and {pair} in it make one file a cell")
    p.add_argument("--cell-step", type=int, default=0, help="cell k's game i has seed SEED + CELL_STEP * k + i")
    p.add_argument("--by-round", action="store_true", help="game i of every cell before game i + 1 of any")
    p.add_argument("--part", type=part_of, default=(0, 1), metavar="J/M", help="only the games i with i %% M == J")
    p.add_argument("--stop-at", type=float, metavar="EPOCH", help="with --by-round: no round starts after this time")
    p.add_argument("--bot-seeds", choices=BOT_SEEDS, default="apart",
                   help="how the bots are seeded (see bot_seeds): apart from the dice (stop 60 on) or the same "
                        "as the blocks before 1090000")
    g = sub.add_parser("gather", help="the parts of a play --by-round block, one file a cell, whole rounds only")
    g.add_argument("files", nargs="+")
    g.add_argument("--scenarios", default=",".join(SCENARIOS))
    g.add_argument("--pairs", default="hard-hard")
    g.add_argument("--seed", type=int, required=True)
    g.add_argument("--cell-step", type=int, default=0)
    g.add_argument("--save", required=True, help="one file a cell: {scenario} and {pair} in the name")
    r = sub.add_parser("report")
    r.add_argument("files", nargs="+")
    r.add_argument("--out")
    r.add_argument("--base", nargs="*", help="games whose mean result is the base rate (default: those reported)")
    r.add_argument("--jobs", type=int, default=1, help="processes replaying the files (one file each at a time)")
    r.add_argument("--store", action="store_true", help="write the held-out figures to ahd/data/war_odds.json")
    r.add_argument("--keep", action="store_true",
                   help="with --out: keep the cells of the file's previous report that these games do not cover")
    f = sub.add_parser("fit")
    f.add_argument("files", nargs="+")
    f.add_argument("--form", choices=(*war.RECAL_FORMS, "shape"), default="anchor",
                   help="anchor (stop 55, the app's): a recalibration anchored at the prior (ahd.odds.war.RECAL_FORMS); "
                        "shape: stops 40-54's offset, slope, hold and shape on grids (--slopes, --no-shape)")
    f.add_argument("--loss", choices=("brier", "log"), default="brier",
                   help="how a recalibration is fitted: brier (stop 56, the app's), least squares on the odds, the "
                        "Brier score the measure takes; log, maximum likelihood (stop 55)")
    f.add_argument("--slopes", choices=tuple(GRIDS), default="0.2..2",
                   help="the slope grid (SLOPES, or SLOPES4: stop 46's cross-validation chooses)")
    f.add_argument("--prior-alone", nargs="*", default=[], metavar="SCENARIO:PAIR",
                   help="cells that ship the pair's prior alone (hold 1), e.g. 1864:normal-hard: where the "
                        "cross-validation does not show the position model adding anything")
    f.add_argument("--no-shape", action="store_true",
                   help="the lean of stops 40-52 (shape 1) instead of fitting the shape (SHAPES)")
    args = parser.parse_args()
    if args.command == "play" and args.stop_at is not None and not args.by_round:
        parser.error("play --stop-at needs --by-round (it stops between rounds)")
    if args.command == "report" and args.keep and not args.out:
        parser.error("report --keep needs --out (the file whose previous report keeps the other cells)")
    {"play": play, "gather": gather, "report": report, "fit": fit}[args.command](args)


if __name__ == "__main__":
    main()
