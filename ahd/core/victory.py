"""Victory (§10, §11, §12 = S-12, §13 = S-13)."""
from __future__ import annotations

from .board import VICTORY_CITIES
from .calendar import LAST_TURN
from .sides import Side
from .state import Outcome, State

SHORT_GAME_MARGIN = 5

#: T-8: scenario scored after this turn -> the difference D (Union max − Confederate max) of a draw.
SCORE_TABLE = {17: 8, 27: 12, 37: 16}
#: T-8 bands, from D = draw + 3 and above down to D = draw − 3 and below.
BANDS = ((3, Side.UNION, "Union victory"), (2, Side.UNION, "Union advantage"), (1, Side.UNION, "Union edge"),
         (0, None, "historical result (draw)"), (-1, Side.CONFEDERATE, "Confederate edge"),
         (-2, Side.CONFEDERATE, "Confederate advantage"), (-3, Side.CONFEDERATE, "Confederate victory"))


def scenario_score(state: State, score_turn: int) -> Outcome:
    """S-VT / T-8: score D = Union max − Confederate max on the scenario's row."""
    d = state.army_max(Side.UNION) - state.army_max(Side.CONFEDERATE)
    offset = max(-3, min(3, d - SCORE_TABLE[score_turn]))
    _, winner, level = next(b for b in BANDS if b[0] == offset)
    return Outcome(winner, "S-VT", f"{level}: the Union maximum exceeds the Confederate by {d} "
                                   f"(a draw is {SCORE_TABLE[score_turn]})", state.turn, level)


def check_update(state: State, half_end: bool = True) -> Outcome | None:
    """11.c: the checks after a control change: 11.a, 11.b(1), 11.b(2); S-12 limits the latter two
    to updates ending a Union half-turn; if both sides qualify, the phasing player wins.
    ``half_end``: the 9.a update at the end of a half-turn (False: a 9.b reversion during it)."""
    if "H-4" in state.options:  # six of the seven, Richmond included
        union = state.victory_cities_held() >= 6 and state.control["richmond"] is Side.UNION
    else:
        union = state.controls_all(Side.UNION, VICTORY_CITIES)
    confederate_checks = "S-12" not in state.options or (half_end and state.phasing is Side.UNION)
    washington = (confederate_checks and "A-6" not in state.options  # Washington no longer wins
                  and state.control["washington"] is Side.CONFEDERATE)
    maxima = confederate_checks and state.army_max(Side.CONFEDERATE) > state.army_max(Side.UNION)
    u_max, c_max = state.army_max(Side.UNION), state.army_max(Side.CONFEDERATE)
    candidates = []
    if union:
        if "H-4" in state.options:
            candidates.append(Outcome(Side.UNION, "H-4", f"the Union controls {state.victory_cities_held()} of the "
                                                         f"seven Confederate cities, Richmond included", state.turn))
        else:
            candidates.append(Outcome(Side.UNION, "11.a", "the Union controls all seven Confederate cities "
                                                          "(New Orleans, Mobile, Atlanta, Memphis, Charleston, "
                                                          "Wilmington, Richmond)", state.turn))
    if washington:
        candidates.append(Outcome(Side.CONFEDERATE, "11.b", "the Confederacy controls Washington", state.turn))
    elif maxima:
        candidates.append(Outcome(Side.CONFEDERATE, "11.b",
                                  f"the Confederate army maximum ({c_max}) exceeds the Union's ({u_max})", state.turn))
    if not candidates:
        return None
    if len(candidates) > 1:
        winner = next(o for o in candidates if o.winner is state.phasing)
        return Outcome(winner.winner, "11.c", f"{winner.reason}; both sides qualified at once and the "
                                              f"phasing player wins", state.turn)
    return candidates[0]


def check_end_of_turn(state: State, last_turn: int, short_game: bool) -> Outcome | None:
    """After the Confederate half: S-13 at its last turn, 11.b(3) at turn 40."""
    if short_game and state.turn >= last_turn:
        u_max, c_max = state.army_max(Side.UNION), state.army_max(Side.CONFEDERATE)
        if u_max >= c_max + SHORT_GAME_MARGIN:
            return Outcome(Side.UNION, "13", f"short game over: the Union maximum ({u_max}) is at least "
                                             f"{SHORT_GAME_MARGIN} above the Confederate ({c_max})", state.turn)
        return Outcome(Side.CONFEDERATE, "13", f"short game over: the Union maximum ({u_max}) is not "
                                               f"{SHORT_GAME_MARGIN} above the Confederate ({c_max})", state.turn)
    if state.turn >= LAST_TURN:
        return Outcome(Side.CONFEDERATE, "11.b", "turn 40 ended without a Union victory", state.turn)
    return None
