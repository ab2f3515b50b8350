"""A House Divided: a faithful rules engine for the board wargame of the American Civil War.

    >>> import ahd
    >>> game = ahd.new_game("1861", seed=1)
    >>> game.army_max("union"), game.army_max("confederate")
    (34, 29)

The engine needs only the standard library and numpy; it never imports Jupyter packages.
"""
from .core.actions import (Action, BeginMarch, CavalryRetreat, ChooseBattle, ChooseFirer, FireChosen, EndMarch, EndMovement, EndRecruitment,
                      Entrench, Evacuate, FireAuto, HoldGround, Invade, Move, NavalMove, NoPromotion, OpenFire, Promote,
                      Recruit, Reinforce, Retreat, Roll, Starve, Target, Volley, action_from_dict,
                      PlaceLeader, LeaderMove, LeaderFollow, LeaderReinforce, LeaderPoint, Contain, Assault,
                      BreakOut, Rally, NoRally)
from .core.board import Board, Box, default_board, load_board
from .core.calendar import Turn
from .core.errors import ActionFieldError, AhdError, DataFileError, IllegalActionError, RecordError
from .core.game import Game, load, new_game
from .core.options import Options
from .core.scenario import Scenario, load_scenario
from .core.sides import CHANCE, Side
from .core import rulebook
from .core.i18n import LANGUAGES, get_language, set_language
from .analysis.simulate import SimulationResults, simulate
from .analysis.war_odds import war_odds
from .core.state import Outcome

__all__ = [
    "Action", "BeginMarch", "CavalryRetreat", "ChooseBattle", "ChooseFirer", "FireChosen", "EndMarch", "EndMovement", "EndRecruitment",
    "Entrench", "Evacuate", "FireAuto", "HoldGround", "Invade", "Move", "NavalMove", "NoPromotion", "OpenFire", "Promote",
    "Recruit", "Reinforce", "Retreat", "Roll", "Starve", "Target", "Volley", "action_from_dict",
    "PlaceLeader", "LeaderMove", "LeaderFollow", "LeaderReinforce", "LeaderPoint", "Contain", "Assault", "BreakOut",
    "Rally", "NoRally",
    "Board", "Box", "default_board", "load_board", "Turn",
    "ActionFieldError", "AhdError", "DataFileError", "IllegalActionError", "RecordError",
    "Game", "load", "new_game", "simulate", "war_odds", "SimulationResults", "Options", "Scenario", "load_scenario", "CHANCE", "Side", "Outcome",
    "LANGUAGES", "get_language", "set_language",
]
__version__ = "0.1.0"
