"""Runs from Python: the same reports as the command, the interpreter released while running,
progress, and the pandas views."""

from __future__ import annotations

import json
import threading
import time

import pandas as pd
import pytest

import ssdgc
from conftest import SMALL_SETS, without_wall


def read_csv_exact(path):
    """The CSV at `path` with each numeric column's values parsed by Python's `float`, which rounds
    correctly whatever pandas' own parser does (its `float_precision` is deprecated)."""
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    for c in frame.columns:
        try:
            frame[c] = [float(v) for v in frame[c]]
        except ValueError:
            pass  # a column of names
    return frame


def set_args(extra=()):
    out = []
    for s in [*SMALL_SETS, *extra]:
        out += ["--set", s]
    return out


def test_report_equals_the_commands_json_synthetic(cli, small):
    args = ["run", *set_args(), "--gc", "pagc-threshold", "--victim", "rga:4", "--seed", "3",
            "--synthetic", "count=4000,read=0.3,size=exp:8KiB", "--series-interval", "50ms", "--series-window", "500"]
    expected = cli.json(args)
    r = ssdgc.run(small, scheme="pagc-threshold", victim="rga:4", seed=3,
                  synthetic="count=4000,read=0.3,size=exp:8KiB", series_interval="50ms",
                  series_window=500, progress=False)
    got = r.to_dict()
    assert without_wall(got) == without_wall(expected)
    # The text itself is the command's, byte for byte, wall time aside.
    assert json.loads(r.to_json()) == got
    assert got["schema"] == ssdgc.REPORT_SCHEMA


def test_report_equals_the_commands_json_trace(cli, small, traces):
    trace = traces / "msr_hm0_snia_sample.csv"
    args = ["run", *set_args(["gc.threshold=0.05"]), str(trace), "--gc", "pgc", "--precondition", "fill",
            "--time-scale", "0.5", "--queue-depth", "8", "--check"]
    expected = cli.json(args)
    r = ssdgc.run(small.set("gc.threshold", 0.05), trace=trace, scheme="pgc", precondition="fill",
                  time_scale=0.5, queue_depth=8, check=True, progress=False)
    assert without_wall(r.to_dict()) == without_wall(expected)
    assert r.to_dict()["workload"]["format"] == "msr"


def test_compare_equals_the_commands_compare(cli, small, traces):
    trace = traces / "blkreplay_1and1_windows_shared_server.load"
    expected = cli.json(["compare", *set_args(), "--gc", "baseline,pagc-blind,zero", str(trace)])
    frame, reports = ssdgc.compare(small, ["baseline", "pagc-blind", "zero"], trace=trace,
                                   return_reports=True, progress=False)
    assert [without_wall(r.to_dict()) for r in reports] == [without_wall(r) for r in expected["runs"]]
    assert list(frame.index) == ["baseline", "pagc-blind", "zero"]
    for r, (_, row) in zip(reports, frame.iterrows()):
        d = r.to_dict()
        assert row["mean_us"] == d["latency_us"]["all"]["mean"]
        assert row["waf"] == d["flash"]["waf"]
        assert row["gc_time_ms"] == d["gc"]["total_time_us"] / 1e3
    ratios = ssdgc.compare(small, ["baseline", "zero"], trace=trace, normalise=True, progress=False)
    assert ratios.loc["baseline", "mean_us"] == 1.0
    assert ratios.loc["zero", "mean_us"] == pytest.approx(
        frame.loc["zero", "mean_us"] / frame.loc["baseline", "mean_us"])
    # The headline figures are the command's table's rows: every one, but for a class of requests
    # no run has (this trace has no reads), whose rows the table leaves out.
    assert reports[0].to_dict()["requests"]["reads"] == 0
    table = cli.run(["compare", *set_args(), "--gc", "baseline,zero", str(trace), "-q"]).stdout
    for key, label, *_ in ssdgc._native.headline_figures():
        assert (label in table) == (not key.startswith("read_")), label
    mixed = cli.run(["compare", *set_args(), "--gc", "baseline,zero", "--synthetic", "count=2000,read=0.3", "-q"])
    for _key, label, *_ in ssdgc._native.headline_figures():
        assert label in mixed.stdout, label


def test_interpreter_is_released_while_a_run_goes_on(small):
    """While one thread simulates, another Python thread keeps running."""
    started, done = threading.Event(), threading.Event()
    out = {}

    def work():
        started.set()
        out["report"] = ssdgc.run(small, synthetic="count=3000000", progress=False)
        done.set()

    t = threading.Thread(target=work)
    t.start()
    started.wait()
    ticks, t0 = 0, time.monotonic()
    while not done.is_set():
        ticks += 1
        sum(range(50))
    elapsed = time.monotonic() - t0
    t.join()
    assert out["report"].to_dict()["requests"]["total"] == 3000000
    # Holding the interpreter, the run would have let this loop make (almost) no step at all.
    assert elapsed > 0.2, f"the run was too short to tell ({elapsed:.3f} s)"
    assert ticks > 10_000 * elapsed, f"{ticks} steps in {elapsed:.2f} s"


def test_runs_in_threads_equal_runs_one_after_the_other(small):
    specs = [dict(synthetic="count=20000", seed=s, scheme=g) for s in (1, 2) for g in ("baseline", "zero")]
    alone = [without_wall(ssdgc.run(small, progress=False, **k).to_dict()) for k in specs]
    results = [None] * len(specs)

    def work(i):
        results[i] = without_wall(ssdgc.run(small, progress=False, **specs[i]).to_dict())

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(specs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == alone


def test_progress_reaches_the_callback(small):
    seen = []
    ssdgc.run(small, synthetic="count=300000", progress=lambda *a: seen.append(a))
    assert seen, "no progress in a run of more than a second"
    i, pre, completed, expected, now_s = seen[-1]
    assert i == 0 and isinstance(pre, bool) and completed <= (expected or completed)
    runs = [a for a in seen if not a[1]]
    assert all(a[3] == 300000 for a in runs)
    assert [a[2] for a in runs] == sorted(a[2] for a in runs)


def test_a_failing_progress_callback_abandons_the_run(small):
    def boom(*_):
        raise KeyboardInterrupt

    t0 = time.monotonic()
    with pytest.raises(KeyboardInterrupt):
        ssdgc.run(small, synthetic="count=3000000", progress=boom)
    assert time.monotonic() - t0 < 5, "the run went on after the interrupt"


def test_progress_bar_is_quiet_for_short_runs(small, capsys):
    ssdgc.run(small, synthetic="count=100")
    assert capsys.readouterr().err == ""


def test_frames(small):
    r = ssdgc.run(small, synthetic="count=5000,read=0.5", series_interval=0.05, series_window=1000,
                  label="mine", progress=False)
    d = r.to_dict()
    s = r.summary()
    assert list(s.index) == ["mine"]
    assert list(s.columns[:5]) == ["scheme", "victim", "workload", "seed", "requests"]
    assert tuple(s.columns[5:5 + len(ssdgc.HEADLINE)]) == ssdgc.HEADLINE
    assert s.loc["mine", "p99_us"] == d["latency_us"]["all"]["p99"]
    b = r.breakdown()
    assert list(b.columns) == ["st", "csgc", "cogc", "lc", "cngc"]
    assert b.loc["mine"].sum() == pytest.approx(d["latency_us"]["all"]["mean"], rel=1e-9)
    u = r.plane_util()
    assert u.loc["mine"].sum() == pytest.approx(1.0)
    w = r.wear()
    assert w["blocks"].sum() == d["drive"]["planes_per_die"] * d["drive"]["channels"] * \
        d["drive"]["chips_per_channel"] * d["drive"]["dies_per_chip"] * d["drive"]["blocks_per_plane"]
    assert (w["erase_count_end"] > w["erase_count"]).all()
    st = r.series()
    assert st["requests"].sum() == 5000
    assert d["series"]["interval_s"] == pytest.approx(0.05)
    sr = r.series("request")
    assert sr["requests"].sum() == 5000 and len(sr) == 5
    plain = ssdgc.run(small, synthetic="count=100", progress=False)
    with pytest.raises(ValueError, match="series_interval"):
        plain.series()
    assert isinstance(pd.concat([r.summary(), plain.summary()]), pd.DataFrame)
    assert "effective" not in r.config_toml and "[geometry]" in r.config_toml


def test_report_from_the_commands_json(cli, small, tmp_path):
    out = cli.run(["run", *set_args(), "--synthetic", "count=1000", "--json", "-q"]).stdout
    p = tmp_path / "run.json"
    p.write_text(out)
    r = ssdgc.Report.from_json(p)
    assert r.to_dict() == json.loads(out)
    assert r.summary().loc["baseline", "requests"] == 1000
    cmp_out = cli.run(["compare", *set_args(), "--gc", "baseline,zero", "--synthetic", "count=1000", "--json", "-q"]).stdout
    (tmp_path / "cmp.json").write_text(cmp_out)
    assert [x.scheme for x in ssdgc.load_reports(tmp_path / "cmp.json")] == ["baseline", "zero"]
    with pytest.raises(ValueError, match="comparison"):
        ssdgc.Report.from_json(tmp_path / "cmp.json")


def test_help_is_useful():
    doc = ssdgc.run.__doc__
    for word in ("trace", "synthetic", "scheme", "victim", "seed", "progress", "SsdgcError"):
        assert word in doc
    assert "Config.preset" in ssdgc.Config.__doc__
    assert ssdgc.Config.from_toml.__doc__ and ssdgc.Report.summary.__doc__


def test_per_request_log_equals_the_commands_latency_log(cli, small, tmp_path):
    log = tmp_path / "log.csv"
    cli.run(["run", *set_args(), "--synthetic", "count=3000,read=0.4,size=exp:8KiB", "--latency-log", str(log),
             "--json", "-q"])
    expected = read_csv_exact(log)
    r = ssdgc.run(small, synthetic="count=3000,read=0.4,size=exp:8KiB", record_requests=True, progress=False)
    got = r.requests
    assert list(got.columns) == list(expected.columns)
    assert len(got) == len(expected) == r.to_dict()["requests"]["total"]
    for c in expected.columns:
        if c == "op":
            assert list(got[c].astype(str)) == list(expected[c])
        else:
            assert list(got[c]) == pytest.approx(list(expected[c]), rel=0, abs=5e-4), c
    # The log and the report agree.
    assert got["response_us"].mean() == pytest.approx(r.to_dict()["latency_us"]["all"]["mean"], rel=1e-12)
    parts = got[["st_us", "csgc_us", "cogc_us", "lc_us", "cngc_us"]].sum(axis=1)
    assert (parts - got["response_us"]).abs().max() < 1e-6
    assert sorted(got["index"]) == list(range(3000))


def test_per_request_log_streams_to_parquet(small, tmp_path):
    import pyarrow.parquet as pq

    path = tmp_path / "requests.parquet"
    # More requests than one batch, so that several batches are written.
    r = ssdgc.run(small, synthetic="count=150000", record_requests=path, progress=False)
    assert r.requests is None and r.requests_path == str(path)
    table = pq.read_table(path)
    assert table.num_rows == 150000
    assert table.column_names[:3] == ["arrival_us", "completion_us", "op"]
    frame = table.to_pandas()
    assert frame["response_us"].mean() == pytest.approx(r.to_dict()["latency_us"]["all"]["mean"], rel=1e-12)
    assert sorted(frame["index"]) == list(range(150000))


def test_latency_cdf_equals_the_commands_cdf(cli, small, tmp_path):
    out = tmp_path / "cdf.csv"
    cli.run(["run", *set_args(), "--synthetic", "count=4000,read=0.3", "--cdf", str(out), "--json", "-q"])
    expected = read_csv_exact(out)
    r = ssdgc.run(small, synthetic="count=4000,read=0.3", progress=False)
    for kind in ("all", "read", "write"):
        values, shares = r.latency_cdf(kind)
        e = expected[expected["class"] == kind]
        assert list(values) == list(e["value_us"]) and list(shares) == list(e["share"])
        lat = r.to_dict()["latency_us"][kind]
        assert values[-1] == lat["max"] and shares[-1] == 1.0
        assert values[(shares >= 0.99).argmax()] == lat["p99"]
    xs, ys = r.tail()
    assert xs[-1] == r.to_dict()["latency_us"]["all"]["max"] and ys[-1] == 1 / 4000
    loaded = ssdgc.Report.from_dict(r.to_dict())
    with pytest.raises(ValueError, match="--cdf"):
        loaded.latency_cdf()
    assert len(loaded.tail()[0]) == 5  # p50 … p99.9 (p99.99 needs 10,000 requests) and the maximum
