"""Issue 14, items 3 and 4, without a browser: the turn never surprises (what a click moves, why a click is
refused, why recruitment ended, the computer's paced half-turn, dice, log, file feedback) and the charts
(round ticks, legends outside the plots, survivors' distribution, few messages per refresh)."""
from __future__ import annotations

import collections
from html import escape

import numpy as np
import pytest

pytest.importorskip("ipyleaflet")  # the app extra; ./run.sh installs it

import ipywidgets as w

import ahd
import ahd.odds
import widgets
from ahd.core.sides import Side
from widgets.tutorials import tutorial
from widgets.model.gestures import die_owner
from widgets.board.charts import MAX_CATEGORY_CHARS, PERCENT_TICKS
from widgets.board.log import log_groups, log_html
from widgets.model.files import GameFiles
from widgets.model.session import Session

from conftest import make_game


def human_app(scenario="1861", **kwargs):
    return widgets.play(scenario, union="human", confederate="human", war_odds=False, **kwargs)


def visible_quick(app):
    return [b for b in app.panel.quick if b.layout.display != "none"]


# ====================================================================== item 3: turn flow
@pytest.mark.rule("4.b")
def test_a_click_on_a_stack_says_what_will_move_and_how_to_move_fewer():
    app = human_app()
    s, game = app.session, app.game
    app.map_view._on_click(properties={"id": "washington"})
    assert "all 3 units" in s.status and "To move fewer" in s.status and "Units list" in s.status
    assert "Washington would be left empty" in s.status
    s.toggle_unit("U-MF-01")
    assert s.status.startswith("1 of 3 units of Washington picked") and "moves only them" in s.status
    target = s.destinations[0]
    app.map_view._on_click(properties={"id": target})
    assert [u.id for u in game.units_in(target)] == ["U-MF-01"]
    assert "Moved 1 unit" in s.status and "2 stay in Washington" in s.status
    # the whole stack: the status says the box is left empty
    fresh = human_app()
    fresh.session.click_box("chicago")
    fresh.session.click_box("vandalia")
    assert "Chicago is now empty" in fresh.session.status


@pytest.mark.rule("4.b")
def test_an_open_march_is_named_in_the_refusal():
    app = human_app()
    s, game = app.session, app.game
    s.click_box("chicago")
    s.toggle_unit("U-MF-04")
    s.click_box("vandalia")
    assert game.decision == "march"
    record = game.to_json()
    s.click_box("columbus_oh")      # a box of one's own: the next march cannot begin before this one ends
    assert s.status_kind == "refused" and s.status_rule == "4.b"
    assert "end this march first" in s.status and "march from Chicago is still open" in s.status
    assert "no road line" not in s.status
    s.click_box("richmond")         # out of reach of the open march: named first, then the engine's reason
    assert "march from Chicago is still open" in s.status and s.status_rule
    assert game.to_json() == record


@pytest.mark.rule("3.a")
def test_refusals_speak_the_players_language_and_keep_the_rule():
    app = human_app()
    s = app.session
    s.act(ahd.Recruit("chicago", "MF"))          # out of sequence: the decision is movement
    assert s.status_kind == "refused" and s.status_rule == "3.a" and "(3.a" in s.status
    for internal in ("break_out", "leader_follow", "begin_march", "end_movement", "accepted:"):
        assert internal not in s.status
    assert "begin a march" in s.status and "end movement" in s.status
    assert "3.a" in app.panel.status.value


@pytest.mark.rule("7.d")
def test_recruitment_says_why_it_ended():
    ex = tutorial.recruitment_exercise()     # die 5, but 2 militia infantry and 1 cavalry in the pool
    s = ex.app.session
    s.act(ahd.Recruit("washington", "MF"))
    assert "Recruitment is over" not in s.status
    s.act(ahd.Recruit("chicago", "MF"))
    s.act(ahd.Recruit("new_york_city", "MC"))
    assert s.decision != "recruitment"
    assert "Recruitment is over after 3 of the 5 recruits the die allowed" in s.status
    assert "pool is empty" in s.status and "(7.d)" in s.status
    # the die reached: said too
    game = ahd.core.positions.position_game([("union", "MF", "washington"), ("confederate", "MF", "richmond")])
    ahd.core.positions.pass_until(game, lambda g: g.decision == "recruit_roll" and g.phasing is Side.UNION)
    game.apply(ahd.Roll(1))
    two = tutorial.session(game)
    two.act(ahd.Recruit("chicago", "MF"))
    two.act(ahd.Recruit("new_york_city", "MC"))
    assert "die allowed 2 recruits, all placed" in two.status


class Clock:
    """A scheduler for tests: the computer's paced decisions wait here until run by hand."""

    def __init__(self):
        self.pending = []

    def __call__(self, delay, callback):
        assert delay > 0
        self.pending.append(callback)

    def run_one(self):
        self.pending.pop(0)()


def to_end_of_union_half(s):
    s.act(ahd.EndMovement())
    while s.phasing == "union" and not s.busy:
        if s.decision == "promotion":
            s.act(ahd.NoPromotion())
        elif s.decision == "recruitment":
            s.act(ahd.EndRecruitment())
        else:
            raise AssertionError(s.decision)


@pytest.mark.rule("3.a")
def test_the_computer_plays_at_a_readable_pace_and_the_human_waits():
    clock = Clock()
    s = Session(ahd.new_game("1861", seed=1), union="human", confederate="heuristic", war_odds=False,
                pace=0.5, scheduler=clock)
    app = widgets.GameApp(s)
    to_end_of_union_half(s)
    # the Union half-turn is over: the computer has begun, one decision at a time
    assert s.busy and s.playing == "Confederate" and len(clock.pending) == 1
    assert "computer's moves appear one by one" in s.prompt
    assert "computer is playing</b> for the Confederate side" in app.panel.busy_note.value
    assert all(control.disabled for control in app.panel.game_controls())
    # the human's next click cannot land in the computer's move
    record, version = s.game.to_json(), s.version
    s.click_box("washington")
    assert s.status_kind == "refused" and "computer is playing" in s.status and s.game.to_json() == record
    s.undo()
    assert s.game.to_json() == record
    ticks = 0
    while clock.pending:
        before = len(s.game.history)
        clock.run_one()
        ticks += 1
        assert len(s.game.history) > before   # one decision per tick (with its automatic dice)
    assert ticks >= 3
    assert not s.busy and not app.panel.busy_note.value
    assert not any(control.disabled for control in app.panel.game_controls())
    assert s.human_to_move and s.version > version
    # without a scheduler or a running event loop (scripts, tests) the computer plays at once
    now = Session(ahd.new_game("1861", seed=1), union="human", confederate="heuristic", war_odds=False)
    to_end_of_union_half(now)
    assert not now.busy and now.human_to_move


def test_new_game_stops_the_computer():
    clock = Clock()
    s = Session(ahd.new_game("1861", seed=1), union="human", confederate="heuristic", war_odds=False,
                scheduler=clock)
    to_end_of_union_half(s)
    assert s.busy
    s.new_game("short", seed=2)
    assert not s.busy
    clock.run_one()                   # a step scheduled for the old game does nothing
    assert s.game.history == [] or s.game.scenario.id == "short"
    assert s.turn == 1 and s.phasing == "union"


def test_the_hover_role_tells_a_lit_box_from_any_other():
    app = human_app()
    s = app.session
    s.hover("washington")
    assert s.hover_role == "select"
    s.hover("richmond")
    assert s.hover_role == "none"
    s.click_box("washington")
    lit = s.destinations[0]
    s.hover(lit)
    assert s.hover_role == "act" and lit in s.destinations
    s.hover("richmond")
    assert s.hover_role == "none"
    s.hover(lit)
    s.click_box(lit)                 # the box under the mouse is no longer lit: the role follows
    assert s.hover_role != "act" or lit in s.destinations
    assert "legal targets" in Session.hover_role.help and "never the lit colour" in Session.hover_role.help


def test_an_old_refusal_is_cleared_by_the_next_gesture_that_works():
    app = human_app()
    s = app.session
    s.click_box("richmond")
    assert s.status_kind == "refused" and "Not allowed" in app.panel.status.value
    s.click_box("washington")                    # works: says what it selected
    assert s.status_kind == "info" and "Not allowed" not in app.panel.status.value
    s.click_box("richmond")
    assert s.status_kind == "refused"
    s.consider(None)                             # works and says nothing: the line is cleared
    assert s.status == "" and "Not allowed" not in app.panel.status.value


def test_the_log_reads_in_order_grouped_by_turn_and_battle():
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2)])
    s = Session(game, war_odds=False)
    app = widgets.GameApp(s)
    s.act(ahd.BeginMarch("fort_smith"))
    for unit in ("U-MF-01", "U-MF-02", "U-FS-01"):
        s.act(ahd.Move(unit, ("fort_smith", "little_rock"), ("river",)))
    for _ in range(60):
        if game.battle is None:
            break
        s.act(s.legal_actions[0])
    assert game.battle is None
    html = app.panel.log.value
    events = game.log
    first, last = escape(str(events[2])), escape(str(events[-1]))
    assert html.index(first) < html.index(last)                      # oldest first
    assert "flex-direction:column-reverse" in html                   # ... and the box opens on the newest
    groups = log_groups(events)
    battles = [(title, lines) for _, _, blocks in groups for title, lines in blocks if title]
    assert battles and battles[0][0].startswith("Battle at Little Rock")
    assert any("wins the battle" in line for line in battles[0][1])
    assert all(not line.startswith("Battle at") for _, lines in battles for line in lines)
    assert "ahd-log-battle" in log_html(events) and "Union half-turn" in html


def test_typed_in_dice_only_for_the_human_sides_and_one_row_of_die_buttons():
    app = widgets.play("1861", union="human", confederate="heuristic", dice="manual", war_odds=False)
    s, panel = app.session, app.panel
    assert panel.dice_mode.value == "manual"
    s.act(ahd.EndMovement())
    s.act(ahd.NoPromotion())
    assert s.side_to_move == "chance" and "Union recruitment roll" in s.prompt
    assert panel.dice_row.layout.display == "flex"
    assert not any(b.description.startswith("Roll a") for b in visible_quick(app))   # one row of die buttons
    panel.die_buttons[0].click()
    s.act(ahd.EndRecruitment())
    # the Confederate bot's half-turn: the human types only the Union's dice (its defenders' shots)
    asked = []
    while (s.turn, s.phasing) != (2, "union"):
        assert s.human_to_move or s.side_to_move == "chance"
        if s.side_to_move == "chance":
            asked.append(die_owner(s.game))
            panel.die_buttons[5].click()
        else:
            s.act(s.legal_actions[0])
    assert set(asked) <= {Side.UNION}
    assert s.side_to_move == "chance" and "Union march roll" in s.prompt and "your dice typed in" in s.dice_text
    # the option for both: every die is typed in
    both = widgets.play("1861", union="human", confederate="heuristic", dice="manual", war_odds=False)
    both.panel.dice_mode.value = "all"
    assert both.session.typed_dice == "all" and both.game.dice == "manual"
    both.session.act(ahd.EndMovement())
    both.session.act(ahd.NoPromotion())
    both.panel.die_buttons[0].click()
    both.session.act(ahd.EndRecruitment())
    for _ in range(100):    # the Confederate attack: the human is asked for the Confederate dice too
        if both.session.side_to_move == "chance" and die_owner(both.game) is Side.CONFEDERATE:
            break
        if both.session.side_to_move == "chance":
            both.panel.die_buttons[5].click()
        else:
            both.session.act(both.session.legal_actions[0])
    assert both.session.side_to_move == "chance" and die_owner(both.game) is Side.CONFEDERATE
    assert both.session.phasing == "confederate" and "every die typed in" in both.session.dice_text


def test_save_and_load_feedback_sits_next_to_the_file_controls(tmp_path):
    app = human_app()
    panel = app.panel
    panel.files = GameFiles(tmp_path)
    panel.filename.value = "one.json"
    panel.save.click()
    assert "Saved to" in panel.file_status.value
    children = panel.widget.children
    assert children.index(panel.file_status) > children.index(panel.server_files)
    panel.filename.value = "missing.json"
    panel.load.click()
    assert "#b71c1c" in panel.file_status.value and app.session.status_kind == "refused"


# ====================================================================== item 4: charts
def _percent_axes(figure):
    return [a for a in figure.axes if a.tick_format == ".0%"]


def test_charts_have_round_percent_ticks_and_no_legend_over_the_data():
    app = human_app()
    assert app.battle_chart.survivor_figure is None  # made for the first exact odds (a hidden figure has no size)
    app.battle_chart._survivor_chart()
    for figure in (app.battle_chart.figure, app.battle_chart.survivor_figure, app.war_chart.figure):
        axes = _percent_axes(figure)
        assert axes and all(list(a.tick_values) == [0.0, 0.25, 0.5, 0.75, 1.0] for a in axes)
    assert list(PERCENT_TICKS) == [0.0, 0.25, 0.5, 0.75, 1.0]
    for chart in (app.war_chart, app.army_chart):
        assert not any(mark.display_legend for mark in chart.figure.marks)    # no box inside the plot
        assert isinstance(chart.widget, w.VBox) and chart.legend in chart.widget.children
    assert "Union wins the war" in app.war_chart.legend.value and "uncertainty" in app.war_chart.legend.value
    assert "Confederacy wins at or above (11.b)" in app.army_chart.legend.value


def test_battle_odds_show_the_distribution_of_survivors():
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2)])
    app = widgets.GameApp(Session(game, war_odds=False))
    s = app.session
    s.click_box("fort_smith")
    app.map_view._on_hover(properties={"id": "little_rock"})
    expected = ahd.odds.battle_odds(["MF", "MF", "FS"], ["MF", "MF"])
    shown = app.battle_chart.survivor_distribution()
    assert shown.shape == (2, 4)
    for row, side in enumerate(("attacker", "defender")):
        want = np.zeros(4)
        for units, p in expected.survivors[side].items():
            want[len(units)] += p
        assert list(shown[row]) == pytest.approx(list(want), abs=1e-12)
    assert shown.sum(axis=1) == pytest.approx([1.0, 1.0])
    assert shown[0, 0] == pytest.approx(expected.defender_wins)      # the loser keeps nothing
    assert app.battle_chart.survivor_figure.layout.display != "none"
    assert "Union (attacker)" in app.battle_chart.survivor_legend.value
    # the category labels are short enough not to overlap
    assert all(len(label) <= MAX_CATEGORY_CHARS for label in app.battle_chart.bars.x)
    assert list(app.battle_chart.bars.x) == ["Union wins", "Confederate wins", "Neither"]


@pytest.fixture
def messages(monkeypatch):
    """Count the update messages each widget class sends to the browser."""
    counts = collections.Counter()
    send = w.Widget._send

    def counting(self, msg, buffers=None):
        if msg.get("method") == "update" and self.comm is not None:  # no comm (not open yet): nothing is sent
            counts[type(self).__name__] += 1
            counts[self.model_id] += 1
        return send(self, msg, buffers)

    monkeypatch.setattr(w.Widget, "_send", counting)
    return counts


def test_a_refresh_sends_one_message_per_changed_chart_mark(messages):
    """Before hold_sync on the marks, a half-turn's refresh sent 10 messages for the 5 lines of the war and
    army charts (x and y apart); now 5, one per line."""
    app = widgets.play("1861", union="human", confederate="human")
    messages.clear()
    app.session.bot_half_turn()
    assert messages["Lines"] == 5
    # hovering an attack: one message for each bar mark that changes
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2)])
    small = widgets.GameApp(Session(game, war_odds=False))
    small.session.click_box("fort_smith")
    messages.clear()
    small.map_view._on_hover(properties={"id": "little_rock"})
    assert messages["Bars"] == 2 and messages["Figure"] <= 2
    # the attack itself: every widget of the panel and the charts sends at most one message
    messages.clear()
    small.session.click_box("little_rock")
    assert small.game.battle is not None
    ours = {widget.model_id for root in (small.panel.widget, small.battle_chart.widget, small.war_chart.widget,
                                         small.army_chart.widget) for widget in _tree(root)}
    per_widget = {key: n for key, n in messages.items() if key in ours}
    assert per_widget and max(per_widget.values()) == 1


def _tree(widget):
    yield widget
    for child in getattr(widget, "children", ()) or ():
        yield from _tree(child)
    for mark in getattr(widget, "marks", ()) or ():
        yield mark


def test_a_side_given_to_the_computer_plays_and_can_be_taken_back_while_it_plays():
    clock = Clock()
    s = Session(ahd.new_game("short", seed=1), union="human", confederate="heuristic", war_odds=False,
                scheduler=clock)
    app = widgets.GameApp(s)
    app.panel.union_player.value = "heuristic"          # the Union to the computer: it plays at once
    assert s.busy and s.playing == "Union" and clock.pending
    assert not app.panel.union_player.disabled           # the player menus stay usable while it plays
    clock.run_one()
    app.panel.union_player.value = "human"               # taken back: the computer stops at the Union's decision
    for _ in range(400):
        if not clock.pending:
            break
        clock.run_one()
    assert not s.busy and s.union == "human"
    assert s.human_to_move or s.game.is_over
    # without an event loop the computer plays at once
    quick = Session(ahd.new_game("short", seed=1), union="human", confederate="heuristic", war_odds=False)
    panel = widgets.GameApp(quick).panel
    panel.union_player.value = "heuristic"
    panel.confederate_player.value = "heuristic"
    assert quick.game.is_over and not quick.busy


def test_a_redraw_of_the_panel_is_not_a_gesture():
    """New options in the panel's lists reset their selection: that must neither act nor clear the status."""
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2)])
    app = widgets.GameApp(Session(game, war_odds=False))
    s = app.session
    s.click_box("fort_smith")
    app.panel.actions.value = len(s.legal) - 1        # the player picks the last action in the list
    s.click_box("little_rock")                         # a gesture that changes the lists
    assert s.status.startswith("Moved 3 units to Little Rock")
    assert s.battle_odds["label"] == "Battle of Little Rock, round 1"
