"""One executor for every experiment: serial in this process, local worker processes, or a Dask cluster.

An experiment cuts its work into tasks (a dictionary cell, a batch of rounds, a deck ...), each a plain,
picklable item handed to a module-level function; whatever seed a task uses is derived from the experiment's
seed and the task's index (:func:`task_seed`), so results do not depend on the number of workers or on the
order in which they finish.  :meth:`Executor.map_tasks` returns results in task order.

* default: serial, in this process; Dask is not imported (it is the optional ``cluster`` extra);
* ``--workers N``: ``N`` worker processes of this machine (:class:`_LocalPool`, no Dask); on Linux they are
  forked from this process after the experiment's ``prepare`` ran (its word lists, tables and compiled
  kernels), so that no worker imports, reads or compiles them again;
* ``--cluster ADDRESS``: an existing Dask scheduler (``tcp://host:8786``); its workers need the same sleuth
  version (checked when connecting), and sleuth gives them its settings (:mod:`sleuth.cluster`).

Either way the client hands out the tasks itself, costliest first and one per worker thread at a time: the
next goes to the first worker that frees up (longest-processing-time packing), never queued behind a long task
on a busy worker.  A worker that dies loses only its running task, which runs again on another worker (on a
cluster, a task that raises is also retried once).  With ``--resume FILE`` every finished result is appended to
FILE as it arrives; running the same command again skips the tasks already in it (the file names its
experiment and a digest of the task list, and a file from another run is refused).  The file is JSON lines of
results only (:mod:`sleuth.records`): reading it runs no code, so a file received from someone else is safe to
resume from.

The experiment command line (:class:`ExperimentParser`, :func:`add_run_options`, :func:`bounded`) is in
:mod:`sleuth.arguments` (and importable from here); it turns every bad option into one
:class:`~sleuth.errors.PuzzleError` line naming the option and the allowed range.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import signal
import sys
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .allocator import tune_allocator
from .arguments import (MAX_WORKERS, ExperimentParser, add_run_options, bounded, comma_list, int_list, ints,
                        task_seed)
from .errors import InternalError, PuzzleError, SleuthError
from .limits import LimitReached
from .progress import progress_bar

T = TypeVar("T")
R = TypeVar("R")

__all__ = ["MAX_WORKERS", "Executor", "ExperimentParser", "RunStats", "add_run_options", "bounded", "comma_list",
           "int_list", "ints", "task_seed"]



# -- running ---------------------------------------------------------------------------------------------

@dataclass
class RunStats:
    """What a run cost: tasks computed here (not resumed), their summed wall and CPU seconds on the workers,
    and the wall seconds of the whole map."""

    tasks: int = 0
    resumed: int = 0
    task_seconds: float = 0.0
    task_cpu: float = 0.0
    wall: float = 0.0
    workers: int = 1
    per_task: list[float] = field(default_factory=list)

    @property
    def overhead_per_task(self) -> float:
        """Wall seconds per task beyond the tasks' own time spread over the workers (scheduling, transfer)."""
        return max(0.0, self.wall - self.task_seconds / max(1, self.workers)) / max(1, self.tasks)


def _one_line(exc: BaseException) -> str:
    """An exception's message on one line (at most 300 characters), or its type's name."""
    return " ".join(str(exc).split())[:300] or type(exc).__name__


def _raised_by_task(exc: BaseException) -> bool:
    """Whether ``exc`` (as a Dask future re-raises it) passed through :func:`_timed_call`: raised by the task,
    not by the worker or the client failing around it (a thread that cannot start under ``ulimit``...)."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_name == _timed_call.__name__:
            return True
        tb = tb.tb_next
    return False


def _timed_call(fn: Callable[[T], R], item: T) -> tuple[R, float, float, str]:
    """Run one task; its result, wall and CPU seconds (measured where it runs) and the sleuth version that ran
    it (a worker that joined the cluster after the client checked the others is refused by its results)."""
    from . import __version__

    t0, c0 = time.perf_counter(), time.process_time()
    out = fn(item)
    return out, time.perf_counter() - t0, time.process_time() - c0, __version__


def _timed_calls(fn: Callable[[T], R], items: list[T]) -> list[tuple[R, float, float, str]]:
    """:func:`_timed_call` on each item in turn (one Dask task: a chunk of :func:`_chunks`), once the worker's
    warm-up (:class:`.cluster.WorkerWarm`), if running, has finished."""
    cluster = sys.modules.get(f"{__package__}.cluster")
    if cluster is not None:
        cluster.wait_warm()
    return [_timed_call(fn, item) for item in items]


def _chunks(todo: list[int], groups: Sequence[Hashable] | None, costs: Sequence[float], workers: int
            ) -> list[list[int]]:
    """The tasks ``todo`` (in their order) cut into the chunks that run as one: the tasks of a group (same key
    in ``groups``) in index order, when the group's cost is at most half of each worker's share of the total
    (so that chunks still balance the workers); every other task alone.  Chunks keep the order of their first
    task."""
    if groups is None:
        return [[i] for i in todo]
    members: dict[Hashable, list[int]] = {}
    for i in todo:
        members.setdefault(groups[i], []).append(i)
    limit = sum(costs[i] for i in todo) / (2 * max(1, workers))
    out: list[list[int]] = []
    for i in todo:
        group = members[groups[i]]
        if sum(costs[j] for j in group) > limit:
            out.append([i])
        elif group[0] == i:  # the group's first task in ``todo``: the whole group, here
            out.append(sorted(group))
    return out


class _LocalPool:
    """The worker processes of ``--workers N``: forked from this process (spawned where fork is unsafe), each
    computing one chunk of tasks at a time, sent and returned through its own pipe; one that dies is replaced
    (forked again) and its chunk reported lost (:meth:`finished`), so that the client runs it again."""

    def __init__(self, workers: int, method: str) -> None:
        import multiprocessing

        self.context: Any = multiprocessing.get_context(method)
        self.procs: list[Any] = [None] * workers
        self.conns: list[Any] = [None] * workers
        self.busy: dict[int, int] = {}  # worker slot -> the key of the chunk it computes
        try:
            for slot in range(workers):
                self._start(slot)
        except BaseException:
            self.close()
            raise

    def _start(self, slot: int) -> None:
        """A new worker process in ``slot``.  A forked one inherits this process's objects outside the cyclic
        collector's reach (:func:`gc.freeze` around the fork): its collections never write to the pages that hold
        them, which it would otherwise copy (on the Egghead study, 1,000 rounds: 12,800 page faults fewer, the
        leg 0.02 s shorter)."""
        import gc

        parent, child = self.context.Pipe()
        proc = self.context.Process(target=_serve, args=(child,), name=f"sleuth-worker-{slot}", daemon=True)
        forked = self.context.get_start_method() == "fork"
        if forked:
            gc.freeze()
        try:
            proc.start()
        finally:
            if forked:
                gc.unfreeze()
        child.close()
        self.procs[slot], self.conns[slot] = proc, parent

    deaths = 2  # a chunk whose workers died this many times is not run again

    def slots(self) -> int:
        return len(self.procs)

    def submit(self, key: int, call: Callable[..., Any], *args: Any, slot: int | None = None) -> None:
        """``call(*args)`` on an idle worker (the caller keeps at most :meth:`slots` running), or on ``slot``."""
        if slot is None:
            slot = next(s for s in range(len(self.procs)) if s not in self.busy)
        if self.procs[slot].exitcode is not None:  # died while idle
            self._replace(slot)
        try:
            self.conns[slot].send((call, args))
        except OSError:  # died just now: its replacement gets the call
            self._replace(slot)
            self.conns[slot].send((call, args))
        self.busy[slot] = key

    def finished(self) -> list[tuple[int, bool, Any]]:
        """Wait until a running call ends: ``(key, True, result)``, ``(key, False, exception)`` for a call that
        raised, ``(key, False, None)`` for one whose worker died (replaced here)."""
        from multiprocessing.connection import wait

        waiting = {self.conns[s]: s for s in self.busy} | {self.procs[s].sentinel: s for s in self.busy}
        ready = {waiting[r] for r in wait(list(waiting))}
        out: list[tuple[int, bool, Any]] = []
        for slot in sorted(ready):
            key = self.busy.pop(slot)
            try:
                ok, value = self.conns[slot].recv() if self.conns[slot].poll() else (False, None)
            except (EOFError, OSError):
                ok, value = False, None
            if not ok and value is None:  # the worker died (killed, out of memory...): a fresh one in its place
                self._replace(slot)
            out.append((key, ok, value))
        return out

    def _replace(self, slot: int) -> None:
        """A fresh worker in ``slot`` (the old one stopped if it still runs)."""
        self.procs[slot].kill()
        self.procs[slot].join()
        self.conns[slot].close()
        self._start(slot)

    def abandon(self) -> None:
        """Stop the running calls (their workers replaced by fresh ones)."""
        for slot in list(self.busy):
            self._replace(slot)
        self.busy.clear()

    def close(self) -> None:
        for proc, conn in zip(self.procs, self.conns, strict=True):
            if proc is not None:
                with contextlib.suppress(OSError):
                    conn.send(None)
                conn.close()
        for proc in self.procs:
            if proc is not None:
                proc.join(2.0)
                if proc.exitcode is None:
                    proc.kill()
                    proc.join()
        self.procs = [None] * len(self.procs)


worker_allocator_tuned: bool | None = None  # in a local worker process: whether :func:`tune_allocator` took


def _serve(conn: Any) -> None:
    """A :class:`_LocalPool` worker: run each ``(call, args)`` received, send back ``(True, result)`` or
    ``(False, exception)``, until ``None`` or the client is gone.  Ctrl-C is the client's to handle (it stops
    the workers)."""
    global worker_allocator_tuned
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    worker_allocator_tuned = tune_allocator()
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        call, args = message
        try:
            reply: tuple[bool, Any] = (True, call(*args))
        except BaseException as exc:  # the task's own error, raised again in the client
            reply = (False, exc)
        try:
            conn.send(reply)
        except (EOFError, OSError):
            return
        except Exception as exc:  # a result or an exception that cannot be pickled
            what = f"result ({type(reply[1]).__name__})" if reply[0] else f"error ({_one_line(reply[1])})"
            conn.send((False, InternalError(f"a worker could not send back its task's {what}: "
                                            f"{type(exc).__name__}: {_one_line(exc)}")))


class _DaskTasks:
    """The chunks of one map on a Dask cluster, in the shape of :class:`_LocalPool` (submitted by the client one
    per worker thread at a time)."""

    def __init__(self, ex: Executor) -> None:
        from distributed import as_completed

        self.ex, self.client = ex, ex.client
        self.futures: dict[Any, int] = {}
        self.arrived = as_completed()
        self.threads, self.asked = 1, -1e9

    deaths = 1  # the scheduler itself runs a lost chunk again, up to its ``allowed-failures``

    def slots(self) -> int:
        """The worker threads of the cluster (asked of the scheduler at most once a second: workers come and go)."""
        now = time.monotonic()
        if now - self.asked >= 1.0:
            self.threads, self.asked = max(1, sum(self.client.nthreads().values())), now
        return self.threads

    def submit(self, key: int, call: Callable[..., Any], *args: Any) -> None:
        fut = self.client.submit(call, *args, pure=False, retries=1)
        self.futures[fut] = key
        self.arrived.add(fut)

    def finished(self) -> list[tuple[int, bool, Any]]:
        fut = next(self.arrived)
        key = self.futures.pop(fut)
        try:
            results = fut.result()
        except SleuthError:
            raise
        except ModuleNotFoundError as exc:
            raise SleuthError(f"{self.ex.name}: a Dask worker cannot import {exc.name!r}: install sleuth "
                              "(same version) where the workers run") from None
        except Exception as exc:
            if type(exc).__name__ == "KilledWorker":
                return [(key, False, None)]
            if _raised_by_task(exc):
                return [(key, False, exc)]  # the task's own exception, as in a serial run
            raise self.ex._failure(exc, "lost the Dask cluster while waiting for results") from None
        self.ex._check_version(fut, results)
        fut.release()
        return [(key, True, results)]

    def abandon(self) -> None:
        for fut in self.futures:
            fut.cancel()
        self.futures.clear()


class Executor:
    """Maps task functions over items, serially, on local worker processes or on Dask; use as a context manager
    (stops the workers, closes the connection)."""

    connect_timeout = 10.0  # seconds to reach an existing scheduler

    def __init__(self, workers: int = 1, cluster: str | None = None, *, resume: str | None = None,
                 quiet: bool = False, name: str = "experiment", prepare: Callable[[], object] | None = None,
                 warm: Callable[[], object] | None = None) -> None:
        """``prepare``: builds what every task shares (tables, kernels...) in this process before its local
        workers are forked from it (``--workers N`` on Linux), so that they inherit it; not called otherwise
        (serial tasks build it on first use).  ``warm``: the same, but using only what is installed with
        sleuth (no file of the client), run on each worker of an existing cluster as it connects, in the
        background while the tasks are sent (:class:`.cluster.WorkerWarm`); never in this process, which
        computes no task there."""
        self.workers, self.address, self.resume, self.quiet, self.name = workers, cluster, resume, quiet, name
        self.prepare, self.warm = prepare, warm
        self.client: Any = None
        self._pool: _LocalPool | None = None
        self.stats = RunStats(workers=workers)
        self._maps = 0
        self._skip: set[int] = set()

    @classmethod
    def from_args(cls, args: argparse.Namespace, name: str, prepare: Callable[[], object] | None = None,
                  warm: Callable[[], object] | None = None) -> Executor:
        return cls(args.workers, args.cluster, resume=args.resume, quiet=args.quiet, name=name, prepare=prepare,
                   warm=warm)

    @property
    def distributed(self) -> bool:
        return self.workers > 1 or self.address is not None

    def __enter__(self) -> Executor:
        if self.distributed:
            self._connect()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.client is not None:  # the warm-up stays registered: :func:`.cluster.check_workers`
            self.client.close()
            self.client = None
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    def on_workers(self, fn: Callable[[], R]) -> dict[str, R]:
        """``fn()`` in every worker process (between tasks), by worker name (a Dask worker's address)."""
        if self.client is not None:
            return dict(self.client.run(fn))
        if self._pool is None:
            return {}
        out: dict[str, R] = {}
        for slot in range(self._pool.slots()):
            self._pool.submit(slot, fn, slot=slot)
            for _, ok, value in self._pool.finished():
                if not ok:
                    raise value if value is not None else SleuthError(f"{self.name}: a local worker died")
                out[f"local-{slot}"] = value
        return out

    def _connect(self) -> None:
        if not self.address:
            self._start_local()
            return
        try:
            from distributed import Client

            from .cluster import check_workers
        except ImportError:
            raise SleuthError("--cluster needs dask.distributed: pip install 'sleuth[cluster]'") from None
        try:
            self.client = Client(self.address, timeout=self.connect_timeout)
            self.stats.workers = check_workers(self.client, self.connect_timeout, self.warm)
        except SleuthError:
            self.close()
            raise
        except Exception as exc:  # Dask raises OSError, TimeoutError, ValueError, RuntimeError... : one line
            self.close()
            raise PuzzleError(f"cannot reach the Dask scheduler ({_one_line(exc)})", place="--cluster",
                              allowed="the address of a running scheduler, e.g. tcp://host:8786") from None

    def _start_local(self) -> None:
        """``--workers N``: on Linux, ``N`` processes forked from this one once ``prepare`` ran, so that they
        inherit its modules and what it built (spawned workers each spent about 2 s of CPU importing numpy and
        numba and loading the kernels, measured on the Egghead study); elsewhere (fork is unsafe on macOS)
        spawned, each building it on its first task.  Each keeps freed memory in glibc's heap
        (:func:`tune_allocator`, as sleuth's Dask workers do): measured on the Motus study (lengths 7-8),
        the workers then use about 4% less CPU and the leg's wall time drops from 134 s to 122 s."""
        fork = sys.platform == "linux"
        if fork and self.prepare is not None:
            self.prepare()
        try:
            self._pool = _LocalPool(self.workers, "fork" if fork else "spawn")
        except Exception as exc:  # OSError (ulimit), ...: one line
            raise self._failure(exc, "the local workers could not start") from None

    def _check_version(self, fut: Any, results: Any) -> None:
        """Refuse (one line) results computed by a worker that runs another sleuth: one that joined after
        :func:`.cluster.check_workers` checked the workers there were (its ``_timed_calls`` is its own)."""
        from . import __version__
        from .cluster import version_mismatch

        ok = isinstance(results, list) and all(isinstance(r, tuple) and len(r) == 4 for r in results)
        versions = {r[3] for r in results} if ok else {"(an older version)"}
        got = next((v for v in versions if v != __version__), __version__)
        if got != __version__:
            where = next(iter(self.client.who_has([fut]).get(fut.key, ())), "a worker")
            raise PuzzleError(version_mismatch(__version__, {where: got}) or "", place="--cluster")

    def _failure(self, exc: BaseException, what: str) -> SleuthError | LimitReached:
        """The one-line error for a cluster that failed (not a task): a :class:`LimitReached` (exit 3) when the
        process ran out of memory or threads (``ulimit``), else a :class:`SleuthError` (exit 2)."""
        where = f"--cluster {self.address}" if self.address else f"--workers {self.workers}"
        reason = _one_line(exc)
        if isinstance(exc, MemoryError) or "memory" in reason.lower() or "new thread" in reason:
            return LimitReached(f"{where}: {what}: a process ran out of memory or threads (ulimit?) ({reason})")
        return SleuthError(f"{where}: {what} ({reason})")

    def map_tasks(self, fn: Callable[[T], R], items: Sequence[T], *, label: str = "tasks", unit: str = "task",
                  weights: Sequence[float] | None = None, costs: Sequence[float] | None = None,
                  groups: Sequence[Hashable] | None = None) -> list[R]:
        """``[fn(item) for item in items]``, computed serially or on the cluster; progress on stderr."""
        out: dict[int, R] = {}
        for index, result in self.completed(fn, items, label=label, unit=unit, weights=weights, costs=costs,
                                            groups=groups):
            out[index] = result
        return [out[i] for i in range(len(items))]

    def completed(self, fn: Callable[[T], R], items: Sequence[T], *, label: str = "tasks", unit: str = "task",
                  weights: Sequence[float] | None = None, costs: Sequence[float] | None = None,
                  groups: Sequence[Hashable] | None = None) -> Iterator[tuple[int, R]]:
        """``(index, fn(items[index]))`` as tasks finish (resumed ones first); ``weights`` (e.g. words per
        cell) drive the progress count instead of one per task; on a cluster the costliest tasks go first
        (``costs``, the estimated seconds of each task; default: the weights), so that no long task starts
        last while the other workers idle.  Serially, tasks run in their order.  ``groups``: tasks with the
        same key share work when they run one after the other in a process (a cell's matrix...); on a cluster
        such a group runs as one Dask task, in index order, when its cost is small against each worker's share
        (:func:`_chunks`); results and the ``--resume`` file stay per task."""
        items = list(items)
        weights = list(weights) if weights is not None else [1.0] * len(items)
        order = list(costs) if costs is not None else weights
        self._maps += 1
        digest = hashlib.sha256(repr((fn.__module__, fn.__qualname__, items)).encode()).hexdigest()
        store = None
        if self.resume:
            from .records import ResultsFile  # numpy: only when resuming

            store = ResultsFile(f"{self.resume}" if self._maps == 1 else f"{self.resume}.{self._maps}",
                                (self.name, digest))
        done = dict(store.done) if store else {}
        todo = [i for i in range(len(items)) if i not in done]
        self._skip = set()
        self.stats.resumed += len(done)
        bar = progress_bar(sum(weights), label, unit=unit, quiet=self.quiet,
                           initial=sum(weights[i] for i in done))
        start = time.perf_counter()
        try:
            for i in sorted(done):
                yield i, done[i]
            if self.distributed:  # costliest first, so that a long task does not start last
                todo.sort(key=lambda i: -order[i])
            for i, (result, wall, cpu, _) in self._run(fn, items, _chunks(todo, groups, order, self.stats.workers)):
                self.stats.tasks += 1
                self.stats.task_seconds += wall
                self.stats.task_cpu += cpu
                self.stats.per_task.append(wall)
                if store:
                    store.add(i, result)
                bar.update(weights[i])
                yield i, result
        finally:
            self.stats.wall += time.perf_counter() - start
            bar.close()
            if store:
                store.close()

    def cancel(self, indices: Iterator[int] | Sequence[int]) -> None:
        """Drop tasks of the current :meth:`completed` loop that are not finished (their results never come):
        those not sent yet are never sent."""
        self._skip.update(indices)

    def _run(self, fn: Callable[[T], R], items: list[T], chunks: list[list[int]]
             ) -> Iterator[tuple[int, tuple[R, float, float, str]]]:
        """Each task's result and timings (:func:`_timed_call`) as it finishes; on workers, the chunks are sent
        in their order (costliest first), one per worker thread at a time, the next to the first that frees."""
        if not self.distributed:
            for i in (i for chunk in chunks for i in chunk):
                if i not in self._skip:
                    yield i, _timed_call(fn, items[i])
            return
        if self.client is None and self._pool is None:
            self._connect()
        tasks = self._pool if self._pool is not None else _DaskTasks(self)
        pending, running, lost = deque(range(len(chunks))), set[int](), [0] * len(chunks)
        try:
            while pending or running:
                slots = tasks.slots()
                while pending and len(running) < slots:
                    c = pending.popleft()
                    if not all(i in self._skip for i in chunks[c]):
                        tasks.submit(c, _timed_calls, fn, [items[i] for i in chunks[c]])
                        running.add(c)
                if all(i in self._skip for c in running for i in chunks[c]):
                    break  # nothing left whose result is wanted (cancelled)
                for c, ok, value in tasks.finished():
                    running.discard(c)
                    if ok:
                        for i, result in zip(chunks[c], value, strict=True):
                            if i not in self._skip:
                                yield i, result
                    elif value is not None:
                        raise value  # the task's own exception, as in a serial run
                    else:  # its worker died: again, before the others (up to the backend's limit)
                        lost[c] += 1
                        if lost[c] >= tasks.deaths:
                            raise SleuthError(f"{self.name}: task {chunks[c][0]} killed every worker that ran it "
                                              "(out of memory?)")
                        pending.appendleft(c)
        finally:
            if running:
                tasks.abandon()
