"""What sleuth does to the workers of a Dask cluster when it connects (imported only with ``dask.distributed``).

* :func:`check_workers`: every worker must run the same sleuth version as the client (one
  :class:`~sleuth.errors.PuzzleError` line naming both versions otherwise); a worker that joins later is
  checked by its results (:class:`~sleuth.executor.Executor` refuses those of another version);
* :class:`WorkerWarm`: a worker plugin carrying the experiment's ``warm`` (what its tasks share: modules,
  tables, compiled kernels), which each worker runs in a background thread as it joins (or now, for the workers
  already there), while the client is still sending the tasks; a task waits for it (:func:`wait_warm`) rather
  than building the same things again.  It stays registered after the run, until the next sleuth client
  replaces it (its experiment's) or removes it (an experiment with none): a worker that restarts (its nanny
  restarting it, ``Client.restart``) prepares for the last experiment as it joins, as a worker that lived on
  keeps it, instead of making the next run wait for it (measured on Egghead, 1,000 rounds on a loopback
  cluster restarted before each run: the first task started 0.3-0.45 s after it was sent, 0.01-0.03 s);
* :class:`WorkerTuning`: a worker plugin, registered on every worker, present and future (a worker the nanny
  restarts gets it again), that gives the worker what a serial run or sleuth's ``--workers`` processes have:
  freed memory kept in glibc's heap (:func:`tune_allocator`) and Dask's housekeeping woken up less (:func:`quiet`);
  it also loads numba's compiler (:func:`preload`) in a background thread, once per worker process, so that a
  worker started (or restarted) after sleuth's first connection does not pay it in its first task;
  :class:`NannyTuning` does the latter in the nannies.

Why the allocator: Dask's nanny starts each worker with ``MALLOC_TRIM_THRESHOLD_=65536``, which also turns off
glibc's adaptive mmap threshold, so every numpy array above 128 KiB is mapped and faulted in afresh and unmapped
when freed.  The experiments' tasks allocate such arrays in loops (Egghead's tables, Motus's feedback columns):
measured on a loopback cluster started the ordinary way, the same tasks took twice the wall time of a local
cluster whose workers had the setting below.

Why the housekeeping: by default a worker samples the stack of its running task every 10 ms (the dashboard's
profile), measures its event loop every 20 ms and its memory every 100 ms, all in its event loop thread, which
takes the GIL from the task each time.  Measured on one worker started the ordinary way (Egghead, 500 rounds
of one configuration, 4 alternations, load 8): 4.35 s of CPU per task with the stack sampling, 3.70 s without;
an idle nanny used 0.79 s of CPU per 30 s, 0.14 s with its checks once a second.  Unregistering the plugins
(``client.unregister_worker_plugin("sleuth-tuning")``, and with ``nanny=True``) gives the housekeeping back at
once, and the allocator setting when the workers restart.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Mapping
from typing import Any

import cloudpickle

from distributed import Client
from distributed.diagnostics.plugin import NannyPlugin, WorkerPlugin

from . import __version__
from .errors import PuzzleError
from .allocator import MMAP_THRESHOLD, TRIM_THRESHOLD, tune_allocator  # noqa: F401 - also sleuth.cluster's

SAMPLING = ("profile", "profile-cycle")  # a worker's periodic callbacks sampling its tasks' stacks (every 10 ms)
SLOWER = {"tick": 1000.0, "memory_monitor": 1000.0}  # milliseconds (Dask's defaults: 20 and 100)


def quiet(server: Any) -> dict[str, Any]:
    """Stop the stack sampling of ``server`` (a worker or a nanny) and wake its event loop check and memory check
    once a second; what they were, for :func:`restore`.

    The samplers are taken out of the server's periodic callbacks, not only stopped: a worker that joins (a new
    or restarted one) runs its plugins' ``setup`` before it starts its periodic callbacks, and would start them
    again.  Each is kept with whether it runs once given back: if it ran, or if the server had not started its
    periodic callbacks yet (none running: Dask would have started it)."""
    callbacks = server.periodic_callbacks
    before: dict[str, Any] = {}
    started = any(pc.is_running() for pc in callbacks.values())
    for name in SAMPLING:
        if name in callbacks:
            sampler = callbacks.pop(name)
            before[name] = (sampler, bool(sampler.is_running()) or not started)
            sampler.stop()
    for name, ms in SLOWER.items():
        if name in callbacks:
            before[name] = float(callbacks[name].callback_time)
            callbacks[name].callback_time = max(ms, before[name])
    return before


def restore(server: Any, before: Mapping[str, Any]) -> None:
    """Undo :func:`quiet` with what it returned."""
    callbacks = server.periodic_callbacks
    for name, was in before.items():
        if isinstance(was, tuple):   # a sampler taken out, and whether it runs
            sampler, runs = was
            callbacks[name] = sampler
            if runs:
                sampler.start()
        elif name in callbacks:
            callbacks[name].callback_time = was


def _quiet_once(server: Any) -> None:
    """:func:`quiet` on ``server``, remembering what it changed (once: a second call changes nothing)."""
    if not hasattr(server, "sleuth_housekeeping"):
        server.sleuth_housekeeping = quiet(server)


def _restore(server: Any) -> None:
    """:func:`restore` what :func:`_quiet_once` changed on ``server``."""
    restore(server, getattr(server, "sleuth_housekeeping", {}))
    with contextlib.suppress(AttributeError):
        del server.sleuth_housekeeping


class WorkerTuning(WorkerPlugin):
    """Runs :func:`tune_allocator`, :func:`quiet` and (in the background, once) :func:`preload` in each worker
    process as it joins (or now, for the workers already there); :func:`restore` when unregistered."""

    name = "sleuth-tuning"
    idempotent = True  # registered once per cluster, whatever the number of clients

    def setup(self, worker: Any) -> None:  # Dask passes it by name: ``worker``
        worker.sleuth_allocator_tuned = tune_allocator()
        _quiet_once(worker)
        if not worker.__dict__.get("sleuth_preloading"):
            worker.sleuth_preloading = True
            _in_background(preload, "sleuth-preload")

    def teardown(self, worker: Any) -> None:
        _restore(worker)


class NannyTuning(NannyPlugin):
    """:func:`quiet` in each worker's nanny, the process watching it (its own loop check and its check of the
    worker's memory, every 20 and 100 ms by default); :func:`restore` when unregistered."""

    name = "sleuth-tuning"
    idempotent = True

    def setup(self, nanny: Any) -> None:  # Dask passes it by name: ``nanny``
        _quiet_once(nanny)

    def teardown(self, nanny: Any) -> None:
        _restore(nanny)


_warming: list[threading.Thread] = []  # this worker's background set-up: :func:`preload`, :class:`WorkerWarm`


def _in_background(job: Callable[[], object], name: str) -> None:
    """Run ``job`` in a daemon thread of this process (best effort: a failure is left to the first task, which
    builds the same things and reports it); :func:`wait_warm` waits for it."""

    def run() -> None:
        with contextlib.suppress(Exception):
            job()

    thread = threading.Thread(target=run, name=name, daemon=True)
    _warming.append(thread)
    thread.start()


def start_warm(payload: bytes) -> None:
    """Run the pickled callable ``payload`` in a background thread of this process."""
    _in_background(lambda: cloudpickle.loads(payload)(), "sleuth-warm")


def wait_warm() -> None:
    """Wait until this process's background set-up threads, if any, have finished (called by every task)."""
    for thread in list(_warming):
        if thread is not threading.current_thread():
            thread.join()


def preload() -> None:
    """Import numba and load its CPU target's typing and lowering registries, under numba's compiler lock: the
    0.5 s of CPU the first compiled call of a process pays otherwise (loading a cached kernel then takes
    0.07 s, measured on Egghead's); nothing where numba is not installed."""
    try:
        from numba.core.compiler_lock import global_compiler_lock
        from numba.core.registry import cpu_target
    except ImportError:
        return
    context = cpu_target.target_context  # built under its own lock, then the compiler lock: numba's order
    with global_compiler_lock:  # as numba refreshes it when it compiles or loads a kernel
        context.refresh()


class WorkerWarm(WorkerPlugin):
    """Runs ``warm`` (an experiment's shared set-up, using only what is installed with sleuth) in a background
    thread of each worker as it joins, or now; pickled here and unpickled in that thread, so that importing the
    experiment's modules does not hold up the worker's event loop (nor the client registering the plugin)."""

    name = "sleuth-warm"

    def __init__(self, warm: Callable[[], object]) -> None:
        self.payload = cloudpickle.dumps(warm)

    def setup(self, worker: Any) -> None:  # Dask passes it by name: ``worker``
        start_warm(self.payload)


def sleuth_version() -> str:
    """This process's sleuth version (run on each worker by :func:`check_workers`)."""
    import sleuth

    return str(sleuth.__version__)


def version_mismatch(mine: str, workers: Mapping[str, object]) -> str | None:
    """The one line refusing ``workers`` (address -> its sleuth version, or the exception raised getting it)
    when any differs from ``mine``; None when all match."""
    bad = sorted((addr, v) for addr, v in workers.items() if v != mine)
    if not bad:
        return None
    addr, got = bad[0]
    where = f"{len(bad)} of {len(workers)} workers, e.g. {addr}"
    if isinstance(got, BaseException):
        reason = " ".join(str(got).split())[:200] or type(got).__name__
        return f"a Dask worker cannot run sleuth ({where}: {type(got).__name__}: {reason}); " \
               f"this client runs sleuth {mine}: install sleuth {mine} where the workers run"
    return f"the Dask workers run sleuth {got} ({where}) but this client runs sleuth {mine}: install sleuth " \
           f"{mine} where the workers run"


def check_workers(client: Client, timeout: float, warm: Callable[[], object] | None = None) -> int:
    """Wait up to ``timeout`` seconds for a worker, refuse a sleuth version mismatch (one line), register
    :class:`WorkerWarm` with ``warm`` (first, so that the workers warm while the rest is sent; without
    ``warm``, remove the last experiment's), :class:`WorkerTuning` and :class:`NannyTuning`; the number of
    workers."""
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        raise PuzzleError(f"the Dask scheduler has no workers (waited {timeout:g} s)", place="--cluster",
                          allowed="a scheduler with workers started: dask worker ADDRESS") from None
    versions = client.run(sleuth_version, on_error="return")
    problem = version_mismatch(__version__, versions)
    if problem:
        raise PuzzleError(problem, place="--cluster")
    if warm is not None:
        client.register_plugin(WorkerWarm(warm))
    else:
        with contextlib.suppress(Exception):  # none registered (ValueError): best effort, as the warm-up itself
            client.unregister_worker_plugin(WorkerWarm.name)
    client.register_plugin(WorkerTuning())
    with contextlib.suppress(Exception):  # a nanny that cannot load it (no sleuth there) keeps Dask's settings
        client.register_plugin(NannyTuning())
    return len(versions)
