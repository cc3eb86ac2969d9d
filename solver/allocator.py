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

import ctypes
import sys

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
