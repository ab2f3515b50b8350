"""The advanced game's decisions in the sequence of play: supply (A-2), leaders (AO-8.2, C-2) and
containment (A-4). A mixin of :class:`ahd.engine.Engine`, like :mod:`ahd.combat_steps`: each step has
its ``legal``/``check``/``do`` handlers; the rule details live in :mod:`ahd.advanced` and :mod:`ahd.leaders`.
"""
from __future__ import annotations

from . import advanced, combat, leaders, movement
from .actions import (Action, Assault, BreakOut, Contain, LeaderFollow, LeaderMove, PlaceLeader,
                      Starve)
from .errors import IllegalActionError
from .i18n import Joined, Msg
from .units import unit_name
from .sides import Side


class AdvancedSteps:
    """Step handlers of the advanced rules (mixed into Engine, which provides state, log and the rest)."""

    # ================================================================== supply
    def _legal_supply(self) -> list[Action]:
        s = self.state
        return [Starve(u.id) for u in sorted(s.units_in(s.unsupplied[0], s.phasing), key=lambda u: u.id)]

    def _check_starve(self, action: Starve) -> IllegalActionError | None:
        s = self.state
        unit = s.units.get(action.unit)
        box = s.unsupplied[0]
        if unit is None or unit.side is not s.phasing or unit.location != box:
            return IllegalActionError("A-2.3", Msg("the unit lost must come from the unsupplied {side} stack at {box}",
                                                   side=s.phasing, box=s.board.term(box)))
        return None

    def _do_starve(self, action: Starve) -> None:
        s = self.state
        unit = s.units[action.unit]
        box = s.unsupplied.pop(0)
        combat.eliminate(s, unit, in_battle=False)
        self.log("supply", Msg("{unit} at {box} is lost for want of supply (A-2.3)", unit=unit_name(unit),
                               box=s.board.term(box)))
        if not s.unsupplied:
            self._after_supply()

    # ================================================================== leaders (AO-8.2, C-2)
    def _marches_determined(self) -> None:
        """C-2: right after the marches are determined, the side's leaders change value and arrive."""
        s = self.state
        if "AO-8.2" in s.options:
            for leader in s.leaders.values():
                value = leaders.t6_value(leader.name, s.turn)
                if leader.side is s.phasing and leader.on_map and value != leader.value:
                    self.log("leader", Msg("{leader}'s value becomes {value} (T-6, C-2)", leader=leader.title, value=value))
                    leader.value = value
            if leaders.arrivals(s, s.phasing) and leaders.friendly_boxes(s, s.phasing):
                s.step = "leader_arrival"
                return
        s.step = "movement"
        self._movement_or_end()

    def _legal_leader_arrival(self) -> list[Action]:
        s = self.state
        pending = leaders.arrivals(s, s.phasing) if s.step == "leader_arrival" else leaders.returning(s, s.phasing)
        boxes = leaders.friendly_boxes(s, s.phasing)
        return [PlaceLeader(l.name, box) for l in pending[:1] for box in boxes]

    _legal_leader_return = _legal_leader_arrival

    def _check_place_leader(self, action: PlaceLeader) -> IllegalActionError | None:
        s = self.state
        if s.step == "leader_arrival":
            return leaders.check_place(s, action.leader, action.box, leaders.arrivals(s, s.phasing), "AO-8.2.0")
        return leaders.check_place(s, action.leader, action.box, leaders.returning(s, s.phasing), "AO-8.2.2")

    def _do_place_leader(self, action: PlaceLeader) -> None:
        s = self.state
        leader = s.leaders[action.leader]
        leader.location = action.box
        leader.value = leaders.t6_value(leader.name, s.turn)
        if s.step == "leader_arrival":
            self.log("leader", Msg("{leader} ({value}) arrives at {box} (AO-8.2.0)", leader=leader.title,
                                   value=leader.value, box=s.board.term(action.box)))
            if not leaders.arrivals(s, s.phasing):
                s.step = "movement"
                self._movement_or_end()
        else:
            self.log("leader", Msg("{leader} returns at {box} (AO-8.2.2)", leader=leader.title,
                                   box=s.board.term(action.box)))
            if not leaders.returning(s, s.phasing):
                self._start_recruit_roll()

    def _leader_actions(self) -> list[Action]:
        s = self.state
        if "AO-8.2" not in s.options:
            return []
        actions: list[Action] = []
        for leader in sorted(s.leaders.values(), key=lambda l: l.name):
            if leader.side is s.phasing and leader.on_map:
                actions.extend(LeaderFollow(leader.name, uid) for uid in leaders.legal_follows(s, leader))
                actions.extend(LeaderMove(leader.name, p, k) for p, k in movement.legal_leader_moves(s, leader))
        return actions

    def _check_leader_move(self, action: LeaderMove) -> IllegalActionError | None:
        return movement.check_leader_move(self.state, action.leader, tuple(action.path), tuple(action.lines))

    def _do_leader_move(self, action: LeaderMove) -> None:
        s = self.state
        leader = s.leaders[action.leader]
        leaders.note_leader_moved(s, leader)
        leader.location = action.path[-1]
        leader.marches += 1
        route = Joined([s.board.term(b) for b in action.path], " → ")
        self.log("leader", Msg("{leader} moves alone: {route} (AO-8.2.1, C-3)", leader=leader.title, route=route))
        self._movement_or_end()

    def _check_leader_follow(self, action: LeaderFollow) -> IllegalActionError | None:
        return leaders.check_follow(self.state, action.leader, action.unit)

    def _do_leader_follow(self, action: LeaderFollow) -> None:
        s = self.state
        leader = s.leaders[action.leader]
        unit = s.units[action.unit]
        leaders.note_leader_moved(s, leader)
        leader.location = unit.location
        leader.marches += 1
        self.log("leader", Msg("{leader} goes with {unit} to {box} (AO-8.2.1)", leader=leader.title,
                               unit=unit_name(unit), box=s.board.term(unit.location)))
        self._movement_or_end()

    def _remove_lone_leaders(self) -> None:
        for leader in leaders.removal_check(self.state):
            self.log("leader", Msg("{leader} is alone with enemy units and is removed; he returns in a {side} "
                                   "Recruitment segment (AO-8.2.2)", leader=leader.title, side=leader.side))

    # ================================================================== containment
    def _legal_containment(self) -> list[Action]:
        box = self.state.containment_pending[0]
        return [Contain(box), Assault(box)]

    def _check_containment_choice(self, box: str) -> IllegalActionError | None:
        s = self.state
        if not s.containment_pending or box != s.containment_pending[0]:
            return IllegalActionError("A-4", Msg("the containment choice now is for {box}",
                                                 box=s.board.term(s.containment_pending[0])))
        return None

    def _check_contain(self, action: Contain) -> IllegalActionError | None:
        return self._check_containment_choice(action.box)

    def _check_assault(self, action: Assault) -> IllegalActionError | None:
        return self._check_containment_choice(action.box)

    def _do_contain(self, action: Contain) -> None:
        s = self.state
        s.containment_pending.pop(0)
        s.battles.remove(action.box)
        s.contained.add(action.box)
        self.log("contain", Msg("The Confederates contain the Union garrison of {box}: no battle (A-4)",
                                box=s.board.term(action.box)))
        self._containment_done()

    def _do_assault(self, action: Assault) -> None:
        s = self.state
        s.containment_pending.pop(0)
        self.log("contain", Msg("The Confederates attack the Union garrison of {box} (A-4)",
                                box=s.board.term(action.box)))
        self._containment_done()

    def _containment_done(self) -> None:
        if not self.state.containment_pending:
            self._announce_battles()

    def _check_break_out(self, action: BreakOut) -> IllegalActionError | None:
        s = self.state
        if "A-4" not in s.options or s.phasing is not Side.UNION or not advanced.is_contained(s, action.box):
            return IllegalActionError("A-4", Msg("no Union units are contained in {box}", box=s.board.term(action.box)))
        if s.marches_left < 1:
            return IllegalActionError("4.a", Msg("no marches are left"))
        if s.marches_made != s.breakouts:
            return IllegalActionError("A-4", Msg("break-outs are fought at the start of the Union Movement segment"))
        if any(u.marches >= 2 for u in s.units_in(action.box, Side.UNION)):
            return IllegalActionError("4.f", Msg("a participant has no march left this turn"))
        return None

    def _do_break_out(self, action: BreakOut) -> None:
        s = self.state
        s.marches_left -= 1
        s.marches_made += 1
        s.breakouts += 1
        for unit in s.units_in(action.box, Side.UNION):
            unit.marches += 1
        self.log("contain", Msg("March {march}: the Union garrison of {box} tries to break out (A-4)",
                                march=s.marches_made, box=s.board.term(action.box)))
        s.breakout = True
        s.contained.discard(action.box)
        s.battles = [action.box]
        self._start_battle(action.box, contained=True)
