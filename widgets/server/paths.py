"""Where the served app lives (package data: found in a checkout and in an installed wheel)."""
from __future__ import annotations

from pathlib import Path

#: The app notebook and its voila.json (package data: found in a checkout and in an installed wheel).
APPS = Path(__file__).resolve().parents[1] / "apps"
#: The tutorials, scenarios and analyses of a checkout (``--tree``; its app.ipynb is a link to the one in
#: APPS). An installed wheel holds only the app, so there NOTEBOOKS is APPS.
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
if not (NOTEBOOKS / "app.ipynb").is_file():
    NOTEBOOKS = APPS
#: A Jupyter data folder holding the ``ahd`` voila template: voila's lab template without the Font
#: Awesome stylesheets it asks a CDN for, so that the pages make no request outside the machine.
JUPYTER_DATA = Path(__file__).resolve().parents[1] / "jupyter"
TEMPLATE = "ahd"
