"""Shared fixtures: the ssdgc command (to compare with), the shared traces, a small drive."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import List

import pytest

import ssdgc

ROOT = Path(__file__).resolve().parents[2]


def _cli_path() -> Path:
    env = os.environ.get("SSDGC_CLI")
    if env:
        return Path(env)
    for profile in ("debug", "release"):
        p = ROOT / "target" / profile / "ssdgc"
        if p.exists():
            return p
    # Not built yet: build it (the comparison needs the real command).
    subprocess.run(["cargo", "build", "-q", "-p", "ssdgc-cli"], cwd=ROOT, check=True)
    return ROOT / "target" / "debug" / "ssdgc"


class Cli:
    """The ssdgc command."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def run(self, args: List[str], check: bool = True) -> subprocess.CompletedProcess:
        p = subprocess.run([str(self.path), *args], capture_output=True, text=True)
        if check and p.returncode != 0:
            raise AssertionError(f"ssdgc {' '.join(args)} failed ({p.returncode}): {p.stderr}")
        return p

    def json(self, args: List[str]) -> dict:
        return json.loads(self.run([*args, "--json", "-q"]).stdout)

    def error(self, args: List[str]) -> str:
        """The one-line message of a command that must fail with status 2."""
        p = self.run(args, check=False)
        assert p.returncode == 2, f"ssdgc {' '.join(args)}: status {p.returncode}, stderr {p.stderr!r}"
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1, p.stderr
        prefix = "ssdgc: error: "
        assert lines[0].startswith(prefix), lines[0]
        return lines[0][len(prefix):]


@pytest.fixture(scope="session")
def cli() -> Cli:
    path = _cli_path()
    assert path.exists(), f"the ssdgc command is not at {path}"
    return Cli(path)


@pytest.fixture(scope="session")
def traces() -> Path:
    d = Path(os.environ.get("SSDGC_TRACES", ROOT.parent / "shared" / "traces"))
    assert d.is_dir(), f"the shared traces are not at {d} (set SSDGC_TRACES)"
    return d


#: A drive small enough for runs of a few tenths of a second: the default preset, 64 blocks per
#: plane.
SMALL_SETS = ["geometry.blocks_per_plane=64"]


@pytest.fixture()
def small() -> ssdgc.Config:
    c = ssdgc.Config.preset("default")
    for s in SMALL_SETS:
        c = c.set(s)
    return c


@pytest.fixture(scope="session")
def artifacts() -> Path:
    """Where tests leave what a person may want to look at (screenshots, pages)."""
    d = Path(os.environ.get("SSDGC_TEST_ARTIFACTS", ROOT / "target" / "python-tests"))
    d.mkdir(parents=True, exist_ok=True)
    return d


def without_wall(report: dict) -> dict:
    """A report without its wall-clock times, the only figures that vary from run to run."""
    r = json.loads(json.dumps(report))
    r["sim"].pop("wall_s", None)
    for d in r.get("drives") or []:
        d["sim"].pop("wall_s", None)
    return r
