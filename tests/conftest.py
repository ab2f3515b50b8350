"""Shared test helpers: build positions as small scenarios, pass decisions, compare states.

Every rule test carries ``@pytest.mark.rule("<ID>")`` with the rule ID of ahd-rules.md it checks;
``pytest -p no:randomly --rules`` style reporting is printed at the end of the run.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

import pytest

import ahd
from ahd.scenario import FORMAT, scenario_from_dict
from ahd.sides import CHANCE, Side

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
    """A test position as a Scenario.

    ``units``: tuples (side, type, box[, count[, entrenched]]), e.g. ("union", "MF", "evansville", 3).
    ``control``: {"union": [boxes], "confederate": [boxes], "neutral": [boxes]} over the printed owners
    (occupied boxes then pass to their occupier as in S-0).
    The game starts at ``turn`` and each side has ``marches`` marches without a roll on that turn.
    """
    rows = []
    for spec in units:
        side, code, box, *rest = spec
        count = rest[0] if rest else 1
        entrenched = rest[1] if len(rest) > 1 else False
        rows.append({"side": side, "type": code, "box": box, "count": count, "entrenched": entrenched})
    data = {"format": FORMAT, "version": 1, "id": "test", "rule": "test", "title": "test position",
            "start_turn": turn, "first_turn_marches": marches, "last_turn": last_turn, "end": end,
            "units": rows, "control": control or {}}
    return scenario_from_dict(data, "<test>")


def make_game(units: Iterable[tuple], *, control: dict | None = None, turn: int = 2, marches: int = 2,
              options=None, dice: str = "manual", seed: int = 0, last_turn: int = 40,
              end: str = "campaign") -> ahd.Game:
    """A Game at the start of the Union movement of ``turn`` with ``marches`` marches (no roll)."""
    return ahd.new_game(scenario(units, control=control, turn=turn, marches=marches, last_turn=last_turn,
                                 end=end), options=options, seed=seed, dice=dice)


PASSES = (ahd.EndMovement, ahd.EndMarch, ahd.NoPromotion, ahd.EndRecruitment, ahd.OpenFire, ahd.FireAuto,
          ahd.HoldGround)


def pass_decision(game: ahd.Game, roll: int = 1) -> ahd.Action:
    """Take the 'do nothing' action of the current decision (or roll ``roll`` for a die)."""
    if game.current_player == CHANCE:
        action = ahd.Roll(roll)
    else:
        action = next(a for a in game.legal_actions() if isinstance(a, PASSES))
    game.apply(action)
    return action


def pass_until(game: ahd.Game, predicate, roll: int = 1, limit: int = 500) -> None:
    """Pass decisions until ``predicate(game)`` holds."""
    for _ in range(limit):
        if predicate(game):
            return
        pass_decision(game, roll)
    raise AssertionError("predicate never became true")


def to_confederate_movement(game: ahd.Game, roll: int = 1) -> None:
    """Pass the rest of the Union half-turn; stop at the Confederate movement decision."""
    pass_until(game, lambda g: g.phasing is Side.CONFEDERATE and g.decision == "movement", roll)


def march(game: ahd.Game, origin: str, *orders: ahd.Action) -> None:
    """One complete march: begin at ``origin``, apply the orders, end it if it is still open."""
    game.apply(ahd.BeginMarch(origin))
    for order in orders:
        game.apply(order)
    if game.decision == "march":
        game.apply(ahd.EndMarch())


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
