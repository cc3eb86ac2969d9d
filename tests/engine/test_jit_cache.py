"""The compiled-kernel cache (sleuth.jit): used only in a private folder, and a kernel loaded from it in a fresh
process gives the answers of the plain-Python kernel (numba crashes loading a cached recursive function: the
kernels must stay free of recursion)."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from sleuth.jit import kernel_cache_dir

HAS_NUMBA = importlib.util.find_spec("numba") is not None


def test_cache_folder_only_when_private(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SLEUTH_NO_CACHE", raising=False)
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    monkeypatch.setenv("SLEUTH_CACHE", str(mine))
    assert kernel_cache_dir() == mine / "numba"
    assert (mine / "numba").stat().st_mode & 0o077 == 0
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("SLEUTH_CACHE", str(shared))
    assert kernel_cache_dir() is None  # others could swap the folder
    (mine / "numba").chmod(0o777)
    monkeypatch.setenv("SLEUTH_CACHE", str(mine))
    assert kernel_cache_dir() is None
    monkeypatch.setenv("SLEUTH_NO_CACHE", "1")
    assert kernel_cache_dir() is None


CHILD = r"""
import json
from sleuth.models.motus.optimal import Optimal
from sleuth.models.motus.space import CodeSpace
from sleuth.models.egghead import tables as tb
import numpy as np
from sleuth.models.motus.optimal import kernel_module
from sleuth.models.motus.space import WordSpace, game_space
space = CodeSpace(pegs=2, colours=4)
values = [Optimal(space, kernel=k, cap=c).value() for k in ("numba", "python") for c in (None, 3)]
hard_before = len(kernel_module(True).hard_filter.signatures)  # the normal game compiles no hard-mode code
words = WordSpace(game_space("wordle").cell.dictionary.cell(5, "V"), 6)  # 43 answers: classes past two
hard = [Optimal(words, kernel=k, hard=True, cap=c).value() for k in ("numba", "python") for c in (None, 3)]
t = np.ones((16, 1), np.uint64)
changed = bool(tb.react_kernel().react_table(t, 4, 3, np.array([1, 0, -1], np.int64)))
print(json.dumps({"values": values, "hard": hard, "hard_before": hard_before, "changed": changed,
                  "table": t.ravel().tolist()}))
"""


@pytest.mark.slow  # two fresh processes, the first compiling both kernels (20-40 s of CPU)
@pytest.mark.skipif(not HAS_NUMBA, reason="no numba")
def test_a_second_process_loads_the_cached_kernels(tmp_path: Path) -> None:
    env = {**os.environ, "SLEUTH_CACHE": os.environ.get("SLEUTH_CACHE", str(tmp_path))}
    env.pop("SLEUTH_NO_CACHE", None)
    runs = [subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, env=env, timeout=900)
            for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), [r.stderr[-2000:] for r in runs]
    first, second = (json.loads(r.stdout.strip().splitlines()[-1]) for r in runs)
    assert first == second
    assert first["values"][:2] == first["values"][2:]  # compiled = plain Python
    assert first["hard"][:2] == first["hard"][2:]  # hard mode's own compiled (and cached) version too
    assert first["hard_before"] == 0
    assert any((Path(env["SLEUTH_CACHE"]) / "numba").rglob("*.nbi"))


def test_the_kernels_lock_is_skipped_once_a_process_loaded_them(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                 ) -> None:
    """``compile_lock`` with ``sources``: the first process holds the lock (it may compile) and then marks the
    cache ready for those sources; later ones load without waiting for each other, until a source changes."""
    import fcntl

    from sleuth import jit

    if not HAS_NUMBA:
        pytest.skip("the marker names numba's version: numba is not installed")
    monkeypatch.setenv("SLEUTH_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("SLEUTH_NO_CACHE", raising=False)
    kernel = tmp_path / "fake_kernel_mod.py"
    kernel.write_text("def f(x):\n    return x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    locked: list[int] = []
    flock = fcntl.flock
    monkeypatch.setattr(fcntl, "flock", lambda fd, op: (locked.append(op), flock(fd, op))[1])

    def run() -> int:
        locked.clear()
        with jit.compile_lock("fake", sources=("fake_kernel_mod",)):
            pass
        return locked.count(fcntl.LOCK_EX)

    assert run() == 1  # first: under the lock, which marks the cache ready
    assert (tmp_path / "cache" / "numba" / "fake.ready").exists()
    assert run() == 0  # marked: no lock
    with jit.compile_lock("fake"):  # without sources: always the lock
        pass
    assert locked.count(fcntl.LOCK_EX) == 1
    kernel.write_text("def f(x):\n    return x + 1\n")  # the kernel changed: the lock again, then marked
    os.utime(kernel, ns=(1, 1))
    assert run() == 1 and run() == 0
    with pytest.raises(RuntimeError), jit.compile_lock("other", sources=("fake_kernel_mod",)):
        raise RuntimeError("a failed load")
    assert not (tmp_path / "cache" / "numba" / "other.ready").exists()  # not marked: the next one locks
