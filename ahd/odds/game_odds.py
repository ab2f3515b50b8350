"""Battle odds from a game (``ahd.odds.odds_for``): the battle in progress, or the battle a proposed
move would start, turned into the arguments of :func:`ahd.odds.odds` (units with their entrenchment
and crossing, A-5 coastal defences, the leaders present, and what the simulated rules A-7 and AO-8.1
need). Re-exported by :mod:`ahd.odds`.
"""
from __future__ import annotations

from ..core import combat
from .auto import odds
from .exact import ATTACKER, AUTO_MAX_STATES, AUTO_SAMPLES, DEFENDER, Fighter, not_modelled
from ..core.units import REDUCED


def _fighter(state, unit, *, battle=None, crossing: bool = False, entrenched: bool | None = None) -> Fighter:
    if entrenched is None:
        entrenched = combat.is_entrenched_in_battle(state, battle, unit) if battle else state.is_entrenched(unit)
    code = unit.type.code
    if unit.is_coastal:  # estimated as the infantry of its value (MF 2, FV 3), always entrenched
        code, entrenched = ("FV" if unit.type.value >= 3 else "MF"), True
    return Fighter(code, unit.strength == REDUCED, bool(entrenched), crossing)


def odds_for(game, action=None, *, max_states: int = AUTO_MAX_STATES, samples: int = AUTO_SAMPLES):
    """Odds for the battle in progress, or for the battle a proposed action would start.

    - during a battle: the battle as it stands, from the current firing moment; a proposed
      ``Reinforce`` adds that unit first; a proposed ``Retreat``/``Evacuate`` returns None (it ends it);
    - a proposed ``Move`` or ``Invade`` into a box holding enemy units: the battle it would start,
      with the phasing side's units already there and the mover (crossing by the board's blue sides,
      or by sea);
    - otherwise None.
    Exact when small enough (``max_states``), else a ``SimulatedOdds`` from ``samples`` simulated
    battles: see ``odds``; the result's ``method`` says which. With AO-8.2 on, each side's leaders in
    the battle box give their points (a leader who might still join or follow a mover is not counted).
    """
    from ..core.actions import Evacuate, Invade, Move, Reinforce, Retreat
    from ..core.sides import Side
    state = game.state
    battle = state.battle
    options = game.options
    if battle is not None and game.phase == "combat" and battle.winner is None:
        if isinstance(action, (Retreat, Evacuate)):
            return None
        firing = battle.firing or battle.defender
        attackers = [u for u in combat.battle_units(state, battle, battle.attacker)]
        defenders = [u for u in combat.battle_units(state, battle, battle.defender)]
        extra = []
        if isinstance(action, Reinforce) and action.unit in state.units:
            extra = [state.units[action.unit]]
        att = [_fighter(state, u, battle=battle, entrenched=False,
                        crossing=u.crossing and u.id not in battle.reinforced) for u in attackers]
        dfn = [_fighter(state, u, battle=battle) for u in defenders]
        new = [Fighter(u.type.code, u.strength == REDUCED) for u in extra]
        if firing is battle.attacker:
            att += new
        else:
            dfn += new
        role = ATTACKER if firing is battle.attacker else DEFENDER
        return _exact_or_sampled(att, dfn, battle.round, role, options, max_states, samples,
                                 _leaders(state, battle.box, battle.attacker, options)
                                 | _simulated(state, battle.attacker, options, battle))
    if isinstance(action, (Move, Invade)):
        unit = state.units.get(action.unit)
        dest = action.path[-1] if isinstance(action, Move) else action.port
        if unit is None or dest not in state.board or not state.has_units(dest, unit.side.enemy):
            return None
        crossing = True if isinstance(action, Invade) else state.board.enters_over_water(dest, action.path[-2])
        side: Side = unit.side
        att = [_fighter(state, u, entrenched=False, crossing=u.crossing) for u in state.units_in(dest, side)]
        att.append(_fighter(state, unit, entrenched=False, crossing=crossing))
        dfn = [_fighter(state, u) for u in state.units_in(dest, side.enemy)]
        return _exact_or_sampled(att, dfn, 1, DEFENDER, options, max_states, samples,
                                 _leaders(state, dest, side, options) | _simulated(state, side, options))
    return None


def _leaders(state, box: str, attacker, options) -> dict[str, int]:
    """AO-8.2.2: the summed values of each side's leaders in ``box``, as ``battle_odds`` arguments."""
    if "AO-8.2" not in options:
        return {}
    from ..core.leaders import leader_value_in
    return {"attacker_leaders": leader_value_in(state, box, attacker),
            "defender_leaders": leader_value_in(state, box, attacker.enemy)}


def _simulated(state, attacker, options, battle=None) -> dict:
    """What the simulated rules (A-7, AO-8.1) need: the year, the attacker's side and, for a battle
    whose day has begun, both sides' current command."""
    if not not_modelled(options):
        return {}
    from ..core.advanced import battle_day
    from ..core.calendar import Turn
    extra = {"year": Turn.of(state.turn).year, "attacker_side": attacker.name.lower()}
    if (battle is not None and "A-7" in options and battle.day == battle_day(battle.round)
            and not battle.command_pending and set(battle.command) == {battle.attacker, battle.defender}):
        extra["command"] = {ATTACKER: battle.command[battle.attacker], DEFENDER: battle.command[battle.defender]}
    return extra


def _exact_or_sampled(att, dfn, rnd, firing, options, max_states, samples, extra):
    return odds(att, dfn, round=rnd, firing=firing, options=options, max_states=max_states, samples=samples,
                **extra)
