"""The per-request log of a run from Python (``record_requests=``): batches of columns from the
native module, kept as a DataFrame or streamed to a Parquet file."""

from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, Union

#: The columns, in the order of the command's ``--latency-log`` CSV.
COLUMNS = (
    "arrival_us",
    "completion_us",
    "op",
    "offset",
    "bytes",
    "response_us",
    "st_us",
    "csgc_us",
    "cogc_us",
    "lc_us",
    "cngc_us",
    "index",
)


class Log:
    """Receives batches (``dict`` of column lists) and keeps or writes them."""

    def __init__(self, target: Union[bool, str, "os.PathLike[str]"]) -> None:
        self.path: Optional[str] = None
        self.batches: List[Dict[str, Any]] = []
        self.writer = None
        if target is True:
            return
        if isinstance(target, (str, os.PathLike)):
            try:
                import pyarrow  # noqa: F401
                import pyarrow.parquet  # noqa: F401
            except ImportError as e:
                raise ImportError("streaming the request log to Parquet needs pyarrow: pip install 'ssdgc[parquet]'") from e
            self.path = os.fspath(target)
            return
        raise TypeError("record_requests must be True, False or a path to a Parquet file")

    def __call__(self, batch: Dict[str, list]) -> None:
        import numpy as np

        cols = {k: np.asarray(batch[k]) for k in COLUMNS}
        if self.path is None:
            self.batches.append(cols)
            return
        self._write(cols)

    def _write(self, cols: Dict[str, Any]) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        schema = pa.schema(
            [(k, pa.string() if k == "op" else pa.uint64() if k in ("offset", "bytes", "index") else pa.float64())
             for k in COLUMNS]
        )
        table = pa.table({k: cols[k] for k in COLUMNS}, schema=schema)
        if self.writer is None:
            self.writer = pq.ParquetWriter(self.path, schema)
        self.writer.write_table(table)

    def close(self) -> None:
        """Closes the Parquet file (a run without requests leaves one with the columns only)."""
        if self.path is not None and self.writer is None:
            import numpy as np

            self._write({k: np.asarray([], dtype=object if k == "op" else float) for k in COLUMNS})
        if self.writer is not None:
            self.writer.close()
            self.writer = None

    def frame(self):
        """The log as a DataFrame (None when it went to a Parquet file)."""
        if self.path is not None:
            return None
        import numpy as np
        import pandas as pd

        if not self.batches:
            return pd.DataFrame({k: [] for k in COLUMNS})
        data = {k: np.concatenate([b[k] for b in self.batches]) for k in COLUMNS}
        frame = pd.DataFrame(data, columns=list(COLUMNS))
        frame["op"] = pd.Categorical(frame["op"], categories=["read", "write"])
        return frame
