"""Bots: they play whole games through the public API without an illegal action."""
from __future__ import annotations

import pytest

import ahd
from ahd.bots import RandomBot, make_bot, play
from ahd.bots.heuristic import HeuristicBot

SCENARIOS = ("1861", "short", "1862", "1863", "1864")


class Strict:
    """Wraps a bot: its every choice must be legal by ``why_not`` and listed in ``legal_actions``."""

    def __init__(self, bot):
        self.bot = bot
        self.moves = 0

    def choose(self, game):
        action = self.bot.choose(game)
        assert game.why_not(action) is None and action in game.legal_actions()
        self.moves += 1
        return action


GAMES = 12  # full games per bot and scenario


def play_strict(scenario, seed, union, confederate):
    game = ahd.new_game(scenario, seed=seed, options="pro-union" if seed % 5 == 2 else None)
    u, c = Strict(union), Strict(confederate)
    play(game, u, c)
    assert game.is_over and game.outcome.winner in (ahd.Side.UNION, ahd.Side.CONFEDERATE, None)
    assert u.moves and c.moves
    return game


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_heuristic_and_random_play_every_scenario(scenario):
    """12 full games each for the heuristic and the random bot (they play each other, both seats)."""
    for seed in range(GAMES):
        bots = (HeuristicBot(seed), RandomBot(seed))
        play_strict(scenario, seed, *(bots if seed % 2 else bots[::-1]))


def test_heuristic_union_beats_random():
    wins = 0
    for seed in range(10):
        game = ahd.new_game("1861", seed=100 + seed)
        play(game, HeuristicBot(seed), RandomBot(seed))
        wins += game.outcome.winner is ahd.Side.UNION
    assert wins >= 9


def test_make_bot():
    from ahd.bots.search import SearchBot
    assert isinstance(make_bot("heuristic", 1), HeuristicBot)
    assert isinstance(make_bot("random", 1), RandomBot)
    search = make_bot("search:iterations=3,candidates=4,horizon=2,depth=5,margin=0.02", 1)
    assert isinstance(search, SearchBot)
    assert (search.iterations, search.candidates, search.horizon, search.depth, search.margin) == (3, 4, 2, 5, 0.02)
    assert make_bot("search:searched=movement+march", 1).searched == ("movement", "march")
    assert make_bot("search", 1).seconds == 1.0
    with pytest.raises(ValueError, match="unknown player"):
        make_bot("napoleon")
    with pytest.raises(ValueError, match="bad search setting"):
        make_bot("search:depth")
    with pytest.raises(ValueError, match="bad search setting"):
        make_bot("search:speed=3")
    with pytest.raises(ValueError, match="bad value for iterations"):
        make_bot("search:iterations=many")
    with pytest.raises(ValueError, match="takes no settings"):
        make_bot("random:iterations=2")
    with pytest.raises(ValueError, match="iterations must be a positive"):
        make_bot("search:iterations=0")


def test_simulation_is_deterministic_across_workers_and_reports_intervals():
    from concurrent.futures import ThreadPoolExecutor
    one = ahd.simulate(6, scenario="short", union="heuristic", confederate="random", seed=5, workers=1)
    two = ahd.simulate(6, scenario="short", union="heuristic", confederate="random", seed=5, workers=2)
    with ThreadPoolExecutor(2) as pool:
        other = ahd.simulate(6, scenario="short", union="heuristic", confederate="random", seed=5, executor=pool)
    assert one.rows == two.rows == other.rows
    rate, low, high = one.win_rate("union")
    assert low <= rate <= high and 0 <= low and high <= 1
    assert all(r.maxima and r.final_turn <= 10 for r in one.rows)
    seen = []
    ahd.simulate(3, scenario="short", union="random", confederate="random", seed=1, progress=lambda d, n: seen.append((d, n)))
    assert seen[-1] == (3, 3)
    with pytest.raises(ValueError, match="unknown player"):
        ahd.simulate(2, union="napoleon")


# ---------------------------------------------------------------- 11.c: no level loses to a reversion it can see
def raid_at_chattanooga(*extra):
    """Union cavalry holds Chattanooga; both maxima 28 (Pittsburgh and Scranton Confederate): the
    cavalry leaving Chattanooga hands the Confederacy 29 against 28, and the war, at once (9.b, 11.c)."""
    from conftest import make_game
    game = make_game([("union", "CV", "chattanooga"), ("union", "MF", "chicago"), ("confederate", "MF", "atlanta"),
                      *extra], control={"confederate": ["pittsburgh", "scranton"]}, dice="auto", seed=3)
    assert (game.army_max(ahd.Side.UNION), game.army_max(ahd.Side.CONFEDERATE)) == (28, 28)
    return game


@pytest.mark.rule("11.c")
@pytest.mark.rule("9.b")
@pytest.mark.parametrize("level", ["easy", "normal", "hard", "heuristic", "search:iterations=2"])
def test_no_level_marches_its_raid_out_of_a_box_whose_reversion_loses_the_war(level):
    game = raid_at_chattanooga()
    bot = make_bot(level, seed=1)
    while not game.is_over and game.phasing is ahd.Side.UNION:
        game.apply(bot.choose(game))
    assert not game.is_over, game.log[-3:]
    assert game.controller("chattanooga") is ahd.Side.UNION and game.units_in("chattanooga")
    assert game.phasing is ahd.Side.CONFEDERATE           # the Union half-turn was played out


@pytest.mark.rule("11.c")
def test_a_raid_with_company_may_still_ride_on_and_a_lost_cause_is_played_anyway():
    from ahd.bots.base import fatal_boxes, without_losing_moves
    # a second cavalry unit stays behind and keeps Chattanooga: the first one's moves are not losing
    game = raid_at_chattanooga(("union", "CV", "chattanooga"))
    game.apply(ahd.BeginMarch("chattanooga"))
    assert fatal_boxes(game) == {"chattanooga"}
    moves = [a for a in game.legal_actions() if a.kind == "move" and a.unit == "U-CV-01"]
    assert moves and set(moves) <= set(without_losing_moves(game, game.legal_actions()))
    # alone there, every order of the march loses: the list is left whole (some action must be played)
    alone = raid_at_chattanooga()
    alone.apply(ahd.BeginMarch("chattanooga"))
    alone.apply(ahd.Entrench("U-CV-01"))
    alone.apply(ahd.BeginMarch("chattanooga"))
    orders = alone.legal_actions()
    assert orders and all(a.kind == "move" for a in orders)
    assert without_losing_moves(alone, orders) == orders
