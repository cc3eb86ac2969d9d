"""A step budget for tests: Python function calls counted by a trace function, not seconds.

``with call_budget(n):`` raises :class:`StepBudgetExceeded` at the ``n + 1``-th Python call made inside it
(every thread started inside it counts too), so work that should be refused before it starts fails the test
the same way on a fast or a loaded machine.  ``call_budget(n, when=limits.expired)`` counts only the calls
made once a deadline has passed: the interrupt must land within ``n`` calls.

``python -m tests.steps N ARGS...`` runs ``sleuth ARGS`` under a budget of N calls and exits with
:data:`EXCEEDED` when it runs out (for subprocess tests).
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any

EXCEEDED = 97   # the exit status of `python -m tests.steps` past its budget


class StepBudgetExceeded(BaseException):
    """More Python calls than the budget (a BaseException: the code under test does not catch it)."""


@contextlib.contextmanager
def call_budget(limit: int, when: Callable[[], bool] | None = None) -> Iterator[list[int]]:
    """Count the Python calls made inside (only while ``when()`` holds, if given); past ``limit``, raise
    :class:`StepBudgetExceeded`. Yields [count]."""
    count = [0]

    def trace(frame: FrameType, event: str, arg: Any) -> None:
        if when is not None and not when():
            return
        count[0] += 1   # threads may lose an increment now and then: a bound, never an overcount
        if count[0] > limit:
            raise StepBudgetExceeded(f"more than {limit:,} Python calls")

    old, old_threads = sys.gettrace(), threading.gettrace()
    sys.settrace(trace)
    threading.settrace(trace)
    try:
        yield count
    finally:
        sys.settrace(old)
        threading.settrace(old_threads)  # type: ignore[arg-type]


def main(argv: list[str]) -> int:
    from sleuth.cli import main as sleuth

    try:
        with call_budget(int(argv[0])):
            return sleuth(argv[1:])
    except StepBudgetExceeded as exc:
        print(f"tests.steps: {exc}", file=sys.stderr)
        return EXCEEDED


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
