"""The app's kernels: ipykernel, without the debugger no game page uses, and pandas only if something uses it.

    python -m widgets.server.app_kernel -f CONNECTION_FILE

Our servers start their kernels here (:class:`widgets.server.kernels.AppKernel`): a classroom runs a kernel per
student, so what every kernel loads and never uses is paid once per student. Measured on a kernel with the app
built (``scripts/classroom_load.py``, ``tests/test_app_kernel.py``):

- **debugpy** (about 60 modules, 8 MiB): ipykernel imports it whenever it is installed, for JupyterLab's
  debugger panel; a voila page has no such panel. It is marked absent, so ipykernel starts without its
  debugger (``ipykernel.debugger._is_debugpy_available``).
- **pandas** (about 300 modules, 30 MiB): bqplot imports it at its own import, for date axes, object arrays
  and the DataFrame traits of its MarketMap and Radar charts; our charts plot numbers only. Here ``pandas`` is
  a stand-in that imports the real package the moment anything reads from it (``pandas.DataFrame``,
  ``import pandas.api``...), so code that uses pandas in an app kernel still gets it, and bqplot's
  ``MarketMap`` and ``Radar`` (whose class bodies build DataFrames) are left out of ``bqplot``'s names.
"""
from __future__ import annotations

import importlib
import importlib.util
import sys
import types

#: What the kernel spec's command runs, and what our servers run instead.
IPYKERNEL = ("-m", "ipykernel_launcher")
APP_KERNEL = ("-m", "widgets.server.app_kernel")
#: bqplot's modules whose classes need pandas as they are defined: charts the app does not draw.
UNUSED_BQPLOT = ("bqplot.market_map", "bqplot.plotting_widgets")


def app_kernel_cmd(cmd: list[str]) -> list[str]:
    """The kernel spec's command with our launcher in place of ipykernel's; any other command as it is."""
    for i in range(len(cmd) - 1):
        if tuple(cmd[i:i + 2]) == IPYKERNEL:
            return [*cmd[:i], *APP_KERNEL, *cmd[i + 2:]]
    return list(cmd)


class DeferredModule(types.ModuleType):
    """Stands in ``sys.modules`` for a package not imported yet: ``import NAME`` binds it at no cost, and the
    first attribute read (``NAME.x``, ``from NAME import x``, a submodule's import, which reads ``__path__``)
    imports the real package, which from then on is in ``sys.modules`` and answers for the stand-in too."""

    def __getattr__(self, name: str):
        real = self.__dict__.get("_real")
        if real is None:
            if sys.modules.get(self.__name__) is self:
                del sys.modules[self.__name__]
            real = self.__dict__["_real"] = importlib.import_module(self.__name__)
        return getattr(real, name)


def defer(name: str) -> bool:
    """Put a stand-in for package ``name`` in ``sys.modules``; False if it is imported already or not installed."""
    if name in sys.modules:
        return False
    spec = importlib.util.find_spec(name)
    if spec is None:
        return False
    module = DeferredModule(name)
    module.__spec__ = spec  # the import system reads it on every "import NAME"; no __path__: a submodule loads it
    module.__file__, module.__loader__ = spec.origin, spec.loader  # read by whatever lists sys.modules (ipykernel)
    sys.modules[name] = module
    return True


def light_imports() -> None:
    """The kernel's imports as the app needs them (see the module's text)."""
    sys.modules["debugpy"] = None  # "import debugpy" now fails: ipykernel starts without its debugger
    if "bqplot" not in sys.modules and defer("pandas"):
        for name in UNUSED_BQPLOT:
            sys.modules[name] = types.ModuleType(name, "left out of the app's kernels: see widgets.server.app_kernel")


def main() -> None:
    if sys.path and sys.path[0] in ("", "."):
        del sys.path[0]  # as ipykernel_launcher: the server's folder is not the kernel's import path
    light_imports()
    from ipykernel import kernelapp
    kernelapp.launch_new_instance()


if __name__ == "__main__":
    main()
