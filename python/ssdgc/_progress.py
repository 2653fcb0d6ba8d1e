"""Progress bars (tqdm) for runs that take long, as the ssdgc command shows them on a terminal."""

from __future__ import annotations

import time
from typing import Callable, List, Optional, Sequence, Union

#: Seconds a run goes on before its bar appears (the command's delay too).
DELAY_S = 1.0

ProgressArg = Union[bool, None, Callable[..., None]]


class Bars:
    """One tqdm bar per simulation, shown once the simulations have run for `DELAY_S` seconds.

    Called by the native module from the caller's thread every 100 ms with
    ``(index, preconditioning, completed, expected, simulated_s)``.
    """

    def __init__(self, labels: Sequence[str]) -> None:
        self.labels = list(labels)
        self.started = time.monotonic()
        self.bars: List[Optional[object]] = [None] * len(labels)
        self.phase: List[Optional[bool]] = [None] * len(labels)

    def __call__(self, i: int, pre: bool, completed: int, expected: Optional[int], now_s: float) -> None:
        if time.monotonic() - self.started < DELAY_S:
            return
        from tqdm.auto import tqdm

        bar = self.bars[i]
        if bar is None or self.phase[i] != pre:
            if bar is not None:
                bar.close()
            bar = tqdm(
                total=expected,
                desc=f"{self.labels[i]}: {'preconditioning' if pre else 'run'}",
                unit=" page writes" if pre else " requests",
                position=i,
                leave=False,
                dynamic_ncols=True,
            )
            self.bars[i] = bar
            self.phase[i] = pre
        if expected is not None and bar.total != expected:
            bar.total = expected
        bar.n = completed
        if not pre:
            bar.set_postfix_str(f"{now_s:.2f} s simulated", refresh=False)
        bar.refresh()

    def close(self) -> None:
        for b in self.bars:
            if b is not None:
                b.close()
        self.bars = [None] * len(self.labels)


def callback(progress: ProgressArg, labels: Sequence[str]):
    """The native callback for a `progress=` argument: True (bars), False/None, or a callable.

    A callable is called as ``progress(index, preconditioning, completed, expected, simulated_s)``.
    """
    if progress is True:
        return Bars(labels)
    if progress is False or progress is None:
        return None
    if callable(progress):
        return progress
    raise TypeError("progress must be True, False or a callable")
