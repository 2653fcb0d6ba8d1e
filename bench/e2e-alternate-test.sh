#!/bin/sh
# Checks bench/e2e-alternate.sh against two stand-in bench binaries whose run times are known: the
# order of the builds in odd and even rounds, the SUMMARY lines and the PAIRED line's median,
# interval and count. Run by scripts/test.sh; takes well under a second.
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
order=$(tr '\n' ' ' <"$dir/order")
[ "$order" = "base new new base base new new base base new new base " ] ||
    fail "builds ran in the order: $order"
echo "$out" | grep -qx 'SUMMARY drive=16p build=base run_cpu runs=6 min=1.000 median=1.000 max=1.000 values=1.0,1.0,1.0,1.0,1.0,1.0' ||
    fail "the base's SUMMARY line"
echo "$out" | grep -qx 'SUMMARY drive=16p build=new run_cpu runs=6 min=0.700 median=0.875 max=1.100 values=0.9,0.8,1.1,0.7,1.0,0.85' ||
    fail "the new build's SUMMARY line"
# Six ratios: the interval is the fewest to the most (P(Binomial(6, 1/2) < 1) = 1/64 <= 0.025,
# P(< 2) = 7/64 > 0.025); four of six rounds faster (a tie is not).
echo "$out" | grep -qx 'PAIRED drive=16p build=new run_cpu against=base rounds=6 ratio_median=0.875 ratio_ci95=0.700..1.100 faster=4' ||
    fail "the PAIRED line"

# Five rounds are too few for an interval.
rm -f "$dir/base.count" "$dir/new.count"
out=$(DRIVES=16p PAGC_ROUNDS=0 "$here/e2e-alternate.sh" "$dir/base" "$dir/new" 5 1000)
echo "$out" | grep -qx 'PAIRED drive=16p build=new run_cpu against=base rounds=5 ratio_median=0.900 ratio_ci95=none faster=3' ||
    fail "the PAIRED line of five rounds"
echo "e2e-alternate-test: ok"
