"""Game records, dice as chance events, undo, why_not and atomic refusal."""
from __future__ import annotations

import json

import pytest

import ahd
from ahd.bots import RandomBot, play
from ahd.core.sides import CHANCE, Side

from conftest import assert_refused, make_game, snapshot


def played(seed=3, actions=300, scenario="1861"):
    game = ahd.new_game(scenario, seed=seed)
    bot = RandomBot(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(bot.choose(game))
    return game


def test_record_is_versioned_and_complete():
    game = played()
    record = json.loads(game.to_json())
    assert record["format"] == "house-divided-record"
    assert record["version"] == 1
    assert record["scenario"] == "1861"
    assert record["seed"] == 3
    assert record["options"] == ["H-1", "H-2", "H-3"]
    assert len(record["actions"]) == len(game.history)
    rolls = [a for a in record["actions"] if a["type"] == "roll"]
    assert rolls and all(a.get("auto") for a in rolls)


def test_save_and_load_replay_identically(tmp_path):
    game = played()
    path = tmp_path / "game.ahd.json"
    game.save(path)
    loaded = ahd.load(path)
    assert snapshot(loaded) == snapshot(game)
    assert [str(e) for e in loaded.log] == [str(e) for e in game.log]
    # the loaded game continues with the same dice as the original would
    bot_a, bot_b = RandomBot(9), RandomBot(9)
    for _ in range(50):
        if game.is_over:
            break
        game.apply(bot_a.choose(game))
        loaded.apply(bot_b.choose(loaded))
    assert snapshot(loaded) == snapshot(game)


def test_replay_needs_no_generator_for_typed_rolls():
    game = make_game([("union", "MF", "washington", 3)], turn=3, marches=2)
    assert game.dice == "manual"
    ahd_actions = [ahd.EndMovement(), ahd.NoPromotion()]
    for action in ahd_actions:
        if action in game.legal_actions():
            game.apply(action)
    while game.current_player != CHANCE:
        game.apply(game.legal_actions()[-1])
    game.apply(ahd.Roll(4))
    record = game.to_dict()
    assert record["actions"][-1] == {"type": "roll", "value": 4}
    assert snapshot(ahd.Game.from_dict(record)) == snapshot(game)


@pytest.mark.parametrize("text, message", [
    ("", "invalid JSON"),
    ("{\"format\": \"house-divided-rec", "invalid JSON"),
    ("[1, 2, 3]", "not a House Divided game record"),
    ("{\"format\": \"something-else\", \"version\": 1}", "not a House Divided game record"),
    ("{\"format\": \"house-divided-record\", \"version\": 99}", "unsupported record version"),
    ("{\"format\": \"house-divided-record\", \"version\": 1, \"scenario\": \"1861\"}", "lacks"),
])
def test_bad_records_give_clear_errors(text, message):
    with pytest.raises(ahd.RecordError, match=message):
        ahd.Game.from_json(text)


def test_damaged_actions_are_reported_by_index():
    record = played(actions=120).to_dict()
    bad = json.loads(json.dumps(record))
    bad["actions"][5] = {"type": "teleport", "unit": "U-MF-01"}
    with pytest.raises(ahd.RecordError, match="action 5 .*unknown action type"):
        ahd.Game.from_dict(bad)
    illegal = json.loads(json.dumps(record))
    first_move = next(i for i, a in enumerate(illegal["actions"]) if a["type"] == "begin_march")
    illegal["actions"][first_move] = {"type": "begin_march", "origin": "new_orleans"}
    with pytest.raises(ahd.RecordError, match=f"action {first_move} .*illegal"):
        ahd.Game.from_dict(illegal)


def test_tampered_automatic_roll_is_detected():
    record = played(actions=120).to_dict()
    index = next(i for i, a in enumerate(record["actions"]) if a["type"] == "roll" and a.get("auto"))
    record["actions"][index]["value"] = 1 + record["actions"][index]["value"] % 6
    with pytest.raises(ahd.RecordError, match="does not match its seed"):
        ahd.Game.from_dict(record)


def test_truncated_record_loads_to_the_prefix():
    game = played(actions=200)
    record = game.to_dict()
    record["actions"] = record["actions"][:100]
    prefix = ahd.Game.from_dict(record)
    # a shorter record is an earlier position of the same game; automatic dice resume from there
    assert prefix.record_actions(0)[:100] == record["actions"]
    assert prefix.history[:100] == game.history[:100]


def test_foreign_and_missing_files(tmp_path):
    binary = tmp_path / "photo.png"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\xff\xfe")
    with pytest.raises(ahd.RecordError, match="photo.png"):
        ahd.load(binary)
    with pytest.raises(ahd.RecordError, match="cannot read"):
        ahd.load(tmp_path / "missing.json")
    scenario_file = tmp_path / "scenario.json"
    scenario_file.write_text(json.dumps({"format": "house-divided-scenario", "version": 1}))
    with pytest.raises(ahd.RecordError, match="not a House Divided game record"):
        ahd.load(scenario_file)


def test_undo_returns_to_the_previous_decision():
    game = played(actions=150)
    before = snapshot(game)
    legal = game.legal_actions()
    action = legal[0]
    game.apply(action)
    assert game.undo() == action
    assert snapshot(game) == before
    assert game.legal_actions() == legal


def test_undo_across_half_turns_and_redo_gives_the_same_dice():
    game = played(actions=400)
    full_record = game.record_actions()
    final = snapshot(game)
    for _ in range(60):
        game.undo()
    kept = len(game.history)
    assert kept < len(full_record)
    assert game.record_actions() == full_record[:kept]
    # redo the same decisions: the automatic rolls come out exactly as before (undo does not re-roll)
    for raw in full_record[kept:]:
        if not raw.get("auto"):
            game.apply(ahd.action_from_dict(raw))
    assert game.record_actions() == full_record
    assert snapshot(game) == final


def test_undo_with_nothing_to_undo():
    game = ahd.new_game("1861", seed=1)
    with pytest.raises(ahd.AhdError, match="nothing to undo"):
        game.undo()


@pytest.mark.rule("0.3")
def test_manual_dice_wait_for_a_typed_roll():
    game = ahd.new_game("1861", seed=1, dice="manual")
    bot = RandomBot(1)
    while game.current_player != CHANCE:
        game.apply(bot.choose(game))
    assert game.legal_actions() == [ahd.Roll(v) for v in range(1, 7)]
    assert "roll" in game.pending_roll
    before = snapshot(game)
    with pytest.raises(ahd.IllegalActionError) as info:
        game.apply(ahd.Roll(7))
    assert info.value.rule == "0.3"
    assert snapshot(game) == before
    game.apply(ahd.Roll(5))
    assert game.current_player != CHANCE or game.pending_roll


@pytest.mark.rule("0.3")
def test_roll_refused_when_no_die_is_pending():
    game = ahd.new_game("1861", seed=1)
    assert game.current_player is Side.UNION
    assert_refused(game, ahd.Roll(3), "0.3")


def test_switching_to_auto_dice_rolls_the_pending_die():
    game = ahd.new_game("1861", seed=1, dice="manual")
    bot = RandomBot(1)
    while game.current_player != CHANCE:
        game.apply(bot.choose(game))
    game.dice = "auto"
    assert game.current_player != CHANCE


def test_why_not_matches_apply_and_wrong_decision_is_refused():
    game = ahd.new_game("1861", seed=1)
    error = assert_refused(game, ahd.Recruit("chicago", "MF"), "3.a")
    assert "movement" in str(error)
    assert game.why_not("march!").rule == "3.a"


def test_game_copy_is_independent():
    game = played(actions=100)
    length = len(game.history)
    twin = game.copy()
    bot = RandomBot(5)
    for _ in range(30):
        if twin.is_over:
            break
        twin.apply(bot.choose(twin))
    assert len(game.history) == length
    assert snapshot(game) != snapshot(twin)
    # and it continues with the same future dice as the original
    a, b = game.copy(), game.copy()
    play(a, RandomBot(1), RandomBot(2))
    play(b, RandomBot(1), RandomBot(2))
    assert a.to_json() == b.to_json()
