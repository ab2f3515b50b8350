"""``house-divided classroom`` on 127.0.0.1, driven by plain HTTP and by Debian's chromium (playwright).

Without the token neither a page nor the kernel API answers; with it a student sees "Starting your
game…", then the app, and plays a march by clicks; XSRF is on (a POST with the login cookie but without
the ``_xsrf`` token is refused), and yet a page that is left properly shuts its kernel down at once; the
(N+1)th student sees "The class is full"; a page closed without its unload (the whole browser context
closed) leaves no kernel once the culler has passed; the teacher page needs its own token.
The server runs with a short cull setting (HOUSE_DIVIDED_CULL) so that this takes seconds, not a minute.
"""
from __future__ import annotations

import gzip
import http.client
import re
import time

import pytest

playwright = pytest.importorskip("playwright.sync_api")

import serve  # noqa: E402
from serve import wait_for_kernels  # noqa: E402
from browser import chromium  # noqa: E402

STUDENTS = 2
CULL = "8,2"  # a kernel with no page connected is ended after 8 s idle; the culler looks every 2 s
CONNECT = 12  # ... once its page has connected: before, only the connect grace ends it (12 s after the page)


def request(server, method: str, path: str, *, headers: dict | None = None, body: str | None = None):
    """(status, body) of one request, redirects not followed."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request(method, path, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, response.read().decode(errors="replace")
    finally:
        connection.close()


@pytest.fixture(scope="module")
def server():
    srv = serve.start(mode="classroom", students=STUDENTS, cull=CULL, connect=CONNECT)
    yield srv
    srv.stop()


def test_without_the_token_no_page_and_no_kernel_api_answers(server):
    for path in ("/", "/play", "/?token=wrong", "/play?token=" + server.token[:-1], "/voila/render/app.ipynb"):
        status, body = request(server, "GET", path)
        assert status == 403, (path, status)
        assert "needs its link" in body and "kernelId" not in body
    for method in ("GET", "POST", "DELETE"):
        for path in ("/api/kernels", "/api/kernels/", f"/api/kernels?token={server.token}"):
            status, _ = request(server, method, path, body="{}" if method == "POST" else None)
            assert status == 403, (method, path, status)
    # the teacher page needs the teacher's token: not the students' one
    assert request(server, "GET", "/teacher")[0] == 403
    assert request(server, "GET", f"/teacher?key={server.token}")[0] == 403
    status, body = request(server, "GET", f"/teacher?key={server.teacher_token}")
    assert status == 200 and server.join_url.split("?")[1] in body and "/teacher/join" in body
    status, projected = request(server, "GET", f"/teacher/join?key={server.teacher_token}")  # the QR code's page
    assert status == 200 and server.join_url.split("?")[1] in projected and "<svg" in projected
    assert "0</b> games running of at most <b>2</b>" in body
    assert server.kernel_pids() == []


def test_scripts_and_pages_cross_the_network_compressed(server):
    """A class loads a page's 7 MB of scripts and styles 30 times over the school's network: gzip makes it about
    2 MB a page (tornado's compress_response)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    try:
        connection.request("GET", "/voila/static/voila.js", headers={"Accept-Encoding": "gzip"})
        response = connection.getresponse()
        body = response.read()
    finally:
        connection.close()
    assert response.status == 200 and response.getheader("Content-Encoding") == "gzip"
    plain = gzip.decompress(body)
    assert len(body) < len(plain) / 2 and b"function" in plain


def test_a_pages_kernel_websocket_is_deflated(server):
    """The app's first state is about 650 KiB of JSON on the kernel's websocket: permessage-deflate, as a
    browser asks for it (the start page's cookies, then /play, then the socket, as scripts/class_start.py)."""
    import asyncio
    import uuid
    from http.cookies import SimpleCookie

    from tornado.httpclient import AsyncHTTPClient, HTTPRequest
    from tornado.websocket import websocket_connect

    async def visit() -> str:
        cookies: dict[str, str] = {}
        client = AsyncHTTPClient()
        base = server.url.rstrip("/")

        async def get(url: str, **kwargs):
            response = await client.fetch(HTTPRequest(url, follow_redirects=False, headers={
                "Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), "Origin": base}, **kwargs),
                raise_error=False)
            for header in response.headers.get_list("Set-Cookie"):
                cookies.update({name: morsel.value for name, morsel in SimpleCookie(header).items()})
            return response

        await get(server.join_url)
        page = await get(base + "/play")
        kernel = re.search(r'"kernelId": "([0-9a-f-]{36})"', page.body.decode()).group(1)
        socket = await websocket_connect(HTTPRequest(
            base.replace("http", "ws", 1) + f"/api/kernels/{kernel}/channels?session_id={uuid.uuid4()}",
            headers={"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), "Origin": base}),
            subprotocols=["v1.kernel.websocket.jupyter.org"], compression_options={})
        extensions = socket.headers.get("Sec-WebSocket-Extensions") or ""
        socket.close()
        left = await get(base + f"/voila/api/shutdown/{kernel}", method="POST", body=f"_xsrf={cookies['_xsrf']}")
        assert left.code in (200, 204)  # as the page's unload: the place is free for the next test's class
        return extensions

    assert "permessage-deflate" in asyncio.run(visit())


def test_a_class_in_the_browser(server):
    outside: list[str] = []
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium(), args=serve.CHROMIUM_ARGS)

        def student():
            context = browser.new_context(viewport={"width": 1600, "height": 1500})
            page = context.new_page()
            page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)" % server.port),
                       lambda route: (outside.append(route.request.url), route.abort()))
            return context, page

        # student 1: "Starting your game…" at once, then the app
        context1, page1 = student()
        started = time.monotonic()
        page1.goto(server.join_url, wait_until="commit")
        page1.get_by_text("Starting your game…").first.wait_for(timeout=10_000)
        # an impatient student reloads while the game starts: the first kernel does not stay behind (ended at
        # once if its page went away while it started, else by the connect grace: it never connected)
        page1.goto(server.join_url, wait_until="commit")
        serve.wait_for_app(page1)
        render_s = time.monotonic() - started
        assert page1.url.endswith("/play")  # the token is not left in the address bar
        kernel_id = page1.evaluate("JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId")
        assert len(wait_for_kernels(server, 1, CONNECT + 10)) == 1

        # a march by clicks: Harper's Ferry, then Baltimore
        page1.get_by_role("button", name="New game").click()
        page1.get_by_text("New 1861 game.").wait_for(timeout=30_000)
        page1.mouse.click(*serve.box_on_screen(page1, "harpers_ferry"))
        page1.locator(serve.SELECTION_SELECTOR).first.wait_for(state="attached", timeout=30_000)
        page1.mouse.click(*serve.box_on_screen(page1, "baltimore"))
        page1.get_by_text("Moved 1 unit to Baltimore").first.wait_for(timeout=30_000)
        # saving is by download only: no file box, no server Save/Load
        assert page1.get_by_role("button", name="Save to my computer").is_visible()
        assert page1.get_by_role("button", name="Load", exact=True).count() == 0 or \
            not page1.get_by_role("button", name="Load", exact=True).is_visible()

        # the kernel API refuses a request without the token; XSRF is on: with the login cookie but
        # without the _xsrf token a POST is refused
        assert request(server, "DELETE", f"/api/kernels/{kernel_id}")[0] == 403
        assert request(server, "GET", f"/api/kernels/{kernel_id}")[0] == 403
        assert request(server, "POST", f"/voila/api/shutdown/{kernel_id}")[0] == 403
        cookies = {c["name"]: c["value"] for c in context1.cookies()}
        login = next(f"{name}={value}" for name, value in cookies.items() if name.startswith("username-"))
        assert "_xsrf" in cookies  # set by the page, sent back by voila's unload beacon
        status, body = request(server, "POST", f"/voila/api/shutdown/{kernel_id}", headers={"Cookie": login})
        assert status == 403 and "_xsrf" in body  # "'_xsrf' argument missing from POST"
        status, _ = request(server, "DELETE", f"/api/kernels/{kernel_id}", headers={"Cookie": login})
        assert status == 403
        assert len(server.kernel_pids()) == 1

        # student 2 plays; student 3 finds the class full (a page that says so, never a blank one)
        context2, page2 = student()
        serve.open_app(page2, server.join_url)
        assert len(server.kernel_pids()) == 2
        context3, page3 = student()
        page3.goto(server.join_url)
        page3.locator("#ahd-class-full").wait_for(timeout=10_000)
        assert "2 of 2 games" in page3.content()
        assert request(server, "GET", f"/play?token={server.token}")[0] == 503

        # student 2's window is closed without its unload: the culler ends that kernel
        closed = time.monotonic()
        context2.close()
        assert len(wait_for_kernels(server, 1, 30)) == 1
        cull_s = time.monotonic() - closed

        # student 3 tries again and gets the freed place
        serve.open_app(page3, server.join_url)
        assert len(server.kernel_pids()) == 2
        serve.leave(page3)
        context3.close()

        # student 1 leaves properly: the unload beacon (with its _xsrf) shuts the kernel down at once
        left = time.monotonic()
        serve.leave(page1)
        assert wait_for_kernels(server, 0, 6) == []
        leave_s = time.monotonic() - left
        context1.close()
        browser.close()
    assert outside == []
    print(f"\nFIGURES classroom render={render_s:.2f}s closed-window kernel ended after {cull_s:.1f}s "
          f"(cull {CULL}) left-page kernel ended after {leave_s:.1f}s")


# ---------------------------------------------------------------- the command line (no server)
def _cli(*args: str):
    import subprocess
    import sys
    return subprocess.run([sys.executable, "-m", "widgets.server.cli", *args], capture_output=True, text=True, timeout=120)


def test_engine_commands_pass_through_without_importing_jupyter():
    import subprocess
    import sys
    code = ("import sys, io, contextlib, widgets.server.cli as c; out = io.StringIO()\n"
            "with contextlib.redirect_stdout(out): status = c.main(['options'])\n"
            "bad = [m for m in ('ipywidgets', 'voila', 'jupyter_server', 'IPython') if m in sys.modules]\n"
            "print(status, 'H-1' in out.getvalue(), bad)")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.stdout.strip() == "0 True []", result.stdout + result.stderr
    played = _cli("play", "--scenario", "short", "--union", "random", "--confederate", "random", "--seed", "2", "--quiet")
    assert played.returncode == 0 and "Outcome:" in played.stdout


def test_publish_of_a_malformed_scenario_stops_with_the_loaders_message(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "house-divided-scenario", "version": 1, oops}')
    result = _cli("publish", str(bad), "--out", str(tmp_path / "out"))
    assert result.returncode == 1
    assert result.stderr.startswith("error: ") and "not valid JSON" in result.stderr
    assert "Traceback" not in result.stderr and not (tmp_path / "out").exists()


def test_classroom_options_are_checked():
    result = _cli("classroom", "--students", "0")
    assert result.returncode == 2 and "at least 1" in result.stderr
    result = _cli("classroom", "--connect-grace", "1")
    assert result.returncode == 2 and "--connect-grace must be at least 5" in result.stderr
    result = _cli("classroom", "--public-url", "javascript:alert(1)")
    assert result.returncode == 2 and "--public-url" in result.stderr and "Traceback" not in result.stderr
    result = _cli("classroom", "--host", "127.0.0.1", "--certfile", "/nonexistent.pem", "--keyfile", "/x.pem")
    assert result.returncode == 1 and "--certfile /nonexistent.pem: no such file" in result.stderr
    assert "--students" in _cli("classroom", "--help").stdout
