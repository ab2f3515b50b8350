"""The Confederacy holding its cities in the short game (S-13; issue 34): the heuristic's values for it
become what the army maxima count.

The short game ends after turn 10 and the Union wins only with a maximum 5 or more above the
Confederacy's (13); the game starts at 34 against 29, so every point the Confederacy keeps or takes wins
it, and a city the Union takes from it moves the difference by the city's value to both sides (7.c).
The heuristic as it plays the campaign pulls the Confederate army toward Washington (worth 25, more than
every city together), so its cities fall to single Union raiders from turn 2 on (Memphis, Wilmington,
Louisville), and by turn 10 the Confederacy is 6-12 points behind.

``MaximaHeuristic`` plays the Confederacy by the maxima instead while ``active`` (the search bot sets it in
the short game only, ``search:maxima=on``): a box is worth ``MAXIMA_WEIGHT`` times what holding it moves the
difference of the maxima by (its value to both sides), Washington ``MAXIMA_WASHINGTON`` more (the war,
11.b(1), but seldom within reach), Richmond its 6 as before. The heuristic's garrisons then follow: a city
worth more asks for its garrison more (a unit leaving it costs 0.8 of its worth). The Union's
play, and the Confederacy's in every other scenario, are the heuristic's as before.

``union=True`` (``search:maxima_union=on``, hard's Union in the year scenarios scored on T-8) is the Union's
defensive half of the same idea: a box the Union holds is worth the larger of its campaign value and what
holding it moves the maxima by (Washington 25 more, as in the campaign, Richmond 6), so its garrisons stand in the cities
raiders take (Cincinnati, Louisville, St. Louis: 2 points of the difference each) while the boxes it attacks
keep their campaign values (the seven cities' 8 more). The weights were
chosen on the tuning seeds (``docs/bots/issue34_seeds.txt``); the figures are in
``docs/bots/levels_by_scenario.txt``.
"""
from __future__ import annotations

from ..core.sides import Side
from ..core.state import State
from .heuristic import CAPITAL, HeuristicBot

#: a box's worth to the Confederacy per point it moves the difference of the maxima (7.c)
MAXIMA_WEIGHT = 5.0
#: what Washington adds (the heuristic as it plays the campaign: 25)
MAXIMA_WASHINGTON = 5.0
#: what Washington adds for the Union (``union``; as in the campaign: its fall ends the war, 11.b(1))
UNION_WASHINGTON = 25.0
#: what Richmond adds (as in the campaign)
MAXIMA_RICHMOND = 6.0


class MaximaHeuristic(HeuristicBot):
    """The heuristic, with the Confederacy's values those of the maxima while ``active`` (and, with
    ``union``, the Union's for the boxes it holds, when larger)."""

    def __init__(self, *args, active: bool = False, union: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.active = active
        self.union = union

    def set_active(self, active: bool) -> None:
        """Play by the maxima (True: the short game) or as the heuristic (False); the cached field is
        dropped when it changes."""
        if active != self.active:
            self.active = active
            self._field_key = self._shared_key = None

    def fresh(self, rng) -> "MaximaHeuristic":
        """A new one playing as this one does (the search bot's continuations: a fresh cache each)."""
        return MaximaHeuristic(rng=rng, garrison=self.garrison, active=self.active, union=self.union)

    def _value(self, state: State, box: str, side: Side) -> float:
        if not self.active:
            return super()._value(state, box, side)
        b = state.board.boxes[box]
        if side is Side.UNION:
            if not self.union or state.control[box] is not side:
                return super()._value(state, box, side)
            value = MAXIMA_WEIGHT * (b.value_for(side) + b.value_for(side.enemy))
            if box == CAPITAL[side]:
                value += UNION_WASHINGTON
            if box == CAPITAL[side.enemy]:
                value += MAXIMA_RICHMOND
            return max(value, super()._value(state, box, side))
        value = MAXIMA_WEIGHT * (b.value_for(side) + b.value_for(side.enemy))
        if box == CAPITAL[side.enemy]:
            value += MAXIMA_WASHINGTON
        if box == CAPITAL[side]:
            value += MAXIMA_RICHMOND
        return value
