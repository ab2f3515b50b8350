"""Play a classmate in a real browser: two Chromium pages (two students, two browser contexts) on one
``house-divided classroom`` (127.0.0.1, fixed tokens, ``--data`` a temporary folder).

Ann creates a 1861 game and takes the Union, Bob joins with the code. Ann marches by clicks in the panel
(the map's layout is being reworked; the panel's list plays the same actions) and Bob's page shows the march; Bob's click for the Union is refused with a message. The first two game turns
are then played by the app's own gesture "Bot plays this half-turn", pressed in the page of the side that
decides (the store refuses the other side's decisions, so each page plays only its own). In turn 2 the server
is SIGKILLed (with its kernels) in the middle of the Union's half-turn, restarted on the same port with the
same ``--data``; both pages come back through their personal links and play on; no move the pages had is
lost. At the end the records of both pages (their "Save to my computer" link) and of the store are identical
and replay to the same state. The teacher's pages list the game and refuse a student's token.
"""
from __future__ import annotations

import base64
import http.client
import io
import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import ahd  # noqa: E402
from ahd import Game  # noqa: E402
import serve  # noqa: E402
from widgets.classmates.store import Store, store_path  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def chromium() -> str:
    if not os.path.exists("/usr/bin/chromium"):
        pytest.fail("Debian's chromium is not installed (apt-get install chromium)")
    return "/usr/bin/chromium"


def start_classroom(port: int, data: Path, token: str, teacher: str, log: Path) -> serve.VoilaServer:
    env = dict(os.environ, HOUSE_DIVIDED_TOKEN=token, HOUSE_DIVIDED_TEACHER_TOKEN=teacher)
    process = subprocess.Popen([sys.executable, "-m", "widgets.server.cli", "classroom", "--host=127.0.0.1",
                                f"--port={port}", "--students=4", f"--data={data}"],
                               stdout=open(log, "a"), stderr=subprocess.STDOUT, env=env, cwd=ROOT)  # noqa: SIM115
    server = serve.VoilaServer(process, port, False, token, teacher, "classroom")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, log.read_text()[-3000:]
        try:
            with urllib.request.urlopen(server.url + "voila/static/voila.js", timeout=2):
                return server
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the classroom server did not answer")


def get(server, path: str) -> tuple[int, bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def play_listed(page, label: str) -> None:
    """Play a decision by the panel's gestures: pick it in "All legal actions", press "Play the selected action"."""
    listing = page.locator(".ahd-side select").filter(has=page.locator("option", has_text=label)).first
    listing.select_option(label=label, timeout=30_000)
    page.get_by_role("button", name="Play the selected action").click()


def wait_until(condition, seconds: float, explain=lambda: "") -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"not within {seconds} s: {explain()[:3000]}"
        time.sleep(0.05)


def page_record(page) -> dict:
    """The game as the page has it: its "Save to my computer" link (a data: URL of the record)."""
    page.evaluate("document.querySelectorAll('a[download]').forEach(a => a.setAttribute('href', 'old'))")
    page.get_by_role("button", name="Save to my computer").click()
    page.wait_for_function("() => [...document.querySelectorAll('a[download]')].some(a => a.href.startsWith('data:'))",
                           timeout=30_000)
    href = page.evaluate("[...document.querySelectorAll('a[download]')].find(a => a.href.startsWith('data:')).href")
    return json.loads(base64.b64decode(href.split(",", 1)[1]))


def shown(record: dict) -> dict:
    """A record as a player may download it: the rolls typed in, no seed (the store keeps the shared game's
    seed secret: docs/security.md, finding 4)."""
    return {**record, "seed": None, "actions": [{k: v for k, v in a.items() if k != "auto"} for a in record["actions"]]}


def page_seq(page) -> int:
    return int(page.locator("#ahd-game-seq").first.text_content())


def open_section(page) -> None:
    page.get_by_text("Play a classmate", exact=True).first.click()
    page.get_by_role("button", name="Create a game").wait_for(timeout=10_000)


def turn_number(text: str) -> int:
    return int(re.match(r"Turn (\d+)", text).group(1))


def test_two_students_play_each_other(tmp_path):
    data = tmp_path / "data"
    log = tmp_path / "server.log"
    port = serve.free_port()
    token, teacher = "class-token-123", "teacher-token-456789"
    server = start_classroom(port, data, token, teacher, log)
    store = Store(store_path(data))
    figures: dict[str, float] = {}
    started = time.monotonic()
    try:
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=serve.CHROMIUM_ARGS)
            pages = {}
            for side in ("union", "confederate"):
                context = browser.new_context(viewport={"width": 1500, "height": 1100})
                page = context.new_page()
                page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)" % port), lambda route: route.abort())
                pages[side] = page
            ann, bob = pages["union"], pages["confederate"]

            # Ann creates the game (Union); Bob opens the join link and joins with his name
            serve.open_app(ann, server.join_url)
            open_section(ann)
            ann.get_by_placeholder("e.g. Ann").fill("Ann")
            ann.get_by_role("button", name="Create a game").click()
            ann.locator("#ahd-join-code").wait_for(timeout=30_000)
            code = ann.locator("#ahd-join-code").text_content()
            assert ann.locator(".ahd-classmate svg").count() >= 1  # the QR code of the join link
            serve.open_app(bob, f"{server.join_url}&join={code}")
            bob.get_by_text("press Join").wait_for(timeout=30_000)
            bob.get_by_placeholder("e.g. Ann").fill("Bob")
            bob.get_by_role("button", name="Join", exact=True).click()
            bob.get_by_text("You joined Ann's game: you play the Confederate side.").first.wait_for(timeout=30_000)
            ann.get_by_text("Bob has joined").wait_for(timeout=10_000)
            links = {side: page.locator("#ahd-player-link").get_attribute("href") for side, page in pages.items()}
            game_id = store.games()[0].id

            # Ann marches (her clicks in the panel); Bob's page shows it within about a second
            for label in ("March from Harper's Ferry", "Move militia infantry U-MF-08: Harper's Ferry → Baltimore by rail"):
                count = store.count(game_id)
                play_listed(ann, label)
                wait_until(lambda: store.count(game_id) > count, 30, lambda: ann.locator(".ahd-side").inner_text())
            moved = time.monotonic()
            bob.get_by_text("Ann played", exact=False).first.wait_for(timeout=10_000)
            figures["seen_by_classmate_s"] = time.monotonic() - moved
            bob.get_by_text("Harper's Ferry → Baltimore", exact=False).first.wait_for(timeout=10_000)
            # Bob cannot act for the Union: nothing is stored, and Ann's page comes to the store's position
            stored = store.count(game_id)
            bob.get_by_role("button", name="End movement (unused marches lapse)").click()
            bob.get_by_text("you play the Confederate side", exact=False).first.wait_for(timeout=10_000)
            assert store.count(game_id) == stored
            wait_until(lambda: page_seq(ann) == stored, 10, lambda: f"store {stored}, Ann's page {page_seq(ann)}")

            # two game turns: the side that decides presses "Bot plays this half-turn" in its own page
            killed = False
            before_kill: dict[str, dict] = {}
            last_seq, last_change, last_click = -1, time.monotonic(), 0.0
            while True:
                row = next(r for r in store.games() if r.id == game_id)
                if turn_number(row.turn) >= 3:
                    break
                assert time.monotonic() - started < 400, "the two turns took too long"
                now = time.monotonic()
                if row.seq != last_seq:
                    last_seq, last_change = row.seq, now
                side = row.to_move.split()[0]
                if not killed and turn_number(row.turn) == 2 and side == "union" and "kill_at" not in figures:
                    # both pages in step, their records kept; then the Union's half-turn starts and is cut
                    for page in pages.values():
                        page.wait_for_function(f"() => document.querySelector('#ahd-game-seq').textContent == "
                                               f"'{row.seq}'", timeout=15_000)
                    before_kill = {s: page_record(pg) for s, pg in pages.items()}
                    assert shown(before_kill["union"]) == shown(before_kill["confederate"]) == shown(store.record(game_id))
                    figures["kill_at"] = row.seq
                    ann.get_by_role("button", name="Bot plays this half-turn").click()
                    deadline = time.monotonic() + 60
                    while store.count(game_id) < row.seq + 3 and time.monotonic() < deadline:
                        time.sleep(0.1)
                    seen = {s: page_seq(pg) for s, pg in pages.items()}
                    kernels = server.kernel_pids()
                    os.kill(server.process.pid, signal.SIGKILL)  # mid-turn: the bot is playing the Union's moves
                    for pid in kernels:
                        try:
                            os.kill(pid, signal.SIGKILL)
                        except ProcessLookupError:
                            pass
                    server.process.wait()
                    killed = True
                    reopened = Store(store_path(data), check=True)
                    stored = reopened.record(game_id)
                    # no move lost: everything the pages had is in the store, in the same order
                    assert len(stored["actions"]) >= max(seen.values()) >= row.seq + 1
                    assert shown(stored)["actions"][:row.seq] == before_kill["union"]["actions"]
                    restarted = time.monotonic()
                    server = start_classroom(port, data, token, teacher, log)
                    for side_, page in pages.items():
                        page.goto(links[side_], wait_until="commit")
                        page.locator(".leaflet-container").first.wait_for(timeout=60_000)
                        page.get_by_text("Welcome back", exact=False).first.wait_for(timeout=30_000)
                    figures["restart_and_reconnect_s"] = time.monotonic() - restarted
                    last_click = 0.0
                    continue
                if now - last_change > 1.5 and now - last_click > 4:
                    pages[side].get_by_role("button", name="Bot plays this half-turn").click(timeout=60_000)
                    last_click = time.monotonic()
                time.sleep(0.3)
            assert killed

            # both pages in step with the store: identical records that replay to the same state
            final = store.record(game_id)
            for page in pages.values():
                page.wait_for_function(f"() => document.querySelector('#ahd-game-seq').textContent == "
                                       f"'{len(final['actions'])}'", timeout=30_000)
            records = {s: page_record(pg) for s, pg in pages.items()}
            final = store.record(game_id)
            assert shown(records["union"]) == shown(records["confederate"]) == shown(final)
            assert final["seed"] not in (records["union"]["seed"], records["confederate"]["seed"])
            assert shown(final)["actions"][:len(before_kill["union"]["actions"])] == before_kill["union"]["actions"]
            replayed = [Game.from_dict(r) for r in (records["union"], records["confederate"], final)]
            assert len({json.dumps(shown(g.to_dict())) for g in replayed}) == 1
            assert len({repr(g.state.units) for g in replayed}) == 1 and replayed[0].state.turn >= 3

            # the teacher's view: the game listed, readable, downloadable; a student's token refused
            for path in (f"/teacher?key={token}", f"/teacher/game/{game_id}?key={token}",
                         f"/teacher/records.zip?key={token}", f"/teacher/game/{game_id}", "/teacher/records.zip"):
                assert get(server, path)[0] == 403, path
            status, body = get(server, f"/teacher?key={teacher}")
            text = body.decode()
            assert status == 200 and code in text and "Ann" in text and "Bob" in text and "1861" in text
            status, body = get(server, f"/teacher/game/{game_id}?key={teacher}")
            assert status == 200 and b"<svg" in body and b"Ann (Union) vs Bob (Confederate)" in body
            status, body = get(server, f"/teacher/records.zip?key={teacher}")
            with zipfile.ZipFile(io.BytesIO(body)) as archive:
                (name,) = archive.namelist()
                assert code in name and json.loads(archive.read(name)) == store.record(game_id)

            for page in pages.values():
                page.unroute_all()
                page.goto("about:blank")
            browser.close()
    finally:
        server.stop()
    figures["total_s"] = time.monotonic() - started
    print("\nFIGURES classmate " + " ".join(f"{k}={v:.2f}" if isinstance(v, float) else f"{k}={v}"
                                           for k, v in figures.items()))


def test_the_teacher_pages_need_the_teachers_token(tmp_path):
    """Plain HTTP, no browser: the stored games listed, one shown read-only, all downloaded; a student's token
    (or none) is refused on each of these pages."""
    data = tmp_path / "data"
    store = Store(store_path(data))
    seat = store.create(side="union", name="Ann <b>", seed=5)
    bob = store.join(seat.code, "Bob")
    seat.game.apply(seat.game.legal_actions()[0])
    bob.sync()
    port = serve.free_port()
    server = start_classroom(port, data, "class-token-abc", "teacher-token-xyz987", tmp_path / "server.log")
    try:
        student = "class-token-abc"
        for path in (f"/teacher?key={student}", f"/teacher/game/{seat.game_id}?key={student}",
                     f"/teacher/records.zip?key={student}", f"/teacher/game/{seat.game_id}", "/teacher/records.zip",
                     f"/teacher/game/{seat.game_id}?key={student}&format=json"):
            status, body = get(server, path)
            assert status == 403 and seat.code.encode() not in body, path
        key = "teacher-token-xyz987"
        status, body = get(server, f"/teacher?key={key}")
        text = body.decode()
        assert status == 200 and "ahd-stored-game" in text and seat.code in text
        assert "Ann &lt;b&gt;" in text and "Bob" in text and "Turn 1" in text  # names escaped
        status, body = get(server, f"/teacher/game/{seat.game_id}?key={key}")
        assert status == 200 and b"<svg" in body and b"1 recorded actions" in body
        status, body = get(server, f"/teacher/game/{seat.game_id}?key={key}&format=json")
        assert status == 200 and json.loads(body) == store.record(seat.game_id)
        assert get(server, f"/teacher/game/999?key={key}")[0] == 404
        status, body = get(server, f"/teacher/records.zip?key={key}")
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            assert [json.loads(archive.read(n)) for n in archive.namelist()] == [store.record(seat.game_id)]
    finally:
        server.stop()
