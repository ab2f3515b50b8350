"""Publishing one scenario as its own app (widgets.authoring.publish, `house-divided publish SCENARIO.json --out DIR`).

A shipped scenario file is published into a new folder, which carries the project's wheel; the folder alone
is installed into a fresh venv as its README says (`pip install -r requirements.txt` in the folder: the wheel
pinned by file, every package hash-checked), voila *of that venv* is started in the folder (`voila
app.ipynb`, its voila.json: the app's template, loopback, XSRF on, culling, a long iopub timeout); Debian's
chromium opens the app on that scenario with every request outside the server refused, finds no server file
control, plays one march by clicks on the map, and leaves: the page's unload (its _xsrf made by the template)
ends the kernel at once. A malformed scenario stops with the loader's own message and writes nothing at all.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
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
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    wheel = f"wheels/house_divided-{version}-py3-none-any.whl"
    assert names == {"app.ipynb", "scenario.json", "voila.json", "requirements.txt", "environment.yml",
                     "README.md", "binder/requirements.txt", "binder/runtime.txt", "binder/postBuild",
                     "binder/jupyter_server_config.json", wheel}
    assert (out / "scenario.json").read_text() == source.read_text()
    code = "".join(json.loads((out / "app.ipynb").read_text())["cells"][-1]["source"])
    assert 'widgets.play("scenario.json"' in code and 'lang="en"' in code
    assert 'os.environ["AHD_CLASSROOM"] = "1"' in code  # download and upload only: no file of the server
    # voila's settings: loopback, the XSRF check left on, abandoned kernels culled, a long iopub timeout
    settings = json.loads((out / "voila.json").read_text())
    assert settings["Voila"]["ip"] == "127.0.0.1"
    assert settings["Voila"]["tornado_settings"].get("disable_check_xsrf") is False
    assert settings["MappingKernelManager"]["cull_idle_timeout"] <= 300
    assert settings["VoilaExecutor"]["iopub_timeout"] >= 30
    assert settings["VoilaConfiguration"]["template"] == "ahd"  # the app's own: no CDN request
    assert settings["VoilaConfiguration"]["resources"]["ahd"]["starting"] == "Starting your game…"
    assert settings["AhdKernelManager"]["unconnected_grace"] >= settings["MappingKernelManager"]["cull_idle_timeout"]
    server = json.loads((out / "binder" / "jupyter_server_config.json").read_text())
    assert server["MappingKernelManager"] == settings["MappingKernelManager"]
    # house-divided[app] pinned by file and hash, for pip, conda and Binder; the rest at the lock's versions
    import hashlib
    digest = hashlib.sha256((out / wheel).read_bytes()).hexdigest()
    requirements = (out / "requirements.txt").read_text()
    assert f"./{wheel}[app] --hash=sha256:{digest}" in requirements
    assert (out / "binder" / "requirements.txt").read_text() == requirements
    assert "voila==" in requirements and "--hash=sha256:" in requirements.split("voila==")[1][:200]
    assert "-r requirements.txt" in (out / "environment.yml").read_text()
    assert (out / "binder" / "postBuild").stat().st_mode & 0o111
    readme = (out / "README.md").read_text()
    for words in ("mybinder.org/v2/gh/", "JupyterHub", "c.Spawner.default_url", "voila app.ipynb",
                  "voila THIS_FOLDER", "pip install -r requirements.txt", wheel):
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


@pytest.fixture(scope="module")
def installed_folder(tmp_path_factory):
    """A published folder installed alone into a fresh venv, as its README says: (folder, the venv's bin)."""
    tmp = tmp_path_factory.mktemp("published")
    out = publish(SCENARIO, tmp / "app")
    venv = tmp / "venv"
    started = time.monotonic()
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--no-input",
                           "--disable-pip-version-check", "-r", "requirements.txt"],
                          cwd=out, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    print(f"\nFIGURES published folder: pip install -r requirements.txt {time.monotonic() - started:.0f}s")
    return out, venv / "bin"


def test_the_published_folder_installs_alone_and_plays_a_march_offline(installed_folder, tmp_path):
    playwright = pytest.importorskip("playwright.sync_api")
    from test_app_browser import box_on_screen, chromium  # the browser test's helpers

    out, bin_dir = installed_folder
    port = serve.free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "JUPYTER_PATH", "VIRTUAL_ENV", "AHD_CLASSROOM")}
    env.update(HOME=str(tmp_path), PATH=f"{bin_dir}{os.pathsep}{env.get('PATH', '')}")
    # as the README says: the folder's own voila, started in the folder (so that it reads the folder's voila.json)
    log = tmp_path / "voila.log"
    with open(log, "w") as output:
        process = subprocess.Popen([str(bin_dir / "voila"), "app.ipynb", "--no-browser", f"--port={port}"],
                                   cwd=out, stdout=output, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}/"
    kernels: list[int] = []
    outside: list[str] = []
    try:
        serve.wait_for_voila(process, url, 90, log=log)
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=serve.CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1860, "height": 1750})
            # nothing outside the machine: every other request is recorded and refused
            page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)(?!blob:)" % port),
                       lambda r: (outside.append(r.request.url), r.abort()))
            render_s = serve.open_app(page, url)
            page.get_by_text("1862: The war in earnest").first.wait_for(timeout=30_000)  # this scenario
            kernels = _kernels_of(process.pid)
            assert len(kernels) == 1
            # download and upload only: no server Save/Load, no "Games folder: …"
            assert page.get_by_role("button", name="Save to my computer").is_visible()
            for name in ("Save", "Load"):
                button = page.get_by_role("button", name=name, exact=True)
                assert button.count() == 0 or not button.first.is_visible(), name
            assert "Games folder" not in page.inner_text("body")
            # a march by clicks on the map: the Union at Gettysburg goes to Harrisburg
            page.mouse.click(*box_on_screen(page, "gettysburg"))
            page.locator(serve.SELECTION_SELECTOR).first.wait_for(state="attached", timeout=30_000)
            page.mouse.click(*box_on_screen(page, "harrisburg"))
            page.get_by_text("Gettysburg → Harrisburg", exact=False).first.wait_for(timeout=30_000)
            # "Save to my computer": one click, one download (the template follows the app's link)
            with page.expect_download(timeout=30_000) as saved:
                page.get_by_role("button", name="Save to my computer").click()
            record = json.loads(Path(saved.value.path()).read_text(encoding="utf-8"))
            assert record["format"] == "house-divided-record" and record["scenario"]["id"] == "1862"
            assert any(c["name"] == "_xsrf" for c in page.context.cookies())  # made by the template
            page.unroute_all()
            left = time.monotonic()
            page.goto("about:blank")  # the unload beacon, XSRF checked, ends the kernel at once
            deadline = time.monotonic() + 10
            while any(Path(f"/proc/{pid}").exists() for pid in kernels) and time.monotonic() < deadline:
                time.sleep(0.2)
            leave_s = time.monotonic() - left
            assert not [pid for pid in kernels if Path(f"/proc/{pid}").exists()], "the page's kernel stayed"
            page.close()
            browser.close()
        assert outside == []
        assert "_xsrf' argument missing" not in log.read_text()
        print(f"\nFIGURES published app (installed from the folder alone) render={render_s:.2f}s "
              f"kernel ended {leave_s:.1f}s after the page was left")
    finally:
        serve.stop_process(process, timeout=15)


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
