"""Resource limits every game honours: one memory budget for enumerations, and the time limit of a command.

Size before work: a game estimates what it is about to enumerate or tabulate (worlds, deals, states, tree
leaves) and calls :func:`check_size` before allocating it.  The limit is one option for every game,
``--set max_worlds=N``; without it, the limit is the memory budget divided by the game's cost per item.  The
budget is :data:`DEFAULT_MEMORY_BUDGET` or the environment variable ``SLEUTH_MEMORY_BUDGET`` (bytes, or with
a suffix: ``512M``, ``8G``), and never more than the process may still use (its address-space and data limits,
its cgroup's memory limit), so that an estimate that passes cannot then die in a MemoryError.

Errors: every limit error is one of two classes (games subclass them for their own reasons):
:class:`TooLarge` — refused before the work, with the estimate (bad input for this machine: exit 2);
:class:`LimitReached` — stopped at a limit during the work, no exact answer (exit 3).

Time: :func:`time_limit` reads ``options["time-limit"]`` (seconds, a number > 0) and :func:`deadline` raises
:class:`~sleuth.backends.SolverTimeout` when it runs out, whatever the game is doing (CP-SAT calls are cut
by their own limit, see :func:`remaining`).
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

from .errors import PuzzleError, SleuthError

DEFAULT_MEMORY_BUDGET = 4 * 1024 ** 3   # bytes: well below the memory of a small machine (the whole CLI run)
MAX_WORLDS_KEY = "max_worlds"
TIME_KEY = "time-limit"
_SUFFIX = {"": 1, "k": 1024, "m": 1024 ** 2, "g": 1024 ** 3, "t": 1024 ** 4}


class LimitReached(RuntimeError):
    """A budget (time, states, memory) stopped the work before an exact answer: the CLI exits 3.

    Every "ran out" error of sleuth is one of these (the solvers' :class:`SolverTimeout`,
    the games' state budgets), so a program catches one class and the command line maps it to one status.
    """


class SolverTimeout(LimitReached):
    """The time limit ran out before the question was answered (never reported as a verdict)."""


class TooLarge(SleuthError):
    """What a game was about to enumerate is over the limit, refused before the work (exit 2): the estimate,
    the limit and how to raise it."""


class PastBudget(TooLarge):
    """The estimated work (``work`` counts) is past the budget it was allowed (``budget``), found before the
    work: the caller falls back to a cheaper answer (a sampled estimate), else the refusal reaches the user."""

    def __init__(self, work: int, budget: int) -> None:
        super().__init__(f"about {work:,} counts, more than {budget:,}")
        self.work, self.budget = work, budget


def memory_budget() -> int:
    """The memory budget in bytes: ``SLEUTH_MEMORY_BUDGET`` (else :data:`DEFAULT_MEMORY_BUDGET`), capped by
    what the process may still allocate (:func:`memory_available`)."""
    text = os.environ.get("SLEUTH_MEMORY_BUDGET", "").strip()
    value = DEFAULT_MEMORY_BUDGET
    if text:
        size = parse_size(text)
        if size is None or size <= 0:
            raise PuzzleError(f"{text!r} is not a memory size", place="SLEUTH_MEMORY_BUDGET",
                              allowed="bytes > 0, or with a suffix: 512M, 8G")
        value = size
    available = memory_available()
    return value if available is None else max(1, min(value, available))


def memory_available() -> int | None:
    """The bytes this process may still allocate, by its own limits (None: no limit found).

    The least of: the address-space limit (``RLIMIT_AS``) less the address space in use, the data limit
    (``RLIMIT_DATA``) less the data in use, and the cgroup's memory limit less the cgroup's usage (cgroup v2
    ``memory.max``, v1 ``memory.limit_in_bytes``); each plus the memory this process freed and keeps in its
    heap (:func:`.allocator.heap_free`), which it will use again before asking for more.  The cgroup's limit
    is read once per process (:func:`_cgroup_limit`), its usage and the rest on every call.
    """
    from .allocator import heap_free

    found: list[int] = []
    try:
        import resource

        limited = [(i, soft) for i, which in enumerate((resource.RLIMIT_AS, resource.RLIMIT_DATA))
                   for soft in [resource.getrlimit(which)[0]] if soft != resource.RLIM_INFINITY]
        if limited:   # what is in use, only where a limit needs it (reading it costs a file)
            with open("/proc/self/statm", encoding="ascii") as fh:
                fields = fh.read().split()
            page = os.sysconf("SC_PAGE_SIZE")
            in_use = (int(fields[0]) * page, int(fields[5]) * page)   # address space, data
            found += [soft - in_use[i] for i, soft in limited]
    except (ImportError, OSError, ValueError, IndexError):
        pass
    cgroup = _cgroup_limit()
    if cgroup is not None:
        try:
            with open(cgroup[1], encoding="ascii") as fh:
                found.append(cgroup[0] - int(fh.read().strip()))
        except (OSError, ValueError):
            pass
    return max(0, min(found) + heap_free()) if found else None


@functools.lru_cache(maxsize=1)
def _cgroup_limit() -> tuple[int, str] | None:
    """The cgroup's memory limit (cgroup v2, else v1) and the file of its usage, or None where there is no
    limit: read once per process (:func:`memory_available` runs before every large step, and reading or failing
    to open the limit's file on every call cost more than the rest of it)."""
    for limit_file, usage_file in (("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory.current"),
                                   ("/sys/fs/cgroup/memory/memory.limit_in_bytes",
                                    "/sys/fs/cgroup/memory/memory.usage_in_bytes")):
        try:
            with open(limit_file, encoding="ascii") as fh:
                limit = fh.read().strip()
        except OSError:
            continue
        return (int(limit), usage_file) if limit.isdigit() and int(limit) < 1 << 60 else None
    return None


def parse_size(text: str) -> int | None:
    """A size in bytes: ``"1000"``, ``"512M"``, ``"8G"``, ``"1.5GiB"`` (None when it is not one)."""
    t = text.strip().lower().removesuffix("b").removesuffix("i")
    try:
        return int(float(t[:-1] if t[-1:] in _SUFFIX else t) * _SUFFIX.get(t[-1:], 1))
    except ValueError:
        return None


def max_items(options: Mapping[str, Any] | None, bytes_each: float) -> int:
    """The largest count a game may enumerate: ``--set max_worlds=N``, else the budget over ``bytes_each``
    (a fraction of a byte for bit-packed worlds)."""
    value = (options or {}).get(MAX_WORLDS_KEY)
    if value is None:
        return max(1, int(memory_budget() / max(1e-9, bytes_each)))
    try:
        number = int(str(value).replace("_", ""))
    except ValueError:
        number = 0
    if number <= 0:
        raise PuzzleError(f"{value!r} is not a positive integer", place=f"--set {MAX_WORLDS_KEY}",
                          allowed="an integer > 0")
    return number


def check_size(what: str, estimate: int | float, options: Mapping[str, Any] | None, bytes_each: float,
               *, at_least: bool = False, error: type[TooLarge] | None = None) -> None:
    """Refuse before allocating: ``estimate`` items of ``what`` (about ``bytes_each`` bytes each) over the limit
    (raised as ``error``, a :class:`TooLarge` by default, so that a caller may catch its own and fall back)."""
    limit = max_items(options, bytes_each)
    if estimate > limit:
        about = "more than" if at_least else "about" if isinstance(estimate, float) else ""
        raise (error or TooLarge)(
            f"{about} {_num(estimate)} {what} to enumerate ({_bytes(estimate * bytes_each)}), more than "
            f"the limit of {_num(limit)} (memory budget {_bytes(memory_budget())}); raise it with "
            f"--set {MAX_WORLDS_KEY}=N or SLEUTH_MEMORY_BUDGET".strip())


def check_bytes(what: str, estimate: int | float, *, detail: str = "", also: str = "") -> int:
    """Refuse before allocating ``estimate`` bytes for ``what`` when that is over the memory budget.

    The message gives the estimate (and ``detail``, what it is made of), the budget and how to raise it:
    ``SLEUTH_MEMORY_BUDGET`` set to the estimate rounded up, or ``also`` (another way, e.g. a smaller input).
    Returns the bytes of the budget left over.
    """
    budget = memory_budget()
    if estimate > budget:
        need = _round_up(estimate)
        how = f"SLEUTH_MEMORY_BUDGET={need}" + (f", or {also}" if also else "")
        raise TooLarge(f"{what} needs about {_bytes(estimate)}{f' ({detail})' if detail else ''}, more than the "
                       f"memory budget of {_bytes(budget)}; raise it with {how}")
    return int(budget - estimate)


def _round_up(n: float) -> str:
    """A budget at least ``n`` bytes, written as ``SLEUTH_MEMORY_BUDGET`` accepts it (``300M``, ``3G``)."""
    for unit, size in (("M", 1024 ** 2), ("G", 1024 ** 3)):
        if n <= 1000 * size or unit == "G":
            return f"{math.ceil(n / size)}{unit}"
    return str(int(n))  # pragma: no cover


def _num(x: int | float) -> str:
    return f"{int(x):,}" if x < 1e15 else f"{x:.3g}"


def _bytes(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if n < 1024 or unit == "TB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TB"  # pragma: no cover


# -- time ----------------------------------------------------------------------------------------------

_deadline = threading.local()
RETRY = 0.05   # seconds between repeats of the main thread's interrupt until the work stops


def time_limit(options: Mapping[str, Any] | None) -> float | None:
    """``options["time-limit"]`` as seconds (a finite number > 0), or None; anything else is bad input."""
    value = (options or {}).get(TIME_KEY)
    if value is None:
        return None
    try:
        seconds = float(value) if not isinstance(value, bool) else math.nan
    except (TypeError, ValueError):
        seconds = math.nan
    if not (math.isfinite(seconds) and seconds > 0):
        raise PuzzleError(f"{value!r} is not a time limit", place="--time-limit", allowed="seconds > 0")
    return seconds


def remaining() -> float | None:
    """Seconds left before the current thread's deadline (None: no deadline); backends cap their limit by it."""
    end = getattr(_deadline, "end", None)
    return None if end is None else max(0.001, end - time.monotonic())


def expired() -> bool:
    """Whether the current thread's deadline has passed (work that swallowed the interrupt stops here)."""
    end = getattr(_deadline, "end", None)
    return end is not None and time.monotonic() >= end


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Raise :class:`SolverTimeout` in this thread once ``seconds`` have passed (None: no limit).

    In the main thread a timer signal interrupts the work; elsewhere a timer thread raises the exception
    asynchronously in this thread.  Either way it lands between Python steps, never inside a C call.  Both
    repeat every :data:`RETRY` seconds until the block is left, and raise again unless a
    :class:`SolverTimeout` is already being handled there: an interrupt swallowed where Python ignores
    exceptions (a garbage-collector callback, ``__del__``) does not lose the deadline.  None is sent once the
    block is being left: one already on its way lands before the block is left.
    """
    if seconds is None or getattr(_deadline, "end", None) is not None:
        yield
        return
    _deadline.end = time.monotonic() + seconds
    message = f"the time limit of {seconds:g} s was reached"
    main = threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer")
    stop, sending = threading.Event(), threading.Lock()
    previous: Any = None
    armed = [True]   # cleared first thing on the way out: no interrupt after that
    try:
        if main:
            def on_alarm(signum: int, frame: object) -> None:
                if armed[0] and not isinstance(sys.exc_info()[1], SolverTimeout):
                    raise SolverTimeout(message)
            previous = signal.signal(signal.SIGALRM, on_alarm)
            signal.setitimer(signal.ITIMER_REAL, seconds, RETRY)
        else:
            ident = threading.get_ident()
            exc_type = type("SolverTimeoutHere", (SolverTimeout,), {"__init__": lambda self: SolverTimeout.__init__(
                self, message)})

            def interrupt() -> None:
                wait = seconds
                while not stop.wait(wait):
                    with sending:
                        if not armed[0]:
                            return
                        if not isinstance(_handling(ident), SolverTimeout):
                            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(ident),
                                                                       ctypes.py_object(exc_type))
                    wait = RETRY
            threading.Thread(target=interrupt, name="sleuth-deadline", daemon=True).start()
        yield
    finally:
        armed[0] = False
        try:
            with sending:   # an interrupt being sent is sent (it lands here at the latest); none after
                pass
        finally:
            _deadline.end = None
            if main:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
            else:
                stop.set()


def _handling(ident: int) -> BaseException | None:
    """The exception thread ``ident`` is handling, if any."""
    current: object = sys._current_exceptions().get(ident)
    value = current[1] if isinstance(current, tuple) else current  # (type, value, traceback) before Python 3.12
    return value if isinstance(value, BaseException) else None
