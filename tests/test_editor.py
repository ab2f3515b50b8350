"""Issue 19: the scenario editor, driven without a browser by its public methods and its widgets' callbacks.

Every verdict comes from the engine: the maxima are compared with ``ahd.new_game(editor.to_scenario())``
and the problems are the loader's messages."""
from __future__ import annotations

import base64
import html
import datetime
import json
import re
import zipfile

import pytest

pytest.importorskip("ipyleaflet")

import ahd
import widgets
from ahd.bots import make_bot
from ahd.core.sides import CHANCE, Side
from ahd.core.errors import DataFileError
from ahd.core.jsonfile import JsonProblem, parse
from ahd.core.scenario import scenario_from_dict


def engine_maxima(data):
    game = ahd.new_game(data, seed=1)
    return {side.value: game.army_max(side) for side in Side}


def click(editor, box, times=1):
    for _ in range(times):
        editor.click(box)


def upload(editor, content: bytes, name="scenario.json"):
    editor.upload.value = ({"name": name, "type": "application/json", "size": len(content),
                            "content": memoryview(content), "last_modified": datetime.datetime(2026, 1, 1)},)


def link_bytes(html: str) -> bytes:
    return base64.b64decode(re.search(r"base64,([A-Za-z0-9+/=]+)'", html).group(1))


def play_to_end(game, seed=5, limit=20_000):
    bots = {Side.UNION: make_bot("random", seed), Side.CONFEDERATE: make_bot("random", seed + 1)}
    for _ in range(limit):
        if game.is_over:
            return game
        if game.current_player == CHANCE:
            game.roll()
        else:
            game.apply(bots[game.current_player].choose(game))
    raise AssertionError("the game did not end")


def test_a_scenario_built_by_clicks_live_maxima_and_counter_mix(tmp_path):
    editor = widgets.editor()
    assert editor.problems == [] and editor.maxima == engine_maxima(editor.to_scenario())
    assert len(editor.layer.cards) == 129 and 'data-box="richmond"' in editor.card("richmond")

    # Confederate militia infantry into Richmond by clicks: the counter mix (1.3.a) allows 8
    editor.tool.value, editor.side.value, editor.unit_type.value = "Add unit", "confederate", "MF"
    for n in range(1, 9):
        click(editor, "richmond")
        assert editor.problems == [], editor.problems
        assert editor.maxima == engine_maxima(editor.to_scenario())  # live, after each click
        assert f'ahd-confederate">{n}<' in editor.card("richmond")
    click(editor, "richmond")  # the ninth: refused by the loader, marked on Richmond with its rule
    [problem] = editor.problems
    assert problem.rule == "1.3.a" and problem.boxes == ("richmond",) and problem.key == "units"
    assert "counter mix allows 8" in problem.message
    with pytest.raises(DataFileError, match=re.escape(problem.message)):
        scenario_from_dict(editor.to_scenario(), "x")  # the editor shows exactly the loader's message
    assert editor.maxima is None and "stated_maxima" not in editor.to_scenario()
    assert "ahd-problem-box" in editor.card("richmond") and ">1.3.a</span>" in editor.card("richmond")
    assert "ahd-problem-box" not in editor.card("washington")
    assert "1.3.a" in editor.problems_html.value and "Richmond" in editor.problems_html.value

    # undo: the error is gone, the maxima are back
    editor.undo_button.click()
    assert editor.problems == [] and editor.maxima == engine_maxima(editor.to_scenario())
    assert "ahd-problem-box" not in editor.card("richmond")
    click(editor, "richmond")
    assert editor.problems and editor.problems[0].rule == "1.3.a"
    # ... or remove one counter by a click with the Remove tool: gone too
    editor.tool.value = "Remove unit"
    click(editor, "richmond")
    assert editor.problems == []

    # Union units, a reduced and an entrenched one, and a control marker
    editor.tool.value, editor.side.value = "Add unit", "union"
    editor.unit_type.value = "FV"
    click(editor, "washington", 2)
    editor.reduced.value = True
    click(editor, "washington")
    editor.reduced.value, editor.entrenched.value, editor.unit_type.value = False, True, "MF"
    click(editor, "harpers_ferry")
    editor.tool.value, editor.control.value = "Control", "union"
    click(editor, "louisville")
    editor.tool.value = "Leader"
    editor.leader.value = "grant"
    click(editor, "washington")
    data = editor.to_scenario()
    assert data["control"] == {"union": ["louisville"]}
    assert data["leaders"] == [{"name": "grant", "box": "washington"}]
    assert {"side": "union", "type": "FV", "box": "washington", "count": 1, "strength": "reduced"} in data["units"]
    assert {"side": "union", "type": "MF", "box": "harpers_ferry", "count": 1, "entrenched": True} in data["units"]
    assert editor.problems == [] and editor.maxima == engine_maxima(data)
    assert "ahd-card ahd-union" in editor.card("louisville")  # the engine's controller

    # the scenario's own fields, through their widgets (each change is checked, and can be undone)
    f = editor.fields
    f["title"].value = "Defend the capital"
    f["id"].value = "capital"
    f["description"].value = "Hold Richmond for six turns."
    f["history"].value = "In the summer of 1861 both capitals braced for an attack."
    f["options"].value = ("H-1", "H-2", "AO-8.2")
    f["last_turn"].value = 6
    f["end"].value = "short"
    assert editor.problems == []
    f["start_turn"].value = 8  # after the last turn: the loader says so
    assert [p.key for p in editor.problems] == ["last_turn"] and editor.problems[0].boxes == ()
    assert "last_turn" in editor.field_problems.value and "last turn" in editor.problems_html.value
    editor.undo()
    assert editor.problems == [] and editor.to_scenario()["start_turn"] == 1
    data = editor.to_scenario()
    assert data["history"].startswith("In the summer") and data["options"] == ["H-1", "H-2", "AO-8.2"]
    assert data["stated_maxima"] == editor.maxima

    # save: the download link holds the file; the engine loads it and a seeded game plays to the end
    editor.save_button.click()
    assert "download='capital.json'" in editor.download.value
    path = tmp_path / "capital.json"
    path.write_bytes(link_bytes(editor.download.value))
    assert json.loads(path.read_text()) == data
    game = ahd.new_game(str(path), seed=11)
    assert game.scenario.title == "Defend the capital"
    assert {side.value: game.army_max(side) for side in Side} == editor.maxima
    assert game.state.leaders["grant"].location == "washington"  # AO-8.2 is among the scenario's options
    assert len(game.units_in("richmond")) == 8 and len(game.units_in("washington")) == 3
    play_to_end(game)
    assert game.is_over and game.turn.number <= 6


def test_each_problem_is_listed_with_its_box():
    editor = widgets.editor()
    editor.add_unit("richmond", "confederate", "MF", count=9)
    editor.add_unit("atlanta", "union", "XX")  # a type the loader does not know
    keys = [p.key for p in editor.problems]
    assert keys == ["units[1].type", "units"], editor.problems
    assert editor.problems[0].boxes == ("atlanta",) and "unknown unit type" in editor.problems[0].message
    assert editor.problems[1].boxes == ("richmond",) and editor.problems[1].rule == "1.3.a"
    assert "ahd-problem-box" in editor.card("atlanta") and "ahd-problem-box" in editor.card("richmond")
    editor.undo()
    editor.undo()
    assert editor.problems == [] and editor.to_scenario()["units"] == []
    assert not editor.undo()  # nothing left to undo
    # a table end needs its score turn (S-0): the rule is named
    editor.set(end="table")
    assert [p.key for p in editor.problems] == ["score_turn"] and editor.problems[0].message == "missing"
    editor.set(score_turn=17, last_turn=20)
    assert editor.problems == []


def test_start_from_a_shipped_scenario_and_from_a_saved_position():
    editor = widgets.editor("1862")
    shipped = ahd.load_scenario("1862").data
    assert editor.to_scenario()["units"] == shipped["units"] and editor.problems == []
    assert editor.maxima == engine_maxima("1862")
    # positions from seeded random games: the editor holds the same units, control and maxima
    for seed in (1, 2, 3):
        game = ahd.new_game("1861", seed=seed)
        bots = {Side.UNION: make_bot("random", seed), Side.CONFEDERATE: make_bot("random", seed + 7)}
        turns = 0
        while turns < 3 and not game.is_over:
            if game.current_player == CHANCE:
                game.roll()
                continue
            before = game.turn.number
            game.apply(bots[game.current_player].choose(game))
            if game.turn.number != before:
                turns += 1
        while True:  # to the start of a game turn, where a position can be exported
            try:
                position = game.to_scenario()
                break
            except ahd.AhdError:
                game.apply(bots[game.current_player].choose(game)) if game.current_player != CHANCE else game.roll()
        editor = widgets.editor(position)
        data = editor.to_scenario()
        assert data["units"] == position["units"] and data.get("control") == position.get("control")
        assert editor.maxima == {side.value: game.army_max(side) for side in Side} == position["stated_maxima"]
    # the "Start" button: an empty board (undo brings the position back)
    editor.start_from.value = ""
    editor.start_button.click()
    assert editor.to_scenario()["units"] == []
    editor.undo()
    assert editor.to_scenario()["units"] == position["units"]


def loader_problem(content: bytes) -> str:
    """What the engine's own reader and loader say of a file (whatever their wording)."""
    try:
        data = parse(content)
    except JsonProblem as exc:
        return str(exc.problem)
    try:
        scenario_from_dict(data, "x")
    except DataFileError as exc:
        return exc.reason()
    raise AssertionError("the loader accepts it")


@pytest.mark.parametrize("content", [
    b"{\"format\": \"house-divided-scenario\", ",                # cut short
    b"\x89PNG\r\n\x1a\n\x00\x00binary",                          # not text
    json.dumps({"format": "some-other-program", "units": []}).encode(),  # another program's file
    json.dumps({"format": "house-divided-scenario", "version": 1, "id": "x", "rule": "x", "title": "x",
                "start_turn": 1, "first_turn_marches": 2, "last_turn": 40, "end": "campaign",
                "units": [{"side": "union", "type": "MF", "box": "atlantis"}]}).encode(),  # a bad box
], ids=["truncated", "binary", "foreign", "bad-box"])
def test_an_upload_of_a_broken_or_foreign_file_changes_nothing(content):
    editor = widgets.editor()
    editor.add_unit("richmond", "confederate", "MF", count=2)
    before = editor.to_scenario()
    upload(editor, content)
    assert editor.to_scenario() == before
    assert "Not loaded" in editor.status.value and html.escape(loader_problem(content)) in editor.status.value
    assert editor.upload.value == ()  # ready for another try
    # a good file is loaded, and a saved game gives its position
    upload(editor, json.dumps(ahd.load_scenario("1863").data).encode())
    assert editor.to_scenario()["units"] == ahd.load_scenario("1863").data["units"]
    game = ahd.new_game("short", seed=2)
    upload(editor, game.to_json().encode(), "game.json")
    assert editor.to_scenario()["units"] == game.to_scenario()["units"]


def test_play_it_and_balance():
    editor = widgets.editor()
    editor.set(title="Two capitals", last_turn=4, end="short")
    editor.add_unit("richmond", "confederate", "MF", count=3)
    editor.add_unit("washington", "union", "MF", count=3)
    app = editor.play(union="human", confederate="human")
    assert isinstance(app, widgets.GameApp) and app.game.scenario.title == "Two capitals"
    assert editor.editing.layout.display == "none" and app in editor.play_area.children
    assert len(app.game.units_in("richmond")) == 3
    editor.back_button.click()
    assert editor.editing.layout.display is None and editor.play_area.children == ()
    results = editor.balance(games=4, union="random", confederate="random", seed=3)
    assert len(results) == 4 and editor.progress.done and editor.progress.calls[-1] == (4, 4)
    assert results.rows == ahd.simulate(4, scenario=editor.to_scenario(), union="random", confederate="random",
                                        seed=3).rows
    assert "95% interval" in editor.balance_html.value
    # a scenario that does not load is neither played nor studied
    editor.add_unit("richmond", "confederate", "MF", count=9)
    assert editor.play() is None and editor.balance(games=2) is None
    assert "Fix the problems first" in editor.status.value


def test_publish_gives_a_zip_of_the_publish_folder(tmp_path, monkeypatch):
    import tempfile
    scratch = tmp_path / "scratch"  # the temporary folders publishing makes: none is left behind
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    tmp_path = tmp_path / "out"
    tmp_path.mkdir()
    editor = widgets.editor()
    editor.set(id="my scenario!", title="Published", last_turn=3, end="short")
    editor.add_unit("richmond", "confederate", "FV")
    # an id is a safe name (docs/security.md, finding 2): refused with the loader's message, no zip
    assert editor.publish_zip(tmp_path) is None and "id: expected 1 to 64 letters" in editor.status.value
    assert list(tmp_path.iterdir()) == []
    editor.set(id="my-scenario")
    archive = editor.publish_zip(tmp_path)
    assert archive == tmp_path / "my-scenario.zip" and archive.is_file()
    assert "data:application/zip;base64," in editor.publish_link.value
    assert link_bytes(editor.publish_link.value) == archive.read_bytes()
    with zipfile.ZipFile(archive) as z:
        names = set(z.namelist())
        assert {"my-scenario/scenario.json", "my-scenario/app.ipynb", "my-scenario/voila.json",
                "my-scenario/README.md"} <= names
        (tmp_path / "published.json").write_bytes(z.read("my-scenario/scenario.json"))
    assert ahd.new_game(str(tmp_path / "published.json"), seed=1).scenario.title == "Published"
    assert [f.name for f in scratch.iterdir() if f.name.startswith("ahd-publish-")] == []
    # refused: the loader's message, no zip
    editor.add_unit("richmond", "confederate", "MF", count=9)
    assert editor.publish_zip(tmp_path / "x") is None and "1.3.a" in editor.status.value


def test_the_authoring_guide_runs(tmp_path, monkeypatch):
    """docs/authoring.md's worked example: its Python blocks, run in order, say what the guide says, and leave no
    temporary folder behind once their objects are gone (a reader's Python would otherwise keep a 1 MB zip)."""
    import gc
    import tempfile
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "docs" / "authoring.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) >= 6
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, "docs/authoring.md", "exec"), namespace)  # noqa: S102
    editor = namespace["editor"]
    assert editor.maxima == {"union": 35, "confederate": 29}
    assert namespace["archive"].name == "richmond-1861.zip" and namespace["archive"].is_file()
    assert namespace["archive"].is_relative_to(scratch)
    rate, low, high = namespace["results"].win_rate("union")
    assert f"{rate:.0%}" in text and f"{low:.0%}–{high:.0%}" in text  # the figures the guide quotes
    namespace.clear()
    gc.collect()  # the wheel publishing built goes when the process ends (test_wheel.py)
    assert [p.name for p in scratch.iterdir() if not p.name.startswith("house-divided-wheel-")] == []


def test_widgets_editor_opens_an_editor_after_the_module_was_imported():
    """Importing the editor's module (``widgets.authoring.editor``) leaves ``widgets.editor`` the function."""
    import importlib

    import widgets
    module = importlib.import_module("widgets.authoring.editor")
    assert callable(widgets.editor)
    assert isinstance(widgets.editor("1861"), module.Editor)
