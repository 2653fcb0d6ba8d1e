"""`Report`: one run's report (schema ``ssdgc-report/2``) with pandas views of its parts."""

from __future__ import annotations

import copy
import json
import os
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Union

from . import _native

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

#: The breakdown parts, in the order the report lists them (ST, CsGC, CoGC, LC, CnGC).
BREAKDOWN_PARTS = ("st", "csgc", "cogc", "lc", "cngc")
#: The plane-utilisation shares, in the report's order.
PLANE_STATES = ("host", "gc", "wait_other_gc", "idle")


#: The percentiles a report holds, with the fraction of requests slower than each.
PERCENTILES = (("p50", 0.5), ("p90", 0.1), ("p99", 0.01), ("p999", 1e-3), ("p9999", 1e-4))


def tail_points(
    data: Dict[str, Any], kind: str = "all", cdf: Optional[Tuple[Any, Any]] = None
) -> Tuple[List[float], List[float]]:
    """The latency tail of a report: response times (µs) and the fraction of requests slower
    than each. From the run's whole distribution when ``cdf`` (``Report.latency_cdf``) is
    given, else from the report's percentiles (a percentile a class has too few requests for
    is left out); the last point is the maximum, at one request in the class."""
    lat = data["latency_us"][kind]
    if cdf is not None and len(cdf[0]):
        n = lat.get("count", 0) or 1
        xs = [float(v) for v, s in zip(*cdf) if s < 1.0]
        ys = [1.0 - float(s) for v, s in zip(*cdf) if s < 1.0]
        return xs + [lat["max"]], ys + [1.0 / n]
    n = lat.get("count", 0) or 0
    xs, ys = [], []
    for key, frac in PERCENTILES:
        if n * frac >= 1:
            xs.append(lat[key])
            ys.append(frac)
    if n:
        xs.append(lat["max"])
        ys.append(1.0 / n)
    return xs, ys


def headline(data: Dict[str, Any]) -> Dict[str, float]:
    """The headline figures of a report dict, ``{key: value}`` in ``ssdgc compare``'s order.

    The figures and where each is in the report come from the core
    (``_native.headline_figures()``), so they are the command's.
    """
    out = {}
    for key, _label, path, divisor in _native.headline_figures():
        v: Any = data
        for k in path:
            v = v.get(k) if isinstance(v, dict) else None
        out[key] = float(v) / divisor if isinstance(v, (int, float)) else float("nan")
    return out


def _identity(data: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "scheme": data.get("scheme"),
        "victim": data.get("victim"),
        "workload": data.get("workload", {}).get("name"),
        "seed": data.get("seed"),
        "requests": data.get("requests", {}).get("total"),
    }


def summary_row(data: Dict[str, Any]) -> Dict[str, Any]:
    """One summary row of a report dict: who ran what, then the headline figures and the
    simulated and wall-clock time."""
    row = _identity(data)
    row.update(headline(data))
    sim = data.get("sim", {})
    row["simulated_s"] = sim.get("simulated_s")
    row["wall_s"] = sim.get("wall_s")
    return row


class Report:
    """One run's report: the JSON object ``ssdgc run --json`` prints, with pandas views.

    ``to_dict()`` is the report itself (``docs/report-schema.md``); ``summary()``,
    ``breakdown()``, ``plane_util()``, ``wear()`` and ``series()`` are DataFrames of its parts,
    and ``to_html()`` a self-contained page. A report comes from :func:`ssdgc.run`,
    :func:`ssdgc.compare`, or a file of the command's JSON output (``Report.from_json``).
    """

    def __init__(
        self,
        data: Dict[str, Any],
        *,
        json_text: Optional[str] = None,
        config_toml: Optional[str] = None,
        label: Optional[str] = None,
        native: Any = None,
    ) -> None:
        self._data = data
        self._json = json_text
        self._native = native
        #: The effective configuration of the run as TOML, when known (runs made from Python).
        self.config_toml = config_toml
        #: The name plots and tables give this run (the scheme unless set).
        self.label = label if label is not None else str(data.get("scheme", "run"))
        #: The per-request log, a DataFrame, for runs made with ``record_requests=True``.
        self.requests = None
        #: The Parquet file of the per-request log, for runs made with ``record_requests=PATH``.
        self.requests_path: Optional[str] = None

    @classmethod
    def _from_native(cls, native: Any, label: Optional[str] = None) -> "Report":
        text = native.to_json()
        return cls(
            json.loads(text),
            json_text=text,
            config_toml=native.config_toml(),
            label=label,
            native=native,
        )

    @classmethod
    def from_dict(cls, data: Dict[str, Any], label: Optional[str] = None) -> "Report":
        """A report from its dict (a run's, or one of a comparison's ``runs``)."""
        if not isinstance(data, dict) or "schema" not in data:
            raise ValueError("not an ssdgc report: a JSON object with a 'schema' key is expected")
        return cls(data, label=label)

    @classmethod
    def from_json(cls, source: Union[str, "os.PathLike[str]"], label: Optional[str] = None) -> "Report":
        """A report from a file of ``ssdgc run --json`` output, or from its JSON text."""
        reports = load_reports(source, label=label)
        if len(reports) != 1:
            raise ValueError(
                f"the JSON holds {len(reports)} reports (a comparison): use ssdgc.load_reports"
            )
        return reports[0]

    # --- the report itself -------------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """The report as a dict: the JSON object of ``ssdgc run --json`` (a copy)."""
        return copy.deepcopy(self._data)

    def to_json(self) -> str:
        """The report as JSON text, exactly as ``ssdgc run --json`` prints it (less the final
        newline) for a run made from Python."""
        if self._json is not None:
            return self._json
        return json.dumps(self._data, indent=2)

    def __getitem__(self, key: str) -> Any:
        return copy.deepcopy(self._data[key])

    @property
    def scheme(self) -> str:
        """The GC scheme of the run."""
        return self._data["scheme"]

    def __repr__(self) -> str:
        d = self._data
        return (
            f"<ssdgc.Report {self.label!r}: {d.get('scheme')} on {d.get('workload', {}).get('name')!r}, "
            f"{d.get('requests', {}).get('total')} requests, mean {d['latency_us']['all']['mean']:.1f} us, "
            f"WAF {d['flash']['waf']:.3f}>"
        )

    # --- the distribution --------------------------------------------------------------------

    def has_cdf(self) -> bool:
        """Whether the report holds the whole latency distribution (runs made from Python do;
        a report read from the command's JSON has only its percentiles)."""
        return self._native is not None

    def latency_cdf(self, kind: str = "all"):
        """The distribution of the response times as a CDF, from the run's HDR histogram (3
        significant digits): ``(value_us, share)``, two numpy arrays, one point per non-empty
        bucket, ``share`` the fraction of requests at or below ``value_us`` (the last point is
        the exact maximum, share 1). ``kind``: ``"all"``, ``"read"`` or ``"write"``; a class
        without requests gives empty arrays. The command writes the same points with
        ``--cdf FILE``."""
        import numpy as np

        if kind not in ("all", "read", "write"):
            raise ValueError("kind must be 'all', 'read' or 'write'")
        if self._native is None:
            raise ValueError(
                "this report was read from JSON, which holds percentiles, not the distribution: "
                "run it from Python, or write it with the command's --cdf FILE"
            )
        values, shares = self._native.latency_cdf(kind)
        return np.asarray(values, dtype=float), np.asarray(shares, dtype=float)

    def tail(self, kind: str = "all") -> Tuple[List[float], List[float]]:
        """Response times (µs) and the fraction of requests slower than each: the whole
        distribution when the report has it, else its percentiles and maximum."""
        return tail_points(self._data, kind, self.latency_cdf(kind) if self.has_cdf() else None)

    # --- pandas views ------------------------------------------------------------------------

    def summary(self) -> "pd.DataFrame":
        """A one-row DataFrame of the headline numbers, indexed by the run's label.

        Columns: ``scheme``, ``victim``, ``workload``, ``seed``, ``requests``, the headline
        figures of ``ssdgc compare`` (``mean_us`` … ``erase_max``, see ``ssdgc.HEADLINE``),
        ``simulated_s`` and ``wall_s``.
        """
        import pandas as pd

        return pd.DataFrame([summary_row(self._data)], index=pd.Index([self.label], name="run"))

    def breakdown(self) -> "pd.DataFrame":
        """Mean response time per request split into service time and four kinds of waiting,
        in µs, one row (columns ``st``, ``csgc``, ``cogc``, ``lc``, ``cngc``; they sum to the
        mean response time). See ``breakdown_us`` in docs/report-schema.md."""
        import pandas as pd

        b = self._data["breakdown_us"]
        return pd.DataFrame(
            [{k: b[k] for k in BREAKDOWN_PARTS}], index=pd.Index([self.label], name="run")
        )

    def plane_util(self) -> "pd.DataFrame":
        """Mean share of time a plane spends serving the host, collecting, idle while another
        plane of its die collects, and idle: one row (columns ``host``, ``gc``,
        ``wait_other_gc``, ``idle``; they sum to 1)."""
        import pandas as pd

        u = self._data["plane_util"]
        return pd.DataFrame(
            [{k: u[k] for k in PLANE_STATES}], index=pd.Index([self.label], name="run")
        )

    def wear(self) -> "pd.DataFrame":
        """The erase-count histogram of every block: one row per bin, columns ``erase_count``
        (the bin's first count), ``erase_count_end`` (one past its last) and ``blocks``."""
        import pandas as pd

        w = self._data["wear"]
        start, width = w["histogram_start"], w["histogram_bin"]
        rows = [
            {
                "erase_count": start + i * width,
                "erase_count_end": start + (i + 1) * width,
                "blocks": n,
            }
            for i, n in enumerate(w["histogram"])
        ]
        return pd.DataFrame(rows, columns=["erase_count", "erase_count_end", "blocks"])

    def series(self, by: str = "time") -> "pd.DataFrame":
        """Latency over time: one row per interval of simulated arrival time (``by="time"``,
        runs with ``series_interval=``) or per window of consecutive requests
        (``by="request"``, runs with ``series_window=``).

        Columns ``start`` (seconds, or the index of the window's first request), ``requests``,
        ``mean_us`` and ``max_us``.
        """
        import pandas as pd

        s = self._data.get("series") or {}
        key = {"time": "by_time", "request": "by_request"}.get(by)
        if key is None:
            raise ValueError("by must be 'time' or 'request'")
        if key not in s:
            opt = "series_interval" if by == "time" else "series_window"
            raise ValueError(
                f"the report has no latency series by {by}: run with {opt}= "
                f"(the command's --{opt.replace('_', '-')})"
            )
        return pd.DataFrame(s[key], columns=["start", "requests", "mean_us", "max_us"])

    # --- HTML --------------------------------------------------------------------------------

    def to_html(self, path: Union[str, "os.PathLike[str]", None] = None, title: Optional[str] = None) -> str:
        """A self-contained HTML page of this run: configuration, headline table and
        interactive charts (plotly, inlined: the page needs no network). Written to ``path``
        when given; returned either way. Needs the ``plotly`` package."""
        from .html import report_html

        page = report_html([self], title=title)
        if path is not None:
            with open(path, "w", encoding="utf-8") as f:
                f.write(page)
        return page


def _is_path(source: Any) -> bool:
    if isinstance(source, os.PathLike):
        return True
    return isinstance(source, str) and not source.lstrip().startswith("{")


def load_reports(source: Union[str, "os.PathLike[str]"], label: Optional[str] = None) -> List[Report]:
    """The reports in a file (or JSON text) of ``ssdgc run --json`` (one) or
    ``ssdgc compare --json`` (its ``runs``)."""
    if _is_path(source):
        with open(source, encoding="utf-8") as f:
            text = f.read()
    else:
        text = str(source)
    data = json.loads(text)
    if isinstance(data, dict) and isinstance(data.get("runs"), list):
        return [Report.from_dict(r) for r in data["runs"]]
    return [Report.from_dict(data, label=label)]
