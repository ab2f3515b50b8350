"""The lock (requirements/dev.txt, requirements/app.txt): what ./run.sh, CI and the wheel test install.

scripts/lock.sh makes it from pyproject.toml's ranges; these tests say it still fits them, that every pin
carries hashes, that the app lock is the dev lock's versions, and that the environment running the suite
is the lock (so a .venv that drifted, or a package installed past the lock, shows here).
"""
from __future__ import annotations

import re
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.markers import Marker
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PIN = re.compile(r"^(?P<name>[A-Za-z0-9_.\-\[\]]+)==(?P<version>[^\s;\\]+)\s*(?:;\s*(?P<marker>[^\\]+?))?\s*\\?$")


def read_lock(path: Path) -> list[tuple[str, str, Marker | None, list[str]]]:
    """(name, version, marker, hashes) of every pin in a lock file, in order."""
    pins: list[tuple[str, str, Marker | None, list[str]]] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        found = PIN.match(line)
        if found:
            marker = Marker(found["marker"]) if found["marker"] else None
            pins.append((canonicalize_name(found["name"]), found["version"], marker, []))
            continue
        hashed = re.match(r"^\s+--hash=(sha256:[0-9a-f]{64})\s*\\?$", line)
        assert hashed and pins, f"{path.name}: a line that is neither a pin nor a hash: {line!r}"
        pins[-1][3].append(hashed[1])
    return pins


def applying(pins, environment: dict | None = None) -> dict[str, str]:
    """name -> version of the pins whose marker holds here (or in ``environment``)."""
    return {name: version for name, version, marker, _ in pins
            if marker is None or marker.evaluate(environment)}


@pytest.fixture(scope="module")
def dev():
    return read_lock(ROOT / "requirements" / "dev.txt")


@pytest.fixture(scope="module")
def app():
    return read_lock(ROOT / "requirements" / "app.txt")


def wanted(*extras: str) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    found = [Requirement(r) for r in project["dependencies"]]
    for extra in extras:
        found += [Requirement(r) for r in project["optional-dependencies"][extra]]
    return found


def test_every_pin_has_hashes_and_appears_once_per_platform(dev, app):
    for pins in (dev, app):
        assert len(pins) > 20
        assert all(hashes for *_, hashes in pins), [name for name, _, _, hashes in pins if not hashes]
        for python in ("3.11.7", "3.12.3", "3.13.1"):
            for system in ("Linux", "Darwin", "Windows"):
                env = {"python_full_version": python, "python_version": python.rsplit(".", 1)[0],
                       "platform_system": system, "sys_platform": {"Linux": "linux", "Darwin": "darwin",
                                                                     "Windows": "win32"}[system]}
                names = [name for name, _, marker, _ in pins if marker is None or marker.evaluate(env)]
                assert len(names) == len(set(names)), (python, system, sorted(n for n in names if names.count(n) > 1))


@pytest.mark.parametrize("python", ["3.11.7", "3.13.1"])
def test_the_lock_satisfies_the_ranges_of_pyproject(dev, app, python):
    env = {"python_full_version": python, "python_version": python.rsplit(".", 1)[0]}
    for pins, extras in ((dev, ("app", "lab", "test")), (app, ("app",))):
        versions = applying(pins, env)
        for requirement in wanted(*extras):
            name = canonicalize_name(requirement.name)
            assert name in versions, f"{name} ({requirement}) is not in the lock: run scripts/lock.sh"
            assert requirement.specifier.contains(versions[name], prereleases=True), \
                f"the lock pins {name}=={versions[name]}, outside {requirement}: run scripts/lock.sh"


def test_the_app_lock_is_the_dev_locks_versions_and_holds_no_test_tools(dev, app):
    dev_versions = {(name, str(marker)): version for name, version, marker, _ in dev}
    for name, version, marker, _ in app:
        assert dev_versions.get((name, str(marker))) == version, f"{name}: app.txt {version}, dev.txt differs"
    names = {name for name, *_ in app}
    assert not names & {"pytest", "playwright", "jupyterlab", "nbval", "import-linter", "jupyterhub"}


def test_the_environment_running_the_suite_is_the_lock(dev):
    """./run.sh installs exactly the lock: every pin that applies here is installed at its version."""
    if sys.prefix == sys.base_prefix:
        pytest.skip("not in a virtual environment: ./run.sh test runs the suite in .venv, installed from the lock")
    wrong = []
    for name, version in applying(dev).items():
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            installed = None
        if installed != version:
            wrong.append(f"{name}: locked {version}, installed {installed}")
    assert not wrong, "the venv is not the lock (rm -rf .venv; ./run.sh test):\n" + "\n".join(wrong)
