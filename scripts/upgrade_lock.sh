#!/usr/bin/env bash
# Upgrading the lock, as one deliberate step:
#   1. scripts/lock.sh --upgrade: requirements/*.txt re-resolved to the newest releases (and the list of
#      what changed);
#   2. a fresh .venv from the new lock, and the whole suite (./run.sh test).
# Green: review `git diff requirements/` and commit it. Red: the failures name what broke; keep the lock
# that was there with `git checkout requirements/` (and `rm -rf .venv` so ./run.sh reinstalls it), or pin
# the offending package in pyproject.toml and run this again.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/lock.sh --upgrade
if git diff --quiet -- requirements/ 2>/dev/null; then
    echo "The lock is already at the newest releases; the suite still runs on a fresh .venv."
fi
rm -rf .venv
started=$(date +%s)
status=0
./run.sh test "$@" || status=$?
echo "upgrade_lock: the suite on the new lock took $(( $(date +%s) - started )) s and exited $status" \
     "($([ $status = 0 ] && echo 'green: commit requirements/' || echo 'red: see the failures above'))"
exit $status
