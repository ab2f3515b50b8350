"""One browser, a few games: the classroom's seat cookie, the cap of games per browser, and the grace a new
game's page has to connect to its kernel (docs/security.md, finding 3).

Before, any GET of ``/play`` started a kernel that lived at least the cull time (50 s), and the only cap was
the class's (``--students``): one student's script kept everyone else on "The class is full". Now:

- ``/`` (the start page) gives each browser a *seat*: a random id in a signed, HttpOnly, SameSite cookie;
- ``/play`` starts a kernel only for a browser with a seat (without one it is sent to the start page), and
  for at most :attr:`Seats.per_browser` games of that seat at once (a reload still works: the old page's
  kernel ends on unload);
- a kernel whose page has not opened its websocket within :attr:`Seats.grace` seconds of being rendered (a
  script, a link preview, a tab closed at once) is ended then, not after the culler's idle time.

A student who scripts fresh cookies *and* websockets can still take several places: docs/security.md says so.
"""
from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from dataclasses import dataclass, field

from jupyter_core.utils import ensure_async
from tornado.ioloop import IOLoop

SEAT_COOKIE = "ahd-seat"
#: Environment variable (seconds) shortening the grace to connect, for tests.
CONNECT_ENV = "HOUSE_DIVIDED_CONNECT"


@dataclass
class Seats:
    per_browser: int = 2
    grace: int = 20
    games: dict[str, set[str]] = field(default_factory=dict)   # seat -> its kernels' ids
    starting: Counter = field(default_factory=Counter)         # seat -> its games being started now
    connected: set[str] = field(default_factory=set)           # kernels a page has connected to

    def count(self, seat: str, kernel_manager) -> int:
        """The seat's games: running (its kernels still there) and starting."""
        live = {k for k in self.games.get(seat, ()) if k in kernel_manager}
        if live:
            self.games[seat] = live
        else:
            self.games.pop(seat, None)
        return len(live) + self.starting[seat]

    def full(self, seat: str, kernel_manager) -> bool:
        return self.count(seat, kernel_manager) >= self.per_browser

    def started(self, seat: str, kernel_id: str) -> None:
        self.games.setdefault(seat, set()).add(kernel_id)

    def done_starting(self, seat: str) -> None:
        self.starting[seat] -= 1
        if self.starting[seat] <= 0:
            del self.starting[seat]

    def expect_connection(self, kernel_manager, kernel_id: str, log) -> None:
        """End ``kernel_id`` in :attr:`grace` seconds unless a page has connected to it by then."""
        async def check():
            connected = self.connected | getattr(kernel_manager, "connected", set())
            if kernel_id in kernel_manager and kernel_id not in connected:
                log.info("No page connected to kernel %s within %d s: shut down", kernel_id, self.grace)
                await ensure_async(kernel_manager.shutdown_kernel(kernel_id))
            if kernel_id not in kernel_manager:
                self.connected.discard(kernel_id)

        IOLoop.current().call_later(self.grace, lambda: asyncio.ensure_future(check()))


def seat_of(handler) -> str | None:
    value = handler.get_signed_cookie(SEAT_COOKIE, max_age_days=1)
    return value.decode("ascii", "replace") if value else None


def give_seat(handler) -> str:
    """The browser's seat, set now when it has none."""
    seat = seat_of(handler)
    if seat is None:
        seat = secrets.token_urlsafe(16)
        secure = handler.request.protocol == "https" or bool(handler.settings.get("xsrf_cookie_kwargs", {}).get("secure"))
        handler.set_signed_cookie(SEAT_COOKIE, seat, expires_days=1, httponly=True, samesite="Lax", secure=secure,
                                  path=handler.base_url)
    return seat
