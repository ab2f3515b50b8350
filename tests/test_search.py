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
    """30 full games per scenario with a tiny budget, against the random bot, both seats."""
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


def test_assault_plans_send_the_whole_stack_where_one_unit_would_lose():
    """The heuristic weighs one unit's attack alone; the search bot also tries the whole stack's."""
    from conftest import make_game
    from ahd.odds import battle_odds
    from ahd.bots.campaign import Orders, follow
    game = make_game([("union", "MF", "fort_smith", 4), ("confederate", "MF", "little_rock", 2, True)])
    mf = "MF:crossing" if game.state.board.enters_over_water("little_rock", "fort_smith") else "MF"
    alone = battle_odds([mf], ["MF:entrenched"] * 2).attacker_wins
    together = battle_odds([mf] * 4, ["MF:entrenched"] * 2).attacker_wins
    assert alone < 0.05 < 0.5 < together
    bot = SearchBot(1, iterations=1, assaults=2, assault_odds=0.5)
    actions = game.legal_actions()
    plans = bot._assault_plans(game, actions, [ahd.EndMovement()])
    plan = plans[ahd.BeginMarch("fort_smith")]
    assert set(plan.moves.values()) == {"little_rock"} and len(plan.moves) == 4
    assert SearchBot(1, iterations=1, assaults=2, assault_odds=together + 0.01)._assault_plans(game, actions, []) == {}
    assert SearchBot(1, iterations=1, assaults=0)._assault_plans(game, actions, []) == {}
    # carried out order by order: every unit that can reach the enemy goes, then the march ends
    game.apply(ahd.BeginMarch("fort_smith"))
    bot.orders = plan
    while game.decision == "march":
        action = bot.choose(game)
        assert action == follow(plan, game)
        game.apply(action)
    assert len(units_at(game, "little_rock", ahd.Side.UNION)) == 4 and not units_at(game, "fort_smith")


def test_assault_settings_are_checked():
    with pytest.raises(SearchError, match="assaults"):
        SearchBot(1, assaults=-1)
    with pytest.raises(SearchError, match="assault_odds"):
        SearchBot(1, assault_odds=1.5)
    from ahd.bots import make_bot
    assert make_bot("search:assaults=0,assault_odds=0.7", 1).assault_odds == 0.7
    assert SearchBot(1).assaults == 0  # off unless asked for
