"""Issue 31: the classroom server against a curious student who has only the class link (all on 127.0.0.1).

Each test is one finding of the review in docs/security.md; each failed before its fix.
"""
from __future__ import annotations

import time

import pytest

from widgets import serve
from security_client import V1, Browser, kernel_socket_probe


@pytest.fixture
def room():
    servers = []

    def start(**kwargs):
        kwargs.setdefault("students", 4)
        kwargs.setdefault("cull", "30,5")
        srv = serve.start(mode="classroom", **kwargs)
        servers.append(srv)
        return srv
    yield start
    for srv in servers:
        srv.stop()


def test_a_kernel_socket_without_voilas_subprotocol_cannot_hang_the_server(room):
    """Finding 1: a legacy-protocol websocket whose reply carries binary buffers made voila's handler build a
    list of ~10**18 offsets on the main loop (every page froze). Now such a socket is refused, a v1 one works,
    and another page answers within 5 s."""
    srv = room(students=2)
    status, _, kernel = Browser(srv.port).play(srv.token)
    assert status == 200 and kernel
    v1 = kernel_socket_probe(srv.port, kernel, srv.token, subprotocol=V1, seconds=3)
    assert v1["connected"] and v1["binary"] >= 1, v1  # voila's own protocol: the widgets' states come back
    legacy = kernel_socket_probe(srv.port, kernel, srv.token, subprotocol=None, seconds=2)
    started = time.monotonic()
    status, page = Browser(srv.port).request("GET", f"/?token={srv.token}", timeout=5)
    assert status == 200 and "ahd-starting" in page and time.monotonic() - started < 5
    assert not legacy["connected"] and legacy["status"] == 400, legacy


def test_a_legacy_binary_frame_is_not_read_as_a_v1_header():
    from jupyter_server.services.kernels.connection.base import serialize_binary_message
    from security_client import v1_frame, widget_state_requests
    from widgets.kernel_socket import v1_header
    message = {**widget_state_requests("s")[1], "buffers": [b"\x00" * 64, b"\x01" * 8]}
    legacy = serialize_binary_message(message)
    assert int.from_bytes(legacy[:8], "little") > 10 ** 17  # what voila's handler took for a count of offsets
    started = time.monotonic()
    assert v1_header(legacy) is None and v1_header(b"") is None and v1_header(b"\xff" * 40) is None
    assert time.monotonic() - started < 0.1
    assert v1_header(v1_frame(message))["msg_type"] == "comm_msg"


def wait_for_kernels(server, count: int, seconds: float) -> list[int]:
    deadline = time.monotonic() + seconds
    while len(server.kernel_pids()) != count and time.monotonic() < deadline:
        time.sleep(0.25)
    return server.kernel_pids()


def test_one_browser_cannot_fill_the_class_and_a_page_that_never_connects_frees_its_place(room):
    """Finding 3: any GET of /play started a kernel that lived >= 50 s, and the only cap was the class's: four
    requests from one student kept everyone else on "The class is full". Now /play starts a kernel only for a
    browser the start page has seen (its seat cookie), at most two per browser, and a kernel whose page has
    not connected within the grace (here 10 s; the culler would wait 60 s) is ended."""
    srv = room(students=3, cull="60,5", connect=10)
    script = Browser(srv.port)  # no start page, no seat: no kernel
    status, _ = script.request("GET", f"/play?token={srv.token}")
    assert status == 302 and script.last_headers["Location"].startswith("/") and srv.kernel_pids() == []
    hog, classmate = Browser(srv.port), Browser(srv.port)
    assert hog.play(srv.token)[0] == 200 and hog.play(srv.token)[0] == 200
    started = time.monotonic()
    status, page, kernel = hog.play(srv.token)
    assert status == 429 and kernel is None and "ahd-browser-full" in page and time.monotonic() - started < 3
    assert len(srv.kernel_pids()) == 2
    status, _, kernel = classmate.play(srv.token)
    assert status == 200 and kernel
    assert wait_for_kernels(srv, 0, 30) == []  # none of the three pages connected: all ended by the grace
