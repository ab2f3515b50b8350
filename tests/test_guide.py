"""Issue 15, item 4, without a browser: the guided first game ("Learn by playing"). Following its hints by the
app's own gestures (a click on the ringed box, the ringed panel button) completes the first turn of 1861 as the
Union and as the Confederacy, the computer playing the other side; every hint names a legal action; what
happens is explained from the log (shots with their terms, battles, reinforcements, retreats, the control
update) and the army maxima."""
from __future__ import annotations

import re
from html import unescape

import pytest

pytest.importorskip("ipyleaflet")  # the app extra

import widgets
from widgets.teaching.guide import Hint


def text_of(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", html)).strip())


def play_first_turn(side: str):
    other = "confederate" if side == "union" else "union"
    app = widgets.play("1861", **{side: "human", other: "heuristic"}, war_odds=False, guide=True)
    guide, s = app.guide, app.session
    hints: list[Hint] = []
    while s.game.state.turn == 1:
        hint = guide.hint
        assert hint is not None, (s.game.decision, s.status)
        assert len(hints) < 60, "the guide does not get through the turn"
        # the hint names a legal action of the position, says why, and shows where to click
        assert hint.action in s.legal_actions, hint
        shown = text_of(guide.text.value)
        assert f"The game's action: {hint.then or hint.action}" in shown
        assert hint.text in shown and ": " in hint.text and len(hint.text.split(": ", 1)[1]) > 15
        assert hint.kind in ("box", "button"), hint  # never only in the long list
        if hint.kind == "box":
            assert f'.ahd-card[data-box="{hint.box}"]' in guide.highlight.value
            assert f"data-box='{hint.box}'" in guide.text.value
            button = None
        else:
            button = next(b for b in app.panel.quick if b.layout.display != "none" and b.description == hint.button)
            assert "ahd-hinted" in button._dom_classes and guide.highlight.value == ""
        hints.append(hint)
        # follow it as a person would: the ringed box on the map, or the ringed button
        if button is None:
            app.map_view._on_click(properties={"id": hint.box})
        else:
            button.click()
        assert s.status_kind == "info", s.status
    return app, hints


@pytest.mark.parametrize("side", ["union", "confederate"])
def test_following_the_hints_completes_the_first_turn(side):
    app, hints = play_first_turn(side)
    s, guide = app.session, app.guide
    assert s.game.state.turn == 2 and s.player_of(side) == "human"
    assert len(hints) >= 5
    kinds = {type(h.then or h.action).__name__ for h in hints}
    assert "Move" in kinds and ("Recruit" in kinds or "EndRecruitment" in kinds)
    notes = text_of("".join(guide.notes))
    assert "Army maxima" in notes
    # turn 2 is guided too; the guide stops after the guided turns
    assert guide.hint is not None and guide.hint.action in s.legal_actions


def test_what_happens_is_explained_from_the_log():
    app, _ = play_first_turn("union")
    guide = app.guide
    notes = text_of("".join(guide.notes))
    game = app.game
    shots = [str(e) for e in game.log if e.kind == "shot" and " = " in str(e)]
    assert shots
    last = shots[-1]
    number, terms = last.rsplit(". ", 1)[1].split(" = ", 1)
    assert f"It needed a die roll of {number} or less: {terms}." in text_of(guide.explain(
        next(e for e in reversed(game.log) if str(e) == last)))
    # battles, reinforcements, retreats, control and maxima each get their sentence once
    explained = [text_of(guide.explain(e)) for e in game.log]
    everything = " ".join(explained)
    for kind, words in (("battle", "the defender fires first"), ("reinforce", "A reinforcement"),
                        ("retreat", "A retreat"), ("control", "The control update")):
        if any(e.kind == kind for e in game.log):
            assert words in everything or words in notes, kind
    assert "recruiting cities he controls" in notes  # the maxima's sentence is the rulebook's (7.c)


def test_learn_by_playing_starts_a_guided_game_for_the_side_chosen():
    app = widgets.play("1861", union="human", confederate="human", war_odds=False)
    guide, s = app.guide, app.session
    assert not guide.active and guide.starter.layout.display == "flex" and guide.body.layout.display == "none"
    assert guide.hint is None and guide.highlight.value == ""
    guide.side.value = "confederate"
    guide.start_button.click()
    assert guide.active and guide.body.layout.display == "flex" and guide.starter.layout.display == "none"
    assert (s.union, s.confederate) == ("heuristic", "human")
    assert s.game.state.turn == 1 and s.game.phasing.value == "confederate"  # the computer's Union half is played
    assert guide.hint is not None and guide.hint.action in s.legal_actions
    assert "you play the Confederacy" in text_of(guide.text.value)
    guide.stop_button.click()
    assert guide.hint is None and guide.highlight.value == "" and guide.starter.layout.display == "flex"


def test_do_it_for_me_plays_the_hint_and_a_hint_not_followed_is_replaced():
    app = widgets.play("1861", union="human", confederate="heuristic", war_odds=False, guide=True)
    guide, s = app.guide, app.session
    first = guide.hint
    assert first.kind == "box" and s.selected == ""
    guide.follow_button.click()                       # selects the march's box
    assert s.selected == first.box and guide.hint.kind == "box" and guide.hint.box != first.box
    s.click_box(first.box)                            # the player changes their mind: nothing selected
    assert s.selected == "" and guide.hint == first   # the hint starts again from the position as it is


class OneUnitMarcher:
    """A stand-in for the computer player: marches from Chicago with one of its three units only."""

    def choose(self, game):
        from ahd.core.actions import BeginMarch, EndMarch, EndMovement, Move
        legal = game.legal_actions()
        if game.decision == "movement":
            return BeginMarch("chicago") if BeginMarch("chicago") in legal else EndMovement()
        moves = [a for a in legal if isinstance(a, Move) and a.unit == "U-MF-01"]
        return moves[0] if moves and game.unit("U-MF-01").location == "chicago" else EndMarch()


def test_a_march_of_some_of_a_boxs_units_is_picked_for_the_player():
    from conftest import make_game
    from widgets.model.session import Session
    game = make_game([("union", "MF", "chicago", 3), ("confederate", "MF", "richmond")], turn=2)
    app = widgets.GameApp(Session(game, union="human", confederate="heuristic", war_odds=False), guide=True)
    guide, s = app.guide, app.session
    guide.bot = OneUnitMarcher()
    guide._changed()
    assert guide.hint.kind == "box" and guide.hint.box == "chicago"
    guide.follow()                                     # Chicago selected: the guide picks the one unit that goes
    hint = guide.hint
    assert hint.units == ("U-MF-01",) and s.selected_units == ["U-MF-01"]
    assert "the guide has picked militia infantry in the panel's Units list" in hint.text
    assert app.panel.units.value == ("U-MF-01",)      # shown picked in the panel
    guide.follow()
    assert game.unit("U-MF-01").location == hint.box
    assert [u.id for u in game.units_in("chicago")] == ["U-MF-02", "U-MF-03"]
    assert guide.hint.kind == "button" and guide.hint.button.startswith("End")
