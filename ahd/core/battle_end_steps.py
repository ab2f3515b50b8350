"""The end of each firing moment and of each battle: rounds and days, battlefield morale and rally (AO-8.1,
AO-8.11), the result (5.c), the routed units' retreat and desertion (AO-8.12), then promotion after the battle
(6.a) and in the Promotion segment (6.b), and the end of the Combat segment. A part of ``Engine`` (see
``engine.py``); the battle up to its last shot is in ``combat_steps.py``.
"""
from __future__ import annotations

from . import advanced, battle_moves, combat, leaders, promotion
from .actions import Action, NoRally, Rally, NoPromotion, Promote
from .errors import IllegalActionError
from .i18n import Msg, Msgn
from .sides import Side
from .units import unit_name


class BattleEndSteps:
    """Step handlers from the end of a firing moment to the end of the Combat segment, mixed into Engine."""

    # ================================================================== end of a moment, a round, a battle
    def _end_moment(self) -> None:
        s = self.state
        battle = s.battle
        if battle.flipped:  # AO-8.1: units just reduced test their morale
            battle.morale_pending = [uid for uid in battle.flipped if uid in s.units
                                     and s.units[uid].location == battle.box and s.units[uid].is_reduced
                                     and not s.units[uid].routed]
            battle.flipped = []
            if battle.morale_pending:
                s.step = "morale_roll"
                return
        firing = battle.firing
        if not combat.battle_units(s, battle, firing.enemy):
            self._finish_battle(firing)
        elif firing is battle.defender:
            self._begin_moment(battle.attacker)
        else:
            if "AO-8.11" in s.options and battle.round % advanced.DAY_ROUNDS == 0:  # AO-8.11: end of a day
                battle.rally_pending = [side for side in (battle.defender, battle.attacker)
                                        if combat.routed_units(s, battle, side)]
                if battle.rally_pending:
                    s.step = "rally"
                    return
            self._next_round()

    def _next_round(self) -> None:
        battle = self.state.battle
        battle.round += 1
        self._begin_moment(battle.defender)

    def _morale_rolled(self, natural: int) -> None:
        s = self.state
        battle = s.battle
        unit = s.units[battle.morale_pending.pop(0)]
        entrenched = combat.is_entrenched_in_battle(s, battle, unit)
        modified = natural - entrenched
        limit = combat.morale(s, unit)
        name = unit_name(unit)
        if modified > limit:
            unit.routed = True
            result = Msg("routed: out of the fighting")
        else:
            result = Msg("holds")
        if entrenched:
            self.log("morale", Msg("{unit} tests its morale: {natural} − 1 entrenched against {limit}: {result} "
                                   "(AO-8.1)", unit=name, natural=natural, limit=limit, result=result))
        else:
            self.log("morale", Msg("{unit} tests its morale: {natural} against {limit}: {result} (AO-8.1)",
                                   unit=name, natural=natural, limit=limit, result=result))
        if not battle.morale_pending:
            self._end_moment()

    def _legal_rally(self) -> list[Action]:
        s = self.state
        side = s.battle.rally_pending[0]
        return [Rally(u.id) for u in combat.routed_units(s, s.battle, side)] + [NoRally()]

    def _check_rally(self, action: Rally) -> IllegalActionError | None:
        s = self.state
        side = s.battle.rally_pending[0]
        if action.unit not in {u.id for u in combat.routed_units(s, s.battle, side)}:
            return IllegalActionError("AO-8.11", Msg("{unit} is not a routed {side} unit of this battle", unit=action.unit,
                                                   side=side))
        return None

    def _do_rally(self, action: Rally) -> None:
        s = self.state
        unit = s.units[action.unit]
        unit.routed = False
        self.log("morale", Msg("{unit} rallies and returns to the fighting, still reduced (AO-8.11)",
                               unit=unit_name(unit)))
        self._rally_done()

    def _do_no_rally(self, action: NoRally) -> None:
        self._rally_done()

    def _rally_done(self) -> None:
        battle = self.state.battle
        battle.rally_pending.pop(0)
        if not battle.rally_pending:
            self._next_round()

    def _finish_battle(self, winner: Side | None) -> None:
        s = self.state
        battle = s.battle
        battle.winner = winner
        if battle.coastal is not None:  # A-5 (e): it exists only in its invasion battle
            s.remove_unit(s.units[battle.coastal])
        if winner is not None:
            self.log("battle", Msg("The {side} side wins the battle at {box} (5.c)", side=winner,
                                   box=s.board.term(battle.box)))
        if "AO-8.1" in s.options:
            battle.was_routed = {uid for side in Side for uid in battle.participants.get(side, ())
                                 if uid in s.units and s.units[uid].routed}
            if winner is not None:
                for unit in combat.routed_units(s, battle, winner):
                    unit.routed = False  # AO-8.12: the winner's routed units rejoin
                if combat.routed_units(s, battle, winner.enemy):  # lost by elimination or rout
                    if self._rout_boxes():
                        s.step = "rout_retreat"
                        return
                    for unit in combat.routed_units(s, battle, winner.enemy):
                        combat.eliminate(s, unit)
                        name = unit_name(unit)  # as before: read after it left the map (full strength)
                        self.log("morale", Msg("{unit}, routed with nowhere to go, is eliminated (AO-8.12)",
                                               unit=name))
        self._after_routs()

    def _rout_boxes(self) -> list[str]:
        """AO-8.12: the boxes where a beaten side's routed units may retreat together (5.2.5 a–d)."""
        s = self.state
        battle = s.battle
        return [b for b in sorted(s.board.neighbours(battle.box))
                if battle_moves.retreat_barrier(s, battle, battle.winner.enemy, b) is None]

    def _rout_retreat(self, to: str) -> None:
        s = self.state
        battle = s.battle
        loser = battle.winner.enemy
        for leader in leaders.leaders_in(s, battle.box, loser):
            leader.location = to
        for unit in combat.routed_units(s, battle, loser):
            s.place(unit, to)
            unit.retreated = True
        self.log("retreat", Msg("The routed {side} units retreat to {to} (AO-8.12)", side=loser, to=s.board.term(to)))
        self._after_routs()

    def _after_routs(self) -> None:
        s = self.state
        battle = s.battle
        for side in Side:
            for uid in battle.participants.get(side, ()):
                if uid in s.units:
                    s.units[uid].routed = False
        if "AO-8.12" in s.options and battle.winner is not None:
            battle.desertion_pending = []
            for side in (battle.defender, battle.attacker):
                lost = side is not battle.winner
                for uid in sorted(battle.participants.get(side, ())):
                    unit = s.units.get(uid)
                    if unit is None or not unit.on_map or not unit.is_reduced or unit.is_coastal:
                        continue
                    modifier = (1 if lost else 0) - (uid not in battle.was_routed)
                    if "AO-8.2" in s.options:
                        modifier -= leaders.leader_value_in(s, unit.location, side)  # AO-8.2.3
                    battle.desertion_pending.append((uid, modifier, lost))
            if battle.desertion_pending:
                s.step = "desertion_roll"
                return
        self._conclude_battle()

    def _desertion_rolled(self, natural: int) -> None:
        s = self.state
        battle = s.battle
        uid, modifier, lost = battle.desertion_pending.pop(0)
        unit = s.units[uid]
        limit = combat.morale(s, unit)
        h3 = lost and natural == 6 and "H-3" in s.options
        if natural + modifier > limit or h3:
            label = unit_name(unit)
            combat.eliminate(s, unit, in_battle=False)
            rule = "H-3" if h3 and natural + modifier <= limit else "AO-8.12"
            self.log("morale", Msg("{unit} deserts: {natural} {modifier:+d} against {limit} — eliminated ({rule})",
                                   unit=label, natural=natural, modifier=modifier, limit=limit, rule=rule))
        else:
            self.log("morale", Msg("{unit} stays: {natural} {modifier:+d} against {limit} (AO-8.12)",
                                   unit=unit_name(unit), natural=natural, modifier=modifier, limit=limit))
        if not battle.desertion_pending:
            self._conclude_battle()

    def _conclude_battle(self) -> None:
        s = self.state
        battle = s.battle
        winner = battle.winner
        self._remove_lone_leaders()  # AO-8.2.2: a side wiped out loses its leaders for a while
        if winner is not None and self._battle_promotable():
            s.step = "battle_promotion"
        else:
            self._next_battle()

    def _battle_promotable(self) -> list[str]:
        s = self.state
        battle = s.battle
        if battle.winner is Side.UNION and battle.coastal is not None and \
                battle.participants[Side.CONFEDERATE] == {battle.coastal}:
            return []  # A-5 (d): beating only a coastal defence gives no promotion
        return [uid for uid in sorted(battle.participants[battle.winner])
                if uid in s.units and s.units[uid].location == battle.box and combat.is_promotable(s.units[uid])]

    def _legal_battle_promotion(self) -> list[Action]:
        return [Promote(uid) for uid in self._battle_promotable()] + [NoPromotion()]

    def _legal_promotion(self) -> list[Action]:
        s = self.state
        return [Promote(u.id) for u in sorted(s.units_of(s.phasing), key=lambda u: u.id)
                if combat.is_promotable(u)] + [NoPromotion()]

    def _check_promote(self, action: Promote) -> IllegalActionError | None:
        s = self.state
        if s.step == "battle_promotion":
            return promotion.check_promotion(s, action.unit, s.battle.winner, set(self._battle_promotable()), "6.a")
        eligible = {u.id for u in s.units_of(s.phasing) if combat.is_promotable(u)}
        return promotion.check_promotion(s, action.unit, s.phasing, eligible, "6.b")

    def _do_promote(self, action: Promote) -> None:
        s = self.state
        old = s.units[action.unit]
        new = promotion.promote(s, old)
        old_name = unit_name(old)  # as before: read after the old counter left the map (full strength)
        rule = "6.a" if s.step == "battle_promotion" else "6.b"
        self.log("promote", Msg("{old} in {box} is promoted to {new} ({rule})", old=old_name,
                                box=s.board.term(new.location), new=unit_name(new), rule=rule))
        if s.step == "battle_promotion":
            self._next_battle()
        else:
            s.promotions_left -= 1
            if s.promotions_left <= 0 or len(self._legal_promotion()) == 1:
                self._start_recruitment()


    def _do_no_promotion(self, action: NoPromotion) -> None:
        if self.state.step == "battle_promotion":
            self._next_battle()
        else:
            self._start_recruitment()

    def _end_combat(self) -> None:
        s = self.state
        s.battle = None
        recovered = combat.recover_all(s)
        if recovered:
            self.log("recover", Msgn("{n} reduced unit recovers to full strength (5.2.7)",
                                      "{n} reduced units recover to full strength (5.2.7)", n=recovered))
        self._start_promotion()
