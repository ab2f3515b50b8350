"""Publishing one scenario as its own app (widgets.authoring.publish, `house-divided publish SCENARIO.json --out DIR`).

A shipped scenario file is published into a new folder; voila is started in that folder as its README
says (`voila app.ipynb`, its voila.json: loopback, XSRF on, culling, a long iopub timeout); Debian's
chromium opens the app on that scenario and plays one march by clicks on the map. A malformed scenario
stops with the loader's own message and writes nothing at all.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest

import ahd
import serve
from widgets.authoring.publish import publish

ROOT = Path(__file__).resolve().parents[1]
SCENARIO = ROOT / "ahd" / "data" / "scenarios" / "1862.json"


@pytest.fixture
def published(tmp_path):
    source = tmp_path / "1862.json"
    shutil.copy(SCENARIO, source)
    out = publish(source, tmp_path / "app")
    return source, out


def test_the_published_folder_is_a_complete_app(published):
    source, out = published
    assert out == (source.parent / "app").resolve()
    names = {p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()}
    assert names == {"app.ipynb", "scenario.json", "voila.json", "requirements.txt", "environment.yml",
                     "README.md", "binder/requirements.txt", "binder/runtime.txt", "binder/postBuild",
                     "binder/jupyter_server_config.json"}
    assert (out / "scenario.json").read_text() == source.read_text()
    code = "".join(json.loads((out / "app.ipynb").read_text())["cells"][-1]["source"])
    assert 'widgets.play("scenario.json"' in code
    # voila's settings: loopback, the XSRF check left on, abandoned kernels culled, a long iopub timeout
    settings = json.loads((out / "voila.json").read_text())
    assert settings["Voila"]["ip"] == "127.0.0.1"
    assert settings["Voila"]["tornado_settings"].get("disable_check_xsrf") is False
    assert settings["MappingKernelManager"]["cull_idle_timeout"] <= 300
    assert settings["VoilaExecutor"]["iopub_timeout"] >= 30
    server = json.loads((out / "binder" / "jupyter_server_config.json").read_text())
    assert server["MappingKernelManager"] == settings["MappingKernelManager"]
    # house-divided[app] pinned at this version, for pip, conda and Binder
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for name in ("requirements.txt", "binder/requirements.txt", "environment.yml"):
        assert f"house-divided[app]=={version}" in (out / name).read_text(), name
    assert (out / "binder" / "postBuild").stat().st_mode & 0o111
    readme = (out / "README.md").read_text()
    for words in ("mybinder.org/v2/gh/", "JupyterHub", "c.Spawner.default_url", "voila app.ipynb",
                  "voila THIS_FOLDER", "not on PyPI yet", "git+https://"):
        assert words in readme, words


def test_a_scenario_given_as_a_dict_is_published(tmp_path):
    data = json.loads(SCENARIO.read_text())
    out = publish(data, tmp_path / "from-dict")
    assert json.loads((out / "scenario.json").read_text()) == data
    ahd.new_game(out / "scenario.json")  # the published copy loads


def test_a_malformed_scenario_stops_with_the_loaders_message_and_writes_nothing(tmp_path):
    data = json.loads(SCENARIO.read_text())
    data["units"][0]["box"] = "atlantis"
    cases = {"unknown-box.json": json.dumps(data), "truncated.json": SCENARIO.read_text()[:200]}
    for name, text in cases.items():
        bad = tmp_path / name
        bad.write_text(text)
        with pytest.raises(ahd.AhdError) as loader:
            ahd.load_scenario(bad)
        before = sorted(p.name for p in tmp_path.iterdir())
        with pytest.raises(ahd.AhdError) as raised:
            publish(bad, tmp_path / "out" / "app")
        assert str(raised.value) == str(loader.value)
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # not even the folder, no leftovers
    assert "atlantis" in str(raised.value) or "JSON" in str(raised.value)
    with pytest.raises(ahd.AhdError, match="atlantis"):
        publish(data, tmp_path / "app")
    assert not (tmp_path / "app").exists()


def test_publishing_into_a_folder_with_something_in_it_is_refused(tmp_path):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "notes.txt").write_text("mine")
    with pytest.raises(FileExistsError):
        publish(SCENARIO, tmp_path / "taken")
    assert [p.name for p in (tmp_path / "taken").iterdir()] == ["notes.txt"]
    (tmp_path / "empty").mkdir()
    assert publish(SCENARIO, tmp_path / "empty") == (tmp_path / "empty").resolve()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty", "taken"]


def _kernels_of(pid: int) -> list[int]:
    return serve.VoilaServer(type("P", (), {"pid": pid})(), 0, False).kernel_pids()


def test_the_published_app_plays_a_march_in_a_real_browser(published):
    playwright = pytest.importorskip("playwright.sync_api")
    from test_app_browser import box_on_screen, chromium  # the browser test's helpers

    _, out = published
    port = serve.free_port()
    # as the README says: voila started in the folder (so that it reads the folder's voila.json)
    process = subprocess.Popen([sys.executable, "-m", "voila", "app.ipynb", "--no-browser", f"--port={port}",
                                "--Voila.ip=127.0.0.1"], cwd=out, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True)
    url = f"http://127.0.0.1:{port}/"
    kernels = []
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"voila exited: {process.stderr.read()}"
            try:
                with urllib.request.urlopen(url + "voila/static/voila.js", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline, "voila did not answer within 60 s"
                time.sleep(0.2)
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=serve.CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1860, "height": 1750})
            # nothing outside the machine (voila's default template asks a CDN for Font Awesome: refused)
            page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)" % port), lambda r: r.abort())
            render_s = serve.open_app(page, url)
            page.get_by_text("1862: The war in earnest").first.wait_for(timeout=30_000)  # this scenario
            kernels = _kernels_of(process.pid)
            assert len(kernels) == 1
            # a march by clicks on the map: the Union at Gettysburg goes to Harrisburg
            page.mouse.click(*box_on_screen(page, "gettysburg"))
            page.locator(serve.SELECTION_SELECTOR).first.wait_for(
                state="attached", timeout=30_000)
            page.mouse.click(*box_on_screen(page, "harrisburg"))
            page.get_by_text("Gettysburg → Harrisburg", exact=False).first.wait_for(timeout=30_000)
            page.unroute_all()
            page.goto("about:blank")
            page.close()
            browser.close()
        print(f"\nFIGURES published app render={render_s:.2f}s")
    finally:
        serve.stop_process(process, timeout=15)
        deadline = time.monotonic() + 10
        while any(Path(f"/proc/{pid}").exists() for pid in kernels) and time.monotonic() < deadline:
            time.sleep(0.2)
    assert not [pid for pid in kernels if Path(f"/proc/{pid}").exists()], "voila left its kernel running"


def test_the_publish_command(tmp_path):
    """`house-divided publish SCENARIO.json --out DIR` (widgets.server.cli) prints the folder, or the loader's
    message with nothing written."""
    command = [sys.executable, "-m", "widgets.server.cli", "publish"]
    done = subprocess.run(command + [str(SCENARIO), "--out", str(tmp_path / "app")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert str((tmp_path / "app").resolve()) in done.stdout
    assert (tmp_path / "app" / "app.ipynb").is_file()
    bad = tmp_path / "bad.json"
    bad.write_text(SCENARIO.read_text().replace('"corinth"', '"atlantis"'))
    with pytest.raises(ahd.AhdError) as loader:
        ahd.load_scenario(bad)
    done = subprocess.run(command + [str(bad), "--out", str(tmp_path / "bad-app")], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode != 0
    assert str(loader.value) in done.stderr
    assert not (tmp_path / "bad-app").exists()


def _cells(out: Path, kind: str) -> list[str]:
    notebook = json.loads((out / "app.ipynb").read_text())
    return ["".join(c["source"]) for c in notebook["cells"] if c["cell_type"] == kind]


def test_a_scenarios_data_never_becomes_code_nor_html_in_the_published_app(tmp_path):
    """Security finding 2 (docs/security.md): an id with a newline became a line of Python in app.ipynb, and
    HTML in the title or description went raw into a markdown cell (a <script> reached the page)."""
    data = json.loads(SCENARIO.read_text())
    hostile = {**data, "id": "ok-id", "title": '<script>alert("title")</script><img src=x onerror=alert(1)>',
               "description": "<script>alert('description')</script> [click](javascript:alert(1)) & <b>"}
    plain = publish(data, tmp_path / "plain")
    out = publish(hostile, tmp_path / "hostile")
    assert _cells(out, "code") == _cells(plain, "code")  # the code reads scenario.json: no data in it
    assert "scenario.json" in _cells(out, "code")[0] and data["id"] not in _cells(plain, "code")[0]
    text = "\n".join(_cells(out, "markdown")) + (out / "README.md").read_text()
    for raw in ("<script", "<img", "<b>", "](javascript:"):
        assert raw not in text, raw
    assert "&lt;script&gt;alert" in _cells(out, "markdown")[0]  # shown as text, not run
    evil = "x)\nimport os; os.system('touch PWNED') # ("
    for case in ({**data, "id": evil}, {**data, "id": "a b"}, {**data, "id": "../up"}):
        with pytest.raises(ahd.AhdError, match=r"<scenario>: id: .*letters, digits"):
            publish(case, tmp_path / "evil")
        assert not (tmp_path / "evil").exists()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**data, "id": evil}))
    result = subprocess.run([sys.executable, "-m", "widgets.server.cli", "publish", str(bad), "--out", str(tmp_path / "o")],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 1 and "bad.json: id:" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "o").exists()
