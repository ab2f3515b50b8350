"""Exercises that check themselves (chapters 02-08): a position, a goal, and a verdict that follows the play."""
from __future__ import annotations

from html import escape
from typing import Callable, Iterable

import ipywidgets as w

from ahd import Game, Options
from ahd.core.actions import (BeginMarch, CavalryRetreat, EndMovement, FireAuto, HoldGround, LeaderFollow,
                              LeaderPoint, Move, OpenFire, Recruit, Reinforce, Retreat, Roll, Volley)
from ahd.core import recruitment
from ahd.core.positions import march, pass_until, position_game
from ahd.core.i18n import render

from widgets.tutorials.answers import DONE, NOT_YET, WRONG, Verdict
from widgets.model.i18n import _, _n
from widgets.tutorials.board_views import C, U, show
from widgets.tutorials.battle_reading import misses_until


# =========================================================================== exercises
class Exercise:
    """A position on the live map and a goal the reader reaches by playing on it."""

    def __init__(self, title: str, task: str, game: Game, goal: Callable[[Game, int], Verdict],
                 *, full: bool = True) -> None:
        self.title = title
        self.task = task
        self.start = len(game.history)  # recorded actions before the reader's first
        self.app = show(game, full=full)
        self._goal = goal
        # the verdict follows the game: no check cell to run (voila hides code)
        self.verdict = w.HTML()
        self.app.session.observe(self._show_verdict, names=["position"])
        self._show_verdict()
        self.widget = w.VBox([w.HTML(f"<div style='font-size:16px'><b>{escape(title)}.</b> {escape(task)}</div>"),
                              self.verdict, self.app])

    @property
    def game(self) -> Game:
        return self.app.session.game

    def check(self) -> Verdict:
        """Judge the reader's play so far (never raises)."""
        return self._goal(self.game, self.start)

    def _show_verdict(self, change=None) -> None:
        try:
            verdict = self.check()
        except Exception as exc:  # a goal that cannot read a strange position: say so, never break the app
            verdict = Verdict(NOT_YET, _("cannot judge this position ({error}); undo and try again.").format(
                error=type(exc).__name__))
        self.verdict.value = verdict._repr_html_()

    def _repr_mimebundle_(self, **kwargs):
        return self.widget._repr_mimebundle_(**kwargs)


def _reader_actions(game: Game, start: int) -> list:
    return [a for a in game.history[start:] if not isinstance(a, Roll)]


def _box_ids(board, answer: Iterable[str]) -> tuple[set[str], list[str]]:
    """Box ids from ids, printed names or names in the current language (case-insensitive); unknown
    entries returned apart."""
    by_name = {b.name.lower(): b.id for b in board}
    by_name.update({board.local_name(b.id).lower(): b.id for b in board})
    found, unknown = set(), []
    for item in answer:
        key = str(item).strip()
        if key in board:
            found.add(key)
        elif key.lower() in by_name:
            found.add(by_name[key.lower()])
        else:
            unknown.append(str(item))
    return found, unknown


# =========================================================================== 02 movement
def jump_exercise() -> Exercise:
    """Union veteran cavalry in Cincinnati, a Confederate militia in Lexington: reach London in one march (4.2.1)."""
    game = position_game([("union", "CV", "cincinnati"), ("confederate", "MF", "lexington")], turn=2, marches=2)

    def goal(game: Game, start: int) -> Verdict:
        cavalry = game.unit("U-CV-01")
        used = sum(isinstance(a, BeginMarch) for a in _reader_actions(game, start))
        if cavalry.location == "london":
            if used == 1:
                return Verdict(DONE, _("one march: {cincinnati} → {lexington} (rail) → {london} (road), jumping "
                                       "the enemy militia in {lexington} (4.2.1); cavalry mixes road and rail "
                                       "(4.e).").format(**names))
            return Verdict(WRONG, _("the cavalry is in {london}, but not in one march: undo and try again.").format(
                **names))
        if cavalry.location != "cincinnati":
            return Verdict(WRONG, _("the cavalry is in {box}; undo (panel) and send it to {london}.").format(
                box=game.board.local_name(cavalry.location), **names))
        if _reader_actions(game, start):
            return Verdict(NOT_YET, _("the cavalry is still in {cincinnati}.").format(**names))
        return Verdict(NOT_YET, _("click {cincinnati}, then the lit {london} box.").format(**names))

    names = {box: game.board.local_name(box) for box in ("cincinnati", "lexington", "london")}
    return Exercise(_("Cavalry jump"), _("Move the Union cavalry from {cincinnati} to {london} in one march.").format(
        **names), game, goal)


def entrench_exercise() -> Exercise:
    """A Union militia in Bloomington (no recruiting value) must entrench: two marches (4.2.5 a)."""
    game = position_game([("union", "MF", "bloomington_in"), ("union", "MF", "indianapolis")], turn=2, marches=3)

    def goal(game: Game, start: int) -> Verdict:
        unit = game.unit("U-MF-01")
        if game.is_entrenched("U-MF-01"):
            return Verdict(DONE, _("entrenched: outside a recruiting city it took two marches, both ordering "
                                   "it to entrench (4.2.5 a)."))
        if unit.location != "bloomington_in":
            return Verdict(WRONG, _("the militia left {box}: a unit entrenches only in the box where it "
                                    "stays. Undo and try again.").format(box=name))
        if unit.entrench_progress:
            return Verdict(NOT_YET, _("one march ordered it to entrench; it needs a second one from {box}.").format(
                box=name))
        if not (game.state.turn == 2 and game.phasing is U and game.phase == "movement"):
            return Verdict(WRONG, _("the Union movement is over before the unit entrenched: undo in the panel."))
        return Verdict(NOT_YET, _("click {box}, then 'Entrench' in the panel.").format(box=name))

    name = game.board.local_name("bloomington_in")
    return Exercise(_("Entrench"), _("Entrench the Union militia in {box}.").format(box=name), game, goal)


# =========================================================================== 03 battles
def reinforcement_exercise() -> Exercise:
    """Round 2 at Lexington, the Union's firing moment: bring one unit in from Cincinnati (5.2.4)."""
    game = position_game([("union", "MF", "cincinnati", 3), ("confederate", "FV", "lexington")], turn=2)
    march(game, "cincinnati", *(Move(u, ("cincinnati", "lexington"), ("rail",)) for u in ("U-MF-01", "U-MF-02")))
    if game.decision == "movement":
        game.apply(EndMovement())
    misses_until(game, 2, U)  # round 1 and the defender's round 2: every shot misses
    assert game.decision == "battle_options"
    game.dice = "auto"

    def goal(game: Game, start: int) -> Verdict:
        mine = _reader_actions(game, start)
        if any(isinstance(a, Reinforce) for a in mine):
            return Verdict(DONE, _("the third militia joined from {cincinnati}, an adjacent box holding Union "
                                   "units, and fired at once (5.2.4).").format(**names))
        if any(isinstance(a, (OpenFire, Volley, FireAuto, Retreat)) for a in mine):
            return Verdict(WRONG, _("the Union opened fire or retreated without reinforcing: undo in the panel."))
        return Verdict(NOT_YET, _("click the lit {cincinnati} box (or the panel's reinforce button).").format(**names))

    names = {box: game.board.local_name(box) for box in ("cincinnati", "lexington")}
    return Exercise(_("Reinforce"), _("Bring one more militia into the battle of {lexington}.").format(**names),
                    game, goal)


# =========================================================================== 04 recruitment
def recruitment_exercise() -> Exercise:
    """Ten Union militia on the map, the recruitment die shows 5: place every recruit allowed (7.d)."""
    units = [("union", "MF", "washington", 3), ("union", "MF", "chicago", 2), ("union", "MF", "fort_wayne", 2),
             ("union", "MF", "pittsburgh", 3), ("confederate", "MF", "richmond")]
    game = position_game(units, turn=2)
    pass_until(game, lambda g: g.decision == "recruit_roll" and g.phasing is U)
    game.apply(Roll(5))
    state = game.state
    pool = len(game.units(U, "pool"))
    limit = min(state.recruit_limit, pool, recruitment.room(state, U), len(recruitment.eligible_boxes(state, U)))

    def goal(game: Game, start: int) -> Verdict:
        placed = sum(isinstance(a, Recruit) for a in _reader_actions(game, start))
        in_segment = game.decision == "recruitment" and game.phasing is U and game.state.turn == 2
        if placed == limit:
            return Verdict(DONE, _("{placed} recruits: the die allowed 5, but only {pool} militia counters "
                                   "were left in the pool (7.d).").format(placed=placed, pool=pool))
        if not in_segment:
            return Verdict(WRONG, _n("recruitment ended after {n} recruit; {limit} were allowed. Undo.",
                                     "recruitment ended after {n} recruits; {limit} were allowed. Undo.",
                                     placed).format(n=placed, limit=limit))
        return Verdict(NOT_YET, _("{placed} placed so far: click a lit Union recruiting city to place one.").format(
            placed=placed))

    return Exercise(_("Recruit"), _("Place as many Union recruits as the rules allow."), game, goal)


# =========================================================================== 05 control
def capture_exercise() -> Exercise:
    """A Union militia in Humboldt next to empty Memphis: capture it (9.a) and lower the Confederate maximum."""
    game = position_game([("union", "MF", "humboldt"), ("confederate", "MF", "richmond")], turn=2)

    def goal(game: Game, start: int) -> Verdict:
        if game.controller("memphis") is U:
            return Verdict(DONE, _("{memphis} is Union: the Confederate maximum fell from 29 to {maximum} "
                                   "(7.c, 9.d).").format(maximum=game.army_max(C), **names))
        if game.units_in("memphis", U):
            return Verdict(NOT_YET, _("the militia is in {memphis}, but control changes only at the end of the "
                                      "half-turn (9.a): end movement, then pass combat, promotion and "
                                      "recruitment.").format(**names))
        if _reader_actions(game, start):
            return Verdict(WRONG, _("{memphis} is not Union and no Union unit is there: undo and march into "
                                    "it.").format(**names))
        return Verdict(NOT_YET, _("click {humboldt}, then {memphis}.").format(**names))

    names = {box: game.board.local_name(box) for box in ("memphis", "humboldt")}
    return Exercise(_("Capture"), _("Capture {memphis} with the militia in {humboldt}.").format(**names), game, goal)


# =========================================================================== 07 advanced
def supply_exercise() -> Exercise:
    """A Union militia and a veteran infantry deep in Atlanta, out of supply (A-2): lose the militia."""
    units = [("union", "MF", "atlanta"), ("union", "FV", "atlanta"), ("union", "MF", "chicago"),
             ("confederate", "MF", "richmond")]
    game = position_game(units, options=Options.preset("basic").with_rule("A-2"))

    def goal(game: Game, start: int) -> Verdict:
        militia, veteran = game.unit("U-MF-01"), game.unit("U-FV-01")
        if veteran.location != "atlanta":
            return Verdict(WRONG, _("the veteran infantry is gone: a lost militia returns to the pool and can be "
                                    "recruited again (5.d), a veteran is the dearer loss. Undo and starve the "
                                    "militia."))
        if militia.location != "atlanta":
            return Verdict(DONE, _("the militia went back to the pool (5.d); the veteran holds {atlanta} alone, "
                                   "and a lone unit is always supplied (A-2.1).").format(atlanta=atlanta))
        return Verdict(NOT_YET, _("the stack in {atlanta} is out of supply: choose the unit to lose in the "
                                  "panel.").format(atlanta=atlanta))

    atlanta = game.board.local_name("atlanta")
    return Exercise(_("Out of supply"), _("Choose the unit the stack in {atlanta} loses.").format(atlanta=atlanta),
                    game, goal)


def leader_split_exercise() -> Exercise:
    """Three Confederate veterans with Lee (3) attack Cincinnati: split Lee's points +2 and +1 (AO-8.2.2)."""
    game = position_game([("union", "MF", "cincinnati", 3), ("confederate", "FV", "lexington", 3)], turn=12,
                         options=Options.preset("basic").with_rule("AO-8.2"),
                         leaders={"lee": "lexington", "grant": "chicago", "sherman": "chicago"})
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    march(game, "lexington", *(Move(f"C-FV-0{i}", ("lexington", "cincinnati"), ("rail",)) for i in (1, 2, 3)))
    game.apply(LeaderFollow("lee", "C-FV-01"))
    game.apply(EndMovement())
    game.apply(FireAuto())               # the Union defenders fire first (5.1) ...
    for _miss in range(3):
        game.apply(Roll(6))              # ... and miss
    game.apply(FireAuto())               # the Confederate targets; Lee's points come next
    assert game.decision == "leader_points"
    game.dice = "auto"

    def goal(game: Game, start: int) -> Verdict:
        points = [a.unit for a in _reader_actions(game, start) if isinstance(a, LeaderPoint)]
        split = sorted(points.count(u) for u in set(points))
        if split == [1, 2]:
            return Verdict(DONE, _("+2 and +1: one veteran hits on 5 or less, another on 4, the third on 3 "
                                   "(AO-8.2.2)."))
        if len(points) == 3:
            shown = " + ".join(str(n) for n in sorted(split, reverse=True))
            return Verdict(WRONG, _("a valid split ({split}), but not the one asked: undo three times and try "
                                    "again.").format(split=shown))
        return Verdict(NOT_YET, _("{n} of Lee's 3 points given: click a 'Lee gives +1' button in the panel.").format(
            n=len(points)))

    return Exercise(_("Lee's points"), _("Give Lee's three points as +2 to one veteran and +1 to another."), game,
                    goal)


# =========================================================================== 08 cavalry
RAID_BOX = "pittsburgh"


def raid_game(*, dice: str = "manual") -> Game:
    """A Confederate veteran cavalry raider holds Pittsburgh (Union 3) at the start of a Union half-turn:
    two Union militia in Ebensburg, one in Canton, the Union militia cavalry in Harrisburg (5.2.6, 9.b)."""
    return position_game([("confederate", "CV", RAID_BOX), ("union", "MF", "ebensburg", 2),
                          ("union", "MF", "canton"), ("union", "MC", "harrisburg"),
                          ("confederate", "MF", "richmond")], dice=dice)


def withdrawal_exercise() -> Exercise:
    """The Union militia from Ebensburg attack the raider in Pittsburgh: withdraw it before the battle (5.2.6)."""
    game = raid_game()
    march(game, "ebensburg", *(Move(u, ("ebensburg", RAID_BOX), ("rail",)) for u in ("U-MF-01", "U-MF-02")))
    if game.decision == "movement":
        game.apply(EndMovement())
    assert game.decision == "cavalry_retreat"
    game.dice = "auto"

    def goal(game: Game, start: int) -> Verdict:
        mine = _reader_actions(game, start)
        retreat = next((a for a in mine if isinstance(a, CavalryRetreat)), None)
        if retreat is not None:
            return Verdict(DONE, _("the raider withdrew to {box}: no battle, nobody wins (5.2.6). {raided} went "
                                   "back to the Union at once (9.b): Union maximum {maximum}.").format(
                box=game.board.local_name(retreat.to), raided=name, maximum=game.army_max(U)))
        if any(isinstance(a, HoldGround) for a in mine):
            return Verdict(WRONG, _("the raider stood and fought two militia: undo in the panel and withdraw it."))
        return Verdict(NOT_YET, _("the Confederate cavalry may withdraw: click the lit box (or use the panel)."))

    name = game.board.local_name(RAID_BOX)
    return Exercise(_("Slip away"), _("Save the Confederate raider in {box} from the two Union militia.").format(
        box=name), game, goal)


def catch_raider_exercise() -> Exercise:
    """The Union must attack the Pittsburgh raider so that it cannot withdraw (5.2.6): with cavalry only,
    or with its only open withdrawal box (Wheeling) blocked."""
    game = raid_game(dice="auto")
    log_start = len(game.log)
    name = game.board.local_name(RAID_BOX)
    battle_here = f"Battle at {game.board.name(RAID_BOX)}"  # the engine's log line, read in English

    def goal(game: Game, start: int) -> Verdict:
        mine = _reader_actions(game, start)
        retreat = next((a for a in mine if isinstance(a, CavalryRetreat)), None)
        if retreat is not None:
            return Verdict(WRONG, _("the raider slipped away to {box}: undo in the panel until the Union is "
                                    "moving again.").format(box=game.board.local_name(retreat.to)))
        if any(isinstance(a, HoldGround) for a in mine):
            return Verdict(WRONG, _("the raider could have withdrawn, and only chose to fight: undo in the panel, "
                                    "then attack with cavalry only or block its way out first."))
        if game.decision == "cavalry_retreat":
            boxes = ", ".join(game.board.local_name(a.to) for a in game.legal_actions()
                              if isinstance(a, CavalryRetreat))
            return Verdict(WRONG, _("the raider may still withdraw (to {boxes}): undo in the panel, then attack "
                                    "with cavalry only or block that box first.").format(boxes=boxes))
        if any(render(event.message, "en").startswith(battle_here) for event in game.log[log_start:]):
            return Verdict(DONE, _("caught: the battle at {box} is fought, and the raider cannot slip away "
                                   "before it (5.2.6).").format(box=name))
        if any(isinstance(a, EndMovement) for a in mine) or game.phase != "movement":
            return Verdict(WRONG, _("the Union movement ended without an attack on {box}: undo in the "
                                    "panel.").format(box=name))
        return Verdict(NOT_YET, _("move your units, then end movement to start the battle at {box}.").format(box=name))

    return Exercise(_("Catch the raider"), _("Attack the raider in {box} so that it cannot withdraw.").format(box=name),
                    game, goal)
