#!/bin/sh
# Two builds of the end-to-end benchmark, alternated drive by drive, so that a shared or virtual
# machine's swings in speed fall on both alike (docs/PERFORMANCE.md, "The replay hot path, round
# four"). Each drive runs in a process of its own; one RESULT line per run, tagged with its round
# and build. Then the current build's `pagc` preconditioning, ROUNDS times.
#
#   bench/e2e-alternate.sh BASE_BIN NEW_BIN [ROUNDS] [REQUESTS]
#
# DRIVES (default "16p 64p") names the drives of each round ("pagc" alternates the two builds'
# preconditioning); PAGC_ROUNDS (default ROUNDS) how many times the current build then
# preconditions the `pagc` preset alone (0: not at all).
#
# BASE_BIN, NEW_BIN: the e2e bench binaries of two checkouts (`cargo bench -p ssdgc-core --bench
# e2e --no-run` prints each one's path), e.g. the build before a change from
# `git worktree add ../ssdgc-base REV`. ROUNDS defaults to 3, REQUESTS to 5,000,000.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 BASE_BIN NEW_BIN [ROUNDS] [REQUESTS]" >&2
    exit 2
fi
base=$1
new=$2
rounds=${3:-3}
requests=${4:-5000000}
echo "start $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$rounds" ]; do
    for drive in ${DRIVES:-16p 64p}; do
        for build in base new; do
            if [ "$build" = base ]; then bin=$base; else bin=$new; fi
            line=$(SSDGC_BENCH_E2E_DRIVE=$drive SSDGC_BENCH_REQUESTS=$requests "$bin" --bench | grep '^RESULT')
            echo "round=$i build=$build $line"
        done
    done
    i=$((i + 1))
done
i=1
while [ "$i" -le "${PAGC_ROUNDS:-$rounds}" ]; do
    echo "round=$i build=new $(SSDGC_BENCH_E2E_DRIVE=pagc "$new" --bench | grep '^RESULT')"
    i=$((i + 1))
done
echo "end $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
