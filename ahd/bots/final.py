"""The last half-turn of a game scored on the army maxima (the short game, S-13; a year scenario scored on
T-8, S-0, and not played on): the Confederacy moves last, so after its march nothing can answer it.

Its units no longer need to guard anything: a box keeps its control when they leave it (9.a), and a battle
lost costs no maximum (7.c counts cities, not units). What counts is only which recruiting cities each side
holds at the update that ends the turn (9.d). So every march goes where the maxima move most: a spare unit
into each enemy-held recruiting city left empty (the swing is the city's value to both sides, 7.c), and the
units left over storm the defended ones where the expected swing is largest.

Used by the search bot with ``final=on`` (``hard``'s Confederacy in the scored games, ``ahd.bots.levels``);
measured in ``docs/bots/levels_by_scenario.txt`` (issue 34: the short game).
"""
from __future__ import annotations

from ..core import movement
from ..core.actions import Action, BeginMarch
from ..core.game import Game
from ..core.sides import Side
from ..core.state import State
from .base import table_score_turn
from .heuristic import _win_chance, attack_forces


#: what taking Washington is worth in the last half-turn: the war (11.b(1)), more than every city together
WASHINGTON = 100


def scored_last_half(game: Game) -> bool:
    """Whether this is the Confederacy's half-turn that ends a game scored on the maxima (nothing after it)."""
    return turns_to_score(game) == 0


def turns_to_score(game: Game, side: Side = Side.CONFEDERATE) -> int | None:
    """In a game scored on the maxima, at a half-turn of ``side``: how many turns come before the one scored
    (0: this is its last half-turn); None otherwise."""
    scenario, state = game.scenario, game.state
    if state.phasing is not side:
        return None
    last = scenario.last_turn if scenario.end == "short" else table_score_turn(game)
    if last is None:
        return None
    return last - state.turn if state.turn <= last else None


def swing(state: State, box: str, side: Side) -> int:
    """What taking ``box`` from the enemy moves the difference of the maxima by, for ``side`` (7.c: the
    loser's own-colour value goes, the captor's own-colour value comes); Washington wins the war for the
    Confederacy (11.b(1), not with A-6): ``WASHINGTON``."""
    b = state.board.boxes[box]
    if not b.is_recruiting_city or state.control[box] is side:
        return 0
    if box == "washington" and side is Side.CONFEDERATE and "A-6" not in state.options:
        return WASHINGTON  # 11.b(1): the war, not a point (a storm of it is never traded for cities)
    return b.value_for(side) + b.value_for(side.enemy)


def final_march(game: Game, actions: list[Action], keep=None):
    """The march of the last half-turn that moves the maxima most: ``(BeginMarch, {unit: box}, gain)``, or
    None when no march can move them. Empty cities first (one unit each, the weakest that reaches), then
    the units left storm a defended city together where odds x swing is largest. ``keep(origin)``: units a
    box keeps (before the last half-turn, its garrison; then none: nothing can answer)."""
    state = game.state
    side = state.phasing
    best = None
    for action in actions:
        if not isinstance(action, BeginMarch):
            continue
        origin = action.origin
        reach: dict[str, list[tuple]] = {}  # box -> [(unit, crossing)] of the units that can end there
        ready = [u for u in sorted(state.units_in(origin, side), key=lambda u: (u.type.value, u.id))]
        if keep is not None:  # the garrison stays: the strongest units
            spare = max(0, len(ready) - keep(origin))
            ready = ready[:spare]
        for unit in ready:
            if movement._ready(state, unit) is not None:
                continue
            for path, _ in movement.legal_paths(state, unit):
                end = path[-1]
                if swing(state, end, side) > 0:
                    reach.setdefault(end, []).append((unit, state.board.enters_over_water(end, path[-2])))
        if not reach:
            continue
        moves: dict[str, str] = {}
        gain = 0.0
        empty = sorted((box for box in reach if not state.has_units(box, side.enemy)),
                       key=lambda box: (-swing(state, box, side), box))
        for box in empty:
            unit = next((u for u, _ in reach[box] if u.id not in moves), None)
            if unit is not None:
                moves[unit.id] = box
                gain += swing(state, box, side)
        defended = [box for box in reach if state.has_units(box, side.enemy)]
        while defended:
            options = []
            for box in defended:
                movers = list({u.id: (u, c) for u, c in reach[box] if u.id not in moves}.values())
                if not movers:
                    continue
                attackers, defenders = attack_forces(state, box, side, movers)
                chance = _win_chance(tuple(sorted(attackers[:5])), tuple(sorted(defenders[:4])))
                options.append((chance * swing(state, box, side), box, movers))
            options = [o for o in options if o[0] > 0.25]
            if not options:
                break
            worth, box, movers = max(options, key=lambda o: (o[0], o[1]))
            moves.update({u.id: box for u, _ in movers})
            gain += worth
            defended.remove(box)
        if moves and (best is None or gain > best[2]):
            best = (action, moves, gain)
    return best

