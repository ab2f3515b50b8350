"""The app's kernels: ipykernel, without the debugger that no game page ever uses.

    python -m widgets.server.app_kernel -f CONNECTION_FILE

ipykernel imports debugpy (pydevd: about 60 modules, 8 MiB of every kernel) whenever it is installed, for
JupyterLab's debugger panel. A voila page has no such panel, and a classroom runs a kernel per student, so our
servers start their kernels here (:class:`widgets.server.kernels.AppKernel`): the same kernel, with debugpy
marked absent, so ipykernel starts without its debugger (``ipykernel.debugger._is_debugpy_available``).
"""
from __future__ import annotations

import sys

#: What the kernel spec's command runs, and what our servers run instead.
IPYKERNEL = ("-m", "ipykernel_launcher")
APP_KERNEL = ("-m", "widgets.server.app_kernel")


def app_kernel_cmd(cmd: list[str]) -> list[str]:
    """The kernel spec's command with our launcher in place of ipykernel's; any other command as it is."""
    for i in range(len(cmd) - 1):
        if tuple(cmd[i:i + 2]) == IPYKERNEL:
            return [*cmd[:i], *APP_KERNEL, *cmd[i + 2:]]
    return list(cmd)


def main() -> None:
    if sys.path and sys.path[0] in ("", "."):
        del sys.path[0]  # as ipykernel_launcher: the server's folder is not the kernel's import path
    sys.modules["debugpy"] = None  # "import debugpy" now fails: ipykernel starts without its debugger
    from ipykernel import kernelapp
    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
