"""The debriefs on the teacher page and the class summary (issue 35): the engine's summary of records, and the
classroom server's ``/teacher/game/ID/debrief`` and ``/teacher/summary`` behind the teacher's token."""
from __future__ import annotations

import re

import pytest

import ahd
from ahd.analysis.class_summary import render_summary, summarize
from ahd.bots import make_bot, play
from ahd.core.sides import Side
import serve
from widgets.classmates.store import Store, store_path
from widgets.classmates.teacher_debrief import class_summary_page

from test_classmate_browser import get, start_classroom


@pytest.fixture(scope="module")
def records() -> list[tuple[str, dict]]:
    out = []
    for seed, (union, confederate) in enumerate([("hard", "hard"), ("hard", "hard"), ("heuristic", "heuristic")]):
        game = play(ahd.new_game("1861", seed=seed + 1), make_bot(union, seed + 1), make_bot(confederate, seed + 2))
        out.append((f"game {seed + 1}", game.to_dict()))
    return out


@pytest.mark.rule("11.a")
def test_the_class_summary_counts_winners_and_the_falls_of_richmond_and_atlanta(records):
    unfinished = ahd.new_game("1861", seed=9)
    broken = dict(records[0][1], seed="x")
    summary = summarize([*records, ("unfinished", unfinished.to_dict()), ("broken", broken)])
    games = [ahd.Game.from_dict(r) for _, r in records]
    assert summary.wins[Side.UNION] == sum(g.outcome.winner is Side.UNION for g in games)
    assert summary.wins[Side.CONFEDERATE] == sum(g.outcome.winner is Side.CONFEDERATE for g in games)
    assert summary.unfinished == 1 and len(summary.games) == 4
    assert [name for name, _ in summary.problems] == ["broken"] and "seed" in summary.problems[0][1]
    richmond, atlanta = summary.cities
    assert (richmond.box, richmond.real_turn, atlanta.box, atlanta.real_turn) == ("richmond", 38, "atlanta", 33)
    for city in summary.cities:   # the turns are those the game's debrief gives, earliest and latest among them
        assert list(city.turns) == [g.falls[city.box] for g in summary.games if g.falls[city.box] is not None]
        if city.turns:
            assert city.earliest == min(city.turns) <= city.mean <= city.latest == max(city.turns)
    page = render_summary(summary, "en")
    assert "Class summary: 4 games" in page and "Not finished yet: 1" in page and "broken" in page
    assert not re.search(r"(?i)(https?:|src=|href=|<script)", page)
    assert "Resumen de la clase" in render_summary(summary, "es")


def test_the_summary_page_of_a_store(tmp_path):
    store = Store(store_path(tmp_path))
    seat = store.create(side="union", name="Ann <b>", seed=5)
    store.join(seat.code, "Bob")
    page = class_summary_page(store, "en")
    assert "Class summary: 1 game" in page and "Ann &lt;b&gt; – Bob" in page and "Not finished yet: 1" in page


def test_the_teacher_debrief_pages_need_the_teachers_token(tmp_path):
    data = tmp_path / "data"
    store = Store(store_path(data))
    seat = store.create(side="union", name="Ann", seed=5)
    store.join(seat.code, "Bob")
    seat.game.apply(seat.game.legal_actions()[0])
    port = serve.free_port()
    server = start_classroom(port, data, "class-token-abc", "teacher-token-xyz987", tmp_path / "server.log")
    try:
        for key in ("class-token-abc", ""):
            for path in (f"/teacher/game/{seat.game_id}/debrief?key={key}", f"/teacher/summary?key={key}"):
                status, body = get(server, path)
                assert status == 403 and seat.code.encode() not in body and b"Debrief" not in body, path
        key = "teacher-token-xyz987"
        status, body = get(server, f"/teacher?key={key}")   # the links carry no key: the teacher's cookie does
        assert status == 200 and f"href='/teacher/game/{seat.game_id}/debrief'".encode() in body
        assert b"ahd-class-summary" in body
        status, body = get(server, f"/teacher/game/{seat.game_id}/debrief?key={key}")
        assert status == 200 and body.startswith(b"<!DOCTYPE html>") and b"Questions for discussion" in body
        assert b"The game is not over" in body
        status, body = get(server, f"/teacher/summary?key={key}")
        assert status == 200 and b"Class summary: 1 game" in body and b"Ann" in body
        assert get(server, f"/teacher/game/999/debrief?key={key}")[0] == 404
    finally:
        server.stop()
