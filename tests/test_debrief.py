"""The debrief of a game (issue 35): its turning points against its own log, the real war from one table
with sources, questions from what happened, and the standalone HTML page (``report``)."""
from __future__ import annotations

import datetime
import json
import re

import pytest

import ahd
from ahd.analysis import history as history_module
from ahd.analysis.debrief import LARGEST_BATTLES, WATCHED, debrief
from ahd.analysis.debrief_html import render_debrief
from ahd.analysis.history import HistoryError, history, parse
from ahd.bots import make_bot, play
from ahd.cli import main as ahd_main
from ahd.core.calendar import Turn, turn_of_date
from ahd.core.i18n import Msg, render
from ahd.core.sides import Side
from ahd.core.svg import game_svg

from ahd.core.positions import pass_until, to_confederate_movement
from conftest import make_game

U, C = Side.UNION, Side.CONFEDERATE
#: Every scenario, the campaign with every optional and advanced rule (leaders arrive: AO-8.2.0), and a year
#: scenario scored and played on to turn 40 (S-VT, S-0).
SCENARIOS = ("1861", "short", "1862", "1863", "1864", "1861 everything", "1863 play-on")


def _seeded(scenario: str, seed: int = 11) -> ahd.Game:
    name, _, preset = scenario.partition(" ")
    play_on = preset == "play-on"
    game = ahd.new_game(name, seed=seed, options=None if play_on else preset or None, play_on=play_on)
    return play(game, make_bot("heuristic", seed), make_bot("heuristic", seed + 1))


@pytest.fixture(scope="module")
def games() -> dict[str, ahd.Game]:
    return {scenario: _seeded(scenario) for scenario in SCENARIOS}


def _params(event) -> dict:
    return event.message.params if isinstance(event.message, Msg) else {}


def _box_id(game: ahd.Game, term) -> str:
    return next(b for b in game.board.boxes if game.board.name(b) == term.text)


# ---------------------------------------------------------------------------- the log's turning points
@pytest.mark.rule("11.a")
@pytest.mark.rule("9.a")
@pytest.mark.rule("9.b")
@pytest.mark.rule("11.c")
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_turning_point_of_the_log_appears(games, scenario):
    game = games[scenario]
    d = debrief(game)
    points = [(p.kind, p.turn, p.box, p.side) for p in d.points]
    for event in game.log:
        msgid = getattr(event.message, "msgid", "")
        if event.kind == "control" and "passes from" in msgid:
            box = _box_id(game, _params(event)["box"])
            if box not in WATCHED:
                continue
            after = U if render(_params(event)["after"], "en") == "Union" else C
            if "cavalry-held" in msgid and box != "washington":   # a raid: noted once per box and side
                assert any(k == "raid" and b == box and s is after for k, _, b, s in points), (scenario, event.text)
            else:
                assert any(k in ("city", "washington") and t == event.turn and b == box and s is after
                           for k, t, b, s in points), (scenario, event.text)
    scored = [e for e in game.log if e.kind == "end" and "Play continues" in getattr(e.message, "msgid", "")]
    assert [(p.turn, p.rule) for p in d.points if p.kind == "score"] == [(e.turn, "S-VT") for e in scored]
    assert bool(scored) is (scenario == "1863 play-on")
    arrivals = [e for e in game.log if e.kind == "leader" and "arrives at" in getattr(e.message, "msgid", "")]
    assert [(p.turn, p.box) for p in d.points if p.kind == "leader" and p.rule == "AO-8.2.0"] == [
        (e.turn, _box_id(game, _params(e)["box"])) for e in arrivals]
    assert bool(arrivals) is ("AO-8.2" in game.state.options)
    battles = [e for e in game.log if e.kind == "battle" and getattr(e.message, "msgid", "").startswith("Battle at")]
    assert len(d.battles) == len(battles)
    assert [b.box for b in d.battles] == [_box_id(game, _params(e)["box"]) for e in battles]
    assert [b.turn for b in d.battles] == [e.turn for e in battles]
    largest = sorted(d.battles, key=lambda b: (-b.engaged, -b.lost, b.index))[:LARGEST_BATTLES]
    assert all(b in d.points for b in largest)
    assert all(b.engaged >= 2 and 0 <= b.lost <= b.engaged for b in d.battles)
    # the end and why: the outcome, its rule and turn, last in the timeline
    assert game.is_over
    end = d.points[-1]
    assert end.kind == "end" and end.rule == game.outcome.rule and end.turn == game.outcome.turn
    assert end.side is game.outcome.winner
    assert render(end.message, "en") == render(game.outcome.as_msg(), "en")
    # the maxima race, per half-turn, as the game had them
    first = ahd.Game.from_dict(dict(game.to_dict(), actions=[]))
    assert d.maxima[0][1:] == (first.army_max(U), first.army_max(C))
    assert [x for x, _, _ in d.maxima] == sorted(x for x, _, _ in d.maxima)
    leads, changes = [], []   # the maxima race: a point wherever the chart's leader changes (ties keep the lead)
    for x, u, c in d.maxima:
        lead = U if u > c else C if c > u else None
        if lead is not None and leads and lead is not leads[-1]:
            changes.append((x, lead))
        if lead is not None:
            leads.append(lead)
    race = [(p.x, p.message.params["u_max"] - p.message.params["c_max"]) for p in d.points
            if p.kind == "maxima" and p.rule == "7.c"]
    gaps = [(x, u - c) for x, u, c in d.maxima]
    assert sorted(g for _, g in race) == [min(g for _, g in gaps), max(g for _, g in gaps)]
    assert all(point in gaps for point in race)     # at the half-turn the chart shows it
    assert [(p.x, p.side) for p in d.points if p.kind == "maxima" and p.rule == "9.d"] == changes
    assert all(0.0 <= p <= 1.0 for _, p in d.odds)
    assert d.odds[-1][1] == (1.0 if game.outcome.winner is U else 0.0)
    assert 3 <= len(d.questions) <= 5


@pytest.mark.rule("11.c")
@pytest.mark.rule("9.b")
def test_a_game_ended_mid_half_turn_by_a_reversion():
    """Union cavalry rides out of Chattanooga: it reverts (9.b), the Confederate maximum passes the
    Union's (9.d) and the game ends at once, in the Union's movement (11.c)."""
    game = make_game([("union", "CV", "chattanooga"), ("union", "MF", "chicago"), ("confederate", "MF", "atlanta")],
                     control={"confederate": ["pittsburgh", "scranton"]})
    game.apply(ahd.BeginMarch("chattanooga"))
    game.apply(ahd.Move("U-CV-01", ("chattanooga", "sparta"), ("road",)))
    assert game.is_over and game.phasing is U and game.turn.number == 2
    d = debrief(game)
    kinds = [(p.kind, p.rule, p.box) for p in d.points]
    assert kinds[-2:] == [("raid", "9.b", "chattanooga"), ("end", "11.b", None)]
    assert "reverts to Confederate control" in render(d.points[-2].message, "en")
    assert d.points[-1].phasing is U and d.points[-1].turn == 2 and d.points[-1].side is C
    assert d.odds[-1] == (2.5, 0.0)
    assert d.snapshots and max(d.snapshots) == len(d.points) - 1     # the board as the game ended
    html = render_debrief(d, "en")
    assert "reverts to Confederate control" in html and "(11.b)" in html


@pytest.mark.rule("11.a")
def test_a_city_taken_by_the_union_is_compared_with_the_real_war():
    """Union infantry next to Memphis takes it at the update ending turn 2 (July 1861 + 1), eight turns
    before the real Union did (6 June 1862 = turn 10)."""
    game = make_game([("union", "FV", "humboldt"), ("confederate", "MF", "atlanta")])
    assert game.controller("memphis") is C
    game.apply(ahd.BeginMarch("humboldt"))
    game.apply(next(a for a in game.legal_actions() if isinstance(a, ahd.Move) and a.path[-1] == "memphis"))
    while not game.is_over and (game.turn.number, game.phasing) == (2, U):
        game.apply(next(a for a in game.legal_actions() if type(a).__name__ in ("EndMarch", "EndMovement",
                                                                               "EndRecruitment", "NoPromotion"))
                   if game.current_player is U else ahd.Roll(1))
    assert game.controller("memphis") is U
    d = debrief(game)
    memphis = next(c for c in d.comparisons if c.history.id == "memphis")
    assert memphis.history.turn == 10 and memphis.game_turn == 2
    assert any(p.kind == "city" and p.box == "memphis" and p.side is U for p in d.points)
    assert any("took Memphis on turn 2, 8 turns before" in render(q, "en") for q in d.questions)


@pytest.mark.rule("11.b")
def test_the_capture_of_washington_ends_the_game_and_is_asked_about():
    """Confederate infantry at Manassas Junction marches into an empty Washington: the update ending the
    Confederate half-turn gives it to the Confederacy, which wins at once (11.b (1))."""
    game = make_game([("confederate", "FV", "manassas_junction"), ("union", "MF", "chicago")])
    to_confederate_movement(game)
    game.apply(ahd.BeginMarch("manassas_junction"))
    game.apply(next(a for a in game.legal_actions() if isinstance(a, ahd.Move) and a.path[-1] == "washington"))
    pass_until(game, lambda g: g.is_over)
    assert game.outcome.winner is C and game.outcome.rule == "11.b"
    d = debrief(game)
    taken = [p for p in d.points if p.captures_washington]
    assert [(p.turn, p.phasing, p.side, p.rule) for p in taken] == [(2, C, C, "11.b")]
    capital = next(c for c in d.comparisons if c.history.kind == "capital")
    assert capital.game_turn == 2 and render(capital.game, "en") == "taken by the Confederacy on turn 2"
    assert any("On turn 2 of your game: The Confederacy takes Washington." in render(q, "en") for q in d.questions)
    assert render(d.questions[0], "it").startswith("Al turno 2 della vostra partita: La Confederazione prende")


# ---------------------------------------------------------------------------- the real war: one table
def test_a_game_just_begun_still_gets_three_questions():
    d = debrief(ahd.new_game("1861", seed=1))
    assert d.points == () and d.outcome is None and d.battles == ()
    assert len(d.questions) == 3 and len(set(d.questions)) == 3
    richmond = next(c for c in d.comparisons if c.history.id == "richmond")
    assert richmond.game_turn is None and render(richmond.game, "en") == "not taken by the Union yet (turn 1)"
    assert "The game is not over: this debrief stops at Turn 1 (July 1861)." in render_debrief(d, "en")


def test_the_historical_rows_come_from_one_table_with_sources():
    rows = history()
    raw = json.loads((history_module.resources.files("ahd") / "data" / "history.json").read_text("utf-8"))
    assert [r["id"] for r in sorted(raw["rows"], key=lambda r: (r["first"], r["id"]))] == [r.id for r in rows]
    assert all(r.sources and all(s in raw["sources"].values() for s in r.sources) for r in rows)
    d = debrief(ahd.new_game("short", seed=1))
    assert [c.history for c in d.comparisons] == list(rows)


@pytest.mark.rule("3.c")
@pytest.mark.rule("11.a")
def test_the_real_falls_of_the_seven_cities_in_game_turns():
    by_id = {r.id: r for r in history()}
    expected = {"new_orleans": (8, datetime.date(1862, 4, 25)), "memphis": (10, datetime.date(1862, 6, 6)),
                "atlanta": (33, datetime.date(1864, 9, 2)), "richmond": (38, datetime.date(1865, 4, 3)),
                "vicksburg": (21, datetime.date(1863, 7, 4)), "nashville": (6, datetime.date(1862, 2, 25)),
                "savannah": (35, datetime.date(1864, 12, 21)), "norfolk": (9, datetime.date(1862, 5, 10))}
    for key, (turn, first) in expected.items():
        assert (by_id[key].turn, by_id[key].first) == (turn, first), key
    seven = {r.box for r in history() if r.kind == "city"} & set(WATCHED)
    assert seven == {"new_orleans", "mobile", "atlanta", "memphis", "charleston_sc", "wilmington", "richmond"}
    for row in history():   # the turn's months hold the date (T-2)
        t = Turn.of(row.turn)
        assert t.year == row.first.year


@pytest.mark.rule("3.c")
def test_turn_of_date_follows_the_calendar():
    months = {"Jul": 7, "Aug": 8, "Sep": 9, "Oct": 10, "Nov–Dec": 11, "Jan–Feb": 1, "Mar": 3, "Apr": 4, "May": 5,
              "Jun": 6}
    for number in range(1, 41):
        t = Turn.of(number)
        assert turn_of_date(t.year, months[t.months]) == number
    assert turn_of_date(1861, 12) == 5 and turn_of_date(1862, 2) == 6
    with pytest.raises(ValueError):
        turn_of_date(1861, 6)
    with pytest.raises(ValueError):
        turn_of_date(1865, 7)


@pytest.mark.parametrize("change, where", [
    (lambda d: d["rows"][0].pop("sources"), "row 1 (nashville): sources: missing"),
    (lambda d: d["rows"][1].update(box="atlantis"), "row 2 (new_orleans): box: 'atlantis' is not a box"),
    (lambda d: d["rows"][2].update(first="1870-01-01"), "row 3 (norfolk): side/first/last"),
    (lambda d: d["rows"][3].update(sources=["nobody"]), "row 4 (lee): sources:"),
])
def test_a_bad_history_table_names_the_row_and_the_key(change, where):
    data = json.loads((history_module.resources.files("ahd") / "data" / "history.json").read_text("utf-8"))
    change(data)
    with pytest.raises(HistoryError, match=re.escape(where)):
        parse(data)


# ---------------------------------------------------------------------------- the page
def test_the_page_has_no_url_no_script_and_escapes_every_text(games):
    for lang in ("en", "es", "it"):
        html = render_debrief(debrief(games["1861"]), lang)
        assert not re.search(r"(?i)(https?:|ftp:|//[a-z0-9.-]+\.[a-z]{2,}|src=|href=|url\(|@import|<script|<link)", html)
        assert f'<html lang="{lang}">' in html and "@media print" in html
    scenario = ahd.new_game("short").to_scenario()
    scenario["title"] = "<script>alert(1)</script> & co"
    html = render_debrief(debrief(ahd.new_game(scenario, seed=2)), "en")
    assert "<script>" not in html and "&lt;script&gt;alert(1)&lt;/script&gt; &amp; co" in html


def test_the_page_speaks_the_language_asked(games):
    d = debrief(games["1861"])
    es, it = render_debrief(d, "es"), render_debrief(d, "it")
    assert "Preguntas para el debate" in es and "Domande per la discussione" in it
    assert "Nueva Orleans" in es and "Nuova Orleans" in it   # box names from the engine's catalog


def test_a_battles_eliminated_units_in_the_plural_of_their_number():
    """Issue 36: a battle's turning point said "1 eliminadas" / "1 eliminate" whatever the number."""
    game = play(ahd.new_game("short", seed=5), make_bot("heuristic", 5), make_bot("heuristic", 6))
    battles = debrief(game).battles
    assert {b.lost for b in battles} >= {1, 2}
    for b in battles:
        said = {lang: render(b.message, lang) for lang in ("es", "it")}
        if b.lost == 1:
            assert "1 eliminada;" in said["es"] and "1 eliminata;" in said["it"], said
        else:
            assert f"{b.lost} eliminadas;" in said["es"] and f"{b.lost} eliminate;" in said["it"], said


def test_report_writes_the_page_and_refuses_a_bad_record_in_one_line(tmp_path, capsys, games):
    record = tmp_path / "game.json"
    games["short"].save(record)
    assert ahd_main(["report", str(record), "--out", str(tmp_path / "d.html"), "--lang", "en"]) == 0
    page = (tmp_path / "d.html").read_text("utf-8")
    assert page.startswith("<!DOCTYPE html>") and "Questions for discussion" in page
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(dict(json.loads(record.read_text()), seed="x")))
    assert ahd_main(["report", str(bad), "--out", str(tmp_path / "x.html")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"error: {bad}: seed: ") and "Traceback" not in err and len(err.splitlines()) == 1
    assert not (tmp_path / "x.html").exists()
    other = tmp_path / "other.json"
    games["1861"].save(other)
    assert ahd_main(["report", str(record), str(other), str(bad), "--out", str(tmp_path / "class.html")]) == 0
    summary = (tmp_path / "class.html").read_text("utf-8")
    assert "Class summary: 2 games" in summary and str(bad) in summary      # the bad record listed, not counted
    assert capsys.readouterr().err.startswith(f"skipped: {bad}: seed: ")
    (tmp_path / "empty.json").write_text("")
    assert ahd_main(["report", str(tmp_path / "empty.json")]) == 1
    assert str(tmp_path / "empty.json") in capsys.readouterr().err


def test_the_board_pictures_speak_the_pages_language():
    game = ahd.new_game("1861", seed=1)
    english = game_svg(game)
    assert ">Philadelphia<" in english and ">road<" in english and "Union control" in english
    for lang, words in {"es": (">Filadelfia<", ">carretera<", "mitad de turno de la Unión", "controlada por caballería"),
                        "it": (">Filadelfia<", ">strada<", "mezzo turno dell'Unione", "tenuto dalla cavalleria")}.items():
        said = game_svg(game, lang)
        assert all(w in said for w in words), lang
        assert ">Philadelphia<" not in said and ">road<" not in said
        width = float(re.search(r'viewBox="\S+ \S+ (\S+) ', said).group(1))
        lefts = [float(x) for x in re.findall(r'<text x="(-?[\d.]+)" y="[\d.]+" font-size="22" fill="#333">', said)]
        texts = re.findall(r'<text x="-?[\d.]+" y="[\d.]+" font-size="22" fill="#333">([^<]*)<', said)
        left = float(re.search(r'viewBox="(\S+) ', said).group(1))
        assert all(x + 12 * len(t) <= left + width for x, t in zip(lefts, texts)), lang   # the legend fits


@pytest.mark.rule("11.b")
def test_a_threat_to_washington_is_noted_once_while_it_lasts():
    """Two Confederate infantry next to Washington, held by one militia: a threat at the start of the half-turn,
    noted once however many half-turns it lasts."""
    game = make_game([("confederate", "FV", "manassas_junction"), ("confederate", "FV", "manassas_junction"),
                      ("union", "MF", "washington"), ("union", "MF", "chicago")])
    pass_until(game, lambda g: g.turn.number == 3 and g.phasing is C)
    d = debrief(game)
    threats = [p for p in d.points if p.kind == "washington"]
    assert [(p.turn, p.phasing, p.side) for p in threats] == [(2, U, C)]
    assert render(threats[0].message, "en") == "2 Confederate units stand next to Washington; its garrison: 1"
    assert not threats[0].captures_washington
    capital = next(c for c in d.comparisons if c.history.kind == "capital")
    assert capital.game_turn == 2 and render(capital.game, "en") == "threatened on turn 2, never taken"
