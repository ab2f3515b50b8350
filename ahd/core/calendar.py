"""The turn calendar T-2 (3.c)."""
from __future__ import annotations

from dataclasses import dataclass

from .i18n import Msg, N_, _, get_language

LAST_TURN = 40
DRAFT_TURNS = (8, 18, 28)  # rule 8: April 1862, 1863, 1864

_MONTHS = ("Jul", "Aug", "Sep", "Oct", "Nov–Dec", "Jan–Feb", "Mar", "Apr", "May", "Jun")
_LONG = {"Jul": N_("July"), "Aug": N_("August"), "Sep": N_("September"), "Oct": N_("October"),
         "Nov–Dec": N_("November–December"), "Jan–Feb": N_("January–February"), "Mar": N_("March"),
         "Apr": N_("April"), "May": N_("May"), "Jun": N_("June")}


@dataclass(frozen=True, slots=True)
class Turn:
    """A game turn: its number (1–40), months and year."""

    number: int
    months: str
    year: int

    @classmethod
    def of(cls, number: int) -> "Turn":
        if not 1 <= number <= LAST_TURN:
            raise ValueError(f"turn {number} is outside 1–{LAST_TURN} (3.c)")
        index = (number - 1) % 10
        months = _MONTHS[index]
        year = 1861 + (number - 1) // 10 + (1 if index >= 5 else 0)
        return cls(number, months, year)

    @property
    def long_months(self) -> str:
        """The months in English ("November–December"); in a language: ``month_names(lang)``."""
        return _LONG[self.months]

    def month_names(self, lang: str | None = None) -> str:
        """The months in ``lang`` (default: the current language)."""
        return _(_LONG[self.months], lang)

    def as_msg(self) -> Msg:
        """"Turn 1 (July 1861)" as a message, the months said in the message's language."""
        return Msg("Turn {number} ({months} {year})", number=self.number, months=_Months(self.months), year=self.year)

    def __msg__(self, lang: str) -> str:
        return self.as_msg().render(lang)

    def __str__(self) -> str:
        return self.__msg__(get_language())


class _Months:
    """A turn's months as a message parameter."""

    __slots__ = ("months",)

    def __init__(self, months: str) -> None:
        self.months = months

    def __msg__(self, lang: str) -> str:
        return _(_LONG[self.months], lang)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Months) and other.months == self.months

    def __hash__(self) -> int:
        return hash(self.months)


def turn_of_date(year: int, month: int) -> int:
    """The game turn (T-2) whose months hold ``month`` (1–12) of ``year``: July 1861 is turn 1,
    November and December share a turn, as do January and February; June 1865 is turn 40."""
    if not 1 <= month <= 12:
        raise ValueError(f"month {month} is outside 1–12")
    if month >= 7:
        number = (year - 1861) * 10 + (1, 2, 3, 4, 5, 5)[month - 7]
    else:
        number = (year - 1862) * 10 + (6, 6, 7, 8, 9, 10)[month - 1]
    if not 1 <= number <= LAST_TURN:
        raise ValueError(f"{year}-{month:02d} is outside the game's calendar, July 1861 – June 1865 (3.c)")
    return number
