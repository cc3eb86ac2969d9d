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


def _huge_page_advice(array: object) -> bool:
    """Whether the mapping holding ``array``'s data is advised to use huge pages (``hg`` in /proc/self/smaps)."""
    import numpy as np

    assert isinstance(array, np.ndarray)
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


@pytest.mark.skipif(not os.path.exists("/proc/self/smaps"), reason="no /proc/self/smaps")
def test_small_pages_withholds_the_huge_page_advice_then_restores_it() -> None:
    """Inside :func:`small_pages` (as a block, or around a function, even one that raises) a large array is not
    advised to use huge pages; before and after, numpy's setting is what it was."""
    import numpy as np

    from sleuth.allocator import _hugepage_switch, small_pages

    switch = _hugepage_switch()
    if switch is None:
        pytest.skip("this numpy has no huge page setting")
    before = switch(True)
    try:
        if not _huge_page_advice(np.ones(1 << 23)):   # 64 MiB: mapped on its own (numpy advises from 4 MiB)
            pytest.skip("this system takes no huge page advice (a kernel without transparent huge pages)")
        with small_pages():
            assert not _huge_page_advice(np.ones(1 << 23))

        @small_pages()
        def fails() -> None:
            assert not _huge_page_advice(np.ones(1 << 23))
            raise ValueError("inside")

        with pytest.raises(ValueError, match="inside"):
            fails()
        assert switch(True) is True
    finally:
        switch(before)


def test_small_pages_blocks_that_overlap_leave_the_setting_as_it_was() -> None:
    """Two threads' blocks that overlap: the advice stays withheld until the last one leaves, then comes back as
    it was before the first (a block that restored the setting it found would leave it off for good)."""
    import threading

    from sleuth.allocator import _hugepage_switch, small_pages

    switch = _hugepage_switch()
    if switch is None:
        pytest.skip("this numpy has no huge page setting")
    before = switch(True)
    entered, leave = threading.Event(), threading.Event()
    seen: list[bool] = []

    def second() -> None:
        with small_pages():
            entered.set()
            leave.wait(10)

    try:
        with small_pages():
            worker = threading.Thread(target=second)
            worker.start()
            assert entered.wait(10)
        seen.append(switch(False))   # the first block left, the second is still inside
        switch(False)
        leave.set()
        worker.join(10)
        seen.append(switch(True))    # both left
        assert seen == [False, True]
    finally:
        leave.set()
        switch(before)
