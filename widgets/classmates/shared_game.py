"""One player's place in a game of the store (:class:`Seat`) and the game it holds (:class:`SharedGame`):
moves submitted to the store, checked by the engine first; races lost to a classmate or another tab; the
record a player may download (the rolls, never the shared game's secret seed). The store itself is
:mod:`widgets.classmates.store`.
"""
from __future__ import annotations

import secrets
import sqlite3
import time
from typing import TYPE_CHECKING, Any, Callable

from ahd import Game
from ahd.core.actions import Action, Roll, action_from_dict
from ahd.core.errors import AhdError, IllegalActionError
from ahd.core.i18n import Msg
from ahd.core.sides import CHANCE, Side

from widgets.model import i18n as app_i18n
from widgets.model.i18n import _
from widgets.classmates.store_rows import MovedFirst, StoreError, _insert, _write_summary, deciding_side

if TYPE_CHECKING:
    from widgets.classmates.store import Store


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

    def to_dict(self) -> dict[str, Any]:
        """The record a player may download ("Save to my computer"): the rolls as they fell, typed in, and a
        seed of the copy's own. The shared game's seed stays in the store: the dice still to come follow
        from it, so a record holding it let a private copy predict every roll (docs/security.md, finding 4)."""
        record = Game.to_dict(self)
        record["seed"] = secrets.randbits(63)
        record["actions"] = [{k: v for k, v in action.items() if k != "auto"} for action in record["actions"]]
        return record

    @property
    def seed(self) -> None:  # type: ignore[override]
        """None: the shared game's seed is the store's secret (the dice still to come follow from it)."""
        return None

    def __repr__(self) -> str:
        return f"<SharedGame {self._scenario.id} {self.turn} {self.phasing.adjective} {self.decision}>"

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
