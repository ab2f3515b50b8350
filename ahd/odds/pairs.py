"""Which measured player pair the war odds are for (issue 34, item 3).

The live war odds are the chance that the Union wins *if the two sides play on as the selected players
do*. The logistic model of the position (``ahd/data/war_odds.json`` "models") was fitted on hard v hard
games; each shipped pair has, per built-in scenario, its own logit offset and its own prior (its
smoothed measured result), fitted on its own games by ``scripts/war_odds_calibration.py fit``, and its
own held-out reliability table (``docs/bots/war_odds_calibration.txt``).

Shipped pairs (Union-Confederacy): every combination of the computer levels ``normal`` and ``hard``,
and ``normal`` against ``easy`` on either seat. Every player is first modelled by the nearest level,
seat by seat (``STAND_IN``); a pair of levels that is not shipped then counts ``easy`` as ``normal``:

- a person (``human``) is modelled as ``normal``: the project has no games of people, and ``normal``
  is the middle level (a choice, not a measurement: a person may play much better or much worse);
- ``heuristic`` as ``easy`` (easy is the heuristic with shared garrisons), ``random`` as ``easy`` (no
  game of it is measured; it is far weaker: its odds lean less than they should);
- ``search`` as ``hard`` (hard's Confederacy is the search bot in the games decided by the army maxima);
- ``easy`` against ``easy`` or ``hard`` (not shipped): ``easy`` as ``normal``.
"""
from __future__ import annotations

#: the player pairs with their own fit and held-out table, "union-confederacy"
SHIPPED = ("hard-hard", "normal-normal", "normal-hard", "hard-normal", "normal-easy", "easy-normal")
#: the pairs whose fit stands in, in this order, where a pair has none in a scenario (``ahd.odds.war.fitted_pair``)
FALLBACK = ("hard-hard", "normal-normal")
#: the pair of a call that names no players (the odds as they were before pairs: hard v hard)
DEFAULT_PAIR = "hard-hard"
#: which shipped level models each player of the app's menus (``widgets.model.computer.PLAYERS``)
STAND_IN = {"human": "normal", "easy": "easy", "normal": "normal", "heuristic": "easy", "random": "easy",
            "hard": "hard", "search": "hard"}


def model_player(name: str | None) -> str:
    """The shipped level that models player ``name`` (``None``: hard, as before pairs); bot settings after
    a colon are ignored (``search:iterations=2`` is ``search``)."""
    if name is None:
        return "hard"
    base = str(name).split(":", 1)[0].strip().lower()
    if base not in STAND_IN:
        raise ValueError(f"unknown player {name!r}: war odds know {', '.join(STAND_IN)}")
    return STAND_IN[base]


def pair_of(union: str | None = None, confederate: str | None = None) -> str:
    """The shipped pair ("union-confederacy") whose fit gives the odds for these players."""
    levels = (model_player(union), model_player(confederate))
    pair = "-".join(levels)
    if pair not in SHIPPED:  # easy is measured only against normal
        pair = "-".join("normal" if level == "easy" else level for level in levels)
    assert pair in SHIPPED, pair
    return pair
