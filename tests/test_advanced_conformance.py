"""Conformance of the advanced game: 72 seeded random games over every scenario with random
combinations of the advanced and advanced optional switches (and some optional and house ones),
played to the end by random players.

After every action cheap invariants are checked (counter mix incl. AO-8.3 militia, every unit in one
place, army maxima incl. the A-6 penalty, coastal defences only inside their battle, leaders never
units, foreign units never counted, a legal action always available); at the end the full record is
replayed and must reproduce the game exactly. A game that does not end within a generous number of
actions is a stall.
"""
from __future__ import annotations

import numpy as np
import pytest

import ahd
from ahd.bots import RandomBot
from ahd.core.leaders import OFF, REMOVED
from ahd.core.options import SWITCHES
from ahd.core.sides import CHANCE, Side

from conftest import snapshot

GAMES = 72  # scripts/conformance.py plays more (minutes), for the issue notes
BLOCKS = 6
SCENARIOS = ("1861", "short", "1862", "1863", "1864")
ADVANCED = sorted(rule for rule in SWITCHES if rule.startswith("A"))
OTHERS = sorted(rule for rule in SWITCHES if not rule.startswith("A"))
MAX_ACTIONS = 30_000


def options_for(seed: int) -> list[str]:
    rng = np.random.default_rng(40_000 + seed)
    chosen = [rule for rule in ADVANCED if rng.random() < 0.6] + [rule for rule in OTHERS if rng.random() < 0.3]
    return sorted(chosen)


def check(game: ahd.Game) -> None:
    state = game.state
    problems = state.counter_mix_ok()
    assert not problems, problems
    places = ("map", "pool", "reserve", "out", "europe", "aside")
    assert sum(len(game.units(side, where)) for side in Side for where in places) == len(state.units)
    maxima = {Side.UNION: -state.washington_penalty, Side.CONFEDERATE: 0}
    for box in game.board:
        owner = state.control[box.id]
        if owner is not None:
            maxima[owner] += box.value_for(owner)
    assert {side: game.army_max(side) for side in Side} == maxima
    coastal = [u for u in state.units.values() if u.is_coastal]
    assert not coastal or (state.battle is not None and [u.id for u in coastal] == [state.battle.coastal])
    for leader in state.leaders.values():
        assert leader.location in (OFF, REMOVED) or leader.location in state.board
        assert leader.name not in state.units
    foreign_on_map = sum(1 for u in state.units.values() if u.is_foreign and u.on_map)
    assert state.units_on_map(Side.CONFEDERATE) == len(game.units(Side.CONFEDERATE)) - foreign_on_map
    if not game.is_over:
        assert game.legal_actions(), f"no legal action at {game.decision}"


def play(seed: int) -> ahd.Game:
    scenario = SCENARIOS[seed % len(SCENARIOS)]
    game = ahd.new_game(scenario, options=options_for(seed), seed=seed)
    bots = {Side.UNION: RandomBot(seed * 2 + 1), Side.CONFEDERATE: RandomBot(seed * 2 + 2)}
    check(game)
    for _ in range(MAX_ACTIONS):
        if game.is_over:
            break
        assert game.current_player != CHANCE  # automatic dice
        game.apply(bots[game.current_player].choose(game))
        check(game)
    assert game.is_over, f"seed {seed}: the game stalled at {game.decision} on {game.turn}"
    return game


@pytest.mark.rule("A-2.1")
@pytest.mark.rule("A-7")
@pytest.mark.rule("AO-8.2.2")
@pytest.mark.parametrize("block", range(BLOCKS))
def test_random_advanced_games_keep_every_invariant_and_replay(block):
    per_block = GAMES // BLOCKS
    for seed in range(block * per_block, (block + 1) * per_block):
        game = play(seed)
        assert game.outcome is not None
        assert game.outcome.turn <= ahd.load_scenario(SCENARIOS[seed % len(SCENARIOS)]).last_turn
        reloaded = ahd.Game.from_json(game.to_json())
        assert snapshot(reloaded) == snapshot(game)
        assert [str(e) for e in reloaded.log] == [str(e) for e in game.log]
        assert reloaded.options.to_list() == options_for(seed)


def test_the_advanced_switches_are_all_exercised():
    """Across the 180 games every advanced switch is on in some and off in others."""
    counts = {rule: sum(rule in options_for(seed) for seed in range(GAMES)) for rule in ADVANCED}
    assert all(0 < n < GAMES for n in counts.values()), counts
