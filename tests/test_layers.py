"""The package's layers: each imports only from the layers below it, and no module takes part in a cycle.

The contracts are in pyproject.toml (``[tool.importlinter]``); a cycle is refused here whatever its
layer, lazy imports inside functions included ("a lazy import to dodge a cycle is a cycle all the same").
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import tomllib

import grimp

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contracts_hold():
    result = subprocess.run([str(Path(sys.executable).parent / "lint-imports"), "--config", str(ROOT / "pyproject.toml")],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    assert len(contracts) >= 4  # the engine's layers, the app's layers, widgets over ahd, no Jupyter in ahd
    assert f"Contracts: {len(contracts)} kept, 0 broken." in result.stdout, result.stdout


def test_the_apps_layers_are_the_folders_of_widgets():
    """Every module of ``widgets`` but the package and ``app.py`` sits in one of the contract's layer folders,
    so a new module cannot slip in beside them unlayered."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    [app_layers] = [c["layers"] for c in contracts if c.get("containers") == ["widgets"]]
    layers = {name.strip() for line in app_layers for name in line.replace(":", "|").split("|")}
    loose = sorted(str(path.relative_to(ROOT)) for path in (ROOT / "widgets").rglob("*.py")
                   if path.relative_to(ROOT / "widgets").parts[0].removesuffix(".py") not in layers | {"__init__"})
    assert loose == []


def _cycles(graph) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    counter = 0
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.find_modules_directly_imported_by(child)))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycle_in_the_engine_or_the_widgets():
    graph = grimp.build_graph("ahd", "widgets", exclude_type_checking_imports=True)
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_a_cycle():
    """The check above can fail: a graph with a planted cycle is reported."""
    graph = grimp.ImportGraph()
    for name in ("a", "a.x", "a.y", "a.z"):
        graph.add_module(name)
    graph.add_import(importer="a.x", imported="a.y")
    graph.add_import(importer="a.y", imported="a.z")
    graph.add_import(importer="a.z", imported="a.x")
    assert _cycles(graph) == [["a.x", "a.y", "a.z"]]


def test_import_ahd_loads_no_process_pool():
    """The engine can later run where there are no processes (Pyodide): no multiprocessing at import."""
    code = ("import sys, ahd, ahd.odds, ahd.bots; bad = sorted(m for m in sys.modules if m.startswith('multiprocessing')"
            " or m == 'concurrent.futures.process'); print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
