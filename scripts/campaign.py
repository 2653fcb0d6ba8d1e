#!/usr/bin/env python3
"""Randomized reliability campaign over the ssdgc release binary; run it through scripts/campaign.sh.

Every run is drawn from a seeded generator: a small drive shape, a scheme, a victim policy, an FTL
mapping (page-mapped, or now and then L-FTL or H-FTL), a synthetic workload and an ageing mode,
run under `--check --json` with a time limit. A run passes when it exits 0 with a consistent
report, or exits 2 with exactly one `ssdgc: error:` line.
Anything else (a panic, a signal, a timeout, an inconsistent report, a rerun that differs, more
than 2 GiB of memory) is a failure, printed with its exact command line.
"""

import argparse
import json
import math
import os
import random
import re
import shlex
import subprocess
import sys
import tempfile
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor

MEMORY_LIMIT_KB = 2 * 1024 * 1024
RERUN_EVERY = 10


def listing(binary, what):
    out = subprocess.run([binary, "list", what], check=True, capture_output=True, text=True)
    # One entry per unindented line (`list schemes` adds an indented line of axes per scheme).
    return [line.split()[0] for line in out.stdout.splitlines() if line.strip() and not line[0].isspace()]


def pick_victim(rng, victims):
    v = rng.choice(victims)
    if ":" in v:  # parameterised, e.g. rga:D
        v = v.split(":")[0] + ":" + str(rng.choice([1, 2, 4, 8, 16]))
    return v


def duration(rng, lo_ns, hi_ns):
    ns = int(math.exp(rng.uniform(math.log(lo_ns), math.log(hi_ns))))
    return f"{ns}ns"


SIZES = {"512": 512, "4KiB": 4096, "8KiB": 8192, "16KiB": 16384, "64KiB": 65536,
         "256KiB": 262144, "1MiB": 1048576}
MAX_PAGES = 100_000  # page transactions per run, so that a run takes about a second at most


def synthetic(rng, page_size):
    count = rng.choice([1, 2, 10, 100, 500, 1000, 2000, 3000])
    size_bytes = 4096
    items = []
    if rng.random() < 0.7:
        items.append(f"read={rng.choice([0, 0.1, 0.3, 0.5, 0.9, 1])}")
    if rng.random() < 0.8:
        size = rng.choice(list(SIZES))
        size_bytes = SIZES[size]
        items.append(f"size=exp:{size}" if rng.random() < 0.5 else f"size={size}")
    pages = max(1, size_bytes // page_size)
    count = max(1, min(count, MAX_PAGES // pages))
    items.append(f"count={count}")
    if rng.random() < 0.5:
        items.append(f"seq={rng.choice([0, 0.2, 0.5, 0.9, 1])}")
    r = rng.random()
    if r < 0.4:
        items.append("interarrival=0")
        items.append(f"qd={rng.choice([1, 2, 8, 32, 128])}")
    elif r < 0.7:
        items.append(f"interarrival=exp:{duration(rng, 1_000, 5_000_000)}")
    else:
        items.append(f"interarrival={duration(rng, 1, 5_000_000)}")
    if rng.random() < 0.4:
        items.append(f"span={rng.choice([0.001, 0.01, 0.1, 0.5, 1])}")
    if rng.random() < 0.3:
        items.append(f"zipf={rng.choice([0, 0.5, 0.9, 1.2, 2])}")
    if rng.random() < 0.2:
        items.append(f"align={rng.choice([512, 4096, 65536])}")
    if rng.random() < 0.15:
        # On/off bursts: the device queue fills and empties.
        items.append(f"burst={rng.choice([1, 16, 256])}")
        items.append(f"idle={duration(rng, 1_000, 50_000_000)}")
    rng.shuffle(items)
    return ",".join(items)


def draw(rng, schemes, victims):
    """One run: (scheme, argument list)."""
    sets = {}
    planes = rng.randint(1, 8)
    sets["geometry.channels"] = rng.randint(1, 4)
    sets["geometry.chips_per_channel"] = rng.randint(1, 2)
    sets["geometry.dies_per_chip"] = rng.randint(1, 2)
    sets["geometry.planes_per_die"] = planes
    ppb = rng.choice([1, 2, 4, 8, 16, 32, 64, 128])
    sets["geometry.pages_per_block"] = ppb
    # Keep a plane small: at most ~8k pages, so that preconditioning takes well under a second.
    max_blocks = max(8, 8192 // ppb)
    bpp = rng.randint(4, min(max_blocks, 512)) if rng.random() < 0.2 else rng.randint(16, min(max_blocks, 512))
    sets["geometry.blocks_per_plane"] = bpp
    sets["geometry.page_size"] = rng.choice([512, 2048, 4096, 8192, 16384])
    threshold = rng.choice([0.001, 0.01, 0.03, 0.05, 0.1, 0.2, 0.3])
    sets["gc.threshold"] = threshold
    if rng.random() < 0.25:
        # Anything, mostly impossible drives: validation must say why.
        op = rng.choice([0.0, 0.02, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.5, 0.8])
    else:
        # Near the least spare the minimum-spare rule accepts (blocks for the threshold, three
        # write points and one spare), and above it.
        op = min(0.9, threshold + (6 + rng.choice([0, 0, 1, 2, 5, 20])) / bpp + rng.choice([0, 0.01, 0.1]))
    sets["geometry.overprovision"] = round(op, 4)
    if rng.random() < 0.2:
        sets["gc.trigger"] = '"pages"'
    if rng.random() < 0.3:
        soft = rng.choice([0.02, 0.05, 0.1, 0.2, 0.4])
        sets["gc.soft_threshold"] = soft
        if rng.random() < 0.5:
            sets["gc.hard_threshold"] = round(soft * rng.choice([0.25, 0.5, 1.0]), 4)
    if rng.random() < 0.2:
        sets["gc.idle_threshold"] = rng.choice([0.05, 0.1, 0.2, 0.4])
    if rng.random() < 0.2:
        sets["gc.pagc_threshold"] = rng.choice([0.05, 0.1, 0.3, 0.6])
    if rng.random() < 0.3:
        sets["gc.copyback"] = rng.choice(["true", "false"])
    if rng.random() < 0.2:
        sets["buffer.size"] = rng.choice([0, 4096, 65536, 1048576])
    if rng.random() < 0.2:
        sets["host.queue_depth"] = rng.choice([1, 4, 32, 256])
    if rng.random() < 0.1:
        sets["ftl.allocation"] = '"' + "".join(rng.sample("CWDP", 4)) + '"'
    if rng.random() < 0.1:
        sets["ftl.pool"] = rng.choice(['"fifo"', '"youngest"', '"oldest"'])
    if rng.random() < 0.1:
        sets["array.drives"] = rng.choice([2, 3])
    if rng.random() < 0.2:
        sets["ftl.rmw"] = "true"
    if rng.random() < 0.2:
        sets["ftl.multiplane"] = rng.choice(['"aligned"', '"greedy"'])
    if rng.random() < 0.2:
        # AGC/DGC: the long-idle threshold, AGC's free-block target, DGC's reserve.
        sets["gc.long_idle"] = rng.choice(['"100us"', '"1ms"', '"50ms"', '"1s"', '"0ns"'])
        sets["gc.agc_threshold"] = rng.choice([0.0, 0.4, 1.0, 10.0, 11.0])
        sets["gc.dgc_reserve"] = rng.choice([0.0, 0.5, 1.0, 1.5])
    if rng.random() < 0.1:
        sets["host.critical_path"] = "true"
        sets["host.excess_bound"] = rng.choice(['"0ns"', '"1ms"', '"30ms"'])
    scheme = rng.choice(schemes)
    if rng.random() < 0.4:
        # GC axis overrides; some combinations are meaningless and must be one-line errors.
        when = rng.choice(["on-demand", "idle", "states", "agc", "dgc", "agc-dgc"])
        sets["gc.when"] = f'"{when}"'
        ops = when != "on-demand" and rng.random() < 0.7 or rng.random() < 0.05
        sets["gc.preempt"] = '"ops"' if ops else '"none"'
        sets["gc.merge"] = "true" if ops and rng.random() < 0.5 else "false"
        sets["gc.pipeline"] = "true" if ops and rng.random() < 0.5 else "false"
        sets["gc.suspend"] = '"' + (rng.choice(["none", "erase", "all"]) if ops else "none") + '"'
        sets["gc.planes"] = '"' + rng.choice(["serial", "pagc-blind", "pagc-threshold", "pagc-cache", "superblock"]) + '"'
        sets["gc.migration"] = '"' + rng.choice(["instant", "serial", "serial", "parallel"]) + '"'
        sets["gc.collect"] = '"one"' if when in ("on-demand", "agc") and rng.random() < 0.4 else '"restore"'
    # Page registers, parallel workers, IPPBE, the copyback parity restriction, what GC holds, the
    # die queue's order; some combinations are meaningless and must be one-line errors.
    if rng.random() < 0.4:
        regs = rng.choice([1, 2, 4, 8, 9])
        sets["geometry.registers_per_plane"] = regs
        sets["geometry.register_sharing"] = '"' + rng.choice(["none", "command", "array"]) + '"'
        if rng.random() < 0.6:
            sets["gc.workers"] = rng.randint(0, regs + 1)
    if rng.random() < 0.2:
        sets["gc.erase_blocks"] = rng.choice([1, 2, 3, 8])
    if rng.random() < 0.15:
        sets["gc.copyback_parity"] = '"' + rng.choice(["paper", "in-order"]) + '"'
    if rng.random() < 0.3:
        sets["gc.blocking"] = '"' + rng.choice(["plane", "die", "channel"]) + '"'
    if rng.random() < 0.2:
        sets["host.priority"] = '"reads-first"'
    victim = pick_victim(rng, victims)
    log_block = rng.random() < 0.25
    if log_block:
        # A log-block FTL (L-FTL, H-FTL); most of the time with a victim policy it applies.
        mapping = rng.choice(["lftl", "hftl"])
        sets["ftl.mapping"] = f'"{mapping}"'
        if mapping == "hftl" and rng.random() < 0.5:
            sets["ftl.group_data_blocks"] = rng.choice([1, 2, 3, 4])
            sets["ftl.group_update_blocks"] = rng.choice([1, 2, 8, 16])
        if rng.random() < 0.2:
            sets["ftl.log_blocks"] = rng.choice([1, 4, 16])
        if rng.random() < 0.8:
            victim = rng.choice(["greedy", "fifo", "random"])
            sets.pop("ftl.multiplane", None)
    args = ["run", "--gc", scheme, "--victim", victim]
    for k, v in sets.items():
        args += ["--set", f"{k}={v}"]
    args += ["--synthetic", synthetic(rng, sets["geometry.page_size"])]
    # A log-block FTL merges a whole block for nearly every random overwrite: lighter ageing.
    ages = ["none", "fill", "steady:0.2"] if log_block else ["none", "fill", "steady:0.5", "steady:1", "steady:2"]
    age = rng.choice(ages + ["trace", "trace:0.5"])
    args += ["--precondition", age, "--seed", str(rng.randint(0, 2**32)), "--check", "--json", "-q"]
    return scheme, args


def close(a, b, rel=1e-6, abs_=1e-6):
    return abs(a - b) <= max(abs_, rel * max(abs(a), abs(b)))


def finite_numbers(v, path="report"):
    if isinstance(v, float) and not math.isfinite(v):
        yield path
    elif isinstance(v, dict):
        for k, x in v.items():
            yield from finite_numbers(x, f"{path}.{k}")
    elif isinstance(v, list):
        for i, x in enumerate(v):
            yield from finite_numbers(x, f"{path}[{i}]")


def settings(args):
    """The `--set key=value` overrides of a run's arguments, as a dict of strings."""
    out = {}
    for flag, value in zip(args, args[1:]):
        if flag == "--set" and "=" in value:
            k, v = value.split("=", 1)
            out[k] = v.strip('"')
    return out


def check_report(rep, count, sets=None):
    """The inconsistencies of one report (an empty list when it is consistent); `sets`: the run's
    `--set` overrides (a log-block mapping, `ftl.mapping` = `lftl` or `hftl`, adds an `ftl`
    section)."""
    log_block = (sets or {}).get("ftl.mapping", "page") != "page"
    bad = [f"{p} is not finite" for p in finite_numbers(rep)]
    req = rep["requests"]
    if req["total"] != count:
        bad.append(f"requests.total = {req['total']}, expected {count}")
    if req["reads"] + req["writes"] != req["total"]:
        bad.append("requests.reads + writes != total")
    for kind, lat in rep["latency_us"].items():
        seq = [lat[k] for k in ("p50", "p90", "p99", "p999", "p9999", "max")]
        if any(a > b * (1 + 1e-9) + 1e-9 for a, b in zip(seq, seq[1:])):
            bad.append(f"latency_us.{kind} percentiles not ordered: {seq}")
        if lat["count"] and not (lat["mean"] <= lat["max"] * (1 + 1e-9) + 1e-9):
            bad.append(f"latency_us.{kind}.mean > max")
    mean = rep["latency_us"]["all"]["mean"]
    parts = sum(rep["breakdown_us"].values())
    if not close(parts, mean, rel=1e-6, abs_=1e-3):
        bad.append(f"breakdown_us parts sum to {parts}, mean is {mean}")
    util = rep["plane_util"]
    total = sum(util.values())
    if not (close(total, 1.0, abs_=1e-6) or (total == 0 and rep["sim"]["simulated_s"] == 0)):
        bad.append(f"plane_util shares sum to {total}")
    if any(x < -1e-12 for x in util.values()):
        bad.append(f"negative plane_util share: {util}")
    fl = rep["flash"]
    host = fl["host_pages_written"]
    waf = (host + fl["gc_pages_moved"]) / host if host else 0.0
    if not close(fl["waf"], waf, rel=1e-9, abs_=1e-12):
        bad.append(f"flash.waf = {fl['waf']}, (host + gc) / host = {waf}")
    # Host-path sections only with their settings; a read-modify-write reads no more pages than
    # were written.
    if "rmw_reads" in fl and fl["rmw_reads"] > host:
        bad.append(f"flash.rmw_reads = {fl['rmw_reads']} > host pages written {host}")
    mp = fl.get("host_multiplane")
    if mp and mp["pages"] < 2 * (mp["reads"] + mp["writes"]):
        bad.append(f"flash.host_multiplane carries fewer than two pages a command: {mp}")
    # One `schemes` sub-object per capability the GC axes use, and no other (also per drive).
    want = capabilities(rep["gc_axes"], sets or {})
    for where, r in [("", rep)] + [(f"drives[{i}].", d) for i, d in enumerate(rep.get("drives") or [])]:
        got = set(r["schemes"])
        if got != want:
            bad.append(f"{where}schemes has {sorted(got)}, the GC axes use {sorted(want)}")
        # The `ftl` section comes with a log-block mapping only; its merges are the GC invocations
        # and their copies the GC moves.
        if ("ftl" in r) != log_block:
            bad.append(f"{where}ftl section {'missing' if log_block else 'present'}")
        elif log_block:
            m = r["ftl"]["merges"].values()
            if sum(k["count"] for k in m) != r["gc"]["invocations"]:
                bad.append(f"{where}ftl.merges do not add up to gc.invocations")
            if sum(k["pages_copied"] for k in m) != r["flash"]["gc_pages_moved"]:
                bad.append(f"{where}ftl.merges pages copied do not add up to flash.gc_pages_moved")
    return bad


def capabilities(axes, sets):
    """The `schemes` sections of a report whose run used GC axes `axes` and overrides `sets`
    (docs/report-schema.md)."""
    want = set()
    planned = (axes["migration"] == "parallel"
               or (axes["migration"] != "instant"
                   and (int(sets.get("gc.erase_blocks", "1")) > 1
                        or sets.get("gc.copyback_parity", "none") != "none")))
    if planned:
        want.add("migration")
    if axes["when"] in ("states", "idle"):
        want.add(axes["when"])
    if axes["when"] in ("agc", "dgc", "agc-dgc"):
        want.add("agc")
        want.add("critical_path")
    if sets.get("host.critical_path") == "true":
        want.add("critical_path")
    if axes["preempt"] == "ops":
        want.add("preempt")
    for cap in ("merge", "pipeline"):
        if axes[cap]:
            want.add(cap)
    if axes["suspend"] != "none":
        want.add("suspend")
    if axes["planes"].startswith("pagc"):
        want.add("pagc")
    return want


class Campaign:
    def __init__(self, binary, timeout, time_tool):
        self.binary = binary
        self.timeout = timeout
        self.time_tool = time_tool
        self.lock = threading.Lock()
        self.counts = defaultdict(lambda: defaultdict(int))
        self.failures = []
        self.peak_kb = 0
        self.done = 0

    def execute(self, args):
        """(exit code or None on timeout, stdout, stderr, peak KB or None)."""
        cmd = [self.binary] + args
        mem_file = None
        if self.time_tool:
            fd, mem_file = tempfile.mkstemp(prefix="ssdgc-campaign-mem-")
            os.close(fd)
            cmd = [self.time_tool, "-f", "%M", "-o", mem_file] + cmd
        try:
            p = subprocess.run(cmd, capture_output=True, timeout=self.timeout, stdin=subprocess.DEVNULL)
            code, out, err = p.returncode, p.stdout, p.stderr
        except subprocess.TimeoutExpired as e:
            code, out, err = None, e.stdout or b"", e.stderr or b""
        peak = None
        if mem_file:
            try:
                with open(mem_file) as f:
                    lines = [x for x in f.read().split() if x.isdigit()]
                    peak = int(lines[-1]) if lines else None
            finally:
                os.unlink(mem_file)
        return code, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), peak

    def classify(self, args, count, rerun):
        code, out, err, peak = self.execute(args)
        problems = []
        outcome = "ok"
        if peak is not None and peak > MEMORY_LIMIT_KB:
            problems.append(f"peak memory {peak} KB over 2 GiB")
        if code is None:
            outcome = "timeout"
            problems.append(f"no result within {self.timeout} s")
        elif code == 0:
            try:
                rep = json.loads(out)
            except ValueError as e:
                rep = None
                problems.append(f"stdout is not one JSON report: {e}")
            if rep is not None:
                problems += check_report(rep, count, settings(args))
                if rerun and not problems:
                    code2, out2, _, _ = self.execute(args)
                    rep2 = json.loads(out2) if code2 == 0 else None
                    if rep2 is None:
                        problems.append(f"rerun exited {code2}")
                    else:
                        # Wall time is the only value allowed to differ: the array's and each drive's.
                        for r in [rep, rep2, *rep.get("drives", []), *rep2.get("drives", [])]:
                            r["sim"]["wall_s"] = 0
                        if json.dumps(rep, sort_keys=True) != json.dumps(rep2, sort_keys=True):
                            problems.append("rerun gave a different report")
            if err.strip():
                problems.append(f"stderr not empty on success: {err.strip()[:200]}")
        elif code == 2:
            outcome = "user-error"
            lines = err.splitlines()
            if len(lines) != 1 or not lines[0].startswith("ssdgc: error: ") or out:
                problems.append(f"exit 2 without exactly one 'ssdgc: error:' line: {err[:300]!r}")
            if "panicked" in err:
                problems.append("panic message on a user error")
        elif code == 101:
            outcome = "panic"
            problems.append("panic: " + " | ".join(err.splitlines()[:3])[:400])
        elif code < 0 or code > 128:
            outcome = "signal"
            problems.append(f"killed by signal (exit {code})")
        else:
            outcome = f"exit-{code}"
            problems.append(f"unexpected exit {code}: {err[:300]!r}")
        if problems and outcome in ("ok", "user-error"):
            outcome = "bad-" + outcome
        return outcome, problems, peak, err.strip()

    def run_one(self, index, scheme, args, count):
        rerun = index % RERUN_EVERY == 0
        outcome, problems, peak, err = self.classify(args, count, rerun)
        with self.lock:
            self.done += 1
            self.counts[scheme][outcome] += 1
            if outcome == "user-error":
                # The first words of the error, for the summary of what validation rejects.
                msg = re.sub(r"[0-9][0-9.e+-]*", "N", err.removeprefix("ssdgc: error: "))
                self.counts["_errors"][msg[:90]] += 1
            if peak:
                self.peak_kb = max(self.peak_kb, peak)
            if problems:
                cmd = " ".join(shlex.quote(a) for a in [self.binary] + args)
                self.failures.append((index, scheme, outcome, problems, cmd))
                print(f"FAIL run {index} ({scheme}, {outcome}): {'; '.join(problems)}\n  {cmd}", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--runs", type=int, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=60)
    ap.add_argument("--errors", action="store_true", help="list the user errors met, by message")
    a = ap.parse_args()

    schemes = listing(a.bin, "schemes")
    victims = listing(a.bin, "victims")
    time_tool = "/usr/bin/time" if os.path.exists("/usr/bin/time") else None
    c = Campaign(a.bin, a.timeout, time_tool)
    runs = []
    for i in range(a.runs):
        rng = random.Random(a.seed * 1_000_003 + i)
        scheme, args = draw(rng, schemes, victims)
        count = int(next(x for x in args[args.index("--synthetic") + 1].split(",") if x.startswith("count="))[6:])
        runs.append((i, scheme, args, count))
    print(f"campaign: {a.runs} runs, seed {a.seed}, {a.jobs} at a time, {a.timeout:g} s limit each,"
          f" peak memory {'measured' if time_tool else 'not measured (no /usr/bin/time)'}", flush=True)
    with ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for r in runs:
            pool.submit(c.run_one, *r)

    outcomes = sorted({o for s, d in c.counts.items() if s != "_errors" for o in d})
    width = max(len(s) for s in schemes + ["scheme"])
    print()
    print(f"{'scheme':<{width}}  " + "  ".join(f"{o:>10}" for o in outcomes))
    for s in sorted(x for x in c.counts if x != "_errors"):
        print(f"{s:<{width}}  " + "  ".join(f"{c.counts[s].get(o, 0):>10}" for o in outcomes))
    totals = defaultdict(int)
    for s, d in c.counts.items():
        if s != "_errors":
            for o, n in d.items():
                totals[o] += n
    print(f"{'total':<{width}}  " + "  ".join(f"{totals.get(o, 0):>10}" for o in outcomes))
    if a.errors:
        print("\nuser errors by message:")
        for msg, n in sorted(c.counts["_errors"].items(), key=lambda x: -x[1]):
            print(f"  {n:>6}  {msg}")
    if c.peak_kb:
        print(f"\npeak memory of any run: {c.peak_kb / 1024:.1f} MiB")
    print(f"\n{len(c.failures)} failure(s) in {c.done} runs")
    for index, scheme, outcome, problems, cmd in sorted(c.failures):
        print(f"  run {index} ({scheme}, {outcome}): {'; '.join(problems)}\n    {cmd}")
    sys.exit(1 if c.failures else 0)


if __name__ == "__main__":
    main()
