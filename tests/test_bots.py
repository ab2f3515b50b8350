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
