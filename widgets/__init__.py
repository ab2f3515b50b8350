"""The Jupyter layer of A House Divided: an ipyleaflet map, ipywidgets controls and bqplot charts.

    import widgets
    widgets.play("1861", union="human", confederate="heuristic")
    widgets.play("1861", lang="es")     # in Spanish ("en", "es", "it"; the app's menu switches it later)

It observes the engine (:mod:`ahd`) and hands it actions; it never decides a rule itself.
The names below are imported on first use, so that ``widgets.server.cli`` (the ``house-divided`` command)
runs the engine's commands with the engine alone installed.
"""
from __future__ import annotations

import importlib
from typing import Any

_WHERE = {
    "GameApp": ".app", "play": ".app", "ReplayApp": ".board.replay", "Session": ".model.session",
    "box_summary": ".model.session", "BattleExplorer": ".board.explorer", "ProgressBar": ".board.progress",
    "editor": ".authoring.editor", "Editor": ".authoring.editor", "debrief_frame": ".teaching.debrief",
    "summary_frame": ".teaching.debrief",
}
__all__ = ["GameApp", "play", "ReplayApp", "Session", "box_summary", "BattleExplorer", "ProgressBar",
           "editor", "Editor", "debrief_frame", "summary_frame"]


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        value = getattr(importlib.import_module(_WHERE[name], __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
