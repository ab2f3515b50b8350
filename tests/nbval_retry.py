"""A pytest plugin for the notebooks' run of ``./run.sh test`` (``-p tests.nbval_retry``): nbval's kernel is started
once more when it dies before it answers.

jupyter_client chooses a kernel's TCP ports free, closes them, and the kernel binds them a moment later; another
process starting at the same time (the other worker's kernel, a notebook's playouts) can take one in between and
the kernel exits ("Kernel died before replying to kernel_info"; jupyter/jupyter_client issue 154). nbval then
fails every cell of that notebook. Seen once in a fresh clone (stop 52, notebooks/es/tutorials/02-movement.ipynb,
its 12 cells). A second start chooses new ports. A kernel that dies every time still fails: this retries a start
once, never a cell, and says so on stderr.
"""
from __future__ import annotations

import sys

import nbval.kernel

_start_new_kernel = nbval.kernel.start_new_kernel


def start_new_kernel(*args, **kwargs):
    try:
        return _start_new_kernel(*args, **kwargs)
    except RuntimeError as error:
        if "died" not in str(error):
            raise
        print(f"nbval_retry: the notebook's kernel died as it started ({error}); starting it once more",
              file=sys.stderr)
        return _start_new_kernel(*args, **kwargs)


nbval.kernel.start_new_kernel = start_new_kernel  # RunningKernel looks the name up in its module at each start
