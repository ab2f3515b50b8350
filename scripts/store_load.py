"""The game store under load: simulated players (no browsers) play 20 games at once through the store, as
students' kernels do (each player its own connection, a poll every 0.4 s), and the figures are reported.

    .venv/bin/python scripts/store_load.py [--games 20] [--seconds 60] [--poll 0.4] [--processes 2] [--data DIR]

Each game has three players: the Union player in two tabs (so that submits race: exactly one wins, the
other gets MovedFirst and catches up) and the Confederate player. On their decision a player plays a random
legal action at once (no thinking time); otherwise it sleeps ``poll`` seconds and reads the new actions.
At the end every game is replayed from the store and every accepted submit is checked against the store:
0 lost and 0 duplicated actions is required.

Figures: accepted decisions per second (and recorded actions per second, the generator's rolls included),
the p50/p95 latency from an accepted submit (its commit) to the opponent's page having it (poll included),
submit times, lost races.
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from ahd import Game  # noqa: E402
from widgets.classmates.store import MovedFirst, Store, deciding_side, store_path  # noqa: E402


def _player(path: Path, token: str, seed: int, stop_at: float, poll: float, out: dict, think: float = 0.0) -> None:
    """One simulated player (one page): sync, play its decisions, sleep ``poll``; everything accepted is logged."""
    store = Store(path)
    seat = store.resume(token)
    rng = random.Random(seed)
    accepted: list[tuple[int, list[dict]]] = []
    latencies: list[float] = []
    submit_s: list[float] = []
    races = 0
    try:
        while time.time() < stop_at:
            before = seat.seq
            seat.sync()
            now = time.time()
            for _seq, _raw, side, _tab, at in _rows_with_time(store, seat, before):
                if side != seat.side.value:
                    latencies.append(now - at)
            game = seat.game
            if game.is_over:
                break
            if deciding_side(game) is not seat.side:
                time.sleep(poll)
                continue
            if think:
                time.sleep(rng.uniform(0, 2 * think))
                if seat.store.count(seat.game_id) != seat.seq:
                    continue  # changed while thinking (the other tab): look again
            action = rng.choice(game.legal_actions())
            start = seat.seq
            t0 = time.perf_counter()
            try:
                seat.submit(action)
            except MovedFirst:
                races += 1
                continue
            submit_s.append(time.perf_counter() - t0)
            accepted.append((start, game.record_actions(start)))
    finally:
        out.update(accepted=accepted, latencies=latencies, submit_s=submit_s, races=races, game=seat.game_id)
        store.close()


def _rows_with_time(store: Store, seat, start: int):
    if seat.seq == start:
        return []
    rows = store._read("SELECT seq, action, side, tab, submitted FROM actions WHERE game = ? AND seq >= ? AND seq < ?",
                       (seat.game_id, start, seat.seq))
    return [(s, a, side, tab, at) for s, a, side, tab, at in rows]


def _run_group(path: str, players: list[tuple[str, int]], stop_at: float, poll: float, queue, think: float = 0.0) -> None:
    """One process: its players as threads; the results go back through ``queue``."""
    results = [dict() for _ in players]
    threads = [threading.Thread(target=_player, args=(Path(path), token, seed, stop_at, poll, results[i], think),
                                daemon=True)
               for i, (token, seed) in enumerate(players)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    queue.put(results)


def run_load(path: Path, *, games: int = 20, seconds: float = 60.0, poll: float = 0.4, processes: int = 2,
             seed: int = 1, think: float = 0.0) -> dict:
    """Play ``games`` games for ``seconds`` and check the store; returns the figures and the checks."""
    store = Store(path, check=True)
    players: list[tuple[str, int]] = []
    for index in range(games):
        # each game created as if from a page of its own (a page may create only GAMES_PER_PAGE in 10 minutes)
        union = Store(path).create(side="union", name=f"U{index}", seed=seed + index)
        confederate = store.join(union.code, f"C{index}")
        players += [(union.token, 3 * index), (union.token, 3 * index + 1), (confederate.token, 3 * index + 2)]
    stop_at = time.time() + seconds
    started = time.time()
    results: list[dict] = []
    if processes <= 1:
        queue: list = []

        class _Q:
            def put(self, item):
                queue.append(item)

        _run_group(str(path), players, stop_at, poll, _Q(), think)
        results = queue[0]
    else:
        context = multiprocessing.get_context("spawn")
        q = context.Queue()
        groups = [players[i::processes] for i in range(processes)]
        procs = [context.Process(target=_run_group, args=(str(path), group, stop_at, poll, q, think)) for group in groups]
        for proc in procs:
            proc.start()
        for _ in procs:
            results += q.get(timeout=seconds + 600)
        for proc in procs:
            proc.join(timeout=60)
    elapsed = time.time() - started
    # the checks: every accepted submit is in the store at its numbers, and nothing else is
    by_game: dict[int, dict[int, dict]] = {}
    duplicated = 0
    for result in results:
        for start, actions in result["accepted"]:
            rows = by_game.setdefault(result["game"], {})
            for offset, action in enumerate(actions):
                if start + offset in rows:
                    duplicated += 1
                rows[start + offset] = action
    lost = mismatched = unreplayable = 0
    stored_total = 0
    for row in store.games():
        record = store.record(row.id)
        stored = record["actions"]
        stored_total += len(stored)
        mine = by_game.get(row.id, {})
        for seq, action in mine.items():
            if seq >= len(stored):
                lost += 1
            elif stored[seq] != action:
                mismatched += 1
        # a stored action that no player saw accepted (beyond the rolls recorded at creation)
        mismatched += sum(1 for seq in range(_first_submitted(store, row.id), len(stored)) if seq not in mine)
        try:
            Game.from_dict(record)
        except Exception:  # noqa: BLE001
            unreplayable += 1
    latencies = sorted(x for r in results for x in r["latencies"])
    submits = sorted(x for r in results for x in r["submit_s"])
    decisions = len(submits)

    def pct(values, p):
        return values[min(len(values) - 1, int(p * len(values)))] if values else float("nan")

    return {
        "games": games, "players": len(players), "seconds": round(elapsed, 1), "processes": processes,
        "poll_s": poll, "think_s": think, "decisions": decisions, "decisions_per_s": decisions / elapsed,
        "actions_stored": stored_total, "actions_per_s": stored_total / elapsed,
        "latency_p50_s": pct(latencies, 0.5), "latency_p95_s": pct(latencies, 0.95), "latency_n": len(latencies),
        "submit_p50_ms": 1000 * pct(submits, 0.5), "submit_p95_ms": 1000 * pct(submits, 0.95),
        "races_lost": sum(r["races"] for r in results),
        "lost": lost, "duplicated": duplicated, "mismatched": mismatched, "unreplayable": unreplayable,
        "cpus": os.cpu_count(),
    }


def _first_submitted(store: Store, game_id: int) -> int:
    """Actions recorded at creation (a scenario that starts with dice) are nobody's submit."""
    rows = store._read("SELECT COUNT(*) FROM actions WHERE game = ? AND tab = 'create'", (game_id,))
    return rows[0][0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--poll", type=float, default=0.4)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player thinks before each decision (default 0: as fast as possible)")
    parser.add_argument("--data", type=Path, default=None, help="folder for the store (default: a temporary one)")
    args = parser.parse_args(argv)
    data = args.data or Path(tempfile.mkdtemp(prefix="ahd-store-load-"))
    figures = run_load(store_path(data), games=args.games, seconds=args.seconds, poll=args.poll,
                       processes=args.processes, think=args.think)
    print(json.dumps(figures, indent=1))
    print(f"FIGURES store_load games={figures['games']} players={figures['players']} cpus={figures['cpus']} "
          f"seconds={figures['seconds']} think={figures['think_s']}s decisions/s={figures['decisions_per_s']:.1f} "
          f"actions/s={figures['actions_per_s']:.1f} latency p50={figures['latency_p50_s']:.3f}s "
          f"p95={figures['latency_p95_s']:.3f}s (poll {figures['poll_s']}s) submit p95={figures['submit_p95_ms']:.1f}ms "
          f"races lost={figures['races_lost']} lost={figures['lost']} duplicated={figures['duplicated']} "
          f"mismatched={figures['mismatched']} unreplayable={figures['unreplayable']}")
    bad = figures["lost"] + figures["duplicated"] + figures["mismatched"] + figures["unreplayable"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
