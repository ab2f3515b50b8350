"""What the store (:mod:`widgets.classmates.store`) and the seats of its games (:mod:`widgets.classmates.shared_game`) share: the
store's errors, who decides a game's pending decision, and the two writes a move makes (its actions, the
game's summary row). A module of its own so that the store and the seats import it, not each other.
"""
from __future__ import annotations

import json
import sqlite3

from ahd import Game
from ahd.core.errors import AhdError
from ahd.core.i18n import language
from ahd.core.sides import CHANCE, Side


class StoreError(AhdError, ValueError):
    """The store file cannot be used (damaged, not a store, from a newer version) or a write failed."""


class JoinError(AhdError, ValueError):
    """A join or resume that cannot be done: unknown or expired code, game full, unknown personal code."""


class MovedFirst(AhdError):
    """A submit lost a race: the store already holds another action at this sequence number."""

    def __init__(self, message: str, *, other_tab: bool) -> None:
        super().__init__(message)
        self.other_tab = other_tab


def deciding_side(game: Game) -> Side | None:
    """The side who makes the pending decision: the side to move, or for a typed-in die the side who rolls
    it at the table (None once the game is over)."""
    player = game.current_player
    if player is None:
        return None
    if player == CHANCE:
        from widgets.model.gestures import die_owner  # standard library + engine only
        return die_owner(game) or game.phasing
    return player


def to_move_text(game: Game) -> str:
    if game.is_over:
        return "over"
    side = deciding_side(game)
    return f"{side.value} (die)" if game.current_player == CHANCE else side.value


def _insert(conn: sqlite3.Connection, game_id: int, start: int, actions: list[dict], side: str, tab: str,
            now: float) -> None:
    conn.executemany("INSERT INTO actions (game, seq, action, side, tab, submitted) VALUES (?, ?, ?, ?, ?, ?)",
                     [(game_id, start + i, json.dumps(a, separators=(",", ":")), side, tab, now)
                      for i, a in enumerate(actions)])


def _write_summary(conn: sqlite3.Connection, game_id: int, game: Game, seq: int, now: float) -> None:
    # the teacher's list reads these: always in English, whatever the language of the page that moved
    # (widgets.classmates.teacher_games says the turn and the side to move in the server's language)
    with language("en"):
        turn, outcome = str(game.turn), str(game.outcome) if game.outcome else ""
    conn.execute("UPDATE games SET seq = ?, turn = ?, to_move = ?, union_max = ?, confederate_max = ?, outcome = ?, "
                 "last_activity = ? WHERE id = ?",
                 (seq, turn, to_move_text(game), game.army_max(Side.UNION),
                  game.army_max(Side.CONFEDERATE), outcome, now, game_id))


def store_path(data: str | Path) -> Path:
    """The store file of a data folder."""
    return Path(data) / FILE_NAME
