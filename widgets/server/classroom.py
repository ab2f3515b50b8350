"""The servers behind ``house-divided app`` and ``house-divided classroom``: voila's ``Voila`` application,
configured in code, with a few handlers of ours in front of voila's own.

Both modes:

- a token on every page and kernel API call (voila's token login: ``?token=`` in the first URL, then a
  login cookie). A request without it gets a 403 page that says where to get the link;
- XSRF stays on. voila's page asks the server to shut its kernel down on unload (a beacon carrying the
  ``_xsrf`` cookie), but voila never sets that cookie, so with XSRF on the request was refused and every
  page load leaked a kernel. Our page handler sets the cookie, so a closed page frees its kernel at once;
- kernels with no connection are culled after a short idle time (a crashed tab, a closed laptop, a page
  closed without its unload), voila's IOPub timeout is raised (under load its 4 s default drops a page's
  output: a blank page), and no kernel list is served (``/api/kernels`` is refused: with one shared
  token, a list of kernel ids would let one student shut another's game down).

The classroom adds: a cap on kernels (``--students``) with a "the class is full" page that retries by
itself; a "Starting your game…" page shown at once while the kernel starts; a teacher page behind a
second token, with the join URL and its QR code and the games being played; saving by download only
(the kernels see ``AHD_CLASSROOM=1``: the panel offers no server file at all).
"""
from __future__ import annotations

import hmac
import json
import os
import re
import secrets
import signal
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jupyter_server.auth.identity import PasswordIdentityProvider
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.utils import url_path_join
from jupyter_core.utils import ensure_async
from tornado import web
from tornado.iostream import StreamClosedError
from traitlets.config import Config

try:  # jupyter_server >= 2.13 refuses unauthenticated requests to any handler unless told otherwise
    from jupyter_server.auth.decorator import allow_unauthenticated
except ImportError:  # pragma: no cover - older servers do not check before the handler
    def allow_unauthenticated(method):
        return method
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from jupyter_server.services.kernels.handlers import KernelHandler

from widgets.model.i18n import _, loading_texts
from widgets.server.hardening import CSP, LogoutHandler, with_plain_errors
from widgets.server.kernel_socket import KernelModelHandler, KernelSocketHandler, ShutdownHandler
from widgets.server.seats import CONNECT_ENV, Seats, give_seat, seat_of
from widgets.server.paths import APPS, JUPYTER_DATA, NOTEBOOKS, TEMPLATE

#: voila's kernel routes and ours in their place (widgets/server/kernel_socket.py)
KERNEL_ROUTES = {VoilaKernelWebsocketHandler: KernelSocketHandler, KernelHandler: KernelModelHandler,
                 VoilaShutdownKernelHandler: ShutdownHandler}

#: Environment variables a launcher (tests, scripts) may use to fix the tokens instead of random ones.
#: They are removed from the server's environment at once, so kernels never see them.
TOKEN_ENV = "HOUSE_DIVIDED_TOKEN"
TEACHER_TOKEN_ENV = "HOUSE_DIVIDED_TEACHER_TOKEN"
#: Environment variable (seconds) shortening the culling, for tests: "IDLE" or "IDLE,INTERVAL".
CULL_ENV = "HOUSE_DIVIDED_CULL"


@dataclass
class ServeOptions:
    """Everything one server needs; see :func:`serve`."""

    mode: str = "app"                     # "app" (one person, loopback) or "classroom"
    host: str = "127.0.0.1"
    port: int = 8866
    students: int | None = None           # the kernel cap (classroom)
    token: str = ""
    teacher_token: str = ""
    cull_idle: int = 120                  # seconds without activity nor connection before a kernel is culled
    cull_interval: int = 15
    iopub_timeout: int = 60
    games_per_browser: int = 2            # classroom: games one browser may have at once (widgets/server/seats.py)
    connect_grace: int = 20               # classroom: seconds a new game's page has to connect to its kernel
    tree: bool = False                    # app mode: serve every notebook of notebooks/ (voila's tree page)
    data: Path | None = None              # classroom: the server's own files (kernel connection files)
    public_url: str = ""                  # classroom: the URL printed and put in the QR code (behind a proxy)
    certfile: Path | None = None          # HTTPS by jupyter_server itself (with keyfile)
    keyfile: Path | None = None
    games: Path | None = None             # app mode: the one folder the panel saves to and loads from
    new_token: bool = False               # classroom with data: make new tokens (ends every link and login)

    @property
    def tls(self) -> bool:
        """True if students reach the pages over HTTPS (our own certificate, or a proxy's public URL)."""
        return self.certfile is not None or self.public_url.lower().startswith("https://")


@dataclass
class ClassState:
    """What the handlers share: the options and the kernels being started right now."""

    options: ServeOptions
    starting: int = 0
    started_at: float = field(default_factory=time.time)
    joined: int = 0
    refused_full: int = 0
    seats: Seats | None = None            # classroom: the games of each browser

    def __post_init__(self):
        if self.options.mode == "classroom" and self.seats is None:
            self.seats = Seats(per_browser=self.options.games_per_browser, grace=self.options.connect_grace)

    def running(self, kernel_manager) -> int:
        return len(kernel_manager.list_kernel_ids())

    def full(self, kernel_manager) -> bool:
        cap = self.options.students
        return cap is not None and self.running(kernel_manager) + self.starting >= cap


# ------------------------------------------------------------------ pages (widgets/server/room_pages.py)
from widgets.server.room_pages import (STYLE, browser_full_page, full_page, no_token_page, page,  # noqa: E402,F401
                         starting_page, teacher_page, teacher_refused_page)


# ------------------------------------------------------------------ handlers
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
        state.starting += 1
        counted = True
        kernel_id = None
        try:
            async for html in self.get_generator(path=path):
                if counted:  # the kernel is up (voila yields nothing before): it counts as running now
                    state.starting -= 1
                    state.joined += 1
                    counted = False
                if kernel_id is None:
                    found = KERNEL_ID.search(html)
                    kernel_id = found.group(1) if found else None
                    if kernel_id and seat is not None:
                        seats.started(seat, kernel_id)
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
            if seat is not None:
                seats.starting[seat] -= 1
                if not seats.starting[seat]:
                    del seats.starting[seat]
            if self._gone and kernel_id and kernel_id in self.kernel_manager:
                self.log.info("The page went away while its game was starting: kernel %s shut down", kernel_id)
                await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))
            elif kernel_id and seats is not None:
                seats.expect_connection(self.kernel_manager, kernel_id, self.log)

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


class AhdVoila(Voila):
    """voila with our handlers in front of its own."""

    def init_handlers(self):
        handlers = []
        for handler in super().init_handlers():
            if handler[1] is TornadoVoilaHandler:
                handler = (handler[0], AppHandler, *handler[2:])
            elif handler[1] in KERNEL_ROUTES:  # kernel_socket.py: no hang, XSRF always, one browser's games
                handler = (handler[0], KERNEL_ROUTES[handler[1]], *handler[2:])
            handlers.append(handler)
        base = self.server_url
        ours = [(url_path_join(base, r"/api/kernels/?"), NoKernelListHandler),
                (url_path_join(base, r"/logout/?"), LogoutHandler)]
        if self.settings_state.options.mode == "classroom":
            from widgets.server.teacher import TeacherHandler, ProjectorHandler  # the teacher's pages, behind the teacher key
            ours += [(url_path_join(base, r"/teacher/?"), TeacherHandler),
                     (url_path_join(base, r"/teacher/join/?"), ProjectorHandler)]
            from widgets.classmates.teacher_games import handlers as game_handlers  # the stored games, read-only
            ours += [(url_path_join(base, path), handler, {"page": page}) for path, handler in game_handlers()]
        if self.notebook_path:
            voila_page = next(h for h in handlers if h[1] is AppHandler)
            ours += [(url_path_join(base, "/"), StartHandler),
                     (url_path_join(base, "/play"), PlayHandler, *voila_page[2:])]
        return [(route[0], with_plain_errors(route[1]), *route[2:]) for route in ours + handlers]

    ssl_context = None

    def listen(self):
        """voila's listen (which also runs the loop), with jupyter_server's kind of TLS (tornado's
        ``ssl_options``) when given."""
        if self.ssl_context is not None:
            plain, context = self.app.listen, self.ssl_context
            self.app.listen = lambda port, address="", **kwargs: plain(port, address, ssl_options=context, **kwargs)
        return super().listen()

    @property
    def settings_state(self) -> ClassState:
        return self.tornado_settings["ahd_state"]

    @property
    def display_url(self):  # voila logs "Voilà is running at: <this>": the URL to open, token included
        return self.tornado_settings["ahd_open_url"]


# ------------------------------------------------------------------ running
from widgets.server.room_net import lan_address, public_host, public_root, tls_context  # noqa: E402,F401


def _cull_override(options: ServeOptions) -> None:
    grace = os.environ.pop(CONNECT_ENV, "")
    if grace:
        options.connect_grace = int(grace)
    value = os.environ.pop(CULL_ENV, "")
    if value:
        parts = [int(x) for x in value.split(",")]
        options.cull_idle = parts[0]
        options.cull_interval = parts[1] if len(parts) > 1 else max(1, parts[0] // 3)


#: The class's tokens in the data folder (``--data``): the join link, its QR code, the personal links and the
#: logins outlive a restart between lessons; ``--new-token`` makes new ones.
TOKENS_FILE = "tokens.json"


def kept_tokens(options: ServeOptions) -> None:
    """Classroom with ``--data``: the tokens of the last run (``tokens.json``, private to the server's user),
    or new ones written there (the first run, or ``--new-token``). Tokens given explicitly (options, or the
    launchers' environment variables) are used as they are and not written."""
    if options.mode != "classroom" or options.data is None:
        return
    if options.token or os.environ.get(TOKEN_ENV):
        return
    path = options.data / TOKENS_FILE
    if path.exists() and not options.new_token:
        try:
            kept = json.loads(path.read_text(encoding="utf-8"))
            token, teacher = kept["token"], kept["teacher_token"]
            if not (isinstance(token, str) and isinstance(teacher, str) and len(token) >= 12 and len(teacher) >= 16):
                raise ValueError("tokens too short")
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ValueError(_("{path}: not a tokens file of this server ({problem}); remove it or start with "
                               "--new-token").format(path=path, problem=exc)) from None
        options.token, options.teacher_token = token, teacher
        return
    options.token, options.teacher_token = secrets.token_urlsafe(9), secrets.token_urlsafe(16)
    options.data.mkdir(parents=True, exist_ok=True)
    os.chmod(options.data, 0o700)
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        json.dump({"token": options.token, "teacher_token": options.teacher_token}, out)


def serve(options: ServeOptions) -> int:
    """Serve until Ctrl-C or SIGTERM (the kernels are shut down on the way out). Returns an exit code."""
    ssl_context = tls_context(options)  # before anything starts: a bad certificate is a clear error
    kept_tokens(options)
    options.token = options.token or os.environ.pop(TOKEN_ENV, "") or secrets.token_urlsafe(9)
    os.environ.pop(TOKEN_ENV, None)
    if options.mode == "classroom":
        options.teacher_token = (options.teacher_token or os.environ.pop(TEACHER_TOKEN_ENV, "")
                                 or secrets.token_urlsafe(16))
        if hmac.compare_digest(options.teacher_token, options.token):
            raise ValueError("the teacher token must differ from the students' token")
    os.environ.pop(TEACHER_TOKEN_ENV, None)
    _cull_override(options)
    # what the kernels see (they inherit this environment): the panel's file policy
    if options.mode == "classroom":
        os.environ["AHD_CLASSROOM"] = "1"
        os.environ.pop("AHD_GAMES_DIR", None)
    else:
        os.environ.pop("AHD_CLASSROOM", None)
        if options.games is not None:
            os.environ["AHD_GAMES_DIR"] = str(options.games)
    # the ahd template (voila's lab template without CDN stylesheets) is found through JUPYTER_PATH
    os.environ["JUPYTER_PATH"] = os.pathsep.join(p for p in (str(JUPYTER_DATA), os.environ.get("JUPYTER_PATH")) if p)

    data = options.data
    if data is None:
        data = Path(tempfile.mkdtemp(prefix="house-divided-"))
    data.mkdir(parents=True, exist_ok=True)
    os.chmod(data, 0o700)

    store = None
    voila_extra: dict[str, Any] = {}
    if options.mode == "classroom":  # Play a classmate: the game store of the data folder (widgets/classmates/store.py)
        from widgets.classmates.store import CLASS_URL_ENV, STORE_ENV, Store, StoreError, store_path
        try:
            store = Store(store_path(data), check=True)
        except StoreError as exc:
            raise ValueError(str(exc)) from None
        os.environ[STORE_ENV] = str(store.path)
        if options.data is not None:  # the login cookies outlive a restart: the pages reconnect by a reload
            secret_file = data / "cookie_secret"
            if not secret_file.exists():
                secret_file.write_bytes(secrets.token_bytes(32))
                os.chmod(secret_file, 0o600)
            # keyed by the token too: a new token (a restart with another class link) ends every login
            voila_extra["cookie_secret"] = hmac.new(secret_file.read_bytes(), options.token.encode(), "sha256").digest()
    else:
        os.environ.pop("AHD_STORE", None)
        os.environ.pop("AHD_CLASS_URL", None)

    state = ClassState(options)
    root = public_root(options)
    join_url = f"{root}?token={options.token}"  # the start page ("Starting your game…"), then /play
    if store is not None:
        os.environ[CLASS_URL_ENV] = join_url  # the kernels' join and personal links (students have this link)
    # one person on their own machine: straight to the app (voila's own page says "Starting your game…"
    # once the kernel is up, a second or two); the tree page with --tree
    open_url = join_url if options.mode == "classroom" or options.tree else f"{root}play?token={options.token}"
    voila_config: dict[str, Any] = {
        "ip": options.host, "port": options.port, "port_retries": 0, "open_browser": False,
        "token": options.token, "config_file_paths": [], "connection_dir_root": str(data),
        "identity_provider_class": AhdIdentityProvider, **voila_extra,
    }
    secure = options.tls  # cookies only over HTTPS when the pages are served over HTTPS
    cookie_flags = {"samesite": "Lax", **({"secure": True} if secure else {})}
    config = Config({
        "Voila": voila_config,
        "IdentityProvider": {"cookie_options": dict(cookie_flags), "secure_cookie": secure or None},
        "VoilaConfiguration": {"template": TEMPLATE, "show_tracebacks": False, "strip_sources": True,
                               "resources": {"ahd": loading_texts()},  # the loading page's words
                               **({} if options.tree else {"file_allowlist": []})},
        "VoilaExecutor": {"iopub_timeout": options.iopub_timeout},
        "MappingKernelManager": {"cull_idle_timeout": options.cull_idle, "cull_interval": options.cull_interval,
                                 "cull_connected": False, "cull_busy": False},
    })
    app = AhdVoila(config=config)
    # set on the app, not through the Config (which deep-copies its values: the store holds a lock)
    app.ssl_context = ssl_context
    app.tornado_settings = {"xsrf_cookie_kwargs": {"path": "/", **cookie_flags},
                            "headers": {"Content-Security-Policy": CSP},
                            "ahd_state": state, "ahd_join_url": join_url, "ahd_open_url": open_url,
                            "ahd_store": store}
    app.initialize([str(NOTEBOOKS if options.tree else APPS / "app.ipynb")])

    def banner() -> None:
        if options.mode == "classroom":
            import segno
            teacher = f"{root}teacher?key={options.teacher_token}"
            joins, teachers = _("Students join at:"), _("Teacher page:")
            width = max(len(joins), len(teachers)) + 1
            print("\n" + _("A House Divided — classroom server for up to {n} students.").format(n=options.students)
                  + f"\n\n  {joins:<{width}} {join_url}\n  {teachers:<{width}} {teacher}\n", flush=True)
            try:
                segno.make(join_url, error="m").terminal(compact=True)
            except UnicodeEncodeError:
                print("  " + _("(this terminal cannot show the QR code: the teacher page shows it)"))
            kept = (_("Games against a classmate (Play a classmate) are kept in {path}, and the links above (the "
                      "join link, its QR code, the personal links) in {folder}: they survive a restart with the "
                      "same --data; --new-token makes new links.").format(path=store.path, folder=options.data)
                    if options.data else
                    _("Games against a classmate (Play a classmate) are kept only while this server runs (give "
                      "--data DIR to keep them between lessons)."))
            print(f"\n  {kept}\n  " + _("Other games are saved by download to each student's computer.")
                  + "\n  " + _("Ctrl-C stops the server and ends every page.") + "\n", flush=True)
        else:
            print("\n" + _("A House Divided is running: open {url} in your browser (Ctrl-C stops it).").format(
                url=open_url), flush=True)
            if options.games is not None:
                print(_("Games saved from the panel go to {path}.").format(path=options.games), flush=True)
            print(flush=True)

    from tornado.ioloop import IOLoop
    IOLoop.current().add_callback(banner)  # runs once the server listens

    def interrupted(sig, frame) -> None:
        """Ctrl-C stops the server as SIGTERM does (voila's own handler), even where it was started in the
        background of a script, which leaves SIGINT ignored: Python would then never stop on Ctrl-C."""
        if getattr(app, "ioloop", None) is None:
            raise KeyboardInterrupt
        app._handle_signal_stop(sig, frame)

    signal.signal(signal.SIGINT, interrupted)
    try:
        app.start()
    finally:
        if options.data is None:
            import shutil
            shutil.rmtree(data, ignore_errors=True)
    return 0
