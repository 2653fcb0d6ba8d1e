"""``python -m ssdgc``: the Python package's commands.

``python -m ssdgc report RUN.json [MORE.json …] -o report.html``
    A self-contained HTML report of runs saved by ``ssdgc run --json`` or ``ssdgc compare --json``.

``python -m ssdgc sweep SPEC.toml [-o results.csv]``
    A parameter sweep described by a TOML file (docs/python.md, "Sweeps"), resumable through its
    store; prints the results as CSV.

Errors are one line, ``ssdgc: error: …``, with exit status 2, as the ssdgc command's.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Dict, List, Optional

from . import _native

SPEC_KEYS = {"preset", "config", "store", "workloads", "seeds", "set", "grid", "run", "executor", "chunk", "on_error"}
EXECUTOR_KINDS = ("local", "threads", "inline", "dask", "slurm", "submitit-local")


class UserError(Exception):
    """A mistake of the user's: printed as one line, exit status 2."""


def _labels(reports: List[Any]) -> None:
    """Gives runs of the same scheme distinct labels (the file they came from, then a number)."""
    seen: Dict[str, int] = {}
    for r in reports:
        seen[r.label] = seen.get(r.label, 0) + 1
    for r in reports:
        if seen[r.label] > 1:
            r.label = f"{r.label} ({r._source})"
    counts: Dict[str, int] = {}
    for r in reports:
        n = counts.get(r.label, 0)
        counts[r.label] = n + 1
        if n:
            r.label = f"{r.label} #{n + 1}"


def cmd_report(args: argparse.Namespace) -> int:
    from ._report import load_reports
    from .html import write_report

    reports = []
    for path in args.runs:
        try:
            rs = load_reports(path)
        except FileNotFoundError:
            raise UserError(f"{path}: no such file")
        except (OSError, ValueError) as e:
            raise UserError(f"{path}: {e}".replace("\n", " "))
        for r in rs:
            r._source = os.path.basename(path)
        reports.extend(rs)
    _labels(reports)
    try:
        write_report(reports, args.output, title=args.title)
    except (KeyError, TypeError) as e:
        raise UserError(f"not a complete ssdgc report: missing {e}")
    except OSError as e:
        raise UserError(f"{args.output}: {e.strerror or e}")
    if not args.quiet:
        print(f"ssdgc: wrote {args.output} ({len(reports)} run(s))", file=sys.stderr)
    return 0


def _resolve(base: str, path: str) -> str:
    return path if os.path.isabs(path) else os.path.normpath(os.path.join(base, path))


def _executor(spec: Dict[str, Any], source: str, workers: Optional[int]):
    """The executor a spec's [executor] table names, and what to close afterwards."""
    ex = dict(spec.get("executor") or {})
    kind = ex.pop("kind", "local")
    if kind not in EXECUTOR_KINDS:
        raise UserError(f"{source}: executor.kind: '{kind}' is not one of {', '.join(EXECUTOR_KINDS)}")
    if kind in ("local", "threads", "inline"):
        n = ex.pop("workers", None)
        if ex:
            raise UserError(f"{source}: executor: unknown key(s) {', '.join(sorted(ex))} for kind '{kind}'")
        if workers is not None:
            n = workers
        if kind == "local":
            return (int(n) if n else None), None
        return kind, None
    if kind == "dask":
        address = ex.pop("address", None)
        if not address or ex:
            raise UserError(f"{source}: executor: kind 'dask' takes address = \"tcp://HOST:PORT\" (the scheduler's)")
        try:
            from distributed import Client
        except ImportError:
            raise UserError("executor 'dask' needs dask.distributed: pip install 'ssdgc[dask]'")
        client = Client(address)
        return client, client
    try:
        import submitit
    except ImportError:
        raise UserError(f"executor '{kind}' needs submitit: pip install 'ssdgc[slurm]'")
    folder = _resolve(os.path.dirname(os.path.abspath(source)), ex.pop("folder", "submitit-logs"))
    if kind == "slurm":
        executor = submitit.AutoExecutor(folder=folder, cluster="slurm")
    else:
        executor = submitit.LocalExecutor(folder=folder)
    if ex:
        executor.update_parameters(**ex)
    return executor, None


def load_spec(path: str) -> Dict[str, Any]:
    """A sweep spec: the TOML file's tables, checked."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise UserError(f"{path}: cannot read: {e.strerror or e}")
    spec = json.loads(_native.toml_to_json(text, path))
    unknown = set(spec) - SPEC_KEYS
    if unknown:
        raise UserError(f"{path}: unknown key(s) {', '.join(sorted(unknown))} (known: {', '.join(sorted(SPEC_KEYS))})")
    for table in ("set", "grid", "run", "executor"):
        if table in spec and not isinstance(spec[table], dict):
            raise UserError(f"{path}: '{table}' must be a table [{table}]")
    return spec


def cmd_sweep(args: argparse.Namespace) -> int:
    from ._config import Config
    from .sweep import sweep

    spec = load_spec(args.spec)
    here = os.path.dirname(os.path.abspath(args.spec))
    base = Config.preset(spec.get("preset", "default"))
    if "config" in spec:
        base = base.from_toml(_resolve(here, spec["config"]))
    base = base.update(spec.get("set", {}))
    workloads = []
    for w in spec.get("workloads", [None]):
        if isinstance(w, str) and not w.startswith("synthetic:"):
            w = {"trace": _resolve(here, w), "label": w}
        elif isinstance(w, dict) and "trace" in w:
            w = dict(w)
            w.setdefault("label", w["trace"])
            w["trace"] = _resolve(here, w["trace"])
        workloads.append(w)
    store = args.store or spec.get("store")
    store = _resolve(here, store) if store and not args.store else store
    executor, close = _executor(spec, args.spec, args.workers)
    try:
        frame = sweep(
            base,
            spec.get("grid", {}),
            workloads=workloads,
            seeds=spec.get("seeds", [1]),
            store=store,
            executor=executor,
            chunk=int(spec.get("chunk", 1)),
            on_error=spec.get("on_error", "raise"),
            progress=not args.quiet,
            **spec.get("run", {}),
        )
    except TypeError as e:
        raise UserError(f"{args.spec}: {e}")
    finally:
        if close is not None:
            close.close()
    computed = int(frame["computed"].sum())
    if not args.quiet:
        print(
            f"ssdgc: {len(frame)} points: {computed} computed, {len(frame) - computed} found in the store"
            + (f" ({store})" if store else ""),
            file=sys.stderr,
        )
    if args.output:
        frame.to_csv(args.output, index=False)
    else:
        frame.to_csv(sys.stdout, index=False)
    return 0


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line, as the ssdgc command prints them."""

    def error(self, message: str):  # type: ignore[override]
        print(f"ssdgc: error: {message} (see python -m ssdgc --help)", file=sys.stderr)
        sys.exit(2)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog="python -m ssdgc", description="ssdgc's Python commands: HTML reports and sweeps.")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("report", help="a self-contained HTML report of runs saved as JSON")
    r.add_argument("runs", nargs="+", metavar="RUN.json", help="output of `ssdgc run --json` or `ssdgc compare --json`")
    r.add_argument("-o", "--output", default="report.html", help="the page to write (default report.html)")
    r.add_argument("--title", help="the page's title")
    r.add_argument("-q", "--quiet", action="store_true", help="no note on stderr")
    r.set_defaults(func=cmd_report)
    s = sub.add_parser("sweep", help="a parameter sweep described by a TOML file")
    s.add_argument("spec", metavar="SPEC.toml")
    s.add_argument("-o", "--output", help="write the results as CSV here (default: standard output)")
    s.add_argument("--store", help="the store directory (overrides the spec's `store`)")
    s.add_argument("-j", "--workers", type=int, help="local processes (overrides executor.workers)")
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar or note on stderr")
    s.set_defaults(func=cmd_sweep)
    return p


def main(argv: Optional[List[str]] = None) -> int:
    args = parser().parse_args(argv)
    try:
        return args.func(args)
    except UserError as e:
        print(f"ssdgc: error: {e}", file=sys.stderr)
        return 2
    except _native.SsdgcError as e:
        print(f"ssdgc: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
