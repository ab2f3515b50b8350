"""A House Divided: a faithful rules engine for the board wargame of the American Civil War.

    >>> import ahd
    >>> game = ahd.new_game("1861", seed=1)
    >>> game.army_max("union"), game.army_max("confederate")
    (34, 29)

The engine needs only the standard library and numpy; it never imports Jupyter packages.
"""
from .actions import (Action, BeginMarch, CavalryRetreat, ChooseBattle, ChooseFirer, FireChosen, EndMarch, EndMovement, EndRecruitment,
                      Entrench, Evacuate, FireAuto, HoldGround, Invade, Move, NavalMove, NoPromotion, OpenFire, Promote,
                      Recruit, Reinforce, Retreat, Roll, Starve, Target, Volley, action_from_dict,
                      PlaceLeader, LeaderMove, LeaderFollow, LeaderReinforce, LeaderPoint, Contain, Assault,
                      BreakOut, Rally, NoRally)
from .board import Board, Box, default_board, load_board
from .calendar import Turn
from .errors import AhdError, DataFileError, IllegalActionError, RecordError
from .game import Game, load, new_game
from .options import Options
from .scenario import Scenario, load_scenario
from .sides import CHANCE, Side
from .simulate import SimulationResults, simulate
from .state import Outcome

__all__ = [
    "Action", "BeginMarch", "CavalryRetreat", "ChooseBattle", "ChooseFirer", "FireChosen", "EndMarch", "EndMovement", "EndRecruitment",
    "Entrench", "Evacuate", "FireAuto", "HoldGround", "Invade", "Move", "NavalMove", "NoPromotion", "OpenFire", "Promote",
    "Recruit", "Reinforce", "Retreat", "Roll", "Starve", "Target", "Volley", "action_from_dict",
    "PlaceLeader", "LeaderMove", "LeaderFollow", "LeaderReinforce", "LeaderPoint", "Contain", "Assault", "BreakOut",
    "Rally", "NoRally",
    "Board", "Box", "default_board", "load_board", "Turn",
    "AhdError", "DataFileError", "IllegalActionError", "RecordError",
    "Game", "load", "new_game", "simulate", "SimulationResults", "Options", "Scenario", "load_scenario", "CHANCE", "Side", "Outcome",
]
__version__ = "0.1.0"
