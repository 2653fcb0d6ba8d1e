"""Sweeps: one row per point, a resumable store, and the same frame from every executor."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import ssdgc
from ssdgc.sweep import STORE_FILE, Store, plan

from conftest import ROOT


def small_base():
    return ssdgc.Config.preset("default").set("geometry.blocks_per_plane", 64)


GRID = {"gc.threshold": [0.03, 0.06], "scheme": ["baseline", "pagc-blind"]}
WORKLOADS = ["synthetic:count=3000"]


def stored_lines(store: Path) -> int:
    f = store / STORE_FILE
    if not f.exists():
        return 0
    n = 0
    for line in f.read_text().splitlines():
        try:
            json.loads(line)
            n += 1
        except json.JSONDecodeError:
            pass
    return n


def comparable(frame: pd.DataFrame) -> pd.DataFrame:
    """A sweep frame without wall-clock time, the one figure that varies from run to run."""
    return frame.drop(columns=["wall_s"]).reset_index(drop=True)


def test_points_follow_the_grid_and_match_single_runs(tmp_path):
    frame = ssdgc.sweep(small_base(), GRID, workloads=WORKLOADS, seeds=[1, 2], store=tmp_path / "s",
                        executor="inline", progress=False)
    assert len(frame) == 8
    assert list(frame.columns[:6]) == ["workload", "gc.threshold", "scheme", "seed", "key", "computed"]
    assert frame["computed"].all() and frame["key"].is_unique and frame["error"].isna().all()
    assert list(frame["seed"]) == [1, 2] * 4
    assert list(frame["scheme"]) == ["baseline"] * 2 + ["pagc-blind"] * 2 + ["baseline"] * 2 + ["pagc-blind"] * 2
    row = frame.iloc[5]  # threshold 0.06, pagc-blind, seed 2
    alone = ssdgc.run(small_base().set("gc.threshold", 0.06), scheme="pagc-blind", seed=2,
                      synthetic="count=3000", progress=False).summary().iloc[0]
    for k in ssdgc.HEADLINE:
        assert row[k] == alone[k], k
    again = ssdgc.sweep(small_base(), GRID, workloads=WORKLOADS, seeds=[1, 2], store=tmp_path / "s",
                        executor="inline", progress=False)
    assert not again["computed"].any()
    pd.testing.assert_frame_equal(comparable(again.drop(columns=["computed"])),
                                  comparable(frame.drop(columns=["computed"])))
    loaded = ssdgc.load_sweep(tmp_path / "s")
    assert set(loaded["key"]) == set(frame["key"])


def test_key_covers_configuration_workload_and_seed():
    base = [p["key"] for p in plan(small_base(), {"gc.threshold": [0.05]}, workloads=WORKLOADS)]
    assert base == [p["key"] for p in plan(small_base(), {"gc.threshold": [0.05]}, workloads=WORKLOADS)]
    others = [
        plan(small_base(), {"gc.threshold": [0.051]}, workloads=WORKLOADS),
        plan(small_base().set("timing.read", "26us"), {"gc.threshold": [0.05]}, workloads=WORKLOADS),
        plan(small_base(), {"gc.threshold": [0.05]}, workloads=["synthetic:count=3001"]),
        plan(small_base(), {"gc.threshold": [0.05]}, workloads=WORKLOADS, seeds=[2]),
        plan(small_base(), {"gc.threshold": [0.05]}, workloads=WORKLOADS, precondition="fill"),
    ]
    keys = {p[0]["key"] for p in others}
    assert base[0] not in keys and len(keys) == len(others)
    # The same configuration reached by another route is the same point.
    same = plan(ssdgc.Config.preset("default").set("gc.threshold", 0.05).set("geometry.blocks_per_plane", 64),
                {}, workloads=WORKLOADS)
    assert same[0]["key"] == base[0]


def test_bad_grids_fail_before_anything_runs(tmp_path):
    with pytest.raises(TypeError, match="neither a setting"):
        ssdgc.sweep(small_base(), {"threshold": [1]}, store=tmp_path, progress=False)
    with pytest.raises(ssdgc.SsdgcError, match="gc.threshold"):
        ssdgc.sweep(small_base(), {"gc.threshold": [0.05, "x"]}, store=tmp_path, progress=False)
    with pytest.raises(ssdgc.SsdgcError, match="--gc"):
        ssdgc.sweep(small_base(), {"scheme": ["nope"]}, store=tmp_path, progress=False)
    assert not (tmp_path / STORE_FILE).exists()


def test_failed_points_are_reported_and_not_stored(tmp_path):
    # A trace that does not exist fails when its point runs.
    ws = WORKLOADS + [str(tmp_path / "missing.csv")]
    frame = ssdgc.sweep(small_base(), {}, workloads=ws, store=tmp_path / "s", executor="inline",
                        on_error="record", progress=False)
    assert frame["error"].isna().tolist() == [True, False]
    assert "missing.csv" in frame["error"].iloc[1]
    assert stored_lines(tmp_path / "s") == 1
    with pytest.raises(ssdgc.SsdgcError, match="1 of 2 points failed"):
        ssdgc.sweep(small_base(), {}, workloads=ws, store=tmp_path / "s", executor="inline", progress=False)


def test_a_line_cut_short_is_ignored_and_closed(tmp_path):
    st = Store(tmp_path)
    frame = ssdgc.sweep(small_base(), {"gc.threshold": [0.03, 0.05]}, workloads=WORKLOADS,
                        store=tmp_path, executor="inline", progress=False)
    text = (tmp_path / STORE_FILE).read_text()
    lines = text.splitlines()
    (tmp_path / STORE_FILE).write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    assert list(st.load()) == [frame["key"][0]]
    again = ssdgc.sweep(small_base(), {"gc.threshold": [0.03, 0.05]}, workloads=WORKLOADS,
                        store=tmp_path, executor="inline", progress=False)
    assert again["computed"].tolist() == [False, True]
    assert set(st.load()) == set(frame["key"])


def write_spec(tmp_path: Path, store: Path) -> Path:
    spec = tmp_path / "sweep.toml"
    spec.write_text(
        f"""
preset = "default"
store = "{store.name}"
workloads = ["synthetic:count=40000"]
seeds = [1, 2]

[set]
"geometry.blocks_per_plane" = 64

[grid]
"gc.threshold" = [0.02, 0.03, 0.04, 0.05, 0.06, 0.07, 0.08, 0.09, 0.10, 0.11]

[run]
precondition = "steady:1"

[executor]
kind = "local"
workers = 1
"""
    )
    return spec


def test_a_killed_sweep_resumes_with_only_the_missing_points(tmp_path):
    store = tmp_path / "store"
    spec = write_spec(tmp_path, store)
    cmd = [sys.executable, "-m", "ssdgc", "sweep", str(spec), "-q"]
    # Its own session, so that the kill reaches the worker processes too.
    p = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    deadline = time.monotonic() + 240
    try:
        while stored_lines(store) < 6:
            assert p.poll() is None, f"the sweep ended early: {p.stderr.read().decode()}"
            assert time.monotonic() < deadline, "the sweep made no progress"
            time.sleep(0.02)
    finally:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    before = stored_lines(store)
    assert 6 <= before < 20, f"{before} points stored when killed"
    out = subprocess.run(cmd + ["-o", str(tmp_path / "out.csv")], cwd=tmp_path, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    frame = pd.read_csv(tmp_path / "out.csv")
    assert len(frame) == 20
    assert int(frame["computed"].sum()) == 20 - before
    assert stored_lines(store) == 20 and len(Store(store).load()) == 20
    # Finished: nothing is computed again.
    third = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert third.returncode == 0, third.stderr
    assert "computed" in third.stdout.splitlines()[0]
    assert int(pd.read_csv(pd.io.common.StringIO(third.stdout))["computed"].sum()) == 0


@pytest.fixture(scope="module")
def reference_frame(tmp_path_factory):
    store = tmp_path_factory.mktemp("local")
    return ssdgc.sweep(small_base(), GRID, workloads=WORKLOADS, seeds=[1, 2], store=store, progress=False)


def test_threads_give_the_local_frame(reference_frame, tmp_path):
    frame = ssdgc.sweep(small_base(), GRID, workloads=WORKLOADS, seeds=[1, 2], store=tmp_path,
                        executor="threads", progress=False)
    pd.testing.assert_frame_equal(comparable(frame), comparable(reference_frame))


def test_dask_gives_the_local_frame(reference_frame, tmp_path):
    import distributed

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                  dashboard_address=None, processes=True) as cluster:
        with distributed.Client(cluster) as client:
            frame = ssdgc.sweep(small_base(), GRID, workloads=WORKLOADS, seeds=[1, 2], store=tmp_path,
                                executor=client, chunk=2, progress=False)
    pd.testing.assert_frame_equal(comparable(frame), comparable(reference_frame))


def test_submitit_gives_the_local_frame(reference_frame, tmp_path):
    import submitit

    executor = submitit.LocalExecutor(folder=tmp_path / "logs")
    executor.update_parameters(timeout_min=10)
    frame = ssdgc.sweep(small_base(), GRID, workloads=WORKLOADS, seeds=[1, 2], store=tmp_path / "s",
                        executor=executor, chunk=4, poll_s=0.2, progress=False)
    pd.testing.assert_frame_equal(comparable(frame), comparable(reference_frame))


def test_sweep_command_with_a_bad_spec(tmp_path):
    spec = tmp_path / "bad.toml"
    spec.write_text("[grid]\nthreshold = [1]\n")
    p = subprocess.run([sys.executable, "-m", "ssdgc", "sweep", str(spec), "-q"], capture_output=True, text=True)
    assert p.returncode == 2
    assert p.stderr.startswith("ssdgc: error: ") and len(p.stderr.strip().splitlines()) == 1
    spec.write_text("[grid\n")
    p = subprocess.run([sys.executable, "-m", "ssdgc", "sweep", str(spec), "-q"], capture_output=True, text=True)
    assert p.returncode == 2 and f"{spec}:1:" in p.stderr


def test_numpy_values_in_a_grid(tmp_path):
    import numpy as np

    frame = ssdgc.sweep(small_base(), {"gc.threshold": np.array([0.03, 0.05]), "queue_depth": np.array([8])},
                        workloads=WORKLOADS, seeds=np.array([1]), store=tmp_path, executor=1, progress=False)
    assert list(frame["gc.threshold"]) == [0.03, 0.05] and list(frame["queue_depth"]) == [8, 8]
    assert frame["computed"].all() and len(Store(tmp_path).load()) == 2
