"""A student's client for the security tests (tests/test_security*.py): only the class link, on 127.0.0.1.

``Browser`` keeps cookies like a browser (one per student); ``kernel_socket`` opens a kernel websocket as a
script would, with or without voila's ``v1.kernel.websocket.jupyter.org`` subprotocol.
"""
from __future__ import annotations

import asyncio
import http.client
import http.cookies
import json
import re
import time
import uuid

V1 = "v1.kernel.websocket.jupyter.org"
CONTROL_PROTOCOL = "1.0.0"  # ipywidgets 8's widget control protocol
KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')


class Browser:
    """One student's browser: a cookie jar and plain HTTP to 127.0.0.1 (redirects not followed)."""

    def __init__(self, port: int, scheme: str = "http", context=None):
        self.port, self.scheme, self.context = port, scheme, context
        self.cookies: dict[str, str] = {}
        self.last_headers: http.client.HTTPMessage | None = None

    def request(self, method: str, path: str, *, headers: dict | None = None, body: str | None = None,
                timeout: float = 60.0) -> tuple[int, str]:
        if self.scheme == "https":
            connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=timeout, context=self.context)
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        sent = dict(headers or {})
        if self.cookies:
            sent.setdefault("Cookie", "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        try:
            connection.request(method, path, body=body, headers=sent)
            response = connection.getresponse()
            text = response.read().decode(errors="replace")
            self.last_headers = response.headers
            for header in response.headers.get_all("Set-Cookie") or []:
                jar = http.cookies.SimpleCookie()
                jar.load(header)
                for name, morsel in jar.items():
                    if morsel["expires"] and "1970" in morsel["expires"] or morsel["max-age"] == "0":
                        self.cookies.pop(name, None)
                    else:
                        self.cookies[name] = morsel.value
            return response.status, text
        finally:
            connection.close()

    def set_cookie_headers(self) -> list[str]:
        return list(self.last_headers.get_all("Set-Cookie") or []) if self.last_headers else []

    def play(self, token: str) -> tuple[int, str, str | None]:
        """What the start page does: ``/?token=`` then ``/play``; (status, page, kernel id or None)."""
        self.request("GET", f"/?token={token}")
        status, page = self.request("GET", "/play")
        found = KERNEL_ID.search(page)
        return status, page, found.group(1) if found else None


def _message(msg_type: str, content: dict, session: str, metadata: dict | None = None) -> dict:
    return {"header": {"msg_id": uuid.uuid4().hex, "msg_type": msg_type, "username": "student",
                       "session": session, "date": "", "version": "5.3"},
            "parent_header": {}, "metadata": metadata or {}, "content": content}


def widget_state_requests(session: str) -> list[dict]:
    """Open ipywidgets' control comm and ask for every widget's state: the kernel's answer carries the
    binary buffers of the page's charts (what voila's page itself does on load)."""
    comm_id = uuid.uuid4().hex
    return [_message("comm_open", {"comm_id": comm_id, "target_name": "jupyter.widget.control", "data": {}}, session,
                     {"version": CONTROL_PROTOCOL}),
            _message("comm_msg", {"comm_id": comm_id, "data": {"method": "request_states"}}, session)]


def v1_frame(message: dict, channel: str = "shell") -> bytes:
    from jupyter_server.services.kernels.connection.base import serialize_msg_to_ws_v1
    parts = [json.dumps(message[k]).encode() for k in ("header", "parent_header", "metadata", "content")]
    return serialize_msg_to_ws_v1(parts, channel)


async def _probe(port: int, kernel_id: str, token: str, subprotocol: str | None, seconds: float,
                 cookies: dict[str, str], ssl_context=None) -> dict:
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import WebSocketClosedError, websocket_connect
    session = uuid.uuid4().hex
    scheme = "wss" if ssl_context else "ws"
    url = f"{scheme}://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id={session}&token={token}"
    result = {"connected": False, "status": None, "binary": 0, "text": 0}
    try:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else {}
        ws = await websocket_connect(HTTPRequest(url, request_timeout=10, headers=headers, ssl_options=ssl_context),
                                     subprotocols=[subprotocol] if subprotocol else None)
    except HTTPClientError as exc:
        result["status"] = exc.code
        return result
    result["connected"] = True
    try:
        for message in widget_state_requests(session):
            if subprotocol:
                await ws.write_message(v1_frame(message), binary=True)
            else:
                await ws.write_message(json.dumps({**message, "channel": "shell", "buffers": []}))
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                reply = await asyncio.wait_for(ws.read_message(), max(0.05, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if reply is None:
                break
            result["binary" if isinstance(reply, bytes) else "text"] += 1
    except WebSocketClosedError:
        pass
    finally:
        ws.close()
    return result


def kernel_socket_probe(port: int, kernel_id: str, token: str, *, subprotocol: str | None,
                        seconds: float = 3.0, browser: Browser | None = None) -> dict:
    """Connect to a kernel's channels as a script, ask for the widgets' states and count the frames that
    come back within ``seconds``: {"connected", "status" (of a refused upgrade), "binary", "text"}. With
    ``browser``, its cookies are sent (its seat: the browser whose page started the kernel)."""
    cookies = dict(browser.cookies) if browser else {}
    context = browser.context if browser is not None and browser.scheme == "https" else None
    return asyncio.run(asyncio.wait_for(_probe(port, kernel_id, token, subprotocol, seconds, cookies, context),
                                        seconds + 15))
