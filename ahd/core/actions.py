"""Actions: small frozen values, one per kind of decision.

Each has an evaluable ``repr``, ``to_dict()`` / ``action_from_dict()``, and a ``str()`` a teacher
can read aloud, in the current language (``message()`` is that text as a lazy :class:`~ahd.core.i18n.Msg`,
``__msg__(lang)`` the text in a given language, so an action is itself a message parameter). Big decisions are decomposed (a march = begin, order each unit, end) so that
``Game.legal_actions()`` stays small.
"""
from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .action_fields import field_checks, field_problem, read_action
from .board import LINE_TERMS, default_board
from .errors import ActionFieldError
from .i18n import Joined, Msg, Term, get_language
from .units import UNIT_TYPES, UnitName, describe_unit_id  # noqa: F401  (describe_unit_id: re-exported)

_ARROW = " → "


def _name(box: str) -> str:
    return default_board().name(box)


def _box(box: str) -> Term:
    """A box's name as a message parameter (said in the language's usual form: "Nueva Orleans")."""
    return Term.box(_name(box))


#: Washington, named in the texts of invasions (4.2.4) and evacuations (O-3.1).
_WASHINGTON = Term.box("Washington")



def _path(boxes: tuple[str, ...]) -> Joined:
    """``Richmond → Petersburg``: the boxes of a path, each in the language's form."""
    return Joined((_box(box) for box in boxes), _ARROW)


def _lines(lines: tuple[str, ...]) -> Msg | Term | str:
    """``rail and road``: the kinds of line of a path, each once, in alphabetical (English) order."""
    names: list[Any] = [LINE_TERMS.get(kind, kind) for kind in sorted(set(lines))]
    if not names:
        return ""
    said = names[0]
    for name in names[1:]:
        # TRANSLATORS: two kinds of line a path takes ("rail and road"); {lines} may itself be such a pair
        said = Msg("{lines} and {line}", lines=said, line=name)
    return said




@dataclass(frozen=True, slots=True)
class Action:
    kind: ClassVar[str] = "action"

    def message(self) -> Msg:
        """What the action says (a button, a refusal), as a message to render in any language."""
        raise NotImplementedError(f"{type(self).__name__} has no message")

    def __msg__(self, lang: str) -> str:
        """The action's text in ``lang`` ("March from Richmond", "Marcha desde Richmond")."""
        return self.message().render(lang)

    def __str__(self) -> str:
        """The action's text in the current language."""
        return self.__msg__(get_language())

    def __post_init__(self) -> None:
        """Refuse a field of the wrong type (ActionFieldError naming the action and the field)."""
        for name, kind in field_checks(type(self)):
            value = getattr(self, name)
            if kind == "str":
                if isinstance(value, str):
                    continue
            problem = field_problem(kind, value)
            if problem:
                raise ActionFieldError(type(self).__name__, name, problem)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.kind}
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, tuple):
                value = [list(v) if isinstance(v, tuple) else v for v in value]
            data[f.name] = value
        return data


# --------------------------------------------------------------------------- chance
@dataclass(frozen=True, slots=True)
class Roll(Action):
    """A die result (0.3): drawn by the game's generator or typed in from a real die."""

    value: int
    kind: ClassVar[str] = "roll"

    def message(self) -> Msg:
        return Msg("Roll a {value}", value=self.value)


# --------------------------------------------------------------------------- supply
@dataclass(frozen=True, slots=True)
class Starve(Action):
    """A-2.3: the owner picks the unit an unsupplied stack loses (eliminated as in 5.d)."""

    unit: str
    kind: ClassVar[str] = "starve"

    def message(self) -> Msg:
        return Msg("Out of supply: lose {unit}", unit=UnitName(self.unit))


# --------------------------------------------------------------------------- movement
@dataclass(frozen=True, slots=True)
class BeginMarch(Action):
    """Start a march from one box (4.b)."""

    origin: str
    kind: ClassVar[str] = "begin_march"

    def message(self) -> Msg:
        return Msg("March from {box}", box=_box(self.origin))


@dataclass(frozen=True, slots=True)
class Move(Action):
    """Order one unit of the march along a path (boxes from the origin) by the given lines."""

    unit: str
    path: tuple[str, ...]
    lines: tuple[str, ...]
    kind: ClassVar[str] = "move"

    def message(self) -> Msg:
        # TRANSLATORS: {path} is the boxes of the path joined by arrows; {lines} the kinds of line taken
        return Msg("Move {unit}: {path} by {lines}", unit=UnitName(self.unit), path=_path(self.path),
                   lines=_lines(self.lines))


@dataclass(frozen=True, slots=True)
class Entrench(Action):
    """Order a unit of the march to entrench instead of moving (4.2.5)."""

    unit: str
    kind: ClassVar[str] = "entrench"

    def message(self) -> Msg:
        return Msg("Entrench {unit}", unit=UnitName(self.unit))


@dataclass(frozen=True, slots=True)
class EndMarch(Action):
    kind: ClassVar[str] = "end_march"

    def message(self) -> Msg:
        return Msg("End this march")


@dataclass(frozen=True, slots=True)
class NavalMove(Action):
    """Union naval move port to port (4.2.3); one march per unit."""

    unit: str
    to: str
    kind: ClassVar[str] = "naval_move"

    def message(self) -> Msg:
        return Msg("Naval move: {unit} by sea to {box}", unit=UnitName(self.unit), box=_box(self.to))


@dataclass(frozen=True, slots=True)
class Invade(Action):
    """Union naval invasion from Washington (4.2.4); one march per unit."""

    unit: str
    port: str
    kind: ClassVar[str] = "invade"

    def message(self) -> Msg:
        return Msg("Naval invasion: {unit} from {washington} to {port}", unit=UnitName(self.unit),
                   washington=_WASHINGTON, port=_box(self.port))


@dataclass(frozen=True, slots=True)
class EndMovement(Action):
    kind: ClassVar[str] = "end_movement"

    def message(self) -> Msg:
        return Msg("End movement (unused marches lapse)")


# --------------------------------------------------------------------------- leaders (AO-8.2)
def _leader(name: str) -> str:
    return name.capitalize()


@dataclass(frozen=True, slots=True)
class PlaceLeader(Action):
    """AO-8.2.0 / AO-8.2.2: place an arriving or returning leader in a box with friendly units."""

    leader: str
    box: str
    kind: ClassVar[str] = "place_leader"

    def message(self) -> Msg:
        return Msg("Place {leader} at {box}", leader=_leader(self.leader), box=_box(self.box))


@dataclass(frozen=True, slots=True)
class LeaderMove(Action):
    """AO-8.2.1 / C-3: a leader moves alone, as infantry, without allowance cost."""

    leader: str
    path: tuple[str, ...]
    lines: tuple[str, ...]
    kind: ClassVar[str] = "leader_move"

    def message(self) -> Msg:
        # TRANSLATORS: {path} is the boxes of the path joined by arrows; {lines} the kinds of line taken
        return Msg("{leader} rides alone: {path} by {lines}", leader=_leader(self.leader), path=_path(self.path),
                   lines=_lines(self.lines))


@dataclass(frozen=True, slots=True)
class LeaderFollow(Action):
    """AO-8.2.1: a leader goes with a unit that moved from his box (march, naval move, invasion)."""

    leader: str
    unit: str
    kind: ClassVar[str] = "leader_follow"

    def message(self) -> Msg:
        return Msg("{leader} goes with {unit}", leader=_leader(self.leader), unit=UnitName(self.unit))


@dataclass(frozen=True, slots=True)
class LeaderReinforce(Action):
    """AO-8.2.1: a leader joins the battle from an adjacent box (no reinforcement quota used)."""

    leader: str
    kind: ClassVar[str] = "leader_reinforce"

    def message(self) -> Msg:
        return Msg("{leader} joins the battle", leader=_leader(self.leader))


@dataclass(frozen=True, slots=True)
class LeaderPoint(Action):
    """AO-8.2.2: one point (+1) of a leader's value to one firing unit this moment."""

    leader: str
    unit: str
    kind: ClassVar[str] = "leader_point"

    def message(self) -> Msg:
        return Msg("{leader} gives +1 to {unit}", leader=_leader(self.leader), unit=UnitName(self.unit))


# --------------------------------------------------------------------------- containment
@dataclass(frozen=True, slots=True)
class Contain(Action):
    """A-4 (b): the Confederate contains the Union garrison of a box instead of fighting."""

    box: str
    kind: ClassVar[str] = "contain"

    def message(self) -> Msg:
        return Msg("Contain the Union garrison at {box} (no battle)", box=_box(self.box))


@dataclass(frozen=True, slots=True)
class Assault(Action):
    """A-4 (b): the Confederate fights the battle in a box it could contain."""

    box: str
    kind: ClassVar[str] = "assault"

    def message(self) -> Msg:
        return Msg("Attack the Union garrison at {box}", box=_box(self.box))


@dataclass(frozen=True, slots=True)
class BreakOut(Action):
    """A-4 (d): contained Union units attack at the start of the Union Movement segment (1 march)."""

    box: str
    kind: ClassVar[str] = "break_out"

    def message(self) -> Msg:
        return Msg("Break out of {box} (a battle; costs a march)", box=_box(self.box))


# --------------------------------------------------------------------------- combat
@dataclass(frozen=True, slots=True)
class ChooseBattle(Action):
    """The attacker picks the next battle to fight (5.a)."""

    box: str
    kind: ClassVar[str] = "choose_battle"

    def message(self) -> Msg:
        return Msg("Fight the battle at {box}", box=_box(self.box))


@dataclass(frozen=True, slots=True)
class CavalryRetreat(Action):
    """An all-cavalry defender withdraws before round 1 (5.2.6)."""

    to: str
    kind: ClassVar[str] = "cavalry_retreat"

    def message(self) -> Msg:
        return Msg("Cavalry withdraws to {box} before the battle", box=_box(self.to))


@dataclass(frozen=True, slots=True)
class HoldGround(Action):
    kind: ClassVar[str] = "hold_ground"

    def message(self) -> Msg:
        return Msg("Stand and fight")


@dataclass(frozen=True, slots=True)
class Retreat(Action):
    """Retreat all battle units to one adjacent box; the battle is lost (5.2.5)."""

    to: str
    kind: ClassVar[str] = "retreat"

    def message(self) -> Msg:
        return Msg("Retreat to {box}", box=_box(self.to))


@dataclass(frozen=True, slots=True)
class Evacuate(Action):
    """O-3.1: the Union retreats all its battle units by sea to Washington (a retreat: the battle is lost)."""

    kind: ClassVar[str] = "evacuate"

    def message(self) -> Msg:
        return Msg("Evacuate by sea to {washington}", washington=_WASHINGTON)


@dataclass(frozen=True, slots=True)
class Reinforce(Action):
    """Bring one unit from an adjacent box into the battle (5.2.4)."""

    unit: str
    kind: ClassVar[str] = "reinforce"

    def message(self) -> Msg:
        return Msg("Reinforce with {unit}", unit=UnitName(self.unit))


@dataclass(frozen=True, slots=True)
class OpenFire(Action):
    """Neither retreat nor (more) reinforcement: go on to choosing targets."""

    kind: ClassVar[str] = "open_fire"

    def message(self) -> Msg:
        return Msg("Open fire")


@dataclass(frozen=True, slots=True)
class ChooseFirer(Action):
    """A-7 (c): choose one unit to fire this moment (at most the day's command)."""

    unit: str
    kind: ClassVar[str] = "choose_firer"

    def message(self) -> Msg:
        return Msg("{unit} fires this round (A-7)", unit=UnitName(self.unit))


@dataclass(frozen=True, slots=True)
class FireChosen(Action):
    """A-7 (c): fire with the units chosen so far (fewer than the command allows)."""

    kind: ClassVar[str] = "fire_chosen"

    def message(self) -> Msg:
        return Msg("Fire with the chosen units only")


@dataclass(frozen=True, slots=True)
class Target(Action):
    """Declare one shooter's target (5.1.a)."""

    shooter: str
    target: str
    kind: ClassVar[str] = "target"

    def message(self) -> Msg:
        return Msg("{shooter} fires at {target}", shooter=UnitName(self.shooter), target=UnitName(self.target))


@dataclass(frozen=True, slots=True)
class FireAuto(Action):
    """Declare the remaining targets by the default spread (best shots at weakest targets, evenly)."""

    kind: ClassVar[str] = "fire_auto"

    def message(self) -> Msg:
        return Msg("Fire: spread evenly")


def _shot(shooter: str, target: str) -> Msg:
    # TRANSLATORS: one shot of a volley; {shooter} and {target} are unit ids (U-MF-03)
    return Msg("{shooter} at {target}", shooter=shooter, target=target)


@dataclass(frozen=True, slots=True)
class Volley(Action):
    """Declare every shooter's target at once: ((shooter, target), ...)."""

    targets: tuple[tuple[str, str], ...]
    kind: ClassVar[str] = "volley"

    def message(self) -> Msg:
        # TRANSLATORS: {targets} is a list of "shooter at target" separated by semicolons
        return Msg("Fire: {targets}", targets=Joined((_shot(*pair) for pair in self.targets), "; "))


@dataclass(frozen=True, slots=True)
class Rally(Action):
    """AO-8.11: after a day of fighting, return one routed unit to the fighting (still reduced)."""

    unit: str
    kind: ClassVar[str] = "rally"

    def message(self) -> Msg:
        return Msg("Rally {unit}", unit=UnitName(self.unit))


@dataclass(frozen=True, slots=True)
class NoRally(Action):
    kind: ClassVar[str] = "no_rally"

    def message(self) -> Msg:
        return Msg("No rally")


# --------------------------------------------------------------------------- promotion, recruitment
@dataclass(frozen=True, slots=True)
class Promote(Action):
    unit: str
    kind: ClassVar[str] = "promote"

    def message(self) -> Msg:
        return Msg("Promote {unit}", unit=UnitName(self.unit))


@dataclass(frozen=True, slots=True)
class NoPromotion(Action):
    kind: ClassVar[str] = "no_promotion"

    def message(self) -> Msg:
        return Msg("No promotion")


@dataclass(frozen=True, slots=True)
class Recruit(Action):
    """Place one pool militia counter (type ``MF`` or ``MC``) in a recruiting city (7.b)."""

    box: str
    unit_type: str
    kind: ClassVar[str] = "recruit"

    def message(self) -> Msg:
        unit_type = UNIT_TYPES.get(self.unit_type)
        return Msg("Recruit {kind} at {box}", kind=self.unit_type if unit_type is None else Term("unit", unit_type.name),
                   box=_box(self.box))


@dataclass(frozen=True, slots=True)
class EndRecruitment(Action):
    kind: ClassVar[str] = "end_recruitment"

    def message(self) -> Msg:
        return Msg("End recruitment")


ACTION_TYPES: dict[str, type[Action]] = {cls.kind: cls for cls in (
    Roll, Starve, BeginMarch, Move, Entrench, EndMarch, NavalMove, Invade, EndMovement,
    ChooseBattle, CavalryRetreat, HoldGround, Retreat, Evacuate, Reinforce, OpenFire, ChooseFirer, FireChosen,
    Target, FireAuto, Volley,
    Promote, NoPromotion, Recruit, EndRecruitment,
    PlaceLeader, LeaderMove, LeaderFollow, LeaderReinforce, LeaderPoint, Contain, Assault, BreakOut, Rally, NoRally,
)}


def action_from_dict(data: Any) -> Action:
    """Inverse of ``Action.to_dict``; raises ValueError (ActionDataError) on anything malformed."""
    return read_action(ACTION_TYPES, data)
