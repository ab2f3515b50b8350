"""The game store of Play a classmate (widgets/classmates/store.py), without a browser: codes, submits checked by the
engine, races, damaged and newer files, many players at once, and a writer killed mid-turn."""
from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

import ahd
from ahd import Game
from ahd.core.errors import AhdError, IllegalActionError
from widgets.classmates.store import (JoinError, MovedFirst, Store, StoreError, deciding_side, normalise_code, store_path)

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
LOAD_SECONDS = float(os.environ.get("AHD_STORE_LOAD_SECONDS", "20"))


@pytest.fixture
def store(tmp_path):
    s = Store(store_path(tmp_path), check=True)
    yield s
    s.close()


def play(seats, moves: int, rng: random.Random) -> int:
    """Random legal decisions, each made by the seat whose side decides; returns how many were made."""
    made = 0
    for _ in range(moves):
        for seat in seats:
            seat.sync()
        game = seats[0].game
        if game.is_over:
            break
        seat = next(s for s in seats if s.side is deciding_side(game))
        seat.game.apply(rng.choice(seat.game.legal_actions()))
        made += 1
    for seat in seats:
        seat.sync()
    return made


def test_create_join_wrong_or_expired_code_and_come_back(store):
    now = time.time()
    ann = store.create(side="confederate", name="Ann", scenario="short", seed=7, now=now)
    assert len(ann.code) == 6 and set(ann.code) <= set("ABCDEFGHJKMNPQRSTUVWXYZ23456789")
    assert ann.opponent is None and ann.side.value == "confederate"
    with pytest.raises(JoinError, match="no open game has the code"):
        store.join("QQQQQQ", "Bob")
    with pytest.raises(JoinError, match="no open game has the code"):
        store.join(ann.code, "Bob", now=now + 25 * 3600)
    bob = store.join(f" {ann.code[:3].lower()}-{ann.code[3:]} ", "Bob", now=now + 60)  # as typed: case, dash
    assert bob.side.value == "union" and bob.opponent == "Ann" and ann.opponent == "Bob"
    with pytest.raises(JoinError, match="no open game has the code"):
        store.join(ann.code, "Cid")
    with pytest.raises(JoinError, match="no game on this server belongs to that personal code"):
        store.resume("ABCDE-FGHJK")
    assert store.players(ann.game_id) == {"confederate": "Ann", "union": "Bob"}
    # the tokens are kept as hashes only
    raw = store._read("SELECT token_hash FROM players")
    assert all(len(h) == 64 and normalise_code(ann.token) not in h for (h,) in raw)
    # come back (another page, another day): the same game, the same side
    play([ann, bob], 30, random.Random(1))
    again = store.resume(ann.token.lower())
    assert again.side.value == "confederate" and again.seq == ann.seq
    assert Game.to_dict(again.game) == Game.to_dict(ann.game)


def test_moves_are_checked_by_the_engine_before_they_are_stored_and_replay(store):
    ann = store.create(side="union", name="Ann", seed=3)
    bob = store.join(ann.code, "Bob")
    assert play([ann, bob], 400, random.Random(5)) > 100
    record = store.record(ann.game_id)
    assert record == Game.to_dict(ann.game) == Game.to_dict(bob.game)
    replayed = Game.from_dict(json.loads(json.dumps(record)))
    assert replayed.to_dict() == record and str(replayed.state.turn) == str(ann.game.state.turn)
    count = store.count(ann.game_id)
    # the other side's decision is refused before the store is touched
    deciding, other = (ann, bob) if deciding_side(ann.game) is ann.side else (bob, ann)
    with pytest.raises(IllegalActionError, match="you play the"):
        other.game.apply(deciding.game.legal_actions()[0])
    # an illegal action is refused by the engine: nothing stored, nothing changed
    with pytest.raises(IllegalActionError):
        deciding.game.apply(ahd.BeginMarch("no_such_box"))
    # no take-backs and no change of dice in a shared game
    with pytest.raises(AhdError, match="cannot be taken back"):
        deciding.game.undo()
    with pytest.raises(AhdError, match="agreed when it was created"):
        deciding.game.dice = "manual"
    assert store.count(ann.game_id) == count and deciding.seq == count
    # the teacher's summary follows the game
    row = next(r for r in store.games() if r.id == ann.game_id)
    assert row.seq == count and row.turn == str(ann.game.turn) and row.players == {"union": "Ann", "confederate": "Bob"}
    assert (row.union_max, row.confederate_max) == (ann.game.army_max("union"), ann.game.army_max("confederate"))


def test_typed_in_dice_are_rolled_by_their_owner(store):
    ann = store.create(side="union", name="Ann", dice="manual", seed=2)
    bob = store.join(ann.code, "Bob")
    rng = random.Random(3)
    rolled = 0
    for _ in range(200):
        ann.sync(), bob.sync()
        game = ann.game
        seat = ann if deciding_side(game) is ann.side else bob
        if game.current_player == "chance":
            seat.game.roll(rng.randint(1, 6))
            rolled += 1
        else:
            seat.game.apply(rng.choice(seat.game.legal_actions()))
    ann.sync(), bob.sync()
    assert rolled > 5
    assert Game.from_dict(store.record(ann.game_id)).to_dict() == Game.to_dict(ann.game) == Game.to_dict(bob.game)


def test_two_racing_submits_exactly_one_is_accepted(tmp_path):
    path = store_path(tmp_path)
    first = Store(path).create(side="union", name="Ann", seed=11)
    Store(path).join(first.code, "Bob")
    results = []
    for round_ in range(15):
        # the same player in two tabs (two connections, as two kernels), both at the same position
        tabs = [Store(path).resume(first.token) for _ in range(2)]
        if deciding_side(tabs[0].game) is not tabs[0].side:
            break
        barrier = threading.Barrier(2)
        outcome: list[object] = [None, None]

        def go(i):
            action = tabs[i].game.legal_actions()[i % len(tabs[i].game.legal_actions())]
            barrier.wait()
            try:
                tabs[i].game.apply(action)
                outcome[i] = "accepted"
            except MovedFirst as exc:
                outcome[i] = exc

        threads = [threading.Thread(target=go, args=(i,)) for i in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(map(str, outcome)).count("accepted") == 1, outcome
        loser = next(o for o in outcome if isinstance(o, MovedFirst))
        assert loser.other_tab and "another tab" in str(loser)
        # the loser catches up and both tabs hold the store's game
        for tab in tabs:
            tab.sync()
        assert Game.to_dict(tabs[0].game) == Game.to_dict(tabs[1].game) == Store(path).record(first.game_id)
        results.append(outcome)
    assert len(results) >= 3
    store = Store(path)
    assert Game.from_dict(store.record(first.game_id)).to_dict() == store.record(first.game_id)
    seqs = [s for s, *_ in store.actions_since(first.game_id, 0)]
    assert seqs == list(range(len(seqs)))  # one action per number, none missing


def test_a_store_refused_with_a_message_naming_the_file(tmp_path):
    # not a database at all
    garbage = tmp_path / "garbage" / "games.sqlite3"
    garbage.parent.mkdir()
    garbage.write_bytes(b"this is not a database\n" * 100)
    with pytest.raises(StoreError) as info:
        Store(garbage, check=True)
    assert str(garbage) in str(info.value) and "damaged or is not a SQLite file" in str(info.value)
    # a SQLite file of something else
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE t (x)")
    with pytest.raises(StoreError, match="not a House Divided game store") as info:
        Store(other)
    assert str(other) in str(info.value)
    # a store from a newer version
    newer = store_path(tmp_path / "newer")
    Store(newer).close()
    with sqlite3.connect(newer) as conn:
        conn.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="newer version") as info:
        Store(newer)
    assert str(newer) in str(info.value) and "version 99" in str(info.value)
    # a damaged store: a page in the middle overwritten
    damaged = store_path(tmp_path / "damaged")
    s = Store(damaged)
    seat = s.create(name="Ann", seed=1)
    bob = s.join(seat.code, "Bob")
    play([seat, bob], 150, random.Random(2))
    s._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    s.close()
    data = bytearray(damaged.read_bytes())
    assert len(data) > 3 * 4096
    data[4096:4096 * 2] = os.urandom(4096)
    damaged.write_bytes(bytes(data))
    with pytest.raises(StoreError) as info:
        Store(damaged, check=True)
    assert str(damaged) in str(info.value)
    # the server says so and stops: one line, no traceback
    result = subprocess.run([sys.executable, "-m", "widgets.server.cli", "classroom", "--host=127.0.0.1", "--port=1",
                             f"--data={garbage.parent}"], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert result.returncode == 1, result.stderr
    assert result.stderr.startswith("error: ") and str(garbage) in result.stderr and "Traceback" not in result.stderr


def test_many_players_at_once_lose_and_duplicate_nothing(tmp_path):
    """20 games, 3 simulated players each (the Union player in two tabs), for AHD_STORE_LOAD_SECONDS (20 s)."""
    from store_load import run_load
    figures = run_load(store_path(tmp_path), games=20, seconds=LOAD_SECONDS, poll=0.4, processes=2)
    print(f"\nFIGURES store load: {json.dumps(figures)}")
    assert figures["decisions"] > 200
    assert figures["races_lost"] > 0  # the two tabs did race
    assert (figures["lost"], figures["duplicated"], figures["mismatched"], figures["unreplayable"]) == (0, 0, 0, 0)


WRITER = textwrap.dedent("""
    import random, sys
    from widgets.classmates.store import Store, deciding_side
    store = Store(sys.argv[1])
    seats = [store.resume(sys.argv[2]), store.resume(sys.argv[3])]
    rng = random.Random(4)
    while True:
        game = seats[0].game
        seats[1].sync(); seats[0].sync()
        seat = next(s for s in seats if s.side is deciding_side(seats[0].game))
        start = seat.seq
        seat.game.apply(rng.choice(seat.game.legal_actions()))
        import json
        print("accepted", start, json.dumps(seat.game.record_actions(start)), flush=True)
""")


def test_a_writer_killed_mid_turn_loses_no_accepted_move(tmp_path):
    path = store_path(tmp_path)
    store = Store(path)
    ann = store.create(side="union", name="Ann", seed=21)
    bob = store.join(ann.code, "Bob")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(path), ann.token, bob.token],
                              stdout=subprocess.PIPE, text=True, cwd=ROOT)
    accepted: dict[int, dict] = {}
    try:
        for line in writer.stdout:
            _, start, actions = line.split(" ", 2)
            for offset, action in enumerate(json.loads(actions)):
                accepted[int(start) + offset] = action
            if len(accepted) >= 120 + random.Random().randint(0, 40):
                break
    finally:
        os.kill(writer.pid, signal.SIGKILL)
        writer.wait()
    reopened = Store(path, check=True)
    record = reopened.record(ann.game_id)
    assert len(record["actions"]) >= len(accepted)
    for seq, action in accepted.items():
        assert record["actions"][seq] == action
    game = Game.from_dict(record)
    assert not game.is_over
    # play goes on from where the killed writer was
    seat = reopened.resume(ann.token if deciding_side(game).value == "union" else bob.token)
    seat.game.apply(seat.game.legal_actions()[0])
    assert reopened.count(ann.game_id) > len(record["actions"])


# ---------------------------------------------------------------- the app's section (widgets, no browser)
def _sections(tmp_path):
    from widgets.classmates.multiplayer import ClassmateSection
    from widgets.model.session import Session
    path = store_path(tmp_path)
    sessions = [Session(ahd.new_game("1861"), union="human", confederate="heuristic", war_odds=False)
                for _ in range(3)]
    ann, bob, ann2 = (ClassmateSection(s, Store(path), query="") for s in sessions)
    ann.name.value, bob.name.value = "Ann", "Bob"
    ann.create()
    assert ann.seat is not None and ann.seat.code in ann.info.value and "<svg" in ann.info.value  # code + QR
    bob.join("WRONG1")
    assert bob.seat is None and "no open game has the code WRONG1" in bob.message.value
    bob.join(ann.seat.code)
    assert bob.seat.side.value == "confederate" and bob.session.union == bob.session.confederate == "human"
    ann2.resume(ann.seat.token)  # Ann in a second tab
    return ann, bob, ann2


def test_the_section_plays_a_classmate_and_refuses_the_other_side(tmp_path):
    ann, bob, ann2 = _sections(tmp_path)
    ann.sync()
    assert "Bob has joined" in ann.session.status and "Waiting" not in ann.info.value
    ann.session.act(ahd.BeginMarch("harpers_ferry"))
    move = next(a for a in ann.session.legal_actions if "Baltimore by rail" in str(a))
    ann.session.act(move)
    assert bob.sync() == 2
    assert bob.session.status.startswith("Ann played 2 decisions") and any(
        "Harper's Ferry → Baltimore" in line for line in bob.session.log_lines)
    # Bob cannot play the Union's decision: not by a click on a Union box (he is told it is Ann's move, not to
    # click his boxes), nor by a bot he gives the Union side, whose move his page never makes
    assert "your classmate decides" in bob.session.prompt
    bob.session.click_box("baltimore")
    assert "your classmate's move (Union)" in bob.session.status and bob.session.selected == ""
    bob.session.set_players("heuristic", "human")
    assert "your classmate decides" in bob.session.prompt and "Let the bot move" not in bob.session.prompt
    bob.session.set_players("human", "human")
    count = bob.store.count(bob.seat.game_id)
    bob.session.act(bob.session.legal_actions[0])
    assert "you play the Confederate side" in bob.session.status and bob.store.count(bob.seat.game_id) == count
    # Ann's other tab is behind: its move loses the race, says so, and the tab catches up
    ann2.session.act(ann2.session.legal_actions[-1])
    assert "changed in another tab" in ann2.session.status
    ann2.sync()
    assert "changed in another tab" in ann2.session.status
    assert Game.to_dict(ann2.session.game) == Game.to_dict(ann.session.game) == ann.store.record(ann.seat.game_id)
    # a new game from the panel leaves the shared game (it stays stored)
    bob.session.new_game("short")
    bob.sync()
    assert bob.seat is None and "stays stored" in bob.message.value


def test_the_poll_runs_on_the_event_loop(tmp_path):
    import asyncio
    ann, bob, _ = _sections(tmp_path)
    bob.interval = 0.1

    async def main():
        assert bob.start_polling()
        await asyncio.sleep(0.3)
        ann.session.act(ahd.BeginMarch("harpers_ferry"))
        started = time.monotonic()
        while bob.seat.seq < ann.seat.seq and time.monotonic() - started < 5:
            await asyncio.sleep(0.02)
        bob.leave()
        return time.monotonic() - started

    assert asyncio.run(main()) < 1.0
    assert "Ann played" in bob.session.status and bob.session.game is not None


def test_the_section_explains_a_bad_store(tmp_path, monkeypatch):
    from widgets.classmates.multiplayer import classmate_section
    from widgets.model.session import Session
    bad = tmp_path / "games.sqlite3"
    bad.write_bytes(b"not a database" * 500)
    monkeypatch.setenv("AHD_STORE", str(bad))
    widget = classmate_section(Session(ahd.new_game("1861"), war_odds=False))
    assert "not available" in widget.value and str(bad) in widget.value
    monkeypatch.delenv("AHD_STORE")
    assert classmate_section(Session(ahd.new_game("1861"), war_odds=False)) is None


def test_the_bot_plays_only_this_pages_side(tmp_path):
    ann, bob, _ = _sections(tmp_path)
    ann.session.bot_half_turn()  # a stand-in for Ann's half-turn: it stops where Bob decides, no error
    assert ann.session.status_kind == "info", ann.session.status
    ann.sync(), bob.sync()
    assert ann.seat.seq > 0 and Game.to_dict(ann.seat.game) == Game.to_dict(bob.seat.game)
    assert deciding_side(bob.seat.game) is bob.seat.side  # the Confederate decides now: the bot left it to Bob


def test_a_download_of_a_shared_game_cannot_predict_its_dice(store):
    """Security finding 4 (docs/security.md): "Save to my computer" held the shared game's seed, so a private
    copy rolled exactly the dice the shared game would roll next. Now a shared game's record for download
    holds the rolls as typed-in ones and a seed of its own; the store keeps the secret seed."""
    ann = store.create(side="union", name="Ann", scenario="1861")
    bob = store.join(ann.code, "Bob")
    rng = random.Random(5)
    play([ann, bob], 60, rng)
    secret = store.record(ann.game_id)["seed"]
    download = bob.game.to_json()  # what the panel's "Save to my computer" writes (session.to_json)
    record = json.loads(download)
    assert record["seed"] != secret and str(secret) not in download
    assert bob.game.seed is None and str(secret) not in repr(bob.game)  # nor shown any other way
    assert record["actions"] and not any(a.get("auto") for a in record["actions"])
    assert sum(a["type"] == "roll" for a in record["actions"]) >= 5  # the rolls as they fell are kept
    copy = Game.from_json(download)
    assert copy.state.turn == bob.game.state.turn and len(copy.record_actions()) == len(bob.game.record_actions())
    # the next 30 dice the computer rolls: the shared game's and the private copy's (copies keep the dice to come)
    def next_rolls(game):
        ahead = game.copy()
        return [ahead._draw() for _ in range(30)]
    assert next_rolls(bob.game) == next_rolls(ann.game)  # both players' pages roll the same shared dice
    assert next_rolls(copy) != next_rolls(bob.game)
    # a single-player game keeps seed + actions: its own download replays its own dice
    solo = ahd.new_game("1861", seed=11)
    assert json.loads(solo.to_json())["seed"] == 11


def test_join_codes_cannot_be_guessed_fast_and_a_refusal_tells_no_game_apart(store):
    """Security finding 6 (docs/security.md): join codes (31**6, 24 h) could be tried 19 times a second, and the
    refusals told "no such game", "full" and "expired" apart. Now every refusal says the same, and a page
    (5 in a minute) and the whole server (30 in a minute) are slowed down, right codes included."""
    now = time.time()
    ann = store.create(side="union", name="Ann", scenario="short", now=now)
    full = store.create(side="union", name="Cid", scenario="short", now=now)
    store.join(full.code, "Dan", now=now)
    old = store.create(side="union", name="Eve", scenario="short", now=now - 25 * 3600)
    said = set()
    for code in ("QQQQQQ", full.code, old.code):
        with pytest.raises(JoinError) as refused:
            store.join(code, "Mal", now=now)
        said.add(str(refused.value).replace(code, "CODE"))
    assert len(said) == 1, said
    for i in range(2):
        with pytest.raises(JoinError, match="no open game"):
            store.join(f"QQQQQ{i + 2}", "Mal", now=now)
    with pytest.raises(JoinError, match="too many wrong codes"):  # the sixth try of this page in a minute
        store.join(ann.code, "Mal", now=now + 1)
    # other pages (each kernel has its own Store) share the server's limit: 30 wrong codes a minute in all
    pages = [Store(store.path) for _ in range(6)]
    for page in pages:
        for i in range(5):
            with pytest.raises(JoinError):
                page.join(f"ZZZZZ{i + 2}", "Mal", now=now + 2)
    fresh = Store(store.path)
    with pytest.raises(JoinError, match="too many wrong codes"):
        fresh.join(ann.code, "Bob", now=now + 3)
    assert fresh.join(ann.code, "Bob", now=now + 63).side.value == "confederate"  # a minute later
    for page in (*pages, fresh):
        page.close()


def test_a_page_cannot_create_games_without_end(store, monkeypatch):
    """Security finding 6 (docs/security.md): there was no limit on the games a student creates. Now a page
    creates at most 5 games in 10 minutes and the whole server at most GAMES_PER_SERVER_HOUR an hour."""
    import widgets.classmates.store as store_module
    now = time.time()
    for i in range(5):
        store.create(side="union", name="Ann", scenario="short", now=now + i)
    with pytest.raises(JoinError, match="5 games in the last 10 minutes"):
        store.create(side="union", name="Ann", scenario="short", now=now + 6)
    assert store.create(side="union", name="Ann", scenario="short", now=now + 601).code  # 10 minutes later
    monkeypatch.setattr(store_module, "GAMES_PER_SERVER_HOUR", 8)
    other = Store(store.path)
    other.create(side="union", name="Bob", scenario="short", now=now + 602)
    other.create(side="union", name="Bob", scenario="short", now=now + 603)
    with pytest.raises(JoinError, match="this server in the last hour"):
        other.create(side="union", name="Bob", scenario="short", now=now + 604)
    other.close()
    assert len(store.games()) == 8


def test_the_teachers_list_of_stored_games_comes_in_pages(store):
    """Security finding 6: the teacher's list was rebuilt in full on every refresh (20,000 games: 3.75 s of the
    server's only loop and 4 MB every 10 s). Now it shows 50 games a page, the most recent first."""
    from widgets.classmates.teacher_games import PAGE_SIZE, games_section
    first = store.create(side="union", name="Ann", scenario="short")
    with store._lock:  # 119 more games, copied row by row (creating them would take seconds)
        conn = store._conn
        conn.execute("BEGIN IMMEDIATE")
        for i in range(119):
            conn.execute("INSERT INTO games (code, code_expires, scenario, options, seed, play_on, dice, created, "
                         "last_activity) SELECT ?, code_expires, scenario, options, seed, play_on, dice, created, "
                         "last_activity + ? FROM games WHERE id = ?", (f"C{i:05d}", i + 1, first.game_id))
        conn.execute("COMMIT")
    html = games_section(store)
    assert PAGE_SIZE == 50 and html.count("class='ahd-stored-game'") == 50 and "<b>120</b>" in html
    assert "C00118" in html and first.code not in html  # the most recent first
    last = games_section(store, page=3)
    assert last.count("class='ahd-stored-game'") == 20 and first.code in last
    assert "/teacher?page=2" in last and "/teacher?page=4" not in last
