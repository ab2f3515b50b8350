"""What a click on a box stands for at each decision, legal or not: the action a board asks the engine about
when a box is clicked where nothing is lit, so that the refusal is the engine's own (with its rule).

The decisions played by a march (the Movement segment) or in a panel are not here: a click on a box there is
a march's origin or destination (:mod:`ahd.core.decisions` says which decision is which).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from .actions import Action, BeginMarch, CavalryRetreat, ChooseBattle, Promote, Recruit, Retreat

if TYPE_CHECKING:
    from .game import Game


def _promote(game: "Game", box: str, side) -> Action | None:
    own = game.units_in(box, side)
    return Promote(own[0].id) if own else None


#: Each decision played on a box, with the action a click on ``box`` stands for there.
BOX_ACTIONS: dict[str, Callable[["Game", str], "Action | None"]] = {
    "movement": lambda game, box: BeginMarch(box),
    "choose_battle": lambda game, box: ChooseBattle(box),
    "cavalry_retreat": lambda game, box: CavalryRetreat(box),
    "battle_options": lambda game, box: Retreat(box),
    "recruitment": lambda game, box: Recruit(box, "MF"),
    "promotion": lambda game, box: _promote(game, box, game.state.phasing),
    "battle_promotion": lambda game, box: _promote(game, box, game.current_player),
}


def box_action(game: "Game", box: str) -> Action | None:
    """The action a click on ``box`` stands for at the pending decision (to ask ``Game.why_not``), or None
    when a click on a box means nothing there (a promotion with no unit of the promoting side in ``box``)."""
    probe = BOX_ACTIONS.get(game.state.step)
    return probe(game, box) if probe is not None else None
