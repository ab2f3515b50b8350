"""Fit the live war-odds model (ahd/data/war_odds.json) on simulated games, and print its calibration.

    python scripts/fit_war_odds.py --players hard --games 600 --workers 2 --seed 17   (the model shipped)

Games are played between ``--players`` (the shipped model: ``hard`` against ``hard``, the strongest
players; by default a mix of the heuristic, the heuristic with 20% random moves and the random player,
which is how ``ahd/data/war_odds_heuristic.json``, the search bot's evaluation, was fitted) on every
built-in scenario (year scenarios sometimes played on to turn 40), game ``i`` seeded from
``SeedSequence(seed).spawn(games)[i]``, so the data do not depend on ``workers``. Each game gives
one sample per half-turn: the features of ``ahd.odds.war.features`` and the final result (Union
win 1, Confederate 0, scenario draw ½). Games are split by index: every fourth game is held out.
A logistic regression per game kind (campaign / scored) is fitted by Newton's method with a small
ridge penalty; the held-out Brier score, the base-rate Brier score and a reliability table are
printed, and written with the coefficients to the JSON file.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ahd.bots import RandomBot, make_bot  # noqa: E402
from ahd.core.game import new_game  # noqa: E402
from ahd.bots.heuristic import HeuristicBot  # noqa: E402
from ahd.core.sides import CHANCE, Side  # noqa: E402
from ahd.odds.war import FEATURES, PLAYERS_ABOUT, features, game_kind  # noqa: E402

SCENARIOS = (("1861", 0.4), ("short", 0.15), ("1862", 0.15), ("1863", 0.15), ("1864", 0.15))
BOTS = (("heuristic", 0.45), ("noisy", 0.35), ("random", 0.2))
SCENARIO_ONLY = None  # --scenario
#: Who played the games, as the model file says it (read by ahd.odds.war.players() for the app's note).
ABOUT = PLAYERS_ABOUT  # marked for the catalogs in ahd.odds.war

class NoisyHeuristic:
    """The heuristic, but a random legal action with probability ``noise``."""

    def __init__(self, seed: int, noise: float = 0.2) -> None:
        self.rng = np.random.default_rng(seed)
        self.inner = HeuristicBot(rng=self.rng)
        self.noise = noise

    def choose(self, game):
        if self.rng.random() < self.noise:
            actions = game.legal_actions()
            return actions[int(self.rng.integers(len(actions)))]
        return self.inner.choose(game)


def _bot(name: str, seed: int):
    builtin = {"heuristic": HeuristicBot, "noisy": NoisyHeuristic, "random": RandomBot}
    return builtin[name](seed=seed) if name in builtin else make_bot(name, seed)


def _setup(bots, scenario) -> None:
    """In a worker process: the players and scenario of the run (whatever the start method)."""
    global BOTS, SCENARIO_ONLY
    BOTS, SCENARIO_ONLY = bots, scenario


def parse_players(text: str) -> tuple[tuple[str, float], ...]:
    """``--players``: ``name=share,...`` (shares are normalised), e.g. ``hard`` (hard v hard only) or
    ``hard=0.8,noisy=0.2``; names: heuristic, noisy, random, or any ``ahd.bots.make_bot`` name."""
    pairs = []
    for item in text.split(","):
        name, _, share = item.partition("=")
        make_bot(name, 0) if name not in ("noisy",) else None  # a bad name is refused here, with a hint
        pairs.append((name.strip(), float(share) if share else 1.0))
    total = sum(w for _, w in pairs)
    return tuple((n, w / total) for n, w in pairs)


def play_game(args: tuple[int, np.random.SeedSequence]) -> dict:
    index, seq = args
    rng = np.random.default_rng(seq)
    scenario = SCENARIOS[rng.choice(len(SCENARIOS), p=[w for _, w in SCENARIOS])][0]
    play_on = scenario in ("1862", "1863", "1864") and rng.random() < 0.3
    names = [BOTS[rng.choice(len(BOTS), p=[w for _, w in BOTS])][0] for _ in range(2)]
    if SCENARIO_ONLY:
        scenario, play_on = SCENARIO_ONLY, False
    seeds = [int(s) for s in rng.integers(0, 2 ** 62, size=3)]
    game = new_game(scenario, seed=seeds[0], play_on=play_on)
    bots = {Side.UNION: _bot(names[0], seeds[1]), Side.CONFEDERATE: _bot(names[1], seeds[2])}
    samples = []
    last = None
    while not game.is_over:
        player = game.current_player
        if player == CHANCE:
            game.roll()
            continue
        mark = (game.state.turn, game.state.phasing)
        if mark != last:
            last = mark
            samples.append(features(game.state, game.scenario, play_on)[1].tolist())
        game.apply(bots[player].choose(game))
    winner = game.outcome.winner
    y = 1.0 if winner is Side.UNION else 0.0 if winner is Side.CONFEDERATE else 0.5
    return {"index": index, "kind": game_kind(game.scenario, play_on), "scenario": scenario, "play_on": play_on,
            "union": names[0], "confederate": names[1], "y": y, "x": samples}


def fit_logistic(x: np.ndarray, y: np.ndarray, w: np.ndarray, ridge: float = 1e-2) -> tuple[np.ndarray, np.ndarray]:
    """Weighted logistic regression with soft labels by Newton's method: (coefficients, covariance).
    ``w`` weights each sample by 1/(samples of its game), so each game counts once; the covariance is
    the inverse Hessian at the optimum with the weights scaled to the number of games."""
    beta = np.zeros(x.shape[1])
    penalty = ridge * np.eye(x.shape[1])
    penalty[0, 0] = ridge / 10  # a little on the intercept too: finite when a kind has one outcome only
    for _ in range(100):
        p = 1 / (1 + np.exp(-(x @ beta)))
        grad = x.T @ (w * (p - y)) + penalty @ beta
        hess = (x * (w * p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    p = 1 / (1 + np.exp(-(x @ beta)))
    hess = (x * (w * p * (1 - p))[:, None]).T @ x + penalty
    return beta, np.linalg.inv(hess)


def reliability(p: np.ndarray, y: np.ndarray, bins: int = 10) -> list[tuple[float, float, int, float, float]]:
    rows = []
    edges = np.linspace(0, 1, bins + 1)
    for i in range(bins):
        mask = (p >= edges[i]) & ((p < edges[i + 1]) if i < bins - 1 else (p <= 1))
        if mask.any():
            rows.append((float(edges[i]), float(edges[i + 1]), int(mask.sum()), float(p[mask].mean()), float(y[mask].mean())))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", default=str(ROOT / "ahd" / "data" / "war_odds.json"))
    parser.add_argument("--data", help="also save the raw samples (JSON) here")
    parser.add_argument("--from-data", help="fit on raw samples saved by --data instead of simulating")
    parser.add_argument("--players", default=None,
                        help="who plays the games, name=share,... (default: heuristic=0.45,noisy=0.35,random=0.2; "
                             "'hard': hard v hard, the strongest players on both sides)")
    parser.add_argument("--scenario", default=None, help="only this scenario (default: the mix of all)")
    args = parser.parse_args()
    global BOTS, SCENARIO_ONLY
    if args.players:
        BOTS = parse_players(args.players)
    SCENARIO_ONLY = args.scenario
    t0 = time.perf_counter()
    jobs = list(enumerate(np.random.SeedSequence(args.seed).spawn(args.games)))
    if args.from_data:
        games = json.loads(Path(args.from_data).read_text())[:args.games]
    elif args.workers > 1:
        with ProcessPoolExecutor(args.workers, initializer=_setup, initargs=(BOTS, SCENARIO_ONLY)) as pool:
            games = list(pool.map(play_game, jobs, chunksize=1))
    else:
        games = [play_game(j) for j in jobs]
    elapsed = time.perf_counter() - t0
    print(f"{args.games} games simulated in {elapsed:.0f} s with {args.workers} workers")
    if args.data:
        Path(args.data).write_text(json.dumps(games))
    out = {"format": "house-divided-war-odds", "version": 1, "seed": args.seed, "games": args.games,
           "command": f"python scripts/fit_war_odds.py --games {args.games} --workers {args.workers} --seed {args.seed}"
                      + (f" --players {args.players}" if args.players else "")
                      + (f" --scenario {args.scenario}" if args.scenario else ""),
           "players": [{"player": name, "share": share, "about": ABOUT.get(name, f"the '{name}' computer player")}
                       for name, share in BOTS],
           "models": {}}
    for kind in ("campaign", "scored"):
        rows = [g for g in games if g["kind"] == kind and g["x"]]
        train = [g for g in rows if g["index"] % 4 != 3]
        test = [g for g in rows if g["index"] % 4 == 3]

        def stack(group):
            x = np.array([s for g in group for s in g["x"]], dtype=float)
            y = np.array([g["y"] for g in group for _ in g["x"]], dtype=float)
            w = np.array([1.0 / len(g["x"]) for g in group for _ in g["x"]], dtype=float)
            return x, y, w
        x, y, w = stack(train)
        beta, cov = fit_logistic(x, y, w)
        xt, yt, wt = stack(test)
        pt = 1 / (1 + np.exp(-(xt @ beta)))
        brier = float(np.average((pt - yt) ** 2, weights=wt))
        base_rate = float(np.average(y, weights=w))
        brier_base = float(np.average((base_rate - yt) ** 2, weights=wt))
        table = reliability(pt, yt)
        print(f"\n{kind} model: {len(train)} training games ({len(y)} positions), {len(test)} held-out games "
              f"({len(yt)} positions)")
        for name, b, s in zip(FEATURES[kind], beta, np.sqrt(np.diag(cov))):
            print(f"  {name:<18}{b:>9.3f} ± {s:.3f}")
        print(f"  held-out Brier score {brier:.4f}; always predicting the training base rate {base_rate:.3f}: "
              f"{brier_base:.4f} (skill {1 - brier / brier_base if brier_base else 0:.1%})")
        print("  reliability (held-out positions): predicted bin, positions, mean predicted, observed Union wins")
        for lo, hi, n, mp, obs in table:
            print(f"    {lo:.1f}-{hi:.1f} {n:>7} {mp:>9.3f} {obs:>9.3f}")
        out["models"][kind] = {"features": list(FEATURES[kind]), "coef": beta.tolist(), "cov": cov.tolist(),
                               "games": len(train), "positions": len(y), "heldout_games": len(test),
                               "heldout_brier": brier, "base_rate": base_rate, "base_rate_brier": brier_base,
                               "reliability": [list(r) for r in table]}
    old = json.loads(Path(args.out).read_text()) if Path(args.out).exists() else {}
    Path(args.out).write_text(json.dumps(out, indent=1) + "\n")
    print(f"\nwritten {args.out}")
    if old.get("pairs"):  # offsets relative to the model just replaced: they no longer apply
        print("the per-pair, per-scenario adjustments were fitted on the old model and are dropped: fit them again, "
              "scripts/war_odds_calibration.py fit (docs/bots/war_odds_calibration.txt has the commands)")


if __name__ == "__main__":
    main()
