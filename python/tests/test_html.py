"""The HTML report, opened in headless Chromium (Debian's package) as a person would open it."""

from __future__ import annotations

import subprocess
import sys

import pytest

import ssdgc
from ssdgc.html import chart_count, report_html
from browser import Browser
from conftest import SMALL_SETS

HOSTILE = '<img src=x onerror="document.title=\'pwned\'">&amp;<script>alert(1)</script>'


def set_args():
    out = []
    for s in SMALL_SETS:
        out += ["--set", s]
    return out


@pytest.fixture(scope="module")
def browser():
    with Browser() as b:
        yield b


def render(browser, page_path, expected_charts):
    browser.events.clear()
    browser.open(page_path)
    drawn = browser.wait_for("document.body.getAttribute('data-charts-drawn')")
    assert int(drawn) == expected_charts
    plots = browser.evaluate("document.querySelectorAll('.js-plotly-plot').length")
    svgs = browser.evaluate(
        "Array.from(document.querySelectorAll('.js-plotly-plot')).filter("
        "d => d.querySelector('svg.main-svg') && d.querySelector('svg.main-svg g.trace')).length"
    )
    assert plots == expected_charts and svgs == expected_charts
    assert browser.problems() == []


def test_one_run_renders_with_its_charts(browser, small, tmp_path, artifacts):
    r = ssdgc.run(small, synthetic="count=3000", progress=False)
    path = tmp_path / "one.html"
    r.to_html(path)
    assert chart_count([r]) == 4  # tail, breakdown, plane utilisation, wear
    render(browser, path, 4)
    shot = browser.screenshot(str(artifacts / "report-one-run.png"))
    with open(shot, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n"


def test_the_report_command_renders_runs_of_the_command(browser, cli, tmp_path, artifacts):
    cmp_json = cli.run(["compare", *set_args(), "--gc", "baseline,pagc-threshold,zero",
                        "--synthetic", "count=3000", "--series-interval", "100ms", "--json", "-q"]).stdout
    run_json = cli.run(["run", *set_args(), "--gc", "pgc", "--synthetic", "count=3000", "--json", "-q"]).stdout
    (tmp_path / "cmp.json").write_text(cmp_json)
    (tmp_path / "pgc.json").write_text(run_json)
    out = tmp_path / "report.html"
    p = subprocess.run([sys.executable, "-m", "ssdgc", "report", str(tmp_path / "cmp.json"),
                        str(tmp_path / "pgc.json"), "-o", str(out)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    page = out.read_text()
    assert "https://" not in page.split("<script>")[0]  # nothing to fetch
    # four runs: tail, breakdown, planes, wear, latency over time, WAF and p99
    render(browser, out, 6)
    labels = browser.evaluate("Array.from(document.querySelectorAll('tbody tr td:first-child')).map(t => t.textContent)")
    assert labels == ["baseline", "pagc-threshold", "zero", "pgc"]
    browser.screenshot(str(artifacts / "report-four-runs.png"))


def test_strings_from_traces_and_configs_are_escaped(browser, small, tmp_path, traces):
    # A trace whose path is markup.
    d = tmp_path / HOSTILE.replace("/", "|")
    d.mkdir()
    trace = d / "t.csv"
    trace.write_bytes((traces / "msr_hm0_snia_sample.csv").read_bytes())
    r = ssdgc.run(small, trace=trace, precondition="none", label=HOSTILE, progress=False)
    assert HOSTILE.replace("/", "|") in r.to_dict()["workload"]["name"]
    path = tmp_path / "hostile.html"
    page = report_html([r])
    path.write_text(page)
    assert "<img src=x" not in page and "<script>alert" not in page
    render(browser, path, 4)
    assert browser.evaluate("document.title") != "pwned"
    assert browser.evaluate("document.querySelectorAll('img').length") == 0
    assert browser.evaluate("document.querySelectorAll('script').length") == 3
    # The text reads as it was written.
    assert HOSTILE in browser.evaluate("document.querySelector('tbody td').textContent")
    assert HOSTILE.replace("/", "|") in browser.evaluate("document.body.innerText")


def test_the_report_command_rejects_what_is_not_a_report(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"hello": 1}')
    for args in ([str(bad)], [str(tmp_path / "missing.json")]):
        p = subprocess.run([sys.executable, "-m", "ssdgc", "report", *args, "-o", str(tmp_path / "x.html")],
                           capture_output=True, text=True)
        assert p.returncode == 2
        assert p.stderr.startswith("ssdgc: error: ") and len(p.stderr.strip().splitlines()) == 1
