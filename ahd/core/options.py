"""Rule switches (0.2): a frozen set of enabled rule IDs, validated against a registry.

Basic rules are always on. Each switchable rule is registered here with its default; later
modules (optional, advanced) add their switches to ``SWITCHES``. Rules compose by reading
``rule_id in options``, never by subclassing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping

from .i18n import N_, _


@dataclass(frozen=True, slots=True)
class Switch:
    """A rule switch: ``title`` and ``text`` are English, marked for the catalogs; ``title_in(lang)`` and
    ``text_in(lang)`` say them in a language (default: the current one)."""

    rule: str
    title: str
    text: str
    default: bool = False

    def title_in(self, lang: str | None = None) -> str:
        return _(self.title, lang)

    def text_in(self, lang: str | None = None) -> str:
        return _(self.text, lang)


SWITCHES: dict[str, Switch] = {s.rule: s for s in (
    Switch("H-1", N_("Reinforcements never entrenched"),
           N_("A unit joining a battle as a reinforcement is not entrenched in it, even in its own fort."), True),
    Switch("H-2", N_("A 6 always misses"),
           N_("A natural 6 misses whatever the modifiers."), True),
    Switch("H-3", N_("Retreating units fail desertion on 6"),
           N_("In the desertion test (AO-8.12) a unit of the losing side fails on a natural 6 whatever the "
              "modifiers."), True),
    Switch("H-4", N_("6 of 7"),
           N_("The Union wins with six of the seven Confederate cities, Richmond included.")),
    Switch("S-12", N_("Inexperienced Union player"),
           N_("Confederate victory by Washington or by army maxima is checked only after Union half-turns.")),
    Switch("O-2.1", N_("Crack infantry movement"),
           N_("Crack infantry moves like cavalry on roads and railroads (2 links, mixed), never jumping.")),
    Switch("O-2.2", N_("Battlefield targets"),
           N_("Cavalry must first fire at enemy cavalry; infantry fires at enemy cavalry only once every "
              "enemy infantry unit is targeted by infantry.")),
    Switch("O-3.1", N_("Naval evacuation"),
           N_("In a battle in a southern port the Union invaded or defends, the Union may retreat by sea to Washington.")),
    Switch("O-3.2", N_("Union rail bonus"),
           N_("A Union unit moving only on friendly rail may move 3 links.")),
    Switch("O-3.3", N_("Historical recruiting"),
           N_("The Union recruits at least 3, the Confederacy at most 4; two recruits may go to a city worth 3 or more.")),
    Switch("O-3.4", N_("Increased Union forces"),
           N_("The Union may keep 4 units above its army maximum per draft held (+4/+8/+12); never for victory.")),
    Switch("O-4.1", N_("First-turn restrictions"),
           N_("On turn 1 no unit enters Kentucky, river moves are 1 link, and the Union makes no naval moves.")),
    Switch("O-4.2", N_("Fort Monroe"),
           N_("While the Confederacy holds Fort Monroe the Union may not invade Yorktown or Norfolk.")),
    Switch("O-4.3", N_("Confederate replacement training"),
           N_("Each Confederate Promotion segment, d6 minus veteran/crack infantry lost this turn; 1 or less: two promotions.")),
    Switch("O-4.4", N_("1863 draft riots"),
           N_("The 1863 draft arrives as one militia infantry at the start of each of turns 18-21.")),
    # advanced rules (A-): each an independent switch
    Switch("A-2", N_("Supply"),
           N_("At the start of each half-turn every stack of two or more units out of supply (no rail/river line "
              "through friendly boxes to two own cities, or for the Union to a port) loses one unit of its owner's choice.")),
    Switch("A-3", N_("Command table marches"),
           N_("The march roll is read on the command table T-4 (year and side); a natural 6 still allows an invasion.")),
    Switch("A-4", N_("Containment"),
           N_("Confederates entering a Union port taken by invasion (or Fort Monroe, Pensacola) may contain its "
              "garrison instead of fighting; contained units leave by land only after a break-out battle.")),
    Switch("A-5", N_("Coastal defences"),
           N_("A Union invasion of a Confederate port worth V > 0 meets a coastal defence of value V, always "
              "entrenched, two hits to destroy; while it stands every Union shot must target it.")),
    Switch("A-6", N_("Capture of Washington"),
           N_("Washington no longer wins; its capture costs the Union maximum a die roll (1 counts as 2) in total.")),
    Switch("A-7", N_("Battle days and command"),
           N_("Battles run in days of four rounds; each day both sides roll their command on T-4 (plus half the "
              "previous day's, at most 8) and fire with at most that many units of their choice.")),
    Switch("AO-8.1", N_("Battlefield morale"),
           N_("A unit just reduced tests its morale (T-5); failing, it is routed: out of the fighting, and it "
              "counts as eliminated for the battle's result.")),
    Switch("AO-8.11", N_("Rally"),
           N_("After each day of a battle (rounds 4, 8, ...) each side may return one routed unit (AO-8.1) to the "
              "fighting, still reduced.")),
    Switch("AO-8.12", N_("Desertion"),
           N_("At a battle's end every reduced participant tests its morale (T-5), +1 on the losing side, −1 if not "
              "routed, minus its leaders' values; failing, it is eliminated.")),
    Switch("AO-8.2", N_("Leaders"),
           N_("Grant, Sherman and Lee (T-6) arrive, move alone or with units, add their value to shots and to "
              "A-7 command, and are removed when caught alone or with their army wiped out.")),
    Switch("AO-8.3", N_("Border-state support"),
           N_("At the start of each Confederate half-turn, a border state whose cities the Confederacy all holds may, "
              "on a modified die above its number, give one more militia infantry for good.")),
    Switch("AO-8.4", N_("Foreign intervention"),
           N_("Once the Confederacy is close enough and holds Washington and a big Union city, it gains naval moves "
              "and four foreign veteran infantry in Europe, which come by sea and are replaced on a recruitment 5-6.")),
)}

_BASIC = tuple(rule for rule, s in SWITCHES.items() if s.default)
#: The advanced rules implemented so far (A-2 … A-7 of the rules).
_ADVANCED = tuple(rule for rule in SWITCHES if rule.startswith("A-"))

#: Named option sets; the optional rules are grouped as the Italian rules group them
#: (2.x neutral, 3.x pro-Union, 4.x pro-Confederate).
PRESETS: dict[str, tuple[str, ...]] = {
    "basic": _BASIC,
    "novice-union": _BASIC + ("S-12",),
    "neutral": _BASIC + ("O-2.1", "O-2.2"),
    "pro-union": _BASIC + ("O-3.1", "O-3.2", "O-3.3", "O-3.4"),
    "pro-confederate": _BASIC + ("O-4.1", "O-4.2", "O-4.3", "O-4.4"),
    "advanced": _BASIC + _ADVANCED,
    "everything": tuple(rule for rule in SWITCHES if rule != "S-12"),
}
#: What each preset is (English, marked for the catalogs; ``preset_text(name, lang)`` says it in a language).
_PRESET_TEMPLATES = {
    "basic": N_("the basic game with the house rules H-1 to H-3 (the default)"),
    "novice-union": N_("basic + S-12, for an inexperienced Union player"),
    "neutral": N_("basic + the neutral optional rules O-2.1, O-2.2"),
    "pro-union": N_("basic + the optional rules favouring the Union, O-3.1 to O-3.4"),
    "pro-confederate": N_("basic + the optional rules favouring the Confederacy, O-4.1 to O-4.4"),
    "advanced": N_("basic + the advanced rules ({rules})"),
    "everything": N_("every house, optional, advanced and advanced optional rule (not the S-12 handicap)"),
}
PRESET_TEXT = {name: text.format(rules=", ".join(_ADVANCED)) for name, text in _PRESET_TEMPLATES.items()}


def preset_text(name: str, lang: str | None = None) -> str:
    """What a preset is (``PRESET_TEXT``), said in ``lang`` (default: the current language)."""
    return _(_PRESET_TEMPLATES[name], lang).format(rules=", ".join(_ADVANCED))


@dataclass(frozen=True, slots=True)
class Options:
    """The enabled switchable rules. ``"H-2" in options`` asks whether a rule is on."""

    enabled: frozenset[str]

    def __post_init__(self) -> None:
        unknown = sorted(set(self.enabled) - set(SWITCHES))
        if unknown:
            raise ValueError(f"unknown rule switch {', '.join(map(repr, unknown))}; "
                             f"known switches: {', '.join(SWITCHES)}")

    def __contains__(self, rule: object) -> bool:
        return rule in self.enabled

    @classmethod
    def default(cls) -> "Options":
        return cls.preset("basic")

    @classmethod
    def preset(cls, name: str) -> "Options":
        try:
            return cls(frozenset(PRESETS[name]))
        except KeyError:
            raise ValueError(f"unknown preset {name!r}; presets: {', '.join(PRESETS)}") from None

    @classmethod
    def parse(cls, value: "Options | str | Iterable[str] | Mapping[str, bool] | None") -> "Options":
        """Accept Options, None (default), a preset name, rule IDs to add to the defaults'
        complement-free set, or a mapping {rule: on/off} applied over the defaults."""
        if value is None:
            return cls.default()
        if isinstance(value, Options):
            return value
        if isinstance(value, str):
            return cls.preset(value)
        if isinstance(value, Mapping):
            enabled = set(cls.default().enabled)
            for rule, on in value.items():
                (enabled.add if on else enabled.discard)(rule)
            return cls(frozenset(enabled))
        return cls(frozenset(value))

    def with_rule(self, rule: str, on: bool = True) -> "Options":
        enabled = set(self.enabled)
        (enabled.add if on else enabled.discard)(rule)
        return Options(frozenset(enabled))

    def to_list(self) -> list[str]:
        return sorted(self.enabled)

    def __repr__(self) -> str:
        return f"Options(frozenset({self.to_list()!r}))"
