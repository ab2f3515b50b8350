"""Speed figures of the engine (``python -m ahd bench``): printed, never asserted by tests."""
from __future__ import annotations

import os
import platform
import statistics
import sys
import time

from ..bots import RandomBot
from ..core.game import new_game
from ..core.sides import CHANCE


def machine() -> str:
    """The CPU model, cores, Python and OS: printed with every figure."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu = next(line.split(":", 1)[1].strip() for line in f if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def run(games: int = 200, out=sys.stdout) -> dict:
    print(f"machine: {machine()}", file=out)
    legal_times: dict[str, list[float]] = {}
    fresh_times: dict[str, list[float]] = {}
    apply_times: dict[str, list[float]] = {}
    game_times = []
    actions = 0
    for seed in range(games):
        game = new_game("1861", seed=seed)
        bot = RandomBot(seed)
        start = time.perf_counter()
        while not game.is_over:
            if game.current_player == CHANCE:
                game.roll()
                continue
            decision = game.decision
            t0 = time.perf_counter()
            legal = game.legal_actions()
            t1 = time.perf_counter()
            action = legal[int(bot.rng.integers(len(legal)))]
            if seed % 10 == 0:  # a fresh computation, without the list cached by the previous apply
                f0 = time.perf_counter()
                game._engine.legal_uncached()
                fresh_times.setdefault(decision, []).append(time.perf_counter() - f0)
            t2 = time.perf_counter()
            game.apply(action)
            t3 = time.perf_counter()
            legal_times.setdefault(decision, []).append(t1 - t0)
            apply_times.setdefault(decision, []).append(t3 - t2)
            actions += 1
        game_times.append(time.perf_counter() - start)
    all_legal = [t for ts in legal_times.values() for t in ts]
    all_apply = [t for ts in apply_times.values() for t in ts]
    print(f"{games} random 1861 games, {actions} decisions", file=out)
    print(f"{'decision':<18}{'count':>8}{'legal_actions median':>22}{'fresh median':>15}{'apply median':>15}",
          file=out)
    for decision in sorted(legal_times, key=lambda d: -len(legal_times[d])):
        fresh = fresh_times.get(decision)
        fresh_text = f"{statistics.median(fresh) * 1e3:>12.3f} ms" if fresh else f"{'-':>15}"
        print(f"{decision:<18}{len(legal_times[decision]):>8}"
              f"{statistics.median(legal_times[decision]) * 1e3:>19.3f} ms{fresh_text}"
              f"{statistics.median(apply_times[decision]) * 1e3:>12.3f} ms", file=out)
    all_fresh = [t for ts in fresh_times.values() for t in ts] or [0.0]
    figures = {
        "legal_actions_median_ms": statistics.median(all_legal) * 1e3,
        "legal_actions_fresh_median_ms": statistics.median(all_fresh) * 1e3,
        "apply_median_ms": statistics.median(all_apply) * 1e3,
        "game_median_ms": statistics.median(game_times) * 1e3,
        "games_per_second": games / sum(game_times),
    }
    print(f"all decisions: legal_actions median {figures['legal_actions_median_ms']:.3f} ms "
          f"(computed afresh: {figures['legal_actions_fresh_median_ms']:.3f} ms, p95 "
          f"{sorted(all_fresh)[int(0.95 * (len(all_fresh) - 1))] * 1e3:.3f} ms), "
          f"apply median {figures['apply_median_ms']:.3f} ms", file=out)
    print(f"full random game (incl. the random players' choices): median {figures['game_median_ms']:.1f} ms, "
          f"{figures['games_per_second']:.1f} games/s on one core", file=out)
    return figures


def _random_force(rng, size: int, defender: bool) -> list[str]:
    codes, weights = ["MF", "FV", "CV", "FS", "MC", "CS"], [0.5, 0.3, 0.08, 0.06, 0.04, 0.02]
    force = []
    for _ in range(size):
        flags = [str(rng.choice(codes, p=weights))]
        if rng.random() < 0.1:
            flags.append("reduced")
        if defender and rng.random() < 0.3:
            flags.append("entrenched")
        if not defender and rng.random() < 0.2:
            flags.append("crossing")
        force.append(":".join(flags))
    return force


def run_odds(battles: int = 30, out=sys.stdout) -> dict:
    """Battle-odds time by battle size: the exact method, and ``odds`` (auto: exact up to
    ``AUTO_MAX_STATES`` states, else Monte Carlo); Monte Carlo battles per second."""
    import numpy as np
    from ..odds import AUTO_MAX_STATES, AUTO_SAMPLES, OddsError, battle_odds, odds, simulate_battles
    from ..odds.exact import _assignment, _volley
    print(f"machine: {machine()}; {_load()}", file=out)
    print(f"targets: <= 5 ms median up to 4 v 4, <= 50 ms up to 8 v 8. odds() is exact up to {AUTO_MAX_STATES} "
          f"battle states, else {AUTO_SAMPLES:,} simulated battles (result.method says which)", file=out)
    rng = np.random.default_rng(1)
    figures = {}
    for low, high, cap in ((1, 4, 200_000), (5, 8, 20_000)):
        forces = []
        for _ in range(battles):
            a, d = int(rng.integers(low, high + 1)), int(rng.integers(low, high + 1))
            forces.append((_random_force(rng, a, False), _random_force(rng, d, True)))
        times, too_large = [], 0
        for attacker, defender in forces:
            _assignment.cache_clear()
            _volley.cache_clear()
            t0 = time.perf_counter()
            try:
                battle_odds(attacker, defender, max_states=cap)
                times.append(time.perf_counter() - t0)
            except OddsError:
                too_large += 1
        median = statistics.median(times) * 1e3 if times else float("nan")
        p90 = sorted(times)[int(0.9 * (len(times) - 1))] * 1e3 if times else float("nan")
        figures[f"exact_{low}_{high}_median_ms"] = median
        print(f"exact odds, {low}-{high} units a side ({battles} random battles, cold caches): median {median:.1f} ms, "
              f"p90 {p90:.1f} ms over the {len(times)} within {cap:,} states; {too_large} beyond", file=out)
        auto_times, methods = [], {"exact": 0, "monte carlo": 0}
        for attacker, defender in forces:
            _assignment.cache_clear()
            _volley.cache_clear()
            t0 = time.perf_counter()
            result = odds(attacker, defender)
            auto_times.append(time.perf_counter() - t0)
            methods[result.method] += 1
        auto_times.sort()
        figures[f"auto_{low}_{high}_median_ms"] = statistics.median(auto_times) * 1e3
        print(f"odds() auto, {low}-{high} units a side: median {statistics.median(auto_times) * 1e3:.1f} ms, p90 "
              f"{auto_times[int(0.9 * (len(auto_times) - 1))] * 1e3:.1f} ms, max {auto_times[-1] * 1e3:.1f} ms; "
              f"{methods['exact']} exact, {methods['monte carlo']} Monte Carlo", file=out)
    t0 = time.perf_counter()
    n = 200_000
    simulate_battles(["MF", "MF", "FV"], ["MF:entrenched", "FV"], n, seed=1)
    rate = n / (time.perf_counter() - t0)
    figures["monte_carlo_battles_per_second"] = rate
    print(f"Monte Carlo: {rate:,.0f} battles/s on one core (3 v 2 units, {n} battles)", file=out)
    return figures


def _load() -> str:
    try:
        one, five, _ = os.getloadavg()
        return f"load average {one:.2f} (1 min), {five:.2f} (5 min)"
    except OSError:  # pragma: no cover
        return "load average unknown"


def _rate_line(label: str, wins: float, n: int) -> str:
    from .simulate import wilson
    low, high = wilson(int(round(wins)), n)
    return f"{label}: {wins:g}/{n} = {wins / n:.1%} (95% Wilson interval {low:.1%}–{high:.1%})"


def run_bots(games: int = 40, search_games: int = 20, search: str = "search:iterations=2",
             workers: int = 2, timing_games: int = 10, throughput_games: int = 40, positions: int = 200,
             seed: int = 1, out=sys.stdout) -> dict:
    """Bot strength with 95% intervals, heuristic game time, throughput, live war-odds latency and
    the live model's calibration. Every figure says how many games it rests on."""
    import numpy as np
    from ..bots import make_bot, play
    from ..bots.heuristic import HeuristicBot
    from .simulate import simulate
    from ..odds.war import load_model, war_odds
    print(f"machine: {machine()}; {_load()} at start", file=out)
    figures: dict = {}

    def flush():
        out.flush() if hasattr(out, "flush") else None

    # --- strength
    for union, confederate in (("heuristic", "random"), ("random", "heuristic")):
        r = simulate(games, scenario="1861", union=union, confederate=confederate, seed=seed, workers=workers)
        side = "union" if union == "heuristic" else "confederate"
        print(_rate_line(f"heuristic ({side}) vs random, 1861", r.wins(side), len(r)), file=out)
        figures[f"heuristic_{side}_vs_random"] = r.wins(side) / len(r)
    flush()
    if search_games:
        t0 = time.perf_counter()
        seats = {}
        base = simulate(search_games, scenario="1861", seed=seed + 1, workers=workers, chunk=1)
        def margins(results, side):  # final army-maximum difference from ``side``'s view
            sign = 1 if side == "union" else -1
            return np.array([sign * (row.maxima[-1][1] - row.maxima[-1][2]) for row in results.rows], dtype=float)
        for side, (union, confederate) in (("union", (search, "heuristic")), ("confederate", ("heuristic", search))):
            r = simulate(search_games, scenario="1861", union=union, confederate=confederate, seed=seed + 1,
                         workers=workers, chunk=1)
            seats[side] = (r.wins(side), base.wins(side))
            print(_rate_line(f"{search} ({side}) vs heuristic, 1861", r.wins(side), len(r)) +
                  f"; the heuristic in that seat, same seeds: {base.wins(side)}/{len(base)}", file=out)
            diff = margins(r, side) - margins(base, side)
            se = diff.std(ddof=1) / np.sqrt(len(diff)) if len(diff) > 1 else float("nan")
            print(f"  final army maxima difference in the {side}'s favour: {margins(r, side).mean():+.1f} with search, "
                  f"{margins(base, side).mean():+.1f} with the heuristic (paired difference {diff.mean():+.1f} "
                  f"± {se:.1f} s.e.)", file=out)
        total = sum(w for w, _ in seats.values())
        print(_rate_line(f"{search} vs heuristic, both seats pooled", total, 2 * search_games) +
              f" [{time.perf_counter() - t0:.0f} s with {workers} workers]", file=out)
        figures["search_vs_heuristic"] = total / (2 * search_games)
        # time per decision of the search player, one game in this process
        bot, times = make_bot(search, 5), []
        game = new_game("1861", seed=5)

        class Timed:
            def choose(self, g):
                t = time.perf_counter()
                action = bot.choose(g)
                times.append(time.perf_counter() - t)
                return action
        play(game, Timed(), HeuristicBot(6))
        times.sort()
        figures["search_decision_p95_s"] = times[int(0.95 * (len(times) - 1))]
        print(f"  {search} time per decision (one game, {len(times)} decisions, {bot.stats['searched']} searched): "
              f"median {statistics.median(times) * 1e3:.0f} ms, p95 {figures['search_decision_p95_s'] * 1e3:.0f} ms, "
              f"max {times[-1] * 1e3:.0f} ms", file=out)
        flush()
    # --- heuristic game time (one process)
    times = []
    for i in range(timing_games):
        game = new_game("1861", seed=1000 + i)
        t0 = time.perf_counter()
        play(game, HeuristicBot(i), HeuristicBot(i + 1))
        times.append(time.perf_counter() - t0)
    figures["heuristic_game_median_s"] = statistics.median(times)
    print(f"heuristic vs heuristic, full 1861 game: median {statistics.median(times):.2f} s "
          f"(range {min(times):.2f}–{max(times):.2f} s, {timing_games} games, one process)", file=out)
    t0 = time.perf_counter()
    simulate(throughput_games, scenario="1861", seed=seed + 2, workers=workers)
    elapsed = time.perf_counter() - t0
    how = "measured" if throughput_games == 1000 else f"extrapolated from {throughput_games} games in {elapsed:.1f} s"
    figures["heuristic_1000_games_s"] = elapsed * 1000 / throughput_games
    print(f"1,000 heuristic-vs-heuristic 1861 games with {workers} workers: {elapsed * 1000 / throughput_games:.0f} s "
          f"({how})", file=out)
    flush()
    # --- live war odds latency, on positions from heuristic and random games
    latencies = []
    rng = np.random.default_rng(seed)
    scenarios = ("1861", "short", "1862", "1863", "1864")
    for i in range(positions):
        game = new_game(scenarios[i % len(scenarios)], seed=int(rng.integers(1 << 30)))
        bot = make_bot("random", i)
        for _ in range(int(rng.integers(0, 300))):
            if game.is_over:
                break
            game.roll() if game.current_player == "chance" else game.apply(bot.choose(game))
        if game.is_over:
            continue
        t0 = time.perf_counter()
        war_odds(game)
        latencies.append(time.perf_counter() - t0)
    latencies.sort()
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    figures["live_war_odds_p95_ms"] = p95 * 1e3
    print(f"live war odds: median {statistics.median(latencies) * 1e3:.3f} ms, p95 {p95 * 1e3:.3f} ms "
          f"({len(latencies)} positions)", file=out)
    # --- calibration of the shipped model (held-out games of its fit)
    import json
    from importlib import resources
    data = json.loads(resources.files("ahd").joinpath("data/war_odds.json").read_text(encoding="utf-8"))
    load_model()
    print(f"live model calibration on held-out simulated games (from: {data['command']}):", file=out)
    for kind, model in data["models"].items():
        print(f"  {kind}: Brier {model['heldout_brier']:.4f} vs base rate {model['base_rate']:.3f} "
              f"Brier {model['base_rate_brier']:.4f} ({model['heldout_games']} held-out games)", file=out)
        print(f"    {'predicted':>11} {'positions':>9} {'mean p':>7} {'observed':>8}", file=out)
        for lo, hi, n, mp, obs in model["reliability"]:
            print(f"    {lo:.1f}–{hi:.1f}   {n:>9} {mp:>7.3f} {obs:>8.3f}", file=out)
        figures[f"brier_{kind}"] = model["heldout_brier"]
    print(f"{_load()} at the end", file=out)
    return figures
