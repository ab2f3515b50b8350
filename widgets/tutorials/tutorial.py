"""Helpers for the tutorial notebooks: a position on the live map, and exercises that check themselves.

    from ahd.core import combat, recruitment
from ahd.core.positions import position_game
    from widgets.tutorials import tutorial
    game = position_game([("union", "MF", "evansville", 3)], control={"union": ["louisville"]})
    tutorial.show(game)                 # the playable board (map, panel, charts) on that position

    ex = tutorial.jump_exercise()       # a position and a goal
    ex                                  # the task, the board and a verdict that follows the play:
                                        # ✓, "not done yet: ..." or "✗ ..." after every change of the game
    ex.check()                          # the same verdict, in code

    q = tutorial.forts_question(game)
    q                                   # a box to type the answer in, checked as it is typed
    q.check({"Washington", ...})        # or answered in code

The exercises check themselves when the game changes, so they work where code is hidden (voila) as well
as in Jupyter. A check never raises when the reader has not acted: it says "not done yet". The goals read
the game through its public interface only; the engine decides every rule.
"""
from __future__ import annotations

from html import escape
from typing import Any, Callable, Iterable

import ipywidgets as w

from ahd import Game, Options
from ahd.core.actions import (BeginMarch, CavalryRetreat, ChooseFirer, EndMovement, FireAuto, HoldGround,
                         LeaderFollow, LeaderPoint, Move, OpenFire, Recruit, Reinforce, Retreat, Roll, Volley)
from ahd.core import combat, recruitment
from ahd.core.positions import march, pass_until, position_game
from ahd.core.i18n import Term, render
from ahd.core.sides import CHANCE, Side

from widgets.tutorials.answers import DONE, NOT_YET, WRONG, Question, Verdict, _whole_number, parse_answer  # noqa: F401 (parse_answer: tutorial.parse_answer)
from widgets.app import GameApp
from widgets.model.i18n import N_, _, _n
from widgets.board.mapview import MapView
from widgets.model.session import Session

U, C = Side.UNION, Side.CONFEDERATE
#: A side's name on its own (a table's cell), as the app's panel says it; inside a sentence a side says
#: itself (``render(side)``: the engine's adjective form, "the {side} side").
SIDE_NAMES = {U: N_("Union"), C: N_("Confederate")}


def side_name(side: Side | str) -> str:
    """``"Union"`` / ``"Confederate"`` in the current language, as a name on its own."""
    return _(SIDE_NAMES[Side.parse(side)])


# =========================================================================== showing a position
def session(game: Game, *, union: str = "human", confederate: str = "human") -> Session:
    """A session on ``game`` for a tutorial: both sides played by the reader, no war-odds model."""
    return Session(game, union=union, confederate=confederate, war_odds=False)


class MapOnly(w.VBox):
    """The live map of a session with its status line: smaller than a :class:`GameApp` (no panel, no charts)."""

    def __init__(self, session: Session, *, height: str = "520px") -> None:
        self.session = session
        self.map_view = MapView(session, height=height)
        self.status = w.HTML()
        session.observe(self._show_status, names=["status", "prompt"])
        self._show_status()
        super().__init__([self.map_view.widget, self.status])

    @property
    def game(self) -> Game:
        return self.session.game

    def _show_status(self, change=None) -> None:
        text = self.session.status or self.session.prompt
        self.status.value = f"<div style='font-size:15px'>{text}</div>"


def show(game: Game, *, full: bool = True, height: str = "520px") -> "GameApp | MapOnly":
    """The position of ``game`` on the live map: the whole app (``full``) or the map alone."""
    s = session(game)
    return GameApp(s) if full else MapOnly(s, height=height)


# =========================================================================== reading a battle
def next_shot(game: Game) -> tuple[str, str, int]:
    """The pending shot (5.1.b) as (shooter id, target id, effective value: it hits on that or less)."""
    battle = game.battle
    if battle is None or game.decision != "shot":
        raise ValueError(f"no shot is pending (decision {game.decision!r})")
    shooter, target = battle.targets[battle.shot_index]
    state = game.state
    return shooter, target, combat.effective_value(state, battle, state.units[shooter], state.units[target])


def misses_until(game: Game, round: int, firing: Side | str | None = None) -> None:
    """Play the battle in progress with default targets and every shot a 6 (a miss, H-2) until round
    ``round`` begins, or until ``firing`` is about to act in that round (typed-in dice only)."""
    side = None if firing is None else Side.parse(firing)
    battle = game.battle
    if battle is None:
        raise ValueError("no battle is in progress")
    while not (game.battle.round == round and (side is None or game.battle.firing is side)
               and game.decision in ("battle_options", "targets")):
        if game.battle is None or game.battle.round > round or game.is_over:
            raise ValueError(f"the battle did not reach round {round}")
        if game.decision == "battle_options":
            game.apply(OpenFire())
        elif game.decision == "targets":
            game.apply(FireAuto())
        elif game.current_player == CHANCE:
            game.apply(Roll(6))
        else:
            raise ValueError(f"unexpected decision {game.decision!r} in a battle")


def modifier_battle(attacker: str, defender: str, *, entrenched: bool = False, crossing: bool = False) -> Game:
    """A Union ``attacker`` (type code) attacks a Confederate ``defender`` in Fredericksburg: across the
    Potomac from Washington (``crossing``, a blue side: 5.2.3) or by rail from Richmond."""
    origin, line = ("washington", "river") if crossing else ("richmond", "rail")
    game = position_game([("union", attacker, origin), ("confederate", defender, "fredericksburg", 1, entrenched)])
    (unit,) = game.units_in(origin, U)
    march(game, origin, Move(unit.id, (origin, "fredericksburg"), (line,)))
    if game.decision == "movement":
        game.apply(EndMovement())
    return game


def effective_values(game: Game) -> tuple[int, int]:
    """In a one-against-one battle: (attacker's effective value at the defender, defender's at the attacker),
    as they stand in the current round (5.2.a)."""
    state, battle = game.state, game.battle
    attacker, = state.units_in(battle.box, battle.attacker)
    defender, = state.units_in(battle.box, battle.attacker.enemy)
    return (combat.effective_value(state, battle, attacker, defender),
            combat.effective_value(state, battle, defender, attacker))


def fight_days(game: Game, command_rolls: dict, until_round: int) -> tuple[dict, dict]:
    """Play the battle in progress under A-7 with typed-in dice until round ``until_round`` is over (or the
    battle ends): the command rolls of each side in order (``{"union": [4, 1, 5], ...}``), every shot a 6
    (a miss, H-2), the first units offered as firers, leader points to the first unit offered.

    Returns ``(commands, shots)``: ``commands[day][side]`` is the day's command (A-7 b) and
    ``shots[round][side]`` the number of units that fired in that round's moment.
    """
    rolls = {Side.parse(side): list(values) for side, values in command_rolls.items()}
    commands: dict[int, dict[str, int]] = {}
    shots: dict[int, dict[str, int]] = {}
    while game.battle is not None and game.battle.round <= until_round:
        battle, decision = game.battle, game.decision
        if decision == "command_roll":
            side = battle.command_pending[0]
            if not rolls.get(side):
                raise ValueError(f"no command roll left for the {side.adjective} side on day {battle.day}")
            game.apply(Roll(rolls[side].pop(0)))
            if game.battle is not None and not game.battle.command_pending:
                commands[game.battle.day] = {s.value: n for s, n in game.battle.command.items()}
        elif decision == "firers":
            game.apply(next(a for a in game.legal_actions() if isinstance(a, ChooseFirer)))
        elif decision == "leader_points":
            game.apply(next(a for a in game.legal_actions() if isinstance(a, LeaderPoint)))
        elif decision == "targets":
            game.apply(FireAuto())
            shots.setdefault(battle.round, {})[battle.firing.value] = len(battle.targets)
        elif decision == "battle_options":
            game.apply(OpenFire())
        elif game.current_player == CHANCE:
            game.apply(Roll(6))
        else:
            raise ValueError(f"unexpected decision {decision!r} in a battle")
    return commands, shots


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


# =========================================================================== 01 the board
def forts_question(game: Game) -> Question:
    """Name the permanent forts (4.2.5 d)."""
    board = game.board
    forts = {b.id for b in board if b.fort}

    def judge(answer: Any) -> Verdict:
        if isinstance(answer, str):
            answer = [answer]
        found, unknown = _box_ids(board, answer)
        if unknown:
            return Verdict(WRONG, _("no box is called {names}; hover over the map for names.").format(
                names=", ".join(map(repr, unknown))))
        if found == forts:
            return Verdict(DONE, _("the four permanent forts: {boxes}.").format(
                boxes=", ".join(sorted(board.local_name(b) for b in forts))))
        missing, extra = forts - found, found - forts
        parts = []
        if extra:
            parts.append(_n("{boxes} has no star (no fort)", "{boxes} have no star (no fort)", len(extra)).format(
                boxes=", ".join(sorted(board.local_name(b) for b in extra))))
        if missing:
            parts.append(_n("{n} fort missing", "{n} forts missing", len(missing)).format(n=len(missing)))
        return Verdict(WRONG, _("{problems}. Look for the ★ on the map.").format(problems="; ".join(parts)))

    return Question(_("Which boxes are permanent forts?"), judge,
                    placeholder=_("box names separated by commas, e.g. Washington, Richmond"))


def values_question(game: Game, box_id: str) -> Question:
    """Read a box's two recruiting values off the map: answer (Union value, Confederate value)."""
    box = game.board[box_id]
    expected = (box.blue_value, box.red_value)

    def judge(answer: Any) -> Verdict:
        try:
            given = tuple(int(v) for v in answer)
        except (TypeError, ValueError):
            return Verdict(WRONG, _("answer with two numbers: (Union value, Confederate value)."))
        if given == expected:
            return Verdict(DONE, _("{box} is worth {union} to the Union and {confederate} to the Confederacy; "
                                   "each counts only for the side that controls it (7.c).").format(
                box=name, union=expected[0], confederate=expected[1]))
        if given == expected[::-1]:
            return Verdict(WRONG, _("the right numbers in the wrong order: the Union (blue) value comes first."))
        return Verdict(WRONG, _("hover over {box} on the map and read its blue and red numbers.").format(box=name))

    name = game.board.local_name(box_id)
    return Question(_("What are {box}'s recruiting values?").format(box=name), judge,
                    placeholder=_("two numbers, Union first, e.g. 2, 0"))


def maximum_question(game: Game, side: Side | str, captured: Iterable[str], by: Side | str) -> Question:
    """The army maximum of ``side`` (7.c) once ``by`` controls the boxes ``captured``."""
    side, by = Side.parse(side), Side.parse(by)
    captured = list(captured)
    board = game.board
    after = position_game([], control={by.value: captured}, turn=game.state.turn)
    expected = after.army_max(side)
    before = game.army_max(side)

    @_whole_number
    def judge(value: int) -> Verdict:
        if value == expected:
            return Verdict(DONE, _("{before} becomes {after}: a capture removes the loser's own-colour value "
                                   "and adds the captor's own-colour value (7.c).").format(before=before, after=expected))
        return Verdict(WRONG, _("not {value}. Start from {before} and look at the {side} value of {boxes} on "
                                "the map.").format(value=value, before=before, side=render(side), boxes=names))

    names = ", ".join(board.local_name(b) for b in captured)
    return Question(_("What is the {side} army maximum if the {by} side controls {boxes}?").format(
        side=render(side), by=render(by), boxes=names), judge, placeholder=_("a whole number"))


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


# =========================================================================== 06 options
def options_question(expected: Options, prompt: str) -> Question:
    """Build an Options value (or anything ``Options.parse`` accepts) equal to ``expected``."""

    def judge(answer: Any) -> Verdict:
        try:
            given = Options.parse(answer)
        except (ValueError, TypeError) as exc:
            return Verdict(WRONG, _("not a valid set of options: {error}").format(error=exc))
        if given == expected:
            return Verdict(DONE, _("rules on: {rules}.").format(rules=", ".join(expected.to_list())))
        missing = sorted(expected.enabled - given.enabled)
        extra = sorted(given.enabled - expected.enabled)
        parts = ([_("turn on {rules}").format(rules=", ".join(missing))] if missing else []) + (
            [_("turn off {rules}").format(rules=", ".join(extra))] if extra else [])
        return Verdict(WRONG, "; ".join(parts) + ".")

    return Question(prompt, judge, placeholder=_("a preset name, or rule IDs separated by commas"))


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


# =========================================================================== 00 set-up and calendar
def setup_rows(scenario: str = "1861") -> list[dict]:
    """A scenario's set-up read from its data (not typed by hand): one row per side, box and unit type, in
    the scenario's order, with ``side`` (the side's adjective), ``box`` (the box's name), ``count``, ``code``,
    ``unit`` (T-1 name) and ``note`` (entrenched, or a fort of the side: 4.2.5 d); the words in the current
    language (English: the printed names)."""
    from ahd.core.board import default_board
    from ahd.core.scenario import load_scenario
    from ahd.core.units import UNIT_TYPES, parse_type

    board, rows, index = default_board(), [], {}
    for placement in load_scenario(scenario).units:
        code = parse_type(placement.type).code
        key = (placement.side, placement.box, code, placement.entrenched)
        if key in index:
            index[key]["count"] += 1
            continue
        box = board[placement.box]
        note = (_("fort: entrenched while held (4.2.5 d)") if box.fort
                else _("entrenched") if placement.entrenched else "")
        index[key] = {"side": side_name(placement.side), "box": board.local_name(box.id), "count": 1, "code": code,
                      "unit": render(Term("unit", UNIT_TYPES[code].name)), "note": note}
        rows.append(index[key])
    return rows


def counter_mix(game: Game) -> dict[str, dict[str, dict[str, int]]]:
    """The militia counters of each side (1.3.a) and where they are now:
    ``{"Union": {"MF": {"owned": 24, "map": 12, "pool": 0, "reserve": 12}, ...}, ...}``, keyed by the
    sides' English adjectives (keys a notebook reads, in any language: ``render(side)`` says them)."""
    from ahd.core.units import MILITIA_MIX

    mix: dict[str, dict[str, dict[str, int]]] = {}
    for side, owned in MILITIA_MIX.items():
        mix[side.adjective] = {}
        for code, count in owned.items():
            where = {place: sum(u.type.code == code for u in game.units(side, place))
                     for place in ("map", "pool", "reserve")}
            mix[side.adjective][code] = {"owned": count, **where}
    return mix


def calendar_rows() -> list[dict]:
    """Table T-2 from the engine's calendar (3.c): ``turn``, ``months`` (in the current language), ``year``,
    ``two_months`` and ``events`` (the drafts, the scenarios' first and last turns, the short game's end)."""
    from ahd.core.calendar import DRAFT_TURNS, LAST_TURN, Turn

    events = {1: [_("the campaign and the short game start (2, 13)")], 10: [_("the short game ends (13)")],
              LAST_TURN: [_("the campaign's last turn (10)")]}
    for year, first in zip((1862, 1863, 1864), DRAFT_TURNS):
        events.setdefault(first, []).append(_("draft (8); the {year} scenario starts").format(year=year))
        events.setdefault(first + 9, []).append(_("the {year} scenario ends").format(year=year))
    rows = []
    for number in range(1, LAST_TURN + 1):
        turn = Turn.of(number)
        rows.append({"turn": number, "months": turn.month_names(), "year": turn.year,
                     "two_months": "–" in turn.months, "events": "; ".join(events.get(number, []))})
    return rows


def _cell(value: Any) -> str:
    return side_name(value) if isinstance(value, Side) else render(value)


def table(rows: Iterable[dict], columns: dict[str, str], caption: str = ""):
    """Rows of dicts as an HTML table for a notebook: ``columns`` maps each key to its heading (the
    notebook's words). A cell that says itself in a language (a side, a ``Term``, a message) is said in
    the current language."""
    from IPython.display import HTML

    cell = "padding:2px 10px;border-bottom:1px solid #ddd;text-align:left"
    head = "".join(f"<th style='{cell}'>{escape(title)}</th>" for title in columns.values())
    body = "".join("<tr>" + "".join(f"<td style='{cell}'>{escape(_cell(row.get(key, '')))}</td>" for key in columns)
                   + "</tr>" for row in rows)
    top = f"<caption style='text-align:left;font-weight:bold'>{escape(caption)}</caption>" if caption else ""
    return HTML(f"<table style='border-collapse:collapse;font-size:14px'>{top}<tr>{head}</tr>{body}</table>")


def calendar_grid():
    """The 40 turns of T-2 as one small table: a row per year, a column per turn of the year, the two-month
    winter turns shaded, the drafts and the scenario starts in bold (3.c, 8, S-0)."""
    from IPython.display import HTML
    from ahd.core.calendar import Turn

    rows = calendar_rows()
    # a column per turn of a calendar year, January–February (turn 6) to November–December (turn 5)
    columns = [Turn.of(number) for number in (6, 7, 8, 9, 10, 1, 2, 3, 4, 5)]
    cell = "padding:3px 6px;border:1px solid #ccc;text-align:center;font-size:13px"
    head = f"<th style='{cell}'>{escape(_('year'))}</th>" + "".join(
        f"<th style='{cell}'>{escape(turn.month_names())}</th>" for turn in columns)
    body = ""
    for year in range(1861, 1866):
        tds = []
        for column in columns:
            row = next((r for r in rows if r["year"] == year and Turn.of(r["turn"]).months == column.months), None)
            if row is None:
                tds.append(f"<td style='{cell};color:#bbb'>–</td>")
                continue
            shade = ";background:#e3ecf7" if row["two_months"] else ""
            text = f"<b>{row['turn']}</b>" if row["events"] else str(row["turn"])
            title = escape(row["events"] or (_("two months") if row["two_months"] else ""))
            tds.append(f"<td style='{cell}{shade}' title='{title}'>{text}</td>")
        body += f"<tr><th style='{cell}'>{year}</th>{''.join(tds)}</tr>"
    legend = _("Shaded: two-month winter turns. Bold: a draft, a scenario's start or end, or the end of the short "
               "game (hover over a turn, or read the list below).")
    return HTML(f"<table style='border-collapse:collapse'><tr>{head}</tr>{body}</table>"
                f"<div style='font-size:12px;color:#555'>{escape(legend)}</div>")


def winter_turns_question(year: int) -> Question:
    """Which turns of ``year`` are two-month winter turns (3.c, T-2)?"""
    rows = [r for r in calendar_rows() if r["year"] == year]
    expected = {r["turn"] for r in rows if r["two_months"]}
    months = {r["turn"]: r["months"] for r in calendar_rows()}

    def judge(answer: Any) -> Verdict:
        items = [answer] if isinstance(answer, (int, str)) else list(answer)
        try:
            given = {int(item) for item in items}
        except (TypeError, ValueError):
            return Verdict(WRONG, _("answer with turn numbers separated by commas, e.g. 5, 6."))
        if given == expected:
            first, second = sorted(expected)
            return Verdict(DONE, _("turn {first} ({first_months}) and turn {second} ({second_months}): the two "
                                   "winter turns of {year} (3.c).").format(
                first=first, first_months=months[first], second=second, second_months=months[second], year=year))
        outside = sorted(t for t in given if t not in months or not any(r["turn"] == t for r in rows))
        if outside:
            return Verdict(WRONG, _("turn {turn} is not in {year}: read the calendar table above.").format(
                turn=outside[0], year=year))
        single = sorted(given - expected)
        if single:
            return Verdict(WRONG, _("turn {turn} is {months} alone, one month.").format(
                turn=single[0], months=months[single[0]]))
        missing = len(expected - given)
        return Verdict(WRONG, _n("{n} winter turn of {year} missing.", "{n} winter turns of {year} missing.",
                                 missing).format(n=missing, year=year))

    return Question(_("Which turns of {year} are two-month winter turns?").format(year=year), judge,
                    placeholder=_("turn numbers separated by commas, e.g. 5, 6"))


def first_turn_marches_question(scenario: str = "1861") -> Question:
    """How many marches each side has on the first turn of ``scenario`` (4.1, S-0)."""
    from ahd.core.scenario import load_scenario

    expected = load_scenario(scenario).first_turn_marches

    @_whole_number
    def judge(value: int) -> Verdict:
        if value == expected:
            return Verdict(DONE, _n("{n} march each, with no roll, so no naval invasion on turn 1 (4.1).",
                                    "{n} marches each, with no roll, so no naval invasion on turn 1 (4.1).",
                                    expected).format(n=expected))
        return Verdict(WRONG, _("not that: on the first turn nobody rolls for marches; the number is fixed (4.1)."))

    return Question(_("How many marches does each side have on turn 1 of the {scenario} campaign?").format(
        scenario=scenario), judge, placeholder=_("a whole number"))


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


# =========================================================================== 09 strategy
def washington_battle() -> Game:
    """Four Confederate veterans attack Washington from Manassas Junction; one Union militia holds the fort,
    three more wait in Baltimore and one in Harper's Ferry. The game stops at the Union defender's firing
    moment of round 2, when it may reinforce (5.2.4)."""
    game = position_game([("union", "MF", "washington"), ("union", "MF", "baltimore", 3),
                          ("union", "MF", "harpers_ferry"), ("confederate", "FV", "manassas_junction", 4)])
    pass_until(game, lambda g: g.phasing is C and g.decision == "movement")
    march(game, "manassas_junction",
          *(Move(f"C-FV-0{i}", ("manassas_junction", "washington"), ("rail",)) for i in range(1, 5)))
    if game.decision == "movement":
        game.apply(EndMovement())
    misses_until(game, 2, U)
    game.dice = "auto"
    return game


def reinforcement_count_question(game: Game | None = None) -> Question:
    """How many units the defender may bring into the battle in this firing moment (5.2.4: one from each
    adjacent box holding its units), read from the engine's legal actions."""
    game = game or washington_battle()
    state = game.state
    origins = {state.units[a.unit].location for a in game.legal_actions() if isinstance(a, Reinforce)}
    expected = len(origins)
    waiting = sum(len(game.units_in(box, game.current_player)) for box in origins)
    names = ", ".join(sorted(game.board.local_name(b) for b in origins))

    @_whole_number
    def judge(value: int) -> Verdict:
        if value == expected:
            return Verdict(DONE, _("{n}: one unit from each adjacent box holding Union units ({boxes}), this "
                                   "round and again every round (5.2.4).").format(n=expected, boxes=names))
        if value == waiting:
            return Verdict(WRONG, _("{n} units wait next door, but a side brings in at most one from each "
                                    "adjacent box in a firing moment (5.2.4).").format(n=waiting))
        return Verdict(WRONG, _("not {value}: count the adjacent boxes with Union units, not the units "
                                "(5.2.4).").format(value=value))

    return Question(_("How many units can the Union bring into the battle in this firing moment?"), judge,
                    placeholder=_("a whole number"))


__all__ = ["session", "show", "MapOnly", "next_shot", "misses_until", "modifier_battle", "effective_values", "Verdict", "Question", "Exercise", "forts_question", "values_question",
           "maximum_question", "jump_exercise", "entrench_exercise", "reinforcement_exercise",
           "recruitment_exercise", "capture_exercise", "options_question", "fight_days", "supply_exercise",
           "leader_split_exercise", "setup_rows", "counter_mix", "calendar_rows", "table", "calendar_grid",
           "winter_turns_question", "first_turn_marches_question", "raid_game", "withdrawal_exercise",
           "catch_raider_exercise", "washington_battle", "reinforcement_count_question", "side_name"]
