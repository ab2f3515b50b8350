"""The Jupyter layer of A House Divided: an ipyleaflet map, ipywidgets controls and bqplot charts.

    import widgets
    widgets.play("1861", union="human", confederate="heuristic")

It observes the engine (:mod:`ahd`) and hands it actions; it never decides a rule itself.
"""
from .app import GameApp, play
from .explorer import BattleExplorer
from .progress import ProgressBar
from .replay import ReplayApp
from .session import Session, box_summary

__all__ = ["GameApp", "play", "ReplayApp", "Session", "box_summary", "BattleExplorer", "ProgressBar"]
