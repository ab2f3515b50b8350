"""The war's timeline of a session: a point at the start of each half-turn (army maxima, and the live war odds
when the chart is on), one more where the game ended; rebuilt from the record of a loaded or replayed game.

The war odds are for the session's players (``union``/``confederate``: the chance that the Union wins if both
sides play on as those players do, ``ahd.odds.pairs``); when a player menu changes the measured pair they
stand for, every point's odds are computed again."""
from __future__ import annotations

from ahd import Game
from ahd.core.replay import Replay
from ahd.core.sides import Side
from ahd.odds import war_odds
from ahd.odds.pairs import pair_of


class Timeline:
    """The timeline of a :class:`widgets.model.session.Session` (a mixin: the session holds ``game``,
    ``show_war_odds``, ``_timeline`` and ``_frozen_timeline``)."""

    def _key(self, end: bool = False) -> tuple[int, str]:
        """The timeline's key of the current half-turn ("0" Union, "1" Confederate; "0e"/"1e" its end)."""
        return (self.game.state.turn, ("0" if self.game.phasing is Side.UNION else "1") + ("e" if end else ""))

    def _note_half_turn(self) -> None:
        """A point at the start of each half-turn, and one more where the game ended (HalfTurnPoint.end)."""
        if self._frozen_timeline:
            return
        game = self.game
        for end in (False, True) if game.is_over else (False,):
            key = self._key(end)
            if key not in self._timeline:
                x = key[0] + (0.5 if key[1].startswith("1") else 0.0) + (0.5 if end else 0.0)
                self._timeline[key] = (x, game.army_max(Side.UNION), game.army_max(Side.CONFEDERATE),
                                       self._war_point(game))

    def _war_point(self, game: Game) -> tuple[float, float, float] | None:
        """The live war odds (p, low, high) of a position, or None when the chart is off."""
        if not self.show_war_odds:
            return None
        result = war_odds(game, union=self.union, confederate=self.confederate)
        return (result.p_union, result.low, result.high)

    def _odds_players_changed(self) -> None:
        """After ``set_players``: if the measured pair the war odds stand for changed, every point's odds
        again (a replay's whole record, or the game's past half-turns and the current one)."""
        pair = pair_of(self.union, self.confederate)
        before, self._odds_pair = getattr(self, "_odds_pair", None), pair
        if before is None or before == pair or not self.show_war_odds:
            return
        replay = getattr(self, "_timeline_replay", None)
        if self._frozen_timeline and replay is not None:
            self.show_timeline(replay)
        else:
            self._rebuild_timeline()
            self._note_half_turn()
        self.refresh()

    def _trim_timeline(self) -> None:
        key = self._key()
        self._timeline = {k: v for k, v in self._timeline.items() if k < key}

    def _rebuild_timeline(self) -> None:
        """The timeline of a loaded game, from its record (war odds at each past half-turn too)."""
        self._timeline = {}
        if self.game.history:
            self.show_timeline(Replay(self.game), upto_now=True)

    def show_timeline(self, replay: Replay, upto_now: bool = False) -> None:
        """Chart a recorded game's half-turns (all of them, or those before the current one)."""
        points = replay.timeline[:-1] if upto_now else replay.timeline
        self._timeline = {}
        self._timeline_replay = replay
        for point in points:
            key = (point.turn, ("0" if point.side is Side.UNION else "1") + ("e" if point.end else ""))
            war = self._war_point(_game_after(replay, point.action_index)) if self.show_war_odds else None
            self._timeline[key] = (point.x, point.union_max, point.confederate_max, war)
        if not upto_now:
            self._frozen_timeline = True


def _game_after(replay: Replay, action_index: int) -> Game:
    """The replayed game after the last decision made before recorded action ``action_index``."""
    decision = max(i for i, mark in enumerate(replay.marks) if mark <= action_index)
    return replay.game_at(decision)
