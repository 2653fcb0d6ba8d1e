#!/usr/bin/env python3
"""Side-by-side speed of ssdgc, MQSim and SSDSim on one matched drive and workload.

Runs 4 KiB uniformly random writes at steady state on the same drive in each simulator given,
measures each one's CPU time (user + system of the child process), reads each one's write
amplification (WAF) and garbage-collection (GC) count from its own output, and prints host
requests per CPU-second side by side with the ratio to ssdgc -- but only when WAF and GC counts
agree within a tolerance, i.e. when the simulators did the same work.

    bench/compare.py                                # ssdgc alone
    bench/compare.py --mqsim ~/MQSim/MQSim --ssdsim ~/ssdsim/ssd
    bench/compare.py --dry-run --work /tmp/cmp      # write the inputs, print the commands

bench/README.md explains the method, what "matched" means and the caveats. Python 3.8+ standard
library only. Where an input format or an output field of MQSim or SSDSim is used, the comment
names the upstream file it was taken from:
  MQSim:  github.com/CMU-SAFARI/MQSim (src/main.cpp, src/exec/*.cpp, src/ssd/*.cpp)
  SSDSim: the public SSDsim 2.1 sources (e.g. github.com/huaicheng/ssdsim: ssd.c, initialize.c,
          pagemap.c, page.parameters, readme.txt)
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import re
import shlex
import shutil
import statistics
import struct
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

from peers import (  # noqa: E402  (bench/ is the script's directory, on sys.path)
    mqsim_result_path,
    mqsim_ssdconfig,
    mqsim_workload,
    parse_mqsim,
    parse_ssdsim,
    ssdsim_logical_sectors,
    ssdsim_parameters,
)

ROOT = Path(__file__).resolve().parent.parent
SECTOR = 512

# ---------------------------------------------------------------------------------------------
# The matched drive. The geometry and the spare factor are the 16-plane drive of ssdgc's
# end-to-end benchmark (docs/PERFORMANCE.md): 4 channels x 2 chips x 1 die x 2 planes, 1024
# blocks of 64 pages of 4 KiB (1,048,576 physical pages), an effective spare factor of 0.10 with
# GC_BLOCKS blocks per plane held back by the GC threshold; the timing is ssdgc's default preset.
# ---------------------------------------------------------------------------------------------
DRIVE = {
    "channels": 4,
    "chips_per_channel": 2,
    "dies_per_chip": 1,
    "planes_per_die": 2,
    "blocks_per_plane": 1024,
    "pages_per_block": 64,
    "page_size": 4096,
    "spare": 0.10,  # effective spare factor: (physical - logical - held back) / physical
    "gc_blocks": 3,  # free blocks per plane below which GC runs (the GC threshold)
    "read_ns": 50_000,
    "program_ns": 600_000,
    "erase_ns": 3_000_000,
    "channel_mts": 333,  # channel transfer rate, MT/s, 8-bit bus
    "queue_depth": 32,
}


class Drive:
    """The matched drive and the settings each simulator needs to be given to model it."""

    def __init__(self, blocks_per_plane: int) -> None:
        d = dict(DRIVE)
        d["blocks_per_plane"] = blocks_per_plane
        self.d = d
        b = blocks_per_plane
        if b < 64 or b & (b - 1):
            raise SystemExit(
                f"compare.py: --blocks-per-plane {b}: must be a power of two (so that the GC threshold "
                "is an exact binary fraction: MQSim rounds it down, ssdgc up) of at least 64 (room for "
                "the data, the held-back blocks and the write points)"
            )
        self.planes = d["channels"] * d["chips_per_channel"] * d["dies_per_chip"] * d["planes_per_die"]
        self.dies = d["channels"] * d["chips_per_channel"] * d["dies_per_chip"]
        self.physical_pages = self.planes * b * d["pages_per_block"]
        # The GC threshold as a share of a plane's blocks: gc_blocks / b, exact in binary.
        self.gc_threshold = d["gc_blocks"] / b
        # Overprovisioning: the spare factor plus the held-back blocks, as in the e2e benchmark.
        self.overprovision = d["spare"] + d["gc_blocks"] / b
        # Logical pages: floor(physical x (1 - OP)) in double precision, as both ssdgc and MQSim
        # (src/ssd/Address_Mapping_Unit_Page_Level.cpp: Total_logical_pages_no) compute it.
        self.logical_pages = int(self.physical_pages * (1 - self.overprovision))
        self.sectors_per_page = d["page_size"] // SECTOR
        assert math.floor(self.gc_threshold * b) == d["gc_blocks"] == math.ceil(self.gc_threshold * b)

    def summary(self) -> Dict[str, object]:
        return {
            **self.d,
            "planes": self.planes,
            "physical_pages": self.physical_pages,
            "logical_pages": self.logical_pages,
            "overprovision": self.overprovision,
            "gc_threshold": self.gc_threshold,
        }


# ---------------------------------------------------------------------------------------------
# The workload: one sequence of records shared by the three simulators.
#
# All three read the DiskSim-style ASCII line "time device sector size type": time in ns,
# sector and size in 512 B sectors, type 0 = write, 1 = read.
#   MQSim:  src/host/ASCII_Trace_Definition.h (columns 0..4; ASCIITraceWriteCode "0", read "1"),
#           Time_Unit NANOSECOND in the workload file (src/exec/IO_Flow_Parameter_Set.cpp).
#   SSDSim: readme.txt ("request arriving time(int64), logical device number (int), logical sector
#           number (int), request size (int), access operator (int, 1 for read, 0 for write)",
#           time in ns, "No CRLF at the end of the last request line"); ssd.c get_requests reads
#           it with "%lld %d %d %d %d".
#   ssdgc:  --format disksim --disksim-time ns.
# No file ends with a newline (SSDSim's rule; the others accept it).
# ---------------------------------------------------------------------------------------------


def measured_pages(drive: Drive, n: int, seed: int) -> Iterator[int]:
    """The measured requests' logical pages: two pins, then n uniformly random pages.

    The pins write the first and the last logical page, so that every trace spans the whole
    logical space whatever range a simulator infers from it (SSDSim reports the trace's smallest
    and largest sector; MQSim fills its preconditioning occupancy from addresses drawn over the
    flow's range, src/ssd/FTL.cpp Perform_precondition "Step 1-4", with the flow's range taken
    from src/host/IO_Flow_Trace_Based.cpp Get_statistics).
    """
    yield 0
    yield drive.logical_pages - 1
    rng = random.Random(seed)
    for _ in range(n):
        yield rng.randrange(drive.logical_pages)


def ssdsim_warmup_pages(drive: Drive, overwrites: float, seed: int) -> Iterator[int]:
    """SSDSim's ageing, replayed from its trace: a sequential fill of the logical space, then
    overwrites x logical pages of uniformly random single-page writes (ssdgc's `steady` ageing)."""
    yield from range(drive.logical_pages)
    rng = random.Random(f"warmup-{seed}")
    for _ in range(int(overwrites * drive.logical_pages)):
        yield rng.randrange(drive.logical_pages)


def write_trace(path: Path, chunks: List[Tuple[Iterator[int], int]], spp: int, interarrival_ns: int) -> int:
    """Writes records (logical page, type) spaced interarrival_ns apart; returns their count."""
    path.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    with open(path, "w", newline="\n") as f:
        buf: List[str] = []
        for pages, op in chunks:
            for lpn in pages:
                n += 1
                buf.append(f"{n * interarrival_ns} 0 {lpn * spp} {spp} {op}")
                if len(buf) >= 65536:
                    f.write("\n".join(buf))
                    f.write("\n")
                    buf.clear()
        f.write("\n".join(buf))
    # No newline after the last record (SSDSim's readme.txt).
    with open(path, "rb+") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() > 0:
            f.seek(-1, os.SEEK_END)
            if f.read(1) == b"\n":
                f.seek(-1, os.SEEK_END)
                f.truncate()
    return n


#: The offered load of the default arrival spacing, a share of the bound below. At 0.5, ssdgc's
#: block-triggered GC (as MQSim) already queues most requests behind GC on the 16-plane drive.
TARGET_LOAD = 0.25


def default_interarrival_ns(drive: Drive) -> int:
    """An arrival spacing that keeps the drive well below saturation at steady state (open loop).

    Per host write at write amplification w the flash does w programs, w - 1 reads, w / pages
    per block erases and 2w - 1 page transfers; w is bounded by greedy's (1 + s) / (2 s) for
    spare factor s. Spread over the dies (planes of a die counted as serial), at TARGET_LOAD.
    """
    d = drive.d
    s = d["spare"]
    w = (1 + s) / (2 * s)
    transfer_ns = d["page_size"] / (d["channel_mts"] * 1e6) * 1e9
    per_write = (
        w * d["program_ns"]
        + (w - 1) * d["read_ns"]
        + w / d["pages_per_block"] * d["erase_ns"]
        + (2 * w - 1) * transfer_ns
    )
    return int(math.ceil(per_write / drive.dies / TARGET_LOAD / 1000.0)) * 1000


# ---------------------------------------------------------------------------------------------
# ssdgc: a TOML configuration (two variants: GC triggered like MQSim and like SSDSim).
# ---------------------------------------------------------------------------------------------


def ssdgc_toml(drive: Drive, variant: str) -> str:
    d = drive.d
    gc_lines = [
        'scheme = "baseline"',
        'victim = "greedy"',
        f"threshold = {drive.gc_threshold!r}",
        "copyback = false",
    ]
    if variant == "mqsim":
        # MQSim: GC when a plane's free-block pool holds fewer than floor(GC_Exec_Threshold x
        # blocks) blocks (src/ssd/GC_and_WL_Unit_Base.cpp, block_pool_gc_threshold); ssdgc's
        # block trigger holds ceil(gc.threshold x blocks): the same gc_blocks here.
        gc_lines.append('trigger = "blocks"')
    else:
        # SSDSim: one GC node (one victim) per page write that leaves the plane with fewer than
        # page_block x block_plane x gc_hard_threshold free pages (pagemap.c get_ppn, with
        # "active write" off); ssdgc's free-page trigger with one victim per trigger, as its
        # `pagc` preset models SSDsim.
        gc_lines += ['trigger = "pages"', 'collect = "one"']
    return "\n".join(
        [
            f"# The matched drive for the comparison with {'MQSim' if variant == 'mqsim' else 'SSDSim'}"
            " (written by bench/compare.py).",
            "[geometry]",
            f"channels = {d['channels']}",
            f"chips_per_channel = {d['chips_per_channel']}",
            f"dies_per_chip = {d['dies_per_chip']}",
            f"planes_per_die = {d['planes_per_die']}",
            f"blocks_per_plane = {d['blocks_per_plane']}",
            f"pages_per_block = {d['pages_per_block']}",
            f"page_size = {d['page_size']}",
            f"overprovision = {drive.overprovision!r}",
            "",
            "[timing]",
            f'read = "{d["read_ns"]}ns"',
            f'program = "{d["program_ns"]}ns"',
            f'erase = "{d["erase_ns"]}ns"',
            f"channel_rate_mts = {d['channel_mts']}",
            "channel_width_bits = 8",
            "",
            "[ftl]",
            'allocation = "CWDP"',
            'multiplane = "off"',
            "",
            "[gc]",
            *gc_lines,
            "",
            "[host]",
            f"queue_depth = {d['queue_depth']}",
            "",
            "[buffer]",
            "size = 0",
            "",
            "[precondition]",
            'mode = "steady"',
            "overwrites = 2.0",
            "",
        ]
    )


def parse_ssdgc(stdout: str) -> Dict[str, float]:
    r = json.loads(stdout)
    return {
        "host_writes": int(r["flash"]["host_pages_written"]),
        "gc_moves": int(r["flash"]["gc_pages_moved"]),
        "gc": int(r["gc"]["invocations"]),
        "erases": int(r["flash"]["blocks_erased"]),
        "requests": int(r["requests"]["total"]),
        "saturated": bool(r["host_queue"]["saturated"]),
    }


# ---------------------------------------------------------------------------------------------
# Running and measuring.
# ---------------------------------------------------------------------------------------------


class Run:
    """One invocation of a simulator: the command, its working directory and standard input."""

    def __init__(self, label: str, cmd: List[str], cwd: Path, stdin: Optional[str] = None,
                 outputs: Optional[List[Path]] = None) -> None:
        self.label, self.cmd, self.cwd, self.stdin = label, cmd, cwd, stdin
        # Files the run writes: removed first, so that a failed run never reads an old one.
        self.outputs = outputs or []

    def shell(self) -> str:
        s = f"(cd {shlex.quote(str(self.cwd))} && {' '.join(shlex.quote(c) for c in self.cmd)}"
        if self.stdin is not None:
            s += f" <<< {shlex.quote(self.stdin.rstrip())}"
        else:
            s += " < /dev/null"
        return s + ")"

    def execute(self, log: Path) -> Tuple[float, float, int, str]:
        """Runs it; returns (CPU seconds: user + system of the child, wall seconds, exit status,
        standard output). CPU time comes from wait4's resource usage of this child alone."""
        for stale in self.outputs:
            if stale.exists():
                stale.unlink()
        with open(log, "wb") as err:
            t0 = time.perf_counter()
            p = subprocess.Popen(
                self.cmd,
                cwd=self.cwd,
                stdin=subprocess.PIPE if self.stdin is not None else subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=err,
            )
            if self.stdin is not None:
                assert p.stdin is not None
                p.stdin.write(self.stdin.encode())
                p.stdin.close()
            assert p.stdout is not None
            out = p.stdout.read()
            _, status, usage = os.wait4(p.pid, 0)
            wall = time.perf_counter() - t0
            p.returncode = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8
        return usage.ru_utime + usage.ru_stime, wall, p.returncode, out.decode(errors="replace")


class Side:
    """One simulator (or one ssdgc variant): its base and full runs and how to read them."""

    def __init__(self, name: str, matches: Optional[str], full: Run, base: Run, read) -> None:
        self.name, self.matches, self.full, self.base, self.read = name, matches, full, base, read


def measure(side: Side, repeat: int, logs: Path) -> Dict[str, object]:
    """Runs base and full `repeat` times each (alternating) and returns the medians and counters."""
    cpu: Dict[str, List[float]] = {"base": [], "full": []}
    wall: Dict[str, List[float]] = {"base": [], "full": []}
    counters: Dict[str, Dict[str, float]] = {}
    tag = side.name + (f"-as-{side.matches}" if side.matches else "")
    for i in range(repeat):
        for which, run in (("base", side.base), ("full", side.full)):
            log = logs / f"{tag}-{which}-{i}.log"
            print(f"  {tag} {which} ({i + 1}/{repeat}): {run.shell()}", file=sys.stderr, flush=True)
            c, w, status, out = run.execute(log)
            (logs / f"{tag}-{which}-{i}.out").write_text(out)
            try:
                counters[which] = side.read(run, status, out)
            except (ValueError, KeyError, OSError, json.JSONDecodeError) as e:
                raise SystemExit(
                    f"compare.py: {side.name} {which} run failed (exit {status}): {e}; see {log}"
                ) from None
            cpu[which].append(c)
            wall[which].append(w)
    b, f = counters["base"], counters["full"]
    delta = {k: f[k] - b[k] for k in f if isinstance(f[k], (int, float)) and not isinstance(f[k], bool)}
    cpu_b, cpu_f = statistics.median(cpu["base"]), statistics.median(cpu["full"])
    host = delta["host_writes"]
    flash = delta["gc_moves"] + host if "gc_moves" in delta else delta["programs"]
    requests = delta["requests"]
    cpu_d = cpu_f - cpu_b
    return {
        "simulator": side.name,
        "matches": side.matches,
        "requests": requests,
        "cpu_s": cpu_d,
        "cpu_s_full": cpu_f,
        "cpu_s_base": cpu_b,
        "cpu_s_runs": cpu,
        "wall_s_runs": wall,
        "requests_per_cpu_s": requests / cpu_d if cpu_d > 0 else None,
        "waf": flash / host if host > 0 else None,
        "gc": delta["gc"],
        "gc_per_1k_writes": 1000.0 * delta["gc"] / host if host > 0 else None,
        "saturated": bool(f.get("saturated", False)),
        "base": b,
        "full": f,
    }


def rel_diff(a: Optional[float], b: Optional[float]) -> Optional[float]:
    if a is None or b is None or b == 0:
        return None
    return abs(a - b) / abs(b)


def fmt_rate(x: Optional[float]) -> str:
    if x is None:
        return "n/a"
    return f"{x / 1e6:.2f} M" if x >= 1e6 else f"{x / 1e3:.1f} k"


def report(results: List[Dict[str, object]], tolerance: float,
           expected: Optional[int] = None) -> Tuple[str, List[Dict[str, object]]]:
    """The table, and a ratio per other simulator when the work matched; `expected` is the number
    of measured requests every simulator must have served."""
    lines = [
        f"{'simulator':<22} {'requests':>9} {'CPU s':>8} {'req/CPU-s':>10} {'WAF':>7} {'GC':>9} {'GC/1k wr':>9}",
    ]
    for r in results:
        name = r["simulator"] + (f" (as {r['matches']})" if r["matches"] else "")
        waf = f"{r['waf']:.3f}" if r["waf"] is not None else "n/a"
        gk = f"{r['gc_per_1k_writes']:.2f}" if r["gc_per_1k_writes"] is not None else "n/a"
        lines.append(
            f"{name:<22} {r['requests']:>9} {r['cpu_s']:>8.2f} {fmt_rate(r['requests_per_cpu_s']):>10}"
            f" {waf:>7} {r['gc']:>9} {gk:>9}"
        )
    ratios = []
    by_name = {r["simulator"]: r for r in results}
    for other in ("MQSim", "SSDSim"):
        o = by_name.get(other)
        s = next((r for r in results if r["simulator"] == "ssdgc" and r["matches"] == other), None)
        if o is None or s is None:
            continue
        dw = rel_diff(o["waf"], s["waf"])
        dg = rel_diff(o["gc_per_1k_writes"], s["gc_per_1k_writes"])
        entry: Dict[str, object] = {"against": other, "waf_diff": dw, "gc_diff": dg, "ratio": None}
        why = None
        short = [x["simulator"] for x in (s, o) if expected is not None and x["requests"] != expected]
        if short:
            why = f"{' and '.join(short)} served a different number of requests than the {expected} measured"
        elif dw is None or dg is None:
            why = "WAF or GC count missing"
        elif dw > tolerance or dg > tolerance:
            why = (
                f"WAF differs by {dw:.1%} and GC per write by {dg:.1%}, more than the {tolerance:.0%} "
                "tolerance: the two did not do the same work, so their speeds are not comparable"
            )
        elif o["requests_per_cpu_s"] is None or s["requests_per_cpu_s"] is None:
            why = "a CPU time difference is not positive (too few requests to measure)"
        if why:
            lines.append(f"ssdgc / {other}: no ratio ({why})")
        else:
            ratio = s["requests_per_cpu_s"] / o["requests_per_cpu_s"]
            entry["ratio"] = ratio
            lines.append(
                f"ssdgc / {other}: {ratio:.1f}x requests per CPU-second "
                f"(WAF within {dw:.1%}, GC per write within {dg:.1%}; tolerance {tolerance:.0%})"
            )
        ratios.append(entry)
    for r in results:
        if r["saturated"]:
            lines.append(f"note: {r['simulator']}'s host queue saturated: lower the load with --interarrival-us")
    return "\n".join(lines), ratios


# ---------------------------------------------------------------------------------------------
# Putting it together.
# ---------------------------------------------------------------------------------------------


def executable(path: Optional[Path]) -> Optional[str]:
    """The absolute path of an executable given as a path or as a name on PATH, or None. The runs
    happen in other directories, so a relative path is made absolute."""
    if path is None:
        return None
    if os.sep not in str(path):
        return shutil.which(str(path))
    p = path.resolve()
    return str(p) if p.is_file() and os.access(p, os.X_OK) else None


def main(argv: Optional[List[str]] = None) -> int:
    ap = argparse.ArgumentParser(
        description="Requests per CPU-second of ssdgc, MQSim and SSDSim on one matched drive and "
        "workload (4 KiB uniformly random writes at steady state). See bench/README.md.",
    )
    ap.add_argument("--mqsim", type=Path, help="MQSim binary built by you (github.com/CMU-SAFARI/MQSim)")
    ap.add_argument("--ssdsim", type=Path, help="SSDSim binary built by you (the `ssd` of SSDsim 2.x)")
    ap.add_argument("--ssdgc", type=Path, default=ROOT / "target" / "release" / "ssdgc",
                    help="ssdgc binary (default: target/release/ssdgc of this clone)")
    ap.add_argument("--ssdgc-only", action="store_true", help="run ssdgc's side alone, even if other binaries are given")
    ap.add_argument("--dry-run", action="store_true", help="write the input files, print the commands, run nothing")
    ap.add_argument("--work", type=Path, default=ROOT / "target" / "bench-compare",
                    help="directory for the inputs, outputs and results (default: target/bench-compare)")
    ap.add_argument("--requests", type=int, default=1_000_000, help="measured requests (default 1,000,000)")
    ap.add_argument("--settle", type=float, default=0.1,
                    help="share of the requests run before the measured window and subtracted (default 0.1)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the workload and of the simulators (default 1)")
    ap.add_argument("--interarrival-us", type=float,
                    help="spacing of the requests in microseconds (default: a quarter of the drive's estimated steady-state capacity)")
    ap.add_argument("--ssdsim-overwrites", type=float, default=2.0,
                    help="SSDSim's ageing: random overwrites after the fill, x logical pages (default 2.0, as ssdgc's)")
    ap.add_argument("--blocks-per-plane", type=int, default=DRIVE["blocks_per_plane"],
                    help="a smaller drive for quick checks (a power of two, at least 64; default 1024)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each measurement; the median CPU time is used")
    ap.add_argument("--tolerance", type=float, default=0.05,
                    help="largest relative WAF or GC-per-write difference for which a ratio is printed (default 0.05)")
    a = ap.parse_args(argv)

    if a.requests < 10:
        ap.error("--requests must be at least 10")
    if not 0.0 <= a.settle < 1.0:
        ap.error("--settle must be in [0, 1)")
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    drive = Drive(a.blocks_per_plane)
    ia_ns = int(round(a.interarrival_us * 1000)) if a.interarrival_us else default_interarrival_ns(drive)
    if ia_ns <= 0:
        ap.error("--interarrival-us must be positive")
    base_n = int(a.requests * a.settle)
    spp = drive.sectors_per_page
    if ssdsim_logical_sectors(drive) < drive.logical_pages * spp:
        raise SystemExit("compare.py: SSDSim's logical space would be smaller than the others'; change the drive")

    use_mqsim = a.mqsim is not None and not a.ssdgc_only
    use_ssdsim = a.ssdsim is not None and not a.ssdgc_only
    for flag, path, used in (("--mqsim", a.mqsim, use_mqsim), ("--ssdsim", a.ssdsim, use_ssdsim)):
        if used and not a.dry_run and executable(path) is None:
            raise SystemExit(f"compare.py: {flag} {path}: not an executable file")
    ssdgc_bin = executable(a.ssdgc)
    if ssdgc_bin is None:
        if not a.dry_run:
            raise SystemExit(
                f"compare.py: no ssdgc binary at {a.ssdgc}: build it with `cargo build --release -p ssdgc-cli` "
                "or pass --ssdgc"
            )
        ssdgc_bin = str(a.ssdgc)

    work = a.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    (work / "drive.json").write_text(
        json.dumps({**drive.summary(), "interarrival_ns": ia_ns, "requests": a.requests,
                    "settle_requests": base_n, "seed": a.seed}, indent=2) + "\n"
    )

    # The shared trace: base = the pins and the settling window, full = base + measured window.
    traces = work / "traces"
    full_trace, base_trace = traces / "full.disksim", traces / "base.disksim"
    write_trace(full_trace, [(measured_pages(drive, a.requests + base_n, a.seed), 0)], spp, ia_ns)
    write_trace(base_trace, [(measured_pages(drive, base_n, a.seed), 0)], spp, ia_ns)

    sides: List[Side] = []
    commands: List[Tuple[str, Run]] = []

    # ssdgc, once per GC trigger it is matched to.
    cfg_dir = work / "ssdgc"
    cfg_dir.mkdir(exist_ok=True)
    variants = ["MQSim", "SSDSim"] if (a.ssdgc_only or not (use_mqsim or use_ssdsim)) else \
        [v for v, on in (("MQSim", use_mqsim), ("SSDSim", use_ssdsim)) if on]
    for v in variants:
        toml = cfg_dir / f"as-{v.lower()}.toml"
        toml.write_text(ssdgc_toml(drive, v.lower()))

        def ssdgc_run(trace: Path, label: str, toml: Path = toml) -> Run:
            return Run(label, [ssdgc_bin, "run", "--config", str(toml), "--format", "disksim",
                               "--disksim-time", "ns", "--fold", "reject", "--seed", str(a.seed),
                               "--json", "-q", str(trace)], cfg_dir)

        def read_ssdgc(run: Run, status: int, out: str) -> Dict[str, float]:
            if status != 0:
                raise ValueError(f"exit status {status}")
            return parse_ssdgc(out)

        full, base = ssdgc_run(full_trace, "full"), ssdgc_run(base_trace, "base")
        sides.append(Side("ssdgc", v, full, base, read_ssdgc))
        commands += [(f"ssdgc (as {v}), base", base), (f"ssdgc (as {v}), full", full)]

    # MQSim: its inputs are always written (so that they can be inspected); run when given.
    mq_dir = work / "mqsim"
    mq_dir.mkdir(exist_ok=True)
    (mq_dir / "ssdconfig.xml").write_text(mqsim_ssdconfig(drive, a.seed))
    mq_bin = (executable(a.mqsim) or str(a.mqsim)) if a.mqsim else "MQSim"
    mq_runs = {}
    for which, trace in (("full", full_trace), ("base", base_trace)):
        wl = mq_dir / f"workload-{which}.xml"
        wl.write_text(mqsim_workload(drive, trace))
        # src/main.cpp: MQSim -i <ssd config> -w <workload>; it waits on cin.get() at the end.
        mq_runs[which] = Run(which, [mq_bin, "-i", "ssdconfig.xml", "-w", wl.name], mq_dir,
                             outputs=[mqsim_result_path(wl)])

    def read_mqsim(run: Run, status: int, out: str) -> Dict[str, float]:
        result = mqsim_result_path(mq_dir / run.cmd[-1])
        if not result.exists():
            raise ValueError(f"no result file {result}")
        return parse_mqsim(result, 1)

    if use_mqsim:
        sides.append(Side("MQSim", None, mq_runs["full"], mq_runs["base"], read_mqsim))
    why_not = " (not run: --ssdgc-only)" if a.ssdgc_only else " (not run: no {})"
    mq_note = "" if use_mqsim else why_not.format("--mqsim")
    commands += [("MQSim, base" + mq_note, mq_runs["base"]), ("MQSim, full" + mq_note, mq_runs["full"])]

    # SSDSim: the warm-up (and one read: ssd.c statistic_output divides by the read request
    # count) before the same records, in a trace of its own; one directory per run, since it
    # reads page.parameters from and writes ex.out and statistic10.dat to its working directory.
    ss_runs = {}
    for which, n in (("full", a.requests + base_n), ("base", base_n)):
        d = work / "ssdsim" / which
        d.mkdir(parents=True, exist_ok=True)
        (d / "page.parameters").write_text(ssdsim_parameters(drive))
        write_trace(d / "trace.ascii", [(ssdsim_warmup_pages(drive, a.ssdsim_overwrites, a.seed), 0),
                                        (iter([0]), 1), (measured_pages(drive, n, a.seed), 0)], spp, ia_ns)
        ss_bin = (executable(a.ssdsim) or str(a.ssdsim)) if a.ssdsim else "ssd"
        # initialize.c initiation(): scanf("%s") of the trace file name from standard input.
        ss_runs[which] = Run(which, [ss_bin], d, stdin="trace.ascii\n",
                             outputs=[d / "statistic10.dat", d / "ex.out"])

    def read_ssdsim(run: Run, status: int, out: str) -> Dict[str, float]:
        stats = run.cwd / "statistic10.dat"
        if not stats.exists():
            raise ValueError(f"no statistics file {stats}")
        r = parse_ssdsim(stats, 1)
        big = run.cwd / "ex.out"  # one line per request; not needed once read
        if big.exists():
            big.unlink()
        return r

    if use_ssdsim:
        sides.append(Side("SSDSim", None, ss_runs["full"], ss_runs["base"], read_ssdsim))
    ss_note = "" if use_ssdsim else why_not.format("--ssdsim")
    commands += [("SSDSim, base" + ss_note, ss_runs["base"]), ("SSDSim, full" + ss_note, ss_runs["full"])]

    print(f"matched drive: {json.dumps(drive.summary())}")
    print(f"workload: {a.requests} measured + {base_n} settling + 2 pinning 4 KiB writes, "
          f"one every {ia_ns} ns, seed {a.seed}; inputs in {work}")
    if a.dry_run:
        for label, run in commands:
            print(f"# {label}")
            print(run.shell())
        return 0

    logs = work / "logs"
    logs.mkdir(exist_ok=True)
    results = [measure(s, a.repeat, logs) for s in sides]
    table, ratios = report(results, a.tolerance, a.requests)
    (work / "results.json").write_text(json.dumps({"drive": drive.summary(), "interarrival_ns": ia_ns,
                                                  "results": results, "ratios": ratios,
                                                  "tolerance": a.tolerance}, indent=2) + "\n")
    print(table)
    if not (use_mqsim or use_ssdsim):
        print("no other simulator given (--mqsim, --ssdsim): ssdgc's side only, no ratio")
    return 0


if __name__ == "__main__":
    sys.exit(main())
