"""The guide's words: a hint (what to click and why, in one sentence) and why an action is a good one in its
position, read from the position (odds, distances, values); the guide never decides a rule."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


from ahd import Game
from ahd.core.actions import (Action, BeginMarch, CavalryRetreat, ChooseBattle, EndMarch, EndMovement, EndRecruitment,
                              Entrench, FireAuto, HoldGround, Invade, Move, NavalMove, NoPromotion, OpenFire, Promote,
                              Recruit, Reinforce, Retreat)
from ahd.core.i18n import Term, render
from ahd.core.sides import Side
from ahd.odds import odds_for

from widgets.model.i18n import _, _n, pct


@dataclass(frozen=True)
class Hint:
    """What to do now: the legal ``action`` it leads to and how to play it in the app.

    ``kind``: ``"box"`` (click ``box`` on the map; with ``units`` picked first in the panel's Units list, which
    the guide does for you) or ``"button"`` (press the panel's button labelled ``button``; ``"list"`` when it
    is only in the list of all legal actions). ``then``: for a march not yet begun, the move the click makes."""

    action: Action
    kind: str
    text: str
    box: str = ""
    button: str = ""
    units: tuple[str, ...] = ()
    then: Action | None = None


def _name(game: Game, box: str) -> str:
    """A box's name in the current language's usual form ("Nueva Orleans")."""
    return game.board.local_name(box)


def _kind(unit: Any) -> str:
    """A unit's type in the current language ("militia infantry", "fanteria di milizia")."""
    return render(Term("unit", unit.type.name))


def _distance_to_enemy(game: Game, box: str, side: Side) -> int | None:
    """Links from ``box`` to the nearest box holding enemy units (None if none on the map)."""
    seen, frontier, step = {box}, [box], 0
    while frontier:
        if any(game.units_in(b, side.enemy) for b in frontier):
            return step
        step += 1
        frontier = [n for b in frontier for n in game.board.neighbours(b) if n not in seen and not seen.add(n)]
    return None


def _odds_words(game: Game, action: Action | None, side: Side) -> str:
    """'about 70%' for the side's chance to win the battle (in progress, or the one ``action`` starts)."""
    try:
        result = odds_for(game, action)
    except Exception:  # odds are a help for the sentence, never a reason to fail the hint
        return ""
    if result is None:
        return ""
    battle = game.battle
    in_battle = battle is not None and (action is None or isinstance(action, Reinforce))
    attacker = battle.attacker if in_battle else game.phasing  # a move into enemy units: the phasing side attacks
    p = result.attacker_wins if side is attacker else result.defender_wins
    return _("about {chance}").format(chance=pct(p, 0))


def why(game: Game, action: Action, then: Action | None = None) -> str:
    """One sentence on why the computer player's choice is sensible, from the position (never a rule decided)."""
    side = game.current_player if isinstance(game.current_player, Side) else game.phasing
    state = game.state
    move = then if then is not None else action
    if isinstance(move, (Move, NavalMove, Invade)):
        unit = state.units[move.unit]
        to = move.path[-1] if isinstance(move, Move) else getattr(move, "to", None) or getattr(move, "port", None)
        enemies = game.units_in(to, side.enemy)
        if enemies:
            trial = game
            if isinstance(action, BeginMarch):
                trial = game.copy()
                trial.apply(action)
            chance = _odds_words(trial, move, side)
            if chance:
                return _n("it attacks the {n} enemy unit in {box}: your chance to win that battle is {chance} "
                          "(the odds beside the map).",
                          "it attacks the {n} enemy units in {box}: your chance to win that battle is {chance} "
                          "(the odds beside the map).", len(enemies)).format(
                    n=len(enemies), box=_name(game, to), chance=chance)
            return _n("it attacks the {n} enemy unit in {box}.", "it attacks the {n} enemy units in {box}.",
                      len(enemies)).format(n=len(enemies), box=_name(game, to))
        owner = state.control[to]
        value = game.board[to].value_for(side.enemy) if owner is side.enemy else 0
        if owner is side.enemy and value:
            return _("{box} is an enemy recruiting city with no defenders: holding it at the control update "
                     "takes its recruiting value from the enemy's army maximum (9.a, 9.d).").format(box=_name(game, to))
        if owner is not side:
            return _("it takes {box}, which you do not control, at the next control update (9.a).").format(
                box=_name(game, to))
        near = _distance_to_enemy(game, to, side)
        here = _distance_to_enemy(game, unit.location, side)
        if near is not None and (here is None or near < here):
            return _n("it brings {unit_type} closer to the enemy ({n} box away) to attack later or to guard the front.",
                      "it brings {unit_type} closer to the enemy ({n} boxes away) to attack later or to guard the "
                      "front.", near).format(unit_type=_kind(unit), n=near)
        return _("it moves {unit_type} where the computer player wants it next.").format(unit_type=_kind(unit))
    if isinstance(action, BeginMarch):
        return _("a march moves the units of one box; this box has units the computer player would move now.")
    if isinstance(action, EndMarch):
        return _("this march has done what it should; the march allowance that is left can move another box.")
    if isinstance(action, EndMovement):
        left = game.marches_left
        if left:
            return _n("no further march is worth making now (the {n} unused march lapses, 4.a); the battles come next.",
                      "no further march is worth making now (the {n} unused marches lapse, 4.a); the battles come "
                      "next.", left).format(n=left)
        return _("no further march is worth making now; the battles come next.")
    if isinstance(action, Entrench):
        return _("{unit_type} digs in: an entrenched unit is harder to hit (4.2.5, 5.2.1).").format(
            unit_type=_kind(state.units[action.unit]))
    if isinstance(action, ChooseBattle):
        return _("the battles are fought one by one: {box} first.").format(box=_name(game, action.box))
    if isinstance(action, OpenFire):
        chance = _odds_words(game, None, side)
        return (_("fight on: your chance to win this battle is {chance}.").format(chance=chance) if chance
                else _("fight on."))
    if isinstance(action, FireAuto):
        return _("the game spreads your shots over the enemy units as the rules ask (5.1.a), best shots first.")
    if isinstance(action, Reinforce):
        unit = state.units[action.unit]
        return _("the battle is not safe yet: {unit_type} joins from {box} (5.2.4).").format(
            unit_type=_kind(unit), box=_name(game, unit.location))
    if isinstance(action, Retreat):
        chance = _odds_words(game, None, side)
        if chance:
            return _("the battle is going badly ({chance} to win): retreating to {box} loses the battle but saves the "
                     "units (5.2.5).").format(chance=chance, box=_name(game, action.to))
        return _("the battle is going badly: retreating to {box} loses the battle but saves the units (5.2.5).").format(
            box=_name(game, action.to))
    if isinstance(action, CavalryRetreat):
        return _("cavalry facing infantry may slip away before the battle (5.2.6): to {box}, where it can raid "
                 "again.").format(box=_name(game, action.to))
    if isinstance(action, HoldGround):
        return _("the cavalry stays and fights.")
    if isinstance(action, Promote):
        return _("a promoted {unit_type} fires and holds better; promoting militia also frees a counter for "
                 "recruitment (6).").format(unit_type=_kind(state.units[action.unit]))
    if isinstance(action, NoPromotion):
        return _("no promotion is worth making now.")
    if isinstance(action, Recruit):
        near = _distance_to_enemy(game, action.box, side)
        if near is not None:
            return _n("new militia appear in your recruiting cities; {box} is {n} box from the enemy. (7.b)",
                      "new militia appear in your recruiting cities; {box} is {n} boxes from the enemy. (7.b)",
                      near).format(box=_name(game, action.box), n=near)
        return _("new militia appear in your recruiting cities; {box} is safe. (7.b)").format(
            box=_name(game, action.box))
    if isinstance(action, EndRecruitment):
        return _("the recruits the roll allowed are placed, or none is worth placing (7).")
    return _("it is the computer player's choice here.")
