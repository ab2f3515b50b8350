"""Start ``house-divided app`` or ``house-divided classroom`` in a child process and find its kernels
(for tests and benchmarks), and the paths both use.

    python -m serve [--port 8866] [--tree]     (the same as: house-divided app)

The server itself is :mod:`widgets.server.classroom`; the command line is :mod:`widgets.server.cli`.
"""
from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from widgets.server.paths import APPS, JUPYTER_DATA, NOTEBOOKS, TEMPLATE  # noqa: F401 -- where they always were

#: Flags for Debian's chromium on these machines (no sandbox as root; no background network).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def is_kernel(cmdline: str) -> bool:
    """A kernel's command line: ipykernel's own launcher, or ours (widgets.server.app_kernel)."""
    return "ipykernel" in cmdline or "widgets.server.app_kernel" in cmdline


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class VoilaServer:
    process: subprocess.Popen
    port: int
    tree: bool
    token: str = ""
    teacher_token: str = ""
    mode: str = "app"
    scheme: str = "http"
    #: the server's TMPDIR (``start``): its temporary data folder and its kernels' files, removed by ``stop`` even
    #: when the server had to be killed and could not remove them itself
    scratch: Path | None = None

    @property
    def url(self) -> str:
        """The server's root, without the token (a request to it is refused)."""
        return f"{self.scheme}://127.0.0.1:{self.port}/"

    @property
    def join_url(self) -> str:
        """The URL printed for people: the start page (or the tree page), with the token."""
        return f"{self.url}?token={self.token}"

    @property
    def app_url(self) -> str:
        """The app: the URL ``house-divided app`` prints, or a classroom's join URL (its start page)."""
        if self.tree:
            return f"{self.url}voila/render/app.ipynb?token={self.token}"
        return self.join_url if self.mode == "classroom" else f"{self.url}play?token={self.token}"

    @property
    def teacher_url(self) -> str:
        return f"{self.url}teacher?key={self.teacher_token}"

    def kernel_pids(self) -> list[int]:
        """The kernels this server started (child processes running ipykernel, or our launcher of it)."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                parent = int(stat.rsplit(")", 1)[1].split()[1])
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ")
            except (OSError, ValueError, IndexError):
                continue
            if parent == self.process.pid and is_kernel(cmdline.decode(errors="replace")):
                pids.append(int(entry.name))
        return pids

    def kernel_rss_mib(self) -> list[float]:
        """Resident memory of each kernel, in MiB."""
        sizes = []
        for pid in self.kernel_pids():
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]) / 1024)
        return sizes

    def stop(self) -> None:
        stop_process(self.process)
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


def stop_process(process: subprocess.Popen, timeout: float = 10) -> None:
    """SIGTERM, then SIGKILL if ``process`` has not ended within ``timeout`` seconds; waits for it either way."""
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def open_app(page, url: str, timeout_ms: int = 60_000, lang: str = "en") -> float:
    """Open the app in a playwright ``page`` and wait until the map, the charts, the panel's buttons and
    the labels are there; returns the seconds it took. (The start page opens the app by itself.)
    ``lang``: the language the app speaks (its buttons are looked for in it)."""
    start_time = time.monotonic()
    page.goto(url, wait_until="commit")
    wait_for_app(page, timeout_ms, lang=lang)
    return time.monotonic() - start_time


def end_movement_label(lang: str = "en") -> str:
    """The panel's button that ends movement, as the app says it in ``lang``."""
    from ahd.core.actions import EndMovement
    from ahd.core.i18n import render
    return render(EndMovement(), lang)


def wait_for_app(page, timeout_ms: int = 60_000, lang: str = "en") -> None:
    """Wait until the page shows the app: map, charts, the panel's buttons and the labels."""
    page.locator(".leaflet-container").first.wait_for(timeout=timeout_ms)
    page.locator(".bqplot").first.wait_for(timeout=timeout_ms)
    page.get_by_role("button", name=end_movement_label(lang)).wait_for(timeout=timeout_ms)
    # the boxes: their cards
    page.locator(".ahd-card").first.wait_for(state="attached", timeout=timeout_ms)


#: The selected box's mark in the page: the card's class.
SELECTION_SELECTOR = ".ahd-card.ahd-selected"


def box_point(card: dict) -> tuple[float, float]:
    """Where to click a box: the middle of its card's bounding box."""
    return card["x"] + card["width"] / 2, card["y"] + card["height"] / 2


def wait_for_voila(process: subprocess.Popen, url: str, timeout: float = 60.0, log: Path | None = None) -> None:
    """Until the voila ``process`` serves ``url`` (its voila.js answers): an AssertionError if it exits first (with
    the end of its ``log``) or does not answer within ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        assert process.poll() is None, "voila exited" + (f": {log.read_text()[-3000:]}" if log else "")
        try:
            with urllib.request.urlopen(url + "voila/static/voila.js", timeout=2):
                return
        except OSError:
            assert time.monotonic() < deadline, f"voila did not answer within {timeout:.0f} s"
            time.sleep(0.2)


def box_on_screen(page, box_id: str, timeout_s: float = 30.0) -> tuple[float, float]:
    """Where a box is drawn in a playwright page (whatever the map's pan, zoom or size, or the page's scroll).

    A card being re-sent by the kernel is briefly detached and has no bounding box: ask again until
    it is back (or ``timeout_s`` has passed)."""
    card = page.locator(f'[data-box="{box_id}"]').first
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            card.wait_for(state="visible", timeout=max(1, int((deadline - time.monotonic()) * 1000)))
            card.scroll_into_view_if_needed(timeout=5000)  # the page may have scrolled (a button far down)
            rect = card.bounding_box()
        except Exception:  # playwright's TimeoutError or a detached element: try again until the deadline
            rect = None
        if rect:
            return box_point(rect)
        if time.monotonic() > deadline:
            raise AssertionError(f"the box {box_id!r} is not on the page after {timeout_s:.0f} s")
        page.wait_for_timeout(100)


def wait_for_kernels(server: "VoilaServer", count: int, seconds: float, gone: Iterable[int] = ()) -> list[int]:
    """The server's kernels once there are ``count`` of them and none of the pids ``gone`` is among them, or as
    they are when ``seconds`` have passed. The list returned is the one checked: kernels end and start while a
    class comes and goes, so a second look could count a kernel that has just ended, or miss one just started
    (a count of 2 passed on the way from 3 games to none read as 1 warm kernel: stop 53's CI)."""
    gone = set(gone)
    deadline = time.monotonic() + seconds
    while True:
        pids = server.kernel_pids()
        if (len(pids) == count and not gone & set(pids)) or time.monotonic() >= deadline:
            return pids
        time.sleep(0.25)


def leave(page) -> None:
    """Leave the app as a person does: ``about:blank``, whose unload asks voila to shut the page's kernel
    down (request interception is lifted first, or playwright would drop that request)."""
    page.unroute_all()
    page.goto("about:blank")


def leave_page(page, server: "VoilaServer", timeout_s: float = 30.0) -> list[int]:
    """``leave`` the app; returns the server's kernels still running once none is left or ``timeout_s`` has
    passed."""
    leave(page)
    return wait_for_kernels(server, 0, timeout_s)


def start(port: int | None = None, *, tree: bool = False, quiet: bool = True, timeout: float = 60.0,
          mode: str = "app", students: int | None = None, cull: str | None = None,
          games: str | Path | None = None, log: Path | None = None, lang: str | None = None,
          connect: int | None = None, data: Path | None = None, extra: list[str] | None = None,
          tls_ca: Path | None = None, warm: int = 0) -> VoilaServer:
    """Start ``python -m widgets.server.cli app`` (or ``classroom`` on 127.0.0.1) with known random tokens and wait
    until it answers (polling a static file starts no kernel). ``cull``: "IDLE,INTERVAL" seconds; ``log``: a
    file for the server's output; ``lang``: the app's language (``--lang``); ``connect``: seconds a page has to
    connect to its new kernel before the kernel is ended (classroom); ``data``: the classroom's ``--data``;
    ``extra``: more command-line options; ``tls_ca``: the server serves HTTPS (``--certfile``) with a certificate
    this file verifies; ``warm``: the classroom's warm kernels (``--warm``; 0 here unless asked: tests count
    kernels)."""
    port = port or free_port()
    command = [sys.executable, "-m", "widgets.server.cli", mode, f"--port={port}"]
    if mode == "app":
        command += ["--tree"] if tree else []
        command += [f"--games={games}"] if games else []
    else:
        command += ["--host=127.0.0.1", f"--students={students or 30}", f"--warm={warm}"]
    command += [f"--lang={lang}"] if lang else []
    command += [f"--data={data}"] if data else []
    command += list(extra or [])
    env = dict(os.environ)
    token, teacher = secrets.token_urlsafe(9), secrets.token_urlsafe(16)
    env["HOUSE_DIVIDED_TOKEN"] = token
    env["HOUSE_DIVIDED_TEACHER_TOKEN"] = teacher
    if cull:
        env["HOUSE_DIVIDED_CULL"] = cull
    if connect:
        env["HOUSE_DIVIDED_CONNECT"] = str(connect)
    scratch = Path(tempfile.mkdtemp(prefix="ahd-test-server-"))
    env["TMPDIR"] = str(scratch)  # what a killed server leaves behind goes with this folder (VoilaServer.stop)
    output = open(log, "w") if log else (subprocess.DEVNULL if quiet else None)  # noqa: SIM115
    process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT if log else output, env=env,
                               cwd=Path(__file__).resolve().parents[1])
    server = VoilaServer(process, port, tree, token, teacher if mode == "classroom" else "", mode,
                         "https" if tls_ca else "http", scratch)
    context = None
    if tls_ca:
        import ssl
        context = ssl.create_default_context(cafile=str(tls_ca))
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            server.stop()
            raise RuntimeError(f"house-divided {mode} exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(server.url + "voila/static/voila.js", timeout=2, context=context):
                return server
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"house-divided {mode} did not answer on port {port} within {timeout:.0f} s")


def main(argv: list[str] | None = None) -> int:
    """``python -m serve`` is ``house-divided app``."""
    from widgets.server.cli import main as cli_main
    return cli_main(["app", *(sys.argv[1:] if argv is None else argv)])


if __name__ == "__main__":
    sys.exit(main())
