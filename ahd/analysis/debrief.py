"""The debrief of a game: its turning points beside the real war, for a class after the game.

    >>> import ahd
    >>> from ahd.analysis.debrief import debrief
    >>> d = debrief(ahd.new_game("short", seed=3))     # a Game, a record (dict, JSON text) or a file
    >>> [p.kind for p in d.points][:1]
    []

``debrief(source)`` replays the record once, action by action, and notes what a teacher would point at:
each of the seven cities of 11.a changing hands (9.a, or 9.b when raiders leave), threats to and the
capture of Washington (11.b), the largest battles (units engaged and eliminated), the army maxima race
(its widest and closest moments, 7.c; the lead changing, 9.d), cavalry raids holding enemy cities (9.b),
leaders arriving (AO-8.2.0), a year scenario's score when it is played on (S-VT, S-0) and the end (11.c). Beside it: the history table (``ahd.analysis.history``) matched to the game, the
maxima and live war odds per half-turn, board pictures (the static SVG) at the turning points and
discussion questions (``ahd.analysis.debrief_questions``). ``ahd.analysis.debrief_html`` renders it.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ..core.board import VICTORY_CITIES
from ..core.errors import RecordError
from ..core.game import Game
from ..core.i18n import Msg, Msgn
from ..core.replay import _record
from ..core.sides import Side
from ..core.state import Outcome
from ..core.svg import game_svg
from ..odds.war import live_value
from .debrief_questions import questions
from .history import HistoricalEvent, history

KINDS = ("city", "washington", "battle", "maxima", "raid", "leader", "score", "end")
LARGEST_BATTLES = 3
MAX_SNAPSHOTS = 6
WATCHED = VICTORY_CITIES + ("washington",)
WASHINGTON_TAKEN = Msg("The Confederacy takes Washington")
#: Boxes whose first Union capture is compared with the real war: the watched ones and the history table's.
TRACKED = tuple(dict.fromkeys(WATCHED + tuple(r.box for r in history() if r.box is not None)))


@dataclass(frozen=True, slots=True)
class TurningPoint:
    """One moment of the game worth discussing. ``message`` says it (any language); ``rule`` is the
    rule ID behind it; ``index`` the number of recorded actions before the position it shows."""

    kind: str
    turn: int
    phasing: Side
    rule: str
    message: Msg
    index: int
    box: str | None = None
    side: Side | None = None        # who gained the box, won the battle, leads, raids, arrives, wins
    engaged: int = 0                # battles: units that took part (both sides)
    lost: int = 0                   # battles: units eliminated

    @property
    def x(self) -> float:
        return self.turn + (0.5 if self.phasing is Side.CONFEDERATE else 0.0)

    @property
    def captures_washington(self) -> bool:
        """The Confederacy took Washington (11.b), as against a threat to it."""
        return self.kind == "washington" and self.message.msgid == WASHINGTON_TAKEN.msgid


@dataclass(frozen=True, slots=True)
class Comparison:
    """A row of the real war beside what happened in this game (``game_turn`` None: not in this game)."""

    history: HistoricalEvent
    game_turn: int | None
    game: Msg


@dataclass(frozen=True, slots=True)
class Debrief:
    """Everything the debrief shows, as data."""

    scenario: Any                   # the scenario's title as a message parameter
    scenario_id: str
    options: tuple[str, ...]
    outcome: Outcome | None
    last_turn: int                  # the turn the record reaches
    points: tuple[TurningPoint, ...]
    battles: tuple[TurningPoint, ...]          # every battle, in order
    maxima: tuple[tuple[float, int, int], ...]  # (x, Union maximum, Confederate maximum) per half-turn
    odds: tuple[tuple[float, float], ...]       # (x, Union's live war odds) per half-turn, and at the end
    comparisons: tuple[Comparison, ...]
    snapshots: dict[int, Game] = field(default_factory=dict)  # index of a point -> the game then (its board)
    questions: tuple[Msg, ...] = ()
    first_union: dict[str, int] = field(default_factory=dict)  # box -> first turn the Union took it
    union_at_start: frozenset[str] = frozenset()                # tracked boxes the Union held at the start

    def snapshot_svg(self, index: int, lang: str | None = None) -> str:
        """The board at turning point ``index`` (a key of ``snapshots``) as SVG, said in ``lang``."""
        return game_svg(self.snapshots[index], lang)


class _Watcher:
    """Notes turning points while a game is replayed, one action at a time."""

    def __init__(self, game: Game) -> None:
        s = game.state
        self.game = game
        self.points: list[TurningPoint] = []
        self.battles: list[TurningPoint] = []
        self.control = {box: s.control[box] for box in TRACKED}
        self.held = set(s.cavalry_held)
        self.battle = None
        self.battle_turn = (s.turn, s.phasing)
        self.leaders = {name: leader.on_map for name, leader in s.leaders.items()}
        self.leader = _leader(s)
        self.threat = False
        self.scored = game.state.scenario_result is not None
        self.when: tuple[int, Side] | None = None
        self.raided: set[tuple[str, Side]] = set()   # raids are noted once per box and side
        self.reverted: set[str] = set()              # and so are the reversions they cause
        self.arrived: set[str] = {name for name, leader in s.leaders.items() if leader.on_map}
        self.first_union: dict[str, int] = {}
        self.initial = {box: s.control[box] for box in TRACKED}

    def point(self, kind: str, rule: str, message: Msg, index: int, **extra: Any) -> None:
        s = self.game.state
        turn, phasing = self.when or (s.turn, s.phasing)
        self.points.append(TurningPoint(kind, turn, phasing, rule, message, index, **extra))

    def after(self, index: int, reverted: set[str], when: tuple[int, Side]) -> None:
        """Compare the position after recorded action ``index - 1`` with the one before it; what changed
        happened in the half-turn ``when`` (the action's: its control update may have begun the next)."""
        self.when = when
        try:
            self._after(index, reverted)
        finally:
            self.when = None

    def _after(self, index: int, reverted: set[str]) -> None:
        s = self.game.state
        board = s.board
        if s.battle is not self.battle:
            if self.battle is not None:
                self._battle_over(index)
            self.battle = s.battle
            self.battle_turn = (s.turn, s.phasing)
        for box in WATCHED:
            before, after = self.control[box], s.control[box]
            if before is after:
                continue
            if box == "washington":
                if after is Side.CONFEDERATE:
                    self.point("washington", "11.b", WASHINGTON_TAKEN, index, box=box, side=after)
                else:
                    self.point("washington", "9.a", Msg("The Union takes Washington back"), index, box=box,
                               side=after)
            elif box in reverted:
                if box not in self.reverted:
                    self.reverted.add(box)
                    self.point("city", "9.b", Msg("{city} reverts to {side} control: the cavalry that held it left",
                                                  city=board.term(box), side=after), index, box=box, side=after)
            elif box not in s.cavalry_held:
                self.point("city", "9.a", Msg("The {side} side takes {city}", side=after, city=board.term(box)),
                           index, box=box, side=after)
        for box in s.cavalry_held - self.held:
            raider = s.control[box]
            if raider is not None and (box, raider) not in self.raided and _worth_raiding(s, box, raider):
                self.raided.add((box, raider))
                self.point("raid", "9.b", Msg("{side} cavalry holds {box}, a city of the enemy", side=raider,
                                              box=board.term(box)), index, box=box, side=raider)
        for box in sorted(reverted - set(WATCHED) - self.reverted):   # a raid on a recruiting city ends (9.b)
            if any(s.board.boxes[box].value_for(side) for side in Side):
                self.reverted.add(box)
                self.point("raid", "9.b", Msg("{city} reverts to {side} control: the cavalry that held it left",
                                              city=board.term(box), side=s.control[box]), index, box=box,
                           side=s.control[box])
        self.held = set(s.cavalry_held)
        for box in TRACKED:   # firmly: a raid's cavalry-held city is not yet taken
            if box not in self.first_union and s.control[box] is Side.UNION and box not in s.cavalry_held:
                self.first_union[box] = self.when[0] if self.when else s.turn
            self.control[box] = s.control[box]
        if s.scenario_result is not None and not self.scored:   # a year scenario scored, then played on (S-0)
            self.scored = True
            self.point("score", s.scenario_result.rule, s.scenario_result.as_msg(), index,
                       side=s.scenario_result.winner)
        for name, leader in s.leaders.items():
            if leader.on_map and not self.leaders[name]:
                if name in self.arrived:   # removed when left alone with the enemy, back now
                    self.point("leader", "AO-8.2.2", Msg("{leader} returns at {box}", leader=leader.title,
                                                         box=board.term(leader.location)), index,
                               box=leader.location, side=leader.side)
                else:
                    self.arrived.add(name)
                    self.point("leader", "AO-8.2.0", Msg("{leader} arrives at {box}", leader=leader.title,
                                                         box=board.term(leader.location)), index,
                               box=leader.location, side=leader.side)
            self.leaders[name] = leader.on_map

    def half_turn(self, index: int) -> None:
        """At the start of a half-turn: the maxima race and the threat to Washington."""
        s = self.game.state
        leader = _leader(s)
        if leader is not None and self.leader is not None and leader is not self.leader:
            self.point("maxima", "9.d", Msg("The {side} army maximum takes the lead: {u_max} (Union) against "
                                            "{c_max} (Confederate)", side=leader, u_max=s.army_max(Side.UNION),
                                            c_max=s.army_max(Side.CONFEDERATE)), index, side=leader)
        if leader is not None:
            self.leader = leader
        near = sum(len(s.units_in(n, Side.CONFEDERATE)) for n in s.board.neighbours("washington"))
        garrison = len(s.units_in("washington", Side.UNION))
        threat = s.control["washington"] is Side.UNION and near > garrison
        if threat and not self.threat:
            self.point("washington", "11.b", Msgn("{n} Confederate unit stands next to Washington; its garrison: "
                                                  "{m}", "{n} Confederate units stand next to Washington; its "
                                                  "garrison: {m}", n=near, m=garrison), index,
                       box="washington", side=Side.CONFEDERATE)
        self.threat = threat

    def _battle_over(self, index: int) -> None:
        battle, s = self.battle, self.game.state
        ids = set().union(*battle.participants.values()) if battle.participants else set()
        ids.discard(battle.coastal)
        lost = sum(1 for uid in ids if uid not in s.units or s.units[uid].location not in s.board.boxes)
        winner = battle.winner
        # the plural follows the units eliminated ("1 eliminada", "2 eliminadas"); a battle engages two at least
        message = (Msgn("Battle at {box}: {engaged} units engaged, {lost} eliminated; the {side} side wins",
                        "Battle at {box}: {engaged} units engaged, {lost} eliminated; the {side} side wins",
                        n=lost, box=s.board.term(battle.box), engaged=len(ids), lost=lost, side=winner) if winner else
                   Msgn("Battle at {box}: {engaged} units engaged, {lost} eliminated; no winner",
                        "Battle at {box}: {engaged} units engaged, {lost} eliminated; no winner",
                        n=lost, box=s.board.term(battle.box), engaged=len(ids), lost=lost))
        turn, phasing = self.battle_turn
        self.battles.append(TurningPoint("battle", turn, phasing, "5.c", message, index, box=battle.box,
                                         side=winner, engaged=len(ids), lost=lost))


def _leader(state) -> Side | None:
    u, c = state.army_max(Side.UNION), state.army_max(Side.CONFEDERATE)
    return Side.UNION if u > c else Side.CONFEDERATE if c > u else None


def _worth_raiding(state, box: str, raider: Side) -> bool:
    """A raid worth a turning point: a victory city, or a city that recruits for the raided side."""
    b = state.board.boxes[box]
    enemy_value = b.value_for(raider.enemy)
    return box in WATCHED or enemy_value > 0


class _Run:
    """One debrief's pass over a record: the game's own replay calls ``step`` for every action."""

    def __init__(self, snapshots: bool) -> None:
        self.snapshots = snapshots
        self.watcher: _Watcher | None = None
        self.maxima: list[tuple[float, int, int]] = []
        self.maxima_at: list[int] = []      # the recorded actions before each sample of ``maxima``
        self.odds: list[tuple[float, float]] = []
        self.pictures: dict[int, Game] = {}
        self.key: tuple | None = None
        self.index = 0

    def start(self, game: Game) -> _Watcher:
        if self.watcher is None:
            self.watcher = _Watcher(game)
        return self.watcher

    def half_turn(self, game: Game) -> None:
        s = game.state
        if (s.turn, s.phasing) != self.key and s.outcome is None:
            self.key = (s.turn, s.phasing)
            x = s.turn + (0.5 if s.phasing is Side.CONFEDERATE else 0.0)
            self.maxima.append((x, s.army_max(Side.UNION), s.army_max(Side.CONFEDERATE)))
            self.maxima_at.append(self.index)
            self.odds.append((x, live_value(s, game.scenario, game.play_on)))
            self.start(game).half_turn(self.index)

    def step(self, game: Game, action: Any, auto: bool) -> None:
        watcher = self.start(game)
        self.half_turn(game)
        before, logged, when = len(watcher.points), len(game._engine.events), (game.state.turn, game.state.phasing)
        Game._replay_one(game, action, auto)
        self.index += 1
        names = {e.message.params["box"].text for e in game._engine.events[logged:]
                 if e.kind == "control" and isinstance(e.message, Msg) and "reverts" in e.message.msgid}
        watcher.after(self.index, {b for b in game.board.boxes if game.board.name(b) in names} if names else set(),
                      when)
        if self.snapshots and len(watcher.points) > before and watcher.points[-1].kind in ("city", "washington"):
            self.pictures[len(watcher.points) - 1] = game.copy()


def _replayed(source: "Game | str | Path | dict[str, Any]", run: _Run) -> tuple[Game, dict[str, Any]]:
    """Replay (and validate) the record once, with ``run`` watching every action."""
    def replay_one(game: Game, action: Any, auto: bool) -> None:
        run.step(game, action, auto)

    watched = type("WatchedGame", (Game,), {"_replay_one": replay_one})
    if isinstance(source, Game):
        data = source.to_dict()
        return watched.from_dict(data), data
    if isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        try:
            text = Path(source).read_bytes()
        except OSError as exc:
            raise RecordError(f"cannot read the record: {exc.strerror or exc}", path=source) from None
        game = watched._from_record(text, source)
        return game, game.to_dict()
    data = _record(source)
    return watched.from_dict(data), data


def debrief(source: "Game | str | Path | dict[str, Any]", *, snapshots: bool = True) -> Debrief:
    """The debrief of a game (finished or not) from a Game, a record (dict or JSON text) or a record file.
    A bad record raises ``RecordError`` naming the file (given a path), the key and the problem."""
    run = _Run(snapshots)
    game, data = _replayed(source, run)
    watcher = run.start(game)
    run.half_turn(game)
    s, pictures, odds = game.state, run.pictures, run.odds
    if s.outcome is not None:
        o = s.outcome
        watcher.point("end", o.rule, o.as_msg(), run.index, side=o.winner)
        p = 1.0 if o.winner is Side.UNION else 0.0 if o.winner is Side.CONFEDERATE else 0.5
        odds.append((s.turn + (1.0 if s.phasing is Side.CONFEDERATE else 0.5), p))
        if snapshots:
            pictures[len(watcher.points) - 1] = game.copy()
    largest = sorted(watcher.battles, key=lambda b: (-b.engaged, -b.lost, b.index))[:LARGEST_BATTLES]
    points = sorted(watcher.points + largest + _race(run), key=lambda p: (p.index, KINDS.index(p.kind)))
    order = {id(p): i for i, p in enumerate(points)}
    pictures = _choose({order[id(watcher.points[i])]: svg for i, svg in pictures.items()}, points)
    result = Debrief(game.scenario.title_term, data["scenario"] if isinstance(data["scenario"], str) else "custom",
                     tuple(sorted(game.options.enabled)), s.outcome, s.turn, tuple(points), tuple(watcher.battles),
                     tuple(run.maxima), tuple(odds), (), pictures, (), dict(watcher.first_union),
                     frozenset(b for b, side in watcher.initial.items() if side is Side.UNION))
    result = _with_comparisons(result, watcher, game)
    return _replace(result, questions=questions(result))


def _race(run: _Run) -> list[TurningPoint]:
    """The army maxima race (7.c, 11.b): the half-turns where the Union's lead was widest and narrowest."""
    gaps = [u - c for _, u, c in run.maxima]
    if len(gaps) < 3 or min(gaps) == max(gaps):
        return []
    out = []
    for gap, message in ((max(gaps), Msg("The Union's widest lead in the army maxima race: {u_max} against {c_max}")),
                         (min(gaps), Msg("The army maxima race at its closest: {u_max} (Union) against {c_max} "
                                         "(Confederate)"))):
        i = gaps.index(gap)
        x, u, c = run.maxima[i]
        phasing = Side.CONFEDERATE if x % 1 else Side.UNION
        out.append(TurningPoint("maxima", int(x), phasing, "7.c", Msg(message.msgid, u_max=u, c_max=c),
                                run.maxima_at[i], side=Side.UNION if u > c else Side.CONFEDERATE if c > u else None))
    return out


def _replace(d: Debrief, **changes: Any) -> Debrief:
    return replace(d, **changes)


def _choose(pictures: dict[int, Game], points: list[TurningPoint]) -> dict[int, Game]:
    """At most MAX_SNAPSHOTS pictures: the end always, the capture of Washington, then spread evenly."""
    if len(pictures) <= MAX_SNAPSHOTS:
        return pictures
    keys = sorted(pictures)
    must = [k for k in keys if points[k].kind in ("end",) or (points[k].kind == "washington"
                                                              and points[k].side is Side.CONFEDERATE)]
    rest = [k for k in keys if k not in must]
    room = max(0, MAX_SNAPSHOTS - len(must))
    step = len(rest) / room if room else 0
    chosen = set(must[-MAX_SNAPSHOTS:]) | {rest[int(i * step)] for i in range(room)}
    return {k: pictures[k] for k in sorted(chosen)}


def _with_comparisons(d: Debrief, watcher: _Watcher, game: Game) -> Debrief:
    rows = []
    largest = max(d.battles, key=lambda b: (b.engaged, b.lost), default=None)
    raids = [p for p in d.points if p.kind == "raid"]
    for row in history():
        turn, said = None, Msg("not in this game")
        if row.kind in ("city", "river") and row.box is not None:
            now = game.state.control[row.box]
            if row.box in d.union_at_start:
                said = Msg("Union from the start of the scenario")
            elif row.box in d.first_union:
                turn = d.first_union[row.box]
                said = Msg("taken by the Union on turn {turn}", turn=turn)
            elif d.outcome is None:
                said = Msg("not taken by the Union yet (turn {turn})", turn=d.last_turn)
            elif now is not None:
                said = Msg("held by the {side} side at the end (turn {turn})", side=now, turn=d.last_turn)
        elif row.kind == "capital":
            taken = next((p for p in d.points if p.captures_washington), None)
            threat = next((p for p in d.points if p.kind == "washington" and p.side is Side.CONFEDERATE), None)
            if taken is not None:
                turn, said = taken.turn, Msg("taken by the Confederacy on turn {turn}", turn=taken.turn)
            elif threat is not None:
                turn, said = threat.turn, Msg("threatened on turn {turn}, never taken", turn=threat.turn)
            else:
                said = Msg("never threatened")
        elif row.kind == "battle" and largest is not None:
            turn, said = largest.turn, Msg("turn {turn}: {battle}", turn=largest.turn, battle=largest.message)
        elif row.kind == "raid" and raids:
            turn, said = raids[0].turn, Msg("turn {turn}: {raid}", turn=raids[0].turn, raid=raids[0].message)
        elif row.kind == "leader":
            arrival = next((p for p in d.points if p.kind == "leader" and row.id in p.message.params["leader"].lower()),
                           None)
            if arrival is not None:
                turn, said = arrival.turn, Msg("turn {turn}: {event}", turn=arrival.turn, event=arrival.message)
            elif "AO-8.2" not in game.state.options:
                said = Msg("leaders are an advanced rule (AO-8.2), not used in this game")
        elif row.kind == "end":
            if d.outcome is not None:
                turn, said = d.outcome.turn, d.outcome.as_msg()
            else:
                said = Msg("the game goes on (turn {turn})", turn=d.last_turn)
        rows.append(Comparison(row, turn, said))
    return _replace(d, comparisons=tuple(rows))


