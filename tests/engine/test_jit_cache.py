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
from sleuth.models.egghead.game import REACT_KERNEL
from sleuth.models.motus.game import OPTIMAL_KERNEL
import numpy as np
from sleuth.models.motus.space import WordSpace, game_space
space = CodeSpace(pegs=2, colours=4)
values = [Optimal(space, kernel=k, cap=c).value() for k in ("numba", "python") for c in (None, 3)]
hard_before = len(OPTIMAL_KERNEL.load(switch=False).hard_filter.signatures)  # the normal game: no hard mode
words = WordSpace(game_space("wordle").cell.dictionary.cell(5, "V"), 6)  # 43 answers: classes past two
hard = [Optimal(words, kernel=k, hard=True, cap=c).value() for k in ("numba", "python") for c in (None, 3)]
t = np.ones((16, 1), np.uint64)
changed = bool(REACT_KERNEL.load(switch=False).react_table(t, 4, 3, np.array([1, 0, -1], np.int64)))
print(json.dumps({"values": values, "hard": hard, "hard_before": hard_before, "changed": changed,
                  "table": t.ravel().tolist()}))
"""


@pytest.mark.slow  # two fresh processes, the first compiling both kernels (20-40 s of CPU)
@pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")
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


NOTICE_CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
from sleuth.jit import compiled_count, load_kernel
k = load_kernel("notice_kernel_mod", ("double", "twice"), True, ("double",))
print(k.twice(3), "compiled", compiled_count(), flush=True)
"""


def _child_on_terminal(args: list[str], env: dict[str, str], terminal: bool) -> tuple[str, str]:
    """Run a child with standard error on a pseudo-terminal (or a pipe); its standard output and error."""
    import pty

    if not terminal:
        run = subprocess.run(args, capture_output=True, text=True, env=env, timeout=300)
        assert run.returncode == 0, run.stderr
        return run.stdout, run.stderr
    main, child = pty.openpty()
    try:
        run = subprocess.run(args, stdout=subprocess.PIPE, stderr=child, text=True, env=env, timeout=300)
    finally:
        os.close(child)
    seen = b""
    while True:
        try:
            data = os.read(main, 4096)
        except OSError:  # the terminal's other side is closed (Linux)
            break
        if not data:
            break
        seen += data
    os.close(main)
    assert run.returncode == 0, seen
    return run.stdout, seen.decode().replace("\r\n", "\n")


@pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")
def test_a_compile_is_announced_once_on_a_terminal_and_not_when_loaded_or_piped(tmp_path: Path) -> None:
    (tmp_path / "notice_kernel_mod.py").write_text(
        "def double(x):\n    return 2 * x\n\n\ndef twice(x):\n    return double(double(x))\n")
    env = {**os.environ, "SLEUTH_CACHE": str(tmp_path / "cache")}
    env.pop("SLEUTH_NO_CACHE", None)
    args = [sys.executable, "-c", NOTICE_CHILD, str(tmp_path)]
    out, err = _child_on_terminal(args, env, terminal=True)
    assert out.split() == ["12", "compiled", "2"]
    notices = [line for line in err.splitlines() if line.strip()]
    assert len(notices) == 1 and notices[0].startswith("sleuth: compiling ") and "sleuth cache compile" in notices[0]
    out, err = _child_on_terminal(args, env, terminal=True)  # loaded from the cache: nothing compiled, no line
    assert out.split() == ["12", "compiled", "0"] and not err.strip()
    env["SLEUTH_CACHE"] = str(tmp_path / "other")
    out, err = _child_on_terminal(args, env, terminal=False)  # compiled, but standard error is a pipe
    assert out.split() == ["12", "compiled", "2"] and not err.strip()


def _compile_ahead(env: dict[str, str]) -> list[str]:
    run = subprocess.run([sys.executable, "-m", "sleuth", "cache", "compile"], capture_output=True, text=True,
                         env=env, timeout=900)
    assert run.returncode == 0 and not run.stderr, run.stderr
    return run.stdout.splitlines()


@pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")
def test_cache_compile_names_every_game_with_kernels_and_keeps_them() -> None:
    """Run twice (this session's cache, where other tests may have compiled some already): the second run finds
    every routine's kernels in the cache and compiles nothing."""
    env = {k: v for k, v in os.environ.items() if k != "SLEUTH_NO_CACHE"}
    _compile_ahead(env)
    lines = _compile_ahead(env)
    assert [line.split(":")[0] for line in lines[:-1]] == ["bulls, mastermind, motus, wordle", "clue", "egghead"]
    assert all("already compiled, loaded in" in line for line in lines[:-1]), lines
    assert lines[-1].startswith("kept in ") and lines[-1].endswith("numba")


def test_cache_compile_refuses_without_a_cache_and_explains_without_numba(tmp_path: Path) -> None:
    env = {**os.environ, "SLEUTH_NO_CACHE": "1"}
    off = subprocess.run([sys.executable, "-m", "sleuth", "cache", "compile"], capture_output=True, text=True,
                         env=env, timeout=300)
    assert off.returncode == 2 and not off.stdout
    assert off.stderr.startswith("sleuth: the compiled kernels cannot be kept: the cache is off")
    assert len(off.stderr.splitlines()) == 1
    hidden = tmp_path / "hide" / "numba"
    hidden.mkdir(parents=True)
    (hidden / "__init__.py").write_text("raise ImportError('numba is hidden for this test')\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path / "hide"), os.environ.get("PYTHONPATH", "")])}
    none = subprocess.run([sys.executable, "-m", "sleuth", "cache", "compile"], capture_output=True, text=True,
                          env=env, timeout=300)
    assert none.returncode == 0 and not none.stderr
    assert none.stdout.startswith("numba is not installed: sleuth runs its numpy passes instead")


INTERACTIVE = (  # answers that run compiled kernels (each compiles them on its first run after an install)
    ["solve", "example:clue/master-detective", "--others"],
    ["suggest", "example:clue/master-detective"],
    ["suggest", "example:clue/master-detective", "--set", "show=Bob: Scarlet, Knife, Trophy Room"],
    ["experiment", "egghead", "--rounds", "3"],
    ["experiment", "egghead", "--rounds", "3", "--players", "3", "--values", "12", "--hand-size", "2", "--ba", "1"],
)


@pytest.mark.slow  # a fresh cache: every kernel compiled (20-30 s of CPU), then the answers that use them
@pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")
def test_after_cache_compile_the_answers_compile_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "SLEUTH_CACHE": str(tmp_path / "cache")}
    env.pop("SLEUTH_NO_CACHE", None)
    lines = _compile_ahead(env)
    assert all(": compiled " in line for line in lines[:-1]), lines
    kept = sorted((tmp_path / "cache" / "numba").rglob("*"))
    wordle = tmp_path / "wordle.toml"  # 102 answers left: the exact top-3 runs the compiled optimal search
    wordle.write_text('game = "wordle"\n\n[[guess]]\nword = "CRANE"\nsecret = "MOUSE"\n')
    for args in (*INTERACTIVE, ["suggest", str(wordle), "--set", "top=3"]):
        run = subprocess.run([sys.executable, "-m", "sleuth", *args], capture_output=True, text=True, env=env,
                             timeout=600)
        assert run.returncode == 0, (args, run.stderr)
    assert sorted((tmp_path / "cache" / "numba").rglob("*")) == kept  # nothing compiled, nothing written


@pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")
def test_cache_compile_reports_a_game_whose_kernels_fail_and_goes_on(cli, monkeypatch: pytest.MonkeyPatch) -> None:
    """A routine that raises: one line on stderr naming the game and the error, the other games still done, exit
    70 (internal error), never a traceback."""
    from dataclasses import replace

    from sleuth import cli as cli_module
    from sleuth.registry import find_game

    def broken() -> None:
        raise RuntimeError("no such\nkernel")

    monkeypatch.setattr("tests.engine.test_jit_cache._broken_kernels", broken, raising=False)
    games = [replace(find_game("egghead"), name="broken", warm_kernels="tests.engine.test_jit_cache:_broken_kernels"),
             find_game("egghead")]
    monkeypatch.setattr(cli_module, "all_games", lambda: games)
    run = cli(["cache", "compile"])
    assert run.code == 70
    assert run.err.splitlines() == ["sleuth: broken: the kernels could not be compiled (RuntimeError: no such kernel): "
                                    "a bug in sleuth or a numba it does not support; please report it"]
    assert run.out.splitlines()[0].startswith("egghead: ") and run.out.splitlines()[-1].startswith("kept in ")
