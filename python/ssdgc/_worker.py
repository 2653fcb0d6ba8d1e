"""A sweep's local worker process: ``python -m ssdgc._worker``.

It reads one JSON array of points a line from standard input, runs them (`sweep.run_points`)
and writes their results as one JSON array a line to standard output, until its input ends. The
local executor starts one per core; plain JSON over pipes needs neither pickling nor a fork, and
nothing of the caller's script runs again in the workers.
"""

import json
import sys


def main() -> None:
    from .sweep import run_points

    for line in sys.stdin:
        if not line.strip():
            continue
        out = run_points(json.loads(line))
        sys.stdout.write(json.dumps(out, separators=(",", ":")) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
