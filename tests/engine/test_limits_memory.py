"""The memory budget never exceeds what the process may use, so an estimate that passes cannot then die in a
MemoryError: a process with a small address-space limit gets a budget under that limit whatever
SLEUTH_MEMORY_BUDGET says, and work over it is refused in one line before it starts."""

from __future__ import annotations

import os
import resource
import subprocess
import sys

import pytest

LIMIT = 3 * 1024 ** 3  # address space: ortools and numpy map about 1 GB of it at import


def _limited(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (LIMIT, LIMIT))

    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, preexec_fn=cap,
                          env={**os.environ, **env}, timeout=600)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc and setrlimit (Linux)")
def test_budget_is_capped_by_the_address_space_limit():
    res = _limited("from sleuth.limits import memory_budget, memory_available\n"
                   "print(memory_budget(), memory_available())", SLEUTH_MEMORY_BUDGET="100G")
    assert res.returncode == 0, res.stderr
    budget, available = map(int, res.stdout.split())
    # the two calls see the heap's free memory (counted as available) a few allocations apart
    assert 0 < available < LIMIT and abs(budget - available) < 2 ** 20


def test_budget_is_the_setting_when_the_process_has_room():
    res = subprocess.run([sys.executable, "-c", "from sleuth.limits import memory_budget; print(memory_budget())"],
                         capture_output=True, text=True, env={**os.environ, "SLEUTH_MEMORY_BUDGET": "64M"})
    assert res.returncode == 0 and int(res.stdout) == 64 * 1024 ** 2


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="setrlimit (Linux)")
def test_an_estimate_over_what_the_process_may_use_is_refused_before_work():
    """Under SLEUTH_MEMORY_BUDGET=100G but over what the 3 GB address space has left once the solvers are imported:
    refused as TooLarge (exit status 2 on the command line) naming the budget it was held to; just under it, not."""
    res = _limited("import ortools.sat.python.cp_model, numpy\n"
                   "from sleuth.limits import TooLarge, check_bytes, memory_available\n"
                   "room = memory_available()\n"
                   "for need in (room + 2 ** 24, room // 2):\n"
                   "    try:\n        check_bytes('a table', need)\n        print('accepted')\n"
                   "    except TooLarge as exc:\n        print('refused:', exc)\n", SLEUTH_MEMORY_BUDGET="100G")
    assert res.returncode == 0, res.stderr
    over, under = res.stdout.splitlines()
    assert over.startswith("refused: a table needs about") and "SLEUTH_MEMORY_BUDGET" in over, over
    assert under == "accepted"
