"""scripts/war_odds_calibration.py play and gather: the seeds a block's games get, round by round play in parts,
and gathering the parts into one file a cell with whole rounds only (docs/bots/issue34_seeds.txt, stop 49)."""
from __future__ import annotations

import argparse
import json
import lzma
from pathlib import Path

import pytest
from script_module import load_script

ROOT = Path(__file__).resolve().parent.parent
PAIRS = ["easy-normal", "hard-hard", "hard-normal", "normal-easy", "normal-hard", "normal-normal"]
SCENARIOS = ["1861", "short", "1862", "1863", "1864"]


def test_cell_step_gives_each_cell_the_seeds_stop_47_played_it_with():
    script = load_script("war_odds_calibration")
    jobs = script.play_jobs(SCENARIOS, PAIRS, 40, 980000, cell_step=100)
    assert len(jobs) == 1200 and len(set(seed for _, _, seed in jobs)) == 1200
    for name in ("1861_hard-normal", "1862_normal-hard", "1864_normal-normal"):
        with lzma.open(ROOT / "docs/bots/games/stop44" / f"g_980000_{name}.jsonl.xz", "rt", encoding="utf-8") as fh:
            stored = [json.loads(line)["seed"] for line in fh]
        scenario, pair = name.split("_")
        assert [seed for s, p, seed in jobs if (s, p) == (scenario, pair)] == stored
    assert script.play_jobs(["1862"], ["easy-normal"], 3, 5) == [("1862", "easy-normal", 5 + i) for i in range(3)]


def test_by_round_plays_game_i_of_every_cell_first_and_the_parts_share_the_games_out():
    script = load_script("war_odds_calibration")
    whole = script.play_jobs(SCENARIOS[:2], PAIRS[:2], 5, 100, cell_step=10, by_round=True)
    assert whole[:4] == [("1861", "easy-normal", 100), ("1861", "hard-hard", 110),
                         ("short", "easy-normal", 120), ("short", "hard-hard", 130)]
    assert whole[4] == ("1861", "easy-normal", 101)
    parts = [script.play_jobs(SCENARIOS[:2], PAIRS[:2], 5, 100, cell_step=10, by_round=True, part=(j, 2))
             for j in range(2)]
    assert sorted(parts[0] + parts[1]) == sorted(whole) and not set(parts[0]) & set(parts[1])
    assert [seed % 10 for _, _, seed in parts[1]] == [1] * 4 + [3] * 4
    with pytest.raises(argparse.ArgumentTypeError, match="0 <= J < M"):
        script.part_of("2/2")
    with pytest.raises(argparse.ArgumentTypeError, match="not J/M"):
        script.part_of("half")


def _rows(path: Path, cells: dict, games: range) -> None:
    with path.open("a", encoding="utf-8") as fh:
        for (scenario, pair), first in cells.items():
            union, confederate = pair.split("-")
            for i in games:
                fh.write(json.dumps({"scenario": scenario, "union": union, "confederate": confederate,
                                     "seed": first + i, "y": 1.0, "turn": 10, "record": {}}) + "\n")


def test_gather_keeps_the_rounds_every_cell_finished_sorted_by_seed(tmp_path, capsys):
    script = load_script("war_odds_calibration")
    cells = {("short", "easy-normal"): 700, ("short", "hard-hard"): 710}
    _rows(tmp_path / "p0.jsonl", cells, range(0, 6, 2))  # games 0, 2, 4
    _rows(tmp_path / "p1.jsonl", cells, range(1, 4, 2))  # games 1, 3
    _rows(tmp_path / "p1.jsonl", {("short", "easy-normal"): 700}, range(5, 6))  # round 5 of one cell only
    args = argparse.Namespace(files=[str(tmp_path / "p0.jsonl"), str(tmp_path / "p1.jsonl")], scenarios="short",
                              pairs="easy-normal,hard-hard", seed=700, cell_step=10,
                              save=str(tmp_path / "out" / "g_{scenario}_{pair}.jsonl"))
    script.gather(args)
    assert "5 games a cell in 2 cells" in capsys.readouterr().out  # round 5 unfinished: left out
    for (scenario, pair), first in cells.items():
        kept = [json.loads(line)["seed"] for line in (tmp_path / "out" / f"g_{scenario}_{pair}.jsonl").open()]
        assert kept == [first + i for i in range(5)]
    _rows(tmp_path / "p1.jsonl", {("1862", "easy-normal"): 900}, range(1))
    with pytest.raises(SystemExit, match="1862 easy-normal .seed 900. is not in this block's cells"):
        script.gather(args)


def test_stop_at_ends_play_between_rounds(tmp_path, capsys):
    script = load_script("war_odds_calibration")
    args = argparse.Namespace(scenarios="short", pairs="easy-normal,normal-easy", games=3, seed=31, cell_step=100,
                              by_round=True, part=(0, 1), stop_at=0.0,
                              save=str(tmp_path / "g_{scenario}_{pair}.jsonl"))
    script.play(args)  # stop_at in the past: the first round is played whole, no other starts
    out = capsys.readouterr().out
    assert "stopped at" in out and "before seed 32" in out
    for pair, seed in (("easy-normal", 31), ("normal-easy", 131)):
        rows = [json.loads(line) for line in (tmp_path / f"g_short_{pair}.jsonl").open()]
        assert [row["seed"] for row in rows] == [seed]
        assert rows[0]["y"] in (0.0, 0.5, 1.0) and rows[0]["record"]["seed"] == seed


def test_the_bots_seeds_are_apart_from_every_dice_seed_and_same_is_the_old_blocks():
    script = load_script("war_odds_calibration")
    dice = [seed for _, _, seed in script.play_jobs(SCENARIOS, PAIRS, 150, 1090000, cell_step=200)]
    bots = [s for seed in dice for s in script.bot_seeds(seed)]
    assert len(set(bots)) == 2 * len(dice)  # no bot shares a seed with another
    assert max(dice) < 2 ** 32 <= min(bots)  # nor with any dice (every block's dice seeds are below 2**32)
    assert script.bot_seeds(1090000) == (2 ** 32 + 2180000, 2 ** 32 + 2180001)
    assert script.bot_seeds(1090000, "same") == (1090000, 1090001)  # the blocks before 1090000
    with pytest.raises(ValueError, match="'apart2' is not one of apart, same"):
        script.bot_seeds(5, "apart2")
    with pytest.raises(ValueError, match="dice seed -1 is outside"):
        script.bot_seeds(-1)


def test_play_gives_each_bot_its_seed_and_records_it(tmp_path, monkeypatch):
    script = load_script("war_odds_calibration")
    given, original = [], script.make_bot

    def make_bot(name, seed):
        given.append((name, seed))
        return original(name, seed)
    monkeypatch.setattr(script, "make_bot", make_bot)
    for how in script.BOT_SEEDS:
        args = argparse.Namespace(scenarios="short", pairs="normal-hard", games=1, seed=1082000, cell_step=0,
                                  by_round=False, part=(0, 1), stop_at=None, bot_seeds=how,
                                  save=str(tmp_path / f"{how}.jsonl"))
        script.play(args)
        row = json.loads((tmp_path / f"{how}.jsonl").read_text())
        union, confederate = script.bot_seeds(1082000, how)
        assert given[-2:] == [("normal", union), ("hard", confederate)] and row["bot_seeds"] == [union, confederate]
    # stop 59's block was played with the old seeds: its stored game comes back move for move
    with lzma.open(ROOT / "docs/bots/games/stop44/g_1080000_short_normal-hard.jsonl.xz", "rt", encoding="utf-8") as fh:
        stored = json.loads(fh.readline())
    assert stored["seed"] == 1082000
    assert json.loads((tmp_path / "same.jsonl").read_text())["record"] == stored["record"]
