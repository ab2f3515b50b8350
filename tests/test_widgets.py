"""The Jupyter layer, driven without a browser: the session's gestures, the map's layers and data,
the panel's buttons and the charts' data follow the engine; illegal clicks are explained."""
from __future__ import annotations

import json

import numpy as np

import pytest

pytest.importorskip("ipyleaflet")  # the app extra; ./run.sh installs it

import ahd
import ahd.odds
import widgets
from ahd.core.sides import Side
from widgets.board.layers import BOX_STYLES
from ahd.core.replay import Replay
from widgets.model.files import GameFiles
from widgets.model.session import Session

from conftest import make_game, snapshot

SCENARIOS = ("1861", "short", "1862", "1863", "1864")


def box_controller(app, box_id):
    """The controller a box's card on the map shows (its class: ahd-union, ahd-confederate, ahd-neutral)."""
    return app.map_view.card(box_id).split('"')[1].split()[1].removeprefix("ahd-")


def app_for(game, **players):
    return widgets.GameApp(Session(game, war_odds=False, **players))


def quick_button(app, text):
    """The panel's action button whose label starts with ``text``."""
    return next(b for b in app.panel.quick if b.layout.display != "none" and b.description.startswith(text))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_the_app_builds_for_every_scenario(scenario):
    app = widgets.play(scenario, union="human", confederate="human", war_odds=False)
    game = app.game
    assert app.map_view.layer_count <= 20
    assert app.map_view.card_count == len(game.board) == 129
    for box in game.board:
        side = game.controller(box.id)
        assert f'class="ahd-card ahd-{side.value if side else "neutral"}' in app.map_view.card(box.id)
    assert len(app.map_view.links.data["features"]) == len(game.board.links)
    assert '<span class="ahd-name">Richmond</span>' in app.map_view.card("richmond")
    assert app.session.army_max == {"union": game.army_max("union"), "confederate": game.army_max("confederate")}
    assert app.army_chart.union.y[-1] == game.army_max("union")
    assert app.session.legal == [str(a) for a in game.legal_actions()]


def test_the_map_is_offline_by_default_and_tiles_are_an_option():
    plain = widgets.play("short", war_odds=False)
    assert not any(type(layer).__name__ == "TileLayer" for layer in plain.map_view.map.layers)
    tiled = widgets.GameApp(Session(ahd.new_game("short", seed=1), war_odds=False), tiles=True)
    assert sum(type(layer).__name__ == "TileLayer" for layer in tiled.map_view.map.layers) == 1


def test_controllers_are_told_apart_by_pattern_and_letter_not_only_colour():
    assert BOX_STYLES["union"]["dashArray"] != BOX_STYLES["confederate"]["dashArray"]
    app = widgets.play("1861", war_odds=False)
    from widgets.board.layers import CSS
    assert "ahd-union { background: #d6e2f5; border: 2px solid" in CSS
    assert "ahd-confederate { background: #e4e4e4; border: 2px dashed" in CSS
    assert "ahd-card ahd-union" in app.map_view.card("washington")
    assert "ahd-card ahd-confederate" in app.map_view.card("richmond")
    assert '<span class="ahd-sr"> (VA); Confederate;' in app.map_view.card("richmond")  # read out, not only seen


@pytest.mark.rule("4.b")
@pytest.mark.rule("5.1.a")
@pytest.mark.rule("6.a")
@pytest.mark.rule("7.b")
def test_a_half_turn_played_by_clicks():
    """E-3's Little Rock: march by clicks, fight with chosen targets, promote, recruit."""
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2)])
    app = app_for(game)
    s = app.session
    # the march: select the origin, the legal destinations light up on the map
    app.map_view._on_click(properties={"id": "fort_smith"})
    assert s.selected == "fort_smith"
    assert "little_rock" in s.destinations
    assert app.map_view.lit == set(s.destinations)
    app.map_view._on_click(properties={"id": "little_rock"})
    assert {u.id for u in game.units_in("little_rock", Side.UNION)} == {"U-MF-01", "U-MF-02", "U-FS-01"}
    assert game.battle is not None and game.battle.box == "little_rock"
    assert s.battle_odds["label"] == "Battle of Little Rock, round 1"
    assert abs(s.battle_odds["attacker_wins"] + s.battle_odds["defender_wins"] + s.battle_odds["neither"] - 1) < 1e-9
    assert app.battle_chart.bars.y[0] == pytest.approx(s.battle_odds["attacker_wins"])
    # the Confederates fire first: choose each unit's target by the panel's buttons
    assert s.decision == "targets" and s.side_to_move == "confederate"
    before = list(app.battle_chart.bars.y)
    quick_button(app, "militia infantry C-MF-01 fires at crack").click()
    quick_button(app, "militia infantry C-MF-02 fires at militia").click()  # 5.1.a: spread first
    assert s.side_to_move == "chance" and app.panel.dice_row.layout.display == "flex"
    app.panel.die_buttons[5].click()     # C-MF-01 misses
    app.panel.die_buttons[5].click()     # C-MF-02 misses
    assert s.decision == "targets" and s.side_to_move == "union"
    quick_button(app, "Fire: spread").click()
    for _ in range(3):
        app.panel.die_buttons[0].click()  # every Union shot hits
    assert game.battle is None or list(app.battle_chart.bars.y) != before
    # play the battle to its end with hits for the Union and misses for the Confederates
    for _ in range(40):
        if game.battle is None:
            break
        if s.side_to_move == "chance":
            value = 1 if game.state.battle.firing is Side.UNION else 6
            app.panel.die_buttons[value - 1].click()
        elif s.decision == "targets":
            quick_button(app, "Fire: spread").click()
        elif s.decision == "battle_options":
            quick_button(app, "Open fire").click()
        else:
            break
    assert not game.units_in("little_rock", Side.CONFEDERATE)
    assert s.decision == "battle_promotion"
    # promotion: click the box of the unit to promote
    app.map_view._on_click(properties={"id": "little_rock"})
    if s.decision == "battle_promotion":  # several candidates there: pick one in the panel
        quick_button(app, "Promote").click()
    promoted = [u for u in game.units_in("little_rock", Side.UNION) if u.type.code in ("FV", "FS")]
    assert len(promoted) >= 2
    assert box_controller(app, "little_rock") == "confederate"  # until 9.a
    # on to the recruitment: pass the segment promotion, roll for recruits
    for _ in range(20):
        if s.decision == "recruitment":
            break
        if s.side_to_move == "chance":
            app.panel.die_buttons[5].click()
        else:
            quick_button(app, "No").click() if any(b.description.startswith("No") for b in app.panel.quick
                                                    if b.layout.display != "none") else quick_button(app, "End").click()
    assert s.decision == "recruitment" and s.side_to_move == "union"
    city = s.destinations[0]
    before_units = len(game.units_in(city))
    app.map_view._on_click(properties={"id": city})
    if len(game.units_in(city)) == before_units:  # several unit types: choose one in the panel
        quick_button(app, "Recruit").click()
    assert len(game.units_in(city)) == before_units + 1
    assert any("ecruit" in line for line in s.log_lines)
    # the half-turn ends: control is updated (9.a) and the map follows
    quick_button(app, "End recruitment").click()
    assert s.phasing == "confederate"
    assert game.controller("little_rock") is Side.UNION
    assert box_controller(app, "little_rock") == "union"


@pytest.mark.rule("4.b")
def test_an_illegal_click_says_why_with_the_rule_and_changes_nothing():
    app = widgets.play("1861", union="human", confederate="human", war_odds=False)
    s, game = app.session, app.game
    before = snapshot(game)
    record = game.to_json()
    app.map_view._on_click(properties={"id": "richmond"})
    assert "(4.b" in s.status and s.status_rule == "4.b" and s.status_kind == "refused"
    assert "4.b" in app.panel.status.value
    assert snapshot(game) == before and game.to_json() == record
    # a destination that is not lit: the engine's reason for the move
    app.map_view._on_click(properties={"id": "harpers_ferry"})
    app.map_view._on_click(properties={"id": "richmond"})
    assert s.status_kind == "refused" and s.status_rule
    assert game.to_json() == record


def test_errors_in_callbacks_are_shown_and_the_app_keeps_working(monkeypatch, caplog):
    app = widgets.play("short", union="human", confederate="human", war_odds=False)
    s = app.session

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(s.game, "apply", broken)
    quick_button(app, "End movement").click()
    assert s.status_kind == "error" and "boom" in s.status
    assert "boom" in caplog.text
    monkeypatch.undo()
    quick_button(app, "End movement").click()
    assert s.status_kind == "info" and s.decision != "movement"


def test_undo_restores_the_position_and_the_map():
    app = widgets.play("1861", union="human", confederate="human", war_odds=False)
    s, game = app.session, app.game
    start = game.to_json()
    cards = dict(app.map_view._cards)
    s.click_box("harpers_ferry")
    s.click_box("baltimore")
    assert game.to_json() != start and app.map_view._cards != cards
    app.panel.undo.click()
    assert game.to_json() == start
    assert app.map_view._cards == cards


def test_manual_dice_and_bot_half_turn():
    app = widgets.play("1861", union="human", confederate="heuristic", dice="manual", war_odds=False)
    s = app.session
    assert s.side_to_move == "chance" or s.decision == "movement"
    app.panel.dice_mode.value = "auto"
    assert s.dice == "auto"
    app.panel.bot_half.click()  # the heuristic bot plays the Union half-turn; the Confederate bot follows
    assert s.status_kind == "info"
    assert (s.turn, s.phasing) != (1, "union")
    assert s.game.is_over or s.side_to_move == "chance" or s.player_of(s.side_to_move) == "human"
    assert len(s.army_history) >= 2
    app.panel.undo.click()  # takes back the bot's half-turn and the Confederate bot's answer
    assert (s.turn, s.phasing, s.decision) == (1, "union", "movement")


def test_bot_against_bot_to_the_end_through_the_session():
    game = ahd.new_game("short", seed=4)
    s = Session(game, union="random", confederate="random", war_odds=False)
    app = widgets.GameApp(s)
    s.bot_step()
    assert game.is_over and s.outcome == str(game.outcome) and s.side_to_move == ""
    assert app.map_view.layer_count <= 20
    assert len(s.army_history) >= 4 and s.log_lines[-1] == str(game.log[-1])


def test_layer_count_stays_bounded_over_a_whole_game():
    app = widgets.play("1861", union="heuristic", confederate="heuristic", war_odds=False)
    s = app.session
    counts = set()
    for _ in range(12):
        s.bot_half_turn()
        counts.add(app.map_view.layer_count)
    assert counts == {5}  # states, links, river arrows, water borders, the boxes' cards


def test_save_and_load_through_the_widget(tmp_path):
    app = widgets.play("1861", union="human", confederate="human", war_odds=False)
    app.panel.files = GameFiles(tmp_path)
    s = app.session
    s.click_box("harpers_ferry")
    s.click_box("baltimore")
    path = tmp_path / "game.json"
    app.panel.filename.value = "game.json"
    app.panel.save.click()
    assert path.is_file() and "Download" in app.panel.download.value
    saved = s.game.to_json()
    app.panel.new.click()
    assert s.game.to_json() != saved
    app.panel.load.click()
    assert s.game.to_json().replace('"dice":"manual"', '"dice":"auto"') == saved
    assert s.status.startswith("Loaded")
    # from an upload (the browser's file picker)
    app.panel.new.click()
    import datetime
    app.panel.upload.value = ({"name": "game.json", "type": "application/json", "size": len(saved),
                               "content": memoryview(saved.encode()),
                               "last_modified": datetime.datetime.now(datetime.timezone.utc)},)
    assert s.game.to_json().replace('"dice":"manual"', '"dice":"auto"') == saved


@pytest.mark.parametrize("content, words", [
    ("not json", "invalid JSON"),
    (json.dumps({"format": "other"}), "not a House Divided game record"),
])
def test_a_bad_file_is_explained_not_raised(tmp_path, content, words):
    app = widgets.play("short", war_odds=False)
    app.panel.files = GameFiles(tmp_path)
    record = app.game.to_json()
    path = tmp_path / "bad.json"
    path.write_text(content)
    app.panel.filename.value = "bad.json"
    app.panel.load.click()
    assert words in app.session.status and app.session.status_kind == "refused"
    assert app.game.to_json() == record


def _upload(app, content: bytes, name: str = "game.json") -> None:
    import datetime
    app.panel.upload.value = ({"name": name, "type": "application/json", "size": len(content),
                               "content": memoryview(content),
                               "last_modified": datetime.datetime.now(datetime.timezone.utc)},)


@pytest.mark.parametrize("content, words", [
    (b"not json", "invalid JSON"),
    (b"\xff\xfe\x00garbage", "JSON"),
    (json.dumps({"format": "other"}).encode(), "not a House Divided game record"),
    (b'{"format": "house-divided-record", "version": 1, "scenario": "1861"}', "lacks"),
])
def test_an_upload_of_a_corrupt_save_shows_the_loaders_message_and_changes_nothing(content, words, monkeypatch):
    monkeypatch.setenv("AHD_CLASSROOM", "1")
    app = widgets.play("1861", union="human", confederate="human", war_odds=False)
    app.session.click_box("harpers_ferry")
    app.session.click_box("baltimore")
    record, version = app.game.to_json(), app.session.version
    _upload(app, content)
    assert words in app.session.status and app.session.status_kind == "refused"
    assert app.game.to_json() == record and app.session.version == version
    assert app.panel.upload.value == ()  # ready for another try
    # and a good file afterwards still loads
    _upload(app, widgets.play("short", war_odds=False).game.to_json().encode())
    assert app.game.scenario.id == "short" and app.session.status.startswith("Loaded")


def test_in_classroom_mode_the_panel_reads_and_writes_no_server_file(tmp_path, monkeypatch):
    monkeypatch.setenv("AHD_CLASSROOM", "1")
    monkeypatch.setenv("AHD_GAMES_DIR", str(tmp_path))  # ignored in a classroom
    monkeypatch.chdir(tmp_path)
    app = widgets.play("1861", union="human", confederate="human", war_odds=False)
    panel = app.panel
    assert not panel.files.on_server
    assert panel.server_files.layout.display == "none"  # no file box, no Save/Load by name
    assert panel.to_computer.layout.display != "none" and panel.upload.layout.display != "none"
    # even the hidden buttons touch no file
    panel.filename.value = str(tmp_path / "x.json")
    panel.save.click()
    panel.load.click()
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ahd.AhdError, match="keeps no files"):
        panel.files.path("x.json")
    # saving is a download of the game itself
    panel.to_computer.click()
    import base64
    import re
    link = panel.download.value
    assert "download='house-divided-1861-turn-1.json'" in link
    data = base64.b64decode(re.search(r"base64,([^']+)'", link).group(1)).decode()
    assert data == app.game.to_json()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name, words", [
    ("../escape.json", "'..' is not allowed"),
    ("sub/../../escape.json", "'..' is not allowed"),
    ("/tmp/escape.json", "is a path"),
    ("~/escape.json", "is a path"),
    ("link/escape.json", "link leading out"),
    ("", "give the file a name"),
])
def test_in_local_mode_paths_stay_inside_the_games_folder(tmp_path, monkeypatch, name, words):
    games, outside = tmp_path / "games", tmp_path / "outside"
    games.mkdir()
    outside.mkdir()
    (games / "link").symlink_to(outside)
    (outside / "escape.json").write_text(widgets.play("short", war_odds=False).game.to_json())
    monkeypatch.setenv("AHD_GAMES_DIR", str(games))
    monkeypatch.delenv("AHD_CLASSROOM", raising=False)
    app = widgets.play("1861", union="human", confederate="human", war_odds=False)
    assert app.panel.files.folder == games and app.panel.server_files.layout.display == ""
    record = app.game.to_json()
    app.panel.filename.value = name
    app.panel.save.click()
    assert words in app.session.status and app.session.status_kind == "refused"
    app.panel.load.click()
    assert words in app.session.status and app.game.to_json() == record
    assert sorted(p.name for p in outside.iterdir()) == ["escape.json"]
    assert sorted(p.name for p in games.iterdir()) == ["link"]
    # a plain name, or one in a subfolder, is fine
    app.panel.filename.value = "campaign/game one.json"
    app.panel.save.click()
    assert (games / "campaign" / "game one.json").is_file() and app.session.status_kind == "info"


def test_considering_an_attack_shows_its_odds():
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2)])
    app = app_for(game)
    s = app.session
    s.click_box("fort_smith")
    game.apply(ahd.BeginMarch("fort_smith"))
    s.refresh()
    index = next(i for i, a in enumerate(s.legal_actions)
                 if isinstance(a, ahd.Move) and a.path[-1] == "little_rock")
    app.panel.actions.value = index
    odds = s.battle_odds
    assert odds and odds["attacker"] == "union" and 0 < odds["attacker_wins"] < 1
    assert list(app.battle_chart.bars.y) == pytest.approx([odds["attacker_wins"], odds["defender_wins"],
                                                           odds["neither"]])


def test_hovering_a_lit_destination_shows_the_odds_of_that_attack():
    game = make_game([("union", "MF", "fort_smith", 2), ("union", "FS", "fort_smith"),
                      ("confederate", "MF", "little_rock", 2)])
    app = app_for(game)
    s = app.session
    record = game.to_json()
    s.click_box("fort_smith")
    app.map_view._on_hover(properties={"id": "little_rock"})
    expected = ahd.odds.battle_odds(["MF", "MF", "FS"], ["MF", "MF"])
    assert s.battle_odds["label"] == "3 units to Little Rock"
    assert s.battle_odds["attacker_wins"] == pytest.approx(expected.attacker_wins, abs=1e-12)
    assert app.battle_chart.figure.title.startswith("Battle odds: 3 units to Little Rock")
    assert "Little Rock" in app.map_view.info.value
    assert game.to_json() == record  # considering changes nothing
    s.toggle_unit("U-FS-01")           # only the crack infantry would go
    app.map_view._on_hover(properties={"id": "little_rock"})
    alone = ahd.odds.battle_odds(["FS"], ["MF", "MF"])
    assert s.battle_odds["attacker_wins"] == pytest.approx(alone.attacker_wins, abs=1e-12)


def test_the_replay_view_follows_the_slider():
    game = ahd.new_game("short", seed=2)
    ahd.bots.play(game, ahd.bots.RandomBot(1), ahd.bots.RandomBot(2))
    view = widgets.ReplayApp(game, war_odds=False)
    assert view.slider.max == len(view.replay) > 10
    view.go(len(view.replay))
    assert view.session.game.state.turn == game.state.turn
    assert view.session.outcome == str(game.outcome)
    view.forward.click()
    assert view.slider.value == len(view.replay)
    view.first.click()
    assert view.slider.value == 0 and view.session.game.state.turn == 1
    assert view.session.game.history == []
    # the charts show the whole war, whatever the slider
    assert len(view.session.army_history) == len(view.replay.timeline)
    assert view.army_chart.union.y[-1] == view.replay.timeline[-1].union_max
    view.go(len(view.replay) // 2)
    middle = view.replay.game_at(len(view.replay) // 2)
    assert view.session.game.to_json() == middle.to_json()
    assert view.map_view._cards and view.session.turn == middle.state.turn


def test_the_war_chart_follows_the_live_war_odds_per_half_turn():
    app = widgets.play("1861", union="human", confederate="human")
    s, game = app.session, app.game
    first = ahd.odds.war_odds(game, union="human", confederate="human")  # the odds for the session's players
    assert s.war_odds[0] == pytest.approx((1.0, first.p_union, first.low, first.high))
    assert list(app.war_chart.line.y) == pytest.approx([first.p_union])
    assert list(np.ravel(app.war_chart.band.y)) == pytest.approx([first.low, first.high])
    s.bot_half_turn()  # the Union half-turn ends: a second point, for the Confederate half
    assert [point[0] for point in s.war_odds] == [1.0, 1.5]
    second = ahd.odds.war_odds(game, union="human", confederate="human")
    assert s.war_odds[1][1] == pytest.approx(second.p_union)
    assert app.war_chart.figure.title.endswith(f"{second.p_union:.0%} now")
    s.undo()
    assert [point[0] for point in s.war_odds] == [1.0]
    # the axes: probability exactly 0-100% (no padding for the markers), every turn shown whole
    y = app.war_chart.line.scales["y"]
    assert (y.min, y.max, y.allow_padding) == (0.0, 1.0, False)
    for chart in (app.war_chart.line, app.army_chart.union):
        x = chart.scales["x"]
        assert x.min < 1.0 and x.max > 41.0 and not x.allow_padding


def test_the_reliability_chart_plots_the_stored_calibration():
    from ahd.odds.war import calibration
    from widgets.board.charts import reliability_chart
    table = calibration()["campaign"]
    figure = reliability_chart(table)
    points = figure.marks[1]
    assert list(points.x) == pytest.approx([row[3] for row in table.reliability])
    assert list(points.y) == pytest.approx([row[4] for row in table.reliability])
    assert f"{table.brier:.3f}" in figure.title


@pytest.mark.rule("AO-8.2")
@pytest.mark.rule("A-2")
def test_the_advanced_game_on_the_map_leaders_and_new_decisions():
    game = ahd.new_game("1864", options="everything", seed=1)
    app = app_for(game)
    s = app.session
    # the scenario's leaders stand on the map, with their values, and in the box's tooltip
    badges = {leader.location: f"{leader.title[0]}{leader.value}" for leader in game.state.leaders.values()}
    assert badges == {"washington": "G2", "sparta": "S2", "fredericksburg": "L2"}
    for leader in game.state.leaders.values():
        assert f"leader {leader.title} ({leader.value})" in app.map_view.card(leader.location)
        assert "ahd-leader" in app.map_view.card(leader.location)
    app.map_view._on_hover(properties={"id": "washington"})
    assert s.info["leaders"] == [{"name": "Grant", "side": "union", "value": 2}]
    assert "leader Grant" in app.map_view.info.value
    # the unsupplied stack's loss is chosen by clicking its box, then in the panel
    assert s.decision == "supply" and "A-2" in s.prompt
    starve = game.legal_actions()[0]
    box = game.unit(starve.unit).location
    assert box in s.destinations
    before = len(game.units_in(box))
    s.click_box(box)
    if len(game.units_in(box)) == before:  # several units could starve there: pick one in the panel
        quick_button(app, "Out of supply").click()
    assert len(game.units_in(box)) == before - 1


def test_bots_play_an_everything_game_to_the_end_through_the_session():
    game = ahd.new_game("short", options="everything", seed=5)
    s = Session(game, union="random", confederate="random", war_odds=False)
    app = widgets.GameApp(s)
    s.bot_step()
    assert game.is_over and s.outcome and app.map_view.layer_count == 5


def test_the_odds_of_an_advanced_battle_are_simulated_with_its_rules():
    game = make_game([("union", "MF", "fort_smith", 2), ("confederate", "MF", "little_rock", 2)],
                     options=["H-1", "H-2", "A-7", "AO-8.1", "AO-8.2"])
    app = app_for(game)
    app.session.click_box("fort_smith")
    app.map_view._on_hover(properties={"id": "little_rock"})
    odds = app.session.battle_odds
    # A-7 and AO-8.1 are only simulated: the odds say so, and nothing is left out
    assert odds["method"].startswith("simulated") and odds["not_modelled"] == []
    assert "simulated" in app.battle_chart.caption.value and "Approximate" not in app.battle_chart.caption.value
    # the caveat is for exact odds asked with those rules on
    from ahd.odds import not_modelled
    assert not_modelled(game.options) == ["A-7 daily command limits", "AO-8.1 battlefield morale"]


@pytest.mark.rule("11.c")
def test_the_charts_and_the_replay_end_on_the_position_the_game_ended_in():
    """A game decided by a 9.b reversion in the middle of the Union half: the maxima charts, the war odds
    and the replay's timeline all end on 28 against 29, a Confederate win, not on the half-turn's 28-28."""
    game = make_game([("union", "CV", "chattanooga"), ("union", "MF", "chicago"), ("confederate", "MF", "atlanta")],
                     control={"confederate": ["pittsburgh", "scranton"]})
    session = Session(game)
    assert session.army_history[-1][1:] == (28, 28)
    session.act(ahd.BeginMarch("chattanooga"))
    session.act(ahd.Move("U-CV-01", ("chattanooga", "sparta"), ("road",)))
    assert game.is_over and game.outcome.winner is Side.CONFEDERATE
    start, end = session.army_history[-2:]
    assert start == (2.0, 28, 28) and end == (2.5, 28, 29)          # the end, where the Union half ends
    assert session.war_odds[-1][:2] == (2.5, 0.0)                    # decided: the Union cannot win
    replay = Replay(game)
    final = replay.timeline[-1]
    assert final.end and (final.x, final.union_max, final.confederate_max) == (2.5, 28, 29)
    assert [p for p in replay.timeline if not p.end] == replay.timeline[:-1]
    view = widgets.ReplayApp(game, war_odds=False)
    assert view.session.army_history[-1] == (2.5, 28, 29) and view.army_chart.confederate.y[-1] == 29


def test_the_panels_log_shows_the_bots_plan_lines_where_they_were_said():
    """The plan lines (said, never recorded) reach the screen: the panel's log has them among the events."""
    from html import escape
    app = widgets.play("short", union="hard", confederate="normal", seed=5, war_odds=False)
    session = app.session
    session.bot_step()
    plans = session.plans_said()
    assert plans, "the levels said no plan"
    shown = app.panel.log.value
    for _, line in plans[-3:]:  # the log box keeps the newest lines
        assert escape(line) in shown
    assert sum(1 for line in session.log_lines if line.startswith("plan: ")) == len(plans)
