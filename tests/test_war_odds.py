"""War odds (issue 5): the live model and deep playouts."""
from __future__ import annotations

import json
from importlib import resources

import pytest

import ahd
from ahd.bots import RandomBot, play
from ahd import war_odds
from ahd.odds.war import FEATURES, WarOddsError, features, load_model
from script_module import load_script


def advanced(scenario, seed, decisions):
    game = ahd.new_game(scenario, seed=seed)
    bots = {ahd.Side.UNION: RandomBot(seed), ahd.Side.CONFEDERATE: RandomBot(seed + 1)}
    for _ in range(decisions):
        if game.is_over:
            break
        if game.current_player == ahd.CHANCE:
            game.roll()
        else:
            game.apply(bots[game.current_player].choose(game))
    return game


@pytest.mark.parametrize("scenario", ["1861", "short", "1862", "1863", "1864"])
def test_live_odds_are_probabilities_with_an_interval(scenario):
    for game in (ahd.new_game(scenario, seed=1), advanced(scenario, 2, 60)):
        if game.is_over:
            continue
        result = war_odds(game)
        assert result.mode == "live" and result.model in ("campaign", "scored")
        assert 0.0 <= result.low <= result.p_union <= result.high <= 1.0
        assert 0.0 < result.stderr < 0.5 and result.n > 0
        assert result.p_confederate == pytest.approx(1 - result.p_union)
        assert "Union wins" in str(result)


def test_live_model_file_matches_the_features_and_beats_the_base_rate():
    data = json.loads(resources.files("ahd").joinpath("data/war_odds.json").read_text())
    assert "fit_war_odds.py" in data["command"]
    for kind, model in data["models"].items():
        assert tuple(model["features"]) == FEATURES[kind]
        # held-out calibration recorded by the fitting script: skill over the base rate
        assert model["heldout_brier"] < model["base_rate_brier"]
        bins = model["reliability"]
        assert sum(row[2] for row in bins) > 100
    assert set(load_model()) == {"campaign", "scored"}


def test_live_odds_follow_the_position():
    """More Confederate cities in Union hands (and a bigger Union maximum) raise the Union's odds."""
    game = ahd.new_game("1861", seed=1)
    kind, x = features(game.state, game.scenario)
    state = game.state.copy()
    for city in ("new_orleans", "memphis", "atlanta"):
        state.control[city] = ahd.Side.UNION
    state._maxima = None
    from ahd.odds.war import live_value
    assert live_value(state, game.scenario) > live_value(game.state, game.scenario)


def test_finished_game_gives_its_result():
    game = ahd.new_game("short", seed=1)
    play(game, RandomBot(1), RandomBot(2))
    result = war_odds(game, "deep", n=3)
    expected = {ahd.Side.UNION: 1.0, ahd.Side.CONFEDERATE: 0.0, None: 0.5}[game.outcome.winner]
    assert result.p_union == expected and result.stderr == 0 and result.mode == "final"


def test_deep_odds_are_deterministic_report_progress_and_match_across_executors():
    from concurrent.futures import ThreadPoolExecutor
    game = advanced("short", 5, 40)
    assert not game.is_over
    seen = []
    one = war_odds(game, "deep", n=6, seed=3, union="random", confederate="heuristic", chunk=2,
                   progress=lambda done, n: seen.append((done, n)))
    assert seen and seen[-1] == (6, 6) and [d for d, _ in seen] == sorted(d for d, _ in seen)
    again = war_odds(game, "deep", n=6, seed=3, union="random", confederate="heuristic", chunk=3)
    with ThreadPoolExecutor(2) as pool:
        other = war_odds(game, "deep", n=6, seed=3, union="random", confederate="heuristic", executor=pool)
    assert one == again == other
    assert one.mode == "deep" and one.n == 6 and 0 <= one.low <= one.p_union <= one.high <= 1
    assert one.p_union == one.wins / 6
    # the position is not changed by the playouts
    assert game.history == advanced("short", 5, 40).history


@pytest.mark.parametrize("kwargs, error, message", [
    (dict(mode="psychic"), WarOddsError, "unknown mode"),
    (dict(mode="deep", n=0), WarOddsError, "positive number of playouts"),
    (dict(mode="deep", n=-5), WarOddsError, "positive number of playouts"),
    (dict(mode="deep", n=2, workers=0), WarOddsError, "workers"),
    (dict(mode="deep", n=2, union="napoleon"), ValueError, "unknown player"),
    (dict(mode="live", n=5), WarOddsError, "no options"),
])
def test_bad_arguments(kwargs, error, message):
    game = ahd.new_game("short", seed=1)
    mode = kwargs.pop("mode")
    with pytest.raises(error, match=message):
        war_odds(game, mode, **kwargs)
    with pytest.raises(WarOddsError, match="needs a Game"):
        war_odds("1861")
    assert issubclass(WarOddsError, ahd.AhdError)


def test_the_stored_calibration_beats_the_base_rate_and_its_table_adds_up():
    from ahd.odds.war import calibration
    tables = calibration()
    assert set(tables) == {"campaign", "scored"}
    for table in tables.values():
        assert 0 <= table.brier < table.base_rate_brier and table.skill > 0
        for low, high, count, predicted, observed in table.reliability:
            assert 0 <= low < high <= 1 and count > 0
            assert low - 1e-9 <= predicted <= high + 1e-9 and 0 <= observed <= 1


def test_the_search_bot_scores_its_continuations_with_the_model_it_was_measured_with(monkeypatch):
    """The app's live model may be refitted (on games between the strongest players); the search bot's
    leaves keep the first fit (``SEARCH_MODEL``), so ``search`` stays the player measured in the README."""
    from ahd.bots.search import SearchBot
    from ahd.odds import war
    first = load_model(war.SEARCH_MODEL)
    assert set(first) == {"campaign", "scored"}
    data = json.loads(resources.files("ahd").joinpath(f"data/{war.SEARCH_MODEL}").read_text())
    for kind, model in data["models"].items():
        assert tuple(model["features"]) == FEATURES[kind]
    names = []
    real = war.predict

    def spy(kind, x, name=war.MODEL):
        names.append(name)
        return real(kind, x, name)
    monkeypatch.setattr(war, "predict", spy)
    game = ahd.new_game("1861", seed=3)
    bot = SearchBot(seed=1, iterations=1, campaign=False)
    while game.decision not in ("movement",) or len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0]) if game.current_player is not ahd.core.sides.CHANCE else game.roll()
    bot.choose(game)
    assert bot.stats["rollouts"] > 0 and names and set(names) == {war.SEARCH_MODEL}


def test_deep_odds_play_out_between_the_players_the_live_model_was_fitted_on():
    """Both modes estimate the same thing: the playouts' default players are the live model's."""
    from ahd.analysis.war_odds import PLAYERS
    from ahd.odds import war
    assert set(PLAYERS) == {name for name, _share, _about in war.players()}
    game = advanced("short", 5, 60)
    assert not game.is_over
    result = war_odds(game, "deep", n=2, seed=1)
    assert result.model == f"{PLAYERS[0]} vs {PLAYERS[1]}" and result.n == 2


def test_the_players_of_the_shipped_model_are_said_in_every_language():
    """The model file's descriptions of its players are marked for the catalogs (``PLAYER_ABOUT``), so
    the app's note is never left in English after a refit with new wording."""
    from ahd.odds.war import PLAYER_ABOUT, players
    english = players("en")
    assert english and all(about in PLAYER_ABOUT for _name, _share, about in english)
    for lang in ("es", "it"):
        assert [about for *_, about in players(lang)] != [about for *_, about in english]
    module = load_script("fit_war_odds")
    assert set(module.ABOUT.values()) <= set(PLAYER_ABOUT)
