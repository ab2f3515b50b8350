"""Difficulty levels (issue 17): easy, normal, hard by name; plan lines; the cancel hook; every bot
finishes short games of every scenario with every preset without an illegal action."""
from __future__ import annotations

import dataclasses
import time

import pytest

import ahd
from ahd.bots import LEVELS, PLAYERS, PlanNote, make_bot, play
from ahd.bots.heuristic import HeuristicBot
from ahd.bots.search import SearchBot
from ahd.core.options import PRESETS
from ahd.core.scenario import load_scenario
from ahd.core.sides import CHANCE

SCENARIOS = ("1861", "short", "1862", "1863", "1864")


class Strict:
    """Wraps a bot: its every choice must be legal by ``why_not`` and listed in ``legal_actions``."""

    def __init__(self, bot):
        self.bot = bot
        self.moves = 0

    @property
    def plan(self):
        return getattr(self.bot, "plan", None)

    def choose(self, game):
        action = self.bot.choose(game)
        assert game.why_not(action) is None and action in game.legal_actions()
        self.moves += 1
        return action


def short_game(scenario: str, preset: str, seed: int, turns: int = 2):
    """The scenario cut to ``turns`` game turns (its own end-of-game rules then apply)."""
    s = load_scenario(scenario)
    s = dataclasses.replace(s, last_turn=min(s.last_turn, s.start_turn + turns - 1))
    return ahd.new_game(s, options=preset, seed=seed)


def test_levels_are_fixed_bots_and_budgets():
    assert isinstance(make_bot("easy", 1), HeuristicBot)
    normal = make_bot("normal", 1)
    union = normal.union
    assert isinstance(union, SearchBot) and not union.lookahead and not union.campaign.guard
    assert union.garrison == "shared" and union.campaign.choose == "strongest" and not union.campaign.grab
    assert isinstance(normal.confederate, HeuristicBot) and normal.confederate.garrison == "each"
    sided = make_bot("hard", 1)
    rebel = sided.confederate.campaign  # normal's Union settings, as the Confederacy (games to turn 40)
    scored = sided.confederate.scored  # the search bot as measured, in the games decided by the maxima
    assert isinstance(scored, SearchBot) and scored.lookahead and scored.iterations == 2
    assert isinstance(rebel, SearchBot) and not rebel.lookahead and rebel.garrison == "shared"
    assert rebel.campaign is not None and not rebel.campaign.guard and rebel.campaign.choose == "strongest"
    hard = sided.union.campaign
    # the short game (S-13) only: the search bot as measured (issue 34); the year scenarios scored on T-8 as 1861
    assert sided.union.scored is hard and isinstance(sided.union.short, SearchBot)
    assert sided.union.short.lookahead and sided.union.short.iterations == 2 and not sided.union.short.maxima
    assert sided.confederate.short is None
    assert isinstance(hard, SearchBot) and not hard.lookahead and hard.campaign.idle == 6
    assert hard.garrison == "shared" and hard.campaign.guard and hard.campaign.choose == "weakest"
    assert hard.campaign.grab and hard.campaign.grab_fight and hard.campaign.push and hard.campaign.sally
    assert hard.campaign.endgame == 30 and hard.campaign.finish and hard.campaign.retake
    # capital only in the scenarios starting after turn 1 (issue 34: 1864's Washington); 1861 as before
    assert hard.campaign.clear and hard.campaign.capital == "year"
    assert make_bot("search:capital=on", 1).campaign.capital is True
    with pytest.raises(ValueError, match="capital"):
        make_bot("search:capital=sometimes", 1)
    for name in ("assaults=2", "assault_odds=0.5", "hold=on"):  # settings no level used: removed (issue 30)
        with pytest.raises(ValueError, match="bad search setting"):
            make_bot(f"search:{name}", 1)
    assert scored.final and not SearchBot(1).final  # hard's Confederacy ends a scored game on the maxima
    for name in LEVELS:
        assert make_bot(name, 1).name == name
        assert name in PLAYERS
    assert make_bot("Hard", 1).name == "hard"


@pytest.mark.parametrize("name, hint", [("hrad", "did you mean 'hard'?"), ("eazy", "did you mean 'easy'?"),
                                        ("norml", "did you mean 'normal'?"), ("heuristc", "did you mean 'heuristic'?"),
                                        ("zzzz", "choose from: easy, normal, hard")])
def test_misspelt_names_are_refused_with_a_hint(name, hint):
    with pytest.raises(ValueError) as error:
        make_bot(name, 1)
    assert str(error.value) == f"unknown player {name!r}; {hint}" or hint in str(error.value)
    assert str(error.value).startswith(f"unknown player {name!r}; ")


def test_cli_refuses_a_misspelt_level(capsys):
    from ahd.cli import main
    assert main(["play", "--union", "hrad", "--confederate", "heuristic"]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert "1861" not in captured.out  # refused before any game is set up
    assert "unknown player 'hrad'; did you mean 'hard'?" in err


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_bot_finishes_every_scenario_with_every_preset(scenario):
    """Short games (one turn of each scenario) for each preset; every bot in one seat or the other."""
    names = ("random", "heuristic", "easy", "normal", "hard")  # the search bot: tests/test_search.py
    for k, preset in enumerate(PRESETS):
        union = names[k % len(names)]
        confederate = names[(k + 1 + SCENARIOS.index(scenario)) % len(names)]
        game = short_game(scenario, preset, seed=k, turns=1)
        u, c = Strict(make_bot(union, k)), Strict(make_bot(confederate, k + 1))
        play(game, u, c)
        assert game.is_over and u.moves + c.moves > 0


def test_a_seeded_hard_game_is_reproducible_and_plans_do_not_change_the_record():
    def run(with_plans: bool):
        game = short_game("1861", "basic", seed=7, turns=4)
        plans: list[PlanNote] | None = [] if with_plans else None
        play(game, make_bot("hard", 3), make_bot("hard", 4), plans=plans)
        return game, plans
    a, plans = run(True)
    b, _ = run(False)
    assert a.history == b.history and a.outcome == b.outcome
    assert all(isinstance(n, PlanNote) and str(n).startswith(("Union: ", "Confederate: ")) for n in plans)
    assert plans  # the hard bot says its campaign plans
    for side in (ahd.Side.UNION, ahd.Side.CONFEDERATE):  # a line only when the plan changes
        texts = [n.text for n in plans if n.side is side]
        assert all(a != b for a, b in zip(texts, texts[1:]))
    # the record replays bit for bit without the plans
    assert a.to_json() == b.to_json()  # the saved record is the same, byte for byte
    replay = ahd.Game.from_json(a.to_json())  # and replays to the same game
    assert replay.history == a.history and replay.outcome == a.outcome and replay.log == a.log


def test_the_union_plan_is_said_in_one_line():
    game = ahd.new_game("1861", seed=3)
    plans: list[PlanNote] = []
    union = make_bot("normal", 1)
    while game.state.turn < 8 and not game.is_over:
        if game.current_player == CHANCE:
            game.roll()
            continue
        bot = union if game.current_player is ahd.Side.UNION else make_bot("heuristic", 2)
        game.apply(bot.choose(game))
        if game.current_player is not None and bot is union and union.plan and (
                not plans or plans[-1].text != union.plan):
            plans.append(PlanNote(len(game.history), ahd.Side.UNION, union.plan))
    for note in plans:
        assert "\n" not in note.text and ("gathering at" in note.text or "storming" in note.text)
        assert "%" in note.text and "units" in note.text


def test_should_stop_interrupts_the_search_at_once():
    game = ahd.new_game("1861", seed=1)
    while game.decision != "movement" or game.current_player != ahd.Side.UNION:
        if game.current_player == CHANCE:
            game.roll()
        else:
            game.apply(make_bot("heuristic", 1).choose(game))
    slow = SearchBot(1, iterations=50, candidates=4, garrison="shared")
    t0 = time.perf_counter()
    action = slow.choose(game, should_stop=lambda: True)
    assert time.perf_counter() - t0 < 1.0 and action in game.legal_actions()
    assert slow.stats["rollouts"] == 0
    calls = []
    slow.choose(game, should_stop=lambda: calls.append(1) or len(calls) > 3)
    assert 0 < slow.stats["rollouts"] <= 3


def test_the_app_shows_plan_lines_that_are_not_in_the_record():
    from widgets.model.session import Session
    game = short_game("short", "basic", seed=5, turns=3)
    session = Session(game, union="hard", confederate="normal", pace=0)
    session.bot_step()
    assert session.game.is_over
    plans = [line for line in session.log_lines if line.startswith("plan: ")]
    assert plans and all(line.startswith(("plan: Union: ", "plan: Confederate: ")) for line in plans)
    assert [line for line in session.log_lines if not line.startswith("plan: ")] == [str(e) for e in session.game.log]
    session.set_players("hrad", "human")  # a gesture: the refusal goes to the status line
    assert "unknown player 'hrad'; did you mean 'hard'?" in session.status and session.union == "hard"


@pytest.mark.rule("S-13")
def test_hard_plays_the_union_of_the_short_game_with_its_own_bot_and_the_year_scenarios_as_before():
    """The Union's short-game bot decides only in the short game; a year scenario scored on T-8 (not played on)
    and the campaign keep the campaign plan."""
    from ahd.bots.base import ScoredBot
    for scenario, which in (("short", "short"), ("1863", "scored"), ("1861", "campaign")):
        game = ahd.new_game(scenario, seed=3)
        union = make_bot("hard", 3).union
        assert isinstance(union, ScoredBot)
        while game.current_player != ahd.Side.UNION:
            game.roll()
        action = union.choose(game)
        assert union._last is getattr(union, which)
        assert action in game.legal_actions()
    plain = ScoredBot(make_bot("heuristic", 1), make_bot("random", 1))
    game = ahd.new_game("short", seed=3)
    plain.choose(game)
    assert plain._last is plain.scored  # no short-game bot: the scored one plays the short game, as before
