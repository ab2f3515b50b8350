"""A class on one machine: ``house-divided classroom`` on 127.0.0.1 and N headless-Chromium students.

    .venv/bin/python scripts/classroom_load.py 10 [--clicks 20] [--minutes 2] [--after 90] [--arrival 10]
                                              [--warm N] [--nice]

Each student has a browser of their own (Debian's chromium), arrives within the first few seconds, opens
the join URL (start page, then the app), then makes ``--clicks`` clicks on the map spread over
``--minutes`` (select Harper's Ferry, deselect it, ...: each one a round trip through the kernel and a
redraw), then leaves: the even-numbered students leave properly (about:blank, so the page's unload shuts
its kernel down), the odd-numbered ones close their whole browser without unload (as a crashed tab or a
closed laptop), which only the culler frees. The server runs with its default settings (as a teacher
would start it: cull after 50 s idle without a connection, checked every 10 s; ``--warm`` kernels ready, by
default as many as the class, ``--cap``), started before the class: the students arrive once the warm
kernels have built their apps (their CPU time stops growing), as they would a few minutes into a lesson.
``--nice``: the browsers run at nice 19, so that the server is measured as with students' own laptops.

Printed: pages rendered / blank, render time (join URL to the app on screen) median and max, click to
visible update in the browser (mousedown to the frame where the map shows the change) median and p95,
console errors, kernels and total RSS (server + kernels) during, and kernels 90 s after the last page
closed. A benchmark, not a test: it takes about N/2 + 4 minutes on 2 cores.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test harness (tests/serve.py)

from playwright.async_api import async_playwright  # noqa: E402

import serve  # noqa: E402

SELECTED = f"document.querySelector({json.dumps(serve.SELECTION_SELECTOR)}) !== null"
CULLED = "Culling '"  # the culler's log line for each kernel it ends
RECORD = "() => {{ if ({cond}) {{ window.__ahdT1 = performance.now(); return true; }} return false; }}"


def _proc_mib(path: str, key: str) -> float:
    """A field in kB of a /proc file (``VmRSS:`` of ``status``, ``Pss:`` of ``smaps_rollup``), in MiB; 0 if gone."""
    try:
        for line in Path(path).read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def pss_mib(pid: int) -> float:
    """Proportional set size: the kernel's private memory plus its share of pages mapped by several processes
    (the shared libraries of numpy, pandas...: with N kernels each counts 1/N of them): what a kernel costs
    the machine in a class, where RSS counts the shared pages once per kernel."""
    return _proc_mib(f"/proc/{pid}/smaps_rollup", "Pss:")


def rss_mib(pid: int) -> float:
    return _proc_mib(f"/proc/{pid}/status", "VmRSS:")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


async def box_on_screen(page, box_id: str) -> tuple[float, float]:
    """As serve.box_on_screen, for playwright's async API: a card being re-sent has no box for a moment."""
    card = page.locator(f'[data-box="{box_id}"]').first
    for _ in range(100):
        try:
            rect = await card.bounding_box()
        except Exception:  # detached while it is re-sent
            rect = None
        if rect:
            return serve.box_point(rect)
        await page.wait_for_timeout(100)
    raise AssertionError(f"the box {box_id!r} is not on the page")


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError, ValueError):
            pass
    return total


async def warmed(server, count: int, timeout: float = 600) -> float:
    """Wait until ``count`` warm kernels run and have built their apps (their CPU time stops growing)."""
    began = time.monotonic()
    while len(server.kernel_pids()) < count and time.monotonic() - began < timeout:
        await asyncio.sleep(1)
    before = cpu_seconds(server.kernel_pids())
    while time.monotonic() - began < timeout:
        await asyncio.sleep(3)
        now = cpu_seconds(server.kernel_pids())
        if now - before < 0.15 * max(1, count):
            break
        before = now
    return time.monotonic() - began


def browser_executable(nice: bool) -> str:
    if not nice:
        return "/usr/bin/chromium"
    wrapper = Path(tempfile.mkdtemp(prefix="classroom-load-")) / "chromium-nice"
    wrapper.write_text('#!/bin/sh\nexec nice -n 19 /usr/bin/chromium "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


async def student(p, index: int, server, args, results: dict, closed_at: list[float]) -> None:
    await asyncio.sleep(index * args.arrival / max(1, args.students))
    browser = await p.chromium.launch(executable_path=args.chromium, args=serve.CHROMIUM_ARGS)
    context = await browser.new_context(viewport={"width": 1600, "height": 1400})
    page = await context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"student {index} console: {m.text[:200]}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"student {index} page error: {str(e)[:200]}"))
    record = {"index": index, "rendered": False, "render_s": None, "clicks_ms": [], "failed_clicks": 0,
              "errors": errors}
    results[index] = record
    started = time.monotonic()
    try:
        await page.goto(server.join_url, wait_until="commit", timeout=args.render_timeout * 1000)
        timeout_ms = args.render_timeout * 1000
        await page.locator(".leaflet-container").first.wait_for(timeout=timeout_ms)
        await page.locator(".bqplot").first.wait_for(timeout=timeout_ms)
        await page.get_by_role("button", name="End movement (unused marches lapse)").wait_for(timeout=timeout_ms)
        await page.locator("[data-box]").first.wait_for(state="attached",
                                                                                 timeout=timeout_ms)
        record["render_s"] = time.monotonic() - started
        record["rendered"] = True
    except Exception as exc:  # a blank (or broken) page
        text, outputs, widgets = "", None, None
        try:
            text = (await page.inner_text("body"))[:120].replace("\n", " ")
            # did voila send the app's output (the server's part), and how far did the browser draw it?
            outputs, widgets = await page.evaluate(
                "[document.querySelectorAll('script[type=\"application/vnd.voila.cell-output+json\"]').length,"
                " document.querySelectorAll('.jupyter-widgets, .widget-box').length]")
        except Exception:
            pass
        record["blank"] = (f"{type(exc).__name__}: {str(exc).splitlines()[0][:100]} | cell outputs sent: {outputs}, "
                           f"widget elements drawn: {widgets} | page text: {text!r}")
    if record["rendered"]:
        await page.evaluate("document.addEventListener('mousedown', () => { window.__ahdT0 = performance.now(); }, true)")
        start = time.monotonic()
        spacing = args.minutes * 60 / args.clicks
        for n in range(args.clicks):
            await asyncio.sleep(max(0.0, start + n * spacing - time.monotonic()))
            want = SELECTED if n % 2 == 0 else f"!({SELECTED})"
            try:
                await page.evaluate("window.__ahdT1 = null")
                await page.mouse.click(*await box_on_screen(page, "harpers_ferry"))
                await page.wait_for_function(RECORD.format(cond=want), polling="raf", timeout=30_000)
                t0, t1 = await page.evaluate("[window.__ahdT0, window.__ahdT1]")
                record["clicks_ms"].append(t1 - t0)
            except Exception as exc:
                record["failed_clicks"] += 1
                errors.append(f"student {index} click {n}: {type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
    # leave: even students properly, odd ones by closing the whole browser without unload
    if index % 2 == 0:
        try:
            await page.goto("about:blank")
        except Exception:
            pass
        record["left"] = "properly"
    else:
        record["left"] = "browser closed without unload"
    await context.close()
    await browser.close()
    closed_at.append(time.monotonic())


async def monitor(server, samples: list[tuple[float, int, float, float, float]], stop: asyncio.Event) -> None:
    while not stop.is_set():
        kernels = server.kernel_pids()
        kernel_rss = sum(rss_mib(pid) for pid in kernels)
        samples.append((time.monotonic(), len(kernels), rss_mib(server.process.pid), kernel_rss,
                        sum(pss_mib(pid) for pid in kernels)))
        try:
            await asyncio.wait_for(stop.wait(), 2)
        except asyncio.TimeoutError:
            pass


async def run(args) -> int:
    log = Path(tempfile.mkdtemp(prefix="classroom-load-")) / "server.log"
    warm = args.cap if args.warm is None else args.warm
    server = serve.start(mode="classroom", students=args.cap, log=log, timeout=120, warm=warm)
    args.chromium = browser_executable(args.nice)
    warm_s = await warmed(server, warm) if warm else 0.0
    load_before = os.getloadavg()
    samples: list[tuple[float, int, float, float, float]] = []
    stop = asyncio.Event()
    results: dict[int, dict] = {}
    closed_at: list[float] = []
    began = time.monotonic()
    try:
        watcher = asyncio.create_task(monitor(server, samples, stop))
        async with async_playwright() as p:
            await asyncio.gather(*(student(p, i, server, args, results, closed_at) for i in range(args.students)))
        last_closed = max(closed_at)
        zero_at = None
        while time.monotonic() < last_closed + args.after:
            if zero_at is None and len(server.kernel_pids()) <= warm:  # the games ended: the warm pool is left
                zero_at = time.monotonic() - last_closed
            await asyncio.sleep(1)
        kernels_after = len(server.kernel_pids())
        if zero_at is None and kernels_after <= warm:
            zero_at = args.after
        stop.set()
        await watcher
    finally:
        server.stop()
    during = [s for s in samples if s[0] <= last_closed]
    rendered = [r for r in results.values() if r["rendered"]]
    renders = [r["render_s"] for r in rendered]
    clicks = [c for r in results.values() for c in r["clicks_ms"]]
    errors = [e for r in results.values() for e in r["errors"]]
    console = [e for e in errors if " console: " in e or " page error: " in e]
    log_text = log.read_text(errors="replace")
    print(f"\nclassroom_load: {args.students} students arriving over {args.arrival:g} s, {args.clicks} clicks each "
          f"over {args.minutes} min, cap {args.cap}, warm {warm} (ready after {warm_s:.0f} s), browsers "
          f"{'at nice 19' if args.nice else 'plain'}, wall time {time.monotonic() - began:.0f} s")
    print(f"load average when the students came: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; "
          f"at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"machine: {os.cpu_count()} cores; " + subprocess.run(["free", "-h"], capture_output=True, text=True)
          .stdout.splitlines()[1].split(None, 1)[1] + " (total used free shared buff/cache available)")
    print(f"pages rendered: {len(rendered)} / {args.students}; blank: {args.students - len(rendered)}")
    for r in results.values():
        if not r["rendered"]:
            print(f"  student {r['index']} blank: {r.get('blank')}")
    if renders:
        print(f"render time (join URL to the app on screen): median {statistics.median(renders):.1f} s, "
              f"p95 {percentile(renders, 0.95):.1f} s, max {max(renders):.1f} s, min {min(renders):.1f} s")
    if clicks:
        print(f"click to visible update (in the browser): median {statistics.median(clicks):.0f} ms, "
              f"p95 {percentile(clicks, 0.95):.0f} ms, max {max(clicks):.0f} ms ({len(clicks)} clicks, "
              f"{sum(r['failed_clicks'] for r in results.values())} failed)")
    print(f"console errors: {len(console)}")
    kinds: dict[str, int] = {}
    for line in console:
        kind = line.split(": ", 1)[1]
        kinds[kind] = kinds.get(kind, 0) + 1
    for kind, count in sorted(kinds.items(), key=lambda item: -item[1])[:10]:
        print(f"  {count} x {kind}")
    for line in [e for e in errors if e not in console][:10]:
        print("  " + line)
    if during:
        peak = max(during, key=lambda s: s[2] + s[3])
        print(f"kernels during: max {max(s[1] for s in during)}; total RSS (server + kernels): max "
              f"{max(s[2] + s[3] for s in during):.0f} MiB (server {peak[2]:.0f} MiB + {peak[1]} kernels "
              f"{peak[3]:.0f} MiB at that moment; per kernel {peak[3] / max(1, peak[1]):.0f} MiB)")
        print(f"per kernel at that moment: RSS {peak[3] / max(1, peak[1]):.0f} MiB, PSS {peak[4] / max(1, peak[1]):.0f} "
              f"MiB (PSS shares the pages the kernels map in common: a kernel's cost to the machine)")
    print(f"kernels {args.after} s after the last page closed: {kernels_after} (warm pool: {warm})"
          + (f" (no game left {zero_at:.0f} s after)" if zero_at is not None else ""))
    import re
    waits = [float(x) for x in re.findall(r"A page connected to kernel \S+ ([0-9.]+) s after it took it", log_text)]
    if waits:
        print(f"page taken to websocket connected (server side): median {statistics.median(waits):.1f} s, "
              f"max {max(waits):.1f} s; {log_text.count('No page connected to kernel')} kernels ended by the "
              f"connect grace; warm kernels used: {log_text.count('Using pre-heated kernel')}")
    print(f"server log: {log} ({log_text.count('Timeout waiting for IOPub')} IOPub timeouts, "
          f"{log_text.count(CULLED)} kernels culled, "
          f"{log_text.count('Kernel shutdown:')} kernels shut down in all)")
    return 0 if len(rendered) == args.students and kernels_after <= warm else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("students", type=int, nargs="?", default=10)
    parser.add_argument("--clicks", type=int, default=20)
    parser.add_argument("--minutes", type=float, default=2.0)
    parser.add_argument("--after", type=int, default=90, help="seconds to wait after the last page closed")
    parser.add_argument("--arrival", type=float, default=3.0, help="seconds over which the students arrive")
    parser.add_argument("--cap", type=int, default=30, help="the server's --students (default 30, as a class)")
    parser.add_argument("--warm", type=int, default=None, help="the server's --warm (default: --cap)")
    parser.add_argument("--nice", action="store_true", help="the browsers at nice 19")
    parser.add_argument("--render-timeout", type=int, default=600,
                        help="seconds before a page counts as not rendered (default 600)")
    args = parser.parse_args()
    return asyncio.run(run(args))


if __name__ == "__main__":
    sys.exit(main())
