#!/usr/bin/env bash
# Randomized reliability campaign: scripts/campaign.sh N [SEED]
#
# N seeded random runs of the release binary over drive shapes x every scheme x victim policies x
# synthetic workloads x ageing modes, each under --check --json with a time limit, several at a
# time. A run must exit 0 with a consistent report or exit 2 with one 'ssdgc: error:' line; every
# 10th successful run is rerun and must give the same report. Prints each failure's command line
# and a summary by scheme and outcome; exits non-zero if anything failed. See docs/RELIABILITY.md.
#
# Environment: JOBS (parallel runs, default: the number of cores), TIMEOUT (seconds per run,
# default 60), CAMPAIGN_ERRORS=1 (also list the user errors met, by message).
set -euo pipefail
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "usage: $0 N [SEED]" >&2
    exit 2
fi
runs="$1"
seed="${2:-1}"
cd "$(dirname "$0")/.."
cargo build --release -p ssdgc-cli --quiet
bin="$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')/release/ssdgc"
extra=()
if [ "${CAMPAIGN_ERRORS:-0}" = "1" ]; then
    extra+=(--errors)
fi
exec python3 scripts/campaign.py --bin "$bin" --runs "$runs" --seed "$seed" \
    --jobs "${JOBS:-$(nproc)}" --timeout "${TIMEOUT:-60}" "${extra[@]}"
