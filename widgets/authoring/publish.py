"""Publish one scenario as its own app: a folder anyone can serve with voila, Binder or JupyterHub.

    >>> from widgets.authoring.publish import publish
    >>> publish("my-scenario.json", "my-app")     # -> Path("my-app")

The folder holds the app notebook (opened on the scenario file next to it), the scenario file, voila's
settings (``voila.json``), the wheel of this house-divided (``wheels/``: it is not on PyPI) and
``requirements.txt`` pinning it by file, with every other package at the versions of the project's lock,
hashes included (``pip install -r requirements.txt`` checks them all, the wheel's too), ``environment.yml``,
a Binder / repo2docker configuration (``binder/``) and a README saying how to launch it. The app is served
with the app's own voila template (``ahd``, installed by the wheel: no CDN request, the loading page in the
publishing language), saves by download and opens by upload only (no file of the server), keeps voila's XSRF
check on (the template gives the page the ``_xsrf`` cookie voila never sets, so a closed page ends its kernel)
and culls abandoned kernels as the classroom does, never one whose page has not connected yet.
The files written are in English whatever the language (a published folder is shared); only the message
of a refused folder is said in the current language (:mod:`widgets.model.i18n`).
The scenario is validated by the engine's loader first: a bad scenario raises the loader's
:class:`ahd.AhdError` and nothing at all is written.
"""
from __future__ import annotations

import hashlib
import html
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

import ahd
from ahd.core.scenario import Scenario, scenario_from_dict

from widgets.authoring.wheel import project_wheel
from widgets.model.i18n import LANGUAGES, _, get_language, loading_texts

__all__ = ["publish"]

DISTRIBUTION = "house-divided"
SCENARIO_FILE = "scenario.json"
NOTEBOOK_FILE = "app.ipynb"
#: Seconds a kernel with no connected page may stay idle before it is shut down (a page closed without
#: its unload handler, a crashed tab), how often that is checked (as ``house-divided classroom``), how long a
#: kernel whose page has not connected yet is spared (widgets/server/kernels.py), and voila's wait for a
#: kernel's output while the page is rendered (its 4 s default leaves pages blank on a busy server).
CULL_IDLE_TIMEOUT = 50
CULL_INTERVAL = 10
UNCONNECTED_GRACE = 120
IOPUB_TIMEOUT = 60
#: The project's lock of the app's packages (a checkout's): their pins, with hashes, go into requirements.txt.
LOCK = Path(__file__).resolve().parents[2] / "requirements" / "app.txt"
WHEELS = "wheels"


def voila_settings() -> dict[str, Any]:
    """voila's settings for ``voila app.ipynb`` run in the folder. The XSRF check stays on (the default);
    kernels of pages that never said goodbye are freed by culling, never before their page could connect."""
    return {
        "Voila": {"ip": "127.0.0.1", "tornado_settings": {"disable_check_xsrf": False}},
        "VoilaConfiguration": {"template": "ahd", "show_tracebacks": False, "strip_sources": True,
                               "resources": {"ahd": loading_texts()},
                               "multi_kernel_manager_class": "widgets.server.kernels.AhdKernelManager"},
        "VoilaExecutor": {"iopub_timeout": IOPUB_TIMEOUT},
        "MappingKernelManager": {"cull_idle_timeout": CULL_IDLE_TIMEOUT, "cull_interval": CULL_INTERVAL,
                                 "cull_connected": False, "cull_busy": False},
        "AhdKernelManager": {"unconnected_grace": UNCONNECTED_GRACE},
    }


def server_settings() -> dict[str, Any]:
    """The same settings for a Jupyter server with voila as its extension (Binder, JupyterHub): voila then
    reads only its page settings from voila.json; the executor and kernel manager follow the server's config
    (the server's own kernel manager: voila's kernel manager class applies only to ``voila`` itself)."""
    settings = voila_settings()
    return {key: settings[key] for key in ("VoilaConfiguration", "VoilaExecutor", "MappingKernelManager")}


def publish(scenario: "str | os.PathLike[str] | Mapping[str, Any]", out: "str | os.PathLike[str]") -> Path:
    """Write a complete, playable app for ``scenario`` (a scenario file's path, or its JSON as a dict)
    into the folder ``out``, which must not exist or be empty; returns the folder.

    Raises :class:`ahd.AhdError` (the loader's message) for a bad scenario and :class:`FileExistsError`
    for an ``out`` that is a file or a folder with something in it; either way nothing is written."""
    out = Path(out)
    if out.exists() and (not out.is_dir() or any(out.iterdir())):
        raise FileExistsError(_("{folder} already exists and is not an empty folder: publish into a new folder")
                              .format(folder=out))
    loaded, text = _load(scenario)
    ahd.new_game(loaded, seed=1)  # the scenario sets up a game, not only parses

    version = _version()
    wheel = project_wheel()
    wheel_bytes = wheel.read_bytes()
    requirements = _requirements(wheel.name, hashlib.sha256(wheel_bytes).hexdigest())
    lang = get_language() if get_language() in LANGUAGES else "en"
    files: dict[str, str | bytes] = {
        SCENARIO_FILE: text,
        NOTEBOOK_FILE: _notebook(loaded, lang),
        "voila.json": _json(voila_settings()),
        f"{WHEELS}/{wheel.name}": wheel_bytes,
        "requirements.txt": requirements,
        "environment.yml": _environment_yml(loaded),
        "binder/requirements.txt": requirements,
        "binder/runtime.txt": "python-3.11\n",
        "binder/postBuild": _post_build(),
        "binder/jupyter_server_config.json": _json(server_settings()),
        "README.md": _readme(loaded, version, wheel.name),
    }
    # written into a hidden sibling folder, then renamed into place: no half-written app on any error
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}.publishing-", dir=out.parent))
    try:
        for name, content in files.items():
            path = staging / name
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
        (staging / "binder" / "postBuild").chmod(0o755)
        staging.chmod(0o755)
        if out.is_dir():
            out.rmdir()  # empty (checked above)
        staging.rename(out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return out.resolve()


def _load(scenario: "str | os.PathLike[str] | Mapping[str, Any]") -> tuple[Scenario, str]:
    """The validated scenario and the text of its file."""
    if isinstance(scenario, Mapping):
        data = dict(scenario)
        return scenario_from_dict(data, "<scenario>"), json.dumps(data, indent=1, ensure_ascii=False) + "\n"
    loaded = ahd.load_scenario(scenario)  # a path (or a shipped scenario's id); raises ahd.AhdError
    source = Path(str(loaded.source))
    if source.is_file():  # a scenario file: copied as it is
        return loaded, source.read_text(encoding="utf-8")
    return loaded, json.dumps(loaded.data, indent=1, ensure_ascii=False) + "\n"  # a shipped scenario


def _version() -> str:
    try:
        return metadata.version(DISTRIBUTION)
    except metadata.PackageNotFoundError:  # run from a checkout that is not installed
        return ahd.__version__


def _json(data: Any) -> str:
    return json.dumps(data, indent=2) + "\n"


def _requirements(wheel: str, sha256: str) -> str:
    """house-divided[app] from the wheel in this folder, every other package at the lock's versions, all hashed:
    pip then checks every file it installs (hash-checking mode, which also refuses anything unpinned)."""
    lines = ["# A House Divided, with what its app needs: pip install -r requirements.txt (run in this folder;",
             "# Binder runs it from here too). house-divided is not on PyPI: its wheel is in wheels/, pinned by",
             "# file and hash; every other package is pinned at the versions house-divided was tested with.",
             f"./{WHEELS}/{wheel}[app] --hash=sha256:{sha256}", ""]
    if LOCK.is_file():  # without its header (how the project made it)
        lock = LOCK.read_text(encoding="utf-8").splitlines()
        while lock and lock[0].startswith("#"):
            lock.pop(0)
        lines += lock
    return "\n".join(lines).rstrip("\n") + "\n"


def _environment_yml(scenario: Scenario) -> str:
    name = "".join(c if c.isalnum() or c in "-_" else "-" for c in f"house-divided-{scenario.id}")
    return (f"# conda / mamba: conda env create -f environment.yml (then: conda activate {name})\n"
            f"name: {name}\n"
            f"channels:\n  - conda-forge\n"
            f"dependencies:\n  - python=3.11\n  - pip\n  - pip:\n"
            f"      - -r requirements.txt  # the wheel in wheels/ and the tested versions, hashes checked\n")


def _post_build() -> str:
    return ("#!/bin/bash\n"
            "# repo2docker / Binder: give the Jupyter server voila's settings for this app (iopub timeout,\n"
            "# culling of abandoned kernels, no tracebacks); voila runs there as a server extension.\n"
            "set -euo pipefail\n"
            "config_d=\"$(python -c 'import sys; print(sys.prefix)')/etc/jupyter/jupyter_server_config.d\"\n"
            "mkdir -p \"$config_d\"\n"
            "cp binder/jupyter_server_config.json \"$config_d/house-divided-app.json\"\n")


#: The app's code cell: always the same text. Nothing of the scenario is ever formatted into code (the
#: notebook reads scenario.json, as data); an id with a newline once became a line of Python here.
CODE = ("import os\n\n"
        "# games are saved by download and opened by upload: no file of the server is shown (a published app's\n"
        "# visitors would all share that folder)\n"
        "os.environ[\"AHD_CLASSROOM\"] = \"1\"\n"
        "import widgets\n\n"
        "# the scenario file next to this notebook\n"
        f"app = widgets.play(\"{SCENARIO_FILE}\", union=\"human\", confederate=\"heuristic\", lang=\"{{lang}}\")\n"
        "app")
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]()#+!|~-])")


def text_for_markdown(text: str) -> str:
    """A scenario's title or description as plain text in a markdown cell (or README.md): HTML escaped (no
    tag of the file reaches the page) and markdown's punctuation backslash-escaped (no link, no image)."""
    return html.escape(_MARKDOWN_SPECIAL.sub(r"\\\1", text), quote=True)


def _notebook(scenario: Scenario, lang: str) -> str:
    def cell(kind: str, source: str) -> dict:
        lines = source.splitlines(keepends=True)
        if kind == "markdown":
            return {"cell_type": "markdown", "metadata": {}, "source": lines}
        return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": lines}

    title, description = text_for_markdown(scenario.title), text_for_markdown(scenario.description)
    intro = f"# {title}\n\n{description}\n\n" if scenario.description else f"# {title}\n\n"
    intro += ("Play by clicking on the map: click one of your boxes to march from it, then a lit box to go "
              "there. Hover over a lit box holding enemy units to see the odds of that attack. The charts "
              "below the map show the battle odds, the chance that the Union wins the war, and both sides' "
              "army maxima.")
    code = CODE.replace("{lang}", lang if lang in LANGUAGES else "en")  # one of a fixed few: never data
    notebook = {
        "cells": [cell("markdown", intro), cell("code", code)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    for i, c in enumerate(notebook["cells"]):
        c["id"] = f"ahd-{i}"
    return json.dumps(notebook, indent=1, ensure_ascii=False) + "\n"


def _readme(scenario: Scenario, version: str, wheel: str) -> str:
    return f"""# {text_for_markdown(scenario.title)}

{text_for_markdown(scenario.description)}

A scenario of **A House Divided** (the board wargame of the American Civil War, 1861–1865), published
as its own app with `house-divided publish`: open it and play by clicking on the map, against the
computer (the Union is yours; change `union=` / `confederate=` in `{NOTEBOOK_FILE}` to `"human"`,
`"heuristic"`, `"random"` or `"search"`). Games are saved by download ("Save to my computer") and opened
again by upload: the app shows no file of the server.

| file | what |
| --- | --- |
| `{NOTEBOOK_FILE}` | the app, opened on `{SCENARIO_FILE}` |
| `{SCENARIO_FILE}` | the scenario (format: docs/scenario-format.md of house-divided) |
| `{WHEELS}/{wheel}` | house-divided {version} itself (it is not on PyPI) |
| `requirements.txt` | what to install: the wheel above, pinned by file and hash, and every other package at the versions house-divided {version} was tested with, with their hashes |
| `voila.json` | voila's settings when started in this folder: loopback only, the app's own page template (`ahd`: nothing asked of another site), XSRF check on, kernels of closed pages shut down after {CULL_IDLE_TIMEOUT} s idle (never one whose page has not connected yet), a {IOPUB_TIMEOUT} s output timeout for busy servers, no tracebacks |
| `environment.yml` | the same for conda (it installs `requirements.txt` with pip) |
| `binder/` | the Binder / repo2docker configuration (Python 3.11, the same requirements, and a `postBuild` that gives the server the settings of `voila.json`) |

## On your computer: `voila`

```bash
cd THIS_FOLDER
python3 -m venv .venv && .venv/bin/pip install -r requirements.txt    # or: conda env create -f environment.yml
.venv/bin/voila {NOTEBOOK_FILE}        # then open http://127.0.0.1:8866/
```

Run pip in this folder: `requirements.txt` names the wheel by its path from here. pip checks every file
against its hash. Once installed, the app needs no internet: no page asks anything of another site.
`voila THIS_FOLDER` also works (a page that lists `{NOTEBOOK_FILE}`; click it), but voila reads
`voila.json` only from the folder it is started in, so start it here to get these settings. voila
serves on 127.0.0.1 only (`voila.json`); to let others on your network play, start it with
`--Voila.ip=0.0.0.0` and put it behind a proxy with authentication, or use JupyterHub, or house-divided's
own classroom server (`house-divided classroom`).

## On Binder

Put this folder (the wheel included) in a public git repository (on GitHub, say `OWNER/REPO`), and open:

    https://mybinder.org/v2/gh/OWNER/REPO/HEAD?urlpath=voila%2Frender%2F{NOTEBOOK_FILE}

Binder (repo2docker) builds an image from `binder/`: Python 3.11 (`runtime.txt`), `requirements.txt` (run
from the repository's top, where `{WHEELS}/` is), then `postBuild`, which writes the settings of `voila.json`
into the server's configuration. Each visitor gets their own server and kernel; Binder shuts it down when
they leave. To check the image before publishing: `pip install jupyter-repo2docker && repo2docker .`.

## On JupyterHub

Install `requirements.txt` into the environment the single-user servers run in, copy this folder to where
users' servers can read it (e.g. a shared `/srv/house-divided/THIS_FOLDER`), and point the users' default
URL at voila rendering the notebook, in `jupyterhub_config.py`:

```python
c.Spawner.notebook_dir = "/srv/house-divided/THIS_FOLDER"
c.Spawner.default_url = "/voila/render/{NOTEBOOK_FILE}"
c.Spawner.args = ["--VoilaConfiguration.template=ahd",
                  "--VoilaExecutor.iopub_timeout={IOPUB_TIMEOUT}",
                  "--MappingKernelManager.cull_idle_timeout={CULL_IDLE_TIMEOUT}",
                  "--MappingKernelManager.cull_interval={CULL_INTERVAL}"]
```

house-divided's `deploy/jupyterhub_config.py` is a complete, tested configuration (authenticator,
spawner, the app as each user's start page) and its `docs/publishing.md` covers a class on one server,
JupyterHub and Kubernetes.
"""
