"""Warm kernels, the games counted, and the culler's grace (widgets/server/kernels.py), on 127.0.0.1.

- ``house-divided classroom --warm N`` keeps N kernels with the app built; a student's page takes one and is
  on screen at once; the pool never holds more than the free places; a warm kernel's page follows its link
  (a classmate's join code reaches the app that was built before the page came);
- warm kernels are not games, and a page whose kernel is starting counts once: the class of 3 is full at the
  4th student, with "3 of 3 games";
- the culler never ends a kernel whose page has not connected yet: with a 3 s idle cull, a page that has not
  connected keeps its kernel until the connect grace (here 12 s) ends it.
"""
from __future__ import annotations

import asyncio
import re
import time

import pytest

import serve
from serve import wait_for_kernels
from security_client import Browser

playwright = pytest.importorskip("playwright.sync_api")
from browser import chromium  # noqa: E402


def test_warm_kernels_open_the_app_at_once_follow_the_link_and_never_overfill_the_class(tmp_path):
    server = serve.start(mode="classroom", students=3, warm=2, data=tmp_path / "data", timeout=120)
    try:
        assert len(wait_for_kernels(server, 2, 120)) == 2  # the pool, before any student
        time.sleep(3)  # and their apps built (the kernels wait for a page in the notebook's last line)
        with playwright.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), args=serve.CHROMIUM_ARGS)
            pages = []

            def student(url: str):
                context = browser.new_context(viewport={"width": 1600, "height": 1200})
                page = context.new_page()
                page.route(re.compile(r"^(?!http://127\.0\.0\.1:%d/)(?!data:)" % server.port), lambda r: r.abort())
                seconds = serve.open_app(page, url)
                pages.append((context, page))
                return page, seconds

            # a classmate's join link: the code reaches the app the warm kernel built before the page came
            page1, first_s = student(server.join_url + "&join=ABCDEF")
            page1.get_by_text("Type your name and press").first.wait_for(state="attached", timeout=10_000)
            assert page1.locator("input[value='ABCDEF'], input").evaluate_all(
                "els => els.some(e => e.value === 'ABCDEF')")
            # one game, the pool refilled within the free places: 1 game + 2 warm
            assert len(wait_for_kernels(server, 3, 60)) == 3
            page1.mouse.click(*serve.box_on_screen(page1, "harpers_ferry"))
            page1.locator(serve.SELECTION_SELECTOR).first.wait_for(state="attached", timeout=30_000)

            student(server.join_url)
            time.sleep(2)
            assert len(server.kernel_pids()) == 3  # 2 games + 1 warm: never more than the class
            student(server.join_url)
            time.sleep(2)
            games = server.kernel_pids()
            assert len(games) == 3  # 3 games, no warm kernel: the class is full
            status, html = Browser(server.port).request("GET", f"/?token={server.token}")[:2]
            assert status == 503 and "3 of 3 games" in html
            for context, page in pages:
                page.unroute_all()
                page.goto("about:blank")
                context.close()
            browser.close()
        # the games ended by their pages' unload; the pool refills for the next students (2 new kernels, not 2
        # games still ending)
        assert len(wait_for_kernels(server, 2, 60, gone=games)) == 2
    finally:
        server.stop()
    print(f"\nFIGURES warm classroom: first page on screen in {first_s:.2f} s")


def test_the_culler_leaves_a_kernel_whose_page_has_not_connected_to_the_connect_grace():
    server = serve.start(mode="classroom", students=3, cull="3,1", connect=12)
    try:
        status, _, kernel = Browser(server.port).play(server.token)  # the page, and no websocket (yet)
        assert status == 200 and kernel
        sent = time.monotonic()
        time.sleep(8)  # idle far longer than the cull's 3 s: the culler used to end it here
        assert len(server.kernel_pids()) == 1
        assert wait_for_kernels(server, 0, 20) == []  # the connect grace ends it
        assert 10 <= time.monotonic() - sent <= 25
    finally:
        server.stop()


def test_the_kernel_manager_counts_games_and_spares_unconnected_kernels(tmp_path, monkeypatch):
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from widgets.server.kernels import AhdKernelManager, write_handoff

    culled = []

    async def cull(self, kernel_id):
        culled.append(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "cull_kernel_if_idle", cull)
    km = AhdKernelManager(connection_dir=str(tmp_path), unconnected_grace=60, warm=4, cap=5)
    km.started_at["young"] = time.monotonic()
    km.started_at["old"] = time.monotonic() - 61
    km.started_at["seen"] = time.monotonic()
    km.connect("seen")
    for kernel_id in ("young", "old", "seen", "unknown"):
        asyncio.run(km.cull_kernel_if_idle(kernel_id))
    assert culled == ["old", "seen", "unknown"]
    assert km.live_games() == set() and km.pool_room() == 4  # no kernel is running: no game
    write_handoff(str(tmp_path), "k1", "http://127.0.0.1:1/play?join=ABCDEF&player=")
    assert (tmp_path / "k1.json").read_text() == '{"QUERY_STRING": "join=ABCDEF&player="}'
    assert (tmp_path / "k1.json").stat().st_mode & 0o777 == 0o600


def test_the_pool_is_topped_up_again_after_games_end_together_and_drops_warm_kernels_that_failed(tmp_path,
                                                                                               monkeypatch):
    """A class closing its pages ends its games at once: each ending sees the others still there, so the pool is
    topped up once more after they are gone; a warm kernel whose start failed no longer holds a pool place."""
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    from widgets.server import kernels
    from widgets.server.kernels import AhdKernelManager

    async def shutdown(self, kernel_id, *args, **kwargs):
        return None

    monkeypatch.setattr(AsyncMappingKernelManager, "shutdown_kernel", shutdown)
    monkeypatch.setattr(kernels, "REFILL_AGAIN_S", 0.05)
    km = AhdKernelManager(connection_dir=str(tmp_path), warm=2, cap=3)
    fills = []
    km.fill_if_needed = lambda **kwargs: fills.append(sorted(len(p) for p in km._pools.values()))

    async def scenario():
        ok, failed = asyncio.get_running_loop().create_future(), asyncio.get_running_loop().create_future()
        ok.set_result({"kernel_id": "warm"})
        failed.set_exception(RuntimeError("kernel died on start"))
        km._pools = {"app.ipynb": [ok, failed]}
        km.games["g1"] = "page"
        await km.shutdown_kernel("g1")
        assert fills == [[1]]  # at once: the failed warm kernel dropped, then the pool filled
        await asyncio.sleep(0.2)
        assert fills == [[1], [1]]  # and once more after the others' endings
        km.closing = True
        km.top_up()
        assert len(fills) == 2  # never while the server stops

    asyncio.run(scenario())


def test_the_pool_heals_itself_without_a_game_ending_and_never_offers_a_failed_start(tmp_path, monkeypatch):
    """A warm kernel whose start failed is dropped when voila's page handler asks the pool's size (so the page gets
    a kernel started for it, not voila's error for the failed start), and the keeper tops the pool up on its own,
    every KEEP_EVERY_S seconds, with no game ending to trigger it."""
    from widgets.server import kernels
    from widgets.server.kernels import AhdKernelManager, keep_pool, pool_aware

    monkeypatch.setattr(kernels, "KEEP_EVERY_S", 0.05)
    km = AhdKernelManager(connection_dir=str(tmp_path), warm=2, cap=3)
    assert keep_pool(km) is None  # no warm kernels (voila's pool): nothing to keep
    fills = []

    async def scenario():
        loop = asyncio.get_running_loop()
        ok, failed = loop.create_future(), loop.create_future()
        ok.set_result({"kernel_id": "warm"})
        failed.set_exception(RuntimeError("kernel died on start"))
        km._pools = {"app.ipynb": [failed, ok]}
        km.fill_if_needed = lambda **kwargs: fills.append(km.kernel_pools_config["default"]["pool_size"])
        km.get_rendered_notebook = None  # voila's; not called here
        km.default_env_variables = {}
        pool_aware(km)
        assert km.get_pool_size("app.ipynb") == 1 and km._pools["app.ipynb"] == [ok]  # the failed start is gone
        keeper = keep_pool(km)
        try:
            await asyncio.sleep(0.3)
        finally:
            keeper.stop()
        assert len(fills) >= 3 and set(fills) == {2}  # topped up again and again, to the free places (3 - 0 games)
        km.closing = True
        before = len(fills)
        km.top_up()
        assert len(fills) == before  # never while the server stops

    asyncio.run(scenario())


def test_waiting_for_kernels_answers_with_the_kernels_it_counted(monkeypatch):
    """The helper the server tests wait with (serve.wait_for_kernels): kernels end and start while a class leaves,
    so it answers with the very list it counted (it used to look again, and once read 3 games ending -> 2 -> 1 as
    "1 warm kernel": stop 53's CI), and with ``gone`` it waits until those kernels are no longer among them."""
    monkeypatch.setattr(time, "sleep", lambda seconds: None)

    class Server:
        def __init__(self, *looks):
            self.looks = iter(looks)

        def kernel_pids(self):
            return next(self.looks)

    leaving = ([11, 12, 13], [11, 12], [11], [11, 21], [21, 22])
    assert wait_for_kernels(Server(*leaving), 2, 5) == [11, 12]
    assert wait_for_kernels(Server(*leaving), 2, 5, gone=[11, 12, 13]) == [21, 22]
    assert wait_for_kernels(Server([1], [], [2]), 0, 5) == []


def test_a_server_the_tests_had_to_kill_leaves_no_folder_behind():
    """serve.start gives each server its own TMPDIR: a server killed outright (stop's SIGKILL when it is slow to end)
    cannot remove its temporary data folder and kernel files itself, and stop removes them with that folder (a full
    run of stop 54's suite left one such folder in /tmp)."""
    import os
    import signal
    server = serve.start(mode="classroom", students=2)
    try:
        assert server.scratch is not None and any(server.scratch.glob("house-divided-*"))  # the server's data
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
        assert any(server.scratch.glob("house-divided-*"))  # nothing removed it: the server was killed
    finally:
        server.stop()
    assert not server.scratch.exists()
