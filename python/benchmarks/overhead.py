"""What Python costs over the ssdgc command for one run.

    cargo build --release -p ssdgc-cli
    pip install ./python                       # the release build of the package
    python python/benchmarks/overhead.py [--repeat 15] [--cli target/release/ssdgc] [ARGS...]

Times the same run, alternating run by run so that both see the same machine:

- ``command``: ``ssdgc run ARGS --json -q``, the whole process (start, run, JSON printed);
- ``ssdgc.run``: the call ``ssdgc.run(...)`` in a running interpreter, with the report parsed
  into a dict (what a notebook or a sweep pays per run);
- ``python process``: ``python -c "import ssdgc; ssdgc.run(...).to_dict()"``, the whole process
  (interpreter start and imports included).

The default run is the command's default job: the ``default`` drive preconditioned to steady
state, then 200,000 random 4 KiB writes at queue depth 32, baseline GC. Prints medians and the
overheads over the command as a Markdown table, and checks that both give the same report.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

import ssdgc

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repeat", type=int, default=15)
    p.add_argument("--cli", default=str(ROOT / "target" / "release" / "ssdgc"))
    p.add_argument("--synthetic", default=None, help="a synthetic spec instead of the default workload")
    p.add_argument("--preset", default="default")
    a = p.parse_args()
    cli_args = [a.cli, "run", "--preset", a.preset, "--json", "-q"]
    py_kwargs = {}
    if a.synthetic:
        cli_args += ["--synthetic", a.synthetic]
        py_kwargs["synthetic"] = a.synthetic
    code = (
        "import ssdgc; ssdgc.run(ssdgc.Config.preset(%r), progress=False, **%r).to_dict()" % (a.preset, py_kwargs)
    )
    cfg = ssdgc.Config.preset(a.preset)

    # Same report, wall time aside.
    cli_report = json.loads(subprocess.run(cli_args, capture_output=True, text=True, check=True).stdout)
    py_report = ssdgc.run(cfg, progress=False, **py_kwargs).to_dict()
    for r in (cli_report, py_report):
        r["sim"].pop("wall_s")
    assert cli_report == py_report, "the command and the package disagree"

    times = {"command": [], "ssdgc.run": [], "python process": []}
    for _ in range(a.repeat):
        t = time.perf_counter()
        subprocess.run(cli_args, stdout=subprocess.DEVNULL, check=True)
        times["command"].append(time.perf_counter() - t)
        t = time.perf_counter()
        ssdgc.run(cfg, progress=False, **py_kwargs).to_dict()
        times["ssdgc.run"].append(time.perf_counter() - t)
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        times["python process"].append(time.perf_counter() - t)

    base = statistics.median(times["command"])
    print(f"{a.repeat} runs each, alternating; {os.cpu_count()} cores; {ssdgc.__version__}")
    print()
    print("| how | median s | min s | max s | over the command |")
    print("|---|---:|---:|---:|---:|")
    for k, v in times.items():
        m = statistics.median(v)
        over = "—" if k == "command" else f"{(m / base - 1) * 100:+.1f} %"
        print(f"| {k} | {m:.3f} | {min(v):.3f} | {max(v):.3f} | {over} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
