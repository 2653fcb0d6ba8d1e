#!/bin/sh
# Checks bench/e2e-alternate.sh against stand-in bench binaries whose run times are known: the
# order of the builds in odd and even rounds, the SUMMARY lines and the PAIRED line's median,
# interval and count; one build alone, with the host probe and the runs split by the core. Run by scripts/test.sh; takes well under a second.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

# A stand-in binary: prints one RESULT line whose run_cpu is the next of its list, and logs that
# it ran.
stand_in() {
    name=$1
    shift
    printf '%s\n' "$@" >"$dir/$name.times"
    cat >"$dir/$name" <<EOF
#!/bin/sh
n=\$(cat "$dir/$name.count" 2>/dev/null || echo 0)
n=\$((n + 1))
echo "\$n" >"$dir/$name.count"
echo "$name" >>"$dir/order"
echo "RESULT drive=\$SSDGC_BENCH_E2E_DRIVE requests=\$SSDGC_BENCH_REQUESTS run_cpu=\$(sed -n "\${n}p" "$dir/$name.times")"
EOF
    chmod +x "$dir/$name"
}
stand_in base 1.0 1.0 1.0 1.0 1.0 1.0
stand_in new 0.9 0.8 1.1 0.7 1.0 0.85

out=$(DRIVES=16p PAGC_ROUNDS=0 "$here/e2e-alternate.sh" "$dir/base" "$dir/new" 6 1000)

fail() {
    echo "e2e-alternate-test: $1" >&2
    echo "$out" >&2
    exit 1
}
# The output holds line $1 exactly, else the test fails with $2.
expect() {
    echo "$out" | grep -qx "$1" || fail "$2"
}
order=$(tr '\n' ' ' <"$dir/order")
[ "$order" = "base new new base base new new base base new new base " ] ||
    fail "builds ran in the order: $order"
expect 'SUMMARY drive=16p build=base run_cpu runs=6 min=1.000 median=1.000 max=1.000 values=1.0,1.0,1.0,1.0,1.0,1.0' "the base's SUMMARY line"
expect 'SUMMARY drive=16p build=new run_cpu runs=6 min=0.700 median=0.875 max=1.100 values=0.9,0.8,1.1,0.7,1.0,0.85' "the new build's SUMMARY line"
# Six ratios: the interval is the fewest to the most (P(Binomial(6, 1/2) < 1) = 1/64 <= 0.025,
# P(< 2) = 7/64 > 0.025); four of six rounds faster (a tie is not).
expect 'PAIRED drive=16p build=new run_cpu against=base rounds=6 ratio_median=0.875 ratio_ci95=0.700..1.100 faster=4' "the PAIRED line"

# Five rounds are too few for an interval.
rm -f "$dir/base.count" "$dir/new.count"
out=$(DRIVES=16p PAGC_ROUNDS=0 "$here/e2e-alternate.sh" "$dir/base" "$dir/new" 5 1000)
expect 'PAIRED drive=16p build=new run_cpu against=base rounds=5 ratio_median=0.900 ratio_ci95=none faster=3' "the PAIRED line of five rounds"
# One build alone (`-`): a series, its `mem` probe summarised per value and its runs split by the
# core's throughput around them (the larger of the two values).
cat >"$dir/solo" <<EOF
#!/bin/sh
n=\$(cat "$dir/solo.count" 2>/dev/null || echo 0)
n=\$((n + 1))
echo "\$n" >"$dir/solo.count"
if [ "\$SSDGC_BENCH_E2E_DRIVE" = mem ]; then
    echo "RESULT drive=mem ns_262144=5.\$n ns_chain=2.4\$n"
else
    # Runs 2, 4 and 6 (the 16p runs): 1.0 s with the core at 0.8 and 0.7 ns, 1.6 s with 0.8 and
    # 1.2 ns, 1.2 s with 0.9 and 0.9 ns.
    set -- x 1.0 0.8 0.7 x 1.6 0.8 1.2 x 1.2 0.9 0.9
    shift \$(( (n / 2 - 1) * 4 + 1 ))
    echo "RESULT drive=\$SSDGC_BENCH_E2E_DRIVE run_cpu=\$1 core_before=\$2 core_after=\$3"
fi
EOF
chmod +x "$dir/solo"
out=$(DRIVES="mem 16p" PAGC_ROUNDS=0 CORE_SPLIT="0.85 0.95" "$here/e2e-alternate.sh" "$dir/solo" - 3 1000)
[ "$(cat "$dir/solo.count")" = 6 ] || fail "a series of 3 rounds of 2 drives ran $(cat "$dir/solo.count") times"
expect 'SUMMARY drive=mem build=base ns_262144 runs=3 min=5.100 median=5.300 max=5.500 values=5.1,5.3,5.5' "the probe's SUMMARY line"
expect 'SUMMARY drive=mem build=base ns_chain runs=3 min=2.410 median=2.430 max=2.450 values=2.41,2.43,2.45' "the probe's second SUMMARY line"
expect 'SUMMARY drive=16p build=base run_cpu runs=3 min=1.000 median=1.200 max=1.600 values=1.0,1.6,1.2' "the series' SUMMARY line"
expect 'SUMMARY drive=16p build=base run_cpu\[core<=0.85\] runs=1 min=1.000 median=1.000 max=1.000 values=1.0' "the SUMMARY of the runs with the core to themselves"
expect 'SUMMARY drive=16p build=base run_cpu\[core>0.95\] runs=1 min=1.600 median=1.600 max=1.600 values=1.6' "the SUMMARY of the runs with the core shared"
if echo "$out" | grep -q '^PAIRED'; then fail "a series has a PAIRED line"; fi

echo "e2e-alternate-test: ok"
