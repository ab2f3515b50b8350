"""The kernels of our servers: warm kernels ready before a page asks, the games counted as they are, and a culler
that waits for a page to connect.

**Warm kernels** (classroom ``--warm N``): voila 0.5's preheat (``VoilaConfiguration.preheat_kernel``) keeps a
pool of kernels that have already run the app notebook, so a page that asks gets a built app at once. Two
things are ours:

- the pool never grows past the class: its size is ``min(warm, students - games being played)``, so a full
  class holds ``students`` kernels, not ``students + warm`` (:func:`pool_aware` wraps voila's
  ``fill_if_needed``; voila has no hook for it);
- the page's link arguments (a classmate's join code, a personal link: ``?join=``/``?player=``) reach a warm
  kernel through a private file of the data folder (:data:`HANDOFF_ENV`), written when the page takes the
  kernel; the app notebook waits for it (:func:`widgets.app.arrive`). voila's own way
  (``voila.utils.wait_for_request``) has the kernel open a websocket to ``/voila/query/<id>``, a route voila
  serves without any login (anyone who knows a kernel id could read another page's link) and over plain
  ``ws://`` only (it fails with ``--certfile``): that route is not served here;
- the pool heals itself: every :data:`KEEP_EVERY_S` seconds it is topped up to the free places, and a warm
  kernel whose start failed (a busy machine) is dropped at once, before a page could be given it (voila would
  await the failed start and show the student an error; with it gone the page gets a kernel started for it).
  Topping up only when a game ended gave a refill that failed no second chance until the next game ended (a gap
  found by reading voila's pool; the test failure first blamed on it was the test's own miscount, stop 53).

**Counting** (:meth:`AhdKernelManager.live_games`): a game is a kernel a page has taken, still running. Warm
kernels waiting in the pool are not games; a page whose kernel is starting counts once (``ClassState.starting``
until its kernel is known, then here), not twice as before ("The class is full – 4 of 12").

**The culler** never ends a kernel no page has connected to yet, for ``unconnected_grace`` seconds from the
moment a page took it (or its start): in the classroom such a kernel is ended by the connect grace instead
(``--connect-grace`` seconds after its page was sent, widgets/server/seats.py), and the culler only backs
that up after 10 minutes; elsewhere (``house-divided app``, a published folder) after the idle time plus the
connect grace. Under load a page may take
longer than the idle time between its kernel's start and its websocket: the culler used to end it first.

**Stopping** (:func:`end_stragglers`): a kernel whose start was under way when the server stopped (warm
kernels, Ctrl-C in the first seconds) is not known to the kernel manager yet, so voila's stop does not end it.
Its process lived on until it noticed its parent gone, and in between wrote its connection file again into the
data folder the server had just removed (a temporary ``house-divided-*`` folder left in /tmp at every early
Ctrl-C, stop 55). The server ends every process it started before it removes that folder.
"""
from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

from jupyter_core.utils import ensure_async
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from tornado import web
from traitlets import Bool, Int, Unicode, default

from .app_kernel import app_kernel_cmd

#: The folder (in the server's private data folder) where a warm kernel finds its page's link arguments.
HANDOFF_ENV = "AHD_HANDOFF"
#: voila's request URL given to a warm kernel when a page takes it (voila.utils.ENV_VARIABLE.VOILA_REQUEST_URL).
REQUEST_URL = "VOILA_REQUEST_URL"


class AppKernel(ServerKernelManager):
    """One kernel of our servers: the kernel spec's Python, started by :mod:`widgets.server.app_kernel` (no
    debugger: 8 MiB less a kernel).

    Its sockets are Unix sockets beside its connection file (``ipc``), not TCP ports: a class's warm kernels start
    together, and a TCP port the manager found free could be taken before the kernel bound it ("Address already
    in use": that student's page failed, 1 in 30 in ``scripts/class_start.py 30``). TCP where there are no Unix
    sockets, or where the folder's path is too long for one (108 bytes)."""

    @default("transport")
    def _ipc_where_possible(self) -> str:
        stem = os.path.splitext(self.connection_file)[0] if self.connection_file else ""
        return "ipc" if os.name == "posix" and stem and len(stem.encode()) + len("-ipc-65535") < 100 else "tcp"

    def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
        return app_kernel_cmd(super().format_kernel_cmd(extra_arguments))


class AhdKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager, knowing which kernels are games and which pages have connected."""

    @default("kernel_manager_class")
    def _app_kernels(self) -> str:
        return "widgets.server.kernels.AppKernel"

    warm = Int(0, config=True, help="Warm kernels to keep ready (voila's preheat pool), at most the free places.")
    cap = Int(0, config=True, help="Most games at once (0: no cap); the pool never holds more than the free places.")
    unconnected_grace = Int(120, config=True,
                            help="Seconds a kernel no page has connected to is left alone by the culler.")
    handoff_dir = Unicode("", config=True, help="Where a warm kernel finds its page's link arguments.")
    pages_claim = Bool(False, config=True,
                       help="Our servers' pages claim their kernels (the classroom's /play): a kernel no page ever took, "
                            "idle, is an orphan (its page went away before it learned the kernel's id) and is culled "
                            "as any idle kernel, with no grace. Warm kernels wait busy, so they are never culled.")

    def __init__(self, **kwargs):
        self.games: dict[str, float] = {}      # kernel id -> when a page took it
        self.connected: set[str] = set()       # kernels a page has connected to
        self.started_at: dict[str, float] = {}
        self.closing = False
        super().__init__(**kwargs)

    async def start_kernel(self, *args, **kwargs) -> str:
        kernel_id = await super().start_kernel(*args, **kwargs)
        self.started_at.setdefault(kernel_id, time.monotonic())
        return kernel_id

    def claim(self, kernel_id: str) -> None:
        """A page took ``kernel_id``: it is a game from now on, and its grace starts now."""
        if kernel_id not in self.games:
            self.games[kernel_id] = self.started_at[kernel_id] = time.monotonic()

    def connect(self, kernel_id: str) -> None:
        if kernel_id not in self.connected and kernel_id in self.games:
            self.log.info("A page connected to kernel %s %.1f s after it took it", kernel_id,
                          time.monotonic() - self.games[kernel_id])
        self.connected.add(kernel_id)

    def live_games(self) -> set[str]:
        alive = {k for k in self.games if k in self}
        for gone in set(self.games) - alive:
            del self.games[gone]
            self.connected.discard(gone)
            self.started_at.pop(gone, None)
        return alive

    async def cull_kernel_if_idle(self, kernel_id: str):
        if getattr(self, "_kernel_connections", {}).get(kernel_id, 0) > 0:
            self.connected.add(kernel_id)  # under a plain voila (a published folder) no handler of ours tells
        if self.pages_claim and kernel_id not in self.games and kernel_id not in self.connected:
            return await ensure_async(super().cull_kernel_if_idle(kernel_id))  # an orphan: no page will come
        if kernel_id not in self.connected:
            since = self.started_at.get(kernel_id)
            if since is not None and time.monotonic() - since < self.unconnected_grace:
                return None  # its page may still be on its way (a busy class): the connect grace decides
        return await ensure_async(super().cull_kernel_if_idle(kernel_id))

    async def shutdown_all(self, *args, **kwargs):
        self.closing = True  # no refill of the pool while the server stops
        try:
            return await ensure_async(super().shutdown_all(*args, **kwargs))
        except web.HTTPError:
            # a kernel still starting when the server stops (warm kernels, Ctrl-C at once) is not known yet to
            # jupyter_server's check: end the others one by one; voila then ends its pool's kernels as they come
            for kernel_id in list(self.list_kernel_ids()):
                try:
                    await ensure_async(self.shutdown_kernel(kernel_id, now=True))
                except (web.HTTPError, RuntimeError, KeyError):
                    pass
            return None

    async def shutdown_kernel(self, kernel_id: str, *args, **kwargs):
        result = await ensure_async(super().shutdown_kernel(kernel_id, *args, **kwargs))
        self.started_at.pop(kernel_id, None)
        if kernel_id in self.games:
            self.top_up()  # a place is free again: a warm kernel for it
            # games ending together (a class closing its pages) each see the others still ending: look again
            # once they are gone, so the pool is full for the next class
            asyncio.get_running_loop().call_later(REFILL_AGAIN_S, self.top_up)
        return result

    def top_up(self) -> None:
        """Fill voila's pool (when preheat is on) to the free places, first dropping warm kernels whose start
        failed (a busy machine): they would hold a place in the pool with no kernel behind it."""
        self.live_games()  # the games gone are forgotten first, pool or not
        refill = getattr(self, "fill_if_needed", None)
        if refill is None or self.closing:
            return
        self.drop_failed()
        refill(notebook_name=getattr(self, "notebook_path", None))

    def drop_failed(self) -> None:
        """Forget the warm kernels whose start failed: they hold a pool place with no kernel behind it."""
        for pool in getattr(self, "_pools", {}).values():
            failed = [task for task in pool if task.done() and (task.cancelled() or task.exception())]
            for task in failed:
                pool.remove(task)
                self.log.warning("A warm kernel failed to start (%s): dropped from the pool",
                                 "cancelled" if task.cancelled() else task.exception())

    def pool_room(self, taking: int = 0) -> int:
        """Warm kernels the pool may hold now."""
        if self.cap <= 0:
            return self.warm
        return max(0, min(self.warm, self.cap - len(self.live_games()) - taking))


#: seconds after a game ends when the pool is topped up once more
REFILL_AGAIN_S = 2.0
#: seconds between two top-ups of the pool, whatever happens (:func:`keep_pool`)
KEEP_EVERY_S = 5.0


def end_stragglers(timeout: float = 5.0) -> int:
    """End every process this one started that is still running (kernels whose start the kernel manager had not
    seen through): SIGTERM, then SIGKILL after ``timeout`` seconds. How many there were."""
    import psutil  # with ipykernel, which the app's kernels run (pyproject's app extra)
    children = psutil.Process().children(recursive=True)
    for child in children:
        try:
            child.terminate()
        except psutil.NoSuchProcess:
            pass
    _, alive = psutil.wait_procs(children, timeout=timeout)
    for child in alive:
        try:
            child.kill()
        except psutil.NoSuchProcess:
            pass
    psutil.wait_procs(alive, timeout=timeout)
    return len(children)


def write_handoff(folder: str, kernel_id: str, request_url: str) -> None:
    """The page's link arguments for the warm kernel ``kernel_id`` (written whole, then renamed: never half read)."""
    if not folder:
        return
    path = Path(folder) / f"{kernel_id}.json"
    part = path.with_suffix(".part")
    descriptor = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w", encoding="utf-8") as out:
        json.dump({"QUERY_STRING": urlsplit(request_url).query}, out)
    os.replace(part, path)


def has_pool(km) -> bool:
    """Whether ``km`` is ours with voila's pool of warm kernels (preheat on)."""
    return hasattr(km, "_pools") and isinstance(km, AhdKernelManager)


def pool_aware(km) -> None:
    """Make voila's pool (when preheat is on) stay within the free places and hand each warm kernel its
    page's link arguments. voila builds its kernel manager class itself (``voila_kernel_manager_factory``
    over ours), with no hook for either: its two methods are wrapped on the instance."""
    if not has_pool(km):
        return
    fill, take = km.fill_if_needed, km.get_rendered_notebook
    taking = [0]

    def fill_if_needed(*args, **kwargs):
        if km.closing:
            return None
        km.kernel_pools_config = {"default": {"pool_size": km.pool_room(taking[0]),
                                              "kernel_env_variables": km.default_env_variables}}
        return fill(*args, **kwargs)

    async def get_rendered_notebook(notebook_name, extra_kernel_env_variables=None, **kwargs):
        extra = dict(extra_kernel_env_variables or {})
        taking[0] += 1
        try:
            task, cache, kernel_id = await take(notebook_name, extra_kernel_env_variables=extra, **kwargs)
        finally:
            taking[0] -= 1
        km.claim(kernel_id)
        write_handoff(km.handoff_dir, kernel_id, extra.get(REQUEST_URL, ""))
        return task, cache, kernel_id

    def get_pool_size(notebook_name: str) -> int:
        km.drop_failed()  # voila's page handler asks this first: a failed start is not offered to a page
        return len(km._pools.get(notebook_name, ()))

    km.fill_if_needed = fill_if_needed
    km.get_rendered_notebook = get_rendered_notebook
    km.get_pool_size = get_pool_size


def keep_pool(km):
    """Top the pool up every :data:`KEEP_EVERY_S` seconds on the running loop (started by the classroom's
    ``listen``); returns the callback, or None when there is no pool (no warm kernels)."""
    if not has_pool(km):
        return None
    from tornado.ioloop import PeriodicCallback
    keeper = PeriodicCallback(km.top_up, KEEP_EVERY_S * 1000)
    keeper.start()
    return keeper
