"""The classroom's game store: games two students play against each other from two screens, kept in one
SQLite file (standard library ``sqlite3``, WAL mode) under the server's data folder (``--data DIR`` →
``DIR/games.sqlite3``).

A game is its record's set-up (scenario, options, seed, dice mode, play-on) plus its players (one per side:
a name and a personal token, kept only as a hash), a short join code with an expiry, and its actions,
one row per recorded action with its sequence number (``PRIMARY KEY (game, seq)``).

Every process that plays (each student's kernel) opens the file itself. A move is submitted through a
:class:`Seat` (one player's view of one game): the seat's game is exactly the store's first ``seat.seq``
actions, so the engine checks the move against that position (``why_not`` and ``apply``) *before* it is
stored; inside one ``BEGIN IMMEDIATE`` transaction the seat checks that ``seq`` is still the next sequence
number and appends the decision with the automatic die rolls that followed it. Two racing submits (both
players, or one player in two tabs) therefore give exactly one acceptance; the other gets
:class:`MovedFirst` ("your classmate moved first" / "this game changed in another tab") and the seat
catches up with :meth:`Seat.sync`. The store never holds an illegal move, and a move is accepted only
once it is committed (``synchronous=FULL``): a killed process loses no accepted move.

A file that is not a store, is damaged, or was written by a newer version gives a :class:`StoreError`
naming the file, never a traceback.
"""
from __future__ import annotations

import hashlib
import io
import json
import secrets
import sqlite3
import threading
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import ahd
from ahd import Game
from ahd.core.errors import AhdError
from ahd.core.sides import Side

from widgets.model.i18n import _
from widgets.classmates.store_rows import (JoinError, MovedFirst, StoreError, _insert, _write_summary,  # noqa: F401 (re-exported)
                         deciding_side, to_move_text)

#: Schema version written in the file (``PRAGMA user_version``); a file with a larger one is refused.
SCHEMA_VERSION = 1
#: ``PRAGMA application_id`` of a store ("AHDG"): a SQLite file of anything else is refused.
APPLICATION_ID = 0x41484447
FILE_NAME = "games.sqlite3"
#: Environment variable naming the store file, set by ``house-divided classroom`` for its kernels.
STORE_ENV = "AHD_STORE"
#: Environment variable holding the class's join URL (token included), for the join links and QR codes.
CLASS_URL_ENV = "AHD_CLASS_URL"
#: Join codes and personal codes use letters and digits that cannot be mistaken for one another.
ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 6
PLAYER_CODE_LENGTH = 10
JOIN_HOURS = 24.0
#: Wrong join or personal codes allowed in a minute, to one page (its kernel's Store) and to the whole server
#: (every page, through the file): beyond them every code is refused for a while, right ones included, so a
#: guess cannot be told apart (docs/security.md, finding 6).
WRONG_CODES_PER_PAGE = 5
WRONG_CODES_PER_SERVER = 30
WRONG_CODES_WINDOW = 60.0
#: Games one page (its kernel's Store) may create in 10 minutes, and the whole server in an hour.
GAMES_PER_PAGE = 5
GAMES_PER_PAGE_WINDOW = 600.0
GAMES_PER_SERVER_HOUR = 300
SIDES = ("union", "confederate")

SCHEMA = """
CREATE TABLE games (
    id            INTEGER PRIMARY KEY,
    code          TEXT NOT NULL UNIQUE,
    code_expires  REAL NOT NULL,
    scenario      TEXT NOT NULL,          -- JSON: a shipped scenario's id or the scenario itself
    options       TEXT NOT NULL,          -- JSON list of rule IDs
    seed          TEXT NOT NULL,          -- decimal (seeds go up to 2**128 - 1)
    play_on       INTEGER NOT NULL,
    dice          TEXT NOT NULL CHECK (dice IN ('auto', 'manual')),
    created       REAL NOT NULL,
    last_activity REAL NOT NULL,
    -- the position after the last action, kept by every submit (the teacher's list reads only this)
    seq           INTEGER NOT NULL DEFAULT 0,
    turn          TEXT NOT NULL DEFAULT '',
    to_move       TEXT NOT NULL DEFAULT '',
    union_max     INTEGER NOT NULL DEFAULT 0,
    confederate_max INTEGER NOT NULL DEFAULT 0,
    outcome       TEXT NOT NULL DEFAULT ''
);
CREATE TABLE players (
    game       INTEGER NOT NULL REFERENCES games(id),
    side       TEXT NOT NULL CHECK (side IN ('union', 'confederate')),
    name       TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    joined     REAL NOT NULL,
    PRIMARY KEY (game, side)
);
CREATE TABLE actions (
    game      INTEGER NOT NULL REFERENCES games(id),
    seq       INTEGER NOT NULL,
    action    TEXT NOT NULL,             -- JSON, as in a game record (die rolls of the generator: "auto")
    side      TEXT NOT NULL,             -- the player whose submit stored it
    tab       TEXT NOT NULL,             -- the submitting seat (one page), to tell "another tab" apart
    submitted REAL NOT NULL,
    PRIMARY KEY (game, seq)
) WITHOUT ROWID;
"""
#: Added without a new schema version (an older program ignores it): when wrong codes were typed.
WRONG_CODES_TABLE = "CREATE TABLE IF NOT EXISTS wrong_codes (at REAL NOT NULL)"


@dataclass(frozen=True)
class GameRow:
    """One game as the teacher's list shows it."""

    id: int
    code: str
    code_expires: float
    scenario: str
    dice: str
    created: float
    last_activity: float
    seq: int
    turn: str
    to_move: str
    union_max: int
    confederate_max: int
    outcome: str
    players: dict[str, str]  # side -> name


def _hash(token: str) -> str:
    return hashlib.sha256(normalise_code(token).encode()).hexdigest()


def normalise_code(text: str) -> str:
    """A code as typed: case, spaces and dashes do not matter."""
    return "".join(ch for ch in (text or "").upper() if ch not in " -_\t")


def new_code(length: int) -> str:
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def pretty_code(code: str) -> str:
    """``ABCDEFGHJK`` → ``ABCDE-FGHJK`` (the personal code, easier to copy)."""
    return code if len(code) <= CODE_LENGTH else f"{code[:len(code) // 2]}-{code[len(code) // 2:]}"


class Store:
    """One connection to the store file (make one per process or thread; it is safe to share one between
    threads, which take turns)."""

    def __init__(self, path: str | Path, *, check: bool = False, create: bool = True) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
        self._wrong: list[float] = []  # when this page typed wrong codes (the last minute's)
        self._created: list[float] = []  # when this page created games (the last 10 minutes')
        if not create and not self.path.exists():
            raise StoreError(f"{self.path}: no game store there")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(str(self.path), timeout=30.0, isolation_level=None,
                                         check_same_thread=False)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"{self.path}: cannot open the game store: {exc}") from None
        try:
            self._open(check)
        except sqlite3.DatabaseError as exc:
            self._conn.close()
            raise StoreError(f"{self.path}: the game store is damaged or is not a SQLite file ({exc}). "
                             f"Keep a copy of it, then move it away: the server starts a new, empty store "
                             f"(every game in it would be lost).") from None

    def _open(self, check: bool) -> None:
        conn = self._conn
        conn.execute("PRAGMA busy_timeout = 30000")
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if version == 0 and app_id == 0 and not tables:
            conn.execute("BEGIN IMMEDIATE")
            try:
                if conn.execute("PRAGMA user_version").fetchone()[0] == 0:  # not made meanwhile by another process
                    for statement in SCHEMA.split(";\n"):
                        if statement.strip():
                            conn.execute(statement)
                    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
        elif app_id != APPLICATION_ID:
            raise StoreError(f"{self.path}: not a House Divided game store (a SQLite file of something else). "
                             f"Give --data a folder of its own.")
        elif version > SCHEMA_VERSION:
            raise StoreError(f"{self.path}: this game store was written by a newer version of A House Divided "
                             f"(store version {version}; this program reads version {SCHEMA_VERSION} and "
                             f"earlier). Upgrade the program (pip install -U house-divided) or use another --data "
                             f"folder.")
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = FULL")  # an accepted move is on disk before it is reported
        conn.execute("PRAGMA foreign_keys = ON")
        if not conn.execute("SELECT 1 FROM sqlite_master WHERE name = 'wrong_codes'").fetchone():
            try:
                conn.execute(WRONG_CODES_TABLE)
            except sqlite3.OperationalError:  # a read-only file: reading works, joining will say it is busy
                pass
        if check:
            problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
            if problems != ["ok"]:
                raise StoreError(f"{self.path}: the game store is damaged ({'; '.join(problems[:3])}). Keep a "
                                 f"copy of it, then move it away: the server starts a new, empty store.")

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    # ------------------------------------------------------------ transactions
    def _write(self, work: Callable[[sqlite3.Connection], Any]) -> Any:
        """Run ``work`` inside one ``BEGIN IMMEDIATE`` transaction (the write lock first: no lost update)."""
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.OperationalError as exc:
                raise StoreError(f"{self.path}: the game store is busy or read-only ({exc}); try again") from None
            try:
                result = work(conn)
                conn.execute("COMMIT")
                return result
            except BaseException:
                try:
                    conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                raise

    def _read(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            try:
                return self._conn.execute(sql, args).fetchall()
            except sqlite3.DatabaseError as exc:
                raise StoreError(f"{self.path}: cannot read the game store: {exc}") from None

    # ------------------------------------------------------------ games and players
    def create(self, *, side: str = "union", name: str = "", scenario: Any = "1861", options: Any = None,
               seed: int | None = None, dice: str = "auto", play_on: bool = False,
               join_hours: float = JOIN_HOURS, now: float | None = None) -> "Seat":
        """A new game with its first player on ``side``; returns that player's seat (``seat.code`` is the
        join code for the classmate, ``seat.token`` the player's own code to come back with)."""
        side = Side.parse(side).value
        if seed is None:  # the secret the shared game's dice follow from: never shown to the players
            seed = secrets.randbits(128)
        game = ahd.new_game(scenario, options=options, seed=seed, dice=dice, play_on=play_on)
        head = game.to_dict()
        now = time.time() if now is None else now
        token = new_code(PLAYER_CODE_LENGTH)
        name = _clean_name(name, side)

        def work(conn: sqlite3.Connection) -> JoinError | None:
            self._created = [t for t in self._created if t > now - GAMES_PER_PAGE_WINDOW]
            if len(self._created) >= GAMES_PER_PAGE:
                return JoinError(_("this page has created {n} games in the last 10 minutes, the most it may: play "
                                   "one of them, or wait a few minutes").format(n=GAMES_PER_PAGE))
            recent = conn.execute("SELECT COUNT(*) FROM games WHERE created > ?", (now - 3600,)).fetchone()[0]
            if recent >= GAMES_PER_SERVER_HOUR:
                return JoinError(_("{n} games were created on this server in the last hour, the most it takes: ask "
                                   "your teacher, or join a classmate's game").format(n=recent))
            for _attempt in range(20):
                code = new_code(CODE_LENGTH)
                if not conn.execute("SELECT 1 FROM games WHERE code = ?", (code,)).fetchone():
                    break
            cursor = conn.execute(
                "INSERT INTO games (code, code_expires, scenario, options, seed, play_on, dice, created, "
                "last_activity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (code, now + join_hours * 3600, json.dumps(head["scenario"]), json.dumps(head["options"]),
                 str(head["seed"]), int(head["play_on"]), head["dice"], now, now))
            game_id = cursor.lastrowid
            conn.execute("INSERT INTO players (game, side, name, token_hash, joined) VALUES (?, ?, ?, ?, ?)",
                         (game_id, side, name, _hash(token), now))
            first = game.record_actions()  # a game that starts with dice: the generator's rolls are recorded
            _insert(conn, game_id, 0, first, side, "create", now)
            _write_summary(conn, game_id, game, len(first), now)
            return None

        refused = self._write(work)
        if refused is not None:
            raise refused
        self._created.append(now)
        return self._seat(token)

    def join(self, code: str, name: str = "", *, now: float | None = None) -> "Seat":
        """Take the free side of the game whose join code is ``code``. A wrong code (no such game, no free
        side, expired: all said the same way) counts towards the limits of wrong codes a minute."""
        code = normalise_code(code)
        now = time.time() if now is None else now
        if not code:
            raise JoinError(_("type the game's code (6 letters and digits) that your classmate sees"))
        token = new_code(PLAYER_CODE_LENGTH)

        def work(conn: sqlite3.Connection) -> JoinError | None:
            slowed = self._slowed(conn, now)
            if slowed:
                return slowed
            row = conn.execute("SELECT id, code_expires FROM games WHERE code = ?", (code,)).fetchone()
            free = []
            if row is not None and now <= row[1]:
                taken = {side for (side,) in conn.execute("SELECT side FROM players WHERE game = ?", (row[0],))}
                free = [s for s in SIDES if s not in taken]
            if not free:
                self._wrong_code(conn, now)
                hint = (" " + _("(that looks like a personal code: use '{button}')").format(
                    button=_("Come back to my game")) if len(code) == PLAYER_CODE_LENGTH else "")
                return JoinError(_("no open game has the code {code}{hint}: check it with your classmate (a code "
                                   "lets one classmate join within {hours} hours; codes use the letters and digits "
                                   "{alphabet}). To come back to your own game, use your personal link or code")
                                 .format(code=code, hint=hint, hours=int(JOIN_HOURS), alphabet=ALPHABET))
            game_id = row[0]
            conn.execute("INSERT INTO players (game, side, name, token_hash, joined) VALUES (?, ?, ?, ?, ?)",
                         (game_id, free[0], _clean_name(name, free[0]), _hash(token), now))
            conn.execute("UPDATE games SET last_activity = ? WHERE id = ?", (now, game_id))
            return None

        refused = self._write(work)  # a wrong code is counted (committed) before it is refused
        if refused is not None:
            raise refused
        return self._seat(token)

    def _slowed(self, conn: sqlite3.Connection, now: float) -> JoinError | None:
        """A refusal if this page or the whole server typed too many wrong codes in the last minute."""
        since = now - WRONG_CODES_WINDOW
        self._wrong = [t for t in self._wrong if t > since]
        conn.execute("DELETE FROM wrong_codes WHERE at <= ?", (since,))
        server = conn.execute("SELECT COUNT(*) FROM wrong_codes WHERE at > ?", (since,)).fetchone()[0]
        if len(self._wrong) >= WRONG_CODES_PER_PAGE:
            return JoinError(_("too many wrong codes were typed on this page in the last minute: wait a minute, "
                               "then type the code again"))
        if server >= WRONG_CODES_PER_SERVER:
            return JoinError(_("too many wrong codes were typed on this server in the last minute: wait a minute, "
                               "then type the code again"))
        return None

    def _wrong_code(self, conn: sqlite3.Connection, now: float) -> None:
        self._wrong.append(now)
        conn.execute("INSERT INTO wrong_codes (at) VALUES (?)", (now,))

    def resume(self, token: str) -> "Seat":
        """The seat of the player whose personal code is ``token`` (the game replayed from the store). A wrong
        code counts towards the limits of wrong codes a minute, as a wrong join code does."""
        now = time.time()

        def work(conn: sqlite3.Connection) -> tuple | JoinError:
            slowed = self._slowed(conn, now)
            if slowed:
                return slowed
            row = conn.execute("SELECT game, side, name FROM players WHERE token_hash = ?", (_hash(token),)).fetchone()
            if row is None:
                self._wrong_code(conn, now)
                return JoinError(_("no game on this server belongs to that personal code: check it (it is in your "
                                   "personal link), or ask your classmate for the game's join code"))
            return row

        found = self._write(work)
        if isinstance(found, JoinError):
            raise found
        return self._seat(token, *found)

    def _seat(self, token: str, game_id: int | None = None, side: str = "", name: str = "") -> "Seat":
        if game_id is None:  # a code just written (create, join): no limit to check
            game_id, side, name = self._read("SELECT game, side, name FROM players WHERE token_hash = ?",
                                             (_hash(token),))[0]
        game = self.replay(game_id)
        return Seat(self, game_id, Side.parse(side), name, normalise_code(token), game)

    def players(self, game_id: int) -> dict[str, str]:
        return {side: name for side, name in self._read("SELECT side, name FROM players WHERE game = ?", (game_id,))}

    def code_of(self, game_id: int) -> str:
        rows = self._read("SELECT code FROM games WHERE id = ?", (game_id,))
        if not rows:
            raise StoreError(f"{self.path}: no game {game_id}")
        return rows[0][0]

    # ------------------------------------------------------------ records
    def record(self, game_id: int) -> dict[str, Any]:
        """The game's record (the format of ``Game.to_dict``), read in one snapshot."""
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN")
                head = conn.execute("SELECT scenario, options, seed, play_on, dice FROM games WHERE id = ?",
                                    (game_id,)).fetchone()
                rows = conn.execute("SELECT action FROM actions WHERE game = ? ORDER BY seq", (game_id,)).fetchall()
                conn.execute("COMMIT")
            except sqlite3.DatabaseError as exc:
                conn.execute("ROLLBACK")
                raise StoreError(f"{self.path}: cannot read game {game_id}: {exc}") from None
        if head is None:
            raise StoreError(f"{self.path}: no game {game_id}")
        scenario, options, seed, play_on, dice = head
        return {"format": "house-divided-record", "version": 1, "scenario": json.loads(scenario),
                "options": json.loads(options), "seed": int(seed), "play_on": bool(play_on), "dice": dice,
                "actions": [json.loads(action) for (action,) in rows]}

    def replay(self, game_id: int) -> Game:
        """The game as the store holds it (every action checked again by the engine)."""
        try:
            return Game.from_dict(self.record(game_id))
        except AhdError as exc:
            if isinstance(exc, StoreError):
                raise
            raise StoreError(f"{self.path}: game {game_id} cannot be replayed: {exc}") from None

    def actions_since(self, game_id: int, seq: int) -> list[tuple[int, dict, str, str]]:
        """(seq, action as in a record, side, tab) of every action from ``seq`` on."""
        rows = self._read("SELECT seq, action, side, tab FROM actions WHERE game = ? AND seq >= ? ORDER BY seq",
                          (game_id, seq))
        return [(s, json.loads(a), side, tab) for s, a, side, tab in rows]

    def count(self, game_id: int) -> int:
        return self._read("SELECT COUNT(*) FROM actions WHERE game = ?", (game_id,))[0][0]

    def games(self, limit: int | None = None, offset: int = 0) -> list[GameRow]:
        """Every game (or ``limit`` of them from ``offset``), the most recently active first (the teacher's list)."""
        order = "ORDER BY last_activity DESC, id DESC" + (" LIMIT ? OFFSET ?" if limit is not None else "")
        args: tuple = (limit, offset) if limit is not None else ()
        players: dict[int, dict[str, str]] = {}
        for game_id, side, name in self._read("SELECT game, side, name FROM players WHERE game IN "
                                              f"(SELECT id FROM games {order})", args):
            players.setdefault(game_id, {})[side] = name
        rows = self._read("SELECT id, code, code_expires, scenario, dice, created, last_activity, seq, turn, "
                          f"to_move, union_max, confederate_max, outcome FROM games {order}", args)
        out = []
        for row in rows:
            scenario = json.loads(row[3])
            out.append(GameRow(*row[:3], scenario if isinstance(scenario, str) else str(scenario.get("id", "custom")),
                               *row[4:], players=players.get(row[0], {})))
        return out

    def game_count(self) -> int:
        return self._read("SELECT COUNT(*) FROM games")[0][0]

    def records_zip(self) -> bytes:
        """Every game's record as JSON files in one zip (``CODE-union-NAME-vs-confederate-NAME.json``)."""
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
            for row in self.games():
                names = "-vs-".join(f"{side}-{_file_safe(row.players.get(side, 'nobody'))}" for side in SIDES)
                archive.writestr(f"{row.code}-{names}.json", json.dumps(self.record(row.id)))
        return buffer.getvalue()


def _clean_name(name: str, side: str) -> str:
    name = " ".join((name or "").split())[:40]
    return name or f"{side.capitalize()} player"


def _file_safe(text: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in text)[:30] or "player"


def store_path(data: str | Path) -> Path:
    """The store file of a data folder."""
    return Path(data) / FILE_NAME


# one player's seat in a stored game, and the game it holds (widgets/classmates/shared_game.py; imported last: it uses
# the names above)
from widgets.classmates.shared_game import Seat, SharedGame  # noqa: E402,F401
