"""Plots: each returns the matplotlib Figure it drew, with one artist per run or part."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

import ssdgc  # noqa: E402
import ssdgc.plot as plot  # noqa: E402


@pytest.fixture(scope="module")
def runs():
    cfg = ssdgc.Config.preset("default").set("geometry.blocks_per_plane", 64)
    return [
        ssdgc.run(cfg, scheme=s, synthetic="count=5000,read=0.3", series_interval="100ms", progress=False)
        for s in ("baseline", "pagc-blind", "zero")
    ]


def test_latency_cdf_overlays_runs_on_a_log_tail(runs, artifacts):
    fig = plot.latency_cdf(runs)
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_yscale() == "log" and ax.get_xscale() == "log"
    assert [line.get_label() for line in ax.get_lines()] == ["baseline", "pagc-blind", "zero"]
    # The whole distribution of a run made from Python.
    xs, ys = ax.get_lines()[0].get_data()
    values, shares = runs[0].latency_cdf()
    d = runs[0].to_dict()["latency_us"]["all"]
    assert list(xs[:-1]) == list(values[:-1]) and list(ys[:-1]) == list(1 - shares[:-1])
    assert xs[-1] == d["max"] and ys[-1] == 1 / d["count"]
    # The percentiles of a report read from the command's JSON.
    loaded = ssdgc.Report.from_dict(runs[0].to_dict())
    xs, ys = plot.latency_cdf([loaded]).axes[0].get_lines()[0].get_data()
    assert xs[0] == d["p50"] and ys[0] == 0.5 and xs[-1] == d["max"]
    fig.savefig(artifacts / "plot-latency-cdf.png")
    assert len(plot.latency_cdf(runs, kind="read").axes[0].get_lines()) == 3
    with pytest.raises(ValueError):
        plot.latency_cdf(runs, kind="both")


def test_breakdown_and_plane_util_stack_per_run(runs, artifacts):
    fig = plot.breakdown(runs)
    ax = fig.axes[0]
    assert len(ax.containers) == 5 and all(len(c) == 3 for c in ax.containers)
    top = [sum(c[i].get_height() for c in ax.containers) for i in range(3)]
    assert top == pytest.approx([r.to_dict()["latency_us"]["all"]["mean"] for r in runs])
    fig.savefig(artifacts / "plot-breakdown.png")
    fig = plot.plane_util(runs)
    ax = fig.axes[0]
    assert len(ax.containers) == 4
    assert [sum(c[i].get_height() for c in ax.containers) for i in range(3)] == pytest.approx([1, 1, 1])
    fig.savefig(artifacts / "plot-plane-util.png")


def test_latency_over_time_and_wear(runs, artifacts):
    fig = plot.latency_over_time(runs)
    lines = fig.axes[0].get_lines()
    assert len(lines) == 3 and len(lines[0].get_xdata()) == len(runs[0].series())
    fig.savefig(artifacts / "plot-latency-time.png")
    fig = plot.wear(runs)
    assert len(fig.axes) == 3
    assert sum(p.get_height() for p in fig.axes[0].patches) == runs[0].wear()["blocks"].sum()
    fig.savefig(artifacts / "plot-wear.png")


def test_against_a_swept_parameter(tmp_path, artifacts):
    frame = ssdgc.sweep(
        ssdgc.Config.preset("default").set("geometry.blocks_per_plane", 64),
        {"gc.threshold": [0.03, 0.06, 0.1], "scheme": ["baseline", "pagc-blind"]},
        workloads=["synthetic:count=3000"], seeds=[1, 2], executor="threads", progress=False,
    )
    fig = plot.against(frame, "gc.threshold", "p99_us", hue="scheme")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["baseline", "pagc-blind"]
    mean = frame[(frame["scheme"] == "baseline") & (frame["gc.threshold"] == 0.06)]["p99_us"].mean()
    assert mean in list(ax.get_lines()[0].get_ydata())
    fig.savefig(artifacts / "plot-against.png")
    with pytest.raises(KeyError):
        plot.against(frame, "gc.nothing")
    # Into existing axes.
    base = Figure()
    ax = base.add_subplot()
    assert plot.against(frame, "gc.threshold", "waf", ax=ax) is base
