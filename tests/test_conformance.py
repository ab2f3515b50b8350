"""Conformance: seeded random games to the end, with the invariants checked after every action.

Invariants (issue 2): every unit in exactly one place; map + pools + reserve + out = counter mix;
army maxima equal a recomputation from control; the game record replays to an identical state
(checked incrementally after every action, and by a full reload at the end); no game exceeds
40 turns; every game ends with an outcome. Also: the cached legal actions equal a fresh computation.
"""
from __future__ import annotations

import pytest

import ahd
from ahd.bots import RandomBot
from ahd.core.sides import CHANCE, Side
from ahd.core.units import MILITIA_MIX

from conftest import snapshot

GAMES = 100  # scripts/conformance.py plays more (minutes), for the issue notes
CONFIGS = [("1861", None), ("1861", "novice-union"), ("short", None), ("short", "novice-union")]


def recomputed_maxima(game: ahd.Game) -> dict[Side, int]:
    maxima = {Side.UNION: 0, Side.CONFEDERATE: 0}
    for box in game.board:
        owner = game.controller(box.id)
        if owner is not None:
            maxima[owner] += box.value_for(owner)
    maxima[Side.UNION] -= game.state.washington_penalty
    return maxima


def check_invariants(game: ahd.Game) -> None:
    state = game.state
    assert not state.counter_mix_ok(), state.counter_mix_ok()
    places = {"map": 0, "pool": 0, "reserve": 0, "out": 0, "europe": 0, "aside": 0}
    for side in Side:
        for where in places:
            places[where] += len(game.units(side, where))
        militia = {code: sum(1 for u in state.units.values() if u.side is side and u.type.code == code)
                   for code in MILITIA_MIX[side]}
        assert militia == state.militia_mix()[side]  # 1.3.a, + AO-8.3 successes
    assert sum(places.values()) == len(state.units), "a unit is in no place or in two"
    maxima = recomputed_maxima(game)
    for side in Side:
        assert game.army_max(side) == maxima[side]
    assert 1 <= game.turn.number <= 40
    if not game.is_over:
        legal = game.legal_actions()
        assert legal, f"no legal action at {game.decision}"
        if game.current_player != CHANCE:
            assert legal == game._engine.legal_uncached()


def play_checked(seed: int, scenario: str, options) -> ahd.Game:
    game = ahd.new_game(scenario, options=options, seed=seed)
    shadow = ahd.Game.from_json(game.to_json())
    bots = {Side.UNION: RandomBot(seed * 2 + 1), Side.CONFEDERATE: RandomBot(seed * 2 + 2)}
    replayed = len(game.history)
    check_invariants(game)
    while not game.is_over:
        game.apply(bots[game.current_player].choose(game))
        check_invariants(game)
        # the record written so far replays onto the shadow game to the very same state
        records = game.record_actions(replayed)
        shadow.extend(records)  # each action checked in its position (IllegalActionError if refused)
        replayed += len(records)
        assert snapshot(shadow) == snapshot(game)
    return game


@pytest.mark.rule("3.b")
@pytest.mark.rule("10")
@pytest.mark.parametrize("block", range(10))
def test_random_games_keep_every_invariant(block):
    per_block = GAMES // 10
    for seed in range(block * per_block, (block + 1) * per_block):
        scenario, options = CONFIGS[seed % len(CONFIGS)]
        game = play_checked(seed, scenario, options)
        assert game.outcome is not None
        assert game.outcome.winner in (Side.UNION, Side.CONFEDERATE)
        assert game.outcome.turn <= (10 if scenario == "short" else 40)
        reloaded = ahd.Game.from_json(game.to_json())
        assert snapshot(reloaded) == snapshot(game)
        assert [str(e) for e in reloaded.log] == [str(e) for e in game.log]


OPTION_GAMES = 60
SCENARIOS = ("1861", "short", "1862", "1863", "1864")


def random_options(seed: int) -> list[str]:
    import numpy as np
    from ahd.core.options import SWITCHES
    rng = np.random.default_rng(10_000 + seed)
    return sorted(rule for rule in SWITCHES if rng.random() < 0.5)


@pytest.mark.rule("S-0")
@pytest.mark.parametrize("block", range(10))
def test_random_games_with_options_keep_every_invariant(block):
    per_block = OPTION_GAMES // 10
    for seed in range(block * per_block, (block + 1) * per_block):
        scenario = SCENARIOS[seed % len(SCENARIOS)]
        options = random_options(seed)
        game = play_checked(seed, scenario, options)
        assert game.outcome is not None
        assert game.outcome.turn <= ahd.load_scenario(scenario).last_turn
        assert ahd.Game.from_json(game.to_json()).options.to_list() == options


def test_same_seed_same_game():
    def run(seed):
        game = ahd.new_game("short", seed=seed)
        from ahd.bots import play
        play(game, RandomBot(7), RandomBot(8))
        return game.to_json(), [str(e) for e in game.log]
    assert run(11) == run(11)
    assert run(11) != run(12)
