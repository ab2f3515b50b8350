"""Issue 15, item 5: every shot says how its number was reached, term by term with rule IDs, from the same
computation as the effective value (``combat.shot_terms``; ``effective_value`` is their sum)."""
from __future__ import annotations

import re

import numpy as np
import pytest

import ahd
from ahd.bots import make_bot
from ahd.core import combat
from ahd.core.sides import CHANCE, Side

from test_battles import modifier_battle

SHOT = re.compile(r"(?:needs (-?\d+) or less|cannot miss|cannot hit \(5\.2\.a\)).*\. (-?\d+) = (.+)$")
TERM = re.compile(r"([+−]) (\d+) [^()]+ \(([\w.-]+)\)")


def explained_sum(text: str) -> int:
    """The sum of an explanation 'veteran infantry 3 + 1 river crossing (5.2.3) − 1 entrenched (5.2.1)'."""
    base = int(re.match(r"[^\d]+ (-?\d+)", text).group(1))
    return base + sum((1 if sign == "+" else -1) * int(amount) for sign, amount, _ in TERM.findall(text))


def independent_value(state, battle, shooter, target) -> int:
    """5.2.a written out again here, from the rulebook's formula, to check the engine's terms against."""
    value = shooter.type.value
    if shooter.side is battle.defender and battle.round <= 2 and target.crossing and target.id not in battle.reinforced:
        value += 1
    value += sum(1 for _, uid in battle.leader_points if uid == shooter.id)
    value -= combat.is_entrenched_in_battle(state, battle, target)
    value -= target.type.is_crack_infantry
    return value


@pytest.mark.rule("5.2.a")
@pytest.mark.rule("5.2.1")
@pytest.mark.rule("5.2.2")
@pytest.mark.rule("5.2.3")
def test_a_shot_with_crossing_entrenchment_and_crack_infantry_is_explained_term_by_term():
    game = modifier_battle("FS", "FV", crossing=True)  # Union crack infantry crosses the Potomac at Fredericksburg
    state, battle = game.state, game.battle
    attacker = state.units_in(battle.box, Side.UNION)[0]
    attacker.entrenched = True  # and counts as entrenched (as in a fort its side holds, 4.2.5 d)
    defender = state.units_in(battle.box, Side.CONFEDERATE)[0]
    terms = combat.shot_terms(state, battle, defender, attacker)
    assert [(t.amount, t.rule) for t in terms] == [(3, "T-1"), (1, "5.2.3"), (-1, "5.2.1"), (-1, "5.2.2")]
    assert sum(t.amount for t in terms) == combat.effective_value(state, battle, defender, attacker) == 2
    why = "veteran infantry 3 + 1 river crossing (5.2.3) − 1 entrenched (5.2.1) − 1 crack infantry target (5.2.2)"
    assert combat.explain_shot(state, battle, defender, attacker) == f"2 = {why}"
    # the die prompt and the log line say it too
    assert game.decision == "shot" and f"hits on 2 or less (5.1.b): 2 = {why}" in game.pending_roll
    game.roll(3)
    line = next(str(e) for e in reversed(game.log) if e.kind == "shot")
    assert line.endswith(f"needs 2 or less, rolls 3 — miss. 2 = {why}")
    assert explained_sum(why) == 2
    assert ahd.rulebook.find_ids(line) == ["5.2.3", "5.2.1", "5.2.2"]  # each term's rule opens in the app


def test_an_unmodified_shot_says_so_and_a_coastal_defence_cites_a5():
    terms = combat.value_terms(2, "militia infantry", crossing_bonus=False, target_entrenched=False,
                               target_crack_infantry=False)
    assert combat.explain_terms(terms) == "militia infantry 2, no modifier"
    coastal = combat.value_terms(3, "coastal defence", crossing_bonus=False, target_entrenched=False,
                                 target_crack_infantry=False, leader_points=0, base_rule="A-5")
    assert combat.explain_terms(coastal) == "coastal defence 3 (A-5), no modifier"
    both = combat.value_terms(3, "veteran infantry", crossing_bonus=False, target_entrenched=False,
                              target_crack_infantry=False, leader_points=2)
    assert combat.explain_terms(both) == "veteran infantry 3 + 2 leader points (AO-8.2.2)"
    # shot_value (the odds' pure form) is the same sum
    for flags in np.ndindex(2, 2, 2):
        kw = dict(crossing_bonus=bool(flags[0]), target_entrenched=bool(flags[1]), target_crack_infantry=bool(flags[2]))
        assert combat.shot_value(3, **kw) == sum(t.amount for t in combat.value_terms(3, **kw)) == 3 + flags[0] - flags[1] - flags[2]


@pytest.mark.rule("5.2.a")
@pytest.mark.parametrize("preset", ["basic", "everything"])
def test_every_shot_of_random_games_is_explained_and_its_terms_sum_to_the_effective_value(preset):
    """Bots play battles from 1861 and 1863 (leaders, coastal defences, containment with 'everything');
    at every shot decision each shooter/target pair's terms are checked against the effective value and
    against 5.2.a written out independently; every shot line's explanation sums to its number."""
    rng = np.random.default_rng(15)
    pairs = lines = 0
    for scenario in ("1861", "1863", "1861", "1863"):
        game = ahd.new_game(scenario, options=preset, seed=int(rng.integers(1000)))
        bots = {side: make_bot("heuristic", seed=int(rng.integers(1000))) for side in ("union", "confederate")}
        while not game.is_over and game.state.turn < (10 if scenario == "1861" else 28):
            state, battle = game.state, game.state.battle
            if battle is not None and game.decision in ("shot", "targets"):
                trial = game.copy()  # the same battle with its units' flags shuffled: every combination occurs
                tstate, tbattle = trial.state, trial.state.battle
                for unit in combat.battle_units(tstate, tbattle, tbattle.attacker) + \
                        combat.battle_units(tstate, tbattle, tbattle.defender):
                    unit.crossing, unit.entrenched = bool(rng.integers(2)), bool(rng.integers(2))
                tbattle.round = int(rng.integers(1, 4))
                for st, bt in ((state, battle), (tstate, tbattle)):
                    for shooter in combat.battle_units(st, bt, bt.firing):
                        for target in combat.battle_units(st, bt, bt.firing.enemy):
                            terms = combat.shot_terms(st, bt, shooter, target)
                            value = combat.effective_value(st, bt, shooter, target)
                            assert sum(t.amount for t in terms) == value == independent_value(st, bt, shooter, target)
                            assert explained_sum(combat.explain_terms(terms)) == value
                            pairs += 1
            player = game.current_player
            game.roll() if player == CHANCE else game.apply(bots[player.value].choose(game))
        for event in game.log:
            if event.kind == "shot" and "is lost" not in event.text:
                match = SHOT.search(event.text)
                assert match, event.text
                number = int(match.group(2))
                assert match.group(1) is None or int(match.group(1)) == number, event.text
                assert explained_sum(match.group(3)) == number, event.text
                for rule in re.findall(r"\(([\w.-]+)\)", match.group(3)):
                    ahd.rulebook.text(rule)  # every cited rule has an entry
                lines += 1
    assert pairs > 150 and lines > 40, (pairs, lines)
