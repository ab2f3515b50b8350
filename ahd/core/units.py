"""Unit types (T-1), the counter mix (1.3.a) and the unit counters themselves."""
from __future__ import annotations

from dataclasses import dataclass

from .i18n import Msg, N_, Term, get_language
from .sides import Side

INFANTRY, CAVALRY = "infantry", "cavalry"
COASTAL = "coastal"  # a coastal defence's arm and quality (not a unit, not in T-1)
MILITIA, VETERAN, CRACK = "militia", "veteran", "crack"
FULL, REDUCED = "full", "reduced"

#: Where an off-map counter is: the owner's pool, the Union draft reserve, or out of the game.
POOL, RESERVE, OUT = "@pool", "@reserve", "@out"
#: AO-8.4: the off-map Europe box, and foreign units set aside after elimination.
EUROPE, ASIDE = "@europe", "@aside"
OFF_MAP = (POOL, RESERVE, OUT, EUROPE, ASIDE)
FOREIGN_PREFIX = "X-"


@dataclass(frozen=True, slots=True)
class UnitType:
    """A row of T-1."""

    code: str
    name: str
    arm: str
    quality: str
    value: int

    @property
    def is_cavalry(self) -> bool:
        return self.arm == CAVALRY

    @property
    def is_infantry(self) -> bool:
        return self.arm == INFANTRY

    @property
    def is_militia(self) -> bool:
        return self.quality == MILITIA

    @property
    def is_crack_infantry(self) -> bool:
        """Crack infantry is the only type with the fired-at modifier (5.2.2)."""
        return self.quality == CRACK and self.arm == INFANTRY

    @property
    def promoted(self) -> "UnitType | None":
        """The next quality of the same arm (6.c); None for crack."""
        ladder = {MILITIA: VETERAN, VETERAN: CRACK}
        nxt = ladder.get(self.quality)
        return None if nxt is None else type_of(self.arm, nxt)


UNIT_TYPES: dict[str, UnitType] = {t.code: t for t in (
    UnitType("MF", "militia infantry", INFANTRY, MILITIA, 2),
    UnitType("FV", "veteran infantry", INFANTRY, VETERAN, 3),
    UnitType("FS", "crack infantry", INFANTRY, CRACK, 3),
    UnitType("MC", "militia cavalry", CAVALRY, MILITIA, 1),
    UnitType("CV", "veteran cavalry", CAVALRY, VETERAN, 2),
    UnitType("CS", "crack cavalry", CAVALRY, CRACK, 3),
)}
COASTAL_CODE = "CD"


def coastal_type(value: int) -> UnitType:
    """A-5: a coastal defence of the port's ``red_value``; it fires and takes hits like a unit."""
    return UnitType(COASTAL_CODE, "coastal defence", COASTAL, COASTAL, value)


#: Aliases found in the scenario texts ("CM" in the 1864 setup = MC).
TYPE_ALIASES = {"CM": "MC"}


def type_of(arm: str, quality: str) -> UnitType:
    for unit_type in UNIT_TYPES.values():
        if unit_type.arm == arm and unit_type.quality == quality:
            return unit_type
    raise KeyError((arm, quality))


def parse_type(code: str) -> UnitType:
    code = TYPE_ALIASES.get(code.upper(), code.upper())
    try:
        return UNIT_TYPES[code]
    except KeyError:
        raise ValueError(f"unknown unit type {code!r}: expected one of {', '.join(UNIT_TYPES)}") from None


#: Militia counters in the game (1.3.a): the only finite part of the counter mix.
MILITIA_MIX: dict[Side, dict[str, int]] = {
    Side.UNION: {"MF": 24, "MC": 1},
    Side.CONFEDERATE: {"MF": 8, "MC": 1},
}


class Unit:
    """One counter. Mutable, owned by a game State; ``location`` is a box id or an OFF_MAP place."""

    __slots__ = ("id", "side", "type", "strength", "location", "entrenched", "entrench_progress",
                 "marches", "stopped", "jumped", "naval", "entered_from", "crossing",
                 "retreated", "fought", "start_box", "routed")

    def __init__(self, unit_id: str, side: Side, unit_type: UnitType, location: str) -> None:
        self.id = unit_id
        self.side = side
        self.type = unit_type
        self.strength = FULL
        self.location = location
        self.entrenched = False        # 4.2.5: explicit entrenchment (forts are derived, see State)
        self.entrench_progress = 0     # 4.2.5 a: marches spent entrenching outside an RC this turn
        self.marches = 0               # 4.f: marches taken part in this turn
        self.stopped = False           # 4.g: ended a path in an enemy box
        self.jumped = False            # 4.2.1 a: a jump used this turn
        self.naval: str | bool = False  # moved by sea this turn: the rule, "4.2.3" or "4.2.4"
        self.entered_from: str | None = None  # 5.2.5 c: last box of its path ("@sea" for invasions)
        self.crossing = False          # 5.2.3: entered the box over a blue side or by invasion
        self.retreated = False         # 5.2.4 a: retreated this game turn
        self.fought = False            # 5.2.4 b: took part in a battle this game turn
        self.start_box: str | None = None  # where it began the half-turn (4.2.3, 4.2.4)
        self.routed = False            # AO-8.1: out of the fighting of its battle

    def clone(self) -> "Unit":
        new = Unit(self.id, self.side, self.type, self.location)
        new.strength = self.strength
        new.entrenched = self.entrenched
        new.entrench_progress = self.entrench_progress
        new.marches = self.marches
        new.stopped = self.stopped
        new.jumped = self.jumped
        new.naval = self.naval
        new.entered_from = self.entered_from
        new.crossing = self.crossing
        new.retreated = self.retreated
        new.fought = self.fought
        new.start_box = self.start_box
        new.routed = self.routed
        return new

    @property
    def on_map(self) -> bool:
        return self.location[0] != "@"

    @property
    def is_foreign(self) -> bool:
        """AO-8.4: a foreign unit (fights for the Confederacy; never counts for the maximum)."""
        return self.id.startswith(FOREIGN_PREFIX)

    @property
    def is_coastal(self) -> bool:
        """A-5 coastal defence (exists only during an invasion battle)."""
        return self.type.code == COASTAL_CODE

    @property
    def is_reduced(self) -> bool:
        return self.strength == REDUCED

    @property
    def label(self) -> str:
        """``"militia infantry U-MF-03"``: what logs and action texts show."""
        reduced = "reduced " if self.strength == REDUCED else ""
        return f"{reduced}{self.type.name} {self.id}"

    def __msg__(self, lang: str) -> str:
        """The label in ``lang`` (a message's ``{unit}``)."""
        kind = Term("unit", self.type.name)
        if self.strength == REDUCED:
            return Msg("reduced {kind} {id}", kind=kind, id=self.id).render(lang)
        return Msg("{kind} {id}", kind=kind, id=self.id).render(lang)

    def __repr__(self) -> str:
        return f"<Unit {self.id} {self.strength} at {self.location}>"


def unit_code(unit_id: str) -> str:
    """``"U-MF-03"`` -> ``"MF"``: unit ids carry side and type."""
    return unit_id.split("-")[1]


class UnitName:
    """A unit's name from its id alone, said in each language (a message's ``{unit}`` when only the id is
    known, as in an action): ``UnitName("U-MF-03")`` reads "militia infantry U-MF-03" in English,
    with the type name translated as ``Term("unit", ...)``; also "coastal defence ..." and
    "foreign ..." forms. An id that names no type reads as itself."""

    __slots__ = ("id",)

    def __init__(self, unit_id: str) -> None:
        self.id = unit_id

    def message(self) -> Msg | str:
        """The name as a message (the bare id when the id names no unit type)."""
        unit_id = self.id
        try:
            if unit_id.startswith(FOREIGN_PREFIX):
                return Msg("foreign {kind} {id}", kind=Term("unit", UNIT_TYPES[unit_code(unit_id)].name), id=unit_id)
            if unit_code(unit_id) == COASTAL_CODE:
                return Msg("{kind} {id}", kind=Term("unit", "coastal defence"), id=unit_id)
            return Msg("{kind} {id}", kind=Term("unit", UNIT_TYPES[unit_code(unit_id)].name), id=unit_id)
        except (IndexError, KeyError):
            return unit_id

    def __msg__(self, lang: str) -> str:
        message = self.message()
        return message if isinstance(message, str) else message.render(lang)

    def __str__(self) -> str:
        return self.__msg__(get_language())

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"UnitName({self.id!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UnitName):
            return self.id == other.id
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("UnitName", self.id))


def describe_unit_id(unit_id: str) -> str:
    """A readable name from an id alone: ``"U-MF-03"`` -> ``"militia infantry U-MF-03"`` (English; the
    name in any language: :class:`UnitName`)."""
    return UnitName(unit_id).__msg__("en")


def unit_name(unit: Unit) -> Msg:
    """The unit's label as it reads now ("reduced militia infantry U-MF-03"), as a message in any language.
    A log line or a refusal keeps this rather than the Unit: the unit itself may be reduced, recover or be
    promoted afterwards, and the line must still say what it was then."""
    kind = Term("unit", unit.type.name)
    if unit.strength == REDUCED:
        return Msg("reduced {kind} {id}", kind=kind, id=unit.id)
    return Msg("{kind} {id}", kind=kind, id=unit.id)
