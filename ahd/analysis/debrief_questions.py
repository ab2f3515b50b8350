"""Discussion questions from what happened in one game (three to five), for ``ahd.analysis.debrief``."""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.board import default_board
from ..core.i18n import Msg, Msgn
from ..core.sides import Side

if TYPE_CHECKING:
    from .debrief import Debrief

MIN_QUESTIONS, MAX_QUESTIONS = 3, 5
#: Turns (about half a year) by which a city must fall earlier or later than in the real war to be asked about.
GAP = 4


#: Questions for any game, asked when the game itself gives fewer than three.
GENERAL = (
    Msg("Look at the army maxima chart: when did one side pull ahead, and what happened on the board just before?"),
    Msg("Pick one city of the table that fell at a very different time in your game and in the real war. What "
        "explains the difference: the rules, the players, or chance?"),
    Msg("What does the game leave out of the real war (training new armies, finding generals, supply, politics and "
        "elections)? Which of them would have changed your game the most?"),
)


def questions(d: "Debrief") -> tuple[Msg, ...]:
    """Questions about this game's turning points set against the real war, most telling first."""
    board = default_board()
    out: list[Msg] = []
    cities = [c for c in d.comparisons if c.history.kind in ("city", "river") and c.history.box is not None]
    early = [c for c in cities if c.game_turn is not None and c.game_turn <= c.history.turn - GAP]
    if early:
        c = max(early, key=lambda c: c.history.turn - c.game_turn)
        out.append(Msg("Your Union took {city} on turn {turn}, {n} turns before the real Union did ({date}). What "
                       "made that possible in the game, and what did the real Union lack at that time?",
                       city=board.term(c.history.box), turn=c.game_turn, n=c.history.turn - c.game_turn,
                       date=c.history.when))
    late = [c for c in cities if c.history.turn + GAP <= d.last_turn and c.history.box not in d.union_at_start
            and (c.game_turn is None or c.game_turn >= c.history.turn + GAP)]
    if late:
        c = late[0]
        if c.game_turn is None:
            out.append(Msg("The real Union took {city} on {date} (turn {real}); in your game it was never taken by the "
                           "Union (turn {turn} reached). What held it, on the board and in the war?",
                           city=board.term(c.history.box), date=c.history.when, real=c.history.turn, turn=d.last_turn))
        else:
            out.append(Msg("The real Union took {city} on {date} (turn {real}); your Union took it only on turn {turn}. "
                           "What held it, on the board and in the war?", city=board.term(c.history.box),
                           date=c.history.when, real=c.history.turn, turn=c.game_turn))
    washington = ([p for p in d.points if p.captures_washington]
                  or [p for p in d.points if p.kind == "washington" and p.side is Side.CONFEDERATE])
    if washington:
        p = washington[0]
        out.append(Msg("On turn {turn} of your game: {event}. The real Confederacy never took Washington, though "
                       "Early's raid reached its forts in July 1864. Why did both sides care so much about the capital?",
                       turn=p.turn, event=p.message))
    if d.battles:
        b = max(d.battles, key=lambda b: (b.engaged, b.lost))
        out.append(Msgn("The largest battle of your game was at {box} on turn {turn}: {engaged} units engaged, {lost} "
                        "eliminated. Compare it with Gettysburg (1–3 July 1863), the largest of the real war: what did "
                        "a battle of that size cost, in the game and in the war?",
                        "The largest battle of your game was at {box} on turn {turn}: {engaged} units engaged, {lost} "
                        "eliminated. Compare it with Gettysburg (1–3 July 1863), the largest of the real war: what did "
                        "a battle of that size cost, in the game and in the war?", n=b.lost,
                        box=board.term(b.box), turn=b.turn, engaged=b.engaged, lost=b.lost))
    raids = [p for p in d.points if p.kind == "raid"]
    if raids:
        out.append(Msg("Cavalry raids held {n} enemy cities in your game (9.b). What could a raid achieve in the game, "
                       "and what did real raids, such as Morgan's in July 1863, achieve?", n=len({p.box for p in raids})))
    if d.outcome is not None:
        if d.outcome.winner is Side.UNION:
            out.append(Msg("Your Union won on turn {turn}; the real war ended in April 1865 (turn 38). Which of your "
                           "decisions made the difference, and which did the real generals not have?",
                           turn=d.outcome.turn))
        elif d.outcome.rule == "11.b" and d.outcome.turn >= 40:
            out.append(Msg("Your game reached turn 40 (June 1865) without a Union victory, while the real war was over "
                           "in April 1865. What did the real Union have that yours did not?"))
        else:
            out.append(Msg("Your game ended on turn {turn}: {reason}. What does the army maximum stand for, and why "
                           "did the recruiting cities matter so much?", turn=d.outcome.turn, reason=d.outcome.message))
    for general in GENERAL:   # a game with little to say yet: questions that fit any game
        if len(out) >= MIN_QUESTIONS:
            break
        out.append(general)
    return tuple(out[:MAX_QUESTIONS])
