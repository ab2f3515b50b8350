"""The battle odds a session shows: of the battle being fought, of an attack the hovered box or the panel's list
considers, or of the march a click on a lit box would make."""
from __future__ import annotations

from ahd.core.actions import Action
from ahd.odds import BattleOdds, not_modelled, odds_for

from widgets.model.guard import guarded
from widgets.model.i18n import _, _n, num


class BattleReadout:
    """The battle odds of a :class:`widgets.model.session.Session` (a mixin: the session holds ``battle_odds``)."""

    @guarded
    def consider(self, action: Action | None) -> None:
        """Show the odds of the battle ``action`` would start or change (None: the battle as it stands)."""
        self._considered = None if action is None else (self.game, action, lambda: str(action))
        self._update_battle_odds()


    def _consider_orders(self, box_id: str) -> None:
        """Odds of the attack the selected units would make by a click on ``box_id`` (None if no battle)."""
        orders = list(self._plan.orders[box_id].values())
        trial = (self._plan.preview or self.game).copy()
        for order in orders[:-1]:
            if trial.why_not(order) is None:
                trial.apply(order)
        count, board = len(orders), self.game.board
        self._considered = (trial, orders[-1], lambda: _n("{n} unit to {box}", "{n} units to {box}", count).format(
            n=count, box=board.local_name(box_id)))
        self._update_battle_odds()


    def _update_battle_odds(self) -> None:
        game = self.game
        position, action, text = self._considered or (game, None, "")
        text = text() if callable(text) else text  # the considered attack, said in the current language
        result = None
        if not game.is_over and (action is not None or game.battle is not None):
            result = odds_for(position, action)
        if result is None:
            self.battle_odds = {}
            self.considered = ""
            return
        exact = isinstance(result, BattleOdds)
        battle = position.battle
        if battle is not None and action is None:
            label = _("Battle of {box}, round {round}").format(box=game.board.local_name(battle.box), round=battle.round)
            attacker = battle.attacker
        else:
            label = text
            attacker = position.phasing
        survivors = (result.expected_survivors("attacker"), result.expected_survivors("defender")) if exact else (
            result.expected_survivors["attacker"], result.expected_survivors["defender"])
        left = {side: _left_distribution(result, side) if exact else [] for side in ("attacker", "defender")}
        self.considered = text
        self.battle_odds = {
            "label": label, "attacker": attacker.value, "defender": attacker.enemy.value,
            "attacker_wins": result.attacker_wins, "defender_wins": result.defender_wins,
            "neither": result.neither, "expected_rounds": result.expected_rounds,
            "attacker_survivors": survivors[0], "defender_survivors": survivors[1],
            "attacker_left": left["attacker"], "defender_left": left["defender"],
            "method": "exact" if exact else _("simulated ({n} battles)").format(n=num(result.n)),
            "not_modelled": not_modelled(game.options, result.method),
        }


def _left_distribution(result: BattleOdds, side: str) -> list[float]:
    """P(k units of ``side`` left at the end), k = 0, 1, ... (from the exact odds' survivor table)."""
    out: list[float] = []
    for units, p in result.survivors.get(side, {}).items():
        while len(out) <= len(units):
            out.append(0.0)
        out[len(units)] += p
    return out
