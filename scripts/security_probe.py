"""Figures for docs/security.md (issue 31), measured on 127.0.0.1 only, every loop bounded:

    .venv/bin/python scripts/security_probe.py            # all three
    .venv/bin/python scripts/security_probe.py legacy     # a legacy-protocol websocket, then another page
    .venv/bin/python scripts/security_probe.py teacher    # the teacher's list with 20,000 stored games
    .venv/bin/python scripts/security_probe.py guesses    # wrong join codes one page can try in 10 s
"""
from __future__ import annotations

import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]


def legacy() -> dict:
    from security_client import V1, Browser, kernel_socket_probe
    import serve
    srv = serve.start(mode="classroom", students=2)
    try:
        student = Browser(srv.port)
        status, _, kernel = student.play(srv.token)
        v1 = kernel_socket_probe(srv.port, kernel, srv.token, subprotocol=V1, seconds=3, browser=student)
        old = kernel_socket_probe(srv.port, kernel, srv.token, subprotocol=None, seconds=2, browser=student)
        started = time.monotonic()
        try:
            answer = Browser(srv.port).request("GET", f"/?token={srv.token}", timeout=5)[0]
        except OSError:
            answer = "no answer within 5 s"
        return {"v1 frames back": v1["binary"], "legacy socket": old["status"] or "accepted",
                "another page": answer, "its answer (s)": round(time.monotonic() - started, 3)}
    finally:
        srv.stop()


def teacher(n: int = 20_000) -> dict:
    from widgets.classmates.store import Store, store_path
    from widgets.classmates.teacher_games import games_section
    folder = Path(tempfile.mkdtemp(prefix="ahd-probe-"))
    store = Store(store_path(folder))
    first = store.create(side="union", name="Ann", scenario="short")
    with store._lock:
        store._conn.execute("BEGIN IMMEDIATE")
        store._conn.executemany(
            "INSERT INTO games (code, code_expires, scenario, options, seed, play_on, dice, created, last_activity) "
            "SELECT ?, code_expires, scenario, options, seed, play_on, dice, created, last_activity + ? FROM games "
            "WHERE id = ?", [(f"P{i:06d}", i, first.game_id) for i in range(n - 1)])
        store._conn.execute("COMMIT")
    started = time.perf_counter()
    page = games_section(store)
    paged = time.perf_counter() - started
    started = time.perf_counter()
    every = store.games()  # what each refresh read before (and then formatted into one table)
    full = time.perf_counter() - started
    return {"games": n, "one page (s)": round(paged, 3), "page bytes": len(page),
            "reading every game (s)": round(full, 3), "rows": len(every)}


def guesses(seconds: float = 10.0) -> dict:
    from widgets.classmates.store import JoinError, Store, store_path
    store = Store(store_path(Path(tempfile.mkdtemp(prefix="ahd-probe-"))))
    rng = random.Random(1)
    tried = slowed = 0
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and tried < 10_000:
        code = "".join(rng.choice("ABCDEFGHJKMNPQRSTUVWXYZ23456789") for _ in range(6))
        try:
            store.join(code, "Mal")
        except JoinError as exc:
            tried += 1
            slowed += "too many" in str(exc)
    return {"seconds": seconds, "tries": tried, "looked up": tried - slowed, "refused unseen": slowed}


if __name__ == "__main__":
    wanted = sys.argv[1:] or ["legacy", "teacher", "guesses"]
    for name in wanted:
        print(name, json.dumps(globals()[name]()), flush=True)
