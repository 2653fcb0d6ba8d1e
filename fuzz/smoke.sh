#!/usr/bin/env bash
# Short fuzzing smoke run of every target: ./fuzz/smoke.sh [SECONDS_PER_TARGET] (default 20).
# Works on a stable toolchain: RUSTC_BOOTSTRAP=1 lets cargo-fuzz pass its -Z flags.
set -euo pipefail
secs="${1:-20}"
cd "$(dirname "$0")"
if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install cargo-fuzz --locked
fi
export RUSTC_BOOTSTRAP=1
for target in $(cargo fuzz list); do
    echo "== fuzzing $target for ${secs}s"
    mkdir -p "corpus/$target"
    # A target's dictionary (`config.dict`), if it has one.
    dict=()
    if [ -f "$target.dict" ]; then
        dict=("-dict=$PWD/$target.dict")
    fi
    cargo fuzz run "$target" "corpus/$target" -- -max_total_time="$secs" -rss_limit_mb=2048 "${dict[@]}"
done
