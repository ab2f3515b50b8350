"""The teacher's page lists the running games even while the warm-kernel pool is filling: a kernel still starting
(jupyter_server cannot build its model before its first activity) is left out instead of failing the page (a 500
seen right after a restart: tests/test_classroom_restart.py)."""
from __future__ import annotations

from datetime import datetime, timezone

import pytest
from traitlets import HasTraits, Instance, TraitError

from widgets.server.teacher import running_games


class _Kernel(HasTraits):
    last_activity = Instance(datetime)  # as jupyter_server's kernels: None until the kernel has started


class _Manager:
    """The two calls of jupyter_server's MappingKernelManager the page uses, over real traitlets kernels."""

    def __init__(self, kernels):
        self.kernels = kernels

    def list_kernel_ids(self):
        return list(self.kernels)

    def kernel_model(self, kernel_id):
        kernel = self.kernels[kernel_id]  # KeyError: a kernel that ended meanwhile
        return {"id": kernel_id, "last_activity": kernel.last_activity.isoformat()}


def started() -> _Kernel:
    return _Kernel(last_activity=datetime(2026, 11, 28, 9, 0, tzinfo=timezone.utc))


def test_a_kernel_still_starting_is_left_out_and_the_others_are_listed():
    manager = _Manager({"a": started(), "warming": _Kernel(), "b": started()})
    with pytest.raises(TraitError):  # what jupyter_server's list_kernels() met: the page's 500
        manager.kernel_model("warming")
    assert [k["id"] for k in running_games(manager)] == ["a", "b"]
    assert [k["id"] for k in running_games(manager, shown={"b", "warming"})] == ["b"]
    assert running_games(_Manager({"warming": _Kernel()})) == []


def test_a_kernel_that_ends_while_the_page_is_built_is_left_out():
    class Ending(_Manager):
        def kernel_model(self, kernel_id):
            if kernel_id == "a":
                raise KeyError(kernel_id)
            return super().kernel_model(kernel_id)

    assert [k["id"] for k in running_games(Ending({"a": started(), "b": started()}))] == ["b"]
