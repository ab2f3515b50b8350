"""Game.rewind_to, Game.extend and Game.record_length: replaying another seat's record of a shared game with
public methods, bit for bit, and refusing a bad action without changing anything."""
from __future__ import annotations

import pytest

import ahd
from ahd.bots import RandomBot
from ahd.core.actions import EndMovement, Roll
from ahd.core.errors import IllegalActionError, RecordError
from ahd.core.sides import Side

from conftest import snapshot


def played(seed: int, scenario: str = "short", options=None, moves: int = 400, dice: str = "auto") -> ahd.Game:
    game = ahd.new_game(scenario, options=options, seed=seed, dice=dice)
    bots = {Side.UNION: RandomBot(seed * 2 + 1), Side.CONFEDERATE: RandomBot(seed * 2 + 2)}
    for _ in range(moves):
        if game.is_over:
            break
        if game.current_player == "chance":
            game.roll(None if dice == "auto" else len(game.history) * 7 % 6 + 1)  # typed in: any die
        else:
            game.apply(bots[game.current_player].choose(game))
    return game


def everything(game: ahd.Game) -> tuple:
    """All a game shows, and the dice still to come."""
    return (snapshot(game), game.to_dict(), [event.text for event in game.log], [str(a) for a in game.legal_actions()],
            game._rng.bit_generator.state)


@pytest.mark.rule("0.3")
@pytest.mark.rule("3.b")
@pytest.mark.parametrize("seed, options", [(1, None), (2, "advanced"), (3, ["A-7", "O-4.3"])])
def test_extend_in_pieces_equals_the_original(seed, options):
    game = played(seed, options=options)
    record = game.record_actions()
    assert game.record_length == len(record) == len(game.history)
    seat = ahd.new_game("short", options=options, seed=seed)
    start = seat.record_length  # a game that starts with the generator's rolls
    assert record[:start] == seat.record_actions()
    cut = start + (len(record) - start) // 3
    applied = seat.extend(record[start:cut])
    assert len(applied) == cut - start and seat.record_length == cut
    seat.extend(record[cut:])
    assert everything(seat) == everything(game)


@pytest.mark.rule("0.3")
@pytest.mark.parametrize("seed", [4, 5])
def test_rewind_to_equals_a_fresh_replay(seed):
    game = played(seed, options="advanced")
    record = game.to_dict()
    for length in (len(record["actions"]) * 2 // 3, len(record["actions"]) // 3, 7):
        game.rewind_to(length)
        fresh = ahd.Game.from_dict(dict(record, actions=record["actions"][:length], dice="manual"))
        fresh.dice = "auto"
        assert everything(game) == everything(fresh)
    game.rewind_to(game.record_length)  # nothing to take back
    with pytest.raises(ValueError):
        game.rewind_to(game.record_length + 1)
    with pytest.raises(ValueError):
        game.rewind_to(-1)


@pytest.mark.rule("0.3")
def test_rewind_then_extend_goes_back_to_the_same_game():
    game = played(6)
    before = everything(game)
    tail = game.record_actions(40)
    game.rewind_to(40)
    game.extend(tail)
    assert everything(game) == before


@pytest.mark.rule("4.b")
def test_a_refused_action_leaves_the_game_exactly_as_it_was():
    game = played(7)
    record = game.record_actions()
    seat = ahd.new_game("short", seed=7)
    seat.extend(record[:60])
    before = everything(seat)
    # legal actions first, then one the engine refuses: nothing of it stays
    bad = list(record[60:70]) + [{"type": "begin_march", "origin": "nowhere-at-all"}]
    with pytest.raises((IllegalActionError, RecordError)):
        seat.extend(bad)
    assert everything(seat) == before
    wrong = Roll(3) if seat.current_player != "chance" else EndMovement()
    with pytest.raises(IllegalActionError) as refused:
        seat.extend([wrong])
    assert refused.value.rule in ("0.3", "3.a") and "action 0 of those given" in str(refused.value)
    assert everything(seat) == before


@pytest.mark.rule("0.3")
def test_an_automatic_roll_that_the_seed_did_not_draw_is_refused():
    game = played(8)
    record = game.record_actions()
    seat = ahd.new_game("short", seed=8)
    start = seat.record_length
    autos = [i for i, entry in enumerate(record) if entry.get("auto") and i > start + 5]
    forged = [dict(entry) for entry in record[start:autos[0] + 1]]
    forged[-1]["value"] = forged[-1]["value"] % 6 + 1
    before = everything(seat)
    with pytest.raises(IllegalActionError) as refused:
        seat.extend(forged)
    assert refused.value.rule == "0.3" and f"action {len(forged) - 1} of those given" in str(refused.value)
    assert refused.value.index == len(forged) - 1
    assert everything(seat) == before
    with pytest.raises(RecordError):
        seat.extend([{"type": "end_movement", "auto": True}])
    with pytest.raises(RecordError) as malformed:
        seat.extend([EndMovement(), "roll"])
    assert malformed.value.index == 1
    assert everything(seat) == before


@pytest.mark.rule("0.3")
def test_typed_in_dice_extend_like_decisions():
    game = played(9, dice="manual", moves=150)
    record = game.record_actions()
    assert not any(entry.get("auto") for entry in record)
    seat = ahd.new_game("short", seed=9, dice="manual")
    seat.extend(record)
    assert everything(seat) == everything(game)
