"""Notebook display without a kernel (issue 18, item 5): the board as SVG, short reprs and HTML tables."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import numpy as np

import ahd
from ahd.analysis.simulate import GameResult, SimulationResults
from ahd.odds.exact import battle_odds
from ahd.odds.montecarlo import simulate_battles
from ahd.odds.war import WarOdds

SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    return ["".join(t.itertext()) for t in ET.fromstring(svg).iter(f"{SVG}text")]


def test_game_svg_is_xml_with_a_text_for_every_box_and_is_small():
    game = ahd.new_game("1862", seed=1)
    svg = game._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg" and root.get("viewBox")
    assert len(svg.encode()) < 200_000
    labels = texts(svg)
    joined = " ".join(labels)
    for box in game.board:  # each name is one <text>, or two when wrapped
        assert box.name in labels or " ".join(box.name.split()) in joined, box.name
    groups = {g.get("id") for g in root.iter(f"{SVG}g")}
    assert {f"box-{box.id}" for box in game.board} <= groups
    assert any("army maximum 35" in t for t in labels) and any("Turn 8 (April 1862)" in t for t in labels)
    assert len(root.findall(f"{SVG}path")) >= 3  # road, rail, river


def _box_group(svg: str, box: str) -> ET.Element:
    return next(g for g in ET.fromstring(svg).iter(f"{SVG}g") if g.get("id") == f"box-{box}")


def test_game_svg_reflects_a_moved_unit():
    from tests.conftest import make_game
    game = make_game([("union", "FV", "cincinnati", 2), ("confederate", "MF", "nashville")])
    before = game._repr_svg_()
    assert "2" in texts(ET.tostring(_box_group(before, "cincinnati"), encoding="unicode"))
    assert "2V" in texts(before)
    game.apply(ahd.BeginMarch("cincinnati"))
    game.apply(ahd.Move("U-FV-01", ("cincinnati", "dayton"), ("rail",)))
    after = game._repr_svg_()
    assert after != before
    assert "1" in texts(ET.tostring(_box_group(after, "cincinnati"), encoding="unicode"))
    assert "1" in texts(ET.tostring(_box_group(after, "dayton"), encoding="unicode"))
    assert "1V" in texts(ET.tostring(_box_group(after, "dayton"), encoding="unicode"))
    assert not [t for t in texts(ET.tostring(_box_group(before, "dayton"), encoding="unicode")) if t == "1"]


def test_game_svg_shows_control_battle_and_game_over():
    from tests.conftest import make_game
    game = make_game([("union", "MF", "cincinnati", 2), ("union", "MF", "chicago"), ("confederate", "MF", "lexington"),
                      ("confederate", "MF", "louisville")], control={"union": ["lexington"]})
    lexington = ET.tostring(_box_group(game._repr_svg_(), "lexington"), encoding="unicode")
    assert 'stroke-width="5"' in lexington  # a control marker
    game.apply(ahd.BeginMarch("cincinnati"))
    game.apply(ahd.Move("U-MF-01", ("cincinnati", "lexington"), ("rail",)))
    game.apply(ahd.EndMarch())
    game.apply(ahd.EndMovement())
    if game.decision == "choose_battle":
        game.apply(ahd.ChooseBattle("lexington"))
    svg = game._repr_svg_()
    assert any("battle at Lexington" in t for t in texts(svg))
    over = ahd.new_game("short", seed=2)
    ahd.bots.play(over, ahd.bots.RandomBot(1), ahd.bots.RandomBot(2))
    assert any("victory" in t.lower() or "result" in t.lower() for t in texts(over._repr_svg_()))


def _results(n: int) -> SimulationResults:
    rng = np.random.default_rng(0)
    rows = [GameResult(i, ("union", "confederate", None)[i % 3], ("11.a", "11.c", "S-VT")[i % 3], "a reason " * 20,
                       int(rng.integers(5, 41)), tuple((t, 34, 29) for t in range(1, 41)), 12, 900)
            for i in range(n)]
    return SimulationResults(rows=rows, scenario="1861", union="heuristic", confederate="random")


def test_simulation_results_repr_and_html_are_short_with_the_key_figures():
    results = _results(200)
    text = repr(results)
    assert len(text) < 500 and "200 games" in text and "Union wins 33.5%" in text
    assert len(repr(_results(10_000))) < 500
    html = results._repr_html_()
    assert len(html) < 5_000 and "200 games" in html and "33.5%" in html and "11.a" in html
    ET.fromstring(html)  # well-formed
    assert repr(SimulationResults()).startswith("<SimulationResults 0 games")


def test_battle_odds_reprs():
    exact = battle_odds(["FV", "FV"], ["MF", "MF"])
    html = exact._repr_html_()
    assert f"{exact.attacker_wins:.1%}" in html and "Battle odds" in html and len(html) < 3_000
    ET.fromstring(html)
    assert len(repr(exact)) < 300 and "attacker_wins" in repr(exact)
    simulated = simulate_battles(["FV", "FV"], ["MF", "MF"], n=2_000, seed=1)
    html = simulated._repr_html_()
    assert f"{simulated.attacker_wins:.1%}" in html and "2,000 battles" in html
    ET.fromstring(html)


def test_war_odds_html():
    odds = WarOdds(p_union=0.625, stderr=0.02, low=0.58, high=0.66, mode="deep", model="heuristic", n=400, wins=250)
    html = odds._repr_html_()
    assert "62.5%" in html and "37.5%" in html and "400 playouts" in html and len(html) < 3_000
    ET.fromstring(html)
