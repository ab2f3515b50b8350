"""The project's own wheel, for a published folder that installs alone (widgets/authoring/publish.py).

house-divided is not on PyPI: a published folder carries the wheel of the house-divided that published it and
pins it by file. Where it comes from:

- a checkout (``pyproject.toml`` next to the packages): ``pip wheel --no-deps`` of a copy of the tree (the build
  leaves nothing in the checkout), without build isolation when setuptools >= 77 is at hand (else pip fetches
  it, as any build of the checkout does);
- an installed house-divided (from a wheel): the installed files listed in its ``RECORD``, packed again as a
  wheel (``.pyc`` files, the installer's own files and the console script left out: pip writes them again).

Either way once per process (several publications reuse it).
"""
from __future__ import annotations

import atexit
import base64
import csv
import hashlib
import io
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

DISTRIBUTION = "house-divided"
ROOT = Path(__file__).resolve().parents[2]
IGNORE = shutil.ignore_patterns(".venv*", ".git", "build", "dist", "*.egg-info", "__pycache__", "*.pyc",
                                ".pytest_cache", "node_modules", "artifacts", ".ipynb_checkpoints", "tests",
                                "notebooks", "docs", "scripts", "deploy")
_BUILT: dict[str, Path] = {}


def project_wheel() -> Path:
    """The wheel of this house-divided (built or packed once per process, in a temporary folder)."""
    if "wheel" not in _BUILT or not _BUILT["wheel"].is_file():
        folder = Path(tempfile.mkdtemp(prefix="house-divided-wheel-"))
        atexit.register(shutil.rmtree, folder, ignore_errors=True)  # the kernel's copy goes with the kernel
        checkout = ROOT / "pyproject.toml"
        if checkout.is_file() and f'name = "{DISTRIBUTION}"' in checkout.read_text(encoding="utf-8"):
            _BUILT["wheel"] = _build(folder)
        else:
            _BUILT["wheel"] = _repack(folder)
    return _BUILT["wheel"]


def _build(folder: Path) -> Path:
    source = folder / "src"
    shutil.copytree(ROOT, source, ignore=IGNORE, symlinks=True)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-input", "--disable-pip-version-check",
               "-w", str(folder)]
    try:  # a setuptools new enough for pyproject.toml (>= 77) at hand: no isolated build environment to download
        if int(metadata.version("setuptools").split(".")[0]) >= 77:
            command.append("--no-build-isolation")
    except (metadata.PackageNotFoundError, ValueError):
        pass
    done = subprocess.run(command + [str(source)], capture_output=True, text=True, timeout=600)
    shutil.rmtree(source, ignore_errors=True)
    if done.returncode != 0:
        raise OSError(f"pip wheel failed: {done.stderr.strip()[-800:]}")
    return next(folder.glob("house_divided-*.whl"))


def _hash(data: bytes) -> str:
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def _repack(folder: Path) -> Path:
    dist = metadata.distribution(DISTRIBUTION)
    version = dist.version
    info = f"house_divided-{version}.dist-info"
    data_dir = f"house_divided-{version}.data/data/"
    site = Path(dist.locate_file("")).resolve()
    prefix = Path(sysconfig.get_paths()["data"]).resolve()
    skip = {"INSTALLER", "REQUESTED", "direct_url.json", "RECORD"}
    wheel = folder / f"house_divided-{version}-py3-none-any.whl"
    record = io.StringIO()
    rows = csv.writer(record, lineterminator="\n")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as out:
        for entry in dist.files or ():
            path = Path(dist.locate_file(entry)).resolve()
            if path.suffix == ".pyc" or not path.is_file():
                continue
            if path.is_relative_to(site):
                name = path.relative_to(site).as_posix()
                if name.startswith(info + "/") and Path(name).name in skip:
                    continue
            elif path.is_relative_to(prefix / "share"):
                name = data_dir + path.relative_to(prefix).as_posix()  # the voila template (share/jupyter/...)
            else:
                continue  # the console script: pip makes it from entry_points.txt
            content = path.read_bytes()
            out.writestr(name, content)
            rows.writerow([name, _hash(content), len(content)])
        rows.writerow([f"{info}/RECORD", "", ""])
        out.writestr(f"{info}/RECORD", record.getvalue())
    return wheel
