"""glibc's allocator tuned by the command line (:mod:`sleuth.allocator`): a large array freed and made again
comes from the heap, not from fresh pages the system must fault in."""

from __future__ import annotations

import os
import platform
import subprocess
import sys

import pytest

GLIBC = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"

# rounds of 40 arrays of 512 KiB made, written and all freed (as a pass's layer is); the page faults of the
# second and third rounds
FAULTS = """
import resource, sys
import numpy as np
if sys.argv[1] == "cli":
    from sleuth.cli import main
    main(["games"])
def faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt
def cycle():
    arrays = [np.ones(1 << 16) for _ in range(40)]
    del arrays
a = np.ones(1 << 17); del a
cycle()
before = faults()
cycle(); cycle()
print(faults() - before, file=sys.stderr)
"""


def _run(script: str, *args: str) -> subprocess.CompletedProcess[str]:
    """``script`` in a fresh Python, glibc's settings from the environment (``MALLOC_*``) left out."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MALLOC_")}
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=True, env=env)


def _faults(mode: str) -> int:
    return int(_run(FAULTS, mode).stderr.split()[-1])


@pytest.mark.skipif(not GLIBC, reason="the thresholds are glibc's")
def test_the_command_line_keeps_freed_arrays_in_the_heap() -> None:
    """Untouched, glibc returns the freed arrays to the system and faults their 5,120 pages in again each round;
    in a process where the command line ran, they come back from the heap with almost no faults."""
    pages = 40 * (1 << 19) // 4096
    assert _faults("plain") >= pages
    assert _faults("cli") < pages // 8


KEPT = """
import resource
import numpy as np
from sleuth.allocator import tune_allocator
from sleuth.limits import memory_available
tune_allocator()
resource.setrlimit(resource.RLIMIT_DATA, (8 << 30, resource.RLIM_INFINITY))
before = memory_available()
arrays = [np.ones(1 << 17) for _ in range(200)]
during = memory_available()
del arrays
print(before, during, memory_available())
"""


@pytest.mark.skipif(not GLIBC, reason="the thresholds are glibc's")
def test_memory_kept_in_the_heap_is_still_available() -> None:
    """Under a data limit, 200 MiB of arrays made and freed leave the memory budget as it was: the tuned heap
    keeps them, and the budget counts what it keeps as this process's to use again (else every large answer
    would shrink the budget of the next one in a long-lived process such as ``sleuth serve``)."""
    import resource

    if resource.getrlimit(resource.RLIMIT_DATA)[1] != resource.RLIM_INFINITY:
        pytest.skip("the data limit's hard bound is set here")
    before, during, after = map(int, _run(KEPT).stdout.split())
    mib = 1 << 20
    assert during < before - 150 * mib
    assert abs(after - before) < 20 * mib


# numpy's huge-page advice inside and outside small_pages, in a fresh process (in the test session another
# thread may be inside a block, and the heap may hold memory an earlier array had advised): per check, 1 or 0
PAGES = """
import threading
import numpy as np
from sleuth.allocator import _hugepage_switch, small_pages

def advised(array):
    at = array.ctypes.data + array.nbytes // 2   # numpy advises the 2 MiB-aligned part of the array
    inside = False
    with open("/proc/self/smaps") as smaps:
        for line in smaps:
            head = line.split()[0]
            if "-" in head and all(c in "0123456789abcdef-" for c in head):
                lo, hi = (int(x, 16) for x in head.split("-"))
                inside = lo <= at < hi
            elif inside and line.startswith("VmFlags:"):
                return "hg" in line.split()[1:]
    raise AssertionError("the array's mapping is not listed")

switch = _hugepage_switch()
if switch is None:
    print("no setting")
    raise SystemExit
big = 1 << 23   # 64 MiB: mapped on its own (numpy advises from 4 MiB)
seen = [advised(np.ones(big))]
with small_pages():
    seen.append(advised(np.ones(big)))

@small_pages()
def fails():
    seen.append(advised(np.ones(big)))
    raise ValueError("inside")

try:
    fails()
except ValueError:
    pass
seen.append(advised(np.ones(big)))
# two threads' blocks that overlap: withheld until the last one leaves, then as it was before the first
entered, leave = threading.Event(), threading.Event()
def second():
    with small_pages():
        entered.set()
        leave.wait(10)
with small_pages():
    worker = threading.Thread(target=second)
    worker.start()
    entered.wait(10)
seen.append(advised(np.ones(big)))
leave.set()
worker.join(10)
seen.append(advised(np.ones(big)))
print(" ".join(str(int(x)) for x in seen))
"""


@pytest.mark.skipif(not os.path.exists("/proc/self/smaps"), reason="no /proc/self/smaps")
def test_small_pages_withholds_the_huge_page_advice_then_restores_it() -> None:
    """Inside :func:`small_pages` (as a block, or around a function, even one that raises) a large array is not
    advised to use huge pages; after it, numpy's setting is what it was.  Two threads' blocks that overlap keep
    it withheld until the last one leaves, then restore it (a block that restored the setting it found would
    leave it off for good)."""
    out = _run(PAGES).stdout.split()
    if out == ["no", "setting"]:
        pytest.skip("this numpy has no huge page setting")
    if out[0] == "0":
        pytest.skip("this system takes no huge page advice (a kernel without transparent huge pages)")
    assert out == ["1", "0", "0", "1", "0", "1"]
