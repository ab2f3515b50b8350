"""A class starting together, the server's side only: N students whose browsers are on their own computers.

    .venv/bin/python scripts/class_start.py 30 [--arrival 30] [--cap 32] [--warm N]

``scripts/classroom_load.py`` runs a real headless Chromium per student on this machine, so with 30 students
the browsers (about 2-3 CPU-seconds each to load and draw a page) starve the 2 cores and nothing is measured
of the server. Here each student asks the server exactly what a browser asks, and nothing is drawn:

1. the join link (the start page: its cookies), then ``/play``, read to its end (the app's page with its
   kernel's id, from a warm kernel or a new one);
2. every script and style a real page loads (the list is taken once from one Chromium page before the class
   comes), six at a time as a browser does, with gzip;
3. the kernel's websocket (voila's v1 protocol, the page's cookies and origin), ``kernel_info``, then the widget
   manager's ``request_states`` on the ``jupyter.widget.control`` comm: the whole app's state comes back.

Printed: for each step its median and p95 (seconds from the student's arrival), the time to the app's state
(join link to the last byte of the widgets' states: then only the student's own browser draws), failures, the
server's and kernels' CPU seconds, and memory. A benchmark on 127.0.0.1 only, not a test.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import sys
import tempfile
import time
import uuid
from http.cookies import SimpleCookie
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/serve.py)

from jupyter_server.services.kernels.connection.base import (  # noqa: E402
    deserialize_msg_from_ws_v1, serialize_msg_to_ws_v1)
from tornado.httpclient import AsyncHTTPClient, HTTPRequest  # noqa: E402
from tornado.websocket import websocket_connect  # noqa: E402

import serve  # noqa: E402
from classroom_load import cpu_seconds, percentile, pss_mib, rss_mib, warmed  # noqa: E402

V1 = "v1.kernel.websocket.jupyter.org"
VERBOSE = False  # --verbose: each student's steps and messages, on stderr
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')


def static_urls(server) -> list[str]:
    """The scripts, styles and fonts one real page loads (paths on the server), from one Chromium page."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=serve.CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(server.join_url)
        page.get_by_role("button", name="End movement (unused marches lapse)").wait_for(timeout=120_000)
        names = page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")
        page.goto("about:blank")  # its unload ends its kernel
        browser.close()
    base = server.url.rstrip("/")
    return sorted({n[len(base):] for n in names
                   if n.startswith(base) and ("/static/" in n or "/labextensions/" in n)})


class Student:
    def __init__(self, server, index: int) -> None:
        self.server, self.index = server, index
        self.cookies: dict[str, str] = {}
        self.times: dict[str, float] = {}
        self.error = ""
        self.state_bytes = 0
        self.deflate = False

    def _remember(self, response) -> None:
        for header in response.headers.get_list("Set-Cookie"):
            for name, morsel in SimpleCookie(header).items():
                self.cookies[name] = morsel.value

    def _headers(self) -> dict[str, str]:
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items()), "Accept-Encoding": "gzip",
                "Origin": self.server.url.rstrip("/")}

    async def get(self, client, url: str, **kwargs):
        response = await client.fetch(HTTPRequest(url, headers=self._headers(), follow_redirects=False,
                                                  request_timeout=600, decompress_response=True, **kwargs),
                                      raise_error=False)
        self._remember(response)
        return response

    async def run(self, client, statics: list[str], began: float) -> None:
        base = self.server.url.rstrip("/")
        try:
            start = await self.get(client, self.server.join_url)
            self.times["start page"] = time.monotonic() - began
            if VERBOSE:
                print(self.index, "start page", self.times["start page"], file=sys.stderr)
            if start.code != 200:
                raise RuntimeError(f"start page {start.code}")
            page = await self.get(client, base + "/play")
            html = page.body.decode(errors="replace")
            found = KERNEL_ID.search(html)
            if page.code != 200 or not found:
                text = re.sub(r"\s+", " ", re.sub(r"(?s)<(script|style).*?</\1>|<[^>]+>", " ", html)).strip()
                raise RuntimeError(f"/play {page.code}, no kernel: {text[:160]!r}")
            kernel = found.group(1)
            self.times["app page"] = time.monotonic() - began
            if VERBOSE:
                print(self.index, "app page", self.times["app page"], file=sys.stderr)
            queue = list(statics)

            async def fetcher():
                while queue:
                    url = queue.pop()
                    response = await self.get(client, base + url)
                    if response.code != 200:
                        raise RuntimeError(f"{url}: {response.code}")
            await asyncio.gather(*(fetcher() for _ in range(6)))
            self.times["scripts"] = time.monotonic() - began
            if VERBOSE:
                print(self.index, "scripts", self.times["scripts"], file=sys.stderr)
            ws_url = base.replace("http", "ws", 1) + f"/api/kernels/{kernel}/channels?session_id={uuid.uuid4()}"
            ws = await websocket_connect(HTTPRequest(ws_url, headers=self._headers(), request_timeout=600),
                                         subprotocols=[V1], compression_options={})  # as a browser: deflate
            self.deflate = "permessage-deflate" in (ws.headers.get("Sec-WebSocket-Extensions") or "")
            session = str(uuid.uuid4())

            def message(msg_type: str, content: dict, channel: str = "shell") -> bytes:
                header = {"msg_id": str(uuid.uuid4()), "msg_type": msg_type, "username": "student",
                          "session": session, "date": "", "version": "5.3"}
                metadata = {"version": "1.0.0"}  # the widget control protocol's (ipywidgets 8)
                msg = {"header": header, "parent_header": {}, "metadata": metadata, "content": content}
                return serialize_msg_to_ws_v1(msg, channel, pack=lambda part: json.dumps(part).encode())

            await ws.write_message(message("kernel_info_request", {}), binary=True)
            comm_id = str(uuid.uuid4())
            await ws.write_message(message("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control",
                                                         "data": {}}), binary=True)
            await ws.write_message(message("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}}),
                                   binary=True)
            self.times["websocket"] = time.monotonic() - began
            if VERBOSE:
                print(self.index, "websocket", self.times["websocket"], file=sys.stderr)
            while True:
                frame = await asyncio.wait_for(ws.read_message(), 600)
                if frame is None:
                    raise RuntimeError("the kernel's websocket closed")
                _, parts = deserialize_msg_from_ws_v1(frame)
                header, content = json.loads(parts[0]), json.loads(parts[3])
                if VERBOSE:
                    print(self.index, header["msg_type"], str(content)[:150], file=sys.stderr)
                if header["msg_type"] == "comm_msg" and content.get("data", {}).get("method") == "update_states":
                    self.state_bytes = len(frame)
                    break
            self.times["app state"] = time.monotonic() - began
            if VERBOSE:
                print(self.index, "app state", self.times["app state"], file=sys.stderr)
            ws.close()  # and the game is left to the culler, as from a closed laptop
        except Exception as exc:  # noqa: BLE001 -- a failed student is counted and said
            self.error = f"{type(exc).__name__}: {exc}"[:200]


async def main_async(args) -> int:
    log = Path(tempfile.mkdtemp(prefix="class-start-")) / "server.log"
    warm = args.cap if args.warm is None else args.warm
    server = serve.start(mode="classroom", students=args.cap, log=log, timeout=120, warm=warm)
    try:
        if warm:
            await warmed(server, warm)
        statics = await asyncio.get_running_loop().run_in_executor(None, static_urls, server)
        if warm:
            await warmed(server, warm)  # the pool refilled after that page
        AsyncHTTPClient.configure(None, max_clients=6 * args.students)
        client = AsyncHTTPClient()
        cpu_before = cpu_seconds([server.process.pid]), {pid: cpu_seconds([pid]) for pid in server.kernel_pids()}
        load = os.getloadavg()
        began = time.monotonic()
        students = [Student(server, i) for i in range(args.students)]

        async def arrive(student: Student) -> None:
            await asyncio.sleep(student.index * args.arrival / max(1, args.students))
            arrived = time.monotonic()
            await student.run(client, statics, arrived)

        await asyncio.gather(*(arrive(s) for s in students))
        wall = time.monotonic() - began
        kernels = server.kernel_pids()
        cpu_after = cpu_seconds([server.process.pid]), {pid: cpu_seconds([pid]) for pid in kernels}
        rss = [rss_mib(pid) for pid in kernels]
        pss = [pss_mib(pid) for pid in kernels]
        server_rss = rss_mib(server.process.pid)
    finally:
        server.stop()
    ok = [s for s in students if not s.error]
    print(f"class_start: {args.students} students arriving over {args.arrival:g} s, no browsers (each asks what "
          f"a page asks: start page, /play, {len(statics)} scripts and styles with gzip, the kernel's websocket and "
          f"the widgets' states); cap {args.cap}, warm {warm}; wall time {wall:.0f} s")
    print(f"load average when the students came: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; machine: "
          f"{os.cpu_count()} cores")
    print(f"students with the app's state: {len(ok)} / {args.students}")
    for s in students:
        if s.error:
            print(f"  student {s.index}: {s.error}")
    for step in ("start page", "app page", "scripts", "websocket", "app state"):
        values = [s.times[step] for s in ok if step in s.times]
        if values:
            print(f"  {step:<10} (s from arrival): median {statistics.median(values):.1f}, "
                  f"p95 {percentile(values, 0.95):.1f}, max {max(values):.1f}")
    if ok:
        print(f"app state per student: {statistics.median(s.state_bytes for s in ok) / 1024:.0f} KiB of messages on the "
              f"websocket ({sum(s.deflate for s in ok)} of {len(ok)} websockets deflated)")
    kernel_cpu = sum(cpu - cpu_before[1].get(pid, 0.0) for pid, cpu in cpu_after[1].items())
    print(f"CPU seconds during the class start: server {cpu_after[0] - cpu_before[0]:.1f}, kernels alive at the end "
          f"{kernel_cpu:.1f} ({len(kernels)} kernels: the games, and the pool refilling)")
    if rss:
        print(f"memory: server {server_rss:.0f} MiB; per kernel RSS median {statistics.median(rss):.0f} MiB, "
              f"PSS median {statistics.median(pss):.0f} MiB; all kernels RSS {sum(rss):.0f} MiB")
    print(f"server log: {log}")
    return 0 if len(ok) == args.students else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("students", type=int)
    parser.add_argument("--arrival", type=float, default=None, help="seconds over which they arrive (default: "
                        "one a second)")
    parser.add_argument("--cap", type=int, default=None, help="--students of the server (default: students + 2)")
    parser.add_argument("--warm", type=int, default=None, help="warm kernels (default: the cap, as the classroom)")
    parser.add_argument("--verbose", action="store_true", help="each student's steps and messages, on stderr")
    args = parser.parse_args(argv)
    global VERBOSE
    VERBOSE = args.verbose
    args.arrival = float(args.students) if args.arrival is None else args.arrival
    args.cap = args.cap or args.students + 2
    return asyncio.run(main_async(args))


if __name__ == "__main__":
    sys.exit(main())
