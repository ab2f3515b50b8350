"""The kernel routes of our servers: voila's websocket handler without its hang on a legacy-protocol client,
and a game's kernel ended or reached only from the browser that started it.

voila's ``VoilaKernelWebsocketHandler.write_message`` drops ``execute_input`` messages by reading the
header of every binary frame it sends as if it were in the v1 protocol (``v1.kernel.websocket.jupyter.org``):
the first 8 bytes, little-endian, as the number of offsets. A client that opened the socket *without* that
subprotocol gets legacy-format binary frames (a big-endian 4-byte count, then 4-byte offsets): read as v1,
their first 8 bytes make a count near 10**18, and building that list blocks the server's only loop for good
(docs/security.md, finding 1). Here a socket must ask for the v1 subprotocol (voila's page always does), and
a frame's header is read only with every offset checked against the frame's length.

In the classroom one token is shared by the whole class, and jupyter_server skips the XSRF check for a
request that carries the token: a student who learnt another's kernel id could end that game (``DELETE
/api/kernels/<id>``, voila's ``POST /voila/api/shutdown/<id>``) or play in it. Here XSRF is checked even with
the token, and a kernel is ended, read or connected to only from the browser (its seat, widgets/server/seats.py)
whose page started it (docs/security.md, finding 6).
"""
from __future__ import annotations

import json
from typing import Any


try:
    from jupyter_server.auth.decorator import ws_authenticated
except ImportError:  # pragma: no cover - older servers
    def ws_authenticated(method):
        return method
from jupyter_server.services.kernels.handlers import KernelHandler
from tornado import web
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

from widgets.server.seats import seat_of

V1 = "v1.kernel.websocket.jupyter.org"


def v1_header(frame: bytes) -> dict | None:
    """The header of a v1 frame (``[count][offsets…][channel][header][parent][metadata][content]…``),
    or None for anything else. Never reads an offset the frame does not hold."""
    if len(frame) < 8:
        return None
    count = int.from_bytes(frame[:8], "little")
    if count < 3 or 8 * (count + 1) > len(frame):
        return None
    start = int.from_bytes(frame[16:24], "little")
    end = int.from_bytes(frame[24:32], "little")
    if not 8 * (count + 1) <= start <= end <= len(frame):
        return None
    try:
        header = json.loads(frame[start:end].decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    return header if isinstance(header, dict) else None


def offered_subprotocols(handler) -> list[str]:
    return [p.strip() for p in handler.request.headers.get("Sec-WebSocket-Protocol", "").split(",") if p.strip()]


def owns(handler, kernel_id: str) -> bool:
    """True if the request comes from the browser whose page started ``kernel_id`` (always, in app mode:
    one person, no seats)."""
    seats = getattr(handler.settings.get("ahd_state"), "seats", None)
    if seats is None:
        return True
    seat = seat_of(handler)
    return seat is not None and kernel_id in seats.games.get(seat, ())


class StrictXsrf:
    """XSRF checked on every request that changes something, the token in the URL notwithstanding."""

    def check_xsrf_cookie(self):
        if not hasattr(self, "_jupyter_current_user") or self.request.method in ("GET", "HEAD", "OPTIONS"):
            return super().check_xsrf_cookie()
        if not self.check_origin():
            raise web.HTTPError(403, "Cross-origin request refused")
        return web.RequestHandler.check_xsrf_cookie(self)


class KernelModelHandler(StrictXsrf, KernelHandler):
    """``/api/kernels/<id>``: a kernel's model, to its own page only; never ``DELETE`` (a page ends its game by
    voila's shutdown request, below)."""

    @web.authenticated
    async def get(self, kernel_id):
        if not owns(self, kernel_id):
            raise web.HTTPError(404, "No such game")
        await super().get(kernel_id)

    @web.authenticated
    async def delete(self, kernel_id):
        raise web.HTTPError(403, "Games are not ended through this API")


class ShutdownHandler(StrictXsrf, VoilaShutdownKernelHandler):
    """``/voila/api/shutdown/<id>``: the unload beacon of the page that started the kernel (with its ``_xsrf``)."""

    @web.authenticated
    async def post(self, kernel_id):
        if kernel_id not in self.kernel_manager or not owns(self, kernel_id):
            raise web.HTTPError(404, "No such game")
        self.kernel_manager.log.info("Its page left: kernel %s shut down", kernel_id)
        await super().post(kernel_id)


class KernelSocketHandler(VoilaKernelWebsocketHandler):
    """``/api/kernels/<id>/channels``: voila's handler, for v1 clients of the kernel's own browser only."""

    @ws_authenticated
    async def get(self, kernel_id):
        if V1 not in offered_subprotocols(self):
            self.log.warning("Kernel websocket refused: it did not ask for the %s subprotocol", V1)
            self.set_status(400)
            self.finish(f"This server speaks only the {V1} websocket protocol.")
            return
        if not owns(self, kernel_id):
            self.log.warning("Kernel websocket refused: kernel %s is not this browser's", kernel_id)
            self.set_status(403)
            self.finish("This game is not yours.")
            return
        await super().get(kernel_id)

    async def open(self, kernel_id):
        seats = getattr(self.settings.get("ahd_state"), "seats", None)
        if seats is not None:  # the page connected: its kernel outlives the grace (widgets/server/seats.py)
            seats.connected.add(kernel_id)
        connect = getattr(self.kernel_manager, "connect", None)
        if connect is not None:  # and the culler may treat it as any other (widgets/server/kernels.py)
            connect(kernel_id)
        await super().open(kernel_id)

    def write_message(self, message: bytes | str | dict[str, Any], binary: bool = False):
        if isinstance(message, bytes):
            header = v1_header(message) if self.selected_subprotocol == V1 else None
        elif isinstance(message, dict):
            header = message.get("header")
        else:
            header = None
        if isinstance(header, dict) and header.get("msg_type") == "execute_input":
            return None  # what voila's handler drops: the page never shows the code it runs
        return super(VoilaKernelWebsocketHandler, self).write_message(message, binary)
