"""The wheel: `pip install "house-divided[app]"` into a fresh virtual environment gives a working app.

Builds a wheel of this checkout (a copy of it, so that the build leaves nothing in the tree), installs
it with the ``app`` extra into a new venv (the locked versions of requirements/app.txt, hashes checked,
from PyPI; pip's cache makes it quick), and checks that the
installed package holds the app notebook and the voila template but no tests, that the app extra
brings neither test tools nor JupyterLab, that ``import ahd, widgets`` works there, and that its
``house-divided app`` serves the rendered app over HTTP on 127.0.0.1 (at the URL it prints, token
included). About a minute with a warm pip cache.
"""
from __future__ import annotations

import http.cookiejar
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.parse
import urllib.request
from pathlib import Path

import pytest

from serve import free_port

ROOT = Path(__file__).resolve().parents[1]
IGNORE = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", "*.pyc",
                                ".pytest_cache", "node_modules", "artifacts", ".ipynb_checkpoints")


def _run(command: list[str], timeout: float, **kwargs) -> subprocess.CompletedProcess:
    result = subprocess.run(command, capture_output=True, text=True, timeout=timeout, **kwargs)
    assert result.returncode == 0, f"{' '.join(map(str, command))} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """(venv folder, its python, the wheel) with house-divided[app] installed from the wheel."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "src"
    shutil.copytree(ROOT, source, ignore=IGNORE, symlinks=True)
    dist = tmp / "dist"
    started = time.monotonic()
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-input", "-w", str(dist), str(source)], 240)
    wheels = list(dist.glob("house_divided-*.whl"))
    assert len(wheels) == 1, wheels
    built = time.monotonic()
    venv = tmp / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], 120)
    python = venv / "bin" / "python"
    pip = [str(python), "-m", "pip", "install", "--no-input", "--disable-pip-version-check"]
    # --no-compile: the packages' .pyc are written at their first import instead (13 s here against 25 s)
    _run(pip + ["--require-hashes", "--no-deps", "--no-compile", "-r", str(ROOT / "requirements" / "app.txt")], 420)
    _run(pip + ["--no-deps", str(wheels[0])], 120)
    _run([str(python), "-m", "pip", "check"], 60)  # the lock holds every requirement of house-divided[app]
    print(f"\nFIGURES wheel build={built - started:.0f}s venv+install={time.monotonic() - built:.0f}s")
    return venv, python, wheels[0]


def test_the_wheel_holds_the_app_notebook_and_template_and_no_tests(installed):
    venv, python, wheel = installed
    record = next(venv.glob("lib/python*/site-packages/house_divided-*.dist-info/RECORD")).read_text()
    files = {line.split(",")[0] for line in record.splitlines()}
    for wanted in ("widgets/apps/app.ipynb", "widgets/apps/voila.json", "widgets/authoring/publish.py", "widgets/board/cardlayer.js",
                   "widgets/jupyter/voila/templates/ahd/conf.json", "widgets/jupyter/voila/templates/ahd/page.html",
                   "ahd/data/board.json", "ahd/data/scenarios/1861.json"):
        assert wanted in files, wanted
    assert any(f.endswith(".dist-info/licenses/LICENSE") for f in files)
    assert not [f for f in files if f.startswith(("tests/", "notebooks/")) or re.search(r"(^|/)test_[^/]*\.py$", f)]
    # the app extra is the app alone: no test tools, no JupyterLab
    listed = _run([str(python), "-m", "pip", "list", "--format=freeze"], 60).stdout.lower()
    names = {line.split("==")[0] for line in listed.split()}
    assert {"voila", "ipywidgets", "ipyleaflet", "bqplot", "numpy"} <= names
    assert not names & {"pytest", "playwright", "jupyterlab", "nbval", "import-linter", "jupyterhub"}, names
    out = _run([str(python), "-c", "import ahd, widgets.server.paths as s; print(ahd.__file__); "
                "print(s.NOTEBOOKS / 'app.ipynb')"], 120, cwd=venv).stdout.split()
    assert all(str(venv) in line for line in out), out  # the installed copy, not this checkout
    assert Path(out[1]).is_file()


def test_house_divided_app_from_the_wheel_serves_the_app(installed, tmp_path):
    venv, python, _ = installed
    port = free_port()
    script = venv / "bin" / "house-divided"
    help_text = subprocess.run([str(script), "app", "--help"], capture_output=True, text=True, timeout=60)
    assert help_text.returncode == 0, help_text.stderr
    command = [str(script), "app", "--port", str(port)]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUPYTER_PATH", "VIRTUAL_ENV")}
    env.update(HOME=str(tmp_path), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}")
    process = subprocess.Popen(command, cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, start_new_session=True)
    output: list[str] = []
    try:
        url = None
        deadline = time.monotonic() + 90
        while url is None:
            line = process.stdout.readline()
            assert line or process.poll() is None, "the app exited:\n" + "".join(output)
            assert time.monotonic() < deadline, "no URL printed within 90 s:\n" + "".join(output)
            output.append(line)
            found = re.search(r"http://127\.0\.0\.1:%d/\S*" % port, line)
            url = found.group(0) if found and not found.group(0).endswith("...") else None  # voila's own line hides it
        # the printed URL (its token becomes a cookie), then, if that is a "starting your game" page, the page
        # it sends the browser to; voila runs the notebook for the app's page
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with opener.open(url, timeout=120) as response:
            html = response.read().decode()
        assert response.status == 200
        forward = re.search(r"location\.replace\([\"']([^\"']+)|<a href=\"([^\"]+)\"", html)
        if "application/vnd.jupyter.widget-view+json" not in html and forward:
            with opener.open(urllib.parse.urljoin(url, forward.group(1) or forward.group(2)), timeout=120) as response:
                html = response.read().decode()
            assert response.status == 200
        assert "application/vnd.jupyter.widget-view+json" in html, html[-2000:]  # the app's widgets
        assert "Traceback" not in html and "ename" not in html  # no error output in the page
        print(f"\nFIGURES wheel app: {' '.join(command[1:3])} served {len(html)} bytes at {url.split('?')[0]}")
    finally:
        os.killpg(process.pid, 15)  # the server and whatever it started (its kernels)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, 9)
            process.wait()
        process.stdout.close()
        deadline = time.monotonic() + 15
        while _processes_of(venv) and time.monotonic() < deadline:
            time.sleep(0.3)
    assert _processes_of(venv) == [], "the app left processes running"


def _processes_of(venv: Path) -> list[str]:
    """Command lines of the processes running from ``venv`` (the server, its kernels)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if str(venv) in cmdline:
                found.append(f"{entry.name}: {cmdline}")
    return found


def test_the_extras_are_the_ones_documented():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    assert {"app", "lab", "test", "dev"} <= set(extras)
    app = " ".join(extras["app"]).lower()
    assert all(name in app for name in ("voila", "ipywidgets", "ipyleaflet", "bqplot"))
    assert not any(name in app for name in ("pytest", "playwright", "jupyterlab"))
    assert any("jupyterlab" in r for r in extras["lab"])
    assert any("jupyterhub" in r for r in extras["test"])


def test_the_wheel_a_kernel_builds_for_publishing_goes_with_the_kernel(tmp_path):
    """widgets.authoring.wheel.project_wheel builds (or packs) the wheel once per process in a temporary folder; the
    folder is removed when the process ends (it was left in the machine's temporary folder, 1 MB each time)."""
    script = ("import widgets.authoring.wheel as w\n"
              "w._build = w._repack = lambda folder: (folder / 'x.whl').write_bytes(b'x') and folder / 'x.whl'\n"
              "print(w.project_wheel())")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=ROOT,
                          env={**os.environ, "TMPDIR": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    built = Path(done.stdout.strip())
    assert built.parent.parent == tmp_path and built.name == "x.whl"  # it was made there
    assert not built.parent.exists()  # and is gone with the process
