#!/usr/bin/env bash
# One entry point for people and CI.
#   ./run.sh app    set up (first run) and start the app
#   ./run.sh test   set up (first run) and run the whole test suite
# The first run creates .venv/ with python3.11 (or python3 >= 3.11) and installs the
# project with its dependencies from PyPI; later runs reuse it.
set -euo pipefail
cd "$(dirname "$0")"

pick_python() {
    for candidate in python3.11 python3 python; do
        if command -v "$candidate" >/dev/null 2>&1 &&
           "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
            echo "$candidate"; return 0
        fi
    done
    echo "error: Python 3.11 or newer is needed (python3.11 not found)" >&2
    return 1
}

setup() {
    local stamp=.venv/.installed-$(cat pyproject.toml | cksum | cut -d' ' -f1)
    if [ ! -x .venv/bin/python ]; then
        "$(pick_python)" -m venv .venv
    fi
    if [ ! -f "$stamp" ]; then
        echo "Setting up .venv (first run or changed dependencies; about a minute)..."
        if ! { .venv/bin/python -m pip install --upgrade pip &&
               .venv/bin/python -m pip install -e ".[app,test]"; } > .venv/install.log 2>&1; then
            cat .venv/install.log
            echo "error: installing the dependencies failed (log above, also in .venv/install.log)" >&2
            exit 1
        fi
        rm -f .venv/.installed-*
        touch "$stamp"
    fi
}

case "${1:-}" in
    app)
        setup
        shift
        exec .venv/bin/python -m ahd demo "$@"
        ;;
    test)
        setup
        shift
        exec .venv/bin/python -m pytest -n auto "$@"
        ;;
    *)
        echo "usage: ./run.sh app | ./run.sh test [pytest args]" >&2
        exit 2
        ;;
esac
