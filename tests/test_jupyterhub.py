"""deploy/jupyterhub_config.py on loopback: two users log in and each plays a march in their own kernel.

JupyterHub (PyPI, the test extra) with configurable-http-proxy (npm; ``./run.sh test`` installs it into
.venv/node) in the config's test mode: DummyAuthenticator with a shared password and
SimpleLocalProcessSpawner, every port on 127.0.0.1. Two Chromium contexts log in as two users; each
lands on the app (voila, the user's own Jupyter server), starts a game and marches by clicking on the
map. The two users have two single-user servers, each with its own kernel. Everything is stopped at
the end. A missing proxy is a failure, not a skip.
"""
from __future__ import annotations

import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import serve
from serve import CHROMIUM_ARGS, free_port

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "deploy" / "jupyterhub_config.py"
CHECKOUT_PROXY = ROOT / ".venv" / "node" / "node_modules" / ".bin"
#: the selected box's mark on the map (as the browser test finds it)
SELECTED = serve.SELECTION_SELECTOR


def _proxy_path() -> str:
    path = os.pathsep.join([str(CHECKOUT_PROXY), os.environ.get("PATH", "")])
    if shutil.which("configurable-http-proxy", path=path) is None:
        pytest.fail("configurable-http-proxy (npm) is missing: ./run.sh test installs it "
                    "(npm ci of requirements/node into .venv/node); npm itself: apt-get install npm")
    return path


def _children(pid: int) -> dict[int, str]:
    """Every descendant of ``pid``: {pid: command line}."""
    parents, commands = {}, {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
                commands[int(entry.name)] = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except (OSError, ValueError, IndexError):
                continue
    found, frontier = {}, {pid}
    while frontier:
        frontier = {p for p, parent in parents.items() if parent in frontier and p not in found}
        found.update({p: commands[p] for p in frontier})
    return found


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.fixture
def hub(tmp_path):
    port, api_port, proxy_port = free_port(), free_port(), free_port()
    assert len({port, api_port, proxy_port}) == 3
    password = secrets.token_urlsafe(12)
    env = dict(os.environ, PATH=_proxy_path(), AHD_HUB_MODE="test", AHD_HUB_PASSWORD=password,
               AHD_HUB_DATA=str(tmp_path), AHD_HUB_IP="127.0.0.1", AHD_HUB_PORT=str(port),
               AHD_HUB_API_PORT=str(api_port), AHD_PROXY_API_PORT=str(proxy_port))
    log = (tmp_path / "hub.log").open("w")
    process = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(CONFIG)], cwd=tmp_path, env=env,
                               stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    url = f"http://127.0.0.1:{port}/"
    seen: dict[int, str] = {}
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, "the hub exited:\n" + (tmp_path / "hub.log").read_text()[-4000:]
            try:
                with urllib.request.urlopen(url + "hub/api/", timeout=2):
                    break
            except OSError:
                assert time.monotonic() < deadline, "the hub did not answer:\n" + (tmp_path / "hub.log").read_text()[-4000:]
                time.sleep(0.3)
        yield url, password, process, seen, tmp_path / "hub.log"
    finally:
        seen.update(_children(process.pid))
        process.send_signal(signal.SIGTERM)  # the hub stops every user's server and the proxy (cleanup_*)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        log.close()
        deadline = time.monotonic() + 15
        while [p for p in seen if _alive(p)] and time.monotonic() < deadline:
            time.sleep(0.3)
        for pid in [p for p in seen if _alive(p)]:  # whatever did not stop by itself, by its id
            os.kill(pid, signal.SIGKILL)
        left = {p: c for p, c in seen.items() if _alive(p)}
        assert not left, f"left running after the hub stopped: {left}"


def test_two_users_each_play_a_march_in_their_own_kernel(hub):
    playwright = pytest.importorskip("playwright.sync_api")
    from test_app_browser import box_on_screen, chromium  # the browser test's helpers

    url, password, process, seen, log = hub
    started = time.monotonic()
    users = ["alice", "bob"]
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        pages = {}
        for user in users:
            context = browser.new_context(viewport={"width": 1860, "height": 1750})
            page = context.new_page()
            page.route(re.compile(r"^(?!http://127\.0\.0\.1:)(?!data:)"), lambda r: r.abort())  # nothing outside
            page.goto(url + "hub/login")
            page.fill("#username_input", user)
            page.fill("#password_input", password)
            page.click("#login_submit")
            pages[user] = page
        for user, page in pages.items():
            # the hub starts the user's server, then its start page: voila rendering the app
            page.wait_for_url(re.compile(rf"/user/{user}/voila/render/app\.ipynb"), wait_until="commit", timeout=120_000)
            serve.wait_for_app(page, timeout_ms=120_000)  # map, charts, the panel's buttons, the boxes
        for user, page in pages.items():
            try:
                page.get_by_role("button", name="New game").click()
                page.get_by_text("New 1861 game.").wait_for(timeout=30_000)
                page.mouse.click(*box_on_screen(page, "harpers_ferry"))
                page.locator(SELECTED).first.wait_for(state="attached", timeout=30_000)
                page.mouse.click(*box_on_screen(page, "baltimore"))
                page.get_by_text("Harper's Ferry → Baltimore", exact=False).first.wait_for(timeout=30_000)
            except playwright.Error:
                page.screenshot(path=str(log.parent / f"{user}.png"), full_page=True)
                raise AssertionError(f"{user}'s march failed; the page: {log.parent / f'{user}.png'}") from None

        # two single-user servers, one per user, each with its own kernel
        processes = _children(process.pid)
        seen.update(processes)
        servers = {pid: cmd for pid, cmd in processes.items() if "jupyterhub.singleuser" in cmd}
        assert len(servers) == 2, processes
        kernels = {server: [pid for pid, cmd in _children(server).items() if serve.is_kernel(cmd)]
                   for server in servers}
        seen.update({k: "kernel" for ks in kernels.values() for k in ks})
        assert sorted(len(k) for k in kernels.values()) == [1, 1], kernels
        homes = {Path(os.readlink(f"/proc/{server}/cwd")).name for server in servers}
        assert homes == set(users)  # each server in its own user's home
        rss = {"server": [_rss_mib(s) for s in servers], "kernel": [_rss_mib(k) for ks in kernels.values() for k in ks],
               "hub": [_rss_mib(process.pid)],
               "proxy": [_rss_mib(p) for p, c in processes.items() if "configurable-http-proxy" in c]}
        for page in pages.values():
            page.unroute_all()
            page.goto("about:blank")
            page.context.close()
        browser.close()
    print(f"\nFIGURES hub: two users logged in, rendered and marched in {time.monotonic() - started:.1f}s; "
          f"kernels {sorted(k for ks in kernels.values() for k in ks)}; RSS MiB "
          + ", ".join(f"{kind} {'/'.join(f'{v:.0f}' for v in values)}" for kind, values in rss.items()))


def _rss_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def test_the_config_in_school_mode_uses_system_accounts(tmp_path, monkeypatch):
    from traitlets.config.loader import PyFileConfigLoader
    monkeypatch.setenv("AHD_HUB_MODE", "school")
    monkeypatch.setenv("AHD_HUB_DATA", str(tmp_path))
    monkeypatch.setenv("AHD_HUB_USERS", "ann, ben")
    config = PyFileConfigLoader(CONFIG.name, path=str(CONFIG.parent)).load_config()
    assert config.JupyterHub.authenticator_class == "pam"
    assert config.JupyterHub.spawner_class == "localprocess"
    assert config.Authenticator.allowed_users == {"ann", "ben"}
    assert config.Spawner.default_url == "/voila/render/app.ipynb"
    assert (Path(config.Spawner.notebook_dir) / "app.ipynb").is_file()
    assert "--ServerApp.allow_root=True" not in config.Spawner.args
    assert config.JupyterHub.bind_url == "http://127.0.0.1:8000"  # loopback unless told otherwise
    monkeypatch.setenv("AHD_HUB_MODE", "test")
    monkeypatch.delenv("AHD_HUB_PASSWORD", raising=False)
    with pytest.raises(ValueError, match="AHD_HUB_PASSWORD"):
        PyFileConfigLoader(CONFIG.name, path=str(CONFIG.parent)).load_config()
