"""Issue 14, item 5: the notebooks read well in voila, which hides code cells, and show each widget once."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: Phrases that only make sense with the code visible (run a cell, change a variable).
CODE_ONLY = re.compile(r"run (the|this|these|a) (check|cell|three cells|cells)|then run|and run the cell|"
                       r"put (their|your) names in the set|swap the arguments|run the check", re.I)


def notebooks():
    return sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)


def markdown(path):
    return [("".join(c["source"])) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("path", notebooks(), ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_prose_does_not_ask_for_hidden_code(path):
    for text in markdown(path):
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if CODE_ONLY.search(sentence):
                assert "In Jupyter" in sentence or "in Jupyter" in sentence, (path.name, sentence)


@pytest.mark.parametrize("path", sorted(NOTEBOOKS.glob("**/tutorials/*.ipynb")),  # English, es/, it/
                         ids=lambda p: str(p.relative_to(NOTEBOOKS)))
def test_no_check_cell_is_left_to_run(path):
    cells = json.loads(path.read_text())["cells"]
    for cell in cells:
        source = "".join(cell["source"]).strip()
        if cell["cell_type"] == "code":
            assert not re.fullmatch(r"\w+\.check\(\)", source), (path.name, source)
            assert ".check(my_" not in source


def test_the_battle_odds_explorer_shows_each_widget_once():
    nbclient = pytest.importorskip("nbclient")
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("bqplot")
    nb = nbformat.read(NOTEBOOKS / "analyses" / "battle-odds-explorer.ipynb", as_version=4)
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(NOTEBOOKS / "analyses")}}).execute()
    shown = [output["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
             for cell in nb.cells if cell.cell_type == "code" for output in cell.get("outputs", [])
             if "application/vnd.jupyter.widget-view+json" in output.get("data", {})]
    assert len(shown) == 2 and len(set(shown)) == len(shown)
