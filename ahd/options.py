"""Rule switches (0.2): a frozen set of enabled rule IDs, validated against a registry.

Basic rules are always on. Each switchable rule is registered here with its default; later
modules (optional, advanced) add their switches to ``SWITCHES``. Rules compose by reading
``rule_id in options``, never by subclassing.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping


@dataclass(frozen=True, slots=True)
class Switch:
    rule: str
    title: str
    text: str
    default: bool = False


SWITCHES: dict[str, Switch] = {s.rule: s for s in (
    Switch("H-1", "Reinforcements never entrenched",
           "A unit joining a battle as a reinforcement is not entrenched in it, even in its own fort.", True),
    Switch("H-2", "A 6 always misses",
           "A natural 6 misses whatever the modifiers.", True),
    Switch("S-12", "Inexperienced Union player",
           "Confederate victory by Washington or by army maxima is checked only after Union half-turns."),
)}

#: Named option sets. More presets arrive with the optional rules.
PRESETS: dict[str, tuple[str, ...]] = {
    "basic": tuple(rule for rule, s in SWITCHES.items() if s.default),
    "novice-union": tuple(rule for rule, s in SWITCHES.items() if s.default) + ("S-12",),
}


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
