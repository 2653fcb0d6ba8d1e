#!/usr/bin/env bash
# The whole test suite: formatting, lints, every crate's tests (unit, property, fidelity, CLI
# integration and golden reports), and a short fuzzing run of the trace readers.
#   scripts/test.sh            everything
#   FUZZ_SECONDS=0 scripts/test.sh   skip the fuzzing smoke run
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check

echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings

echo "== cargo test"
cargo test --workspace

secs="${FUZZ_SECONDS:-15}"
if [ "$secs" != "0" ]; then
    echo "== fuzzing smoke run (${secs}s per target)"
    fuzz/smoke.sh "$secs"
fi
echo "== all tests passed"
