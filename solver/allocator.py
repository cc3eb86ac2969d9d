"""glibc's allocator, tuned for sleuth's large numpy arrays: freed memory kept in the heap for the next array.

With glibc's defaults a large array (from 128 KiB, a bound that grows to 32 MiB as the process frees them) is
mapped on its own and unmapped when freed, so that the next array of that size is faulted in afresh, page by
page, and zeroed by the system.  A Clue pass of what the other players know makes and frees tens of such
arrays per state: measured on the slowest three-player states, 35,000-46,000 page faults and 0.10-0.16 s of
system time per answer of about 0.8 s, against 3,500-5,000 faults and 0.02-0.05 s tuned.  The command line
tunes its process as it starts (:func:`sleuth.cli.main`), and so do sleuth's worker processes (local and on
a Dask cluster); a program that imports sleuth can call :func:`tune_allocator` itself.  The cost: up to
:data:`TRIM_THRESHOLD` bytes freed at the top of the heap stay with the process.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import importlib
import sys
import threading
from collections.abc import Callable, Iterator

TRIM_THRESHOLD = 1 << 30  # bytes of free memory at the top of the heap before glibc returns it to the system
MMAP_THRESHOLD = 1 << 25  # allocations from this size up are mapped on their own (32 MiB)
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3  # glibc's <malloc.h>


def tune_allocator(trim: int = TRIM_THRESHOLD, mmap: int = MMAP_THRESHOLD) -> bool:
    """Set glibc's trim and mmap thresholds in this process (``mallopt``); False, doing nothing, where the
    allocator is not glibc's (macOS, Windows, musl)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 - only glibc has it
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes, mallopt.restype = [ctypes.c_int, ctypes.c_int], ctypes.c_int
    return bool(mallopt(_M_TRIM_THRESHOLD, trim) == 1 and mallopt(_M_MMAP_THRESHOLD, mmap) == 1)


@contextlib.contextmanager
def small_pages() -> Iterator[None]:
    """Within the block (or the function it decorates), numpy does not advise the system to back its large arrays
    (from 4 MiB) by huge pages (2 MiB).  Where the system honours that advice only (Linux's transparent huge pages
    set to ``madvise``, a common default), the first touch of such an array may wait while the system compacts
    memory into free huge pages: measured on Clue's slowest three-player states, whose passes make and free arrays
    of 30-130 MB, the largest single timing of an answer fell from 831 to 626 ms (envelope beliefs) and 580 to
    395 ms (advice).  Arrays that live long and are read many times (Egghead's tables) keep the advice.  numpy's
    setting is one for the process: it is off while any thread is in such a block, and back as it was when the
    last one leaves.  Does nothing where numpy has no such setting."""
    switch = _hugepage_switch()
    if switch is None:
        yield
        return
    with _Pages.lock:
        if _Pages.inside == 0:
            _Pages.before = switch(False)
        _Pages.inside += 1
    try:
        yield
    finally:
        with _Pages.lock:
            _Pages.inside -= 1
            if _Pages.inside == 0:
                switch(_Pages.before)


class _Pages:
    """The blocks of :func:`small_pages` running (in any thread), and numpy's setting before the first."""

    lock = threading.Lock()
    inside = 0
    before = True


@functools.lru_cache(maxsize=1)
def _hugepage_switch() -> Callable[[bool], bool] | None:
    """numpy's ``_set_madvise_hugepage`` (it returns the setting it replaced), or None."""
    for name in ("numpy._core.multiarray", "numpy.core.multiarray"):   # numpy 2, numpy 1
        try:
            module = importlib.import_module(name)
        except ImportError:
            continue
        switch = getattr(module, "_set_madvise_hugepage", None)
        if switch is not None:
            return switch  # type: ignore[no-any-return]
    return None


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks",
                                                    "fsmblks", "uordblks", "fordblks", "keepcost")]


def heap_free() -> int:
    """Bytes freed by this process and kept in glibc's heap for its next allocations (``mallinfo2``: the free
    chunks of every arena); 0 where glibc is not the allocator or too old to say.  :func:`.limits.memory_available`
    counts them as available: the memory the tuned allocator keeps is this process's to use again."""
    if not sys.platform.startswith("linux"):
        return 0
    try:
        mallinfo2 = ctypes.CDLL(None).mallinfo2
    except (OSError, AttributeError):
        return 0
    mallinfo2.argtypes, mallinfo2.restype = [], _MallInfo2
    return int(mallinfo2().fordblks)
