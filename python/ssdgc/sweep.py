"""Parameter sweeps: every combination of a grid of settings, workloads and seeds, run on local
processes, a Dask cluster or SLURM job arrays (submitit), kept in a resumable store.

Each point is keyed by a hash of everything that decides its result: the run's effective
configuration (as ``--dump-config`` prints it), the workload (a trace's absolute path and size, or
the synthetic spec), the run options, the seed and the ssdgc version. A point's report is appended
to the store (``points.jsonl`` in the store directory, one JSON object a line) as soon as it
finishes, so a sweep that is stopped resumes where it stopped, and a finished one is not
recomputed: only the points whose key is not in the store run.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import time
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

from . import _native
from ._config import Config, as_config
from ._report import Report, summary_row
from ._run import KEY_ARGS, SETTING_ARGS, WORKLOAD_ARGS, split_args

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

PathLike = Union[str, "os.PathLike[str]"]

#: The file of a store directory that holds its points.
STORE_FILE = "points.jsonl"
#: Run arguments a grid may sweep besides configuration keys (``section.key``).
GRID_RUN_ARGS = (set(KEY_ARGS) | set(SETTING_ARGS) | set(WORKLOAD_ARGS)) - {"trace", "synthetic"}


# --- points -----------------------------------------------------------------------------------


def _workload(w: Any) -> Tuple[str, Dict[str, Any], Dict[str, Any]]:
    """``(label, run arguments, identity)`` of one entry of ``workloads``."""
    if w is None:
        return "default", {}, {"synthetic": _native.DEFAULT_WORKLOAD}
    if isinstance(w, Mapping):
        w = dict(w)
        label = w.pop("label", None)
        unknown = set(w) - set(WORKLOAD_ARGS)
        if unknown:
            raise TypeError(f"unknown workload key(s): {', '.join(sorted(unknown))}")
        if ("trace" in w) == ("synthetic" in w):
            raise TypeError("a workload has a trace or a synthetic spec (one of them)")
        if "trace" in w:
            label = label or str(w["trace"])
        else:
            label = label or f"synthetic:{w['synthetic']}"
    elif isinstance(w, str) and w.startswith("synthetic:"):
        label, w = w, {"synthetic": w[len("synthetic:"):]}
    elif isinstance(w, (str, os.PathLike)):
        label, w = os.fspath(w), {"trace": w}
    else:
        raise TypeError(f"a workload is a trace path, 'synthetic:SPEC' or a dict, not {type(w).__name__}")
    ident = dict(w)
    if "trace" in w:
        path = os.path.abspath(os.fspath(w["trace"]))
        w["trace"] = path
        ident["trace"] = path
        try:
            ident["trace_bytes"] = os.path.getsize(path)
        except OSError:
            ident["trace_bytes"] = None  # the run will fail with the reader's message
    return label, w, ident


def _plain(v: Any) -> Any:
    """A grid value as plain JSON data (numpy scalars become Python numbers)."""
    if hasattr(v, "item") and callable(v.item) and not isinstance(v, (str, bytes)):
        try:
            return v.item()
        except (TypeError, ValueError):
            return v
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def _point_key(spec: Dict[str, Any]) -> str:
    text = json.dumps(spec, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def plan(
    base: Union[Config, str, None] = None,
    grid: Optional[Mapping[str, Sequence[Any]]] = None,
    *,
    workloads: Sequence[Any] = (None,),
    seeds: Sequence[int] = (1,),
    **run_kwargs: Any,
) -> List[Dict[str, Any]]:
    """The points of a sweep, in order (workloads, then the grid's combinations in key order, then
    seeds), each ``{"key", "point", "spec"}``: the hash key, the swept values, and everything the
    run needs. Every point's configuration is built here, so a bad value fails before any run."""
    base = as_config(base)
    grid = dict(grid or {})
    for k in grid:
        if "." not in k and k not in GRID_RUN_ARGS:
            raise TypeError(
                f"grid key {k!r} is neither a setting (section.key) nor a run argument "
                f"({', '.join(sorted(GRID_RUN_ARGS))})"
            )
        if isinstance(grid[k], (str, bytes)) or not isinstance(grid[k], Iterable):
            raise TypeError(f"grid[{k!r}] must be a list of values")
        grid[k] = [_plain(v) for v in grid[k]]
    if "seed" in run_kwargs or "seed" in grid:
        raise TypeError("seeds are given by seeds=[...]")
    seeds = [int(x) for x in seeds]
    workloads = list(workloads)
    if not seeds:
        raise ValueError("seeds is empty")
    if not workloads:
        raise ValueError("workloads is empty")
    names = list(grid)
    points = []
    configs: Dict[Tuple, Config] = {}
    for w in workloads:
        label, wargs, ident = _workload(w)
        for values in itertools.product(*(grid[k] for k in names)):
            chosen = dict(zip(names, values))
            settings = {k: v for k, v in chosen.items() if "." in k}
            ck = tuple((k, json.dumps(v, sort_keys=True, default=str)) for k, v in settings.items())
            cfg = configs.get(ck)
            if cfg is None:
                cfg = configs[ck] = base.update(settings)
            args = {k: _plain(v) for k, v in run_kwargs.items()}
            args.update({k: v for k, v in chosen.items() if "." not in k})
            args.update(wargs)
            keys, load, opts = split_args(args)
            toml = _native.resolve(cfg._native, keys)
            for seed in seeds:
                spec = {
                    "version": _native.__version__,
                    "config": toml,
                    "workload": {**load, **{k: v for k, v in ident.items() if k not in load}},
                    "settings": opts,
                    "seed": int(seed),
                }
                point = {"workload": label, **chosen, "seed": int(seed)}
                points.append({"key": _point_key(spec), "point": point, "spec": spec})
    return points


# --- running a point (on any worker) ----------------------------------------------------------


def run_points(specs: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    """Runs points in this process: ``{"key", "report"}`` or ``{"key", "error"}`` for each. This
    is what every executor's workers call; it needs only ssdgc itself."""
    out = []
    for item in specs:
        spec = item["spec"]
        try:
            cfg = _native.Config.preset("default").with_text(spec["config"], "sweep point")
            load = {k: spec["workload"].get(k) for k in WORKLOAD_ARGS}
            keys = {k: None for k in KEY_ARGS}
            native = _native.run(cfg, keys, load, spec["settings"], spec["seed"], None)
            out.append({"key": item["key"], "report": json.loads(native.to_json())})
        except _native.SsdgcError as e:
            out.append({"key": item["key"], "error": str(e)})
    return out


# --- the store --------------------------------------------------------------------------------


class Store:
    """A sweep's store: a directory whose ``points.jsonl`` holds one finished point a line,
    ``{"key", "point", "spec", "report"}``. Lines are appended by the process that runs the
    sweep (never by workers), each written whole and flushed to disk; a line cut short by a
    kill is ignored on loading."""

    def __init__(self, path: PathLike) -> None:
        self.dir = os.fspath(path)
        self.file = os.path.join(self.dir, STORE_FILE)

    def load(self) -> Dict[str, Dict[str, Any]]:
        """The stored points by key (the last line wins for a key stored twice)."""
        found: Dict[str, Dict[str, Any]] = {}
        if not os.path.exists(self.file):
            return found
        with open(self.file, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line:
                    continue
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:
                    continue  # cut short by a kill
                if isinstance(rec, dict) and "key" in rec and "report" in rec:
                    found[rec["key"]] = rec
        return found

    def append(self, records: Iterable[Dict[str, Any]]) -> None:
        os.makedirs(self.dir, exist_ok=True)
        fd = os.open(self.file, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        try:
            # A line cut short by a kill is closed first so that the next line stands alone.
            size = os.fstat(fd).st_size
            if size:
                with open(self.file, "rb") as r:
                    r.seek(size - 1)
                    if r.read(1) != b"\n":
                        os.write(fd, b"\n")
            for rec in records:
                os.write(fd, (json.dumps(rec, separators=(",", ":")) + "\n").encode("utf-8"))
            os.fsync(fd)
        finally:
            os.close(fd)


# --- executors --------------------------------------------------------------------------------


def _kind(executor: Any) -> str:
    if executor is None or executor == "local" or (isinstance(executor, int) and not isinstance(executor, bool)):
        return "local"
    if executor in ("threads", "inline"):
        return executor
    module = type(executor).__module__ or ""
    if module.split(".")[0] == "distributed":
        return "dask"
    if module.split(".")[0] == "submitit":
        return "submitit"
    import concurrent.futures as cf

    if isinstance(executor, cf.Executor):
        return "futures"
    raise TypeError(
        "executor must be None or 'local' (local processes), an int (that many processes), "
        "'threads', 'inline', a concurrent.futures.Executor, a dask.distributed.Client or a "
        f"submitit executor, not {executor!r}"
    )


def _futures(pool: Any, chunks: List[List[Dict[str, Any]]]):
    import concurrent.futures as cf

    futures = [pool.submit(run_points, c) for c in chunks]
    for fut in cf.as_completed(futures):
        yield fut.result()


def _local(chunks: List[List[Dict[str, Any]]], workers: int):
    """Runs chunks on `workers` processes of ``python -m ssdgc._worker``, fed over pipes."""
    import selectors
    import subprocess
    import sys

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = here + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "ssdgc._worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
            encoding="utf-8",
        )
        for _ in range(workers)
    ]
    queue = list(reversed(chunks))
    sel = selectors.DefaultSelector()
    busy = 0

    def give(p) -> bool:
        if not queue:
            return False
        p.stdin.write(json.dumps(queue.pop(), separators=(",", ":")) + "\n")
        p.stdin.flush()
        return True

    try:
        for p in procs:
            sel.register(p.stdout, selectors.EVENT_READ, p)
            busy += give(p)
        while busy:
            for key, _ in sel.select():
                p = key.data
                line = p.stdout.readline()
                if not line:
                    code = p.wait()
                    raise _native.SsdgcError(f"a sweep worker process exited unexpectedly (status {code})")
                busy -= 1
                yield json.loads(line)
                busy += give(p)
    finally:
        for p in procs:
            try:
                p.stdin.close()
            except OSError:
                pass
        for p in procs:
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        sel.close()


def _dask(client: Any, chunks: List[List[Dict[str, Any]]]):
    from distributed import as_completed

    futures = [client.submit(run_points, c, pure=False) for c in chunks]
    for fut in as_completed(futures):
        yield fut.result()


def _submitit(executor: Any, chunks: List[List[Dict[str, Any]]], poll_s: float):
    # One job array for the whole sweep (one task per chunk).
    jobs = executor.map_array(run_points, chunks)
    pending = list(range(len(jobs)))
    while pending:
        still = []
        for i in pending:
            if jobs[i].done():
                yield jobs[i].result()
            else:
                still.append(i)
        pending = still
        if pending:
            time.sleep(poll_s)


def _execute(executor: Any, chunks: List[List[Dict[str, Any]]], poll_s: float):
    """The results of every chunk, as they finish."""
    kind = _kind(executor)
    if kind == "inline":
        for c in chunks:
            yield run_points(c)
    elif kind == "local":
        workers = executor if isinstance(executor, int) else (os.cpu_count() or 1)
        yield from _local(chunks, max(1, min(workers, len(chunks))))
    elif kind == "threads":
        import concurrent.futures as cf

        # Runs release the interpreter, so threads run them in parallel too.
        with cf.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            yield from _futures(pool, chunks)
    elif kind == "futures":
        yield from _futures(executor, chunks)
    elif kind == "dask":
        yield from _dask(executor, chunks)
    else:
        yield from _submitit(executor, chunks, poll_s)


# --- the sweep --------------------------------------------------------------------------------


def _frame(points: List[Dict[str, Any]], results: Dict[str, Dict[str, Any]], computed: set):
    """One row per point: its values, key, whether it was computed now, its summary, its error."""
    import pandas as pd

    rows = []
    for p in points:
        row = dict(p["point"])
        row["key"] = p["key"]
        row["computed"] = p["key"] in computed
        res = results.get(p["key"], {})
        if "report" in res:
            summary = summary_row(res["report"])
            summary.pop("workload", None)
            summary.pop("seed", None)
            for k, v in summary.items():
                row.setdefault(k, v)
            row["error"] = None
        else:
            row["error"] = res.get("error")
        rows.append(row)
    return pd.DataFrame(rows)


def sweep(
    base: Union[Config, str, None] = None,
    grid: Optional[Mapping[str, Sequence[Any]]] = None,
    *,
    workloads: Sequence[Any] = (None,),
    seeds: Sequence[int] = (1,),
    store: Optional[PathLike] = None,
    executor: Any = None,
    chunk: int = 1,
    on_error: str = "raise",
    progress: bool = True,
    reports: bool = False,
    poll_s: float = 1.0,
    **run_kwargs: Any,
):
    """Runs every point of a parameter grid and returns a DataFrame with one row per point.

    Parameters
    ----------
    base
        The base :class:`Config` (or a preset name) every point starts from.
    grid
        ``{name: [values]}``; every combination is a point. A name is a setting
        (``"gc.threshold"``) or one of :func:`ssdgc.run`'s arguments (``"scheme"``,
        ``"victim"``, ``"precondition"``, ``"queue_depth"`` …).
    workloads
        Trace paths, ``"synthetic:SPEC"`` strings, or dicts of :func:`ssdgc.run`'s workload
        arguments (``{"trace": path, "volume": 3, "label": "vol3"}``); None is the default
        workload.
    seeds
        The seeds of every combination.
    store
        A directory: finished points are appended to it as they finish and found there again,
        so a stopped sweep resumes and a finished one is not recomputed. None keeps nothing.
    executor
        Where points run: None or ``"local"`` (local processes, one per core), an int (that many
        processes), ``"threads"``, ``"inline"`` (this thread, one by one), any
        ``concurrent.futures.Executor``, a ``dask.distributed.Client``, or a submitit executor
        (``submitit.AutoExecutor`` for SLURM job arrays; ``submitit.LocalExecutor``).
    chunk
        Points per task (a task of a job array, a Dask task): more for many short points.
    on_error
        ``"raise"``: after the other points are done (and stored), raise
        :class:`ssdgc.SsdgcError` for the failed ones; ``"record"``: keep their message in the
        ``error`` column. Failed points are never stored, so a later sweep tries them again.
    progress
        A progress bar over the points.
    reports
        Also return every point's :class:`ssdgc.Report`: the result is then
        ``(frame, {key: Report})``.
    poll_s
        How often a submitit executor's jobs are polled, in seconds.
    run_kwargs
        :func:`ssdgc.run`'s arguments for every point (``precondition="fill"``,
        ``series_interval="100ms"`` …).

    Returns
    -------
    A DataFrame in point order: ``workload``, the grid's names, ``seed``, ``key`` (the point's
    hash), ``computed`` (False for points found in the store), the summary columns of
    :meth:`Report.summary` (``scheme``, ``victim``, ``requests``, the headline figures,
    ``simulated_s``, ``wall_s``) and ``error``. Every executor gives the same frame (``wall_s``
    aside, the one figure that is not deterministic).
    """
    if on_error not in ("raise", "record"):
        raise ValueError("on_error must be 'raise' or 'record'")
    if chunk < 1:
        raise ValueError("chunk must be at least 1")
    _kind(executor)
    points = plan(base, grid, workloads=workloads, seeds=seeds, **run_kwargs)
    st = Store(store) if store is not None else None
    found = st.load() if st is not None else {}
    results: Dict[str, Dict[str, Any]] = {k: found[k] for k in found}
    todo, seen = [], set()
    for p in points:
        if p["key"] not in results and p["key"] not in seen:
            seen.add(p["key"])
            todo.append(p)
    by_key = {p["key"]: p for p in todo}
    computed: set = set()
    # Workers get what they run: the key and the spec.
    tasks = [{"key": p["key"], "spec": p["spec"]} for p in todo]
    chunks = [tasks[i : i + chunk] for i in range(0, len(tasks), chunk)]
    bar = None
    if progress and todo:
        from tqdm.auto import tqdm

        bar = tqdm(total=len(todo), desc="sweep", unit=" points", dynamic_ncols=True)
    try:
        for batch in _execute(executor, chunks, poll_s) if chunks else ():
            done = []
            for res in batch:
                key = res["key"]
                results[key] = res
                if "report" in res:
                    computed.add(key)
                    p = by_key[key]
                    done.append({"key": key, "point": p["point"], "spec": p["spec"], "report": res["report"]})
            if st is not None and done:
                st.append(done)
            if bar is not None:
                bar.update(len(batch))
    finally:
        if bar is not None:
            bar.close()
    frame = _frame(points, results, computed)
    failed = frame[frame["error"].notna()]
    if on_error == "raise" and len(failed):
        first = failed.iloc[0]
        raise _native.SsdgcError(
            f"{len(failed)} of {len(frame)} points failed; the first, {first['key']} "
            f"({_describe(first, list(grid or {}))}): {first['error']}"
        )
    if reports:
        return frame, {
            p["key"]: Report.from_dict(results[p["key"]]["report"], label=p["key"])
            for p in points
            if "report" in results.get(p["key"], {})
        }
    return frame


def _describe(row: Any, names: List[str]) -> str:
    parts = [f"workload={row['workload']}"] + [f"{n}={row[n]}" for n in names] + [f"seed={row['seed']}"]
    return ", ".join(parts)


def load_sweep(store: PathLike, reports: bool = False):
    """Every point of a store as one DataFrame (the columns of :func:`sweep`'s, with
    ``computed`` False); with ``reports=True``, ``(frame, {key: Report})``."""
    st = Store(store)
    found = st.load()
    if not found and not os.path.isdir(st.dir):
        raise FileNotFoundError(f"no sweep store at {st.dir}")
    points = [{"key": k, "point": r["point"], "spec": r.get("spec")} for k, r in found.items()]
    frame = _frame(points, found, set())
    if not reports:
        return frame
    return frame, {k: Report.from_dict(r["report"], label=k) for k, r in found.items()}
