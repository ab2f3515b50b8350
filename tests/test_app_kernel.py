"""Our servers' kernels (widgets.server.app_kernel): ipykernel without its debugger, pandas only when used."""
from __future__ import annotations

import asyncio
import subprocess
import sys

from widgets.server.app_kernel import app_kernel_cmd
from widgets.server.kernels import AhdKernelManager, AppKernel

#: Run in an app kernel: build the app, play a little, then use pandas as a notebook would.
PROBE = """
import sys, widgets
app = widgets.play("1861", union="human", confederate="heuristic", seed=1)
app.session.click_box("harpers_ferry")
app.session.bot_half_turn()
print("debugger:", sorted(m for m in sys.modules if m.startswith(("debugpy", "_pydevd")) and sys.modules[m]))
print("pandas before use:", "pandas.core.frame" in sys.modules)
import pandas, pandas.api.types
from pandas import Series
print("pandas in use:", pandas.DataFrame({"a": [1, 2]})["a"].sum(), Series([4]).sum(),
      pandas.api.types.is_integer_dtype("int64"), "pandas.core.frame" in sys.modules)
"""


def test_the_kernel_spec_command_runs_our_launcher_and_any_other_command_is_left_alone():
    spec = ["/usr/bin/python3", "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    assert app_kernel_cmd(spec) == ["/usr/bin/python3", "-Xfrozen_modules=off", "-m", "widgets.server.app_kernel",
                                    "-f", "{connection_file}"]
    other = ["/opt/julia", "kernel.jl", "{connection_file}"]
    assert app_kernel_cmd(other) == other
    assert AhdKernelManager().kernel_manager_class == "widgets.server.kernels.AppKernel"


def test_an_app_kernel_builds_the_app_without_the_debugger_nor_pandas_and_gives_pandas_to_whoever_asks():
    async def run() -> tuple[dict, str]:
        km = AppKernel()
        await km.start_kernel()
        seen: list[str] = []
        try:
            assert "widgets.server.app_kernel" in km.format_kernel_cmd()
            client = km.client()
            client.start_channels()
            await client.wait_for_ready(timeout=60)
            reply = await client.execute_interactive(
                PROBE, timeout=120, output_hook=lambda msg: seen.append(msg["content"].get("text", "")))
            client.stop_channels()
            return reply["content"], "".join(seen)
        finally:
            await km.shutdown_kernel(now=True)

    content, printed = asyncio.run(run())
    assert content["status"] == "ok", content
    assert printed.splitlines() == ["debugger: []", "pandas before use: False", "pandas in use: 3 4 True True"]


def test_in_a_plain_python_the_app_loads_pandas_through_bqplot():
    """The other side of the test above: without the app kernel's launcher bqplot brings pandas (and so the
    measure of the app kernel is of the launcher, not of a bqplot that stopped importing it)."""
    out = subprocess.run([sys.executable, "-c", "import sys, bqplot; print('pandas.core.frame' in sys.modules)"],
                         capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "True", out.stderr


def test_app_kernels_talk_over_unix_sockets_beside_their_connection_file_where_the_path_allows(tmp_path):
    """A class's warm kernels start together: TCP ports found free could be taken before a kernel bound them."""
    short = AppKernel(connection_file=str(tmp_path / "kernel-1234.json"))
    assert short.transport == "ipc" and short.ip == str(tmp_path / "kernel-1234-ipc")
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    assert AppKernel(connection_file=str(deep / "kernel-1234.json")).transport == "tcp"  # too long for a socket
    assert AppKernel().transport == "tcp"  # no connection file: no folder of its own for the sockets
