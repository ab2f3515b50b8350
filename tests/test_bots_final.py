"""The last half-turn of a game scored on the army maxima (``ahd.bots.final``; hard's Confederacy, issue 34)."""
from __future__ import annotations

import ahd
from ahd.bots import make_bot
from ahd.bots.final import final_march, scored_last_half, swing, turns_to_score
from ahd.core.positions import pass_until, position_game
from ahd.core.sides import Side

UNITS = [("union", "FV", "washington", 4), ("confederate", "FV", "goldsboro", 2), ("confederate", "FV", "richmond", 3)]
CONTROL = {"union": ["wilmington"]}


def confederate_movement(end: str):
    game = position_game(UNITS, control=CONTROL, turn=10, last_turn=10 if end == "short" else 40, end=end, marches=3)
    pass_until(game, lambda g: g.state.phasing is Side.CONFEDERATE and g.decision == "movement")
    return game


def test_the_last_half_turn_of_the_short_game_takes_the_empty_cities_that_move_the_maxima():
    game = confederate_movement("short")
    assert scored_last_half(game) and turns_to_score(game) == 0
    state = game.state
    assert swing(state, "wilmington", Side.CONFEDERATE) == 2  # the Confederacy's value back (7.c)
    action, moves, gain = final_march(game, game.legal_actions())
    assert action == ahd.BeginMarch("goldsboro") and list(moves.values()) == ["wilmington"] and gain == 2
    assert len(moves) == 1  # one unit is enough for an empty city
    bot = make_bot("search:iterations=1,final=on", 1)
    assert bot.choose(game) == action  # the search keeps it: nothing answers this half-turn


def test_a_campaign_game_has_no_last_scored_half_turn():
    game = confederate_movement("campaign")
    assert not scored_last_half(game) and turns_to_score(game) is None


def test_the_last_half_turn_storms_washington_before_taking_cities():
    """A storm of Washington wins the war (11.b(1)): the last march never trades it for a city (held-out seed
    960000 of the short game: the Confederacy took Washington on the last turn, until a first version of the
    last march sent the stack after cities instead)."""
    units = [("union", "MF", "washington", 1), ("confederate", "FV", "harpers_ferry", 6),
             ("confederate", "FV", "goldsboro", 1)]
    game = position_game(units, control=CONTROL, turn=10, last_turn=10, end="short", marches=3)
    pass_until(game, lambda g: g.state.phasing is Side.CONFEDERATE and g.decision == "movement")
    assert swing(game.state, "washington", Side.CONFEDERATE) > 50
    action, moves, _ = final_march(game, game.legal_actions())
    assert action == ahd.BeginMarch("harpers_ferry") and "washington" in moves.values()


def test_the_unions_half_of_the_scored_turn_grabs_a_city_keeping_the_garrison():
    """``final_union=on`` (hard's Union, issue 34): in the Union's half-turn of the turn scored, with no storm of
    its plan to make, a march takes the empty enemy-held city that moves the maxima (Bowling Green, neutral,
    worth 1), one unit going and the garrison staying (the South answers); a turn earlier, or in a campaign
    game, the setting changes nothing."""
    units = [("union", "FV", "washington", 6), ("union", "FV", "nashville", 3),
             ("confederate", "FV", "richmond", 9), ("confederate", "FV", "chattanooga", 3)]
    grab = make_bot("search:garrison=shared,lookahead=off,final_union=on", 1)
    game = position_game(units, control={"union": ["nashville"]}, turn=10, last_turn=10, end="short", marches=3)
    assert turns_to_score(game, Side.UNION) == 0 and turns_to_score(game) is None
    assert swing(game.state, "bowling_green", Side.UNION) == 1
    assert grab.choose(game.copy()) == ahd.BeginMarch("nashville")
    assert grab.orders.moves == {"U-FV-07": "bowling_green"}  # one of three: two stay in Nashville
    for end, last in (("short", 11), ("campaign", 40)):
        game = position_game(units, control={"union": ["nashville"]}, turn=10, last_turn=last, end=end, marches=3)
        plain, grab = (make_bot(f"search:garrison=shared,lookahead=off{extra}", 1) for extra in ("", ",final_union=on"))
        assert grab.choose(game.copy()) == plain.choose(game.copy()) and grab.orders == plain.orders


def test_the_unions_last_half_turn_keeps_its_plans_storm():
    """The plan's storm of Richmond is kept in the Union's half of the scored turn (tuning seed 972006 of 1862:
    the grabs had taken the marches of a 15-unit storm that won the game)."""
    units = [("union", "FV", "washington", 4), ("union", "FV", "fredericksburg", 8),
             ("confederate", "FV", "richmond", 3), ("union", "FV", "goldsboro", 2)]
    game = position_game(units, control={"union": ["goldsboro", "fredericksburg"]}, turn=10, last_turn=10,
                         end="short", marches=3)
    bot = make_bot("search:garrison=shared,lookahead=off,final_union=on", 1)
    assert bot.choose(game.copy()) == ahd.BeginMarch("fredericksburg")
    assert set(bot.orders.moves.values()) == {"richmond"} and len(bot.orders.moves) == 8
