#!/usr/bin/env bash
# The lock: every package ./run.sh installs, pinned with its hashes, resolved from pyproject.toml's ranges.
#
#   scripts/lock.sh             after changing pyproject.toml: re-resolve, keeping every pin that still fits
#   scripts/lock.sh --upgrade   re-resolve to the newest releases pyproject.toml allows
#                               (scripts/upgrade_lock.sh does this and then runs the suite on a fresh .venv)
#
# It writes requirements/dev.txt (the app, JupyterLab and the test tools: what ./run.sh installs) and
# requirements/app.txt (the app alone, at the same versions: the wheel test installs it), prints the
# packages whose pins changed, and changes nothing else. The lock is universal (one file for Linux, macOS
# and Windows, Python 3.11 and newer). The resolver is uv at the version below, kept in .venv-lock/.
set -euo pipefail
cd "$(dirname "$0")/.."

UV_VERSION=0.13.9
upgrade=()
case "${1:-}" in
    "") ;;
    --upgrade) upgrade=(--upgrade) ;;
    *) echo "usage: scripts/lock.sh [--upgrade]" >&2; exit 2 ;;
esac

python=python3
command -v python3.11 >/dev/null 2>&1 && python=python3.11
if [ ! -x .venv-lock/bin/uv ] || [ "$(.venv-lock/bin/uv --version | cut -d' ' -f2)" != "$UV_VERSION" ]; then
    "$python" -m venv .venv-lock
    .venv-lock/bin/python -m pip install --quiet --disable-pip-version-check "uv==$UV_VERSION"
fi

mkdir -p requirements
before=$(mktemp)
trap 'rm -f "$before"' EXIT
cat requirements/dev.txt > "$before" 2>/dev/null || true
common=(--universal --generate-hashes --python-version 3.11 --quiet)
# uv keeps the pins already in the output file unless --upgrade
.venv-lock/bin/uv pip compile pyproject.toml --extra app --extra lab --extra test "${common[@]}" \
    ${upgrade[@]+"${upgrade[@]}"} -o requirements/dev.txt
rm -f requirements/app.txt  # always resolved anew, within the versions of dev.txt
.venv-lock/bin/uv pip compile pyproject.toml --extra app "${common[@]}" -c requirements/dev.txt -o requirements/app.txt

"$python" - "$before" requirements/dev.txt <<'PY'
import re, sys
def pins(path):
    found = {}
    for name, version in re.findall(r"^([A-Za-z0-9_.-]+)==([^ ;\\\n]+)", open(path).read(), re.M):
        found.setdefault(name.lower(), set()).add(version)
    return found
old, new = pins(sys.argv[1]), pins(sys.argv[2])
changed = [f"  {n}: {', '.join(sorted(old.get(n, {'-'})))} -> {', '.join(sorted(new.get(n, {'-'})))}"
           for n in sorted(set(old) | set(new)) if old.get(n) != new.get(n)]
print(f"requirements/dev.txt: {len(new)} packages, {len(changed)} changed")
print("\n".join(changed))
PY
