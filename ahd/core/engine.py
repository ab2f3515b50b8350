"""The sequence of play (§3): decisions, automatic steps and transitions over a State.

Each decision ("step") has three handlers: ``legal`` lists its actions, ``check`` explains a refusal
by rule, ``do`` applies an accepted action. Steps with nothing to decide are passed automatically.
The rule details live in the section modules (movement, combat, promotion, recruitment, control,
victory); this module only orders them.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from . import advanced, leaders, recruitment
from .actions import (Action, Assault, NoRally, Rally, BeginMarch, BreakOut, Contain, CavalryRetreat, ChooseBattle, ChooseFirer, FireChosen, LeaderFollow,
                      LeaderMove, LeaderPoint, LeaderReinforce, PlaceLeader, EndMarch, EndMovement, EndRecruitment,
                      Entrench, Evacuate, FireAuto, HoldGround, Invade, Move, NavalMove, NoPromotion, OpenFire, Promote,
                      Recruit, Reinforce, Retreat, Roll, Starve, Target, Volley)
from .calendar import Turn
from .advanced_steps import AdvancedSteps
from .battle_end_steps import BattleEndSteps
from .combat_steps import CombatSteps
from .dice_steps import DiceSteps
from .movement_steps import MovementSteps
from .control import update_control
from .decisions import player_of, step_term
from .errors import IllegalActionError
from .i18n import Joined, Msg, Msgc, Msgn, Term, render
from .scenario import Scenario
from .sides import Side
from .state import Outcome, State
from .units import ASIDE, EUROPE, UNIT_TYPES, Unit, unit_name
from .victory import check_end_of_turn, check_update, scenario_score

#: The control of a box no side holds (9.a, 9.b).
NEUTRAL = Msgc("control", "neutral")


def _controller(side: Side | None):
    """A side, or "neutral", as a message parameter."""
    return NEUTRAL if side is None else side


@dataclass(frozen=True, slots=True)
class Event:
    """One line of the game log: ``message`` is kept as a message (:class:`ahd.core.i18n.Msg`) and said
    in ``lang`` (None: the current language) when ``text`` is read."""

    turn: int
    side: Side
    kind: str
    message: "Msg | str"
    lang: str | None = None

    @property
    def text(self) -> str:
        return render(self.message, self.lang)

    def in_language(self, lang: str | None) -> "Event":
        return self if lang == self.lang else Event(self.turn, self.side, self.kind, self.message, lang)

    def __str__(self) -> str:
        return self.text


class _Decided(Exception):
    """Unwinds an action that a 9.b reversion decided (11.c); caught in :meth:`Engine.do`."""


class Engine(MovementSteps, CombatSteps, BattleEndSteps, AdvancedSteps, DiceSteps):
    """Applies actions to a State in the order of 3.b. Validation is ``check``; ``do`` trusts it."""

    def __init__(self, state: State, scenario: Scenario, on_half_turn: Callable[[], None] | None = None,
                 play_on: bool = False) -> None:
        self.state = state
        self.scenario = scenario
        self.play_on = play_on
        self.events: list[Event] = []
        self.on_half_turn = on_half_turn or (lambda: None)
        self._cache: tuple[str, list[Action]] | None = None  # legal actions of the current step
        self._decided: Outcome | None = None  # 11.c: a 9.b reversion in the action being applied decided the game

    def invalidate(self) -> None:
        self._cache = None

    # ================================================================== queries
    @property
    def step(self) -> str:
        return self.state.step

    def current_player(self) -> Side | str | None:
        """Who the next action is taken from (the decision table says it: :mod:`ahd.core.decisions`)."""
        return player_of(self.state)

    def log(self, kind: str, message: "Msg | str") -> None:
        self.events.append(Event(self.state.turn, self.state.phasing, kind, message))
        if self._decided is not None:
            # 11.c: the line that tells the move which decided the game is the last one of the action
            raise _Decided()

    def flush_reversions(self) -> bool:
        """Log the 9.b reversions since the last call; returns True if there were any."""
        reverted = bool(self.state.reverted)
        for box, side in self.state.reverted:
            owner = self.state.control[box]
            self.log("control", Msg("{box} reverts to {owner} control: the last {side} unit left a cavalry-held "
                                    "box (9.b)", box=self.state.board.term(box), owner=_controller(owner), side=side))
        self.state.reverted.clear()
        return reverted

    def _reversions_end_game(self) -> bool:
        """9.b, 9.d, 11.c: a reversion is a control change like an update's: the maxima are recomputed
        (9.d) and 11.a, 11.b(1), 11.b(2) checked at once (S-12: not in the middle of a half-turn).
        Called after each action and before the automatic steps that would go on past a reversion
        (the end of the Movement segment, the next battle, the 9.a update). True if the game is over."""
        s = self.state
        if s.step == "over":
            return True
        if not self.flush_reversions():
            return False
        outcome = check_update(s, half_end=False)
        if outcome:
            self._finish(outcome)
            return True
        return False

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
            return IllegalActionError("10", Msg("the game is over"), action)
        accepted = self.ACCEPTS.get(s.step, ())
        if not isinstance(action, accepted):
            kinds = Joined((Term("action kind", cls.kind) for cls in sorted(accepted, key=lambda c: c.kind)), ", ")
            return IllegalActionError("3.a", Msg("now the decision is {step} (accepted: {kinds})",
                                                 step=step_term(s.step), kinds=kinds), action)
        checker = getattr(self, f"_check_{action.kind}", None)  # none: the action has no conditions
        error = checker(action) if checker else None
        if error is not None and error.action is None:
            error = IllegalActionError(error.rule, error.message, action)
        return error

    def do(self, action: Action) -> None:
        self._cache = None
        s = self.state
        s.after_reversion = self._after_reversion
        try:
            getattr(self, f"_do_{action.kind}")(action)
        except _Decided:
            pass
        finally:
            s.after_reversion = None
        if self._decided is not None:
            outcome, self._decided = self._decided, None
            self.flush_reversions()
            self._finish(outcome, interrupted=True)
        else:
            self._reversions_end_game()

    def _after_reversion(self) -> None:
        """9.b, 9.d, 11.c, called by the state at once after a reversion in the middle of an action: if
        it decides the game, the action stops at the next line it logs (the one telling the move that
        caused it), and nothing after that is played or logged."""
        if self._decided is None and self.state.step != "over":
            self._decided = check_update(self.state, half_end=False)

    # ================================================================== game start and turns
    def start(self) -> None:
        self.state.turn = self.scenario.start_turn
        self.log("turn", Msg("{title}: the game begins", title=self.scenario.title_term))
        self._start_turn()

    def _start_turn(self) -> None:
        s = self.state
        for unit in s.units.values():
            unit.retreated = unit.fought = False
        for leader in s.leaders.values():
            leader.marches = 0  # AO-8.2.1: two marches per turn
        s.veteran_losses = 0
        self.log("turn", Msg("— {turn} —", turn=Turn.of(s.turn)))
        drafted = recruitment.draft(s)
        if drafted:
            rule = "O-4.4" if drafted != recruitment.DRAFT_SIZE else "8"
            self.log("draft", Msg("Draft: {n} militia infantry join the Union pool ({rule})", n=drafted, rule=rule))
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
        s.moved_from = {}
        s.followers = {}
        s.breakouts = 0
        advanced.prune_containment(s)
        self.on_half_turn()
        if "A-2" in s.options:
            s.unsupplied = advanced.unsupplied_stacks(s, s.phasing)
            if s.unsupplied:
                names = Joined((s.board.term(b) for b in s.unsupplied), ", ")
                self.log("supply", Msg("{side} stacks out of supply: {boxes}; each loses one unit of its owner's "
                                       "choice (A-2)", side=s.phasing, boxes=names))
                s.step = "supply"
                return
        self._after_supply()

    def _after_supply(self) -> None:
        """3.b: Confederate half only: AO-8.3 border-state rolls; then the Movement segment."""
        s = self.state
        if "AO-8.3" in s.options and s.phasing is Side.CONFEDERATE:
            s.border_pending = advanced.border_states_eligible(s)
            if s.border_pending:
                s.step = "border_roll"
                return
        self._foreign_intervention()

    def _foreign_intervention(self) -> None:
        """3.b: AO-8.4 at the start of a Confederate half-turn, then the Movement segment."""
        s = self.state
        if s.phasing is Side.CONFEDERATE and advanced.intervention_due(s):
            s.intervention = True
            for number in range(1, advanced.FOREIGN_UNITS + 1):
                unit = Unit(f"X-FV-{number:02d}", Side.CONFEDERATE, UNIT_TYPES["FV"], EUROPE)
                s.units[unit.id] = unit
            self.log("intervention", Msg("Foreign intervention: the Confederacy gains naval moves and four foreign "
                                         "veteran infantry appear in Europe (AO-8.4)"))
        self._begin_movement()

    def _begin_movement(self) -> None:
        s = self.state
        if s.turn == self.scenario.start_turn and self.scenario.first_turn_marches:  # 0: "roll"
            s.marches_left = self.scenario.first_turn_marches
            rule = "4.1" if self.scenario.start_turn == 1 else "S-0"
            self.log("marches", Msgn("{side} half-turn: {n} march without a roll on the first turn ({rule})",
                                     "{side} half-turn: {n} marches without a roll on the first turn ({rule})",
                                    side=s.phasing, n=s.marches_left, rule=rule))
            self._marches_determined()
        else:
            s.step = "march_roll"

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
        if "AO-8.2" in s.options and leaders.returning(s, s.phasing) and leaders.friendly_boxes(s, s.phasing):
            s.step = "leader_return"  # AO-8.2.2: removed leaders come back first
            return
        self._start_recruit_roll()

    def _start_recruit_roll(self) -> None:
        s = self.state
        s.recruit_boxes = {}
        s.recruits_placed = 0
        s.recruit_limit = 0
        replacements = s.phasing is Side.CONFEDERATE and "AO-8.4" in s.options and s.units_of(s.phasing, ASIDE)
        if recruitment.can_recruit_any(s, s.phasing) or replacements:
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
        self.log("recruit", Msg("Recruit: {unit} at {box} (7.b)", unit=unit_name(unit), box=s.board.term(action.box)))
        self._recruitment_or_end()


    def _do_end_recruitment(self, action: EndRecruitment) -> None:
        self._end_half()

    # ================================================================== end of half-turn and turn
    def _end_half(self) -> None:
        s = self.state
        if self._reversions_end_game():
            return
        self._remove_lone_leaders()
        washington_taken = False
        for box, before, after in update_control(s):
            if box in s.cavalry_held:
                self.log("control", Msg("{box} passes from {before} to {after} control (cavalry-held, 9.b) (9.a)",
                                        box=s.board.term(box), before=_controller(before), after=_controller(after)))
            else:
                self.log("control", Msg("{box} passes from {before} to {after} control (9.a)", box=s.board.term(box),
                                        before=_controller(before), after=_controller(after)))
            washington_taken |= box == "washington" and after is Side.CONFEDERATE
        # A-4 (a): captured by naval invasion: the invasion port is the Union's now, held by Union units
        # (given by this update, or already by a 9.b reversion when the enemy cavalry left it). A port
        # the Union loses, by 9.a or 9.b, leaves the record at once (State.set_control).
        port = s.invasion_port
        if port is not None and s.control[port] is Side.UNION and s.has_units(port, Side.UNION):
            s.invaded_ports.add(port)
        if washington_taken and "A-6" in s.options:
            s.step = "washington_roll"  # the penalty die, then the rest of the update
            return
        self._after_update()

    def _after_update(self) -> None:
        s = self.state
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
            self.log("end", Msg("{result}. Play continues under the campaign rules to turn 40 (S-0).", result=result))
        s.turn += 1
        self._start_turn()

    def _finish(self, outcome: Outcome, interrupted: bool = False) -> None:
        """The end (11.c). ``interrupted``: in the middle of a march or a battle, whose traces go (the
        battle and its coastal defence, A-5; the march under way) so that the board shows the end."""
        s = self.state
        s.outcome = outcome
        s.step = "over"
        if interrupted:
            if s.battle is not None and s.battle.coastal is not None and s.battle.coastal in s.units:
                s.remove_unit(s.units[s.battle.coastal])
            s.battle, s.battles = None, []
            s.march_origin, s.march_ordered, s.march_moves = None, [], []
            s.reverted.clear()  # a coastal defence never held a box; nothing more to log
        self.log("end", Msg("Game over. {outcome}", outcome=outcome))

    ACCEPTS: dict[str, tuple[type, ...]] = {
        "march_roll": (Roll,), "shot": (Roll,), "recruit_roll": (Roll,), "training_roll": (Roll,),
        "washington_roll": (Roll,), "command_roll": (Roll,), "border_roll": (Roll,),
        "firers": (ChooseFirer, FireChosen),
        "supply": (Starve,),
        "leader_arrival": (PlaceLeader,), "leader_return": (PlaceLeader,), "leader_points": (LeaderPoint,),
        "movement": (BeginMarch, NavalMove, Invade, LeaderMove, LeaderFollow, BreakOut, EndMovement),
        "containment": (Contain, Assault),
        "morale_roll": (Roll,), "desertion_roll": (Roll,), "rally": (Rally, NoRally), "rout_retreat": (Retreat,),
        "march": (Move, Entrench, EndMarch),
        "choose_battle": (ChooseBattle,),
        "cavalry_retreat": (CavalryRetreat, HoldGround),
        "battle_options": (Retreat, Evacuate, Reinforce, LeaderReinforce, OpenFire),
        "targets": (Target, FireAuto, Volley),
        "battle_promotion": (Promote, NoPromotion),
        "promotion": (Promote, NoPromotion),
        "recruitment": (Recruit, EndRecruitment),
    }
