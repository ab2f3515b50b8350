"""Packaging: one dependency list, the engine's purity, the README's two commands, CI."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _name(requirement: str) -> str:
    return re.split(r"[<>=!~\[ ;]", requirement.strip(), maxsplit=1)[0].lower()


def test_environment_yml_lists_the_same_dependencies_as_pyproject():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {_name(r) for r in project["dependencies"]}
    for extra in project["optional-dependencies"].values():
        wanted |= {_name(r) for r in extra}
    wanted.discard(project["name"])  # an extra made of other extras ("house-divided[app,lab,test]")
    listed = set()
    section = None
    for line in (ROOT / "environment.yml").read_text().splitlines():
        if line and not line[0].isspace():
            section = line.split(":")[0]
        item = line.strip()
        if section == "dependencies" and item.startswith("- ") and not item.endswith(":"):
            name = _name(item[2:])
            if name not in ("python", "pip", "-e"):
                listed.add(name)
    assert listed == wanted


def test_engine_imports_no_jupyter_package():
    code = ("import sys, ahd, ahd.bots, ahd.cli, ahd.analysis.bench; "
            "bad = [m for m in ('ipywidgets', 'ipyleaflet', 'bqplot', 'IPython', 'voila', 'traitlets', "
            "'ipykernel', 'jupyter_client') if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_engine_uses_no_global_random_generator():
    for path in (ROOT / "ahd").rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"^\s*import random\b|^\s*from random import", text, re.M), path
        assert not re.search(r"np\.random\.(seed|rand|randint|choice|random)\(", text), path


def test_readme_gives_the_two_commands_and_ci_runs_the_test_one():
    readme = (ROOT / "README.md").read_text()
    assert "./run.sh app" in readme
    assert "./run.sh test" in readme
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^exec \./run\.sh test\s*$", ci, re.M)


def test_board_provenance_ships_with_the_board():
    data = ROOT / "ahd" / "data"
    assert (data / "board.json").is_file()
    assert "TripleA" in (data / "board-provenance.md").read_text()


def test_every_data_file_of_the_packages_is_declared_package_data():
    """A file the product reads at run time (board, scenarios, map outlines, the voila template) must
    ship in a wheel, not only work from a checkout."""
    import fnmatch
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    for package, patterns in declared.items():
        for path in (ROOT / package).rglob("*"):
            if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts:
                relative = path.relative_to(ROOT / package).as_posix()
                assert any(fnmatch.fnmatch(relative, p) for p in patterns), f"{package}/{relative} is not package data"
    assert (ROOT / "widgets" / "jupyter" / "voila" / "templates" / "ahd" / "conf.json").is_file()
