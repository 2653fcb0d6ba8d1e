"""Configuration layering, and bad input: a Python exception with the command's one-line message,
never a crash of the interpreter."""

from __future__ import annotations

import pickle
import subprocess
import sys

import pytest

import ssdgc
from conftest import SMALL_SETS


def sets(extra=()):
    out = []
    for s in [*SMALL_SETS, *extra]:
        out += ["--set", s]
    return out


@pytest.fixture()
def bad_trace(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text(
        "128166385295514663,hm,0,Write,9056014336,2048,2833\n"
        "128166385295514878,hm,0,Write,not-a-number,512,2617\n"
    )
    return p


@pytest.fixture()
def bad_toml(tmp_path):
    p = tmp_path / "drive.toml"
    p.write_text("[geometry]\nchannels = 4\nnope = 1\n")
    return p


# (what Python does, the command's arguments for the same mistake)
CASES = {
    "unknown preset": (lambda c, t: ssdgc.Config.preset("nope"), lambda t: ["run", "--preset", "nope", "--dump-config"]),
    "value of the wrong type": (
        lambda c, t: c.set("gc.threshold", "abc"),
        lambda t: ["run", *sets(["gc.threshold=abc"]), "--dump-config"],
    ),
    "unknown key": (
        lambda c, t: c.set("geometry.nope", 1),
        lambda t: ["run", *sets(["geometry.nope=1"]), "--dump-config"],
    ),
    "negative count": (
        lambda c, t: c.set("geometry.channels", -1),
        lambda t: ["run", *sets(["geometry.channels=-1"]), "--dump-config"],
    ),
    "assignment form": (
        lambda c, t: c.set("gc.threshold"),
        lambda t: ["run", *sets(["gc.threshold"]), "--dump-config"],
    ),
    "file with an unknown key": (
        lambda c, t: c.from_toml(t["toml"]),
        lambda t: ["run", "--config", str(t["toml"]), "--dump-config"],
    ),
    "missing file": (
        lambda c, t: c.from_toml(t["missing"]),
        lambda t: ["run", "--config", str(t["missing"]), "--dump-config"],
    ),
    "impossible drive": (
        lambda c, t: c.set("geometry.overprovision", 1.5).to_toml(),
        lambda t: ["run", *sets(["geometry.overprovision=1.5"]), "--dump-config"],
    ),
    "meaningless axes": (
        lambda c, t: ssdgc.run(c.set("gc.suspend", "all"), synthetic="count=10", progress=False),
        lambda t: ["run", *sets(["gc.suspend=all"]), "--synthetic", "count=10"],
    ),
    "unknown scheme": (
        lambda c, t: ssdgc.run(c, scheme="nope", synthetic="count=10", progress=False),
        lambda t: ["run", *sets(), "--gc", "nope", "--synthetic", "count=10"],
    ),
    "bad victim": (
        lambda c, t: ssdgc.run(c, victim="rga:0", synthetic="count=10", progress=False),
        lambda t: ["run", *sets(), "--victim", "rga:0", "--synthetic", "count=10"],
    ),
    "bad synthetic spec": (
        lambda c, t: ssdgc.run(c, synthetic="count=0x", progress=False),
        lambda t: ["run", *sets(), "--synthetic", "count=0x"],
    ),
    "bad precondition": (
        lambda c, t: ssdgc.run(c, precondition="soon", synthetic="count=10", progress=False),
        lambda t: ["run", *sets(), "--precondition", "soon", "--synthetic", "count=10"],
    ),
    "empty series window": (
        lambda c, t: ssdgc.run(c, series_window=0, synthetic="count=10", progress=False),
        lambda t: ["run", *sets(), "--series-window", "0", "--synthetic", "count=10"],
    ),
    "bad series interval": (
        lambda c, t: ssdgc.run(c, series_interval="5 parsecs", synthetic="count=10", progress=False),
        lambda t: ["run", *sets(), "--series-interval", "5 parsecs", "--synthetic", "count=10"],
    ),
    "bad fold": (
        lambda c, t: ssdgc.run(c, fold="nope", synthetic="count=10", progress=False),
        lambda t: ["run", *sets(), "--fold", "nope", "--synthetic", "count=10"],
    ),
    "replay of a synthetic workload": (
        lambda c, t: ssdgc.run(c, replay="closed:4", synthetic="count=10", progress=False),
        lambda t: ["run", *sets(), "--replay", "closed:4", "--synthetic", "count=10"],
    ),
    "bad format": (
        lambda c, t: ssdgc.run(c, trace=t["trace"], format="nope", progress=False),
        lambda t: ["run", *sets(), str(t["trace"]), "--format", "nope"],
    ),
    "malformed trace line": (
        lambda c, t: ssdgc.run(c, trace=t["trace"], format="msr", precondition="none", progress=False),
        lambda t: ["run", *sets(), str(t["trace"]), "--format", "msr", "--precondition", "none"],
    ),
    "missing trace": (
        lambda c, t: ssdgc.run(c, trace=t["missing"], progress=False),
        lambda t: ["run", *sets(), str(t["missing"])],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_input_raises_the_commands_message(case, cli, small, bad_trace, bad_toml, tmp_path):
    t = {"trace": bad_trace, "toml": bad_toml, "missing": tmp_path / "missing.file"}
    python, command = CASES[case]
    expected = cli.error(command(t))
    with pytest.raises(ssdgc.SsdgcError) as e:
        python(small, t)
    assert str(e.value) == expected
    assert isinstance(e.value, ValueError)
    assert "\n" not in str(e.value)


def test_bad_input_never_crashes_the_interpreter(tmp_path):
    """Garbage of every kind raises Python exceptions; the interpreter lives on to say so."""
    code = r"""
import ssdgc
bad = [
    lambda: ssdgc.Config.preset("\x00"),
    lambda: ssdgc.Config().set("gc.threshold", float("nan")).to_toml(),
    lambda: ssdgc.Config().set("geometry.channels", 2**70),
    lambda: ssdgc.Config().set("geometry.page_size", "1e99KiB"),
    lambda: ssdgc.Config().set("gc.victim", {"policy": "alpha", "alpha": "x"}),
    lambda: ssdgc.Config().set("gc.threshold\n=1"),
    lambda: ssdgc.Config().from_toml_str("[[["),
    lambda: ssdgc.run(synthetic="count=5,size=0", progress=False),
    lambda: ssdgc.run(synthetic="count=99999999999999999999", progress=False),
    lambda: ssdgc.run(trace="/dev/null/x", progress=False),
    lambda: ssdgc.run(ssdgc.Config().set("geometry.channels", 0), progress=False),
    lambda: ssdgc.run(queue_depth=0, synthetic="count=5", progress=False),
    lambda: ssdgc.run(time_scale=-1.0, synthetic="count=5", progress=False),
    lambda: ssdgc.compare(schemes=[], progress=False),
]
for f in bad:
    try:
        f()
    except ssdgc.SsdgcError as e:
        assert "\n" not in str(e), str(e)
    else:
        raise AssertionError("no error")
print("alive")
"""
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "alive"


def test_layers_apply_in_the_commands_order(cli, tmp_path):
    f = tmp_path / "drive.toml"
    f.write_text("[geometry]\nchannels = 4\nblocks_per_plane = 100\n[gc]\nthreshold = 0.08\n")
    cfg = ssdgc.Config.preset("pagc-small").from_toml(f).set("geometry.blocks_per_plane", 96)
    expected = cli.run(
        ["run", "--preset", "pagc-small", "--config", str(f), "--set", "geometry.blocks_per_plane=96", "--dump-config"]
    ).stdout
    assert cfg.to_toml() == expected
    assert cfg.get("geometry.channels") == 4
    assert cfg.get("geometry.blocks_per_plane") == 96
    assert cfg.get("gc.threshold") == 0.08
    # On the class, from_toml starts from the default preset.
    assert ssdgc.Config.from_toml(f).to_toml() == cli.run(["run", "--config", str(f), "--dump-config"]).stdout


def test_values_are_read_as_the_command_line_reads_them(cli):
    cfg = (
        ssdgc.Config()
        .set("ftl.allocation", "PCWD")
        .set("timing.read", "30us")
        .set("gc.victim", {"policy": "rga", "d": 4})
        .set("gc.preempt", "ops")
        .set("gc.when", "idle")
        .set("gc.merge", True)
        .set("host.time_scale", 2)
    )
    expected = cli.run(
        [
            "run",
            "--set", "ftl.allocation=PCWD",
            "--set", "timing.read=30us",
            "--set", 'gc.victim={ policy = "rga", d = 4 }',
            "--set", "gc.preempt=ops",
            "--set", "gc.when=idle",
            "--set", "gc.merge=true",
            "--set", "host.time_scale=2",
            "--dump-config",
        ]
    ).stdout
    assert cfg.to_toml() == expected


def test_a_config_is_immutable_and_pickles(small):
    higher = small.set("gc.threshold", 0.1)
    assert small.get("gc.threshold") != higher.get("gc.threshold")
    back = pickle.loads(pickle.dumps(higher))
    assert back == higher
    assert back.to_toml() == higher.to_toml()
    assert "Config.preset('default')" in repr(higher)
    assert ssdgc.Config.from_toml_str(higher.to_toml()).to_toml() == higher.to_toml()


def test_listings_match_the_command(cli):
    out = cli.run(["list", "presets"]).stdout
    for name in ssdgc.presets():
        assert name in out
    assert {"baseline", "pagc-threshold", "zero"} <= set(ssdgc.schemes())
    assert "greedy" in ssdgc.victims()
    assert "msr" in ssdgc.formats()
