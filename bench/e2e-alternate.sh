#!/bin/sh
# Two builds of the end-to-end benchmark (or more), alternated drive by drive, so that a shared or
# virtual machine's swings in speed fall on all alike (docs/PERFORMANCE.md, "The replay hot path,
# round four"). Each drive runs in a process of its own; one RESULT line per run, tagged with its
# round and build. Then the current build's `pagc` preconditioning, ROUNDS times, and a SUMMARY
# line per drive and build: the fewest, median and most CPU seconds of its runs (the run's
# `run_cpu`; for `pagc`, the preconditioning's `pre_cpu` and `pre_wall`).
#
#   bench/e2e-alternate.sh BASE_BIN NEW_BIN [ROUNDS] [REQUESTS]
#
# DRIVES (default "16p 64p") names the drives of each round ("pagc" alternates the builds'
# preconditioning); PAGC_ROUNDS (default ROUNDS) how many times the current build then
# preconditions the `pagc` preset alone (0: not at all); MORE (default none) names more bench
# binaries, run after NEW_BIN in each round as builds `more1`, `more2`, ... (variants of one
# change compared side by side).
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
results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "start $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
i=1
while [ "$i" -le "$rounds" ]; do
    for drive in ${DRIVES:-16p 64p}; do
        set -- "base $base" "new $new"
        k=1
        for bin in ${MORE:-}; do
            set -- "$@" "more$k $bin"
            k=$((k + 1))
        done
        for build_bin in "$@"; do
            build=${build_bin%% *}
            bin=${build_bin#* }
            line=$(SSDGC_BENCH_E2E_DRIVE=$drive SSDGC_BENCH_REQUESTS=$requests "$bin" --bench | grep '^RESULT')
            echo "round=$i build=$build $line" | tee -a "$results"
        done
    done
    i=$((i + 1))
done
i=1
while [ "$i" -le "${PAGC_ROUNDS:-$rounds}" ]; do
    echo "round=$i build=new $(SSDGC_BENCH_E2E_DRIVE=pagc "$new" --bench | grep '^RESULT')" | tee -a "$results"
    i=$((i + 1))
done
echo "end $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
# One line per drive, build and measure: its values in order, then fewest, median, most.
awk '
    {
        for (f = 1; f <= NF; f++) {
            split($f, kv, "=")
            v[kv[1]] = kv[2]
        }
        key = v["drive"] " " v["build"]
        if (v["drive"] == "pagc") {
            add(key " pre_cpu", v["pre_cpu"])
            add(key " pre_wall", v["pre_wall"])
        } else {
            add(key " run_cpu", v["run_cpu"])
        }
        delete v
    }
    function add(k, x) {
        n[k]++
        vals[k, n[k]] = x
        if (!(k in seen)) {
            seen[k] = 1
            list[++m] = k
        }
    }
    END {
        for (j = 1; j <= m; j++) {
            k = list[j]
            c = n[k]
            s = ""
            for (a = 1; a <= c; a++) {
                x[a] = vals[k, a] + 0
                s = s (a > 1 ? "," : "") vals[k, a]
            }
            for (a = 2; a <= c; a++) {
                t = x[a]
                for (b = a - 1; b >= 1 && x[b] > t; b--) x[b + 1] = x[b]
                x[b + 1] = t
            }
            med = (c % 2) ? x[(c + 1) / 2] : (x[c / 2] + x[c / 2 + 1]) / 2
            split(k, p, " ")
            printf "SUMMARY drive=%s build=%s %s runs=%d min=%.3f median=%.3f max=%.3f values=%s\n", \
                p[1], p[2], p[3], c, x[1], med, x[c], s
        }
    }
' "$results"
