"""The sequence of play (§3): decisions, automatic steps and transitions over a State.

Each decision ("step") has three handlers: ``legal`` lists its actions, ``check`` explains a refusal
by rule, ``do`` applies an accepted action. Steps with nothing to decide are passed automatically.
The rule details live in the section modules (movement, combat, promotion, recruitment, control,
victory); this module only orders them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import combat, movement, promotion, recruitment
from .actions import (Action, BeginMarch, CavalryRetreat, ChooseBattle, EndMarch, EndMovement, EndRecruitment,
                      Entrench, Evacuate, FireAuto, HoldGround, Invade, Move, NavalMove, NoPromotion, OpenFire, Promote,
                      Recruit, Reinforce, Retreat, Roll, Target, Volley)
from .calendar import Turn
from .control import update_control
from .errors import IllegalActionError
from .scenario import Scenario
from .sides import CHANCE, Side
from .state import Battle, Outcome, State
from .victory import check_end_of_turn, check_update, scenario_score

SEGMENT_OF_STEP = {
    "march_roll": "movement", "movement": "movement", "march": "movement",
    "choose_battle": "combat", "cavalry_retreat": "combat", "battle_options": "combat", "targets": "combat",
    "shot": "combat", "battle_promotion": "combat",
    "training_roll": "promotion", "promotion": "promotion", "recruit_roll": "recruitment", "recruitment": "recruitment",
    "over": "over",
}
CHANCE_STEPS = ("march_roll", "shot", "training_roll", "recruit_roll")


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the game log."""

    turn: int
    side: Side
    kind: str
    text: str

    def __str__(self) -> str:
        return self.text


class Engine:
    """Applies actions to a State in the order of 3.b. Validation is ``check``; ``do`` trusts it."""

    def __init__(self, state: State, scenario: Scenario, on_half_turn: Callable[[], None] | None = None,
                 play_on: bool = False) -> None:
        self.state = state
        self.scenario = scenario
        self.play_on = play_on
        self.events: list[Event] = []
        self.on_half_turn = on_half_turn or (lambda: None)
        self._cache: tuple[str, list[Action]] | None = None  # legal actions of the current step

    def invalidate(self) -> None:
        self._cache = None

    # ================================================================== queries
    @property
    def step(self) -> str:
        return self.state.step

    def current_player(self) -> Side | str | None:
        s = self.state
        if s.step == "over":
            return None
        if s.step in CHANCE_STEPS:
            return CHANCE
        if s.step == "cavalry_retreat":
            return s.battle.defender
        if s.step in ("battle_options", "targets"):
            return s.battle.firing
        if s.step == "battle_promotion":
            return s.battle.winner
        return s.phasing

    def roll_purpose(self) -> str | None:
        """What the pending die is for (shown when dice are typed in)."""
        s = self.state
        if s.step == "march_roll":
            return f"{s.phasing.adjective} march roll (4.a)"
        if s.step == "recruit_roll":
            return f"{s.phasing.adjective} recruitment roll (7.a)"
        if s.step == "training_roll":
            return (f"Confederate replacement training roll, minus {s.veteran_losses} for veteran/crack "
                    f"infantry lost this turn: 1 or less gives two promotions (O-4.3)")
        if s.step == "shot":
            shooter, target = s.battle.targets[s.battle.shot_index]
            value = combat.effective_value(s, s.battle, s.units[shooter], s.units[target])
            return f"shot of {s.units[shooter].label} at {s.units[target].label}: hits on {value} or less (5.1.b)"
        return None

    def log(self, kind: str, text: str) -> None:
        self.events.append(Event(self.state.turn, self.state.phasing, kind, text))

    def flush_reversions(self) -> None:
        for box, side in self.state.reverted:
            owner = self.state.control[box]
            self.log("control", f"{self.state.board.name(box)} reverts to "
                                f"{owner.adjective if owner else 'neutral'} control: the last "
                                f"{side.adjective} unit left a cavalry-held box (9.b)")
        self.state.reverted.clear()

    # ================================================================== dispatch
    def legal(self) -> list[Action]:
        step = self.state.step
        if self._cache is not None and self._cache[0] == step:
            return self._cache[1]
        handler = getattr(self, f"_legal_{step}", None)
        return handler() if handler else []

    def legal_uncached(self) -> list[Action]:
        handler = getattr(self, f"_legal_{self.state.step}", None)
        return handler() if handler else []

    def _remember(self, actions: list[Action]) -> list[Action]:
        """Keep the legal actions computed at the end of a transition (the state is final then)."""
        self._cache = (self.state.step, actions)
        return actions

    def check(self, action: Action) -> IllegalActionError | None:
        s = self.state
        if s.step == "over":
            return IllegalActionError("10", "the game is over", action)
        accepted = self.ACCEPTS.get(s.step, ())
        if not isinstance(action, accepted):
            kinds = ", ".join(sorted(cls.kind for cls in accepted))
            return IllegalActionError("3.a", f"now the decision is {s.step.replace('_', ' ')} "
                                             f"(accepted: {kinds})", action)
        error = getattr(self, f"_check_{action.kind}")(action)
        if error is not None and error.action is None:
            error = IllegalActionError(error.rule, error.reason, action)
        return error

    def do(self, action: Action) -> None:
        self._cache = None
        getattr(self, f"_do_{action.kind}")(action)
        self.flush_reversions()

    # ================================================================== game start and turns
    def start(self) -> None:
        self.state.turn = self.scenario.start_turn
        self.log("turn", f"{self.scenario.title}: the game begins")
        self._start_turn()

    def _start_turn(self) -> None:
        s = self.state
        for unit in s.units.values():
            unit.retreated = unit.fought = False
        s.veteran_losses = 0
        self.log("turn", f"— {Turn.of(s.turn)} —")
        drafted = recruitment.draft(s)
        if drafted:
            rule = "O-4.4" if drafted != recruitment.DRAFT_SIZE else "8"
            self.log("draft", f"Draft: {drafted} militia infantry join the Union pool ({rule})")
        s.phasing = Side.UNION
        self._start_half()

    def _start_half(self) -> None:
        s = self.state
        for unit in s.units.values():
            unit.marches = 0
            unit.stopped = unit.jumped = unit.naval = unit.crossing = False
            unit.entered_from = None
            unit.entrench_progress = 0
            unit.start_box = unit.location if unit.on_map else None
        s.marches_made = 0
        s.march_origin = None
        s.invasion_port = None
        s.march_roll = None
        self.on_half_turn()
        if s.turn == self.scenario.start_turn:
            s.marches_left = self.scenario.first_turn_marches
            rule = "4.1" if self.scenario.start_turn == 1 else "S-0"
            self.log("marches", f"{s.phasing.adjective} half-turn: {s.marches_left} march(es) "
                                f"without a roll on the first turn ({rule})")
            s.step = "movement"
            self._movement_or_end()
        else:
            s.step = "march_roll"

    # ================================================================== chance
    def _check_roll(self, action: Roll) -> IllegalActionError | None:
        if not isinstance(action.value, int) or not 1 <= action.value <= 6:
            return IllegalActionError("0.3", f"a die shows 1 to 6, not {action.value!r}")
        return None

    def _legal_march_roll(self) -> list[Action]:
        return [Roll(v) for v in range(1, 7)]

    _legal_shot = _legal_recruit_roll = _legal_training_roll = _legal_march_roll

    def _do_roll(self, action: Roll) -> None:
        s = self.state
        if s.step == "march_roll":
            s.march_roll = action.value
            s.marches_left = movement.march_allowance(action.value)
            extra = "; a natural 6 allows a naval invasion (4.2.4)" if (
                action.value == 6 and s.phasing is Side.UNION) else ""
            self.log("roll", f"{s.phasing.adjective} march roll {action.value}: {s.marches_left} marches (4.a){extra}")
            s.step = "movement"
            self._movement_or_end()
        elif s.step == "shot":
            self._resolve_shot(action.value)
        elif s.step == "training_roll":
            modified = action.value - s.veteran_losses
            s.promotions_left = 2 if modified <= 1 else 1
            self.log("roll", f"Confederate replacement training roll {action.value} − {s.veteran_losses} = "
                             f"{modified}: {s.promotions_left} promotion(s) this segment (O-4.3)")
            s.step = "promotion"
        elif s.step == "recruit_roll":
            s.recruit_limit = recruitment.recruit_limit(s, s.phasing, action.value)
            self.log("roll", f"{s.phasing.adjective} recruitment roll {action.value}: up to "
                             f"{s.recruit_limit} recruits (7.a)")
            s.step = "recruitment"
            self._recruitment_or_end()

    # ================================================================== movement segment
    def _legal_movement(self) -> list[Action]:
        s = self.state
        actions: list[Action] = [BeginMarch(box) for box in movement.march_origins(s)]
        for kind, unit, port in movement.legal_sea_moves(s):
            actions.append(NavalMove(unit.id, port) if kind == "naval" else Invade(unit.id, port))
        actions.append(EndMovement())
        return actions

    def _movement_or_end(self) -> None:
        s = self.state
        if s.marches_left <= 0 or len(self._remember(self._legal_movement())) == 1:
            self._end_movement()

    def _check_begin_march(self, action: BeginMarch) -> IllegalActionError | None:
        s = self.state
        if action.origin not in s.board:
            return IllegalActionError("4.b", f"there is no box {action.origin!r}")
        if not s.has_units(action.origin, s.phasing):
            return IllegalActionError("4.b", f"no {s.phasing.adjective} units are in {s.board.name(action.origin)}")
        if action.origin not in movement.march_origins(s):
            return IllegalActionError("4.f", f"no unit in {s.board.name(action.origin)} can take part in a march now")
        return None

    def _do_begin_march(self, action: BeginMarch) -> None:
        s = self.state
        s.march_origin = action.origin
        s.march_ordered = []
        s.march_moves = []
        s.step = "march"

    def _check_end_movement(self, action: EndMovement) -> None:
        return None

    def _do_end_movement(self, action: EndMovement) -> None:
        if self.state.marches_left:
            self.log("marches", f"{self.state.marches_left} unused march(es) lapse (4.a)")
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
        origin = s.board.name(unit.location)
        movement.apply_sea_move(s, unit, to, invasion)
        s.marches_left -= 1
        s.marches_made += 1
        what = "Naval invasion" if invasion else "Naval move"
        rule = "4.2.4" if invasion else "4.2.3"
        self.log("move", f"March {s.marches_made} — {what}: {unit.label} {origin} → {s.board.name(to)} ({rule})")
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
        movement.apply_move(s, unit, tuple(action.path))
        s.march_ordered.append(unit.id)
        route = " → ".join(s.board.name(b) for b in action.path)
        s.march_moves.append((unit.id, f"{route} ({unit.type.name})"))
        note = " and stops: enemy units are there (4.g)" if unit.stopped else ""
        self.log("move", f"{unit.label}: {route} by {'/'.join(sorted(set(action.lines)))}{note}")
        self._march_or_end()

    def _check_entrench(self, action: Entrench) -> IllegalActionError | None:
        return movement.check_entrench(self.state, action.unit)

    def _do_entrench(self, action: Entrench) -> None:
        s = self.state
        unit = s.units[action.unit]
        done = movement.apply_entrench(s, unit)
        s.march_ordered.append(unit.id)
        s.march_moves.append((unit.id, f"{unit.type.name} entrenching in {s.board.name(unit.location)}"))
        self.log("entrench", f"{unit.label} {'entrenches' if done else 'begins to entrench (a second march will finish)'}"
                             f" in {s.board.name(unit.location)} (4.2.5)")
        self._march_or_end()

    def _march_or_end(self) -> None:
        if self._remember(self._legal_march()) == [EndMarch()]:
            self._end_march()

    def _check_end_march(self, action: EndMarch) -> IllegalActionError | None:
        if not self.state.march_ordered:
            return IllegalActionError("4.b", "a march orders at least one unit")
        return None

    def _do_end_march(self, action: EndMarch) -> None:
        self._end_march()

    def _end_march(self) -> None:
        s = self.state
        s.marches_left -= 1
        s.marches_made += 1
        summary = "; ".join(text for _, text in s.march_moves)
        self.log("march", f"March {s.marches_made}: {summary}")
        s.march_origin = None
        s.march_ordered = []
        s.march_moves = []
        s.step = "movement"
        self._movement_or_end()

    def _end_movement(self) -> None:
        s = self.state
        s.marches_left = 0
        s.march_origin = None
        s.battles = sorted(box for box, units in s.by_box.items()
                           if units and len({u.side for u in units}) == 2)
        if s.battles:
            names = ", ".join(s.board.name(b) for b in s.battles)
            self.log("combat", f"Battles this half-turn: {names} (5.a)")
        self._next_battle()

    # ================================================================== combat segment
    def _next_battle(self) -> None:
        s = self.state
        s.battle = None
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
            return IllegalActionError("5.a", f"there is no battle to fight at {self.state.board.name(action.box)}")
        return None

    def _do_choose_battle(self, action: ChooseBattle) -> None:
        self._start_battle(action.box)

    def _start_battle(self, box: str) -> None:
        s = self.state
        s.battles.remove(box)
        battle = Battle(box=box, attacker=s.phasing, defender=s.phasing.enemy)
        s.battle = battle
        for side in Side:
            units = combat.battle_units(s, battle, side)
            battle.participants[side] = {u.id for u in units}
            battle.reinforce_origins[side] = set()
            for u in units:
                u.fought = True
        attackers = combat.battle_units(s, battle, battle.attacker)
        battle.entry_boxes = frozenset(u.entered_from for u in attackers if u.entered_from)
        battle.invasion = any(u.entered_from == movement.SEA and u.crossing for u in attackers)
        self.log("battle", f"Battle at {s.board.name(box)}: {self._forces(battle, battle.attacker)} attack "
                           f"{self._forces(battle, battle.defender)}")
        if combat.cavalry_retreat_possible(s, battle):
            s.step = "cavalry_retreat"
        else:
            self._begin_moment(battle.defender)

    def _forces(self, battle: Battle, side: Side) -> str:
        units = combat.battle_units(self.state, battle, side)
        return f"{side.adjective} " + ", ".join(u.label for u in units)

    def _legal_cavalry_retreat(self) -> list[Action]:
        s = self.state
        return [CavalryRetreat(b) for b in combat.cavalry_retreat_boxes(s, s.battle)] + [HoldGround()]

    def _check_cavalry_retreat(self, action: CavalryRetreat) -> IllegalActionError | None:
        s = self.state
        return combat.retreat_barrier(s, s.battle, s.battle.defender, action.to)

    def _do_cavalry_retreat(self, action: CavalryRetreat) -> None:
        s = self.state
        battle = s.battle
        for unit in combat.battle_units(s, battle, battle.defender):
            s.place(unit, action.to)
            unit.retreated = True
        self.log("retreat", f"{battle.defender.adjective} cavalry withdraws to {s.board.name(action.to)} before "
                            f"the battle: no winner (5.2.6)")
        self._finish_battle(None)

    def _check_hold_ground(self, action: HoldGround) -> None:
        return None

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
        if battle.round >= 2 and len(self._legal_battle_options()) > 1:
            s.step = "battle_options"
        else:
            self._begin_targets()

    def _legal_battle_options(self) -> list[Action]:
        s = self.state
        battle = s.battle
        actions: list[Action] = []
        if not battle.reinforced_now:
            actions.extend(Retreat(b) for b in combat.retreat_boxes(s, battle, battle.firing))
            if "O-3.1" in s.options and combat.evacuation_barrier(s, battle) is None:
                actions.append(Evacuate())
        actions.extend(Reinforce(u.id) for u in combat.reinforcements(s, battle))
        actions.append(OpenFire())
        return actions

    def _check_retreat(self, action: Retreat) -> IllegalActionError | None:
        s = self.state
        if s.battle.reinforced_now:
            return IllegalActionError("5.2.5", "a retreat comes before reinforcing, not after")
        return combat.check_retreat(s, s.battle, s.battle.firing, action.to)

    def _do_retreat(self, action: Retreat) -> None:
        s = self.state
        battle = s.battle
        side = battle.firing
        for unit in combat.battle_units(s, battle, side):
            s.place(unit, action.to)
            unit.retreated = True
        self.log("retreat", f"{side.adjective} retreats from {s.board.name(battle.box)} to "
                            f"{s.board.name(action.to)} and loses the battle (5.2.5)")
        self._finish_battle(side.enemy)

    def _check_evacuate(self, action: Evacuate) -> IllegalActionError | None:
        s = self.state
        return combat.evacuation_barrier(s, s.battle)

    def _do_evacuate(self, action: Evacuate) -> None:
        s = self.state
        battle = s.battle
        for unit in combat.battle_units(s, battle, Side.UNION):
            s.place(unit, "washington")
            unit.retreated = True
        self.log("retreat", f"The Union evacuates {s.board.name(battle.box)} by sea to Washington and loses "
                            f"the battle (O-3.1)")
        self._finish_battle(Side.CONFEDERATE)

    def _check_reinforce(self, action: Reinforce) -> IllegalActionError | None:
        s = self.state
        return combat.reinforcement_barrier(s, s.battle, action.unit)

    def _do_reinforce(self, action: Reinforce) -> None:
        s = self.state
        battle = s.battle
        unit = s.units[action.unit]
        origin = unit.location
        s.place(unit, battle.box)
        unit.fought = True
        battle.participants[unit.side].add(unit.id)
        battle.reinforced.add(unit.id)
        battle.reinforce_origins[unit.side].add(origin)
        battle.used_origins.add(origin)
        battle.reinforced_now = True
        self.log("reinforce", f"{unit.label} reinforces from {s.board.name(origin)} (5.2.4)")
        if self._legal_battle_options() == [OpenFire()]:
            self._begin_targets()

    def _check_open_fire(self, action: OpenFire) -> None:
        return None

    def _do_open_fire(self, action: OpenFire) -> None:
        self._begin_targets()

    def _begin_targets(self) -> None:
        s = self.state
        battle = s.battle
        s.step = "targets"
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

    def _check_fire_auto(self, action: FireAuto) -> None:
        return None

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
        declared = "; ".join(f"{s.units[a].label} → {s.units[b].label}" for a, b in battle.targets)
        self.log("fire", f"Round {battle.round}, {battle.firing.adjective} fire: {declared} (5.1.a)")
        battle.shot_index = 0
        self._next_shot()

    def _next_shot(self) -> None:
        s = self.state
        battle = s.battle
        while battle.shot_index < len(battle.targets):
            shooter_id, target_id = battle.targets[battle.shot_index]
            target = s.units[target_id]
            if target.location != battle.box:
                self.log("shot", f"{s.units[shooter_id].label}'s shot is lost: its target is already "
                                 f"eliminated (5.1.b)")
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
        label = target.label
        if natural is None:
            hit = value > 0
            roll_text = "cannot miss" if hit else "cannot hit (5.2.a)"
        else:
            hit = combat.is_hit(s, value, natural)
            roll_text = f"needs {value} or less, rolls {natural}" + (
                " — a 6 always misses (H-2)" if natural == 6 and value >= 6 and "H-2" in s.options else "")
        if hit:
            eliminated = combat.damage(s, target)
            result = f"hit: {label} {'eliminated (5.d)' if eliminated else 'reduced (5.1.c)'}"
        else:
            result = "miss"
        self.log("shot", f"{shooter.label} at {label}: {roll_text} — {result}")

    def _end_moment(self) -> None:
        s = self.state
        battle = s.battle
        firing = battle.firing
        if not combat.battle_units(s, battle, firing.enemy):
            self._finish_battle(firing)
        elif firing is battle.defender:
            self._begin_moment(battle.attacker)
        else:
            battle.round += 1
            self._begin_moment(battle.defender)

    def _finish_battle(self, winner: Side | None) -> None:
        s = self.state
        battle = s.battle
        battle.winner = winner
        if winner is not None:
            self.log("battle", f"The {winner.adjective} side wins the battle at {s.board.name(battle.box)} (5.c)")
        if winner is not None and self._battle_promotable():
            s.step = "battle_promotion"
        else:
            self._next_battle()

    def _battle_promotable(self) -> list[str]:
        s = self.state
        battle = s.battle
        return [uid for uid in sorted(battle.participants[battle.winner])
                if s.units[uid].location == battle.box and combat.is_promotable(s.units[uid])]

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
        rule = "6.a" if s.step == "battle_promotion" else "6.b"
        self.log("promote", f"{old.label} in {s.board.name(new.location)} is promoted to {new.label} ({rule})")
        if s.step == "battle_promotion":
            self._next_battle()
        else:
            s.promotions_left -= 1
            if s.promotions_left <= 0 or len(self._legal_promotion()) == 1:
                self._start_recruitment()

    def _check_no_promotion(self, action: NoPromotion) -> None:
        return None

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
            self.log("recover", f"{recovered} reduced unit(s) recover to full strength (5.2.7)")
        self._start_promotion()

    # ================================================================== promotion and recruitment
    def _start_promotion(self) -> None:
        s = self.state
        s.step = "promotion"
        s.promotions_left = 1
        if len(self._legal_promotion()) == 1:
            self._start_recruitment()
        elif "O-4.3" in s.options and s.phasing is Side.CONFEDERATE:
            s.step = "training_roll"

    def _start_recruitment(self) -> None:
        s = self.state
        s.recruit_boxes = {}
        s.recruits_placed = 0
        s.recruit_limit = 0
        if recruitment.can_recruit_any(s, s.phasing):
            s.step = "recruit_roll"
        else:
            self._end_half()

    def _legal_recruitment(self) -> list[Action]:
        s = self.state
        actions: list[Action] = []
        if s.recruits_placed < s.recruit_limit and recruitment.room(s, s.phasing) > 0:
            codes = [code for code in ("MF", "MC") if s.pool(s.phasing, code)]
            for box in recruitment.eligible_boxes(s, s.phasing):
                actions.extend(Recruit(box, code) for code in codes)
        actions.append(EndRecruitment())
        return actions

    def _recruitment_or_end(self) -> None:
        if len(self._remember(self._legal_recruitment())) == 1:
            self._end_half()

    def _check_recruit(self, action: Recruit) -> IllegalActionError | None:
        return recruitment.check_recruit(self.state, action.box, action.unit_type)

    def _do_recruit(self, action: Recruit) -> None:
        s = self.state
        unit = recruitment.recruit(s, action.box, action.unit_type)
        self.log("recruit", f"Recruit: {unit.label} at {s.board.name(action.box)} (7.b)")
        self._recruitment_or_end()

    def _check_end_recruitment(self, action: EndRecruitment) -> None:
        return None

    def _do_end_recruitment(self, action: EndRecruitment) -> None:
        self._end_half()

    # ================================================================== end of half-turn and turn
    def _end_half(self) -> None:
        s = self.state
        for box, before, after in update_control(s):
            held = " (cavalry-held, 9.b)" if box in s.cavalry_held else ""
            self.log("control", f"{s.board.name(box)} passes from "
                                f"{before.adjective if before else 'neutral'} to {after.adjective} control{held} (9.a)")
        outcome = check_update(s)
        if outcome:
            return self._finish(outcome)
        if s.phasing is Side.UNION:
            s.phasing = Side.CONFEDERATE
            self._start_half()
            return
        outcome = check_end_of_turn(s, self.scenario.last_turn, self.scenario.end == "short")
        if outcome:
            return self._finish(outcome)
        if s.turn == self.scenario.score_turn:
            result = scenario_score(s, self.scenario.score_turn)
            if not self.play_on:
                return self._finish(result)
            s.scenario_result = result
            self.log("end", f"{result}. Play continues under the campaign rules to turn 40 (S-0).")
        s.turn += 1
        self._start_turn()

    def _finish(self, outcome: Outcome) -> None:
        s = self.state
        s.outcome = outcome
        s.step = "over"
        self.log("end", f"Game over. {outcome}")

    ACCEPTS: dict[str, tuple[type, ...]] = {
        "march_roll": (Roll,), "shot": (Roll,), "recruit_roll": (Roll,), "training_roll": (Roll,),
        "movement": (BeginMarch, NavalMove, Invade, EndMovement),
        "march": (Move, Entrench, EndMarch),
        "choose_battle": (ChooseBattle,),
        "cavalry_retreat": (CavalryRetreat, HoldGround),
        "battle_options": (Retreat, Evacuate, Reinforce, OpenFire),
        "targets": (Target, FireAuto, Volley),
        "battle_promotion": (Promote, NoPromotion),
        "promotion": (Promote, NoPromotion),
        "recruitment": (Recruit, EndRecruitment),
    }
