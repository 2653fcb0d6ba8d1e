#!/bin/sh
# Two builds of the end-to-end benchmark (or more), alternated drive by drive, so that a shared or
# virtual machine's swings in speed fall on all alike (docs/PERFORMANCE.md, "The replay hot path,
# round four"). Each drive runs in a process of its own; one RESULT line per run, tagged with its
# round and build; odd rounds run the builds in the order given, even rounds in reverse, so that
# no build always runs first. Then the current build's `pagc` preconditioning, ROUNDS times, and
# a SUMMARY line per drive and build: the fewest, median and most CPU seconds of its runs (the
# run's `run_cpu`; for `pagc`, the preconditioning's `pre_cpu` and `pre_wall`). Last, a PAIRED
# line per drive and build other than the base: each round's value over the base's of the same
# round, their median, a 95 % confidence interval of that median (order statistics of the
# binomial; none with fewer than 6 rounds) and in how many rounds the build was faster. A change
# whose interval holds 1 is not measurably faster or slower on this machine.
#
#   bench/e2e-alternate.sh BASE_BIN NEW_BIN [ROUNDS] [REQUESTS]
#   bench/e2e-alternate.sh BIN - [ROUNDS] [REQUESTS]     # one build alone: a series, no PAIRED
#
# `mem` in DRIVES runs the benchmark's probe of the host: its SUMMARY lines are per probe value
# (`ns_262144`, ..., `ns_chain`, `ns_eight`). CORE_SPLIT="LOW HIGH" adds, per drive and build, the
# SUMMARY of the runs with the core's throughput around them (the larger of `core_before` and
# `core_after`) at most LOW, as `run_cpu[core<=LOW]`, and above HIGH, as `run_cpu[core>HIGH]`.
#
# DRIVES (default "16p 64p") names the drives of each round ("pagc" alternates the builds'
# preconditioning); PAGC_ROUNDS (default ROUNDS) how many times the current build then
# preconditions the `pagc` preset alone (0: not at all); MORE (default none) names more bench
# binaries, builds `more1`, `more2`, ... (variants of one change compared side by side), run after
# NEW_BIN in odd rounds and before it in even ones.
#
# BASE_BIN, NEW_BIN: the e2e bench binaries of two checkouts (`cargo bench -p ssdgc-core --bench
# e2e --no-run` prints each one's path), e.g. the build before a change from
# `git worktree add ../ssdgc-base REV`. ROUNDS defaults to 3, REQUESTS to 5,000,000.
set -eu
if [ $# -lt 2 ]; then
    echo "usage: $0 BASE_BIN NEW_BIN|- [ROUNDS] [REQUESTS]" >&2
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
        # The round's builds in the order they run: appended in odd rounds, prepended in even ones.
        odd=$((i % 2))
        if [ "$new" = - ]; then
            set -- "base $base"
        elif [ "$odd" -eq 1 ]; then
            set -- "base $base" "new $new"
        else
            set -- "new $new" "base $base"
        fi
        k=1
        for bin in ${MORE:-}; do
            if [ "$odd" -eq 1 ]; then set -- "$@" "more$k $bin"; else set -- "more$k $bin" "$@"; fi
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
# The current build: the new one, or the one build of a series.
if [ "$new" = - ]; then current="base $base"; else current="new $new"; fi
i=1
while [ "$i" -le "${PAGC_ROUNDS:-$rounds}" ]; do
    # Tagged `alone`: these runs have no base run to be paired with.
    echo "round=alone$i build=${current%% *} $(SSDGC_BENCH_E2E_DRIVE=pagc "${current#* }" --bench | grep '^RESULT')" | tee -a "$results"
    i=$((i + 1))
done
echo "end $(date -u) load $(cut -d' ' -f1-3 /proc/loadavg)"
# One line per drive, build and measure: its values in order, then fewest, median, most.
awk -v split_at="${CORE_SPLIT:-}" '
    BEGIN {
        if (split(split_at, lh, " ") == 2) {
            low = lh[1] + 0
            high = lh[2] + 0
            splitting = 1
        }
    }
    {
        for (f = 1; f <= NF; f++) {
            split($f, kv, "=")
            v[kv[1]] = kv[2]
            name[f] = kv[1]
        }
        key = v["drive"] " " v["build"]
        if (v["drive"] == "mem") {
            # (In the order of the line.)
            for (f = 1; f <= NF; f++) if (name[f] ~ /^ns_/) add(key " " name[f], v[name[f]])
        } else if (v["drive"] == "pagc") {
            add(key " pre_cpu", v["pre_cpu"])
            add(key " pre_wall", v["pre_wall"])
            pair(v["round"], v["drive"], v["build"], "pre_cpu", v["pre_cpu"])
            pair(v["round"], v["drive"], v["build"], "pre_wall", v["pre_wall"])
        } else {
            add(key " run_cpu", v["run_cpu"])
            pair(v["round"], v["drive"], v["build"], "run_cpu", v["run_cpu"])
            if (splitting && ("core_before" in v)) {
                core = v["core_before"] + 0
                if (v["core_after"] + 0 > core) core = v["core_after"] + 0
                if (core <= low) add(key " run_cpu[core<=" lh[1] "]", v["run_cpu"])
                if (core > high) add(key " run_cpu[core>" lh[2] "]", v["run_cpu"])
            }
        }
        delete v
        delete name
    }
    # A run of a numbered round, kept to be set beside the base run of the same round.
    function pair(round, drive, build, what, x) {
        if (round !~ /^[0-9]+$/) return
        at[round, drive, build, what] = x
        if (!((drive, what) in pseen)) {
            pseen[drive, what] = 1
            plist[++pm] = drive SUBSEP what
        }
        if (build != "base" && !(build in bseen)) {
            bseen[build] = 1
            blist[++bm] = build
        }
        if (round + 0 > last) last = round + 0
    }
    # Sorts x[1..c] in place (a few dozen values at most).
    function sort_values(c,    a, b, t) {
        for (a = 2; a <= c; a++) {
            t = x[a]
            for (b = a - 1; b >= 1 && x[b] > t; b--) x[b + 1] = x[b]
            x[b + 1] = t
        }
    }
    function median(c) {
        return (c % 2) ? x[(c + 1) / 2] : (x[c / 2] + x[c / 2 + 1]) / 2
    }
    # The rank l of the lower end of the 95 % interval of the median among c sorted values (the upper
    # end is c + 1 - l): the largest l with P(Binomial(c, 1/2) < l) <= 0.025; 0 when c is too
    # small for any.
    function lower_rank(c,    i, p, cum, l) {
        p = 0.5 ^ c
        cum = 0
        l = 0
        for (i = 0; i < c; i++) {
            cum += p
            if (cum > 0.025) break
            l = i + 1
            p = p * (c - i) / (i + 1)
        }
        return l
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
            sort_values(c)
            split(k, p, " ")
            printf "SUMMARY drive=%s build=%s %s runs=%d min=%.3f median=%.3f max=%.3f values=%s\n", \
                p[1], p[2], p[3], c, x[1], median(c), x[c], s
        }
        for (j = 1; j <= pm; j++) {
            split(plist[j], dw, SUBSEP)
            for (q = 1; q <= bm; q++) {
                c = 0
                faster = 0
                for (r = 1; r <= last; r++) {
                    if (!((r, dw[1], "base", dw[2]) in at) || !((r, dw[1], blist[q], dw[2]) in at)) continue
                    b0 = at[r, dw[1], "base", dw[2]] + 0
                    if (b0 <= 0) continue
                    x[++c] = (at[r, dw[1], blist[q], dw[2]] + 0) / b0
                    if (x[c] < 1) faster++
                }
                if (c == 0) continue
                sort_values(c)
                l = lower_rank(c)
                ci = l > 0 ? sprintf("%.3f..%.3f", x[l], x[c + 1 - l]) : "none"
                printf "PAIRED drive=%s build=%s %s against=base rounds=%d ratio_median=%.3f ratio_ci95=%s faster=%d\n", \
                    dw[1], blist[q], dw[2], c, median(c), ci, faster
            }
        }
    }
' "$results"
