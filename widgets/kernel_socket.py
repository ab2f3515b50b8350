"""The kernel websocket of our servers: voila's handler, without its hang on a legacy-protocol client.

voila's ``VoilaKernelWebsocketHandler.write_message`` drops ``execute_input`` messages by reading the
header of every binary frame it sends as if it were in the v1 protocol (``v1.kernel.websocket.jupyter.org``):
the first 8 bytes, little-endian, as the number of offsets. A client that opened the socket *without* that
subprotocol gets legacy-format binary frames (a big-endian 4-byte count, then 4-byte offsets): read as v1,
their first 8 bytes make a count near 10**18, and building that list blocks the server's only loop for good
(docs/security.md, finding 1). Here a socket must ask for the v1 subprotocol (voila's page always does), and
a frame's header is read only with every offset checked against the frame's length.
"""
from __future__ import annotations

import json
from typing import Any


try:
    from jupyter_server.auth.decorator import ws_authenticated
except ImportError:  # pragma: no cover - older servers
    def ws_authenticated(method):
        return method
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

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


class KernelSocketHandler(VoilaKernelWebsocketHandler):
    """``/api/kernels/<id>/channels``: voila's handler, for v1 clients only."""

    @ws_authenticated
    async def get(self, kernel_id):
        if V1 not in offered_subprotocols(self):
            self.log.warning("Kernel websocket refused: it did not ask for the %s subprotocol", V1)
            self.set_status(400)
            self.finish(f"This server speaks only the {V1} websocket protocol.")
            return
        await super().get(kernel_id)

    async def open(self, kernel_id):
        seats = getattr(self.settings.get("ahd_state"), "seats", None)
        if seats is not None:  # the page connected: its kernel outlives the grace (widgets/seats.py)
            seats.connected.add(kernel_id)
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
