"""ssdgc: a fast, deterministic SSD simulator for studying garbage collection, from Python.

Run and compare GC schemes, get reports as pandas DataFrames, plot them (:mod:`ssdgc.plot`),
write self-contained HTML reports (:meth:`Report.to_html`, ``python -m ssdgc report``) and sweep
parameters on local cores, Dask or SLURM (:func:`sweep`, ``python -m ssdgc sweep``).

>>> import ssdgc
>>> cfg = ssdgc.Config.preset("pagc-small").set("gc.threshold", 0.05)
>>> report = ssdgc.run(cfg, synthetic="count=20000", scheme="pagc-threshold")
>>> report.summary()

The simulation is the ssdgc command's (same core, same settings, same messages); the guide is
docs/python.md in the repository.
"""

from . import _native
from ._config import Config
from ._native import REPORT_SCHEMA, SsdgcError, __version__
from ._report import Report, load_reports
from ._run import compare, run
from .sweep import load_sweep, sweep

#: Alias of :class:`SsdgcError`, the one exception type of bad settings, workloads and runs.
Error = SsdgcError


def presets():
    """The drive presets, ``{name: description}`` (``ssdgc list presets``)."""
    return dict(_native.presets())


def schemes():
    """The named GC schemes, ``{name: description}`` (``ssdgc list schemes``)."""
    return {n: d for n, d, _axes in _native.schemes()}


def victims():
    """The victim policies, ``{name: description}`` (``ssdgc list victims``)."""
    return dict(_native.victims())


def formats():
    """The trace formats, ``{name: description}`` (``ssdgc list formats``)."""
    return dict(_native.formats())


#: The headline figures' column names, in ``ssdgc compare``'s order.
HEADLINE = tuple(k for k, *_ in _native.headline_figures())

__all__ = [
    "Config",
    "Error",
    "HEADLINE",
    "REPORT_SCHEMA",
    "Report",
    "SsdgcError",
    "__version__",
    "compare",
    "formats",
    "load_reports",
    "load_sweep",
    "presets",
    "run",
    "schemes",
    "sweep",
    "victims",
]
