"""Shared by the browser tests: Debian's Chromium (never ``playwright install``)."""
from __future__ import annotations

import os
import shutil

import pytest


def chromium() -> str:
    """The path of Debian's chromium; the test fails with what to install when it is missing."""
    path = shutil.which("chromium") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
    if path is None:
        pytest.fail("Debian's chromium is not installed (apt-get install chromium; ./run.sh test does it)")
    return path
