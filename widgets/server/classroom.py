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
(the kernels see ``AHD_CLASSROOM=1``: the panel offers no server file at all); warm kernels, ready before a
page asks (``--warm``, widgets/server/kernels.py).

The parts: the options and the tokens (options.py), our pages' handlers (room_handlers.py), the pages'
HTML (room_pages.py), the kernel routes (kernel_socket.py), the seats (seats.py), the kernels (kernels.py).
"""
from __future__ import annotations

import hmac
import os
import secrets
import shutil
import signal
import tempfile
from pathlib import Path
from typing import Any

from jupyter_server.utils import url_path_join
from traitlets.config import Config
from voila.app import Voila
from voila.request_info_handler import RequestInfoSocketHandler
from voila.tornado.handler import TornadoVoilaHandler
from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from jupyter_server.services.kernels.handlers import KernelHandler
from tornado.web import GZipContentEncoding

from widgets.model.i18n import _, loading_texts
from widgets.server.hardening import CSP, LogoutHandler, with_plain_errors
from widgets.server.kernel_socket import KernelModelHandler, KernelSocketHandler, ShutdownHandler
from widgets.server.kernels import HANDOFF_ENV, end_stragglers, keep_pool, pool_aware
from widgets.server.options import (CULL_ENV, TEACHER_TOKEN_ENV, TOKEN_ENV, TOKENS_FILE, ClassState,  # noqa: F401
                                    ServeOptions, _cull_override, kept_tokens)
from widgets.server.paths import APPS, JUPYTER_DATA, NOTEBOOKS, TEMPLATE
from widgets.server.room_handlers import (AhdIdentityProvider, AppHandler, NoKernelListHandler,  # noqa: F401
                                          PlayHandler, StartHandler)
from widgets.server.room_pages import (STYLE, browser_full_page, full_page, no_token_page, page,  # noqa: F401
                                       starting_page, teacher_page, teacher_refused_page)

#: voila's kernel routes and ours in their place (widgets/server/kernel_socket.py)
KERNEL_ROUTES = {VoilaKernelWebsocketHandler: KernelSocketHandler, KernelHandler: KernelModelHandler,
                 VoilaShutdownKernelHandler: ShutdownHandler}



class QuickGZip(GZipContentEncoding):
    """tornado's gzip at level 1 (a page's 7.2 MB: 2.4 MB; level 6, tornado's own: 2.1 MB), the cheapest level, as
    every page is compressed again when it is sent (a class is 30 pages in a minute)."""

    GZIP_LEVEL = 1


class AhdVoila(Voila):
    """voila with our handlers in front of its own."""

    def init_handlers(self):
        handlers = []
        for handler in super().init_handlers():
            if handler[1] is TornadoVoilaHandler:
                handler = (handler[0], AppHandler, *handler[2:])
            elif handler[1] in KERNEL_ROUTES:  # kernel_socket.py: no hang, XSRF always, one browser's games
                handler = (handler[0], KERNEL_ROUTES[handler[1]], *handler[2:])
            if handler[1] is RequestInfoSocketHandler:
                continue  # voila's request info for warm kernels: no login at all; ours is a private file (kernels.py)
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

    def init_settings(self):
        settings = super().init_settings()  # makes voila's kernel manager (with its pool, warm kernels on)
        pool_aware(self.kernel_manager)
        # gzip: a page's 7 MB of scripts and styles cross a school's network as about 2 MB (a keyword of the
        # application voila makes from these settings; its tornado_settings come too late for it)
        settings["transforms"] = [QuickGZip]
        # and the kernel's websocket deflated (permessage-deflate): the app's first state is 650 KiB of JSON
        settings["websocket_compression_options"] = {"compression_level": 1}
        return settings

    def listen(self):
        """voila's listen (which also runs the loop), with jupyter_server's kind of TLS (tornado's
        ``ssl_options``) when given."""
        if self.ssl_context is not None:
            plain, context = self.app.listen, self.ssl_context
            self.app.listen = lambda port, address="", **kwargs: plain(port, address, ssl_options=context, **kwargs)
        self.pool_keeper = keep_pool(self.kernel_manager)  # the warm pool topped up on the loop listen runs
        return super().listen()

    def stop(self):
        """voila's stop (it removes the connection files' folder, then ends the kernels it knows), then the
        kernels whose start was still under way (widgets/server/kernels.py, "Stopping") and the connection
        files they wrote meanwhile."""
        try:
            super().stop()
        finally:
            if end_stragglers():
                shutil.rmtree(self.connection_dir, ignore_errors=True)

    @property
    def settings_state(self) -> ClassState:
        return self.tornado_settings["ahd_state"]

    @property
    def display_url(self):  # voila logs "Voilà is running at: <this>": the URL to open, token included
        return self.tornado_settings["ahd_open_url"]


# ------------------------------------------------------------------ running
from widgets.server.room_net import lan_address, public_host, public_root, tls_context  # noqa: E402,F401


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

    # warm kernels (classroom, one app notebook): they find their page's link arguments in a private folder
    warm = options.warm if options.mode == "classroom" and not options.tree else 0
    handoff = data / "pages"
    if warm:
        handoff.mkdir(mode=0o700, exist_ok=True)
        os.environ[HANDOFF_ENV] = str(handoff)
    else:
        os.environ.pop(HANDOFF_ENV, None)

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
                               "multi_kernel_manager_class": "widgets.server.kernels.AhdKernelManager",
                               # warm kernels: voila's pool, kept within the free places (widgets/server/kernels.py)
                               "preheat_kernel": warm > 0, "default_pool_size": warm,
                               **({} if options.tree else {"file_allowlist": []})},
        "VoilaExecutor": {"iopub_timeout": options.iopub_timeout},
        "MappingKernelManager": {"cull_idle_timeout": options.cull_idle, "cull_interval": options.cull_interval,
                                 "cull_connected": False, "cull_busy": False},
        # a kernel no page has connected to yet is not culled before this (its page may be slow to come: the
        # connect grace of the classroom decides); warm kernels wait in the pool, never culled (voila)
        "AhdKernelManager": {"warm": warm, "cap": options.students or 0, "handoff_dir": str(handoff),
                             "pages_claim": options.mode == "classroom",
                             # classroom: the seat's check decides (--connect-grace from the page's end); the culler
                             # only backs it up, late (a starved browser took 100-160 s: docs/publishing.md)
                             "unconnected_grace": (max(600, options.cull_idle + options.connect_grace)
                                                   if options.mode == "classroom"
                                                   else options.cull_idle + options.connect_grace)},
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
            shutil.rmtree(data, ignore_errors=True)
    return 0
