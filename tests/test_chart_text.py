"""The charts' text alternative (WCAG 1.1.1, issue 33): under each chart (battle odds, war odds, army maxima) a
sentence says what it shows now, and a button shows its data as a table; both follow the chart as the game goes
on, and speak the app's language."""
from __future__ import annotations

import re

import ahd
import widgets
from ahd.core.positions import position_game
from widgets.app import GameApp
from widgets.model.session import Session


def cells(html: str) -> list[list[str]]:
    """The table's rows (head first) as lists of cell texts."""
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row) for row in re.findall(r"<tr>(.*?)</tr>", html)]


def sentence(chart) -> str:
    return re.search(r"<p class='ahd-chart-text'[^>]*>(.*?)</p>", chart.text.summary.value).group(1)


def test_the_war_and_army_charts_in_words_and_as_tables_follow_the_game():
    app = widgets.play("1861", union="human", confederate="human", lang="en")
    s, game = app.session, app.game
    war, army = app.war_chart, app.army_chart
    odds = ahd.odds.war_odds(game, union="human", confederate="human")  # the chart is for the players
    assert sentence(war).startswith(f"Chance that the Union wins the war: {odds.p_union:.0%} at turn 1, Union half")
    assert cells(war.text.table.value) == [["When", "Union wins the war", "lowest", "highest"],
                                           ["turn 1, Union half", f"{odds.p_union:.0%}", f"{odds.low:.0%}",
                                            f"{odds.high:.0%}"]]
    union, confederate = game.army_max(ahd.Side.UNION), game.army_max(ahd.Side.CONFEDERATE)
    assert sentence(army) == (f"Army maxima at turn 1, Union half: Union {union}, Confederate {confederate}; "
                              f"the Confederacy wins at {union + 1} or above (11.b).")
    # the table is behind its button, which says what it does
    assert war.text.table.layout.display == "none" and war.text.button.description == "Show the data as a table"
    war.text.button.click()
    assert war.text.table.layout.display != "none" and war.text.button.description == "Hide the table"
    # a half-turn later: a second row in both tables, the sentence on the new point
    s.bot_half_turn()
    assert [row[0] for row in cells(war.text.table.value)[1:]] == ["turn 1, Union half", "turn 1, Confederate half"]
    assert [row[0] for row in cells(army.text.table.value)[1:]] == ["turn 1, Union half", "turn 1, Confederate half"]
    assert "at turn 1, Confederate half" in sentence(war) and "It was" in sentence(war)
    # in Spanish: the words, the numbers and the button
    app.set_language("es")
    try:
        assert sentence(war).startswith("Probabilidad de que la Unión gane la guerra:")
        assert war.text.button.description == "Ocultar la tabla"
        assert cells(army.text.table.value)[1][0] == "turno 1, mitad de la Unión"
    finally:
        app.set_language("en")


def test_the_battle_odds_chart_in_words_and_as_a_table():
    game = position_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                          ("confederate", "MF", "little_rock", 2)])
    app = GameApp(Session(game, union="human", confederate="human", war_odds=False))
    s, chart = app.session, app.battle_chart
    assert sentence(chart) == "Battle odds: no battle considered" and chart.text.table.value == ""
    s.click_box("fort_smith")
    s.click_box("little_rock")           # the march: the battle of Little Rock is fought
    odds = s.battle_odds
    said = sentence(chart)
    assert said.startswith("Battle odds: Battle of Little Rock, round 1.")
    assert f"Union wins {odds['attacker_wins']:.0%}" in said and f"Neither {odds['neither']:.0%}" in said
    rows = cells(chart.text.table.value)
    assert rows[:4] == [["Outcome", "Chance"], ["Union wins", f"{odds['attacker_wins']:.0%}"],
                        ["Confederate wins", f"{odds['defender_wins']:.0%}"], ["Neither", f"{odds['neither']:.0%}"]]
    # exact odds: the survivors' spread as a second table, one row per number of units left
    assert rows[4] == ["units left", "Union (attacker)", "Confederate (defender)"]
    assert [row[0] for row in rows[5:]] == [str(k) for k in range(len(rows) - 5)]
