"""What a click on a box means at the current decision.

No rule is decided here: every answer is read off ``Game.legal_actions()`` (and ``Game.why_not``
for the reason a click is refused). This module only says which listed actions a box stands for,
so that the map can offer them.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ahd import Game
from ahd.core.actions import (Action, Assault, BeginMarch, BreakOut, CavalryRetreat, ChooseBattle, Contain, Entrench,
                         Invade, LeaderMove, Move, NavalMove, PlaceLeader, Promote, Recruit, Reinforce, Retreat,
                         Starve)
from ahd.core.errors import IllegalActionError


def action_box(game: Game, action: Action) -> str | None:
    """The box a listed action is played on (its destination or place), or None for panel-only actions."""
    if isinstance(action, Move):
        return action.path[-1]
    if isinstance(action, NavalMove):
        return action.to
    if isinstance(action, Invade):
        return action.port
    if isinstance(action, (BeginMarch,)):
        return action.origin
    if isinstance(action, (ChooseBattle, PlaceLeader, Contain, Assault, BreakOut)):
        return action.box
    if isinstance(action, LeaderMove):
        return action.path[-1]
    if isinstance(action, (CavalryRetreat, Retreat)):
        return action.to
    if isinstance(action, Recruit):
        return action.box
    if isinstance(action, (Reinforce, Promote, Entrench, Starve)):
        unit = game.state.units.get(action.unit)
        return unit.location if unit is not None else None
    return None


def moving_unit(action: Action) -> str | None:
    """The unit an order moves (Move, NavalMove, Invade), else None."""
    return action.unit if isinstance(action, (Move, NavalMove, Invade)) else None


def _path_rank(action: Action) -> tuple:
    """Prefer the plainest order: land before sea, fewest boxes, then the engine's own order."""
    if isinstance(action, Move):
        return (0, len(action.path))
    return (1, 0)


@dataclass
class Plan:
    """What the map offers around a selected box: each destination with one order per unit."""

    origin: str | None = None
    preview: Game | None = None          # the game after BeginMarch(origin), when a march is not yet begun
    orders: dict[str, dict[str, Action]] = field(default_factory=dict)  # destination -> unit -> best order

    @property
    def destinations(self) -> list[str]:
        return sorted(self.orders)


def plan_for(game: Game, box: str | None, units: tuple[str, ...] = ()) -> Plan:
    """Destinations from ``box`` for ``units`` (all movable units if empty) at a movement decision."""
    if box is None or game.decision not in ("movement", "march"):
        return Plan()
    legal = game.legal_actions()
    plan = Plan(origin=box)
    candidates: list[Action] = []
    if game.decision == "movement":
        if BeginMarch(box) in legal:
            preview = game.copy()
            preview.apply(BeginMarch(box))
            plan.preview = preview
            if preview.decision == "march":
                candidates.extend(preview.legal_actions())
        here = {u.id for u in game.units_in(box)}
        candidates.extend(a for a in legal if isinstance(a, (NavalMove, Invade)) and a.unit in here)
    elif game.march_origin == box:
        candidates.extend(legal)
    for action in candidates:
        unit = moving_unit(action)
        if unit is None or (units and unit not in units):
            continue
        best = plan.orders.setdefault(action_box(game, action), {})
        if unit not in best or _path_rank(action) < _path_rank(best[unit]):
            best[unit] = action
    return plan


def refusal_for(game: Game, box: str, plan: Plan) -> IllegalActionError:
    """Why a click on ``box`` does nothing now, as the engine would say it (with its rule ID)."""
    decision = game.decision
    state = game.state
    probe: Action | None = None
    judge = game
    if decision in ("movement", "march") and plan.origin is not None and box != plan.origin:
        judge = plan.preview or game
        movers = [u.id for u in judge.units_in(plan.origin, judge.phasing)]
        if movers:
            kinds = sorted(judge.board.link_kinds(plan.origin, box)) or ["road"]
            probe = Move(movers[0], (plan.origin, box), (kinds[0],))
    elif decision == "movement":
        probe = BeginMarch(box)
    elif decision == "march":
        return IllegalActionError("4.b", f"this march is from {game.board.name(game.march_origin)}: "
                                         f"click it to see where its units may go, or end the march")
    elif decision == "choose_battle":
        probe = ChooseBattle(box)
    elif decision == "cavalry_retreat":
        probe = CavalryRetreat(box)
    elif decision == "battle_options":
        probe = Retreat(box)
    elif decision == "recruitment":
        probe = Recruit(box, "MF")
    elif decision in ("promotion", "battle_promotion"):
        own = [u for u in game.units_in(box, state.phasing if decision == "promotion" else game.current_player)]
        if not own:
            return IllegalActionError("6.a", f"no unit of the side promoting is in {game.board.name(box)}")
        probe = Promote(own[0].id)
    elif decision == "targets":
        return IllegalActionError("5.1.a", "choose each unit's target in the panel, or fire automatically")
    if probe is not None:
        error = judge.why_not(probe)
        if error is not None:
            return error
    return IllegalActionError("3.a", f"nothing can be done in {game.board.name(box)} at this decision")
