"""Issue 16: the battle, advanced-rule and leader messages of the engine, and the bots' plan lines, are kept as
messages (``Msg``) and said in the language they are read in; the English text is unchanged."""
from __future__ import annotations

import sys

import pytest

import ahd
from ahd.bots import make_bot
from ahd.bots.base import PlanNote
from ahd.bots.heuristic import HeuristicBot
from ahd.core import battle_moves, combat, leaders
from ahd.core.engine import Engine
from ahd.core.errors import IllegalActionError
from ahd.core.i18n import Joined, Msg, language, render
from ahd.core.sides import CHANCE, Side

from i18n_catalogs import compile_catalog, use_catalogs
from test_battles import modifier_battle

#: The modules whose texts this test is about.
MODULES = {"ahd.core.combat", "ahd.core.combat_steps", "ahd.core.advanced", "ahd.core.advanced_steps",
           "ahd.core.leaders"}
#: Log kinds only those modules write.
KINDS = {"battle", "retreat", "reinforce", "fire", "shot", "morale", "command", "leader", "contain", "promote",
         "recover"}
#: Seeded games with the advanced rules (A-*) and with every rule (A-*, AO-*: leaders, morale, desertion...).
GAMES = [("1861", "advanced", 5, 14), ("1863", "everything", 2, 26), ("1862", "everything", 11, 20)]


@pytest.fixture
def said(monkeypatch):
    """Every log line and every refusal made by :data:`MODULES` while the test runs: (module, message)."""
    lines: list[tuple[str, object]] = []
    refusals: list[tuple[str, object]] = []
    log, init = Engine.log, IllegalActionError.__init__

    def logged(self, kind, message):
        lines.append((sys._getframe(1).f_globals["__name__"], message))
        return log(self, kind, message)

    def refused(self, rule, message, action=None):
        refusals.append((sys._getframe(1).f_globals["__name__"], message))
        return init(self, rule, message, action)

    monkeypatch.setattr(Engine, "log", logged)
    monkeypatch.setattr(IllegalActionError, "__init__", refused)
    return lines, refusals


def play(scenario: str, options: str, seed: int, turns: int) -> ahd.Game:
    game = ahd.new_game(scenario, options=options, seed=seed)
    bots = {Side.UNION: HeuristicBot(seed=seed), Side.CONFEDERATE: HeuristicBot(seed=seed + 1)}
    while not game.is_over and game.turn.number < turns:
        if game.current_player == CHANCE:
            game.roll()
        else:
            game.apply(bots[game.current_player].choose(game))
    return game


def msgids(value) -> set[str]:
    """The message ids inside a message, its nested messages included."""
    found = set()
    if isinstance(value, Msg):
        found.add(value.msgid)
        for param in value.params.values():
            found |= msgids(param)
    elif isinstance(value, Joined):
        for part in value.parts:
            found |= msgids(part)
    return found


@pytest.mark.parametrize("scenario,options,seed,turns", GAMES, ids=[f"{g[0]}-{g[1]}" for g in GAMES])
def test_battle_and_advanced_rule_lines_and_refusals_are_messages(said, scenario, options, seed, turns):
    lines, refusals = said
    game = play(scenario, options, seed, turns)
    ours = [(module, message) for module, message in lines if module in MODULES]
    assert len(ours) > 50
    plain = [(module, message) for module, message in ours if not isinstance(message, Msg)]
    assert not plain, plain[:5]
    for event in game.log:
        if event.kind in KINDS:
            assert isinstance(event.message, Msg), event
    refused = [(module, message) for module, message in refusals if module in MODULES]
    assert len(refused) > 20  # the bots' legal actions ask the battle rules about every target and box
    plain = [(module, message) for module, message in refused if not isinstance(message, Msg)]
    assert not plain, plain[:5]
    # the messages are kept whole: nothing was said in English before the log is read
    seen = set().union(*(msgids(message) for _, message in ours))
    assert {"Battle at {box}: {attackers} attack {defenders}", "Round {round}, {side} fire: {targets} (5.1.a)",
            "{shooter} at {target}: {roll} — {result}. {value} = {why}"} <= seen
    if options == "everything":
        assert any(kind in {"morale", "leader"} for kind in (e.kind for e in game.log))


def test_explanations_and_refusals_keep_their_english(said):
    game = modifier_battle("FS", "FV", crossing=True)
    state, battle = game.state, game.battle
    attacker = state.units_in(battle.box, Side.UNION)[0]
    defender = state.units_in(battle.box, Side.CONFEDERATE)[0]
    why = combat.explain_shot(state, battle, defender, attacker)
    assert isinstance(why, Msg)
    assert why == "3 = veteran infantry 3 + 1 river crossing (5.2.3) − 1 crack infantry target (5.2.2)"
    assert str(why) == render(why, "en") and "river crossing" in why
    error = battle_moves.reinforcement_barrier(state, battle, defender.id)
    assert isinstance(error.message, Msg) and error.rule == "5.2.4"
    assert error.reason == "reinforcements arrive from round 2 on"
    error = battle_moves.retreat_barrier(state, battle, Side.CONFEDERATE, "washington")
    assert isinstance(error.message, Msg) and str(error).startswith("Confederate units may never retreat across "
                                                                   "the Potomac (4.2.6")


def test_leader_refusals_are_messages_with_their_english():
    game = ahd.new_game("1863", options="everything", seed=2)  # Grant and Sherman at Arkansas Post, Lee at Fredericksburg
    s = game.state
    refusals = {
        leaders.check_place(s, "nobody", "richmond", [], "AO-8.2.0"): "'nobody' is not a leader to be placed now",
        leaders.check_place(s, "lee", "washington", [s.leaders["lee"]], "AO-8.2.0"):
            "Lee must be placed in a box with Confederate units",
        leaders.movable(s, "nobody")[1]: "'nobody' is not a leader on the map",
        leaders.movable(s, "lee")[1]: "Lee is not a leader of the side to move",
        leaders.check_follow(s, "grant", "U-MF-01"): "U-MF-01 has not moved this half-turn",
    }
    for error, english in refusals.items():
        assert isinstance(error.message, Msg) and error.reason == english and str(error).startswith(english + " (AO-8.2")
    s.leaders["grant"].marches = 2
    error = leaders.movable(s, "grant")[1]
    assert isinstance(error.message, Msg) and error.reason == "Grant has already made two marches this turn"


# --------------------------------------------------------------------------- a tiny catalog
SPANISH = [
    (None, "{shooter} at {target}: {roll} — {result}. {value} = {why}",
     "{shooter} dispara a {target}: {roll} — {result}. {value} = {why}"),
    (None, "needs {value} or less, rolls {natural}", "necesita {value} o menos, saca {natural}"),
    (None, "miss", "falla"),
    (None, "hit: {target} reduced (5.1.c)", "impacto: {target} reducida (5.1.c)"),
    ("shot term", "{sign} {amount} {what} ({rule})", "{sign} {amount} {what} ({rule})"),
    (None, "river crossing", "cruce de río"),
    (None, "reinforcements arrive from round 2 on", "los refuerzos llegan a partir de la ronda 2"),
    ("box", "Fredericksburg", "Fredericksburgo"),
    (None, "Battle at {box}: {attackers} attack {defenders}", "Batalla en {box}: {attackers} atacan a {defenders}"),
]
PLANS = [
    (("gathering at {stage} to storm {target}, {chance:.0%} with {n} unit",
      "gathering at {stage} to storm {target}, {chance:.0%} with {n} units"),
     ("reuniendo en {stage} para asaltar {target}, {chance:.0%} con {n} unidad",
      "reuniendo en {stage} para asaltar {target}, {chance:.0%} con {n} unidades")),
    (("storming {target} from {origin}, {chance:.0%} with {n} unit",
      "storming {target} from {origin}, {chance:.0%} with {n} units"),
     ("asaltando {target} desde {origin}, {chance:.0%} con {n} unidad",
      "asaltando {target} desde {origin}, {chance:.0%} con {n} unidades")),
]


@pytest.fixture
def spanish(tmp_path, monkeypatch):
    """The engine's Spanish catalog replaced by :data:`SPANISH` and :data:`PLANS`, compiled with Babel into
    ``tmp_path``."""
    compile_catalog(tmp_path, "ahd", [*SPANISH, *((None, msgid, msgstr) for msgid, msgstr in PLANS)])
    with use_catalogs(monkeypatch, engine=tmp_path):
        yield "es"


def test_a_catalog_changes_a_shot_line_and_a_refusal_and_keeps_the_rules(spanish):
    game = modifier_battle("FS", "FV", crossing=True)  # the defender's veteran shoots at crossing crack infantry
    state, battle = game.state, game.battle
    defender = state.units_in(battle.box, Side.CONFEDERATE)[0]
    game.roll(6)  # a miss (value 3)
    shot = next(e for e in reversed(game.log) if e.kind == "shot")
    english = shot.text
    assert english.endswith("needs 3 or less, rolls 6 — miss. 3 = veteran infantry 3 + 1 river crossing (5.2.3) − 1 "
                            "crack infantry target (5.2.2)")
    spoken = render(shot.message, "es")
    assert spoken != english
    assert "dispara a" in spoken and "necesita 3 o menos, saca 6 — falla" in spoken and "+ 1 cruce de río (5.2.3)" in spoken
    assert "(5.2.2)" in spoken  # an untranslated term falls back to English, its rule kept
    battle_line = next(e for e in game.log if e.kind == "battle")
    assert render(battle_line.message, "es").startswith("Batalla en Fredericksburgo: Union ")
    game.lang = "es"  # the same game reads in Spanish
    assert any("dispara a" in e.text for e in game.log) and all(e.message is not None for e in game.log)
    game.lang = "en"
    assert next(e for e in reversed(game.log) if e.kind == "shot").text == english
    # a refusal said again in Spanish keeps its rule citation
    error = battle_moves.reinforcement_barrier(state, game.battle, defender.id)
    assert error.text("en").startswith("reinforcements arrive from round 2 on (5.2.4")
    assert error.text("es").startswith("los refuerzos llegan a partir de la ronda 2 (5.2.4")
    with language("es"):
        raised = battle_moves.reinforcement_barrier(state, game.battle, defender.id)
    assert raised.reason == "los refuerzos llegan a partir de la ronda 2" and "(5.2.4" in str(raised)


def test_a_bot_plan_line_is_a_message_said_in_the_language_read(spanish):
    game = ahd.new_game("1861", seed=1)  # the Union storms Richmond on turn 6
    union, confederate = make_bot("normal", 1), make_bot("heuristic", 2)
    while union.plan is None and game.turn.number < 10 and not game.is_over:
        if game.current_player == CHANCE:
            game.roll()
        else:
            game.apply((union if game.current_player is Side.UNION else confederate).choose(game))
    plan = union.plan
    assert isinstance(plan, Msg)
    note = PlanNote(len(game.history), Side.UNION, plan)
    english = str(note)
    assert english.startswith("Union: ") and ("gathering at" in english or "storming" in english)
    assert "%" in english and english.endswith(" units")
    spoken = render(note, "es")
    assert spoken != english and ("reuniendo en" in spoken or "asaltando" in spoken) and "%" in spoken
