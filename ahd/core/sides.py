"""The two sides and the chance player."""
from __future__ import annotations

from enum import Enum


class Side(str, Enum):
    """A side of the war. Compares equal to its string value (``Side.UNION == "union"``)."""

    UNION = "union"
    CONFEDERATE = "confederate"

    @property
    def enemy(self) -> "Side":
        return Side.CONFEDERATE if self is Side.UNION else Side.UNION

    @property
    def letter(self) -> str:
        return "U" if self is Side.UNION else "C"

    @property
    def adjective(self) -> str:
        return "Union" if self is Side.UNION else "Confederate"

    def __msg__(self, lang: str) -> str:
        """The side's adjective in ``lang`` (a message's ``{side}``)."""
        from .i18n import translation
        return translation(lang).pgettext("side", self.adjective)

    @classmethod
    def parse(cls, value: "Side | str") -> "Side":
        """Accept a Side or the strings ``"union"`` / ``"confederate"`` (any case)."""
        if isinstance(value, Side):
            return value
        try:
            return cls(str(value).strip().lower())
        except ValueError:
            raise ValueError(f"unknown side {value!r}: expected 'union' or 'confederate'") from None

    def __str__(self) -> str:
        return self.value


#: ``Game.current_player`` while a die must be rolled (automatically or typed in).
CHANCE = "chance"
