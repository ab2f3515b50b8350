"""Victory (§10, §11, §12 = S-12, §13 = S-13)."""
from __future__ import annotations

from .board import VICTORY_CITIES
from .calendar import LAST_TURN
from .i18n import Joined, Msg, Term
from .sides import Side
from .state import Outcome, State

SHORT_GAME_MARGIN = 5

#: T-8: scenario scored after this turn -> the difference D (Union max − Confederate max) of a draw.
SCORE_TABLE = {17: 8, 27: 12, 37: 16}
#: T-8 bands, from D = draw + 3 and above down to D = draw − 3 and below.
BANDS = ((3, Side.UNION, "Union victory"), (2, Side.UNION, "Union advantage"), (1, Side.UNION, "Union edge"),
         (0, None, "historical result (draw)"), (-1, Side.CONFEDERATE, "Confederate edge"),
         (-2, Side.CONFEDERATE, "Confederate advantage"), (-3, Side.CONFEDERATE, "Confederate victory"))
#: The T-8 levels in each language (``Outcome.level`` stays the English key).
LEVEL_TERMS = {
    "Union victory": Term("result", "Union victory"), "Union advantage": Term("result", "Union advantage"),
    "Union edge": Term("result", "Union edge"), "historical result (draw)": Term("result", "historical result (draw)"),
    "Confederate edge": Term("result", "Confederate edge"),
    "Confederate advantage": Term("result", "Confederate advantage"),
    "Confederate victory": Term("result", "Confederate victory"),
}


def _cities(state: State):
    """The seven Confederate cities (11.a), named in the message's language."""
    return Joined((state.board.term(box) for box in VICTORY_CITIES), ", ")


def scenario_score(state: State, score_turn: int) -> Outcome:
    """S-VT / T-8: score D = Union max − Confederate max on the scenario's row."""
    d = state.army_max(Side.UNION) - state.army_max(Side.CONFEDERATE)
    offset = max(-3, min(3, d - SCORE_TABLE[score_turn]))
    _, winner, level = next(b for b in BANDS if b[0] == offset)
    return Outcome(winner, "S-VT", Msg("{level}: the Union maximum exceeds the Confederate by {d} (a draw is {draw})",
                                       level=LEVEL_TERMS[level], d=d, draw=SCORE_TABLE[score_turn]), state.turn, level)


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
            candidates.append(Outcome(Side.UNION, "H-4", Msg("the Union controls {n} of the seven Confederate "
                                                             "cities, Richmond included",
                                                             n=state.victory_cities_held()), state.turn))
        else:
            candidates.append(Outcome(Side.UNION, "11.a", Msg("the Union controls all seven Confederate cities "
                                                              "({cities})", cities=_cities(state)), state.turn))
    if washington:
        candidates.append(Outcome(Side.CONFEDERATE, "11.b", Msg("the Confederacy controls Washington"), state.turn))
    elif maxima:
        candidates.append(Outcome(Side.CONFEDERATE, "11.b",
                                  Msg("the Confederate army maximum ({c_max}) exceeds the Union's ({u_max})",
                                      c_max=c_max, u_max=u_max), state.turn))
    if not candidates:
        return None
    if len(candidates) > 1:
        winner = next(o for o in candidates if o.winner is state.phasing)
        return Outcome(winner.winner, "11.c", Msg("{reason}; both sides qualified at once and the phasing player wins",
                                                  reason=winner.message), state.turn)
    return candidates[0]


def check_end_of_turn(state: State, last_turn: int, short_game: bool) -> Outcome | None:
    """After the Confederate half: S-13 at its last turn, 11.b(3) at turn 40."""
    if short_game and state.turn >= last_turn:
        u_max, c_max = state.army_max(Side.UNION), state.army_max(Side.CONFEDERATE)
        if u_max >= c_max + SHORT_GAME_MARGIN:
            return Outcome(Side.UNION, "13", Msg("short game over: the Union maximum ({u_max}) is at least {margin} "
                                                 "above the Confederate ({c_max})", u_max=u_max, c_max=c_max,
                                                 margin=SHORT_GAME_MARGIN), state.turn)
        return Outcome(Side.CONFEDERATE, "13", Msg("short game over: the Union maximum ({u_max}) is not {margin} "
                                                   "above the Confederate ({c_max})", u_max=u_max, c_max=c_max,
                                                   margin=SHORT_GAME_MARGIN), state.turn)
    if state.turn >= LAST_TURN:
        return Outcome(Side.CONFEDERATE, "11.b", Msg("turn 40 ended without a Union victory"), state.turn)
    return None
