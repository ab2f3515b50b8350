"""The turn calendar T-2 (3.c)."""
from __future__ import annotations

from dataclasses import dataclass

LAST_TURN = 40
DRAFT_TURNS = (8, 18, 28)  # rule 8: April 1862, 1863, 1864

_MONTHS = ("Jul", "Aug", "Sep", "Oct", "Nov–Dec", "Jan–Feb", "Mar", "Apr", "May", "Jun")
_LONG = {"Jul": "July", "Aug": "August", "Sep": "September", "Oct": "October", "Nov–Dec": "November–December",
         "Jan–Feb": "January–February", "Mar": "March", "Apr": "April", "May": "May", "Jun": "June"}


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
        return _LONG[self.months]

    def __str__(self) -> str:
        return f"Turn {self.number} ({self.long_months} {self.year})"
