"""What a click on a box means at the current decision.

No rule is decided here: every answer is read off ``Game.legal_actions()`` (and ``Game.why_not``
for the reason a click is refused). This module only says which listed actions a box stands for,
so that the map can offer them.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ahd import Game
from ahd.core.actions import Action, BeginMarch, Invade, Move, NavalMove, Recruit
from ahd.core import decisions, recruitment
from ahd.core.box_actions import BOX_ACTIONS, box_action
from ahd.core.decisions import action_box, die_owner  # noqa: F401  (the engine's decision table; read from here too)
from ahd.core.errors import IllegalActionError

from widgets.model.i18n import N_, _, _n, render


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
    if box is None or decisions.play(game) != decisions.MARCH:
        return Plan()
    legal = game.legal_actions()
    plan = Plan(origin=box)
    candidates: list[Action] = []
    if decisions.choosing_march(game):
        if BeginMarch(box) in legal:
            preview = game.copy()
            preview.apply(BeginMarch(box))
            plan.preview = preview
            if decisions.march_open(preview):
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
    probe: Action | None = None
    judge = game
    if decisions.play(game) == decisions.MARCH and plan.origin is not None and box != plan.origin:
        judge = plan.preview or game
        movers = [u.id for u in judge.units_in(plan.origin, judge.phasing)]
        if movers:
            kinds = sorted(judge.board.link_kinds(plan.origin, box)) or ["road"]
            probe = Move(movers[0], (plan.origin, box), (kinds[0],))
    elif decisions.march_open(game):
        return _open_march(game, box, None)
    elif decisions.play(game) == decisions.PANEL:  # targets, firers, leader points, rally
        entry = decisions.decision(game.decision)
        return IllegalActionError(entry.rule, _("this decision is made in the panel: {task}").format(
            task=decisions.task(game)))
    elif game.decision in BOX_ACTIONS:
        probe = box_action(game, box)
        if probe is None:  # a promotion: no unit of the promoting side there
            return IllegalActionError(decisions.decision(game.decision).rule, _(
                "no unit of the side promoting is in {box}").format(box=game.board.local_name(box)))
    if probe is not None:
        error = judge.why_not(probe)
        if decisions.march_open(game) and box != game.march_origin:
            return _open_march(game, box, error)
        if error is not None:
            return plain_refusal(error)
    return IllegalActionError("3.a", _("nothing can be done in {box} at this decision").format(
        box=game.board.local_name(box)))


def _open_march(game: Game, box: str, error: IllegalActionError | None) -> IllegalActionError:
    """A click away from an open march: name the march first, then (if any) why its units cannot go there."""
    board = game.board
    origin = board.local_name(game.march_origin)
    if game.units_in(box, game.phasing) and box != game.march_origin:
        return IllegalActionError("4.b", _("end this march first: the march from {origin} is still open (press "
                                           "'End this march' in the panel), then click {box} to march from there"
                                           ).format(origin=origin, box=board.local_name(box)))
    why = f": {plain_refusal(error).reason}" if error is not None else ""
    return IllegalActionError(error.rule if error is not None else "4.b",
                              _("the march from {origin} is still open, and its units cannot go to {box}{why}. "
                                "Click a lit box, or end this march in the panel").format(
                                  origin=origin, box=board.local_name(box), why=why))


# ---------------------------------------------------------------------- the player's words
#: What each kind of action is, in the words of the panel (the engine's refusals name the kinds).
ACTION_WORDS = {
    "roll": N_("roll the die"), "starve": N_("choose the unit lost for lack of supply"),
    "begin_march": N_("begin a march"), "move": N_("move a unit"), "entrench": N_("entrench a unit"),
    "end_march": N_("end the march"), "naval_move": N_("move a unit by sea"),
    "invade": N_("invade a port from the sea"), "end_movement": N_("end movement"),
    "place_leader": N_("place a leader"), "leader_move": N_("move a leader alone"),
    "leader_follow": N_("let a leader go with a unit"), "leader_reinforce": N_("let a leader join a battle"),
    "leader_point": N_("give a leader's point to a unit"), "contain": N_("contain the invaders"),
    "assault": N_("assault the invaders"), "break_out": N_("break out of a contained port"),
    "choose_battle": N_("choose the next battle"), "cavalry_retreat": N_("retreat the cavalry"),
    "hold_ground": N_("hold the ground"), "retreat": N_("retreat"), "evacuate": N_("evacuate by sea"),
    "reinforce": N_("bring in a reinforcement"), "open_fire": N_("open fire"),
    "choose_firer": N_("choose a unit to fire"), "fire_chosen": N_("fire with the units chosen"),
    "target": N_("choose a target"), "fire_auto": N_("fire automatically"), "volley": N_("declare the targets"),
    "rally": N_("rally a routed unit"), "no_rally": N_("rally no unit"), "promote": N_("promote a unit"),
    "no_promotion": N_("promote no unit"), "recruit": N_("place a recruit"),
    "end_recruitment": N_("end recruitment"),
}
_ACCEPTED = re.compile(r"now the decision is (?P<step>[a-z ]+) \(accepted: (?P<kinds>[a-z_, ]+)\)")


def _in_english(error: IllegalActionError) -> str:
    """The refusal's reason as the engine wrote it (its message rendered in English), whatever the language
    it was said in: what the out-of-sequence pattern is matched against."""
    message = error.message
    return render(message, "en") if hasattr(message, "__msg__") else str(message)


def plain_refusal(error: IllegalActionError) -> IllegalActionError:
    """The engine's refusal in the player's words, same rule ID: the out-of-sequence refusal lists the engine's
    step and action kinds (``break_out``, ``leader_follow``); the player reads what may be done now, in the
    current language. The refusal is recognised by its message (``error.message``), never by words of a
    language: its parameters ``step`` and ``kinds`` when the engine gives them, else its English text."""
    message = error.message
    params = getattr(message, "params", {}) or {}
    english = _in_english(error)
    match = _ACCEPTED.search(english)
    if "kinds" in params and "step" in params and "accepted" in getattr(message, "msgid", ""):
        step, kinds_text = render(params["step"], "en"), render(params["kinds"], "en")
        prefix = suffix = ""
    elif match is not None:
        step, kinds_text = match.group("step"), match.group("kinds")
        prefix, suffix = english[:match.start()], english[match.end():]
    else:
        return error
    kinds = [k.strip() for k in str(kinds_text).split(",") if k.strip()]
    words = [_(ACTION_WORDS[k]) if k in ACTION_WORDS else k.replace("_", " ") for k in kinds]
    if not words:
        allowed = _("nothing")
    elif len(words) == 1:
        allowed = words[0]
    else:
        allowed = _("{some} or {last}").format(some=", ".join(words[:-1]), last=words[-1])
    step_words = render(decisions.step_term(str(step).strip().replace(" ", "_")))  # the engine's name for it
    reason = prefix + _("not now: the decision is the {step}, where you may {allowed}").format(
        step=step_words, allowed=allowed) + suffix
    return IllegalActionError(error.rule, reason, error.action)


# ---------------------------------------------------------------------- dice and recruitment
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
        return _n("the die allowed {n} recruit, all placed (7.d)", "the die allowed {n} recruits, all placed (7.d)",
                  s.recruit_limit).format(n=s.recruit_limit)
    if not pool["MF"] and not pool["MC"]:
        return _("the {side} pool is empty: no militia infantry or cavalry counter is left (7.d)").format(
            side=render(side))
    if room <= 0:
        return _("the {side} army is at its maximum of {n} units (7.c)").format(
            side=render(side), n=recruitment.unit_limit(s, side))
    if not boxes:
        return _("no recruiting city is left where a recruit may be placed (7.b)")
    return None
