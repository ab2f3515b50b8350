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
import socket
import tempfile
import time
from dataclasses import dataclass, field
from html import escape
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

from .i18n import _, _n, get_language, kernel_state, loading_texts
from .paths import APPS, JUPYTER_DATA, NOTEBOOKS, TEMPLATE

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
    tree: bool = False                    # app mode: serve every notebook of notebooks/ (voila's tree page)
    data: Path | None = None              # classroom: the server's own files (kernel connection files)
    games: Path | None = None             # app mode: the one folder the panel saves to and loads from


@dataclass
class ClassState:
    """What the handlers share: the options and the kernels being started right now."""

    options: ServeOptions
    starting: int = 0
    started_at: float = field(default_factory=time.time)
    joined: int = 0
    refused_full: int = 0

    def running(self, kernel_manager) -> int:
        return len(kernel_manager.list_kernel_ids())

    def full(self, kernel_manager) -> bool:
        cap = self.options.students
        return cap is not None and self.running(kernel_manager) + self.starting >= cap


# ------------------------------------------------------------------ pages
STYLE = """<style>
body { font-family: system-ui, sans-serif; margin: 0; background: #f5f3ee; color: #222; }
main { max-width: 42em; margin: 10vh auto; padding: 2em; background: #fff; border-radius: 8px;
       box-shadow: 0 1px 6px rgba(0,0,0,.15); font-size: 18px; line-height: 1.5; }
h1 { font-size: 28px; margin-top: 0; } code, .url { font-size: 16px; word-break: break-all; }
.spinner { width: 48px; height: 48px; border: 6px solid #d7d2c4; border-top-color: #1f4e9c;
           border-radius: 50%; animation: spin 1s linear infinite; margin: 1em 0; }
@keyframes spin { to { transform: rotate(360deg); } }
table { border-collapse: collapse; } td, th { padding: 2px 10px; text-align: left; border-bottom: 1px solid #ddd; }
</style>"""


def page(title: str, body: str, *, refresh: int | None = None) -> str:
    """A page of the server, in the server's language (``house-divided classroom --lang``: ``AHD_LANG``)."""
    meta = f'<meta http-equiv="refresh" content="{refresh}">' if refresh else ""
    return (f'<!DOCTYPE html><html lang="{get_language()}"><head><meta charset="utf-8"><title>{escape(title)}</title>'
            f'<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">'
            f'{meta}{STYLE}</head>'
            f"<body><main>{body}</main></body></html>")


def starting_page(play_url: str) -> str:
    """Shown at once; the browser keeps showing it while the next page (voila's) starts the kernel."""
    starting = _("Starting your game…")
    return page(_("{page} — A House Divided").format(page=starting), f"""
<h1 id="ahd-starting">{escape(starting)}</h1><div class="spinner" role="status" aria-label="{escape(_("starting"))}"></div>
<p>{escape(_("This takes a few seconds, up to a minute when the whole class starts at once. Please wait: "
             "reloading starts it all over again."))}</p>
<noscript><p><a href="{escape(play_url)}">{escape(_("Open your game"))}</a></p></noscript>
<script>window.addEventListener("load", function () {{
  window.setTimeout(function () {{ window.location.replace({json.dumps(play_url)}); }}, 0); }});</script>""")


def full_page(state: ClassState, running: int, retry_url: str) -> str:
    cap = state.options.students
    minutes = max(1, round((state.options.cull_idle + state.options.cull_interval) / 60))
    full = _("The class is full")
    playing = _n("{running} of {cap} game is being played on this server, the most it takes.",
                 "{running} of {cap} games are being played on this server, the most it takes.", cap or 0)
    frees = _n("A place frees up when someone closes their game (at the latest about {minutes} minute after a "
               "window is closed).",
               "A place frees up when someone closes their game (at the latest about {minutes} minutes after a "
               "window is closed).", minutes)
    # TRANSLATORS: {link} and {end} wrap "try again now" in a link
    retry = _("This page tries again by itself every {seconds} seconds, or {link}try again now{end}.")
    # TRANSLATORS: {option} is the command-line option --students (not translated)
    teacher = _("Teacher: start the server with a larger {option} if the machine has the memory for it.")
    return page(_("{page} — A House Divided").format(page=full), f"""
<h1 id="ahd-class-full">{escape(full)}</h1>
<p>{escape(playing.format(running=running, cap=cap))}</p>
<p>{escape(frees.format(minutes=minutes))} {escape(retry).format(seconds=20, link=f'<a href="{escape(retry_url)}">', end="</a>")}</p>
<p>{escape(teacher).format(option="<code>--students</code>")}</p>""",
                refresh=20)


def no_token_page(mode: str) -> str:
    # TRANSLATORS: {end} is "?token=…", the end of the link (not translated)
    who = (escape(_("Ask your teacher for the class link (it ends in {end}), or type the code below."))
           if mode == "classroom" else
           escape(_("Open the link that {command} printed (it ends in {end}), or type the token below.")).format(
               command="<code>house-divided app</code>", end="{end}")).format(end="<code>?token=…</code>")
    return page(_("A House Divided — link needed"), f"""
<h1 id="ahd-no-token">{escape(_("This game needs its link"))}</h1><p>{who}</p>
<form method="get" action="./"><label>{escape(_("Code:"))} <input name="token" autocomplete="off" size="24"></label>
<button type="submit">{escape(_("Join"))}</button></form>""")


def teacher_page(state: ClassState, join_url: str, kernels: list[dict[str, Any]]) -> str:
    import segno  # the app extra

    qr = segno.make(join_url, error="m").svg_inline(scale=6, title=_("QR code of the join link"))
    cap = state.options.students
    now = time.time()
    games = (_n("{n} game running", "{n} games running", len(kernels)) if cap is None else
             _n("{n} game running of at most {cap}", "{n} games running of at most {cap}", len(kernels)))
    games = escape(games).format(n=f"<b>{len(kernels)}</b>", cap=f"<b>{cap}</b>")
    minutes_ago = round((now - state.started_at) / 60)
    counts = (_n("{starting} starting; {joined} started since the server started {minutes} minute ago; ",
                 "{starting} starting; {joined} started since the server started {minutes} minutes ago; ", minutes_ago)
              + _n("{refused} time a student saw \"the class is full\".",
                   "{refused} times a student saw \"the class is full\".", state.refused_full)).format(
        starting=state.starting, joined=state.joined, minutes=minutes_ago, refused=state.refused_full)
    about = _("A game whose window was closed is ended after about {seconds} s without a connection. Games "
              "against a classmate (\"Play a classmate\") are kept in the server's game store (listed below); "
              "other games are saved by download to each student's own computer (\"Save to my computer\" in "
              "the panel) and opened again by upload, and stopping the server (Ctrl-C) ends them. This page "
              "refreshes every 10 seconds. Keep its link to yourself: it shows the class link.").format(
        seconds=state.options.cull_idle)
    heads = "".join(f"<th>{escape(h)}</th>" for h in ("#", _("state"), _("open pages"), _("last activity")))
    rows = "".join(
        f"<tr><td>{i}</td><td>{escape(kernel_state(k.get('execution_state', '')))}</td><td>{k.get('connections', 0)}</td>"
        f"<td>{escape(str(k.get('last_activity', ''))[:19].replace('T', ' '))} UTC</td></tr>"
        for i, k in enumerate(kernels, start=1))
    return page(_("Teacher — A House Divided classroom"), f"""
<h1>{escape(_("A House Divided — classroom"))}</h1>
<p>{escape(_("Students join at:"))}<br><a class="url" id="ahd-join-url" href="{escape(join_url)}">{escape(join_url)}</a></p>
{qr}
<p id="ahd-games">{games};
{escape(counts, quote=False)}</p>
<table><tr>{heads}</tr>{rows}</table>
<p>{escape(about, quote=False)}</p>""",
                refresh=10)


def teacher_refused_page() -> str:
    """The 403 page of the teacher's pages, without (or with a wrong) teacher key."""
    title = _("Teacher page")
    text = escape(_("This page needs the teacher link printed by {command} in its terminal.")).format(
        command="<code>house-divided classroom</code>")
    return page(_("{page} — A House Divided").format(page=title), f"<h1>{escape(title)}</h1><p>{text}</p>")


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
            if self._gone and kernel_id and kernel_id in self.kernel_manager:
                self.log.info("The page went away while its game was starting: kernel %s shut down", kernel_id)
                await ensure_async(self.kernel_manager.shutdown_kernel(kernel_id))


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


class TeacherHandler(_Ours, JupyterHandler):
    """``/teacher?key=…``: the join URL, its QR code and the games, behind the teacher's own token."""

    def check_xsrf_cookie(self):
        return None

    @allow_unauthenticated  # the teacher's own token is checked here
    async def get(self):
        given = self.get_argument("key", "")
        expected = self.state.options.teacher_token
        if not expected or not hmac.compare_digest(given.encode(), expected.encode()):
            self.set_status(403)
            self.finish(teacher_refused_page())
            return
        kernels = [dict(k) for k in self.kernel_manager.list_kernels()]
        self.set_header("Cache-Control", "no-store")
        html = teacher_page(self.state, self.settings["ahd_join_url"], kernels)
        store = self.settings.get("ahd_store")
        if store is not None:  # Play a classmate: the class's stored games (widgets/teacher_games.py)
            from .teacher_games import games_section
            html = html.replace("</main>", games_section(store, given) + "</main>")
        self.finish(html)


class AhdVoila(Voila):
    """voila with our handlers in front of its own."""

    def init_handlers(self):
        handlers = []
        for handler in super().init_handlers():
            if handler[1] is TornadoVoilaHandler:
                handler = (handler[0], AppHandler, *handler[2:])
            handlers.append(handler)
        base = self.server_url
        ours = [(url_path_join(base, r"/api/kernels/?"), NoKernelListHandler)]
        if self.settings_state.options.mode == "classroom":
            ours.append((url_path_join(base, r"/teacher/?"), TeacherHandler))
            from .teacher_games import handlers as game_handlers  # the stored games, read-only
            ours += [(url_path_join(base, path), handler, {"page": page}) for path, handler in game_handlers()]
        if self.notebook_path:
            voila_page = next(h for h in handlers if h[1] is AppHandler)
            ours += [(url_path_join(base, "/"), StartHandler),
                     (url_path_join(base, "/play"), PlayHandler, *voila_page[2:])]
        return ours + handlers

    @property
    def settings_state(self) -> ClassState:
        return self.tornado_settings["ahd_state"]

    @property
    def display_url(self):  # voila logs "Voilà is running at: <this>": the URL to open, token included
        return self.tornado_settings["ahd_open_url"]


# ------------------------------------------------------------------ running
def lan_address() -> str:
    """This machine's address on the local network (for the join URL when serving on every interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.255.255.255", 1))  # no packet is sent: this only picks the outgoing interface
            return s.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def public_host(host: str) -> str:
    return lan_address() if host in ("", "0.0.0.0", "::") else host


def _cull_override(options: ServeOptions) -> None:
    value = os.environ.pop(CULL_ENV, "")
    if value:
        parts = [int(x) for x in value.split(",")]
        options.cull_idle = parts[0]
        options.cull_interval = parts[1] if len(parts) > 1 else max(1, parts[0] // 3)


def serve(options: ServeOptions) -> int:
    """Serve until Ctrl-C or SIGTERM (the kernels are shut down on the way out). Returns an exit code."""
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
    if options.mode == "classroom":  # Play a classmate: the game store of the data folder (widgets/store.py)
        from .store import CLASS_URL_ENV, STORE_ENV, Store, StoreError, store_path
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
            voila_extra["cookie_secret"] = secret_file.read_bytes()
    else:
        os.environ.pop("AHD_STORE", None)
        os.environ.pop("AHD_CLASS_URL", None)

    state = ClassState(options)
    host = public_host(options.host)
    root = f"http://{host}:{options.port}/"
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
    config = Config({
        "Voila": voila_config,
        "VoilaConfiguration": {"template": TEMPLATE, "show_tracebacks": False, "strip_sources": True,
                               "resources": {"ahd": loading_texts()},  # the loading page's words
                               **({} if options.tree else {"file_allowlist": []})},
        "VoilaExecutor": {"iopub_timeout": options.iopub_timeout},
        "MappingKernelManager": {"cull_idle_timeout": options.cull_idle, "cull_interval": options.cull_interval,
                                 "cull_connected": False, "cull_busy": False},
    })
    app = AhdVoila(config=config)
    # set on the app, not through the Config (which deep-copies its values: the store holds a lock)
    app.tornado_settings = {"ahd_state": state, "ahd_join_url": join_url, "ahd_open_url": open_url,
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
            kept = (_("Games against a classmate (Play a classmate) are kept in {path}: they survive a restart "
                      "with the same --data.").format(path=store.path) if options.data else
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
    try:
        app.start()
    finally:
        if options.data is None:
            import shutil
            shutil.rmtree(data, ignore_errors=True)
    return 0
