"""Shared test helpers: build positions as small scenarios, pass decisions, compare states.

Every rule test carries ``@pytest.mark.rule("<ID>")`` with the rule ID of ahd-rules.md it checks;
``pytest -p no:randomly --rules`` style reporting is printed at the end of the run.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

import pytest

import ahd
from ahd.core.positions import (PASSES, march, pass_decision, pass_until, position, position_game,  # noqa: F401
                           to_confederate_movement)
from ahd.core.sides import Side

_RULES_SEEN: Counter = Counter()


def pytest_collection_modifyitems(config, items):
    for item in items:
        for mark in item.iter_markers("rule"):
            for rule in mark.args:
                _RULES_SEEN[rule] += 1


def pytest_terminal_summary(terminalreporter):
    if _RULES_SEEN:
        rules = sorted(_RULES_SEEN)
        terminalreporter.write_line(f"rules covered by marked tests: {len(rules)}: {' '.join(rules)}")


def scenario(units: Iterable[tuple], *, control: dict | None = None, turn: int = 2, marches: int = 2,
             last_turn: int = 40, end: str = "campaign"):
    """A test position as a Scenario: :func:`ahd.core.positions.position` with the id ``test``."""
    return position(units, control=control, turn=turn, marches=marches, last_turn=last_turn, end=end,
                    title="test position", id="test")


def make_game(units: Iterable[tuple], *, control: dict | None = None, turn: int = 2, marches: int = 2,
              options=None, dice: str = "manual", seed: int = 0, last_turn: int = 40,
              end: str = "campaign") -> ahd.Game:
    """A Game at the start of the Union movement of ``turn`` with ``marches`` marches (no roll)."""
    return position_game(units, control=control, turn=turn, marches=marches, options=options, dice=dice,
                         seed=seed, last_turn=last_turn, end=end)


def units_at(game: ahd.Game, box: str, side=None, code: str | None = None) -> list:
    return [u for u in game.units_in(box, side) if code is None or u.type.code == code]


def ids_at(game: ahd.Game, box: str, side=None) -> list[str]:
    return sorted(u.id for u in game.units_in(box, side))


def snapshot(game: ahd.Game) -> tuple:
    """Everything observable about a game, to assert 'unchanged' after a refused action."""
    s = game.state
    units = sorted((u.id, u.location, u.strength, u.entrenched, u.entrench_progress, u.marches, u.stopped,
                    u.jumped, u.naval, u.crossing, u.retreated, u.fought) for u in s.units.values())
    battle = None
    if s.battle is not None:
        b = s.battle
        battle = (b.box, b.round, b.firing, tuple(b.targets), b.shot_index, sorted(b.reinforced),
                  sorted(b.command.items()), b.day, tuple(b.firers or ()), tuple(b.leader_points))
    return (s.turn, s.phasing, s.step, s.marches_left, s.march_origin, tuple(s.march_ordered), units,
            sorted((k, str(v)) for k, v in s.control.items()), sorted(s.cavalry_held), battle,
            tuple(s.battles), s.recruits_placed, s.recruit_limit, str(s.outcome), len(game.history),
            len(game.log), s.washington_penalty, tuple(s.unsupplied), s.intervention, sorted(s.contained),
            tuple((n, l.location, l.value, l.marches) for n, l in sorted(s.leaders.items())))


def assert_refused(game: ahd.Game, action: ahd.Action, rule: str) -> ahd.IllegalActionError:
    """The action is refused citing ``rule``, and the game is exactly as before."""
    before = snapshot(game)
    assert game.why_not(action) is not None, f"{action} was expected to be illegal"
    with pytest.raises(ahd.IllegalActionError) as info:
        game.apply(action)
    assert info.value.rule == rule, f"refused under {info.value.rule}, expected {rule}: {info.value}"
    assert game.why_not(action).rule == rule
    assert snapshot(game) == before, "a refused action changed the game"
    assert action not in game.legal_actions()
    return info.value


def assert_refused_as_one_of(game: ahd.Game, action: ahd.Action, rules: tuple[str, ...]) -> str:
    """The action is refused (game unchanged) citing one of ``rules``; returns the rule cited."""
    error = game.why_not(action)
    assert error is not None, f"{action} was expected to be illegal"
    assert error.rule in rules, f"refused under {error.rule}, expected one of {rules}: {error}"
    assert_refused(game, action, error.rule)
    return error.rule


@pytest.fixture
def union():
    return Side.UNION


@pytest.fixture
def confederate():
    return Side.CONFEDERATE


def engine_battle_frequency(game: ahd.Game, n: int, seed: int = 0) -> tuple[float, float]:
    """Fight the battle ``game`` stands at ``n`` times in the engine itself (fresh dice for each, from
    ``seed``), under the odds' default policies: open fire (no retreat), automatic targets, and the
    heuristic bot for any other battle decision (leader points). Returns the frequency of an attacker
    win and its binomial standard error."""
    from ahd.core.actions import FireAuto, OpenFire
    from ahd.bots.heuristic import HeuristicBot
    from ahd.core.sides import CHANCE
    bot = HeuristicBot(seed=0)
    attacker = game.state.battle.attacker
    wins = 0
    for k in range(n):
        g = game.copy(dice_seed=seed + k)
        g.dice = "auto"
        battle = g.state.battle
        while g.state.battle is battle and battle.winner is None:
            if g.current_player == CHANCE:
                g.roll()
            elif g.decision == "battle_options":
                g.apply(OpenFire())
            elif g.decision == "targets":
                g.apply(FireAuto())
            else:
                g.apply(bot.choose(g))
        wins += battle.winner is attacker
    p = wins / n
    return p, (p * (1 - p) / n) ** 0.5
