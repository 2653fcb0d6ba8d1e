#!/usr/bin/env bash
# The Python package's tests (python/tests): a virtual environment with the pinned test
# requirements (python/requirements-test.txt; kept in target/python-venv and made again only when
# that file or the interpreter changes), the package built into it from this clone by pip and
# maturin, Debian's chromium for the HTML report's tests (installed with apt-get when missing),
# then pytest.
#   scripts/python-tests.sh [PYTEST ARGS...]
#   PYTHON=python3.12 scripts/python-tests.sh    another interpreter (3.9 or newer)
# The package is built with Cargo's dev profile (optimised, with debug assertions and overflow
# checks, as the Rust tests run), which shares its compiled dependencies with `cargo test`;
# `pip install ./python` builds the release profile.
set -euo pipefail
cd "$(dirname "$0")/.."

python="${PYTHON:-python3}"
venv=target/python-venv
req=python/requirements-test.txt
want="$(sha256sum "$req" | cut -d' ' -f1) $("$python" -c 'import sys; print(sys.version.split()[0], sys.executable)')"
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/.ssdgc-requirements" 2>/dev/null)" != "$want" ]; then
    echo "-- virtual environment $venv (pinned requirements)"
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$req"
    echo "$want" > "$venv/.ssdgc-requirements"
fi

if ! command -v chromium >/dev/null 2>&1; then
    if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
        echo "-- installing Debian's chromium"
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
    else
        echo "python-tests: the HTML report's tests need Chromium: apt-get install chromium (as root)" >&2
        exit 1
    fi
fi

echo "-- building the package into $venv"
MATURIN_PEP517_ARGS="--profile dev" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    --no-build-isolation --no-deps --force-reinstall ./python
# The command the reports are compared with.
cargo build -q -p ssdgc-cli

echo "-- pytest"
SSDGC_CLI="$PWD/target/debug/ssdgc" "$venv/bin/python" -m pytest python/tests -q -p no:cacheprovider "$@"
