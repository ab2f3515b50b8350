"""The Combat segment's steps (§5) up to the last shot of a firing moment: battle order, cavalry retreat,
firing moments, retreats, reinforcements, targets and shots. A part of ``Engine`` (see ``engine.py``); what
follows the shots (morale, rally, the result, routs, promotion) is in ``battle_end_steps.py``, the rules
themselves in ``combat.py``.
"""
from __future__ import annotations

from . import advanced, battle_moves, combat, leaders, movement
from .actions import (Action, CavalryRetreat, ChooseBattle, ChooseFirer, Evacuate, FireAuto, FireChosen,
                      LeaderPoint, LeaderReinforce, HoldGround, OpenFire, Reinforce, Retreat, Target, Volley)
from .combat import explain_terms_msg
from .errors import IllegalActionError
from .i18n import Joined, Msg, Msgc
from .sides import Side
from .state import Battle
from .units import coastal_type, unit_name


class CombatSteps:
    """Step handlers of the Combat segment, mixed into Engine (which provides state, log and the
    transitions to the other segments)."""

    # ================================================================== combat segment
    def _next_battle(self) -> None:
        s = self.state
        s.battle = None
        if self._reversions_end_game():  # 11.c after a 9.b reversion in the battle just ended
            return
        if s.breakout:  # A-4 (d): back to the Union Movement segment
            s.breakout = False
            s.battles = []
            s.step = "movement"
            self._movement_or_end()
            return
        if not s.battles:
            self._end_combat()
        elif len(s.battles) == 1:
            self._start_battle(s.battles[0])
        else:
            s.step = "choose_battle"

    def _legal_choose_battle(self) -> list[Action]:
        return [ChooseBattle(b) for b in self.state.battles]

    def _check_choose_battle(self, action: ChooseBattle) -> IllegalActionError | None:
        if action.box not in self.state.battles:
            return IllegalActionError("5.a", Msg("there is no battle to fight at {box}",
                                                  box=self.state.board.term(action.box)))
        return None

    def _do_choose_battle(self, action: ChooseBattle) -> None:
        self._start_battle(action.box)

    def _start_battle(self, box: str, contained: bool = False) -> None:
        s = self.state
        s.battles.remove(box)
        contained = contained or ("A-4" in s.options and box in s.contained)
        s.contained.discard(box)
        battle = Battle(box=box, attacker=s.phasing, defender=s.phasing.enemy, contained_attack=contained)
        s.battle = battle
        coastal_value = advanced.coastal_defence_value(s, box)
        if coastal_value:
            defence = s.new_unit(Side.CONFEDERATE, coastal_type(coastal_value), box)
            defence.entrenched = True  # A-5 (b): always entrenched
            battle.coastal = defence.id
            self.log("battle", Msg("The Union invasion of {box} meets a coastal defence of value {value} (A-5)",
                                   box=s.board.term(box), value=coastal_value))
        for side in Side:
            units = combat.battle_units(s, battle, side)
            battle.participants[side] = {u.id for u in units}
            battle.reinforce_origins[side] = set()
            for u in units:
                u.fought = True
        attackers = combat.battle_units(s, battle, battle.attacker)
        battle.entry_boxes = frozenset(u.entered_from for u in attackers if u.entered_from)
        battle.invasion = any(u.entered_from == movement.SEA and u.crossing for u in attackers)
        self.log("battle", Msg("Battle at {box}: {attackers} attack {defenders}", box=s.board.term(box),
                               attackers=self._forces(battle, battle.attacker),
                               defenders=self._forces(battle, battle.defender)))
        if battle_moves.cavalry_retreat_possible(s, battle):
            s.step = "cavalry_retreat"
        else:
            self._begin_moment(battle.defender)

    def _forces(self, battle: Battle, side: Side) -> Msg:
        units = combat.battle_units(self.state, battle, side)
        return Msgc("forces", "{side} {units}", side=side, units=Joined([unit_name(u) for u in units]))

    def _withdraw(self, side: Side, to: str) -> None:
        """Move all of ``side``'s battle units to ``to``; they count as retreated this turn (5.2.4 a)."""
        s = self.state
        for leader in leaders.leaders_in(s, s.battle.box, side):
            leader.location = to  # AO-8.2.2: with a retreating army it retreats
        for unit in combat.battle_units(s, s.battle, side) + combat.routed_units(s, s.battle, side):
            if unit.is_coastal:
                continue  # A-5 (b): it cannot retreat; it ends with the battle
            s.place(unit, to)
            unit.retreated = True

    def _legal_cavalry_retreat(self) -> list[Action]:
        s = self.state
        return [CavalryRetreat(b) for b in battle_moves.cavalry_retreat_boxes(s, s.battle)] + [HoldGround()]

    def _check_cavalry_retreat(self, action: CavalryRetreat) -> IllegalActionError | None:
        s = self.state
        return battle_moves.retreat_barrier(s, s.battle, s.battle.defender, action.to)

    def _do_cavalry_retreat(self, action: CavalryRetreat) -> None:
        """5.2.6. Decided for A-5 by 0.5 (a coastal defence is not a unit), as for 9.b: the cavalry
        may withdraw although a coastal defence defends the port with it; the defence cannot
        retreat (A-5 b), and the invaders then meet it alone, as in a port without Confederate units
        (A-5 a): the battle goes on from round 1 between them. The cavalry took no part in it."""
        s = self.state
        battle = s.battle
        withdrawn = {u.id for u in combat.battle_units(s, battle, battle.defender) if not u.is_coastal}
        self._withdraw(battle.defender, action.to)
        if battle.coastal is not None and s.units[battle.coastal].location == battle.box:
            battle.participants[battle.defender] -= withdrawn
            self.log("retreat", Msg("{side} cavalry withdraws to {to} before the battle (5.2.6); the coastal defence "
                                    "cannot retreat and fights on alone (A-5)", side=battle.defender,
                                    to=s.board.term(action.to)))
            self._begin_moment(battle.defender)
            return
        self.log("retreat", Msg("{side} cavalry withdraws to {to} before the battle: no winner (5.2.6)",
                                side=battle.defender, to=s.board.term(action.to)))
        self._finish_battle(None)


    def _do_hold_ground(self, action: HoldGround) -> None:
        self._begin_moment(self.state.battle.defender)

    # ------------------------------------------------------------------ firing moments
    def _begin_moment(self, side: Side) -> None:
        s = self.state
        battle = s.battle
        battle.firing = side
        battle.used_origins = set()
        battle.reinforced_now = False
        battle.targets = []
        battle.shot_index = 0
        battle.firers = None
        battle.leader_points = []
        day = advanced.battle_day(battle.round)
        if "A-7" in s.options and battle.day < day:
            battle.day = day  # A-7 (b): each side rolls its command at the day's start
            battle.command_pending = [battle.defender, battle.attacker]
            s.step = "command_roll"
            return
        if battle.round >= 2 and len(self._legal_battle_options()) > 1:
            s.step = "battle_options"
        else:
            self._begin_targets()

    def _command_rolled(self, natural: int) -> None:
        s = self.state
        battle = s.battle
        side = battle.command_pending.pop(0)
        command, how = advanced.day_command(s, battle, side, natural)
        battle.command[side] = command
        self.log("command", Msg("Day {day} at {box}: {side} command roll {natural}: {how} = {command} (A-7)",
                                day=battle.day, box=s.board.term(battle.box), side=side, natural=natural,
                                how=how, command=command))
        if not battle.command_pending:
            self._begin_moment(battle.firing)

    def _legal_battle_options(self) -> list[Action]:
        s = self.state
        battle = s.battle
        actions: list[Action] = []
        if not battle.reinforced_now:
            actions.extend(Retreat(b) for b in battle_moves.retreat_boxes(s, battle, battle.firing))
            if "O-3.1" in s.options and battle_moves.evacuation_barrier(s, battle) is None:
                actions.append(Evacuate())
        actions.extend(Reinforce(u.id) for u in battle_moves.reinforcements(s, battle))
        actions.extend(LeaderReinforce(l.name) for l in sorted(s.leaders.values(), key=lambda l: l.name)
                       if self._check_leader_reinforce(LeaderReinforce(l.name)) is None)
        actions.append(OpenFire())
        return actions

    def _check_leader_reinforce(self, action: LeaderReinforce) -> IllegalActionError | None:
        """AO-8.2.1: a leader of the firing side joins from an adjacent box (round 2 on; not across
        the Potomac for Confederates); he uses no reinforcement quota."""
        s = self.state
        battle = s.battle
        leader = s.leaders.get(action.leader)
        if "AO-8.2" not in s.options or leader is None or leader.side is not battle.firing or not leader.on_map:
            return IllegalActionError("AO-8.2.1", Msg("{leader} is not a leader of the firing side on the map",
                                                   leader=repr(action.leader)))
        if battle.round < 2:
            return IllegalActionError("5.2.4", Msg("reinforcements arrive from round 2 on"))
        if leader.location == battle.box or not s.board.are_adjacent(leader.location, battle.box):
            return IllegalActionError("AO-8.2.1", Msg("{leader} is not in a box adjacent to the battle", leader=leader.title))
        if leader.side is Side.CONFEDERATE and s.board.is_potomac(leader.location, battle.box):
            return IllegalActionError("4.2.6", Msg("Confederate leaders may never cross the Potomac"))
        return None

    def _do_leader_reinforce(self, action: LeaderReinforce) -> None:
        s = self.state
        battle = s.battle
        leader = s.leaders[action.leader]
        origin = leader.location
        leader.location = battle.box
        battle.reinforced_now = True  # 5.b: a retreat comes before reinforcing, by a unit or a leader alone
        self.log("reinforce", Msg("{leader} joins the battle from {origin} (AO-8.2.1)", leader=leader.title,
                                     origin=s.board.term(origin)))
        if "A-7" in s.options and battle.firing in battle.command:  # effects from arrival
            battle.command[battle.firing] = min(advanced.COMMAND_CAP, battle.command[battle.firing] + leader.value)
        if self._legal_battle_options() == [OpenFire()]:
            self._begin_targets()

    def _legal_rout_retreat(self) -> list[Action]:
        return [Retreat(b) for b in self._rout_boxes()]

    def _check_retreat(self, action: Retreat) -> IllegalActionError | None:
        s = self.state
        if s.step == "rout_retreat":
            if action.to not in self._rout_boxes():
                return IllegalActionError("AO-8.12", Msg("the routed units may not retreat to {to}",
                                                      to=s.board.term(action.to)))
            return None
        if s.battle.reinforced_now:
            return IllegalActionError("5.2.5", Msg("a retreat comes before reinforcing, not after"))
        return battle_moves.check_retreat(s, s.battle, s.battle.firing, action.to)

    def _do_retreat(self, action: Retreat) -> None:
        s = self.state
        if s.step == "rout_retreat":
            return self._rout_retreat(action.to)
        battle = s.battle
        side = battle.firing
        self._withdraw(side, action.to)
        self.log("retreat", Msg("{side} retreats from {box} to {to} and loses the battle (5.2.5)", side=side,
                                box=s.board.term(battle.box), to=s.board.term(action.to)))
        self._finish_battle(side.enemy)

    def _check_evacuate(self, action: Evacuate) -> IllegalActionError | None:
        s = self.state
        return battle_moves.evacuation_barrier(s, s.battle)

    def _do_evacuate(self, action: Evacuate) -> None:
        s = self.state
        battle = s.battle
        self._withdraw(Side.UNION, "washington")
        self.log("retreat", Msg("The Union evacuates {box} by sea to Washington and loses the battle (O-3.1)",
                                box=s.board.term(battle.box)))
        self._finish_battle(Side.CONFEDERATE)

    def _check_reinforce(self, action: Reinforce) -> IllegalActionError | None:
        s = self.state
        return battle_moves.reinforcement_barrier(s, s.battle, action.unit)

    def _do_reinforce(self, action: Reinforce) -> None:
        s = self.state
        battle = s.battle
        unit = s.units[action.unit]
        origin = unit.location
        name = unit_name(unit)
        s.place(unit, battle.box)
        unit.fought = True
        battle.participants[unit.side].add(unit.id)
        battle.reinforced.add(unit.id)
        battle.reinforce_origins[unit.side].add(origin)
        battle.used_origins.add(origin)
        battle.reinforced_now = True
        self.log("reinforce", Msg("{unit} reinforces from {origin} (5.2.4)", unit=name, origin=s.board.term(origin)))
        if self._legal_battle_options() == [OpenFire()]:
            self._begin_targets()


    def _do_open_fire(self, action: OpenFire) -> None:
        self._begin_targets()

    def _begin_targets(self) -> None:
        s = self.state
        battle = s.battle
        if "A-7" in s.options and len(combat.battle_units(s, battle, battle.firing)) > battle.command[battle.firing]:
            battle.firers = []  # A-7 (c): at most `command` units of the side's choice fire
            s.step = "firers"
            return
        self._declare_targets()

    def _legal_firers(self) -> list[Action]:
        s = self.state
        battle = s.battle
        actions: list[Action] = [ChooseFirer(u.id) for u in combat.battle_units(s, battle, battle.firing)
                                 if u.id not in battle.firers]
        if battle.firers:
            actions.append(FireChosen())
        return actions

    def _check_choose_firer(self, action: ChooseFirer) -> IllegalActionError | None:
        s = self.state
        battle = s.battle
        if action.unit not in {u.id for u in combat.battle_units(s, battle, battle.firing)}:
            return IllegalActionError("A-7", Msg("{unit} is not a unit of the firing side in this battle", unit=action.unit))
        if action.unit in battle.firers:
            return IllegalActionError("A-7", Msg("{unit} is already chosen to fire", unit=action.unit))
        return None

    def _do_choose_firer(self, action: ChooseFirer) -> None:
        s = self.state
        battle = s.battle
        battle.firers.append(action.unit)
        if len(battle.firers) >= battle.command[battle.firing]:
            self._declare_targets()

    def _check_fire_chosen(self, action: FireChosen) -> IllegalActionError | None:
        if not self.state.battle.firers:
            return IllegalActionError("A-7", Msg("choose at least one unit to fire"))
        return None

    def _do_fire_chosen(self, action: FireChosen) -> None:
        self._declare_targets()

    def _declare_targets(self) -> None:
        s = self.state
        battle = s.battle
        s.step = "targets"
        if battle.firers is not None:
            names = Joined([unit_name(s.units[u]) for u in battle.firers])
            self.log("command", Msg("{side} command {command}: {units} fire (A-7)", side=battle.firing,
                                    command=battle.command[battle.firing], units=names))
        if len(combat.battle_units(s, battle, battle.firing.enemy)) == 1:
            battle.targets.extend(combat.auto_targets(s, battle))  # one enemy: nothing to choose
            self._begin_shots()

    def _legal_targets(self) -> list[Action]:
        s = self.state
        battle = s.battle
        shooter = combat.next_shooter(s, battle)
        if shooter is None:
            return []
        actions: list[Action] = [Target(shooter.id, t.id) for t in combat.battle_units(s, battle, battle.firing.enemy)
                                 if combat.check_target(s, battle, shooter.id, t.id) is None]
        actions.append(FireAuto())
        return actions

    def _check_target(self, action: Target) -> IllegalActionError | None:
        s = self.state
        return combat.check_target(s, s.battle, action.shooter, action.target)

    def _do_target(self, action: Target) -> None:
        s = self.state
        s.battle.targets.append((action.shooter, action.target))
        if combat.next_shooter(s, s.battle) is None:
            self._begin_shots()


    def _do_fire_auto(self, action: FireAuto) -> None:
        s = self.state
        s.battle.targets.extend(combat.auto_targets(s, s.battle))
        self._begin_shots()

    def _check_volley(self, action: Volley) -> IllegalActionError | None:
        s = self.state
        return combat.check_volley(s, s.battle, tuple(tuple(t) for t in action.targets))

    def _do_volley(self, action: Volley) -> None:
        s = self.state
        s.battle.targets.extend(tuple(t) for t in action.targets)
        self._begin_shots()

    def _begin_shots(self) -> None:
        s = self.state
        battle = s.battle
        if "AO-8.2" in s.options and battle.targets and self._legal_leader_points():
            s.step = "leader_points"  # AO-8.2.2: points announced with the targets
            return
        self._open_fire_now()

    def _legal_leader_points(self) -> list[Action]:
        s = self.state
        battle = s.battle
        firing = sorted({u for u, _ in battle.targets})
        return [LeaderPoint(l.name, uid) for l in leaders.battle_leaders(s, battle, battle.firing)
                if leaders.points_left(s, battle, l) > 0 for uid in firing]

    def _check_leader_point(self, action: LeaderPoint) -> IllegalActionError | None:
        s = self.state
        return leaders.check_point(s, s.battle, action.leader, action.unit)

    def _do_leader_point(self, action: LeaderPoint) -> None:
        s = self.state
        s.battle.leader_points.append((action.leader, action.unit))
        if not self._legal_leader_points():
            given = Joined([Msg("{leader} +1 to {unit}", leader=s.leaders[n].title, unit=u)
                            for n, u in s.battle.leader_points])
            self.log("leader", Msg("Leader points: {given} (AO-8.2.2)", given=given))
            self._open_fire_now()

    def _open_fire_now(self) -> None:
        s = self.state
        battle = s.battle
        declared = Joined([Msg("{shooter} → {target}", shooter=unit_name(s.units[a]), target=unit_name(s.units[b]))
                           for a, b in battle.targets], "; ")
        self.log("fire", Msg("Round {round}, {side} fire: {targets} (5.1.a)", round=battle.round,
                             side=battle.firing, targets=declared))
        battle.shot_index = 0
        self._next_shot()

    def _next_shot(self) -> None:
        s = self.state
        battle = s.battle
        while battle.shot_index < len(battle.targets):
            shooter_id, target_id = battle.targets[battle.shot_index]
            target = s.units[target_id]
            if target.location != battle.box:
                self.log("shot", Msg("{shooter}'s shot is lost: its target is already eliminated (5.1.b)",
                                     shooter=unit_name(s.units[shooter_id])))
                battle.shot_index += 1
                continue
            value = combat.effective_value(s, battle, s.units[shooter_id], target)
            if combat.hit_roll_needed(s, value):
                s.step = "shot"
                return
            self._shot_result(shooter_id, target_id, value, None)
        self._end_moment()

    def _resolve_shot(self, natural: int) -> None:
        s = self.state
        battle = s.battle
        shooter_id, target_id = battle.targets[battle.shot_index]
        value = combat.effective_value(s, battle, s.units[shooter_id], s.units[target_id])
        self._shot_result(shooter_id, target_id, value, natural)
        self._next_shot()

    def _shot_result(self, shooter_id: str, target_id: str, value: int, natural: int | None) -> None:
        s = self.state
        battle = s.battle
        shooter, target = s.units[shooter_id], s.units[target_id]
        battle.shot_index += 1
        label = unit_name(target)
        why = explain_terms_msg(combat.shot_terms(s, battle, shooter, target))
        if natural is None:
            hit = value > 0
            roll_text = Msg("cannot miss") if hit else Msg("cannot hit (5.2.a)")
        elif natural == 6 and value >= 6 and "H-2" in s.options:
            hit = combat.is_hit(s, value, natural)
            roll_text = Msg("needs {value} or less, rolls {natural} — a 6 always misses (H-2)", value=value,
                            natural=natural)
        else:
            hit = combat.is_hit(s, value, natural)
            roll_text = Msg("needs {value} or less, rolls {natural}", value=value, natural=natural)
        if hit:
            eliminated = combat.damage(s, target)
            if not eliminated and "AO-8.1" in s.options and not target.is_coastal:
                battle.flipped.append(target.id)  # AO-8.1: tests its morale after this moment
            result = (Msg("hit: {target} eliminated (5.d)", target=label) if eliminated
                      else Msg("hit: {target} reduced (5.1.c)", target=label))
        else:
            result = Msg("miss")
        self.log("shot", Msg("{shooter} at {target}: {roll} — {result}. {value} = {why}", shooter=unit_name(shooter),
                             target=label, roll=roll_text, result=result, value=value, why=why))
