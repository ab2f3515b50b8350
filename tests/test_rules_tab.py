"""Issue 15, items 1 (the app's part) and 6, without a browser: the Rules tab (search, an entry's text, rule
IDs of refusals, prompts and log lines as buttons that open their rule) and the note under the war odds."""
from __future__ import annotations

import re

import pytest

pytest.importorskip("ipyleaflet")  # the app extra

import ahd
import ahd.odds.war
import widgets
from ahd import rulebook
from widgets.board.explain import war_odds_note
from widgets.teaching.rules import RULES_TAB, GAME_TAB, RuleButtons, RulesView, entry_html, log_rules, markdown_html
from widgets.model.session import Session

from conftest import make_game, to_confederate_movement


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip()


def visible(row: RuleButtons) -> list[str]:
    return [b.rule_id for b in row.buttons if b.layout.display != "none"]


def test_searching_the_rules_lists_matches_and_opens_the_one_picked():
    view = RulesView()
    view.query.value = "cavalry withdraw"
    options = [v for _, v in view.results.options]
    assert options == rulebook.search("cavalry withdraw") and "5.2.6" in options
    assert "match “cavalry withdraw”" in view.found.value
    view.results.value = "5.2.6"
    assert view.current == "5.2.6"
    shown = text_of(view.text.value)
    assert shown.startswith("5.2.6 — Cavalry withdrawal") and text_of(markdown_html(rulebook.text("5.2.6")))[:80] in shown
    # related rules are buttons too
    assert visible(view.related) == list(rulebook.entry("5.2.6").see_also)[:8]
    # an ID typed in opens at once; nothing found says so
    view.query.value = "ao-8.1"
    assert view.current == "AO-8.1"
    view.query.value = "zzzz"
    assert view.results.options == () and "No rule mentions" in view.found.value


def test_every_entry_renders_as_escaped_html():
    for rule in rulebook.ids():
        html = entry_html(rule)
        assert "**" not in html and f"data-rule='{rule}'" in html
    assert markdown_html("<img src=x onerror=alert(1)> **b**") == "<p>&lt;img src=x onerror=alert(1)&gt; <b>b</b></p>"
    table = markdown_html("| a | b |\n|---|---|\n| 1 | 2 |")
    assert table.count("<tr>") == 2 and "<th>a</th>" in table and "<td>2</td>" in table
    assert markdown_html("- one\n- two\n\n1. first\n2. second") == \
        "<ul><li>one</li><li>two</li></ul><ol><li>first</li><li>second</li></ol>"


@pytest.mark.rule("4.2.6")
def test_a_refusals_rule_opens_in_the_rules_tab():
    """Confederates may never cross the Potomac: the refusal's rule is a button under the status line, and a
    click on it opens the Rules tab on 4.2.6."""
    game = make_game([("confederate", "MF", "fredericksburg"), ("union", "MF", "chicago")], turn=2)
    to_confederate_movement(game)
    app = widgets.GameApp(Session(game, war_odds=False))
    s, tabs = app.session, app.rules.tabs
    assert tabs.titles == ("Game", "Rules") and tabs.selected_index == GAME_TAB
    s.click_box("fredericksburg")
    s.click_box("washington")
    assert s.status_kind == "refused" and s.status_rule == "4.2.6", s.status
    row = app.rules.status_row
    assert visible(row)[0] == "4.2.6" and row.widget.layout.display == "flex"
    button = row.buttons[0]
    assert button.description.startswith("4.2.6 The Potomac")
    button.click()
    assert tabs.selected_index == RULES_TAB and app.rules.view.current == "4.2.6"
    assert "4.2.6 — The Potomac" in text_of(app.rules.view.text.value)
    app.rules.view.back.click()
    assert tabs.selected_index == GAME_TAB
    # the row sits right under the status line in the panel; the next working gesture clears it
    children = list(app.panel.widget.children)
    assert children.index(row.widget) == children.index(app.panel.status) + 1
    s.click_box("fredericksburg")
    # the refusal's rule is gone; what stays is the rule the prompt cites (the engine's task for the decision)
    assert "4.2.6" not in visible(row) and visible(row) == rulebook.find_ids(s.prompt)


def test_the_rules_of_the_prompt_and_of_the_newest_log_lines_are_buttons():
    app = widgets.play("1861", union="human", confederate="heuristic", war_odds=False)
    s = app.session
    s.bot_half_turn()  # the Union's half-turn by the bot, then the Confederate computer's: battles, control
    cited = [r for e in s.game.log for r in rulebook.find_ids(str(e))]
    assert cited
    row = app.rules.log_row
    assert visible(row) == log_rules(s.game.log) and visible(row)
    newest = next(rulebook.find_ids(str(e)) for e in reversed(s.game.log) if rulebook.find_ids(str(e)))
    assert visible(row)[0] == newest[0]
    for button in row.buttons:
        if button.rule_id:
            button.click()
            assert app.rules.view.current == button.rule_id and app.rules.tabs.selected_index == RULES_TAB
    # a prompt that cites a rule: it is offered too
    s.prompt = "Out of supply (A-2): click a box."
    assert "A-2" in visible(app.rules.status_row)


def test_the_war_odds_note_says_what_they_estimate_from_whose_games_and_how_sure():
    app = widgets.play("1861", union="human", confederate="heuristic")
    s = app.session
    note = text_of(app.war_chart.note.widget.value)
    assert app.war_chart.note.widget in app.war_chart.widget.children
    table = ahd.odds.war.calibration()["campaign"]
    assert "play on from here as the selected players do: “human” (Union) against “heuristic” (Confederacy)" in note
    # who stands in for them (ahd.odds.pairs): a person is "normal", the heuristic "easy"
    assert "A person is counted as the “normal” computer player" in note
    assert "“heuristic” has no measured games of its own: for the Confederacy the number uses “easy”" in note
    assert f"fitted on {table.games:,} simulated games decided by the campaign" in note
    for _, share, about in ahd.odds.war.players():
        assert f"{about} ({share:.0%})" in note
    held = ahd.odds.war.heldout("normal-easy", "1861")  # this pair's held-out games in this scenario
    if held:
        assert f"{int(held['games'])} further games of this scenario between these computer players" in note
        assert f"{held['brier']:.3f}" in note and f"{held['base_brier']:.3f}" in note
    else:
        assert f"{table.heldout_games:,} further games" in note and f"{table.brier:.3f}" in note
    p, low, high = s.war_odds[-1][1:4]
    assert f"Now: {p:.0%}, with a 95% interval of {low:.0%} to {high:.0%}" in note
    # the short game uses the scored model; with the war odds off, no note
    short = text_of(war_odds_note(ahd.new_game("short", seed=1)))
    assert f"fitted on {ahd.odds.war.calibration()['scored'].games:,} simulated games decided by a score" in short
    off = widgets.play("1861", war_odds=False)
    assert off.war_chart.note.widget.value == ""
    # the players are read from the model file, as the fitting script writes them (each with its share)
    players = ahd.odds.war.players()
    assert players and all(name and about for name, _, about in players)
    assert abs(sum(share for _, share, _ in players) - 1) < 1e-9
