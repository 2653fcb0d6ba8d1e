#!/usr/bin/env bash
# The whole test suite: formatting, lints, every crate's tests (unit, property, fidelity, CLI
# integration and golden reports, the simulator oracle, quick reproductions), the API docs' links
# (`cargo doc`, warnings as errors), the benchmark comparison script's statistics
# (bench/e2e-alternate-test.sh), a short randomized reliability campaign, a short fuzzing run of
# the trace readers, specs and configuration, and the Python package's tests
# (scripts/python-tests.sh).
#   scripts/test.sh            everything
#   FUZZ_SECONDS=0 scripts/test.sh   skip the fuzzing smoke run
#   CAMPAIGN_RUNS=0 scripts/test.sh  skip the campaign
#   PYTHON_TESTS=0 scripts/test.sh   skip the Python package's tests
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo test"
cargo test --workspace

echo "== cargo doc (a broken or private link is an error)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --quiet

echo "== bench/e2e-alternate.sh against stand-in binaries"
bench/e2e-alternate-test.sh

if [ "${PYTHON_TESTS:-1}" != "0" ]; then
    echo "== Python package (python/, docs/python.md): built into a virtual environment, pytest"
    scripts/python-tests.sh
fi

runs="${CAMPAIGN_RUNS:-200}"
if [ "$runs" != "0" ]; then
    echo "== reliability campaign (${runs} seeded random runs, docs/RELIABILITY.md)"
    scripts/campaign.sh "$runs" "${CAMPAIGN_SEED:-1}"
fi

secs="${FUZZ_SECONDS:-15}"
if [ "$secs" != "0" ]; then
    echo "== fuzzing smoke run (${secs}s per target)"
    fuzz/smoke.sh "$secs"
fi
echo "== all tests passed"
