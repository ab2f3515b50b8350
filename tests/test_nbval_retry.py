"""tests/nbval_retry.py (the notebooks' run loads it): a kernel that dies as it starts is started once more; one
that dies again, or fails otherwise, still fails."""
from __future__ import annotations

import pytest

nbval_kernel = pytest.importorskip("nbval.kernel")


class Starts:
    def __init__(self, *errors):
        self.errors, self.calls = list(errors), 0

    def __call__(self, *args, **kwargs):
        self.calls += 1
        if self.errors:
            raise self.errors.pop(0)
        return "manager", "client"


def test_a_kernel_that_dies_as_it_starts_is_started_once_more_and_only_once(monkeypatch, capsys):
    import nbval_retry
    assert nbval_kernel.start_new_kernel is nbval_retry.start_new_kernel  # what nbval's RunningKernel calls
    died = RuntimeError("Kernel died before replying to kernel_info")
    once = Starts(died)
    monkeypatch.setattr(nbval_retry, "_start_new_kernel", once)
    assert nbval_retry.start_new_kernel(startup_timeout=60) == ("manager", "client") and once.calls == 2
    assert "starting it once more" in capsys.readouterr().err
    twice = Starts(RuntimeError("Kernel died before replying to kernel_info"), died)
    monkeypatch.setattr(nbval_retry, "_start_new_kernel", twice)
    with pytest.raises(RuntimeError, match="died"):
        nbval_retry.start_new_kernel()
    assert twice.calls == 2
    other = Starts(RuntimeError("Kernel didn't respond in 60 seconds"))
    monkeypatch.setattr(nbval_retry, "_start_new_kernel", other)
    with pytest.raises(RuntimeError, match="respond"):
        nbval_retry.start_new_kernel()
    assert other.calls == 1  # not a death at start: no second try
