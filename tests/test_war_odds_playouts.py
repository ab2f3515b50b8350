"""scripts/war_odds_playouts.py (playouts against the live war odds) and scripts/war_odds_washington.py (why the odds
are never exactly 1 before the end): the measurements of issue 34 at stop 48 score what they say they score."""
from __future__ import annotations

import json

import pytest

from ahd.core.sides import Side
from script_module import load_script

GAMES = "docs/bots/games/stop44/g_944000_short_normal-hard.jsonl.xz"
YEAR = "docs/bots/games/stop44/g_944000_1862_easy-normal.jsonl.xz"


def test_the_playout_scores_weigh_each_game_equally_and_keep_decided_positions_exact():
    playouts = load_script("war_odds_playouts")
    games = [{"y": 1.0, "points": [(0.6, None, 6), (0.9, None, 8)]},
             {"y": 0.0, "points": [(0.3, None, 2), (0.2, None, 0), (0.1, 0.0, None)]}]
    forms = {"live": lambda live, wins: live, "raw": lambda live, wins: wins / 8,
             "blend": lambda live, wins: (wins + 8 * 0.5) / 16}
    scores = playouts.brier(games, forms)
    assert scores["live"] == pytest.approx(((0.16 + 0.01) / 2 + (0.09 + 0.04 + 0) / 3) / 2)
    assert scores["raw"] == pytest.approx(((0.25 ** 2 + 0) / 2 + (0.25 ** 2 + 0 + 0) / 3) / 2)
    assert scores["blend"] == pytest.approx(((0.375 ** 2 + 0.25 ** 2) / 2 + (0.375 ** 2 + 0.25 ** 2 + 0) / 3) / 2)


def test_the_playouts_are_the_games_own_players_seeded_by_the_position(tmp_path, capsys):
    playouts = load_script("war_odds_playouts")
    rows = playouts.woc.load([YEAR])
    row = min(rows, key=lambda r: r["turn"])  # 1862 easy v normal over on turn 11: few positions, quick players
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(row) + "\n", encoding="utf-8")
    saved = tmp_path / "scored.jsonl"
    scored = playouts.main([str(one), "--base", YEAR, "--games", "1", "--n", "1", "--workers", "1",
                            "--save", str(saved)])
    live = [playouts.war.war_odds(g, union=row["union"], confederate=row["confederate"]).p_union
            for g in playouts.woc.positions(row["record"]) if not g.is_over]  # one game, replayed: read as it goes
    points = scored[0]["points"]
    assert len(points) == len(live) >= 6
    assert [p[0] for p in points] == pytest.approx(live)
    assert all(wins in (0.0, 0.5, 1.0) for _, known, wins in points if known is None)
    assert playouts.score_game((row, 1))["points"] == points  # seeded: the same playouts again
    printed = capsys.readouterr().out.splitlines()[-1]
    again = playouts.main([str(one), "--base", YEAR, "--games", "1", "--n", "1", "--scored", str(saved)])
    assert capsys.readouterr().out.splitlines()[-1] == printed  # read back from --save, not played again
    assert [g["points"] for g in again] == [[list(p) for p in points]]
    line = printed.split()
    prior = (sum(r["y"] for r in rows) + 1) / (len(rows) + 2)
    assert line[:3] == ["1862", "easy", "v"] and int(line[5]) == len(live)
    assert float(line[6]) == pytest.approx((prior - row["y"]) ** 2, abs=1e-4)  # base: the prior at every position


def test_a_bad_scored_file_names_the_file_the_line_and_the_key(tmp_path):
    playouts = load_script("war_odds_playouts")
    bad = tmp_path / "bad.jsonl"
    game = {"scenario": "short", "pair": "normal v easy", "seed": 1, "y": 1.0, "n": 8, "points": []}
    bad.write_text(json.dumps(game) + "\n" + json.dumps({k: v for k, v in game.items() if k != "seed"}) + "\n")
    with pytest.raises(SystemExit, match=r"bad.jsonl, line 2: not a scored game \(KeyError\('seed'\)\)"):
        playouts.read_scored(str(bad), 8)
    bad.write_text(json.dumps(game) + "\n{not json\n")
    with pytest.raises(SystemExit, match=r"bad.jsonl, line 2: not a scored game"):
        playouts.read_scored(str(bad), 8)
    bad.write_text(json.dumps(game) + "\n")
    assert playouts.read_scored(str(bad), 8) == [game]
    with pytest.raises(SystemExit, match=r"bad.jsonl, line 1: key 'n' is 8, these scores use --n 4"):
        playouts.read_scored(str(bad), 4)
    with pytest.raises(SystemExit, match=r"missing.jsonl: cannot read it"):
        playouts.read_scored(str(tmp_path / "missing.jsonl"), 8)


def test_the_washington_count_finds_the_deciding_half_and_a_unit_in_reach(tmp_path):
    washington = load_script("war_odds_washington")
    rows = washington.woc.load([GAMES])[:4]
    row = rows[0]
    last = [(g.state.turn, g.state.phasing, g.state.copy()) for g in washington.woc.positions(row["record"])
            if washington.deciding(g)]  # one game, replayed: read as it goes
    assert [(turn, side) for turn, side, _ in last] == [(10, Side.CONFEDERATE)]
    state = last[0][2]
    assert washington.near_washington(state)
    for unit in state.units_of(Side.CONFEDERATE):  # the whole army sent to New Orleans: Washington out of reach
        state.place(unit, "new_orleans")
    assert not washington.near_washington(state)
    few = tmp_path / "few.jsonl"
    few.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    counts = washington.main([str(few)])
    assert [r["turn"] for r in rows] == [10, 8, 7, 10]  # two games reach turn 10's Confederate half
    assert counts["short", "halves"] == 2
    assert counts["short", "Union won"] == sum(r["y"] == 1 for r in (rows[0], rows[3]))
    assert 0 < counts["short", "Washington in reach"] <= 2
