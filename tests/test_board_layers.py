"""The schematic board and the map's layers, without a browser: every box has a place inside the board and a
card whose name is an HTML text element; no two cards overlap; the layer count never changes."""
from __future__ import annotations

import itertools
import json
from importlib import resources

import pytest

import ahd
from ahd.core.board import display_positions

pytest.importorskip("ipyleaflet")  # the app extra

import widgets  # noqa: E402
from widgets.board import layers  # noqa: E402
from script_module import load_script  # noqa: E402


def test_every_box_has_a_display_position_inside_the_board():
    board = ahd.default_board()
    positions = display_positions()
    assert set(positions) == {box.id for box in board}
    data = json.loads((resources.files("ahd") / "data" / "board_layout.json").read_text(encoding="utf-8"))
    for box_id, (x, y) in positions.items():
        w, h = layers.CARDS[box_id]
        assert w / 2 <= x <= data["width"] - w / 2 and h / 2 <= y <= data["height"] - h / 2, box_id


def test_no_two_cards_overlap_on_the_schematic_board():
    positions = display_positions()
    clashes = []
    for a, b in itertools.combinations(sorted(positions), 2):
        (xa, ya), (xb, yb) = positions[a], positions[b]
        (wa, ha), (wb, hb) = layers.CARDS[a], layers.CARDS[b]
        if abs(xa - xb) < (wa + wb) / 2 and abs(ya - yb) < (ha + hb) / 2:
            clashes.append((a, b))
    assert clashes == []


def test_relative_geography_is_kept_for_the_eastern_theatre():
    """Washington north of Richmond, Richmond west of Norfolk, Harper's Ferry west of Baltimore, and so on."""
    p = display_positions()
    assert p["washington"][1] < p["richmond"][1] < p["petersburg"][1]
    assert p["richmond"][0] < p["norfolk"][0] and p["harpers_ferry"][0] < p["baltimore"][0]
    assert p["manassas_junction"][1] < p["fredericksburg"][1] < p["richmond"][1]
    assert p["new_orleans"][1] > p["memphis"][1] > p["st_louis"][1] > p["chicago"][1]


def test_the_map_has_a_fixed_small_set_of_layers_and_one_card_per_box():
    app = widgets.play("1861", union="heuristic", confederate="heuristic", war_odds=False)
    view = app.map_view
    counts, cards = set(), set()
    for _ in range(6):
        app.session.bot_half_turn()
        counts.add(view.layer_count)
        cards.add(view.card_count)
    assert counts == {5} and cards == {129}
    assert [layer.name for layer in view.map.layers] == ["states", "links", "river flow", "water borders", "boxes"]
    assert view.map.scroll_wheel_zoom is False  # the wheel scrolls the page
    assert view.map.crs["name"] == "Simple"


def test_each_box_name_is_a_text_element_with_a_readable_description():
    app = widgets.play("1861", war_odds=False)
    for box in app.game.board:
        html = app.map_view.card(box.id)
        assert f'<span class="ahd-name">{layers.escape(box.name)}</span>' in html
        assert f'data-box="{box.id}"' in html
        # its accessible name: the name as seen, then the rest of its description (hidden from the eye)
        assert f'<span class="ahd-name">{layers.escape(box.name)}</span>' in html
        assert f'<span class="ahd-sr"> ({box.state}); ' in html
        assert app.map_view.layer.widget.geometry[box.id][:2] == list(display_positions()[box.id])
    # counters: one chip per side, its composition in its title
    assert 'title="Union: 3 militia infantry, entrenched">3</span>' in app.map_view.card("washington")


def test_only_changed_cards_are_sent_again(monkeypatch):
    app = widgets.play("1861", union="human", confederate="human", war_odds=False)
    view = app.map_view
    sent = []
    monkeypatch.setattr(view.layer.widget, "send", sent.append)
    app.session.click_box("harpers_ferry")
    patches = [message["patch"] for message in sent if "patch" in message]
    changed = {box for patch in patches for box in patch}
    assert len(patches) == 1 and changed == set(app.session.destinations) | {"harpers_ferry"}   # one patch
    assert all("ahd-lit" in view.card(box) for box in app.session.destinations)
    assert "ahd-selected" in view.card("harpers_ferry")


def test_lines_and_outlines_are_in_board_coordinates():
    board = ahd.default_board()
    lines = layers.link_lines(board)["features"]
    assert len(lines) == len(board.links)
    width, height = layers.WIDTH, layers.HEIGHT
    for feature in lines:
        for x, y in feature["geometry"]["coordinates"]:
            assert -5 <= x <= width + 5 and -height - 5 <= y <= 5
    outlines = layers.state_outlines()["features"]
    assert len(outlines) >= 30
    virginia = next(f for f in outlines if f["properties"]["postal"] == "VA")
    xs = [x for polygon in virginia["geometry"]["coordinates"] for ring in polygon for x, _ in ring]
    ys = [-y for polygon in virginia["geometry"]["coordinates"] for ring in polygon for _, y in ring]
    rx, ry = display_positions()["richmond"]
    assert min(xs) < rx < max(xs) and min(ys) < ry < max(ys)  # Richmond is drawn inside warped Virginia


def test_the_stored_layout_matches_the_script_that_makes_it():
    """Card sizes are the script's (so a change of font or card makes the layout be made again), every box has
    one, and the state outlines were warped for this layout (``scripts/make_board_layout.py --check`` redoes
    it all in about a minute)."""
    script = load_script("make_board_layout")
    board = ahd.default_board()
    assert (layers.WIDTH, layers.HEIGHT) == (script.WIDTH, script.HEIGHT)
    for box in board:
        assert layers.CARDS[box.id] == tuple(int(v) for v in script.card_size(box.name)), box.id


def test_the_map_fits_its_size_once_and_keeps_the_east_when_narrow():
    app = widgets.play("1861", war_odds=False)
    m = app.map_view.map
    m.set_trait("pixel_bounds", ((0.0, 0.0), (1400.0, 950.0)))  # as the browser reports it: a large map
    assert m.zoom == 0.5 and list(m.center) == list(layers.CENTER)
    narrow = widgets.play("1861", war_odds=False).map_view.map
    narrow.set_trait("pixel_bounds", ((0.0, 0.0), (800.0, 600.0)))  # narrower than the board: its east edge shows
    assert narrow.zoom == 0 and narrow.center[1] + 400 >= layers.WIDTH
    narrow.set_trait("pixel_bounds", ((0.0, 0.0), (1400.0, 950.0)))  # later changes (the user's pans) are left alone
    assert narrow.zoom == 0


def test_the_map_draws_again_only_changed_cards_and_always_matches_a_full_drawing(monkeypatch):
    """Fine-grained redraws (issue 30): after each gesture and each computer decision the cards the map holds
    equal a drawing of every card from scratch, and a march patches only the cards whose state changed."""
    app = widgets.play("1861", union="human", confederate="heuristic", seed=3, war_odds=False)
    session, view = app.session, app.map_view
    patches = []
    monkeypatch.setattr(view.layer.widget, "send", lambda content, buffers=None: patches.append(content))

    def matches() -> None:
        fresh = layers.cards(session.game, session.selected, list(session.destinations))
        assert {box: html for box, (html, _) in fresh.items()} == {box: html for box, (html, _) in view._cards.items()}

    session.click_box("harpers_ferry")
    matches()
    target = sorted(session.destinations)[0]
    patches.clear()
    session.click_box(target)
    matches()
    [patch] = [p["patch"] for p in patches if "patch" in p]
    assert target in patch and "harpers_ferry" in patch and len(patch) < 40  # not the 129 cards
    for _ in range(3):  # the computer's half-turns, with undo in between
        session.act(ahd.EndMovement()) if session.game.decision == "movement" else session.bot_half_turn()
        matches()
    session.undo()
    matches()


def test_the_page_is_marked_with_the_language_the_app_speaks():
    """The card widget carries the app's language to the page's <html lang> (WCAG 3.1.1): a screen reader
    reads a Spanish page with a Spanish voice, after a change of language too."""
    app = widgets.play("1861", war_odds=False, lang="en")
    layer = app.map_view.layer
    assert layer.widget.lang == "en"
    app.set_language("es")
    try:
        assert layer.widget.lang == "es"
    finally:
        app.set_language("en")
    assert layer.widget.lang == "en"
    assert 'document.documentElement.lang = lang' in resources.files("widgets.board").joinpath(
        "cardlayer.js").read_text(encoding="utf-8")
