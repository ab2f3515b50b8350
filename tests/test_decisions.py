"""The decision table (ahd/core/decisions.py): an entry for every step the engine can be in, and who
decides agrees with whom the engine takes actions from, over played games."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import ahd
from ahd.bots import RandomBot
from ahd.core import decisions
from ahd.core.actions import ACTION_TYPES
from ahd.core.engine import Engine
from ahd.core.i18n import render
from ahd.core.sides import CHANCE, Side

CORE = Path(ahd.__file__).parent / "core"
#: The state's value before ``Engine.start`` (never seen by a caller: the engine leaves it at once).
NOT_A_DECISION = {"start"}


def engine_steps() -> set[str]:
    """Every step name the engine's code can set or handle: assignments ``.step = "x"``, its handlers
    (``_legal_x``) and the kinds of action it accepts at each step."""
    names: set[str] = set()
    for path in CORE.glob("*.py"):
        names |= set(re.findall(r"\.step = \"(\w+)\"", path.read_text(encoding="utf-8")))
    names |= {name[len("_legal_"):] for name in dir(Engine) if name.startswith("_legal_")}
    names |= set(Engine.ACCEPTS)
    return names - NOT_A_DECISION


def test_every_step_of_the_engine_has_an_entry():
    steps = engine_steps()
    assert "movement" in steps and "shot" in steps and "over" in steps
    missing = steps - set(decisions.DECISIONS)
    assert not missing, f"steps without an entry in ahd/core/decisions.py: {sorted(missing)}"
    stale = set(decisions.DECISIONS) - steps
    assert not stale, f"entries for steps the engine never uses: {sorted(stale)}"


def test_each_entry_is_complete_and_said_in_every_language():
    for step, entry in decisions.DECISIONS.items():
        assert entry.step == step and entry.segment in ("movement", "combat", "promotion", "recruitment", "over")
        assert (entry.die_owner is not None) == entry.is_chance, step
        assert "(" in entry.prompt and entry.rule in entry.prompt, step  # the prompt cites its rule
        assert entry.rule.replace("-", "").replace(".", "").isalnum()
        english = render(decisions.label(step), "en")
        assert english == entry.label and english != step.replace("_", " ") or step in ("over",), step
        for lang in ("es", "it"):
            assert render(decisions.label(step), lang) != english, (step, lang)
            said = render(ahd.core.i18n.Msg(entry.prompt, side=Side.UNION), lang)
            assert said != render(ahd.core.i18n.Msg(entry.prompt, side=Side.UNION), "en"), (step, lang)
    assert decisions.CHANCE_STEPS == tuple(s for s, e in decisions.DECISIONS.items() if e.decider == CHANCE)


def test_every_kind_of_action_is_on_a_box_or_in_a_panel():
    panel = {"roll", "end_march", "end_movement", "leader_follow", "leader_reinforce", "leader_point",
             "hold_ground", "evacuate", "open_fire", "choose_firer", "fire_chosen", "target", "fire_auto", "volley",
             "rally", "no_rally", "no_promotion", "end_recruitment"}
    assert set(decisions.BOX_FIELD) | panel == set(ACTION_TYPES)
    assert not set(decisions.BOX_FIELD) & panel


def reference_die_owner(game: ahd.Game) -> Side | None:
    """Who rolls the pending die at the table, spelled out as the app said it before the table (issue 30)."""
    s = game.state
    if game.pending_roll is None:
        return None
    battle = s.battle
    if s.step == "shot":
        return battle.firing
    if s.step == "command_roll":
        return battle.command_pending[0]
    if s.step == "morale_roll":
        return s.units[battle.morale_pending[0]].side
    if s.step == "desertion_roll":
        return s.units[battle.desertion_pending[0][0]].side
    if s.step in ("training_roll", "border_roll"):
        return Side.CONFEDERATE
    return s.phasing


def acting_sides(game: ahd.Game) -> set[Side]:
    """The sides of the units and leaders that the legal actions now order (a target is the enemy's: left out)."""
    s = game.state
    sides = set()
    for action in game.legal_actions():
        for name in ("unit", "shooter", "leader"):
            uid = getattr(action, name, None)
            if uid in s.units:
                sides.add(s.units[uid].side)
            elif uid in s.leaders:
                sides.add(s.leaders[uid].side)
    return sides


@pytest.mark.rule("3.b")
@pytest.mark.rule("0.3")
@pytest.mark.parametrize("seed, scenario, options", [(11, "short", None), (12, "1861", "advanced"),
                                                     (13, "1862", "advanced"), (14, "short", "everything")])
def test_the_table_agrees_with_the_engine_over_played_games(seed, scenario, options):
    game = ahd.new_game(scenario, options=options, seed=seed, dice="manual")
    bots = {Side.UNION: RandomBot(seed), Side.CONFEDERATE: RandomBot(seed + 1)}
    seen: set[str] = set()
    for count in range(3000):
        step = game.decision
        seen.add(step)
        player = game.current_player
        side = decisions.deciding_side(game)
        str(decisions.prompt(game))  # says itself
        if player is None:
            assert game.is_over and side is None and decisions.die_owner(game) is None
            break
        if player == CHANCE:
            assert decisions.decision(step).is_chance
            assert decisions.die_owner(game) is side is reference_die_owner(game) is not None
            game.roll(count % 6 + 1)
            continue
        assert side is player and decisions.die_owner(game) is None
        assert acting_sides(game) <= {side}, step
        action = bots[player].choose(game)
        box = decisions.action_box(game, action)
        assert box is None or box in game.board.boxes
        game.apply(action)
    assert {"movement", "march", "shot", "recruitment"} <= seen, sorted(seen)


def test_prompt_and_label_in_words():
    game = ahd.new_game("1861", seed=1)
    assert game.decision == "movement"
    assert render(decisions.prompt(game), "en") == "Union: begin a march, move by sea, or end the movement (4.b)"
    assert render(decisions.label("movement"), "en") == "choosing the next march"
    assert render(decisions.label("movement"), "es") != "choosing the next march"


def test_how_each_decision_is_played_follows_the_actions_it_accepts():
    for step, entry in decisions.DECISIONS.items():
        kinds = {cls.kind for cls in Engine.ACCEPTS.get(step, ())}
        on_a_box = kinds & set(decisions.BOX_FIELD)
        if entry.is_chance:
            assert entry.play == decisions.DIE and kinds == {"roll"}, step
        elif step == "over":
            assert entry.play == decisions.OVER and not kinds
        elif entry.play in (decisions.MARCH, decisions.BOX):
            assert on_a_box, step
        else:
            assert entry.play == decisions.PANEL and not on_a_box, step
    assert {s for s, e in decisions.DECISIONS.items() if e.play == decisions.MARCH} == {"movement", "march"}
