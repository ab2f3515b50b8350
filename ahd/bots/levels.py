"""The difficulty levels of the classroom: each a fixed bot and budget per side, as frozen settings.

A level names the ``make_bot`` settings it plays with as the Union and as the Confederacy, and where a
side plays the games decided by the army maxima (the short game, S-13; a year scenario scored on T-8,
S-0, not played on) its own way, those too. Why each level plays as it does, with the measures that
chose the settings, is in ``docs/bots/levels.md``; the figures per scenario in
``docs/bots/levels_by_scenario.txt``.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType


@dataclass(frozen=True)
class Level:
    """One level: the ``make_bot`` settings of each side (``union``, ``confederate``), and those of the
    games decided by the army maxima where a side plays them otherwise (None: as in the others)."""

    name: str
    union: str
    confederate: str
    union_scored: str | None = None
    confederate_scored: str | None = None
    #: the short game's (S-13) own settings, where a side plays it otherwise than the year scenarios scored
    #: on T-8 (None: as ``union_scored`` / ``confederate_scored``)
    union_short: str | None = None

    @property
    def sided(self) -> bool:
        """Whether each side plays its own way (else one bot plays both, as ``easy`` does)."""
        return (self.union != self.confederate or self.union_scored is not None
                or self.confederate_scored is not None or self.union_short is not None)


#: normal's Union, hard's Confederacy in the campaign games: the campaign plan, shared garrisons, no lookahead
PLAN = "search:garrison=shared,lookahead=off"
#: hard's Union (docs/bots/levels.md lists what each setting does and the games that chose it; ``final_union``:
#: its half of a year scenario's scored turn grabs what moves the maxima, and ``maxima_years``+``maxima_union``:
#: in those scenarios its garrisons hold its cities by what they move the maxima by; both chosen on tuning
#: seeds 972000+)
HARD_UNION = ("search:garrison=shared,guard=on,objective=weakest,lookahead=off,campaign_idle=6,"
              "grab=on,grab_fight=on,push=on,endgame=30,sally=on,finish=on,retake=on,clear=on,capital=year,"
              "final_union=on,maxima_years=on,maxima_union=on")
#: hard's Confederacy in the games decided by the army maxima: the search bot as the round robin measures
#: it, marching where the maxima move most in the half-turn that ends the game (``final``, issue 34), and
#: in the short game and the year scenarios scored on T-8 valuing its cities by the maxima (``maxima``,
#: ``maxima_years``: ahd.bots.short_game; chosen on tuning seeds 972000+, docs/bots/levels_by_scenario.txt)
HARD_SCORED = "search:iterations=2,final=on,maxima=on,maxima_years=on"
#: hard's Union in the short game: the search bot as the round robin measures it (its raids and garrisons
#: keep the Union's maximum 5 ahead more often than the campaign plan, which gathers for storms that turn 10
#: seldom leaves time for; issue 34, docs/bots/levels_by_scenario.txt)
HARD_UNION_SHORT = "search:iterations=2"

LEVELS: "MappingProxyType[str, Level]" = MappingProxyType({
    "easy": Level("easy", "heuristic:garrison=shared", "heuristic:garrison=shared"),
    "normal": Level("normal", PLAN, "heuristic"),
    "hard": Level("hard", HARD_UNION, PLAN, confederate_scored=HARD_SCORED, union_short=HARD_UNION_SHORT),
})
