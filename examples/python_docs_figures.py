"""Makes the figures of docs/python.md (docs/python/*.png), one of each kind of ssdgc.plot.

    python examples/python_docs_figures.py          # from the repository's root, ssdgc installed

Runs: the pagc-small drive (the PaGC paper's organisation, 128 blocks per plane) replaying the
shared trace blkreplay_1and1_windows_shared_server.load with baseline, T-PaGC and the zero-latency
bound, latency per 200 ms; and a sweep of gc.threshold × scheme on the default drive with 3 seeds.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import ssdgc  # noqa: E402
import ssdgc.plot as plot  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "python"
TRACE = ROOT.parent / "shared" / "traces" / "blkreplay_1and1_windows_shared_server.load"


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    cfg = ssdgc.Config.preset("pagc-small")
    _, runs = ssdgc.compare(
        cfg, ["baseline", "pagc-threshold", "zero"], trace=TRACE, series_interval="200ms",
        return_reports=True, progress=False,
    )
    plot.latency_cdf(runs).savefig(OUT / "latency-cdf.png", dpi=110)
    plot.breakdown(runs).savefig(OUT / "breakdown.png", dpi=110)
    plot.latency_over_time(runs).savefig(OUT / "latency-over-time.png", dpi=110)
    plot.plane_util(runs).savefig(OUT / "plane-util.png", dpi=110)
    plot.wear(runs).savefig(OUT / "wear.png", dpi=110)
    frame = ssdgc.sweep(
        ssdgc.Config.preset("default"),
        {"gc.threshold": [0.02, 0.04, 0.06, 0.08, 0.1], "scheme": ["baseline", "pagc-threshold"]},
        workloads=["synthetic:count=50000"],
        seeds=[1, 2, 3],
        progress=False,
    )
    plot.against(frame, "gc.threshold", "p99_us", hue="scheme").savefig(OUT / "against.png", dpi=110)
    print(frame.groupby(["scheme", "gc.threshold"])[["waf", "p99_us"]].mean().round(3).to_string())


if __name__ == "__main__":
    main()
