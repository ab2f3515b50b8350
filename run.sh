#!/usr/bin/env bash
# One entry point for people and CI.
#   ./run.sh app    set up (first run) and start the app (house-divided app: voila on 127.0.0.1:8866,
#                   open the URL with the token it prints)
#   ./run.sh test   set up (first run) and run the whole test suite
# The first run creates .venv/ with python3.11 (or python3 >= 3.11) and installs the locked
# dependencies (requirements/dev.txt) from PyPI, then the project; later runs reuse it.
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
    # Installs exactly requirements/dev.txt (the lock: every package pinned with its hashes), then the
    # project itself without resolving anything. Upgrading the lock is one deliberate step:
    # scripts/upgrade_lock.sh (see the README).
    local stamp=.venv/.installed-$(cat requirements/dev.txt pyproject.toml | cksum | cut -d' ' -f1)
    if [ ! -x .venv/bin/python ]; then
        "$(pick_python)" -m venv .venv
    fi
    if [ ! -f "$stamp" ]; then
        echo "Setting up .venv from the lock requirements/dev.txt (first run or changed lock; about a minute)..."
        # --no-compile: each module's .pyc is written at its first import, not all of them now (half the time)
        if ! { .venv/bin/python -m pip install --no-input --require-hashes --no-deps --no-compile -r requirements/dev.txt &&
               .venv/bin/python -m pip install --no-input --no-deps -e .; } > .venv/install.log 2>&1; then
            cat .venv/install.log
            echo "error: installing the dependencies failed (log above, also in .venv/install.log)" >&2
            exit 1
        fi
        rm -f .venv/.installed-*
        touch "$stamp"
    fi
}

ensure_debian() {
    # A Debian package some tests drive (never a downloaded binary): installed when missing, as root with apt-get.
    #   $1 the package (and its command), $2 the tests that need it
    local package=$1 needed_by=$2
    if command -v "$package" >/dev/null 2>&1; then return 0; fi
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        echo "Installing Debian's $package for $needed_by..."
        if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$package"; } \
                > ".venv/$package-install.log" 2>&1; then
            tail -20 ".venv/$package-install.log"
            echo "warning: installing $package failed; $needed_by will fail" >&2
        fi
    else
        echo "warning: $package is not installed (apt-get install $package); $needed_by will fail" >&2
    fi
}

ensure_node_tools() {
    # The npm tools of the tests, locked by requirements/node/package-lock.json (npm ci: exactly those versions,
    # integrity-checked), into .venv/node: configurable-http-proxy (tests/test_jupyterhub.py) and axe-core
    # (the accessibility checks of the browser tests). Reinstalled when the lock changes.
    export PATH="$PWD/.venv/node/node_modules/.bin:$PATH"
    local stamp=".venv/node/.installed-$(cat requirements/node/package-lock.json | cksum | cut -d' ' -f1)"
    if [ -f "$stamp" ]; then return 0; fi
    if command -v npm >/dev/null 2>&1; then
        echo "Installing the npm test tools from requirements/node (configurable-http-proxy, axe-core)..."
        mkdir -p .venv/node
        cp requirements/node/package.json requirements/node/package-lock.json .venv/node/
        if npm ci --prefix .venv/node --ignore-scripts --no-audit --no-fund > .venv/node-install.log 2>&1; then
            rm -f .venv/node/.installed-*
            touch "$stamp"
        else
            tail -20 .venv/node-install.log
            echo "warning: npm ci failed; the JupyterHub and accessibility tests will fail" >&2
        fi
    else
        echo "warning: npm is missing (apt-get install npm); the JupyterHub and accessibility tests will fail" >&2
    fi
}

case "${1:-}" in
    app)
        setup
        shift
        exec .venv/bin/python -m widgets.server.cli app "$@"   # = house-divided app
        ;;
    test)
        setup
        ensure_debian chromium "the browser tests"
        ensure_debian caddy "the HTTPS recipe test (tests/test_security_caddy.py)"
        ensure_node_tools
        shift
        # the suite's English texts do not depend on the machine's locale (tests that want Spanish or
        # Italian ask for it: lang="es", ahd.set_language, house-divided app --lang)
        export AHD_LANG=en
        if [ $# -gt 0 ]; then
            exec .venv/bin/python -m pytest -n auto "$@"
        fi
        # unit, rule, widget and browser tests; then every notebook, each cell passing (nbval)
        status=0
        .venv/bin/python -m pytest -n auto --durations=25 tests || status=$?
        .venv/bin/python -m pytest -n auto --dist loadscope --nbval-lax --nbval-current-env notebooks \
            -p no:cacheprovider -p tests.nbval_retry || status=$?
        exit $status
        ;;
    *)
        echo "usage: ./run.sh app | ./run.sh test [pytest args]" >&2
        exit 2
        ;;
esac
