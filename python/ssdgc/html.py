"""A self-contained HTML report of one or more runs: the configuration, the headline table and
interactive charts (plotly.js, inlined, so the page needs no network).

Every string that comes from a report (a trace's path, a scheme, a label, the configuration) is
escaped: into HTML text with ``html.escape``, into the page's data as JSON with ``<``, ``>`` and
``&`` written as ``\\u003c``…, and into chart labels as HTML entities (plotly reads labels as a
small subset of HTML). The page forbids itself any network access (a Content-Security-Policy).

``python -m ssdgc report RUN.json [MORE.json …] -o report.html`` and :meth:`Report.to_html` make
it.
"""

from __future__ import annotations

import datetime
import html
import json
from typing import Any, Dict, List, Optional, Sequence

from . import _native
from ._report import BREAKDOWN_PARTS, PLANE_STATES, Report, headline

#: Names of the breakdown parts in charts (the PaGC paper's).
BREAKDOWN_NAMES = {"st": "ST", "csgc": "CsGC", "cogc": "CoGC", "lc": "LC", "cngc": "CnGC"}
#: Names of the plane states in charts.
PLANE_NAMES = {"host": "host", "gc": "GC", "wait_other_gc": "waiting for another plane's GC", "idle": "idle"}

_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "img-src data: blob:; font-src data:"
)

_STYLE = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2em auto;
       max-width: 1200px; padding: 0 1em; color: #222; }
h1 { font-size: 1.6em; } h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ddd; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
.scroll { overflow-x: auto; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: right; }
th:first-child, td:first-child, td.text { text-align: left; }
thead th { background: #f3f3f3; }
.chart { width: 100%; height: 420px; margin: 1em 0; }
pre { background: #f7f7f7; padding: 0.8em; overflow-x: auto; font-size: 0.85em; }
.note { color: #666; font-size: 0.9em; }
details { margin: 0.5em 0; }
"""


def _json_for_script(value: Any) -> str:
    """JSON that is safe inside a ``<script>`` element."""
    text = json.dumps(value, allow_nan=False, default=str)
    return (
        text.replace("<", "\\u003c")
        .replace(">", "\\u003e")
        .replace("&", "\\u0026")
        .replace("\u2028", "\\u2028")
        .replace("\u2029", "\\u2029")
    )


def _label(text: Any) -> str:
    """A string for a chart label: plotly reads labels as HTML, so it is escaped."""
    return html.escape(str(text), quote=False)


def _e(text: Any) -> str:
    return html.escape(str(text), quote=True)


def _num(v: Any) -> str:
    if isinstance(v, bool) or v is None:
        return _e(v)
    if isinstance(v, int):
        return f"{v:,}"
    if isinstance(v, float):
        if v != v:
            return "–"
        if abs(v) >= 1000:
            return f"{v:,.1f}"
        return f"{v:.4g}"
    return _e(v)


def _finite(v: Any) -> Any:
    return v if not (isinstance(v, float) and (v != v or v in (float("inf"), float("-inf")))) else None


# --- charts -----------------------------------------------------------------------------------


def _charts(reports: Sequence[Report]) -> List[Dict[str, Any]]:
    labels = [_label(r.label) for r in reports]
    charts = []

    traces = []
    for r, name in zip(reports, labels):
        xs, ys = r.tail()
        mode = "lines" if r.has_cdf() else "lines+markers"
        traces.append({"type": "scatter", "mode": mode, "name": name, "x": xs, "y": ys})
    charts.append(
        {
            "id": "latency-tail",
            "title": "Response time: the tail",
            "note": "Fraction of requests slower than each response time: the whole distribution "
            "(HDR histogram) of runs made from Python, the percentiles (p50 … p99.99) and maximum "
            "of reports read from JSON (dots); both axes logarithmic.",
            "data": traces,
            "layout": {
                "xaxis": {"title": {"text": "response time (µs)"}, "type": "log"},
                "yaxis": {
                    "title": {"text": "fraction of requests slower"},
                    "type": "log",
                    "tickvals": [0.5, 0.1, 0.01, 1e-3, 1e-4, 1e-5, 1e-6],
                    "ticktext": ["p50", "p90", "p99", "p99.9", "p99.99", "p99.999", "p99.9999"],
                },
            },
        }
    )

    charts.append(
        {
            "id": "breakdown",
            "title": "Where response time goes",
            "note": "Mean response time per request split into service time (ST), waiting on GC of "
            "the same plane (CsGC), on GC of another plane of the die (CoGC), late conflicts (LC) "
            "and other conflicts (CnGC); the parts sum to the mean.",
            "data": [
                {
                    "type": "bar",
                    "name": BREAKDOWN_NAMES[p],
                    "x": labels,
                    "y": [r._data["breakdown_us"][p] for r in reports],
                }
                for p in BREAKDOWN_PARTS
            ],
            "layout": {"barmode": "stack", "yaxis": {"title": {"text": "mean response time (µs)"}}},
        }
    )

    charts.append(
        {
            "id": "plane-util",
            "title": "How planes spend their time",
            "note": "Mean share of simulated time per plane.",
            "data": [
                {
                    "type": "bar",
                    "name": _label(PLANE_NAMES[s]),
                    "x": labels,
                    "y": [r._data["plane_util"][s] for r in reports],
                }
                for s in PLANE_STATES
            ],
            "layout": {"barmode": "stack", "yaxis": {"title": {"text": "share of time"}, "range": [0, 1]}},
        }
    )

    wear = []
    for r, name in zip(reports, labels):
        w = r._data["wear"]
        xs = [w["histogram_start"] + i * w["histogram_bin"] for i in range(len(w["histogram"]))]
        wear.append({"type": "bar", "name": name, "x": xs, "y": w["histogram"], "opacity": 0.7})
    charts.append(
        {
            "id": "wear",
            "title": "Wear: erase counts of all blocks",
            "note": "Blocks per erase count (histogram bins of the report), preconditioning included.",
            "data": wear,
            "layout": {
                "barmode": "overlay",
                "xaxis": {"title": {"text": "erase count"}},
                "yaxis": {"title": {"text": "blocks"}},
            },
        }
    )

    series = []
    for r, name in zip(reports, labels):
        s = (r._data.get("series") or {}).get("by_time")
        if s:
            series.append(
                {
                    "type": "scatter",
                    "mode": "lines",
                    "name": name,
                    "x": [p["start"] for p in s],
                    "y": [p["mean_us"] for p in s],
                }
            )
    if series:
        charts.append(
            {
                "id": "latency-time",
                "title": "Response time over time",
                "note": "Mean response time of the requests that arrived in each interval.",
                "data": series,
                "layout": {
                    "xaxis": {"title": {"text": "simulated arrival time (s)"}},
                    "yaxis": {"title": {"text": "mean response time (µs)"}, "type": "log"},
                },
            }
        )

    if len(reports) > 1:
        charts.append(
            {
                "id": "waf-p99",
                "title": "Write amplification and p99 per run",
                "note": "WAF (left axis) and the 99th-percentile response time (right axis).",
                "data": [
                    {
                        "type": "bar",
                        "name": "WAF",
                        "x": labels,
                        "y": [r._data["flash"]["waf"] for r in reports],
                        "offsetgroup": 0,
                    },
                    {
                        "type": "bar",
                        "name": "p99 (µs)",
                        "x": labels,
                        "y": [r._data["latency_us"]["all"]["p99"] for r in reports],
                        "yaxis": "y2",
                        "offsetgroup": 1,
                    },
                ],
                "layout": {
                    "barmode": "group",
                    "yaxis": {"title": {"text": "WAF"}},
                    "yaxis2": {"title": {"text": "p99 (µs)"}, "overlaying": "y", "side": "right"},
                },
            }
        )
    for c in charts:
        for t in c["data"]:
            for k in ("x", "y"):
                if k in t:
                    t[k] = [_finite(v) for v in t[k]]
    return charts


def chart_count(reports: Sequence[Report]) -> int:
    """How many charts the page of these reports has."""
    return len(_charts(reports))


# --- the page ---------------------------------------------------------------------------------


def _headline_table(reports: Sequence[Report]) -> str:
    figs = _native.headline_figures()
    head = "".join(f"<th>{_e(label)}</th>" for _k, label, *_ in figs)
    rows = []
    for r in reports:
        d = r._data
        h = headline(d)
        cells = "".join(f"<td>{_num(h[k])}</td>" for k, *_ in figs)
        rows.append(
            f"<tr><td class=text>{_e(r.label)}</td><td class=text>{_e(d.get('scheme'))}</td>"
            f"<td class=text>{_e(d.get('victim'))}</td><td>{_num(d['requests']['total'])}</td>{cells}</tr>"
        )
    return (
        "<div class=scroll><table><thead><tr><th>run</th><th>scheme</th><th>victim</th><th>requests</th>"
        f"{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )


def _kv_table(pairs: Sequence[Any]) -> str:
    rows = "".join(f"<tr><th>{_e(k)}</th><td class=text>{_e(v)}</td></tr>" for k, v in pairs)
    return f"<table>{rows}</table>"


def _configuration(r: Report) -> str:
    d = r._data
    w = d["workload"]
    drive = d["drive"]
    axes = d.get("gc_axes", {})
    pairs = [
        ("workload", w.get("name")),
        ("format", w.get("format")),
        ("requests", d["requests"]["total"]),
        ("seed", d.get("seed")),
        ("scheme", d.get("scheme")),
        ("victim", d.get("victim")),
        ("GC axes", ", ".join(f"{k}={v}" for k, v in axes.items())),
        (
            "geometry",
            f"{drive['channels']} ch × {drive['chips_per_channel']} chips × {drive['dies_per_chip']} dies × "
            f"{drive['planes_per_die']} planes × {drive['blocks_per_plane']} blocks × "
            f"{drive['pages_per_block']} pages × {drive['page_size']} B",
        ),
        ("overprovision", drive.get("overprovision")),
        ("GC threshold", drive.get("gc_threshold")),
        ("allocation", drive.get("allocation")),
        ("simulated", f"{d['sim']['simulated_s']} s, {d['sim']['events']} events"),
    ]
    out = f"<h3>{_e(r.label)}</h3>" + _kv_table(pairs)
    if r.config_toml:
        out += (
            "<details><summary>effective configuration (TOML)</summary>"
            f"<pre>{_e(r.config_toml)}</pre></details>"
        )
    return out


def report_html(reports: Sequence[Report], title: Optional[str] = None) -> str:
    """The page of ``reports`` (see the module's notes). Needs the ``plotly`` package for
    plotly.js."""
    if not reports:
        raise ValueError("a report needs at least one run")
    try:
        from plotly.offline import get_plotlyjs
    except ImportError as e:  # pragma: no cover - depends on the environment
        raise ImportError("the HTML report needs plotly: pip install 'ssdgc[report]'") from e
    title = title or (
        f"ssdgc report: {reports[0].label}" if len(reports) == 1 else f"ssdgc report: {len(reports)} runs"
    )
    charts = _charts(reports)
    sections = "".join(
        f"<h2>{_e(c['title'])}</h2><p class=note>{_e(c['note'])}</p>"
        f"<div class=chart id=\"chart-{_e(c['id'])}\" data-chart=\"{_e(c['id'])}\"></div>"
        for c in charts
    )
    data = [{"id": c["id"], "data": c["data"], "layout": c["layout"]} for c in charts]
    made = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_e(title)}</title>
<style>{_STYLE}</style>
</head>
<body>
<h1>{_e(title)}</h1>
<p class=note>Made by ssdgc {_e(_native.__version__)} on {_e(made)}; {len(reports)} run(s), report schema {_e(_native.REPORT_SCHEMA)}.
Every chart is interactive (zoom, pan, hover; click a legend entry to hide it).</p>
<h2>Headline figures</h2>
{_headline_table(reports)}
{sections}
<h2>Configuration</h2>
{''.join(_configuration(r) for r in reports)}
<script>{get_plotlyjs()}</script>
<script type="application/json" id="ssdgc-charts">{_json_for_script(data)}</script>
<script>
(function () {{
  var charts = JSON.parse(document.getElementById("ssdgc-charts").textContent);
  var base = {{margin: {{t: 20, r: 60}}, legend: {{orientation: "h", y: -0.2}}, hovermode: "closest"}};
  charts.forEach(function (c) {{
    var layout = Object.assign({{}}, base, c.layout);
    Plotly.newPlot("chart-" + c.id, c.data, layout, {{responsive: true, displaylogo: false}});
  }});
  document.body.setAttribute("data-charts-drawn", String(charts.length));
}})();
</script>
</body>
</html>
"""


def write_report(reports: Sequence[Report], path: str, title: Optional[str] = None) -> str:
    """Writes the page of ``reports`` to ``path``; returns the page."""
    page = report_html(reports, title=title)
    with open(path, "w", encoding="utf-8") as f:
        f.write(page)
    return page
