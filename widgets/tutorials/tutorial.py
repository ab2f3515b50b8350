"""Helpers for the tutorial notebooks: a position on the live map, and exercises that check themselves.

    from ahd.core.positions import position_game
    from widgets.tutorials import tutorial
    game = position_game([("union", "MF", "evansville", 3)], control={"union": ["louisville"]})
    tutorial.show(game)                 # the playable board (map, panel, charts) on that position

    ex = tutorial.jump_exercise()       # a position and a goal
    ex                                  # the task, the board and a verdict that follows the play:
                                        # ✓, "not done yet: ..." or "✗ ..." after every change of the game
    ex.check()                          # the same verdict, in code

    q = tutorial.forts_question(game)
    q                                   # a box to type the answer in, checked as it is typed
    q.check({"Washington", ...})        # or answered in code

The exercises check themselves when the game changes, so they work where code is hidden (voila) as well
as in Jupyter. A check never raises when the reader has not acted: it says "not done yet". The goals read
the game through its public interface only; the engine decides every rule.
"""
from __future__ import annotations

# the notebooks' one import (``from widgets.tutorials import tutorial``): the helpers live by meaning in
# board_views, battle_reading, exercises, questions and tables
from widgets.tutorials.answers import Question, Verdict, parse_answer  # noqa: F401
from widgets.tutorials.board_views import (  # noqa: F401
    side_name, session, MapOnly, show, SIDE_NAMES)
from widgets.tutorials.battle_reading import (  # noqa: F401
    next_shot, misses_until, modifier_battle, effective_values, fight_days)
from widgets.tutorials.exercises import (  # noqa: F401
    Exercise, jump_exercise, entrench_exercise, reinforcement_exercise, recruitment_exercise, capture_exercise,
    supply_exercise, leader_split_exercise, raid_game, withdrawal_exercise, catch_raider_exercise, RAID_BOX)
from widgets.tutorials.questions import (  # noqa: F401
    forts_question, values_question, maximum_question, options_question, winter_turns_question,
    first_turn_marches_question, washington_battle, reinforcement_count_question)
from widgets.tutorials.tables import (  # noqa: F401
    setup_rows, counter_mix, calendar_rows, table, calendar_grid)

__all__ = [
    "session", "show", "MapOnly", "next_shot", "misses_until", "modifier_battle", "effective_values", "Verdict",
    "Question", "Exercise", "forts_question", "values_question", "maximum_question", "jump_exercise",
    "entrench_exercise", "reinforcement_exercise", "recruitment_exercise", "capture_exercise",
    "options_question", "fight_days", "supply_exercise", "leader_split_exercise", "setup_rows", "counter_mix",
    "calendar_rows", "table", "calendar_grid", "winter_turns_question", "first_turn_marches_question",
    "raid_game", "withdrawal_exercise", "catch_raider_exercise", "washington_battle",
    "reinforcement_count_question", "side_name"]
