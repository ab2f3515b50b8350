"""The project's scripts (``scripts/NAME.py``: development tools, not package code), loaded as modules for the
tests that check them."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

SCRIPTS = Path(__file__).resolve().parents[1] / "scripts"


def load_script(name: str) -> ModuleType:
    """``scripts/{name}.py`` run afresh as a module (registered in ``sys.modules`` under ``name`` if it is not
    there yet, so that what it defines pickles by name)."""
    spec = importlib.util.spec_from_file_location(name, SCRIPTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module
