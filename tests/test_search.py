"""The search bot (issue 5): legal play, its budget, determinism, settings."""
from __future__ import annotations

import pytest

import ahd
from ahd.bots import RandomBot, play
from ahd.bots.search import SEARCHED, SearchBot, SearchError
from conftest import units_at
from test_bots import GAMES, SCENARIOS, Strict, play_strict


def tiny(seed):
    """A tiny budget: two options, one dice sample, scored right after the option is played; march
    orders left to the heuristic (the determinism test searches them)."""
    return SearchBot(seed, iterations=1, candidates=2, depth=0, searched=("movement", "battle_options"))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_search_plays_every_scenario(scenario):
    """Full games per scenario (tests/test_bots.GAMES) with a tiny budget, against the random bot, both seats."""
    searched = 0
    for seed in range(GAMES):
        bot = tiny(seed)
        play_strict(scenario, seed, *((bot, RandomBot(seed)) if seed % 2 else (RandomBot(seed), bot)))
        searched += bot.stats["searched"]
    assert searched > GAMES  # it did search, not just defer to the heuristic


def test_search_is_deterministic_with_an_iteration_budget_and_never_sees_the_real_dice():
    def run():
        game = ahd.new_game("short", seed=3)
        bot, other = SearchBot(7, iterations=1, candidates=2, horizon=1, depth=6, searched=SEARCHED), RandomBot(8)
        choices = []
        while len(choices) < 40 and not game.is_over:
            if game.current_player == ahd.CHANCE:
                game.roll()
            elif game.current_player is ahd.Side.CONFEDERATE:
                game.apply(other.choose(game))
            else:
                history, dice = game.history, game._rng.bit_generator.state
                choice = bot.choose(game)
                # choosing leaves the real game and its dice untouched
                assert game.history == history and game._rng.bit_generator.state == dice
                choices.append(choice)
                game.apply(choice)
        return choices, bot.stats["rollouts"]
    first, rollouts = run()
    assert rollouts > 0
    assert run() == (first, rollouts)


def test_time_budget_is_kept():
    import time
    game = ahd.new_game("1861", seed=2)
    bot = SearchBot(1, seconds=0.3, candidates=3)
    while game.decision != "movement" or game.current_player != ahd.Side.UNION:
        game.roll() if game.current_player == ahd.CHANCE else game.apply(game.legal_actions()[0])
    start = time.perf_counter()
    action = bot.choose(game)
    elapsed = time.perf_counter() - start
    assert game.why_not(action) is None
    assert bot.stats["searched"] == 1 and bot.stats["rollouts"] >= 3  # at least one whole round
    assert elapsed < 0.3 + 1.5  # the budget, plus at most about one round of continuations (loaded CI)


def test_trivial_decisions_are_answered_at_once():
    class OneOption:
        decision = "movement"

        def legal_actions(self):
            return [ahd.EndMovement()]
    bot = SearchBot(1, iterations=50)
    assert bot.choose(OneOption()) == ahd.EndMovement() and bot.stats["rollouts"] == 0
    # decisions it does not search (promotion, recruitment...) get the heuristic's answer, no rollouts
    from ahd.bots.heuristic import HeuristicBot
    game = ahd.new_game("1861", seed=4)
    seen = set()
    while len(seen) < 2 and not game.is_over:
        if game.current_player == ahd.CHANCE:
            game.roll()
            continue
        if game.decision in ("promotion", "recruitment") and len(game.legal_actions()) > 1:
            seen.add(game.decision)
            assert bot.choose(game) == HeuristicBot(1).choose(game)
        game.apply(HeuristicBot(2).choose(game))
    assert seen == {"promotion", "recruitment"} and bot.stats["rollouts"] == 0


@pytest.mark.parametrize("kwargs, message", [
    (dict(iterations=0), "iterations"),
    (dict(iterations=None, seconds=0), "time budget"),
    (dict(candidates=0), "candidates"),
    (dict(horizon=0), "horizon"),
    (dict(depth=-1), "depth"),
    (dict(searched=("recruitment",)), "cannot search"),
])
def test_bad_settings(kwargs, message):
    with pytest.raises(SearchError, match=message):
        SearchBot(1, **kwargs)
    assert issubclass(SearchError, ValueError) and issubclass(SearchError, ahd.AhdError)


def test_finished_game_is_refused():
    game = ahd.new_game("short", seed=1)
    play(game, RandomBot(1), RandomBot(2))
    with pytest.raises(ValueError, match="game is over"):
        tiny(1).choose(game)
