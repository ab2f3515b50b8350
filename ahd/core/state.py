"""The mutable game state behind a Game: units, control, the turn and the decision in progress.

Only the engine mutates a State; everything outside reads it through ``Game``. ``copy()`` is
cheap (used for undo checkpoints).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Iterable

from .board import Board, VICTORY_CITIES
from .i18n import Msg, render
from .leaders import new_leaders
from .options import Options
from .sides import Side
from .units import ASIDE, EUROPE, MILITIA_MIX, OFF_MAP, OUT, POOL, RESERVE, UNIT_TYPES, Unit, UnitType


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended: the winner, the rule that decided it, a sentence, and the turn.

    The sentence is a message (:class:`ahd.core.i18n.Msg`, kept in ``message``); ``reason`` says it in
    the current language, ``str(outcome)`` the whole line, ``outcome.text(lang)`` in any language."""

    winner: Side | None
    rule: str
    message: "Msg | str"
    turn: int
    level: str | None = None  # scenario results (S-VT): "Union edge", "historical result (draw)", ... (English keys)

    @property
    def reason(self) -> str:
        """The sentence in the current language."""
        return render(self.message)

    def as_msg(self) -> Msg:
        """The whole line as a message: "Union victory on turn 12: ... (11.a)"."""
        if self.level is not None:
            return Msg("Scenario result after turn {turn}: {reason} ({rule})", turn=self.turn, reason=self.message,
                       rule=self.rule)
        if self.winner is None:
            return Msg("Nobody wins on turn {turn}: {reason} ({rule})", turn=self.turn, reason=self.message,
                       rule=self.rule)
        return Msg("{side} victory on turn {turn}: {reason} ({rule})", side=self.winner, turn=self.turn,
                   reason=self.message, rule=self.rule)

    def text(self, lang: str | None = None) -> str:
        """The whole line in ``lang`` (default: the current language)."""
        return self.as_msg().render(lang)

    __msg__ = text

    def __str__(self) -> str:
        return self.text()


@dataclass(slots=True)
class Battle:
    """A battle in progress (§5)."""

    box: str
    attacker: Side
    defender: Side
    round: int = 1
    firing: Side | None = None                 # whose firing moment it is
    participants: dict = field(default_factory=dict)   # Side -> set of unit ids that took part
    entry_boxes: frozenset = frozenset()       # 5.2.5 c: last boxes of the attackers' paths
    reinforce_origins: dict = field(default_factory=dict)  # Side -> boxes reinforcements came from (C-1)
    reinforced: set = field(default_factory=set)  # units that joined as reinforcements (H-1)
    used_origins: set = field(default_factory=set)  # boxes used for reinforcement this firing moment
    reinforced_now: bool = False               # a reinforcement already came this moment: no retreat
    invasion: bool = False                     # the attackers came by naval invasion (O-3.1)
    coastal: str | None = None                 # id of the coastal defence of this battle
    contained_attack: bool = False             # A-4 (c): the attacker fights without its entrenchment
    flipped: list = field(default_factory=list)  # AO-8.1: units just flipped full -> reduced this moment
    morale_pending: list = field(default_factory=list)  # AO-8.1: units still to test
    rally_pending: list = field(default_factory=list)   # AO-8.11: sides still to decide a rally
    desertion_pending: list = field(default_factory=list)  # AO-8.12: (unit, modifier, lost side?) to test
    was_routed: set = field(default_factory=set)  # AO-8.12: units routed when the battle ended
    command: dict = field(default_factory=dict)   # Side -> this day's command
    day: int = 0                               # the day whose command has been rolled
    command_pending: list = field(default_factory=list)  # sides still to roll this day's command
    firers: list | None = None                 # units chosen to fire this moment (None: all fire)
    leader_points: list = field(default_factory=list)  # AO-8.2.2: [(leader, unit)] +1 each, this moment
    targets: list = field(default_factory=list)   # [(shooter, target)] declared this moment
    shot_index: int = 0                        # next declared shot to resolve
    winner: Side | None = None

    def copy(self) -> "Battle":
        return replace(self,
                       participants={s: set(v) for s, v in self.participants.items()},
                       reinforce_origins={s: set(v) for s, v in self.reinforce_origins.items()},
                       reinforced=set(self.reinforced), used_origins=set(self.used_origins),
                       targets=list(self.targets), command=dict(self.command),
                       command_pending=list(self.command_pending), leader_points=list(self.leader_points),
                       flipped=list(self.flipped), morale_pending=list(self.morale_pending),
                       rally_pending=list(self.rally_pending), desertion_pending=list(self.desertion_pending),
                       was_routed=set(self.was_routed),
                       firers=None if self.firers is None else list(self.firers))


class State:
    """Everything needed to continue a game (besides its dice generator)."""

    def __init__(self, board: Board, options: Options) -> None:
        self.board = board
        self.options = options
        self.units: dict[str, Unit] = {}
        self.by_box: dict[str, list[Unit]] = {box.id: [] for box in board}
        self.control: dict[str, Side | None] = {box.id: box.owner for box in board}
        self.cavalry_held: set[str] = set()
        self.serial: dict[str, int] = {}
        self.turn = 1
        self.first_turn = 1
        self.phasing = Side.UNION
        self.step = "start"
        # movement segment
        self.marches_left = 0
        self.marches_made = 0
        self.march_roll: int | None = None      # natural die of this half-turn's march roll
        self.march_origin: str | None = None
        self.march_ordered: list[str] = []
        self.march_moves: list[tuple[str, "Msg"]] = []  # (unit id, message) of the march in progress
        self.invasion_port: str | None = None
        self.unsupplied: list[str] = []  # stacks still to lose a unit this half-turn
        self.invaded_ports: set[str] = set()   # A-4 (a): Union-held ports captured by naval invasion
        self.contained: set[str] = set()       # boxes where Union units are contained
        self.containment_pending: list[str] = []  # A-4 (b): boxes awaiting the Confederate choice
        self.breakout = False                  # A-4 (d): the battle in progress is a break-out
        self.breakouts = 0                     # A-4 (d): break-outs fought this Movement segment
        self.intervention = False              # AO-8.4: foreign intervention has happened
        self.border_used: set[str] = set()     # AO-8.3: border states whose event succeeded
        self.border_pending: list[str] = []    # AO-8.3: border states still to roll this half-turn
        self.moved_from: dict[str, str] = {}  # AO-8.2.1: unit -> origin of its last move this half-turn
        # AO-8.2.1: unit -> (leaders in its box as it left on its last move, was that move a cavalry jump?)
        self.followers: dict[str, tuple[tuple[str, ...], bool]] = {}
        self.leaders = new_leaders()  # AO-8.2: never units
        # combat segment
        self.battles: list[str] = []
        self.battle: Battle | None = None
        # promotion / recruitment
        self.promotions_left = 0
        self.veteran_losses = 0  # O-4.3: Confederate veteran/crack infantry eliminated this game turn
        self.recruit_limit = 0
        self.recruits_placed = 0
        self.recruit_boxes: dict[str, int] = {}  # recruits placed per box this segment
        self.outcome: Outcome | None = None
        self.scenario_result: Outcome | None = None  # S-0 score when play continues past it
        self.reverted: list[tuple[str, Side]] = []  # 9.b reversions not yet logged
        # called at once after each 9.b reversion: the engine sets it while it applies an action (11.c)
        self.after_reversion: Callable[[], None] | None = None
        self._maxima: dict[Side, int] | None = None
        self.washington_penalty = 0  # permanent reduction of the Union maximum

    # ----------------------------------------------------------------- copying
    def copy(self) -> "State":
        new = State.__new__(State)
        new.__dict__.update(self.__dict__)
        new.reverted = []
        new.after_reversion = None
        new.units = {uid: u.clone() for uid, u in self.units.items()}
        # each box keeps its units in their order of arrival (not id order): the legal actions are
        # listed in this order, and after an undo they must come back exactly as before
        new.by_box = {box: [new.units[u.id] for u in units] for box, units in self.by_box.items()}
        new.control = dict(self.control)
        new.cavalry_held = set(self.cavalry_held)
        new.serial = dict(self.serial)
        new.unsupplied = list(self.unsupplied)
        new.moved_from = dict(self.moved_from)
        new.followers = dict(self.followers)
        new.border_used = set(self.border_used)
        new.invaded_ports = set(self.invaded_ports)
        new.contained = set(self.contained)
        new.containment_pending = list(self.containment_pending)
        new.border_pending = list(self.border_pending)
        new.leaders = {name: leader.clone() for name, leader in self.leaders.items()}
        new.march_ordered = list(self.march_ordered)
        new.march_moves = list(self.march_moves)
        new.battles = list(self.battles)
        new.battle = self.battle.copy() if self.battle else None
        new.recruit_boxes = dict(self.recruit_boxes)
        new._maxima = None
        return new

    # ----------------------------------------------------------------- units
    def new_unit(self, side: Side, unit_type: UnitType, location: str) -> Unit:
        """Create a counter with the next id of its side and type (``U-FV-01``)."""
        key = f"{side.letter}-{unit_type.code}"
        number = self.serial.get(key, 0) + 1
        self.serial[key] = number
        unit = Unit(f"{key}-{number:02d}", side, unit_type, location)
        self.units[unit.id] = unit
        if unit.on_map:
            self.by_box[location].append(unit)
        return unit

    def units_in(self, box: str, side: Side | None = None) -> list[Unit]:
        units = self.by_box[box]
        return list(units) if side is None else [u for u in units if u.side is side]

    def has_units(self, box: str, side: Side) -> bool:
        return any(u.side is side for u in self.by_box[box])

    def count_in(self, box: str, side: Side) -> int:
        return sum(1 for u in self.by_box[box] if u.side is side)

    def units_of(self, side: Side, location: str | None = None) -> list[Unit]:
        """A side's units: on the map (default) or at an off-map place (POOL, RESERVE, OUT)."""
        if location is None:
            return [u for u in self.units.values() if u.side is side and u.on_map]
        return [u for u in self.units.values() if u.side is side and u.location == location]

    def units_on_map(self, side: Side) -> int:
        """Units on the map counting against the army maximum (7.c; foreign units never count, AO-8.4)."""
        return sum(1 for u in self.units.values() if u.side is side and u.on_map and not u.is_foreign)

    def pool(self, side: Side, code: str | None = None) -> list[Unit]:
        return [u for u in self.units.values()
                if u.side is side and u.location == POOL and (code is None or u.type.code == code)]

    def place(self, unit: Unit, location: str) -> None:
        """Move a counter anywhere; leaving a box ends its entrenchment (4.2.5 c) and may end
        cavalry-held control there (9.b)."""
        old = unit.location
        if old == location:
            return
        if old[0] != "@":
            self.by_box[old].remove(unit)
            unit.entrenched = False
            unit.entrench_progress = 0
            self._revert_if_abandoned(old, unit.side)
        if location in OFF_MAP:
            unit.strength = "full"
            unit.entrenched = False
        else:
            self.by_box[location].append(unit)
        unit.location = location

    def remove_unit(self, unit: Unit) -> None:
        """Take a counter out of the game's records altogether (A-5 coastal defences after their battle)."""
        if unit.on_map:
            self.by_box[unit.location].remove(unit)
            self._revert_if_abandoned(unit.location, unit.side)  # 9.b (a coastal defence never held a box)
        del self.units[unit.id]

    def is_entrenched(self, unit: Unit) -> bool:
        """Explicitly entrenched, or in a fort its side controls (4.2.5 d)."""
        if unit.entrenched:
            return True
        box = self.board.boxes[unit.location]
        return box.fort and self.control[unit.location] is unit.side

    # ----------------------------------------------------------------- control
    def controller(self, box: str) -> Side | None:
        return self.control[box]

    def set_control(self, box: str, side: Side | None, *, cavalry_held: bool = False) -> bool:
        """Set a box's controller; returns True if control changed. A port the Union loses (9.a or a
        9.b reversion) is no longer one it captured by naval invasion (A-4 a)."""
        changed = self.control[box] is not side
        self.control[box] = side
        if side is not Side.UNION:
            self.invaded_ports.discard(box)
        if cavalry_held:
            self.cavalry_held.add(box)
        else:
            self.cavalry_held.discard(box)
        if changed:
            self._maxima = None
        return changed

    def _revert_if_abandoned(self, box: str, side: Side) -> None:
        """9.b: a cavalry-held box reverts to its printed owner when the holder's last unit leaves. A
        coastal defence (A-5) is not a unit (0.5): it never keeps a box held."""
        if box in self.cavalry_held and self.control[box] is side and \
                not any(u.side is side and not u.is_coastal for u in self.by_box[box]):
            self.set_control(box, self.board.boxes[box].owner)
            self.reverted.append((box, side))
            if self.after_reversion is not None:
                self.after_reversion()

    def army_max(self, side: Side) -> int:
        """7.c: the sum of own-colour values of the recruiting cities the side controls."""
        if self._maxima is None:
            maxima = {Side.UNION: 0, Side.CONFEDERATE: 0}
            for box in self.board:
                owner = self.control[box.id]
                if owner is not None:
                    maxima[owner] += box.value_for(owner)
            maxima[Side.UNION] -= self.washington_penalty
            self._maxima = maxima
        return self._maxima[side]

    def invalidate_maxima(self) -> None:
        self._maxima = None

    def controls_all(self, side: Side, boxes: Iterable[str]) -> bool:
        return all(self.control[b] is side for b in boxes)

    def victory_cities_held(self) -> int:
        return sum(1 for b in VICTORY_CITIES if self.control[b] is Side.UNION)

    # ----------------------------------------------------------------- checks
    def militia_mix(self) -> dict[Side, dict[str, int]]:
        """1.3.a: the militia counters in this game (+1 Confederate MF per AO-8.3 success)."""
        mix = {side: dict(counts) for side, counts in MILITIA_MIX.items()}
        mix[Side.CONFEDERATE]["MF"] += len(self.border_used)
        return mix

    def counter_mix_ok(self) -> list[str]:
        """Invariant: every militia counter of the mix exists exactly once (1.3.a); every unit
        is in exactly one place and the box index agrees. Returns the problems found."""
        problems = []
        for side, mix in self.militia_mix().items():
            for code, count in mix.items():
                have = sum(1 for u in self.units.values() if u.side is side and u.type.code == code)
                if have != count:
                    problems.append(f"{side} has {have} {code} counters, the mix has {count}")
        indexed = [u.id for units in self.by_box.values() for u in units]
        if len(indexed) != len(set(indexed)):
            problems.append("a unit is indexed in two boxes")
        on_map = {u.id for u in self.units.values() if u.on_map}
        if set(indexed) != on_map:
            problems.append("box index and unit locations disagree")
        for box, units in self.by_box.items():
            for u in units:
                if u.location != box:
                    problems.append(f"{u.id} indexed in {box} but located at {u.location}")
        for u in self.units.values():
            if not u.on_map and u.location not in (POOL, RESERVE, OUT, EUROPE, ASIDE):
                problems.append(f"{u.id} at unknown place {u.location}")
            if u.type.code not in UNIT_TYPES and not (u.is_coastal and self.battle is not None):
                problems.append(f"{u.id} has unknown type")
        return problems
