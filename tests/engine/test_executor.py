"""The experiments' executor: serial and Dask runs agree, seeds per task, resume files, progress, bad options,
and a worker killed mid-run."""

from __future__ import annotations

import argparse
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from sleuth.errors import PuzzleError
from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, int_list, ints, task_seed
from sleuth.models.egghead.experiment import simulate_batch

from tests.conftest import run_cli
from tests.helpers.cluster import loopback_cluster


def _batches(n: int, rounds: int = 25) -> list[tuple]:
    """Small Egghead games (3 players, values 1-3, 2 cards), each seeded from (7, index)."""
    from sleuth.models.egghead.questions import load_catalogue

    ids = tuple(q.qid for q in load_catalogue(3))
    return [(3, 3, 2, ids, (True, False, False), rounds, task_seed(7, i), "external") for i in range(n)]


def _solves(parts: list) -> list:
    return [solves for solves, _times in parts]


def test_task_seeds_are_fixed_distinct_and_non_negative() -> None:
    seeds = [task_seed(s, i) for s in (0, 1, -1) for i in range(50)]
    assert len(set(seeds)) == len(seeds) and all(0 <= x < 2**63 for x in seeds)
    assert task_seed(3, 4, 5) == task_seed(3, 4, 5) != task_seed(3, 5, 4)


def test_serial_map_keeps_task_order_and_counts(capsys) -> None:  # type: ignore[no-untyped-def]
    jobs = _batches(4)
    with Executor() as ex:
        parts = ex.map_tasks(simulate_batch, jobs)
        assert not ex.distributed and ex.client is None
    assert _solves(parts) == [simulate_batch(j)[0] for j in jobs]
    assert ex.stats.tasks == 4 and ex.stats.task_cpu > 0
    assert capsys.readouterr().err == ""  # stderr is not a terminal: no progress


def test_resume_skips_done_tasks_and_drops_a_cut_record(tmp_path) -> None:  # type: ignore[no-untyped-def]
    jobs = _batches(5)
    path = str(tmp_path / "results.jsonl")
    with Executor(resume=path, name="t") as ex:
        first = ex.map_tasks(simulate_batch, jobs[:3] + jobs[3:])
    size = os.path.getsize(path)
    with open(path, "ab") as f:  # an interrupted write: half a record at the end
        f.write(b'{"i":9,"r":[[1,')
    with Executor(resume=path, name="t") as ex:
        again = ex.map_tasks(simulate_batch, jobs)
    assert ex.stats.tasks == 0 and ex.stats.resumed == 5 and _solves(again) == _solves(first)
    assert os.path.getsize(path) == size
    with pytest.raises(PuzzleError, match="another experiment or with other options"), \
            Executor(resume=path, name="t") as ex:
        ex.map_tasks(simulate_batch, jobs[:2])
    (tmp_path / "junk").write_text("not a results file\n")
    with pytest.raises(PuzzleError, match="not a sleuth results file"), \
            Executor(resume=str(tmp_path / "junk"), name="t") as ex:
        ex.map_tasks(simulate_batch, jobs)


def test_resume_of_a_partial_run(tmp_path) -> None:  # type: ignore[no-untyped-def]
    jobs = _batches(4)
    path = str(tmp_path / "r.jsonl")
    with Executor(resume=path, name="t") as ex:
        for i, _ in ex.completed(simulate_batch, jobs):
            if i == 1:
                break  # stopped after two tasks
    with Executor(resume=path, name="t") as ex:
        parts = ex.map_tasks(simulate_batch, jobs)
    assert ex.stats.resumed == 2 and ex.stats.tasks == 2
    assert _solves(parts) == [simulate_batch(j)[0] for j in jobs]


def test_comma_separated_integers_are_read_by_one_parser() -> None:
    """:func:`sleuth.executor.ints` (behind ``int_list`` and the experiments' own lists): items stripped, empty
    ones dropped, ``a-b`` spans where asked for; bad input one line naming the option and what is allowed."""
    assert ints(" 3, 3,,4 ", 1, 9, "--deck") == [3, 3, 4]
    assert ints("7, 5-6,6", 2, 30, "--lengths", spans=True) == [5, 6, 7]
    for text, spans, said in (("5-6", False, "'5-6' is not a list of integers"), ("", False, "'' lists no integer"),
                              ("2,10", True, "10 is out of range"), ("x-3", True, "'x-3' is not a list of integers")):
        with pytest.raises(PuzzleError) as info:
            ints(text, 1, 9, "--n", spans=spans)
        assert str(info.value) == f"--n: {said} (allowed: integers from 1 to 9, comma separated" + \
            (" (a-b: a to b))" if spans else ")")


def test_option_types_refuse_with_the_range() -> None:
    p = ExperimentParser(prog="sleuth experiment x")
    p.add_argument("--n", type=bounded(int, 1, 10))
    p.add_argument("--t", type=bounded(float, 0, above=True))
    p.add_argument("--l", type=int_list(2, 5))
    add_run_options(p)
    assert p.parse_args(["--n", "3", "--t", "0.5", "--l", "2,5"]).l == [2, 5]
    for argv, text in ((["--n", "0"], "from 1 to 10"), (["--n", "x"], "not an integer"),
                       (["--t", "0"], "above 0"), (["--t", "nan"], "above 0"), (["--l", "1,3"], "2 to 5"),
                       (["--workers", "0"], "from 1 to 256"), (["--bogus"], "unrecognized")):
        with pytest.raises(PuzzleError) as info:
            p.parse_args(argv)
        assert text in str(info.value) and "experiment x" in str(info.value) and "\n" not in str(info.value)


# -- every experiment option validated at the parser: exit 2, one line, no traceback ----------------------

@pytest.mark.parametrize("argv, where", [
    (["mascarade", "--events", "-1"], "--events"),
    (["mascarade", "--players", "40"], "--players"),
    (["mascarade", "--games", "0"], "--games"),
    (["cardguess", "--benchmark", "--timeout", "-1"], "--timeout"),
    (["cardguess", "--benchmark", "--repeats", "0"], "--repeats"),
    (["cardguess", "--benchmark", "--memory-limit", "-1"], "--memory-limit"),
    (["wordle", "--repeat", "0"], "--repeat"),
    (["epistemic", "--bounds", "x"], "--bounds"),
    (["epistemic", "--runs", "0"], "--runs"),
    (["egghead", "--rounds", "0"], "--rounds"),
    (["egghead", "--players", "x"], "--players"),
    (["clue", "--games", "-3"], "--games"),
    (["clue", "--players", "3,9"], "--players"),
    (["motus", "--time-limit", "-5"], "--time-limit"),
    (["emi", "--jobs", "0"], "--workers/--jobs"),
    (["emi", "--workers", "many"], "--workers/--jobs"),
    (["motus", "--plot", "figure.jpg"], "--plot"),
    (["clue", "--plot", "/no/such/folder/x.png"], "--plot"),
    (["motus", "--lengths", "5-x"], "--lengths: '5-x' is not a list of integers"),
    (["emi", "--lengths", "5,31"], "--lengths: 31 is out of range (allowed: 2 to 30"),
    (["emi", "--letters", "A-"], "--letters"),
    (["emi", "--letters", ","], "--letters"),
    (["cardguess", "--deck", "3,x"], "--deck: '3,x' is not a list of integers"),
    (["cardguess", "--deck", "3,0"], "--deck: 0 is out of range"),
    (["egghead", "--ba", "1,9"], "--ba: 9 is out of range (allowed: numbers from 0 to 4"),
])
def test_bad_experiment_options_exit_2_in_one_line(argv, where) -> None:  # type: ignore[no-untyped-def]
    r = run_cli(["experiment", *argv])
    assert r.code == 2, r.err
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert where in r.err and "allowed" in r.err


def test_missing_dask_is_a_clear_error(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import builtins

    real = builtins.__import__

    def no_dask(name, *a, **k):  # type: ignore[no-untyped-def]
        if name.split(".")[0] in ("distributed", "dask"):
            raise ImportError(name)
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    r = run_cli(["experiment", "cardguess", "--deck", "2,2", "--strategy", "greedy", "--cluster", "tcp://127.0.0.1:9"])
    assert r.code == 2 and "sleuth[cluster]" in r.err and len(r.err.strip().splitlines()) == 1
    for more in ([], ["--workers", "2"]):  # serial and local workers: no Dask needed
        r = run_cli(["experiment", "cardguess", "--deck", "2,2", "--strategy", "greedy", *more])
        assert r.code == 0 and "greedy" in r.out, r.err


# -- Dask: a cluster this test starts on the loopback address, and the executor's own local cluster ---------

address = loopback_cluster()


def test_cluster_results_equal_serial(address) -> None:  # type: ignore[no-untyped-def]
    jobs = _batches(6)
    with Executor() as ex:
        serial = ex.map_tasks(simulate_batch, jobs)
    with Executor(cluster=address) as ex:
        assert ex.distributed and ex.stats.workers == 2
        remote = ex.map_tasks(simulate_batch, jobs)
    assert _solves(remote) == _solves(serial)


def test_unreachable_cluster_is_bad_input(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("distributed")
    monkeypatch.setattr(Executor, "connect_timeout", 1.0)
    r = run_cli(["experiment", "cardguess", "--deck", "2,2", "--strategy", "greedy", "--cluster",
                 "tcp://127.0.0.1:9"])
    assert r.code == 2 and "--cluster" in r.err and len(r.err.strip().splitlines()) == 1


def test_a_killed_worker_loses_only_its_tasks() -> None:
    """2 local workers; one is killed (SIGKILL) while it runs a task, after the first result: the study completes,
    its results equal the serial run, and a fresh process took the dead one's place."""
    jobs = _batches(8, rounds=80)
    serial = [simulate_batch(j)[0] for j in jobs]
    got: dict[int, list] = {}
    with Executor(workers=2) as ex:
        pids = ex.on_workers(os.getpid)
        killed = False
        for i, (solves, _times) in ex.completed(simulate_batch, jobs):
            got[i] = solves
            if not killed:
                os.kill(pids["local-0"], signal.SIGKILL)
                killed = True
        after = ex.on_workers(os.getpid)
    assert killed and [got[i] for i in range(len(jobs))] == serial
    assert after["local-0"] != pids["local-0"] and after["local-1"] == pids["local-1"]
    assert ex.stats.tasks == len(jobs)


def _allocator_tuned() -> bool | None:
    from sleuth import executor

    return executor.worker_allocator_tuned


def test_local_workers_keep_freed_memory_in_the_heap() -> None:
    """Each local worker sets glibc's thresholds as it starts (True where glibc is the allocator, as in this
    process, whether or not this process set them)."""
    import platform
    import sys

    with Executor(workers=2) as ex:
        tuned = ex.on_workers(_allocator_tuned)
    glibc = sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc"
    assert set(tuned) == {"local-0", "local-1"} and set(tuned.values()) == {glibc}


def test_forked_workers_inherit_frozen_objects_and_the_client_does_not_keep_them_frozen() -> None:
    """Local workers are forked with this process's objects frozen (gc.freeze: their collections leave those
    pages alone); here the freeze is lifted again as soon as each fork is done."""
    import gc
    import sys

    before = gc.get_freeze_count()
    with Executor(workers=2) as ex:
        frozen = ex.on_workers(gc.get_freeze_count)
    assert gc.get_freeze_count() == before
    if sys.platform == "linux":  # forked there (spawned elsewhere: nothing inherited)
        assert set(frozen) == {"local-0", "local-1"} and min(frozen.values()) > before + 1000


def _die(x: int) -> int:
    if x == 2:
        os.kill(os.getpid(), signal.SIGKILL)
    return x


def test_a_task_that_kills_its_workers_is_one_line() -> None:
    """A task whose worker dies each time it runs is run twice (a fresh worker each time), then the run stops with
    one line naming the task."""
    from sleuth.errors import SleuthError

    got: list[int] = []
    with pytest.raises(SleuthError) as info, Executor(workers=2, name="t") as ex:
        for _, x in ex.completed(_die, [0, 1, 2, 3], costs=[1, 1, 9, 1]):
            got.append(x)
    assert str(info.value) == "t: task 2 killed every worker that ran it (out of memory?)"
    assert set(got) <= {0, 1, 3} and ex._pool is None  # closed: no worker left behind


def _gated(task: tuple[float, str]) -> tuple[float, int]:
    """A task of cost ``x`` that writes ``x pid`` to ``folder/started`` (one line per start, in start order),
    then waits until the test writes ``folder/go-x``: the test, not the clock, decides when it ends."""
    import time
    from pathlib import Path

    x, folder = task
    with open(Path(folder) / "started", "a", encoding="utf-8") as log:
        log.write(f"{x} {os.getpid()}\n")
    while not (Path(folder) / f"go-{x}").exists():
        time.sleep(0.005)
    return x, os.getpid()


LENGTHS = [0.2, 0.6, 0.3, 0.4]  # the tasks' costs: the longest is not the first task
WAIT = 120.0   # seconds a step may take before the test fails (never reached when the order is right)


def _started(folder: Path, count: int) -> list[tuple[float, int]]:
    """The first ``count`` starts (cost, pid), once that many tasks have started; fails after :data:`WAIT` s."""
    import time

    end = time.monotonic() + WAIT
    while True:
        log = folder / "started"
        lines = log.read_text(encoding="utf-8").splitlines() if log.exists() else []
        if len(lines) >= count:
            return [(float(x), int(pid)) for x, pid in (line.split() for line in lines[:count])]
        if time.monotonic() > end:
            raise AssertionError(f"only {len(lines)} of {count} tasks started in {WAIT:g} s: {lines}")
        time.sleep(0.005)


def _conduct(folder: Path, seen: list[list[tuple[float, int]]]) -> None:
    """Let the tasks end in a fixed order: once two have started, the 0.4 one ends; once a third started, the
    rest end.  ``seen``: the starts observed at each step (whatever happens, every task is let go at the end)."""
    try:
        seen.append(_started(folder, 2))
        (folder / "go-0.4").touch()
        seen.append(_started(folder, 3))
    finally:
        for x in LENGTHS:
            (folder / f"go-{x}").touch()


def _assert_longest_first(ex: Executor, folder: Path) -> None:
    """Tasks of costs :data:`LENGTHS` on 2 single-threaded workers: the two costliest start first, one per
    worker; when one of them ends, the third costliest starts on that worker (two tasks queued per worker up
    front would put it behind the costliest); the cheapest starts last."""
    import threading

    seen: list[list[tuple[float, int]]] = []
    conductor = threading.Thread(target=_conduct, args=(folder, seen))
    conductor.start()
    try:
        out = ex.map_tasks(_gated, [(x, str(folder)) for x in LENGTHS], costs=LENGTHS)
    finally:
        conductor.join()
    assert len(seen) == 2, seen
    (a, pid_a), (b, pid_b) = seen[0]
    assert {a, b} == {0.6, 0.4} and pid_a != pid_b
    assert seen[1][2] == (0.3, dict(seen[0])[0.4])   # on the worker that was freed
    assert [x for x, _ in out] == LENGTHS   # in task order
    assert [x for x, _ in _started(folder, 4)][3] == 0.2


def test_local_workers_take_the_longest_task_first_one_at_a_time(tmp_path: Path) -> None:
    with Executor(workers=2) as ex:
        _assert_longest_first(ex, tmp_path)


def test_a_cluster_takes_the_longest_task_first_one_at_a_time(address, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """On Dask too, though its scheduler would queue two tasks on each single-threaded worker up front."""
    with Executor(cluster=address) as ex:
        _assert_longest_first(ex, tmp_path)


def test_parser_help_is_not_an_error(capsys) -> None:  # type: ignore[no-untyped-def]
    p = ExperimentParser(prog="sleuth experiment x")
    add_run_options(p)
    with pytest.raises(SystemExit) as info:
        p.parse_args(["--help"])
    assert info.value.code == 0 and "--workers" in capsys.readouterr().out
    assert isinstance(p, argparse.ArgumentParser)


WARM_GATE: Any = None  # the tests' threading.Event, read by _gated_warm through this module (pickled by name)
WARM_ORDER: list[str] = []


def _gated_warm() -> None:
    WARM_GATE.wait()
    WARM_ORDER.append("warm")


def _task(x: int) -> int:
    WARM_ORDER.append("task")
    return x


def test_a_task_waits_for_the_workers_warm_up() -> None:
    """On a worker, the warm-up of :class:`sleuth.cluster.WorkerWarm` runs in a background thread; a task that
    arrives meanwhile waits for it instead of building the same things at the same time."""
    pytest.importorskip("distributed")
    import threading

    import cloudpickle

    from sleuth import cluster, executor

    global WARM_GATE
    WARM_GATE = threading.Event()
    WARM_ORDER.clear()
    cluster.start_warm(cloudpickle.dumps(_gated_warm))
    results: list[Any] = []
    task = threading.Thread(target=lambda: results.extend(executor._timed_calls(_task, [7])))
    task.start()
    task.join(0.5)
    blocked = task.is_alive()  # waits for the gate however slow the machine (nothing else opens it)
    WARM_GATE.set()
    task.join()
    assert blocked and WARM_ORDER == ["warm", "task"] and results[0][0] == 7
    WARM_ORDER.clear()
    assert executor._timed_calls(_task, [8])[0][0] == 8 and WARM_ORDER == ["task"]  # done: no wait


def test_a_failing_warm_up_leaves_the_task_to_report() -> None:
    """A warm-up that raises ends quietly (best effort: no uncaught exception in its thread); the task then
    runs as usual."""
    pytest.importorskip("distributed")
    import threading

    import cloudpickle

    from sleuth import cluster, executor

    uncaught: list[object] = []
    hook, threading.excepthook = threading.excepthook, uncaught.append
    try:
        cluster.start_warm(cloudpickle.dumps(_raise_now))
        assert executor._timed_calls(abs, [-3])[0][0] == 3
    finally:
        threading.excepthook = hook
    assert uncaught == []


def _raise_now() -> None:
    raise RuntimeError("no")



def _fails(kind: str) -> None:
    from sleuth.errors import InternalError
    from sleuth.limits import LimitReached

    raise {"internal": InternalError("x"), "puzzle": PuzzleError("m", file="f", place="p", allowed=[1, 2]),
           "limit": LimitReached("over")}[kind]


@pytest.mark.parametrize("kind", ["internal", "puzzle", "limit"])
def test_a_worker_s_error_is_the_serial_run_s(kind: str) -> None:
    """sleuth's own errors come back from a worker process as a serial run raises them: same type, same line."""
    with pytest.raises(Exception) as serial, Executor() as ex:
        ex.map_tasks(_fails, [kind])
    with pytest.raises(Exception) as local, Executor(workers=2) as ex:
        ex.map_tasks(_fails, [kind])
    assert type(local.value) is type(serial.value) and str(local.value) == str(serial.value)
