"""The pages of our servers in front of voila's own: the token login, the start page ("Starting your game…"),
the app's page (the kernel cap, the seat of the browser, the games counted) and the refused kernel list
(widgets/server/classroom.py assembles them)."""
from __future__ import annotations

import hmac
import re

from jupyter_server.auth.identity import PasswordIdentityProvider
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.utils import url_path_join
from jupyter_core.utils import ensure_async
from tornado import web
from tornado.iostream import StreamClosedError

try:  # jupyter_server >= 2.13 refuses unauthenticated requests to any handler unless told otherwise
    from jupyter_server.auth.decorator import allow_unauthenticated
except ImportError:  # pragma: no cover - older servers do not check before the handler
    def allow_unauthenticated(method):
        return method
from voila.tornado.handler import TornadoVoilaHandler

from widgets.model.i18n import _
from widgets.server.options import ClassState
from widgets.server.room_pages import browser_full_page, full_page, no_token_page, starting_page
from widgets.server.seats import give_seat, seat_of


class AhdIdentityProvider(PasswordIdentityProvider):
    """voila's token login, with the token compared in constant time."""

    async def get_user_token(self, handler):
        expected = self.token or ""
        given = self.get_token(handler) or ""
        if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
            return None
        return await super().get_user_token(handler)


class _Ours:
    @property
    def state(self) -> ClassState:
        return self.settings["ahd_state"]

    def refuse_without_token(self) -> bool:
        if self.current_user:
            return False
        self.set_status(403)
        self.finish(no_token_page(self.state.options.mode))
        return True

    def refuse_when_full(self, retry_url: str) -> bool:
        if not self.state.full(self.kernel_manager):
            return False
        self.state.refused_full += 1
        self.set_status(503)
        self.set_header("Retry-After", "20")
        self.set_header("Cache-Control", "no-store")
        self.finish(full_page(self.state, self.state.running(self.kernel_manager), retry_url))
        return True


class StartHandler(_Ours, JupyterHandler):
    """``/``: the "Starting your game…" page, which at once opens ``/play``."""

    @allow_unauthenticated  # refused below with a page that says where the link is (not a login redirect)
    async def get(self):
        if self.refuse_without_token():
            return
        play = url_path_join(self.base_url, "play")
        kept = {k: self.get_argument(k) for k in ("join", "player") if self.get_argument(k, "")}
        if kept:  # a classmate's join link or a personal link (Play a classmate): the app reads them
            from urllib.parse import urlencode
            play += "?" + urlencode(kept)
        if self.refuse_when_full(play):
            return
        if self.state.seats is not None:
            give_seat(self)
        self.set_header("Cache-Control", "no-store")
        self.finish(starting_page(play))


KERNEL_ID = re.compile(r'"kernelId": "([0-9a-f-]{36})"')


class AppHandler(_Ours, TornadoVoilaHandler):
    """voila's page of the app (``/play``, or ``/voila/render/…`` on the tree), with the ``_xsrf`` cookie
    set (so that the page's unload can shut its kernel down with XSRF on), the kernel cap, and the kernel
    shut down at once when the browser goes away before the page is complete (a reload while starting)."""

    _gone = False

    def on_connection_close(self):
        self._gone = True
        super().on_connection_close()

    @allow_unauthenticated  # refused below, with our page
    async def get(self, path=None):
        if self.refuse_without_token():
            return
        self.xsrf_token  # noqa: B018 -- sets the _xsrf cookie that voila's unload beacon sends back
        if self.refuse_when_full(self.request.uri):
            return
        state = self.state
        seats, seat = state.seats, None
        if seats is not None:  # classroom: only a browser the start page has seen, a few games each
            seat = seat_of(self)
            if seat is None:
                self.redirect_to_start()
                return
            if seats.full(seat, self.kernel_manager):
                self.set_status(429)
                self.set_header("Retry-After", "10")
                self.set_header("Cache-Control", "no-store")
                self.finish(browser_full_page(seats.count(seat, self.kernel_manager), self.request.uri))
                return
            seats.starting[seat] += 1
        seat_counted = seat is not None
        state.starting += 1
        counted = True  # in state.starting until the kernel is known, then a game of the kernel manager
        kernel_id = None
        claim = getattr(self.kernel_manager, "claim", None)
        try:
            async for html in self.get_generator(path=path):
                if kernel_id is None:
                    found = KERNEL_ID.search(html)
                    kernel_id = found.group(1) if found else None
                    if kernel_id:
                        if claim is not None:
                            claim(kernel_id)
                        if counted:  # counted once: a game now, no more a page starting
                            state.starting -= 1
                            state.joined += 1
                            counted = False
                        if seat is not None:  # the seat's game now, no more one it is starting
                            seats.started(seat, kernel_id)
                            seats.done_starting(seat)
                            seat_counted = False
                if self._gone:
                    break
                self.write(html)
                try:
                    await self.flush()
                except StreamClosedError:
                    self._gone = True
                    break
        finally:
            if counted:
                state.starting -= 1
            if seat_counted:
                seats.done_starting(seat)
            if self._gone and kernel_id and kernel_id in self.kernel_manager:
                self.kernel_manager.log.info("The page went away while its game was starting: kernel %s shut down",
                                             kernel_id)
                await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
            elif kernel_id and seats is not None:
                seats.expect_connection(self.kernel_manager, kernel_id, self.kernel_manager.log)

    def redirect_to_start(self) -> None:
        """To the start page (which gives the browser its seat), keeping the link's arguments."""
        from urllib.parse import urlencode
        kept = {k: self.get_argument(k) for k in ("token", "join", "player") if self.get_argument(k, "")}
        self.set_header("Cache-Control", "no-store")
        self.redirect(self.base_url + ("?" + urlencode(kept) if kept else ""))


class PlayHandler(AppHandler):
    """``/play`` in single-notebook mode: the notebook itself (voila's handler would redirect a path)."""

    @allow_unauthenticated  # refused in AppHandler.get
    async def get(self, path=None):
        await super().get(None)


class NoKernelListHandler(APIHandler):
    """``/api/kernels``: refused to everyone (voila needs no list, and a list would give away kernel ids)."""

    def _refuse(self, *args):
        raise web.HTTPError(403, _("The kernel list is not available on this server."))

    get = post = delete = put = patch = _refuse

    def check_xsrf_cookie(self):  # refused anyway, with or without the cookie
        return None


