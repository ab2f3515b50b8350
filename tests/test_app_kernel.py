"""Our servers' kernels (widgets.server.app_kernel): ipykernel without its debugger, a working kernel."""
from __future__ import annotations

import asyncio

from widgets.server.app_kernel import app_kernel_cmd
from widgets.server.kernels import AhdKernelManager, AppKernel


def test_the_kernel_spec_command_runs_our_launcher_and_any_other_command_is_left_alone():
    spec = ["/usr/bin/python3", "-Xfrozen_modules=off", "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    assert app_kernel_cmd(spec) == ["/usr/bin/python3", "-Xfrozen_modules=off", "-m", "widgets.server.app_kernel",
                                    "-f", "{connection_file}"]
    other = ["/opt/julia", "kernel.jl", "{connection_file}"]
    assert app_kernel_cmd(other) == other
    assert AhdKernelManager().kernel_manager_class == "widgets.server.kernels.AppKernel"


def test_a_kernel_of_our_servers_runs_code_without_loading_the_debugger():
    async def run() -> dict:
        km = AppKernel()
        await km.start_kernel()
        try:
            assert "widgets.server.app_kernel" in km.format_kernel_cmd()
            client = km.client()
            client.start_channels()
            await client.wait_for_ready(timeout=60)
            reply = await client.execute_interactive(
                "import sys; print(sorted(m for m in sys.modules if m.startswith(('debugpy', '_pydevd'))"
                " and sys.modules[m] is not None), 6 * 7)", timeout=60,
                output_hook=lambda msg: seen.append(msg["content"].get("text", "")))
            client.stop_channels()
            return reply["content"]
        finally:
            await km.shutdown_kernel(now=True)

    seen: list[str] = []
    content = asyncio.run(run())
    assert content["status"] == "ok"
    assert "".join(seen).strip() == "[] 42"
