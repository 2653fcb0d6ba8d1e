"""`run` and `compare`: simulations from Python, set up exactly as the ssdgc command sets them up."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _native, _progress, _requests
from ._config import Config, as_config
from ._report import Report, summary_row

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

PathLike = Union[str, "os.PathLike[str]"]

#: The keyword arguments of `run` that describe the workload, with their defaults.
WORKLOAD_ARGS = {
    "trace": None,
    "synthetic": None,
    "format": "auto",
    "volume": None,
    "disksim_time": "ns",
    "blkparse_event": "D",
    "replay": None,
}
#: The keyword arguments of `run` that stand for configuration keys.
KEY_ARGS = {"scheme": None, "victim": None, "time_scale": None, "fold": None, "queue_depth": None}
#: The keyword arguments of `run` that are options of the run.
SETTING_ARGS = {"precondition": None, "check": False, "series_interval": None, "series_window": None}


def _duration(v: Any, name: str) -> Optional[str]:
    if v is None or isinstance(v, str):
        return v
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return f"{float(v)!r}s"
    raise TypeError(f"{name} must be a duration string ('100ms') or seconds, not {type(v).__name__}")


def split_args(kwargs: Dict[str, Any]) -> Tuple[Dict[str, Any], Dict[str, Any], Dict[str, Any]]:
    """The native `(keys, workload, settings)` dicts of `run`'s keyword arguments."""
    unknown = set(kwargs) - set(WORKLOAD_ARGS) - set(KEY_ARGS) - set(SETTING_ARGS)
    if unknown:
        raise TypeError(f"unknown argument(s): {', '.join(sorted(unknown))}")
    keys = {k: kwargs.get(k, d) for k, d in KEY_ARGS.items()}
    load = {k: kwargs.get(k, d) for k, d in WORKLOAD_ARGS.items()}
    settings = {k: kwargs.get(k, d) for k, d in SETTING_ARGS.items()}
    if load["trace"] is not None:
        load["trace"] = os.fspath(load["trace"])
    settings["series_interval"] = _duration(settings["series_interval"], "series_interval")
    settings["check"] = bool(settings["check"])
    return keys, load, settings


def run(
    config: Union[Config, str, None] = None,
    *,
    trace: Optional[PathLike] = None,
    synthetic: Optional[str] = None,
    scheme: Optional[str] = None,
    victim: Optional[str] = None,
    seed: int = 1,
    format: str = "auto",
    volume: Optional[int] = None,
    disksim_time: str = "ns",
    blkparse_event: str = "D",
    replay: Optional[str] = None,
    precondition: Optional[str] = None,
    time_scale: Optional[float] = None,
    fold: Optional[str] = None,
    queue_depth: Optional[int] = None,
    series_interval: Union[str, float, None] = None,
    series_window: Optional[int] = None,
    check: bool = False,
    record_requests: Union[bool, PathLike] = False,
    progress: _progress.ProgressArg = True,
    label: Optional[str] = None,
) -> Report:
    """Runs one simulation and returns its :class:`Report` (``ssdgc run``).

    Parameters
    ----------
    config
        A :class:`Config`, or a preset name (``"pagc-small"``); the ``default`` preset if None.
    trace
        A trace file to replay (format detected, gzip and zstd read transparently).
    synthetic
        A synthetic workload instead, e.g. ``"count=100000,read=0.4,size=exp:32KiB,seq=0.4,interarrival=exp:3ms"``.
        With neither, the built-in workload: 200,000 random 4 KiB writes, closed loop at queue
        depth 32 (``ssdgc._native.DEFAULT_WORKLOAD``).
    scheme
        GC scheme (``gc.scheme``; ``ssdgc.schemes()``), e.g. ``"pagc-threshold"``.
    victim
        Victim policy (``gc.victim``), e.g. ``"greedy"``, ``"rga:8"``, ``"alpha:0.5"``.
    seed
        Seed of every random choice: the same seed gives the same report.
    format, volume, disksim_time, blkparse_event, replay, time_scale, fold, queue_depth
        As the command's ``--format``, ``--volume``, ``--disksim-time``, ``--blkparse-event``,
        ``--replay`` (``"open"`` or ``"closed:QD"``), ``--time-scale``, ``--fold``,
        ``--queue-depth``.
    precondition
        ``"none"``, ``"fill"``, ``"steady"`` or ``"steady:N"``; the configuration's if None.
    series_interval, series_window
        Add latency per interval of simulated arrival time (``"100ms"``, or seconds) or per
        window of N requests to the report (:meth:`Report.series`).
    check
        Check the FTL's invariants while running (slow).
    record_requests
        Keep the per-request log (the command's ``--latency-log``): True gives it as a DataFrame
        in :attr:`Report.requests`, one row per completed request in completion order (columns
        ``arrival_us``, ``completion_us``, ``op``, ``offset``, ``bytes``, ``response_us``, the
        breakdown ``st_us`` … ``cngc_us``, and ``index``, the arrival order); a path streams it
        to that Parquet file instead, batch by batch, for runs too long to hold (needs
        ``pyarrow``).
    progress
        True: a progress bar (tqdm) once the run has taken a second; False: none; or a
        callable ``f(index, preconditioning, completed, expected, simulated_s)``.
    label
        The run's name in plots and tables (the scheme by default).

    The run releases the interpreter, so runs in several threads proceed in parallel, and
    Ctrl-C interrupts it. A bad setting or workload raises :class:`ssdgc.SsdgcError` with the
    message the command prints for it.

    >>> r = ssdgc.run("pagc-small", synthetic="count=20000", scheme="pagc-threshold")
    >>> r.summary()
    """
    cfg = as_config(config)
    keys, load, settings = split_args(
        dict(
            trace=trace,
            synthetic=synthetic,
            scheme=scheme,
            victim=victim,
            format=format,
            volume=volume,
            disksim_time=disksim_time,
            blkparse_event=blkparse_event,
            replay=replay,
            precondition=precondition,
            time_scale=time_scale,
            fold=fold,
            queue_depth=queue_depth,
            series_interval=series_interval,
            series_window=series_window,
            check=check,
        )
    )
    cb = _progress.callback(progress, [label or scheme or "run"])
    log = _requests.Log(record_requests) if record_requests is not False else None
    try:
        native = _native.run(cfg._native, keys, load, settings, int(seed), cb, log)
    finally:
        if isinstance(cb, _progress.Bars):
            cb.close()
        if log is not None:
            log.close()
    report = Report._from_native(native, label=label)
    if log is not None:
        report.requests = log.frame()
        report.requests_path = log.path
    return report


def compare(
    config: Union[Config, str, None] = None,
    schemes: Sequence[str] = ("baseline", "zero"),
    *,
    seed: int = 1,
    normalise: bool = False,
    return_reports: bool = False,
    progress: _progress.ProgressArg = True,
    **kwargs: Any,
) -> Union["pd.DataFrame", Tuple["pd.DataFrame", List[Report]]]:
    """Runs several GC schemes on the same drive, workload and seed, side by side
    (``ssdgc compare``), and returns a DataFrame with one row per scheme.

    The columns are those of :meth:`Report.summary`. ``normalise=True`` divides every headline
    figure by the first scheme's, as the command's ratio columns do. With
    ``return_reports=True`` the result is ``(frame, reports)``. Every other keyword argument is
    :func:`run`'s (``trace=``, ``synthetic=``, ``victim=``, ``precondition=`` …). The runs go on
    threads of their own, in parallel.

    >>> ssdgc.compare("pagc-small", ["baseline", "pagc-threshold", "zero"], synthetic="count=20000")
    """
    import pandas as pd

    cfg = as_config(config)
    schemes = [schemes] if isinstance(schemes, str) else list(schemes)
    if "scheme" in kwargs:
        raise TypeError("compare takes schemes=[...], not scheme=")
    keys, load, settings = split_args(kwargs)
    cb = _progress.callback(progress, schemes)
    try:
        natives = _native.compare(cfg._native, schemes, keys, load, settings, int(seed), cb)
    finally:
        if isinstance(cb, _progress.Bars):
            cb.close()
    reports = [Report._from_native(n) for n in natives]
    frame = pd.DataFrame(
        [summary_row(r._data) for r in reports], index=pd.Index(schemes, name="scheme")
    ).drop(columns=["scheme"])
    if normalise:
        keys_h = [k for k, *_ in _native.headline_figures()]
        base = frame.iloc[0][keys_h].astype(float)
        frame[keys_h] = frame[keys_h].astype(float).div(base.where(base != 0))
    return (frame, reports) if return_reports else frame
