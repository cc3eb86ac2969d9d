"""Small helpers shared by the benchmarks (``sleuth experiment ...``): timing and order statistics.

>>> percentile([5, 1, 4, 2, 3], 0.5), percentile(range(1, 21), 0.95), percentile(range(1, 21), 1.0)
(3, 19, 20)
"""

from __future__ import annotations

import math
import resource
import time
from collections.abc import Callable, Iterable
from typing import Any, Protocol, TypeVar


class _Ordered(Protocol):
    def __lt__(self, other: Any, /) -> bool: ...


T = TypeVar("T")
Ord = TypeVar("Ord", bound=_Ordered)


def percentile(values: Iterable[Ord], q: float) -> Ord:
    """The nearest-rank ``q``-quantile (0 < q <= 1): the smallest value with at least ``q`` of the data at or
    below it."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("percentile of no values")
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def timed(fn: Callable[..., T], *args: Any, **kwargs: Any) -> tuple[T, float]:
    """The result of one call and its wall time in seconds."""
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.perf_counter() - start


def peak_memory_mb() -> float:
    """This process's peak resident memory so far, in MiB (what the experiments report beside their times)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
