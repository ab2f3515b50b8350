"""The Movement segment's steps (§4): beginning and ending marches, the moves of a march, sea moves and
invasions (4.2.4), the end of the segment and the battles it leaves. A part of ``Engine`` (see ``engine.py``); the
rules themselves are in ``movement.py``.
"""
from __future__ import annotations

from . import advanced, leaders, movement
from .actions import Action, BeginMarch, BreakOut, EndMarch, EndMovement, Entrench, Invade, Move, NavalMove
from .errors import IllegalActionError
from .i18n import Joined, Msg, Msgn, Term
from .movement import lines_term
from .sides import Side
from .units import EUROPE, unit_name


class MovementSteps:
    """Step handlers of the Movement segment, mixed into Engine (which provides state, log and the
    transitions to the other segments)."""

    # ================================================================== movement segment
    def _legal_movement(self) -> list[Action]:
        s = self.state
        actions: list[Action] = []
        if s.marches_left > 0:
            actions.extend(BreakOut(box) for box in sorted(s.contained)
                           if self._check_break_out(BreakOut(box)) is None)
            actions.extend(BeginMarch(box) for box in movement.march_origins(s))
            for kind, unit, port in movement.legal_sea_moves(s):
                actions.append(NavalMove(unit.id, port) if kind == "naval" else Invade(unit.id, port))
        actions.extend(self._leader_actions())
        actions.append(EndMovement())
        return actions

    def _movement_or_end(self) -> None:
        if len(self._remember(self._legal_movement())) == 1:
            self._end_movement()

    def _check_begin_march(self, action: BeginMarch) -> IllegalActionError | None:
        s = self.state
        if s.marches_left <= 0:
            return IllegalActionError("4.a", Msg("no marches are left"))
        if action.origin not in s.board:
            return IllegalActionError("4.b", Msg("there is no box {id}", id=repr(action.origin)))
        if not s.has_units(action.origin, s.phasing):
            return IllegalActionError("4.b", Msg("no {side} units are in {box}", side=s.phasing,
                                                 box=s.board.term(action.origin)))
        if action.origin not in movement.march_origins(s):
            return IllegalActionError("4.f", Msg("no unit in {box} can take part in a march now",
                                                 box=s.board.term(action.origin)))
        return None

    def _do_begin_march(self, action: BeginMarch) -> None:
        s = self.state
        s.march_origin = action.origin
        s.march_ordered = []
        s.march_moves = []
        s.step = "march"


    def _do_end_movement(self, action: EndMovement) -> None:
        if self.state.marches_left:
            self.log("marches", Msgn("{n} unused march lapses (4.a)", "{n} unused marches lapse (4.a)",
                                    n=self.state.marches_left))
        self._end_movement()

    def _check_naval_move(self, action: NavalMove) -> IllegalActionError | None:
        return movement.check_naval_move(self.state, action.unit, action.to)

    def _check_invade(self, action: Invade) -> IllegalActionError | None:
        return movement.check_invade(self.state, action.unit, action.port)

    def _do_naval_move(self, action: NavalMove) -> None:
        self._sea_move(action.unit, action.to, invasion=False)

    def _do_invade(self, action: Invade) -> None:
        self._sea_move(action.unit, action.port, invasion=True)

    def _sea_move(self, unit_id: str, to: str, invasion: bool) -> None:
        s = self.state
        unit = s.units[unit_id]
        s.moved_from[unit.id] = unit.location
        leaders.note_departure(s, unit, unit.location, cavalry_jump=False)  # AO-8.2.1
        origin = Term("box", "Europe") if unit.location == EUROPE else s.board.term(unit.location)
        name = unit_name(unit)
        movement.apply_sea_move(s, unit, to, invasion)
        s.marches_left -= 1
        s.marches_made += 1
        rule = "4.2.4" if invasion else ("AO-8.4" if unit.side is Side.CONFEDERATE else "4.2.3")
        if invasion:
            self.log("move", Msg("March {n} — Naval invasion: {unit} {origin} → {to} ({rule})", n=s.marches_made,
                                 unit=name, origin=origin, to=s.board.term(to), rule=rule))
        else:
            self.log("move", Msg("March {n} — Naval move: {unit} {origin} → {to} ({rule})", n=s.marches_made,
                                 unit=name, origin=origin, to=s.board.term(to), rule=rule))
        self._movement_or_end()

    # ------------------------------------------------------------------ one march
    def _legal_march(self) -> list[Action]:
        s = self.state
        actions: list[Action] = []
        profiles: dict[tuple, list] = {}
        for unit in s.units_in(s.march_origin, s.phasing):
            if unit.id in s.march_ordered or movement._ready(s, unit) is not None:
                continue
            key = (unit.type.code, unit.jumped)
            if key not in profiles:
                profiles[key] = movement.legal_paths(s, unit)
            actions.extend(Move(unit.id, path, lines) for path, lines in profiles[key])
            if movement.check_entrench(s, unit.id) is None:
                actions.append(Entrench(unit.id))
        if s.march_ordered:
            actions.append(EndMarch())
        return actions

    def _check_move(self, action: Move) -> IllegalActionError | None:
        return movement.check_move(self.state, action.unit, tuple(action.path), tuple(action.lines))

    def _do_move(self, action: Move) -> None:
        s = self.state
        unit = s.units[action.unit]
        s.moved_from[unit.id] = unit.location
        leaders.note_departure(s, unit, unit.location, cavalry_jump=movement.jump_rule(  # AO-8.2.1
            s, unit, tuple(action.path), tuple(action.lines)) == "4.2.1")
        movement.apply_move(s, unit, tuple(action.path))
        s.march_ordered.append(unit.id)
        route = Joined((s.board.term(b) for b in action.path), " → ")
        s.march_moves.append((unit.id, Msg("{route} ({kind})", route=route, kind=Term("unit", unit.type.name))))
        if unit.stopped:
            self.log("move", Msg("{unit}: {route} by {lines} and stops: enemy units are there (4.g)",
                                 unit=unit_name(unit), route=route, lines=lines_term(action.lines)))
        else:
            self.log("move", Msg("{unit}: {route} by {lines}", unit=unit_name(unit), route=route,
                                 lines=lines_term(action.lines)))
        self._march_or_end()

    def _check_entrench(self, action: Entrench) -> IllegalActionError | None:
        return movement.check_entrench(self.state, action.unit)

    def _do_entrench(self, action: Entrench) -> None:
        s = self.state
        unit = s.units[action.unit]
        done = movement.apply_entrench(s, unit)
        s.march_ordered.append(unit.id)
        box = s.board.term(unit.location)
        s.march_moves.append((unit.id, Msg("{kind} entrenching in {box}", kind=Term("unit", unit.type.name), box=box)))
        if done:
            self.log("entrench", Msg("{unit} entrenches in {box} (4.2.5)", unit=unit_name(unit), box=box))
        else:
            self.log("entrench", Msg("{unit} begins to entrench (a second march will finish) in {box} (4.2.5)",
                                     unit=unit_name(unit), box=box))
        self._march_or_end()

    def _march_or_end(self) -> None:
        if self._remember(self._legal_march()) == [EndMarch()]:
            self._end_march()

    def _check_end_march(self, action: EndMarch) -> IllegalActionError | None:
        if not self.state.march_ordered:
            return IllegalActionError("4.b", Msg("a march orders at least one unit"))
        return None

    def _do_end_march(self, action: EndMarch) -> None:
        self._end_march()

    def _end_march(self) -> None:
        s = self.state
        s.marches_left -= 1
        s.marches_made += 1
        summary = Joined((text for _, text in s.march_moves), "; ")
        self.log("march", Msg("March {n}: {summary}", n=s.marches_made, summary=summary))
        s.march_origin = None
        s.march_ordered = []
        s.march_moves = []
        s.step = "movement"
        self._movement_or_end()

    def _end_movement(self) -> None:
        s = self.state
        if self._reversions_end_game():
            return
        s.marches_left = 0
        s.march_origin = None
        self._remove_lone_leaders()
        advanced.prune_containment(s)
        battles = {box for box, units in s.by_box.items() if units and len({u.side for u in units}) == 2}
        if advanced.coastal_defence_value(s) > 0:
            battles.add(s.invasion_port)  # A-5 (a): even if no Confederate unit is there
        if "A-4" in s.options:
            if s.phasing is Side.UNION:  # A-4 (e): only Union units entering by land break a containment
                battles -= {b for b in s.contained if not any(
                    u.entered_from not in (None, movement.SEA) for u in s.units_in(b, Side.UNION))}
            else:
                s.containment_pending = sorted(b for b in battles if advanced.containable(s, b))
                if s.containment_pending:
                    s.battles = sorted(battles)
                    s.step = "containment"
                    return
        s.battles = sorted(battles)
        self._announce_battles()

    def _announce_battles(self) -> None:
        s = self.state
        if s.battles:
            names = Joined((s.board.term(b) for b in s.battles), ", ")
            self.log("combat", Msg("Battles this half-turn: {boxes} (5.a)", boxes=names))
        self._next_battle()
