"""Bots: they play whole games through the public API without an illegal action."""
from __future__ import annotations

import pytest

import ahd
from ahd.bots import RandomBot, make_bot, play
from ahd.heuristic import HeuristicBot

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


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_heuristic_and_random_play_every_scenario(scenario):
    for seed in range(3):
        for union, confederate in ((HeuristicBot(seed), RandomBot(seed)), (RandomBot(seed), HeuristicBot(seed))):
            game = ahd.new_game(scenario, seed=seed, options="pro-union" if seed == 2 else None)
            u, c = Strict(union), Strict(confederate)
            play(game, u, c)
            assert game.is_over and u.moves and c.moves


def test_heuristic_union_beats_random():
    wins = 0
    for seed in range(10):
        game = ahd.new_game("1861", seed=100 + seed)
        play(game, HeuristicBot(seed), RandomBot(seed))
        wins += game.outcome.winner is ahd.Side.UNION
    assert wins >= 9


def test_make_bot():
    assert isinstance(make_bot("heuristic", 1), HeuristicBot)
    assert isinstance(make_bot("random", 1), RandomBot)
    with pytest.raises(ValueError, match="unknown player"):
        make_bot("napoleon")


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
