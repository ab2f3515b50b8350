"""Serve the notebooks with voila on loopback, and find its kernels (for the app command and tests).

    python -m widgets.serve [--port 8866] [--tree]

Serves ``widgets/apps/app.ipynb`` (package data, so that it also runs from an installed wheel) with
``widgets/apps/voila.json`` (loopback only, kernel culling, and the xsrf setting that lets a closed page
shut its kernel down; see ../README.md); ``--tree`` serves the checkout's ``notebooks/`` with the same
settings.
"""
from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

#: The app notebook and its voila.json (package data: found in a checkout and in an installed wheel).
APPS = Path(__file__).resolve().parent / "apps"
#: The tutorials, scenarios and analyses of a checkout (``--tree``; its app.ipynb is a link to the one in
#: APPS). An installed wheel holds only the app, so there NOTEBOOKS is APPS.
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
if not (NOTEBOOKS / "app.ipynb").is_file():
    NOTEBOOKS = APPS
#: A Jupyter data folder holding the ``ahd`` voila template: voila's lab template without the Font
#: Awesome stylesheets it asks a CDN for, so that the pages make no request outside the machine.
JUPYTER_DATA = Path(__file__).resolve().parent / "jupyter"
TEMPLATE = "ahd"
#: Flags for Debian's chromium on these machines (no sandbox as root; no background network).
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class VoilaServer:
    process: subprocess.Popen
    port: int
    tree: bool

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    @property
    def app_url(self) -> str:
        return self.url + ("voila/render/app.ipynb" if self.tree else "")

    def kernel_pids(self) -> list[int]:
        """The kernels this server started (child processes running ipykernel)."""
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
            if parent == self.process.pid and b"ipykernel" in cmdline:
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
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def open_app(page, url: str, timeout_ms: int = 60_000) -> float:
    """Open the app in a playwright ``page`` and wait until the map, the charts, the panel's buttons and
    the labels are there; returns the seconds it took."""
    start_time = time.monotonic()
    page.goto(url)
    page.locator(".leaflet-container").first.wait_for(timeout=timeout_ms)
    page.locator(".bqplot").first.wait_for(timeout=timeout_ms)
    page.get_by_role("button", name="End movement (unused marches lapse)").wait_for(timeout=timeout_ms)
    page.locator("img.leaflet-image-layer").first.wait_for(state="attached", timeout=timeout_ms)
    return time.monotonic() - start_time


def _environment() -> dict[str, str]:
    """This environment, with our Jupyter data folder (the ``ahd`` template) searched first."""
    env = dict(os.environ)
    env["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(JUPYTER_DATA), env.get("JUPYTER_PATH")) if p)
    return env


def start(port: int | None = None, *, tree: bool = False, quiet: bool = True, timeout: float = 60.0) -> VoilaServer:
    """Start voila on 127.0.0.1 and wait until it answers (polling a static file starts no kernel)."""
    port = port or free_port()
    command = [sys.executable, "-m", "voila", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
               f"--template={TEMPLATE}"]
    # the app alone, or the notebooks' folder; voila reads voila.json from its working folder, APPS.
    # No preheated kernel: voila's culling (voila.json) would shut the waiting kernel down after 10 idle
    # minutes, and the next visitor's page fails
    command.insert(3, str(NOTEBOOKS) if tree else "app.ipynb")
    process = subprocess.Popen(command, cwd=APPS, stdout=subprocess.DEVNULL if quiet else None,
                               stderr=subprocess.DEVNULL if quiet else None, env=_environment())
    server = VoilaServer(process, port, tree)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"voila exited with code {process.returncode}")
        try:
            with urllib.request.urlopen(server.url + "voila/static/voila.js", timeout=2):
                return server
        except OSError:
            time.sleep(0.2)
    server.stop()
    raise RuntimeError(f"voila did not answer on port {port} within {timeout:.0f} s")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve the A House Divided app with voila on 127.0.0.1")
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", 8866)))
    parser.add_argument("--tree", action="store_true", help="serve every notebook of notebooks/ (a tree page)")
    args = parser.parse_args(argv)
    server = start(args.port, tree=args.tree, quiet=False)
    print(f"\nA House Divided is running: open {server.app_url} in your browser (Ctrl-C stops it).\n", flush=True)
    try:
        server.process.wait()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
