"""The board data (0.4) and its loader."""
from __future__ import annotations

import json
from importlib import resources

import pytest

import ahd
from ahd.core.board import VICTORY_CITIES, board_from_dict, load_board
from ahd.core.sides import Side


@pytest.fixture(scope="module")
def board():
    return ahd.default_board()


@pytest.fixture
def raw():
    return json.loads((resources.files("ahd") / "data" / "board.json").read_text())


@pytest.mark.rule("1.2")
def test_board_counts(board):
    assert len(board) == 129
    assert len(board.links) == 230
    kinds = [link.kind for link in board.links]
    assert (kinds.count("road"), kinds.count("rail"), kinds.count("river")) == (59, 141, 30)
    assert len(board.ports) == 17
    assert board.forts == {"washington", "richmond", "fort_monroe", "vicksburg"}


@pytest.mark.rule("7.c")
def test_printed_maxima_are_34_and_29(board):
    union = sum(b.blue_value for b in board if b.owner is Side.UNION)
    confederate = sum(b.red_value for b in board if b.owner is Side.CONFEDERATE)
    assert (union, confederate) == (34, 29)


@pytest.mark.rule("4.2.6")
def test_potomac_is_the_only_washington_fredericksburg_line(board):
    assert board.potomac is not None
    assert {board.potomac.a, board.potomac.b} == {"washington", "fredericksburg"}
    assert board.is_potomac("washington", "fredericksburg")
    assert not board.is_potomac("washington", "manassas_junction")


@pytest.mark.rule("4.2.2")
def test_river_directions(board):
    assert board.is_downstream("evansville", "paducah")
    assert not board.is_downstream("paducah", "evansville")
    assert board.is_downstream("st_louis", "cairo")
    assert not board.is_downstream("washington", "fredericksburg")  # undefined direction


@pytest.mark.rule("5.2.3")
def test_water_borders(board):
    assert board.enters_over_water("washington", "fredericksburg")
    assert not board.enters_over_water("washington", "baltimore")
    assert not board.enters_over_water("little_rock", "fort_smith")


def test_queries(board):
    assert board.link_kinds("chattanooga", "decatur") == {"rail", "river"}
    assert "cairo" in board.neighbours("paducah", "river")
    assert board["cairo"].blue_value > 0 and board["cairo"].red_value > 0
    assert set(VICTORY_CITIES) <= set(board.boxes)
    assert [b.id for b in board if b.owner is None] == sorted(b.id for b in board if b.state == "KY"
                                                                and b.id != "cumberland_gap")
    with pytest.raises(KeyError, match="unknown box"):
        board["atlantis"]


@pytest.mark.parametrize("mutate, key, problem", [
    (lambda d: d.pop("boxes"), "board.boxes", "missing"),
    (lambda d: d["boxes"][0].pop("name"), "boxes[0] (albany).name", "missing"),
    (lambda d: d["boxes"][1].update(initial_owner="british"), "initial_owner", "expected one of"),
    (lambda d: d["boxes"][2].update(union_recruit="two"), "union_recruit", "expected int"),
    (lambda d: d["links"][0].update(b="atlantis"), "links[0].b", "unknown box"),
    (lambda d: d["links"][0].update(kind="canal"), "links[0].kind", "expected one of"),
    (lambda d: d["links"].append(dict(d["links"][0])), "links[230]", "duplicate"),
    (lambda d: d["water_borders"].update(cairo=["richmond"]), "water_borders.cairo", "not adjacent"),
])
def test_malformed_board_names_file_and_key(raw, mutate, key, problem):
    mutate(raw)
    with pytest.raises(ahd.DataFileError) as info:
        board_from_dict(raw, "my_board.json")
    assert "my_board.json" in str(info.value)
    assert key in info.value.key
    assert problem in info.value.problem


def test_board_file_errors(tmp_path):
    bad = tmp_path / "board.json"
    bad.write_text("{not json")
    with pytest.raises(ahd.DataFileError, match="board.json: line 1: not valid JSON"):
        load_board(bad)
    with pytest.raises(ahd.DataFileError, match="cannot read"):
        load_board(tmp_path / "nope.json")
