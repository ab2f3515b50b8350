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
from ahd.core.actions import Action, Roll, action_from_dict
from ahd.core.errors import AhdError, IllegalActionError
from ahd.core.i18n import Msg, language
from ahd.core.sides import CHANCE, Side

from . import i18n as app_i18n
from .i18n import _, moment

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


class StoreError(AhdError, ValueError):
    """The store file cannot be used (damaged, not a store, from a newer version) or a write failed."""


class JoinError(AhdError, ValueError):
    """A join or resume that cannot be done: unknown or expired code, game full, unknown personal code."""


class MovedFirst(AhdError):
    """A submit lost a race: the store already holds another action at this sequence number."""

    def __init__(self, message: str, *, other_tab: bool) -> None:
        super().__init__(message)
        self.other_tab = other_tab


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


def deciding_side(game: Game) -> Side | None:
    """The side who makes the pending decision: the side to move, or for a typed-in die the side who rolls
    it at the table (None once the game is over)."""
    player = game.current_player
    if player is None:
        return None
    if player == CHANCE:
        from .gestures import die_owner  # standard library + engine only
        return die_owner(game) or game.phasing
    return player


def to_move_text(game: Game) -> str:
    if game.is_over:
        return "over"
    side = deciding_side(game)
    return f"{side.value} (die)" if game.current_player == CHANCE else side.value


class Store:
    """One connection to the store file (make one per process or thread; it is safe to share one between
    threads, which take turns)."""

    def __init__(self, path: str | Path, *, check: bool = False, create: bool = True) -> None:
        self.path = Path(path)
        self._lock = threading.RLock()
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
        game = ahd.new_game(scenario, options=options, seed=seed, dice=dice, play_on=play_on)
        head = game.to_dict()
        now = time.time() if now is None else now
        token = new_code(PLAYER_CODE_LENGTH)
        name = _clean_name(name, side)

        def work(conn: sqlite3.Connection) -> tuple[int, str]:
            for _ in range(20):
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
            return game_id, code

        self._write(work)
        return self.resume(token)

    def join(self, code: str, name: str = "", *, now: float | None = None) -> "Seat":
        """Take the free side of the game whose join code is ``code``."""
        code = normalise_code(code)
        now = time.time() if now is None else now
        if not code:
            raise JoinError(_("type the game's code (6 letters and digits) that your classmate sees"))
        token = new_code(PLAYER_CODE_LENGTH)

        def work(conn: sqlite3.Connection) -> None:
            row = conn.execute("SELECT id, code_expires FROM games WHERE code = ?", (code,)).fetchone()
            if row is None:
                hint = (" " + _("(that looks like a personal code: use '{button}')").format(
                    button=_("Come back to my game")) if len(code) == PLAYER_CODE_LENGTH else "")
                raise JoinError(_("no game has the code {code}{hint}: check it with your classmate (codes use the "
                                  "letters and digits {alphabet})").format(code=code, hint=hint, alphabet=ALPHABET))
            game_id, expires = row
            taken = {side for (side,) in conn.execute("SELECT side FROM players WHERE game = ?", (game_id,))}
            free = [s for s in SIDES if s not in taken]
            if not free:
                raise JoinError(_("the game {code} already has two players. To come back to your own game, use "
                                  "your personal link or code").format(code=code))
            if now > expires:
                raise JoinError(_("the code {code} has expired ({when}): ask your classmate to create a new "
                                  "game").format(code=code, when=moment(expires)))
            conn.execute("INSERT INTO players (game, side, name, token_hash, joined) VALUES (?, ?, ?, ?, ?)",
                         (game_id, free[0], _clean_name(name, free[0]), _hash(token), now))
            conn.execute("UPDATE games SET last_activity = ? WHERE id = ?", (now, game_id))

        self._write(work)
        return self.resume(token)

    def resume(self, token: str) -> "Seat":
        """The seat of the player whose personal code is ``token`` (the game replayed from the store)."""
        rows = self._read("SELECT game, side, name FROM players WHERE token_hash = ?", (_hash(token),))
        if not rows:
            raise JoinError(_("no game on this server belongs to that personal code: check it (it is in your "
                              "personal link), or ask your classmate for the game's join code"))
        game_id, side, name = rows[0]
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

    def games(self) -> list[GameRow]:
        """Every game, the most recently active first (the teacher's list)."""
        players: dict[int, dict[str, str]] = {}
        for game_id, side, name in self._read("SELECT game, side, name FROM players"):
            players.setdefault(game_id, {})[side] = name
        rows = self._read("SELECT id, code, code_expires, scenario, dice, created, last_activity, seq, turn, "
                          "to_move, union_max, confederate_max, outcome FROM games ORDER BY last_activity DESC")
        out = []
        for row in rows:
            scenario = json.loads(row[3])
            out.append(GameRow(*row[:3], scenario if isinstance(scenario, str) else str(scenario.get("id", "custom")),
                               *row[4:], players=players.get(row[0], {})))
        return out

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


def _insert(conn: sqlite3.Connection, game_id: int, start: int, actions: list[dict], side: str, tab: str,
            now: float) -> None:
    conn.executemany("INSERT INTO actions (game, seq, action, side, tab, submitted) VALUES (?, ?, ?, ?, ?, ?)",
                     [(game_id, start + i, json.dumps(a, separators=(",", ":")), side, tab, now)
                      for i, a in enumerate(actions)])


def _write_summary(conn: sqlite3.Connection, game_id: int, game: Game, seq: int, now: float) -> None:
    # the teacher's list reads these: always in English, whatever the language of the page that moved
    # (widgets.teacher_games says the turn and the side to move in the server's language)
    with language("en"):
        turn, outcome = str(game.turn), str(game.outcome) if game.outcome else ""
    conn.execute("UPDATE games SET seq = ?, turn = ?, to_move = ?, union_max = ?, confederate_max = ?, outcome = ?, "
                 "last_activity = ? WHERE id = ?",
                 (seq, turn, to_move_text(game), game.army_max(Side.UNION),
                  game.army_max(Side.CONFEDERATE), outcome, now, game_id))


class Seat:
    """One player's place in one game: the game as the store holds it (``game``, a :class:`SharedGame` whose
    ``apply`` and ``roll`` submit to the store) and the number of stored actions it holds (``seq``)."""

    def __init__(self, store: Store, game_id: int, side: Side, name: str, token: str, game: Game) -> None:
        self.store = store
        self.game_id = game_id
        self.side = side
        self.name = name
        self.token = token
        self.tab = secrets.token_hex(4)  # this seat (one page): another seat of the same player is "another tab"
        self.code = store.code_of(game_id)
        self.seq = len(game.record_actions())
        self.revision = 0  # bumped whenever the game changes (a submit or actions from the store)
        self.conflict: MovedFirst | None = None  # the last lost race, until the next sync
        game.__class__ = SharedGame
        game._seat = self
        self.game: SharedGame = game  # type: ignore[assignment]

    @property
    def opponent(self) -> str | None:
        """The other player's name, or None while nobody has joined."""
        return self.store.players(self.game_id).get(self.side.enemy.value)

    # ------------------------------------------------------------ submitting
    def submit(self, action: Action, do: Callable[[], Any] | None = None) -> Any:
        """Store ``action`` if it is legal now, this player's to make, and ``seq`` is still the next number;
        ``do`` applies it to the local game (default: ``Game.apply``). Raises IllegalActionError (nothing
        stored, nothing changed), :class:`MovedFirst` (lost a race: call :meth:`sync`) or StoreError."""
        game = self.game
        deciding = deciding_side(game)
        if deciding is not None and deciding is not self.side:
            # a message in the app's catalog, kept with its parameters (said again in another language)
            app = ("widgets", str(app_i18n.LOCALE_DIR))  # the folder as it is now (tests point it elsewhere)
            other = self.opponent or Msg("your classmate", domain=app)
            if game.current_player == CHANCE:
                text = Msg("it is the {side} side's turn to roll this die ({other} decides); you play the {mine} "
                           "side, wait for their move", side=deciding, other=other, mine=self.side, domain=app)
            else:
                text = Msg("it is the {side} side's turn to move ({other} decides); you play the {mine} side, wait "
                           "for their move", side=deciding, other=other, mine=self.side, domain=app)
            raise IllegalActionError("3.a", text)
        error = game.why_not(action)  # the engine checks it against the stored position, before anything is stored
        if error is not None:
            raise error
        start = self.seq
        if len(game.record_actions()) != start:
            raise StoreError(_("{path}: this page's game is out of step with the store; reload the page").format(
                path=self.store.path))
        result: list[Any] = []

        def work(conn: sqlite3.Connection) -> int:
            row = conn.execute("SELECT side, tab FROM actions WHERE game = ? AND seq = ?",
                               (self.game_id, start)).fetchone()
            if row is not None:
                raise self._lost_race(row[0], row[1])
            result.append(do() if do is not None else Game.apply(game, action))
            try:
                new = game.record_actions(start)
                now = time.time()
                _insert(conn, self.game_id, start, new, self.side.value, self.tab, now)
                _write_summary(conn, self.game_id, game, start + len(new), now)
                return len(new)
            except BaseException:
                game._rewind(start)
                raise

        try:
            added = self.store._write(work)
        except sqlite3.IntegrityError:  # a racing writer got there first (cannot happen under the write lock)
            game._rewind(start) if len(game.record_actions()) != start else None
            raise self._lost_race("", "") from None
        except sqlite3.DatabaseError as exc:
            if len(game.record_actions()) != start:
                game._rewind(start)
            raise StoreError(_("{path}: the move was not stored: {error}").format(path=self.store.path, error=exc)) from None
        self.seq = start + added
        self.revision += 1
        return result[0]

    def _lost_race(self, side: str, tab: str) -> MovedFirst:
        mine = side == self.side.value
        if mine:
            text = _("this game changed in another tab or window (yours): that move was made there first, so this "
                     "one was not played; the board now shows the game as it is")
        else:
            text = _("{other} moved first, so your move was not played; the board now shows their move").format(
                other=self.opponent or _("your classmate"))
        self.conflict = MovedFirst(text, other_tab=mine)
        return self.conflict

    # ------------------------------------------------------------ catching up
    def sync(self) -> list[tuple[Action, str]]:
        """Apply the actions stored since ``seq`` (a classmate's moves, another tab's) to the local game;
        returns them with the side that submitted each (the generator's rolls left out)."""
        rows = self.store.actions_since(self.game_id, self.seq)
        game = self.game
        applied: list[tuple[Action, str]] = []
        for seq, raw, side, _tab in rows:
            if seq != self.seq:
                raise StoreError(f"{self.store.path}: game {self.code} has a gap at action {self.seq}")
            raw = dict(raw)
            auto = bool(raw.pop("auto", False))
            action = action_from_dict(raw)
            if not auto:
                error = game.why_not(action)
                if error is not None:
                    raise StoreError(f"{self.store.path}: game {self.code}'s action {seq} ({action}) is illegal "
                                     f"in its position: {error}")
            game._replay_one(action, auto)
            self.seq += 1
            if not auto:
                applied.append((action, side))
        if rows:
            self.revision += 1
        return applied


class SharedGame(Game):
    """A game held by a :class:`Seat`: ``apply`` and ``roll`` go through the store (checked by the engine,
    refused for the other side's decisions, refused when the store has moved on); moves cannot be taken
    back and the dice mode is the one agreed at creation. Copies (for previews and lookahead) are plain
    games that submit nothing."""

    _seat: Seat

    def apply(self, action: Action) -> None:
        self._seat.submit(action)

    def roll(self, value: int | None = None) -> int:
        if self.current_player != CHANCE:
            raise IllegalActionError("0.3", Msg("no die is to be rolled now"))  # the engine's own words
        if value is None:  # the generator rolls it (recorded as automatic)
            return self._seat.submit(Roll(1), lambda: Game.roll(self))
        return self._seat.submit(Roll(int(value)), lambda: Game.roll(self, value))

    def plays_for(self, side: Side | str) -> bool:
        """True if this page plays ``side`` (its bots and stand-ins never decide for the other side)."""
        return Side.parse(side) is self._seat.side

    def can_undo(self) -> bool:
        return False

    def undo(self) -> Action:
        raise AhdError(_("a move in a game with a classmate cannot be taken back"))

    @property
    def dice(self) -> str:
        return self._dice

    @dice.setter
    def dice(self, mode: str) -> None:
        if getattr(self, "_seat", None) is not None and mode != self._dice:
            raise AhdError((_("the dice of a game with a classmate are the ones agreed when it was created "
                              "(rolled by the computer)") if self._dice == "auto" else
                            _("the dice of a game with a classmate are the ones agreed when it was created "
                              "(typed in)")))
        Game.dice.fset(self, mode)


def store_path(data: str | Path) -> Path:
    """The store file of a data folder."""
    return Path(data) / FILE_NAME
