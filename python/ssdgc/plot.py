"""Plots of runs and sweeps with matplotlib. Each function returns the `Figure` it drew on.

- :func:`latency_cdf`: response-time distribution with a logarithmic tail axis, runs overlaid;
- :func:`breakdown`: the response-time breakdown (ST, CsGC, CoGC, LC, CnGC), stacked per run;
- :func:`latency_over_time`: mean (or maximum) response time per interval, runs overlaid;
- :func:`plane_util`: how planes spend their time, stacked per run;
- :func:`wear`: erase-count distribution of all blocks, one panel per run;
- :func:`against`: a figure of a sweep or comparison (WAF, a percentile …) against a swept
  parameter, one line per value of another.

Every function takes ``ax=`` to draw into existing axes (and then returns their figure); without
it, it makes a figure of its own, outside pyplot's list of figures, so figures made in a loop are
freed with their last reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Sequence, Union

from ._report import BREAKDOWN_PARTS, PLANE_STATES, Report

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

Reports = Union[Report, Sequence[Report]]

_TAIL_TICKS = [0.5, 0.1, 0.01, 1e-3, 1e-4, 1e-5, 1e-6]
_TAIL_LABELS = ["p50", "p90", "p99", "p99.9", "p99.99", "p99.999", "p99.9999"]
_BREAKDOWN_NAMES = {"st": "ST", "csgc": "CsGC", "cogc": "CoGC", "lc": "LC", "cngc": "CnGC"}
_PLANE_NAMES = {"host": "host", "gc": "GC", "wait_other_gc": "wait for other plane's GC", "idle": "idle"}


def _list(reports: Reports) -> list:
    return [reports] if isinstance(reports, Report) else list(reports)


def _axes(ax: Optional["Axes"], figsize=(7, 4.2)):
    if ax is not None:
        return ax.figure, ax
    from matplotlib.figure import Figure

    fig = Figure(figsize=figsize, layout="constrained")
    return fig, fig.add_subplot()


def latency_cdf(
    reports: Reports, kind: str = "all", ax: Optional["Axes"] = None, xlog: bool = True
) -> "Figure":
    """The response-time distribution of each run with a logarithmic tail axis: the fraction of
    requests slower than each response time (p50 at the top, p99.99 near the bottom), runs
    overlaid. ``kind`` is ``"all"``, ``"read"`` or ``"write"``.

    The curve is the run's whole distribution (its HDR histogram, :meth:`Report.latency_cdf`)
    for runs made from Python, and the report's percentiles (p50 … p99.99) and maximum, as dots,
    for reports read from the command's JSON."""
    if kind not in ("all", "read", "write"):
        raise ValueError("kind must be 'all', 'read' or 'write'")
    fig, ax = _axes(ax)
    lowest = 0.5
    for r in _list(reports):
        xs, ys = r.tail(kind)
        ax.plot(xs, ys, marker="o" if not r.has_cdf() else None, markersize=3, label=r.label)
        lowest = min([lowest, *ys])
    ax.set_yscale("log")
    ticks = [(t, s) for t, s in zip(_TAIL_TICKS, _TAIL_LABELS) if t >= lowest * 0.999]
    ax.set_yticks([t for t, _ in ticks], [s for _, s in ticks])
    ax.set_ylim(lowest * 0.7, 0.7)
    ax.minorticks_off()
    if xlog:
        ax.set_xscale("log")
    ax.set_xlabel(f"response time (µs), {kind} requests")
    ax.set_ylabel("percentile (log tail)")
    ax.grid(True, which="major", alpha=0.3)
    ax.legend()
    return fig


def breakdown(reports: Reports, ax: Optional["Axes"] = None) -> "Figure":
    """Mean response time per request split into service time (ST), waiting on GC of the same
    plane (CsGC), on GC of another plane of the die (CoGC), late conflicts (LC) and other
    conflicts (CnGC), stacked, one bar per run (the PaGC paper's Fig. 2 split)."""
    rs = _list(reports)
    fig, ax = _axes(ax)
    labels = [r.label for r in rs]
    bottom = [0.0] * len(rs)
    for part in BREAKDOWN_PARTS:
        vals = [r._data["breakdown_us"][part] for r in rs]
        ax.bar(labels, vals, bottom=bottom, label=_BREAKDOWN_NAMES[part])
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_ylabel("mean response time (µs)")
    ax.legend()
    return fig


def latency_over_time(
    reports: Reports, by: str = "time", stat: str = "mean_us", ax: Optional["Axes"] = None
) -> "Figure":
    """Response time per interval of simulated arrival time (``by="time"``, runs with
    ``series_interval=``) or per window of requests (``by="request"``), runs overlaid; ``stat``
    is ``"mean_us"`` or ``"max_us"``."""
    if stat not in ("mean_us", "max_us"):
        raise ValueError("stat must be 'mean_us' or 'max_us'")
    fig, ax = _axes(ax)
    for r in _list(reports):
        s = r.series(by)
        ax.plot(s["start"], s[stat], label=r.label, linewidth=1)
    ax.set_yscale("log")
    ax.set_xlabel("simulated arrival time (s)" if by == "time" else "request")
    ax.set_ylabel(("mean" if stat == "mean_us" else "maximum") + " response time (µs)")
    ax.legend()
    return fig


def plane_util(reports: Reports, ax: Optional["Axes"] = None) -> "Figure":
    """How a plane spends its time, on average: serving the host, collecting, idle while another
    plane of its die collects, idle; stacked, one bar per run."""
    rs = _list(reports)
    fig, ax = _axes(ax)
    labels = [r.label for r in rs]
    bottom = [0.0] * len(rs)
    for s in PLANE_STATES:
        vals = [r._data["plane_util"][s] for r in rs]
        ax.bar(labels, vals, bottom=bottom, label=_PLANE_NAMES[s])
        bottom = [b + v for b, v in zip(bottom, vals)]
    ax.set_ylim(0, 1)
    ax.set_ylabel("share of time")
    ax.legend()
    return fig


def wear(reports: Reports, sharex: bool = True) -> "Figure":
    """The erase-count distribution of all blocks, one panel per run (as the practical-GC
    paper's Fig. 7)."""
    from matplotlib.figure import Figure

    rs = _list(reports)
    fig = Figure(figsize=(3.2 * len(rs), 3), layout="constrained")
    axes = fig.subplots(1, len(rs), sharex=sharex, sharey=True, squeeze=False)[0]
    for ax, r in zip(axes, rs):
        w = r.wear()
        ax.bar(w["erase_count"], w["blocks"], width=(w["erase_count_end"] - w["erase_count"]) * 0.9, align="edge")
        ax.set_title(r.label)
        ax.set_xlabel("erase count")
    axes[0].set_ylabel("blocks")
    return fig


def against(
    frame: "pd.DataFrame",
    x: str,
    y: str = "waf",
    hue: Optional[str] = None,
    ax: Optional["Axes"] = None,
    logy: bool = False,
) -> "Figure":
    """Figure ``y`` (a column of a sweep or comparison frame: ``"waf"``, ``"p99_us"`` …) against
    the swept parameter ``x``, one line per value of ``hue`` (``"scheme"``, say). Points that
    differ only in their seed are averaged, with their standard deviation as error bars."""
    fig, ax = _axes(ax)
    for col in [x, y] + ([hue] if hue else []):
        if col not in frame.columns:
            raise KeyError(f"the frame has no column {col!r}")
    groups = frame.groupby(hue, sort=False) if hue else [(None, frame)]
    for name, g in groups:
        if isinstance(name, tuple) and len(name) == 1:
            name = name[0]
        stats = g.groupby(x, sort=True)[y].agg(["mean", "std", "count"])
        err = stats["std"].where(stats["count"] > 1)
        ax.errorbar(stats.index, stats["mean"], yerr=err.fillna(0) if err.notna().any() else None,
                    marker="o", capsize=3, label=str(name) if hue else None)
    if logy:
        ax.set_yscale("log")
    ax.set_xlabel(x)
    ax.set_ylabel(y)
    if hue:
        ax.legend(title=hue)
    ax.grid(True, alpha=0.3)
    return fig
