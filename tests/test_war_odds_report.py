"""The published war-odds calibration (docs/bots/war_odds_calibration.txt) and what the app's note cites
(ahd/data/war_odds.json, each cell's "heldout") say the same, cell by cell; a report of replayed cells
(``report --keep``) keeps the other cells' rows and paragraphs as they were; the joint start-odds figures
printed beside the measures are right."""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from script_module import load_script

ROOT = Path(__file__).resolve().parents[1]


def test_the_published_report_and_the_stored_held_out_figures_agree_in_every_cell():
    script = load_script("war_odds_calibration")
    summary, blocks = script.previous_cells((ROOT / "docs" / "bots" / "war_odds_calibration.txt").read_text("utf-8"))
    pairs = json.loads((ROOT / "ahd" / "data" / "war_odds.json").read_text("utf-8"))["pairs"]
    stored = {(scenario, pair.replace("-", " v ")): cell["heldout"]
              for pair, entry in pairs.items() for scenario, cell in entry["by_scenario"].items()}
    assert len(stored) == 30 and set(summary) == set(stored) == set(blocks)
    for key, row in summary.items():
        fields = row.split()
        figures = stored[key]
        games, brier, base = int(fields[4]), float(fields[5]), float(fields[6])
        assert (games, brier, base) == (figures["games"], figures["brier"], figures["base_brier"]), key
        union, played = fields[9].split("/") if "/" in fields[9] else fields[10].split("/")
        assert abs(float(union) / int(played) - figures["union"]) < 1e-4, key
        assert blocks[key][0].startswith(f"{key[0]} — {key[1]}: {games} held-out games"), key


def test_keep_reads_back_rows_and_paragraphs_and_nothing_else():
    script = load_script("war_odds_calibration")
    text = ("preface\n" + script.MARK + "\n\nThe measures ...\nscenario pair  games\n"
            "1862   hard v hard         20  0.0589  0.0595     below    0.02  1.5/20  0.02-0.27  inside     1   0\n"
            "1863   normal v hard       20  0.1516  0.1808     below    0.38    3/20  0.05-0.36 OUTSIDE     5   0\n\n"
            "War odds ... on recorded games: x\nmachine: m\n\n"
            "1862 — hard v hard: 20 held-out games, 502 positions (each game weighted equally); base: 0/40 fit games\n"
            "  Brier 0.0589 vs the base rate 0.024: 0.0595 (below the base rate); hindsight 0.08: 0.05\n"
            "    0.0-0.1    480   0.020   0.060\n\n"
            "Kept from this file's previous report (cells not in these games, 1): 1863 normal v hard.\n")
    summary, blocks = script.previous_cells(text)
    assert set(summary) == {("1862", "hard v hard"), ("1863", "normal v hard")}
    assert summary[("1863", "normal v hard")].endswith("OUTSIDE     5   0")
    assert list(blocks) == [("1862", "hard v hard")] and len(blocks[("1862", "hard v hard")]) == 3
    assert script.previous_cells("no report here") == ({}, {})


def test_the_start_odds_chi_square_adds_each_cells_squared_miss_over_its_variance():
    script = load_script("war_odds_calibration")
    assert script.start_chi_square([(10, 40, 0.25)])[0] == 0.0  # exactly the expected wins
    statistic, _ = script.start_chi_square([(20, 40, 0.25), (10.5, 40, 0.25)])
    assert abs(statistic - (100 / 7.5 + 0.25 / 7.5)) < 1e-12
    assert abs(script.start_chi_square([(1, 40, 0.5)] * 30)[1] - 43.773) < 0.01  # the tables' 95% point
    assert abs(script.start_chi_square([(1, 40, 0.5)] * 10)[1] - 18.307) < 0.02
    assert script.start_chi_square([]) == (0, 0.0)


def test_the_start_measure_by_chance_alone_matches_a_simulation_and_multiplies_over_cells():
    """start_by_chance is exact over both binomials: a simulation of the same draws agrees, a known start (a
    huge fit) gives the Wilson interval's own coverage, and independent cells multiply."""
    script = load_script("war_odds_calibration")
    every, outside = script.start_by_chance([(0.3, 60, 40)])
    assert abs(every + outside - 1) < 1e-12
    rng = np.random.default_rng(5)
    fit_wins, held = rng.binomial(60, 0.3, 40_000), rng.binomial(40, 0.3, 40_000)
    intervals = [script.wilson(b, 40) for b in range(41)]
    hits = [intervals[b][0] <= (a + 1) / 62 <= intervals[b][1] for a, b in zip(fit_wins, held)]
    assert abs(np.mean(hits) - every) < 0.01  # 40,000 draws: standard error about 0.002
    # no fit games and p = 0.5: the start is exactly p, so the chance is the Wilson interval's own coverage
    coverage = sum(math.comb(40, b) / 2 ** 40 for b in range(41) if intervals[b][0] <= 0.5 <= intervals[b][1])
    assert abs(script.start_by_chance([(0.5, 0, 40)])[0] - coverage) < 1e-12 and 0.95 < coverage < 0.97
    known, _ = script.start_by_chance([(0.5, 20_000, 40)])  # a start known almost exactly (sd 0.0035)
    assert abs(known - coverage) < 0.01
    assert every < known  # a start estimated from 60 games misses more often
    both, outside2 = script.start_by_chance([(0.3, 60, 40), (0.5, 20_000, 40)])
    assert abs(both - every * known) < 1e-12 and abs(outside2 - (outside + 1 - known)) < 1e-12


def test_the_fits_command_names_kept_games_by_their_blocks_and_only_when_exact(tmp_path, monkeypatch):
    script = load_script("war_odds_calibration")
    monkeypatch.chdir(tmp_path)
    kept = Path("games")
    kept.mkdir()
    names = [f"g_{block}_{cell}.jsonl.xz" for block in (944000, 956000, 1000000)
             for cell in ("1861_hard-hard", "short_easy-normal")]
    for name in names:
        (kept / name).write_bytes(b"")
    every = [f"games/{name}" for name in names]
    assert script.files_said(every) == "games/g_{944000,956000,1000000}_*.jsonl.xz"  # blocks in the order of seeds
    assert script.files_said(every[:2]) == "games/g_944000_*.jsonl.xz"
    assert script.files_said(every[:3]) == " ".join(every[:3])  # the pattern would name a fourth file
    assert script.files_said(["a.jsonl", "b.jsonl"]) == "a.jsonl b.jsonl"


def test_the_brier_margin_is_the_cells_brier_minus_the_base_rates_with_games_as_the_draws():
    script = load_script("war_odds_calibration")
    games = [(1.0, [(0.9, 1, False), (0.7, 2, False)]), (0.0, [(0.4, 1, False)]), (1.0, [(0.6, 1, False)] * 4)]
    base = 0.8
    # by hand: a game's mean of (p - y)^2 - (base - y)^2
    d = [((0.01 - 0.04) + (0.09 - 0.04)) / 2, 0.16 - 0.64, 0.16 - 0.04]
    diff, se = script.brier_margin(games, base)
    assert diff == pytest.approx(sum(d) / 3)
    mean = sum(d) / 3
    assert se == pytest.approx(math.sqrt(sum((x - mean) ** 2 for x in d) / 2 / 3))
    # the same as the report's Brier scores (each position weighted 1 / its game's positions)
    p = np.array([pt[0] for _, pts in games for pt in pts])
    y = np.array([yy for yy, pts in games for _ in pts])
    w = np.array([1 / len(pts) for _, pts in games for _ in pts])
    assert diff == pytest.approx(np.average((p - y) ** 2, weights=w) - np.average((base - y) ** 2, weights=w))
    assert script.brier_margin(games[:1], base)[1] == 0.0  # one game: no spread to measure


def test_report_with_jobs_says_what_one_process_says(tmp_path, capsys, monkeypatch):
    script = load_script("war_odds_calibration")
    monkeypatch.setitem(sys.modules, "war_odds_calibration", script)  # the processes' work pickles by this name
    files = []
    for pair, seed in (("easy-normal", 41), ("normal-easy", 141)):
        files.append(str(tmp_path / f"g_{seed}_short_{pair}.jsonl"))
        script.play(argparse.Namespace(scenarios="short", pairs=pair, games=2, seed=seed, save=files[-1]))
    capsys.readouterr()
    said = []
    for jobs in (1, 2):
        script.report(argparse.Namespace(files=files, base=None, out=None, store=False, keep=False, jobs=jobs))
        said.append(capsys.readouterr().out)
    assert said[0] == said[1]
    assert "short  easy v normal" in said[0] and "short  normal v easy" in said[0]
    # the header names the files by the pattern that names exactly them, not one by one
    assert f"on recorded games: {tmp_path}/g_{{41,141}}_*.jsonl\n" in said[0]
