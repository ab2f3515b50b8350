"""What a click on a box means at the current decision.

No rule is decided here: every answer is read off ``Game.legal_actions()`` (and ``Game.why_not``
for the reason a click is refused). This module only says which listed actions a box stands for,
so that the map can offer them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ahd import Game
from ahd.core.actions import (Action, Assault, BeginMarch, BreakOut, CavalryRetreat, ChooseBattle, Contain, Entrench,
                         Invade, LeaderMove, Move, NavalMove, PlaceLeader, Promote, Recruit, Reinforce, Retreat,
                         Roll, Starve)
from ahd.core import recruitment
from ahd.core.errors import IllegalActionError
from ahd.core.sides import Side


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
        return _open_march(game, box, None)
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
        if decision == "march" and box != game.march_origin:
            return _open_march(game, box, error)
        if error is not None:
            return plain_refusal(error)
    return IllegalActionError("3.a", f"nothing can be done in {game.board.name(box)} at this decision")


def _open_march(game: Game, box: str, error: IllegalActionError | None) -> IllegalActionError:
    """A click away from an open march: name the march first, then (if any) why its units cannot go there."""
    board = game.board
    origin = board.name(game.march_origin)
    if game.units_in(box, game.phasing) and box != game.march_origin:
        return IllegalActionError("4.b", f"end this march first: the march from {origin} is still open "
                                         f"(press 'End this march' in the panel), then click {board.name(box)} "
                                         f"to march from there")
    why = f": {plain_refusal(error).reason}" if error is not None else ""
    return IllegalActionError(error.rule if error is not None else "4.b",
                              f"the march from {origin} is still open, and its units cannot go to "
                              f"{board.name(box)}{why}. Click a lit box, or end this march in the panel")


# ---------------------------------------------------------------------- the player's words
#: What each kind of action is, in the words of the panel (the engine's refusals name the kinds).
ACTION_WORDS = {
    "roll": "roll the die", "starve": "choose the unit lost for lack of supply", "begin_march": "begin a march",
    "move": "move a unit", "entrench": "entrench a unit", "end_march": "end the march",
    "naval_move": "move a unit by sea", "invade": "invade a port from the sea", "end_movement": "end movement",
    "place_leader": "place a leader", "leader_move": "move a leader alone",
    "leader_follow": "let a leader go with a unit", "leader_reinforce": "let a leader join a battle",
    "leader_point": "give a leader's point to a unit", "contain": "contain the invaders",
    "assault": "assault the invaders", "break_out": "break out of a contained port",
    "choose_battle": "choose the next battle", "cavalry_retreat": "retreat the cavalry",
    "hold_ground": "hold the ground", "retreat": "retreat", "evacuate": "evacuate by sea",
    "reinforce": "bring in a reinforcement", "open_fire": "open fire", "choose_firer": "choose a unit to fire",
    "fire_chosen": "fire with the units chosen", "target": "choose a target", "fire_auto": "fire automatically",
    "volley": "declare the targets", "rally": "rally a routed unit", "no_rally": "rally no unit",
    "promote": "promote a unit", "no_promotion": "promote no unit", "recruit": "place a recruit",
    "end_recruitment": "end recruitment",
}
_ACCEPTED = re.compile(r"now the decision is (?P<step>[a-z ]+) \(accepted: (?P<kinds>[a-z_, ]+)\)")


def plain_refusal(error: IllegalActionError) -> IllegalActionError:
    """The engine's refusal in the player's words, same rule ID: the out-of-sequence refusal lists the engine's
    step and action kinds (``break_out``, ``leader_follow``); the player reads what may be done now."""
    match = _ACCEPTED.search(error.reason)
    if match is None:
        return error
    kinds = [k.strip() for k in match.group("kinds").split(",") if k.strip()]
    words = [ACTION_WORDS.get(k, k.replace("_", " ")) for k in kinds]
    allowed = ", ".join(words[:-1]) + (" or " if len(words) > 1 else "") + words[-1] if words else "nothing"
    reason = (error.reason[:match.start()] + f"not now: the decision is the "
              f"{match.group('step')}, where you may {allowed}" + error.reason[match.end():])
    return IllegalActionError(error.rule, reason, error.action)


# ---------------------------------------------------------------------- dice and recruitment
def die_owner(game: Game) -> Side | None:
    """The side whose die is pending (who would roll it at the table), or None when no die is pending."""
    s = game.state
    if game.pending_roll is None:
        return None
    battle = s.battle
    if s.step == "shot" and battle is not None:
        return battle.firing
    if s.step == "command_roll" and battle is not None and battle.command_pending:
        return battle.command_pending[0]
    if s.step == "morale_roll" and battle is not None and battle.morale_pending:
        return s.units[battle.morale_pending[0]].side
    if s.step == "desertion_roll" and battle is not None and battle.desertion_pending:
        return s.units[battle.desertion_pending[0][0]].side
    if s.step in ("training_roll", "border_roll"):
        return Side.CONFEDERATE
    return s.phasing


def recruitment_end_reason(game: Game, action: Recruit) -> str | None:
    """If placing ``action`` ends the Recruitment segment, why (with the rule), else None. Read before the
    recruit is placed; the engine decides, this only names the limit it will reach (7.b, 7.c, 7.d)."""
    s = game.state
    side = s.phasing
    if game.decision != "recruitment" or game.why_not(action) is not None:
        return None
    placed = s.recruits_placed + 1
    pool = {code: len(s.pool(side, code)) - (code == action.unit_type) for code in ("MF", "MC")}
    boxes = [b for b in recruitment.eligible_boxes(s, side)
             if b != action.box or s.recruit_boxes.get(b, 0) + 1 < recruitment.recruits_allowed_in(s, side, b)]
    room = recruitment.room(s, side) - 1
    if placed >= s.recruit_limit:
        return f"the die allowed {s.recruit_limit} recruit{'s' if s.recruit_limit > 1 else ''}, all placed (7.d)"
    if not pool["MF"] and not pool["MC"]:
        return f"the {side.adjective} pool is empty: no militia infantry or cavalry counter is left (7.d)"
    if room <= 0:
        return f"the {side.adjective} army is at its maximum of {recruitment.unit_limit(s, side)} units (7.c)"
    if not boxes:
        return "no recruiting city is left where a recruit may be placed (7.b)"
    return None
