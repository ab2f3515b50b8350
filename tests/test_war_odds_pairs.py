"""War odds for the players at the table (issue 34, item 3): the chance that the Union wins if both sides play
on as the selected players do; each shipped pair has its own per-scenario fit (ahd/data/war_odds.json "pairs").
"""
from __future__ import annotations

import argparse
import json
import math

import numpy as np
import pytest

import ahd
import widgets
from ahd import Game, war_odds
from ahd.bots import HeuristicBot
from ahd.core.sides import CHANCE, Side
from ahd.odds.pairs import DEFAULT_PAIR, SHIPPED, STAND_IN, model_player, pair_of
from ahd.odds.war import WarOddsError, fitted_pair, scenario_adjustments
from widgets.model.computer import PLAYERS
from script_module import load_script
from widgets.model.session import Session

SCENARIOS = ("1861", "short", "1862", "1863", "1864")


def test_every_menu_player_is_modelled_by_a_shipped_level():
    assert set(STAND_IN) == set(PLAYERS)
    assert {pair_of(u, c) for u in PLAYERS for c in PLAYERS} == set(SHIPPED)
    assert model_player("human") == "normal" and model_player("search:iterations=2") == "hard"
    assert pair_of() == DEFAULT_PAIR == "hard-hard" and pair_of("human", "hard") == "normal-hard"
    assert pair_of("human", "heuristic") == "normal-easy" and pair_of("easy", "human") == "easy-normal"
    assert pair_of("easy", "easy") == "normal-normal" and pair_of("random", "hard") == "normal-hard"
    with pytest.raises(ValueError, match="unknown player"):
        model_player("grandmaster")


def test_the_old_call_is_hard_v_hard_and_players_pick_the_pair():
    game = ahd.new_game("1863", seed=3)
    assert war_odds(game) == war_odds(game, union="hard", confederate="hard")
    for union, confederate in (("human", "human"), ("easy", "hard"), ("hard", "random")):
        odds = war_odds(game, union=union, confederate=confederate)
        assert odds.pair == fitted_pair(pair_of(union, confederate), "1863")  # its own fit, where it has one
        assert odds == ahd.war_odds(game, "live", union=union, confederate=confederate)
        assert odds == war_odds(game, union=odds.pair.split("-")[0], confederate=odds.pair.split("-")[1])
    with pytest.raises(WarOddsError, match="unknown player"):
        war_odds(game, union="grandmaster")


@pytest.mark.parametrize("pair", SHIPPED)
def test_each_shipped_pair_has_its_own_fit_in_every_scenario(pair):
    """Fitted on the pair's own games (scripts/war_odds_calibration.py fit); at a scenario's start the odds
    are the pair's smoothed measured result in them."""
    adjust = scenario_adjustments(pair=pair)
    assert set(adjust) == set(SCENARIOS)
    union, confederate = pair.split("-")
    for scenario in SCENARIOS:
        assert adjust[scenario]["games"] >= 8
        start = war_odds(ahd.new_game(scenario, seed=1), union=union, confederate=confederate)
        assert start.p_union == pytest.approx(adjust[scenario]["prior"]) and start.pair == pair
        assert start.low < start.p_union < start.high


@pytest.mark.rule("11.b")
@pytest.mark.parametrize("pair", SHIPPED)
def test_decided_positions_are_exactly_0_or_1_for_every_pair(pair):
    union, confederate = pair.split("-")
    game = ahd.new_game("1861", seed=1)
    game.state.turn, game.state.phasing = 40, Side.CONFEDERATE  # turn 40's last half without the seven cities
    odds = war_odds(game, union=union, confederate=confederate)
    assert (odds.p_union, odds.low, odds.high, odds.stderr, odds.model) == (0.0, 0.0, 0.0, 0.0, "decided")


def _played(decisions: int = 60) -> Game:
    game = ahd.new_game("1861", seed=5)
    bots = {Side.UNION: HeuristicBot(seed=1), Side.CONFEDERATE: HeuristicBot(seed=2)}
    for _ in range(decisions):
        game.roll() if game.current_player == CHANCE else game.apply(bots[game.current_player].choose(game))
    return game


def test_the_session_charts_the_odds_for_its_players_and_again_when_a_menu_changes():
    game = _played()
    s = Session(Game.from_dict(game.to_dict()), union="human", confederate="hard")
    assert len(s.war_odds) >= 2  # past half-turns and the current one
    assert s.war_odds[-1][1] == pytest.approx(war_odds(s.game, union="human", confederate="hard").p_union)
    s.set_players("hard", "hard")
    again = Session(Game.from_dict(game.to_dict()), union="hard", confederate="hard")
    assert s.war_odds == again.war_odds  # every point computed again, as a session opened with these players
    assert s.war_odds[-1][1] == pytest.approx(war_odds(s.game).p_union)
    s.set_players("easy", "search")  # modelled as normal v hard (ahd.odds.pairs.STAND_IN)
    assert s.war_odds == Session(Game.from_dict(game.to_dict()), union="normal", confederate="hard").war_odds


def test_the_note_names_the_players_and_who_stands_in_for_them():
    app = widgets.play("1862", union="human", confederate="hard")
    note = app.war_chart.note.widget
    assert "“human” (Union) against “hard” (Confederacy)" in note.value
    assert "A person is counted as the “normal” computer player" in note.value
    app.session.set_players("hard", "hard")
    assert "“hard” (Union) against “hard” (Confederacy)" in note.value
    assert "A person is counted" not in note.value


def test_a_pair_without_a_fit_in_a_scenario_uses_the_fallback_and_says_so(monkeypatch):
    from ahd.odds import war
    from widgets.board.explain import war_odds_note
    fits = {"hard-hard": {"short": {"offset": 0.0, "prior": 0.75, "games": 8}},
            "normal-normal": {"1861": {"offset": 0.0, "prior": 0.25, "games": 8}}}
    monkeypatch.setattr(war, "scenario_adjustments", lambda name=war.MODEL, pair=DEFAULT_PAIR: fits.get(pair, {}))
    assert war.fitted_pair("normal-hard", "short") == "hard-hard"
    assert war.fitted_pair("normal-hard", "1861") == "normal-normal"
    odds = war_odds(ahd.new_game("short", seed=1), union="human", confederate="hard")
    assert odds.pair == "hard-hard" and odds.p_union == pytest.approx(0.75)
    note = war_odds_note(ahd.new_game("short", seed=1), union="human", confederate="hard")
    assert "not yet measured games between “normal” and “hard”: the number uses those of “hard” against “hard”" in note


def test_the_prior_falls_with_the_time_left_to_the_pairs_hold(monkeypatch):
    """The odds lean on the pair's prior: all of it at the start, then less as the game runs down, to the share
    ``hold`` fitted for the pair (scripts/war_odds_calibration.py fit); without ``hold``, to none. The lean falls
    as the time left to the pair's ``shape`` (stop 53): below 1 it keeps to the prior longer; without it, shape 1."""
    from ahd.odds import war
    assert war.blend_weight(1.0, 0.3) == 1.0 and war.blend_weight(0.0, 0.3) == pytest.approx(0.3)
    assert war.blend_weight(0.5) == pytest.approx(0.5) and war.blend_weight(0.5, 0.4) == pytest.approx(0.7)
    assert war.blend_weight(0.25, 0.0, 0.5) == pytest.approx(0.5)
    assert war.blend_weight(0.5, 0.2, 2.0) == pytest.approx(0.4)
    assert war.blend_weight(1.0, 0.3, 0.25) == 1.0 and war.blend_weight(0.0, 0.3, 0.25) == pytest.approx(0.3)
    game = ahd.new_game("short", seed=5)
    bots = {Side.UNION: HeuristicBot(seed=1), Side.CONFEDERATE: HeuristicBot(seed=2)}
    while game.state.turn < 6 and not game.is_over:
        game.roll() if game.current_player == CHANCE else game.apply(bots[game.current_player].choose(game))
    assert not game.is_over and war.decided(game.state, game.scenario, game.play_on) is None
    left = war.time_left(game.state, game.scenario, game.play_on)
    assert 0 < left < 1
    raw = war.war_odds(game, offsets=False).p_union
    for hold, shape in ((None, None), (0.0, None), (0.6, None), (0.0, 0.25), (0.3, 4.0)):
        fit = {"offset": 0.0, "prior": 0.9, "games": 20} | ({} if hold is None else {"hold": hold}) \
            | ({} if shape is None else {"shape": shape})
        monkeypatch.setattr(war, "scenario_adjustments", lambda name=war.MODEL, pair=DEFAULT_PAIR, f=fit: {"short": f})
        lean = (hold or 0.0) + (1 - (hold or 0.0)) * left ** (shape or 1.0)
        assert war_odds(game).p_union == pytest.approx((1 - lean) * raw + lean * 0.9)



def test_a_cell_fitted_to_the_prior_alone_stays_at_it_and_the_note_says_so(monkeypatch):
    """Where the cross-validation did not show the position adding anything (hold 1, stop 46), the odds are the
    pair's result in its fit games from start to end (until the rules decide), the band too, and the note says why."""
    from ahd.odds import war
    from widgets.board.explain import war_odds_note
    fit = {"short": {"offset": 1.5, "slope": 2.0, "hold": 1.0, "prior": 0.9, "games": 100}}
    monkeypatch.setattr(war, "scenario_adjustments", lambda name=war.MODEL, pair=DEFAULT_PAIR: fit)
    game = ahd.new_game("short", seed=5)
    bots = {Side.UNION: HeuristicBot(seed=1), Side.CONFEDERATE: HeuristicBot(seed=2)}
    seen = []
    while game.state.turn < 8 and not game.is_over:
        if game.current_player != CHANCE:
            odds = war_odds(game)
            seen.append((odds.p_union, odds.low, odds.high))
        game.roll() if game.current_player == CHANCE else game.apply(bots[game.current_player].choose(game))
    assert len(seen) > 5 and all(v == pytest.approx(seen[0]) for v in seen)
    assert seen[0][0] == pytest.approx(0.9) and seen[0][1] < 0.9 < seen[0][2]  # the band: the prior's own
    note = war_odds_note(game, union="normal", confederate="normal")
    assert "stays there until the rules decide the game" in note and "100 games" in note
    fit["short"]["hold"] = 0.3
    assert "stays there" not in war_odds_note(game, union="normal", confederate="normal")

def test_a_pairs_slope_scales_the_models_logit_before_the_offset(monkeypatch):
    """``slope`` (scripts/war_odds_calibration.py fit) multiplies the position model's logit, then the offset is
    added, then the prior is blended in as the time left says; without ``slope`` the logit is unscaled."""
    from ahd.odds import war
    game = ahd.new_game("short", seed=5)
    bots = {Side.UNION: HeuristicBot(seed=1), Side.CONFEDERATE: HeuristicBot(seed=2)}
    while game.state.turn < 6 and not game.is_over:
        game.roll() if game.current_player == CHANCE else game.apply(bots[game.current_player].choose(game))
    raw = war.war_odds(game, offsets=False).p_union
    z = math.log(raw / (1 - raw))
    left = war.time_left(game.state, game.scenario, game.play_on)
    for slope, offset in ((None, 0.3), (1.0, 0.3), (0.5, -0.2), (1.6, 0.0)):
        fit = {"offset": offset, "prior": 0.4, "games": 20, "hold": 0.2} | ({} if slope is None else {"slope": slope})
        monkeypatch.setattr(war, "scenario_adjustments", lambda name=war.MODEL, pair=DEFAULT_PAIR, f=fit: {"short": f})
        lean = 0.2 + 0.8 * left
        q = 1 / (1 + math.exp(-((slope or 1.0) * z + offset)))
        odds = war_odds(game)
        assert odds.p_union == pytest.approx((1 - lean) * q + lean * 0.4)
        assert odds.low < odds.p_union < odds.high


def test_the_fit_recovers_a_known_slope_offset_and_hold():
    """fit_cell searches its grids for the lowest Brier score: on positions whose results are exactly the blend of a
    known slope, offset and hold it finds those values; with positions that carry no signal it holds the prior."""
    script = load_script("war_odds_calibration")
    rng = np.random.default_rng(7)
    z = rng.normal(0, 1.5, 4000)
    left = rng.uniform(0, 1, 4000)
    prior, slope, offset, hold = 0.3, 0.6, -0.4, 0.2
    lean = hold + (1 - hold) * left
    truth = (1 - lean) / (1 + np.exp(-(slope * z + offset))) + lean * prior
    pts = [(1 / (1 + math.exp(-zz)), float(t), 1.0, float(l)) for zz, t, l in zip(z, truth, left)]
    got = script.fit_cell(pts, prior, slopes=(0.4, 0.6, 0.8, 1.0), holds=(0.0, 0.2, 0.4))
    assert got[0] == pytest.approx(offset, abs=0.021) and got[1] == pytest.approx(hold) and got[2] == pytest.approx(slope)
    noise = [(1 / (1 + math.exp(-zz)), float(rng.uniform() < prior), 1.0, float(l)) for zz, l in zip(z, left)]
    _, hold, slope, _, _ = script.fit_cell(noise, prior, slopes=(0.0, 1.0), holds=(0.0, 1.0))
    assert slope == 0.0 or hold == 1.0  # a constant: the model's swings are noise here
    # the prior alone (hold 1 only): no search; offset 0 and slope 1, as the penalties would pick
    assert script.fit_cell(noise, prior, *script.PRIOR_ALONE) == (0.0, 1.0, 1.0, 0.0, 1.0)


def test_the_fit_writes_each_cell_it_has_games_for_and_drops_only_their_stale_held_out_figures(tmp_path, monkeypatch, capsys):
    """``fit`` replaces the entry of every (pair, scenario) in its games, keeps the others as they were, and says
    when a replaced entry's held-out figures (of the earlier fit) are gone, so that the report is run again."""
    script = load_script("war_odds_calibration")
    data = {"models": {}, "pairs": {"hard-hard": {"by_scenario": {
        "1861": {"offset": 9.0, "prior": 0.5, "games": 1, "heldout": {"games": 40}},
        "1862": {"offset": 1.0, "prior": 0.2, "games": 1, "heldout": {"games": 40}}}}}}
    (tmp_path / "ahd" / "data").mkdir(parents=True)
    path = tmp_path / "ahd" / "data" / "war_odds.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    rng = np.random.default_rng(3)
    games = [dict(scenario="1861", pair="hard v hard", y=float(y), seed=944000 + i,
                  pts=[(float(p), 1, False, 1 - k / 5) for k, p in enumerate(rng.uniform(0.2, 0.8, 5))])
             for i, y in enumerate(rng.uniform(size=20) < 0.4)]
    monkeypatch.setattr(script, "ROOT", tmp_path)
    monkeypatch.setattr(script, "games_of", lambda files: games)
    script.fit(argparse.Namespace(files=["g_944000_1861_hard-hard.jsonl"], slopes="0.2..2", prior_alone=[],
                                  no_shape=False, form="shape", loss="brier"))
    cells = json.loads(path.read_text(encoding="utf-8"))["pairs"]["hard-hard"]["by_scenario"]
    assert cells["1861"]["shape"] in script.SHAPES and "coef" not in cells["1861"]  # stops 53-54: the lean's shape
    script.fit(argparse.Namespace(files=["g_944000_1861_hard-hard.jsonl"], slopes="0.2..2", prior_alone=[],
                                  no_shape=False, form="anchor", loss="log"))
    by_likelihood = json.loads(path.read_text(encoding="utf-8"))["pairs"]["hard-hard"]
    assert by_likelihood["command"].endswith("--loss log")
    script.fit(argparse.Namespace(files=["g_944000_1861_hard-hard.jsonl"], slopes="0.2..2", prior_alone=[],
                                  no_shape=False, form="anchor", loss="brier"))
    written = json.loads(path.read_text(encoding="utf-8"))["pairs"]["hard-hard"]
    assert written["command"].endswith("--loss brier")  # stop 56: least squares, the app's fit
    assert written["by_scenario"]["1861"]["coef"] != by_likelihood["by_scenario"]["1861"]["coef"]
    cells = written["by_scenario"]
    assert cells["1861"]["form"] == "anchor" and len(cells["1861"]["coef"]) == 4  # stop 55: the app's form
    assert not {"offset", "slope", "hold", "shape"} & set(cells["1861"])
    wins = sum(g["y"] for g in games)
    assert cells["1861"]["prior"] == round((wins + 1) / 22, 4) and cells["1861"]["games"] == 20
    assert cells["1861"]["seeds"] == "944000-944019" and "heldout" not in cells["1861"]
    assert cells["1862"] == data["pairs"]["hard-hard"]["by_scenario"]["1862"]  # no games: kept, figures and all
    assert "held-out figures of 1 refitted cells are dropped" in capsys.readouterr().out
