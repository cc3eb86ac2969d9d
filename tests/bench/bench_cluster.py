"""Benchmark: the experiments serial, with ``--workers 2`` and on an external cluster (``--cluster``), in one run
(prints figures; not a test).

    python tests/bench/bench_cluster.py [--rounds 1000] [--lengths 7,8] [--only egghead|motus] [--repeat 1]
        [--untuned] [--allocator-only] [--cold-kernels] [--timeline]

The cluster is started the ordinary way on 127.0.0.1: ``dask scheduler`` and ``dask worker ADDRESS --nworkers 2
--nthreads 1`` (with the nanny), as separate processes.  Each leg is the command a user types (``sleuth
experiment egghead --rounds 1000 --seed 7 --json``, ``sleuth experiment motus --lengths 7,8 --json``) run as a
child process, timed from start to exit; every leg starts cold: a fresh cache (no word lists, no matrices), and
on the cluster its worker processes restarted (``Client.restart``), as ``--workers 2`` starts new ones.  A
restarted worker gets sleuth's ``sleuth-tuning`` plugin again as it joins (registered on the scheduler by a
first connection made when the cluster starts, as on any cluster sleuth has used), which loads numba's compiler
in the background (:func:`sleuth.cluster.preload`); the leg starts once the workers are idle, as a cluster's
workers are between two runs (``--busy-workers``: as soon as they are back, still loading it, the first leg
registering the plugin).  The last experiment's ``sleuth-warm`` plugin stays registered too, so that an
Egghead leg after another Egghead leg finds its restarted workers already warmed up, as on a cluster where the
same study runs again (a Motus leg in between removes it: the Egghead leg after it registers it afresh).  The
cache holds the compiled kernels (numba) of a first run made before the legs, as on any machine after its
first sleuth run since the install; ``--cold-kernels`` leaves them out too (every leg compiles them: the
serial leg once, the parallel legs once per machine).  The legs of one repeat
run back to back (serial, ``--workers 2``, ``--cluster``), and their outputs, timings removed, must be identical.
While a leg runs, the clusters it does not use are paused (SIGSTOP, then SIGCONT: :meth:`ColdCluster.paused`):
idle, a scheduler with two workers and their nannies take about 4% of a core, which a leg keeping both cores busy
would share, as a user's machine without a cluster running does not (``--no-pause`` leaves them running).
``--untuned`` adds a leg on a second cluster whose workers keep Dask's settings (sleuth's worker plugin not
registered: Dask's allocator setting, stack sampling every 10 ms): the figure before the fix;
``--allocator-only`` one whose workers get the allocator setting only (Dask's housekeeping as it is).  Each leg prints
its wall time and the CPU seconds of every process: the client, each worker, and the nannies with the
external scheduler; ``--timeline`` adds where the wall time went: the client's
steps (connecting, ``prepare``, tasks sent, each result with its task's seconds, closing) and each worker's
start, its wait for its warm-up, kernels and tasks, in seconds from the launch of the command.  The machine may
be shared: the load average is printed beside every figure, and the ratios of one run are what to read; with
``--repeat``, also the median of each repeat's own ratios (its legs run back to back, so a machine whose speed
drifts from minute to minute moves them less).
``--only egghead`` (or ``motus``) runs one study.
Each study also prints the critical path of its parallel legs: when their first task started plus the busier
worker's share of their tasks' measured seconds, split between the two workers at best (:func:`critical_path`):
no run of those tasks on two workers, started then, ends sooner, so serial / critical path is the most its
speed-up could be (the Egghead study's four games are indivisible: one game of 1,000 rounds per count of
analysing players, the seed's design).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from tests.external_cluster import external_cluster  # noqa: E402
from tests.helpers.cluster import strip_times  # noqa: E402

# the command line in a child process; UNTUNED=1 leaves the workers as Dask set them (sleuth's plugin not
# registered), ALLOCATOR=1 tunes only their allocator (sleuth's plugin before it quieted Dask); BENCH_REPORT=FILE
# writes there, as JSON, the CPU seconds of this process (the client, and the scheduler of a local cluster) and
# those of each worker process when the executor closes
RUNNER = """
import atexit, json, os, resource, sys, time
T0 = time.time()
if os.environ.get("UNTUNED"):
    import distributed
    distributed.Client.register_plugin = lambda self, plugin, name=None: None
if os.environ.get("ALLOCATOR"):
    import distributed
    from distributed.diagnostics.plugin import WorkerPlugin
    class AllocatorOnly(WorkerPlugin):
        name, idempotent = "sleuth-allocator-only", True
        def setup(self, worker):
            from sleuth.cluster import tune_allocator
            worker.sleuth_allocator_tuned = tune_allocator()
    register = distributed.Client.register_plugin
    distributed.Client.register_plugin = lambda self, plugin, name=None: register(self, AllocatorOnly())
def own_cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
if os.environ.get("BENCH_REPORT"):
    from sleuth import executor
    EVENTS = [("python started", T0, own_cpu())]
    def mark(what):
        EVENTS.append((what, time.time(), own_cpu()))
    def marked(what, method):
        def call(self, *args, **kwargs):
            mark(what)
            try:
                return method(self, *args, **kwargs)
            finally:
                mark(what + " done")
        return call
    def timed_calls(fn, items, _calls=executor._timed_calls):
        # runs where the task runs (pickled by value from __main__): its wall start and end in this process's log
        import time
        from sleuth import executor as here
        log = here.__dict__.setdefault("bench_log", [])
        wait = getattr(sys.modules.get("sleuth.cluster"), "wait_warm", None)
        if wait is not None and not log:
            start = time.time()
            wait()
            log.append(("waited for the warm-up", start, time.time()))
        ready = getattr(sys.modules.get(fn.__module__), "kernels_ready", None)
        if ready is not None and len(log) < 2:
            start = time.time()
            ready()
            log.append(("kernels", start, time.time()))
        start = time.time()
        out = _calls(fn, items)
        log.append(("task", start, time.time()))
        return out
    def worker_report():
        from sleuth import executor as here
        with open("/proc/self/stat") as f:  # the process's start, in clock ticks since boot
            ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as f:
            started = time.time() - float(f.read().split()[0]) + ticks / os.sysconf("SC_CLK_TCK")
        return {"cpu": own_cpu(), "started": started, "log": here.__dict__.get("bench_log", [])}
    run, close, workers = executor.Executor._run, executor.Executor.close, {}
    def timed_run(self, fn, items, chunks):
        if self.distributed:
            executor._timed_calls = timed_calls
        mark("tasks sent")
        for i, result in run(self, fn, items, chunks):
            mark(f"result {i} ({result[1]:.2f} s, cpu {result[2]:.2f})")
            yield i, result
    def report_close(self):
        mark("close")
        if self.distributed:
            try:
                workers.update(self.on_workers(worker_report))
            except Exception:
                pass
        close(self)
        mark("closed")
    executor.Executor._run = timed_run
    executor.Executor.close = report_close
    executor.Executor._connect = marked("connect", executor.Executor._connect)
    init = executor.Executor.__init__
    def timed_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        if self.prepare is not None:
            self.prepare = (lambda prepare: lambda: (mark("prepare"), prepare(), mark("prepare done"))[1])(self.prepare)
    executor.Executor.__init__ = timed_init
    def report():
        mark("exit")
        with open(os.environ["BENCH_REPORT"], "w") as f:
            json.dump({"driver": own_cpu(), "workers": {a: w["cpu"] for a, w in workers.items()},
                       "timeline": {"client": EVENTS, "workers": workers}}, f)
    atexit.register(report)
import sleuth.cli
sleuth.cli.run()  # the console script
"""


def _cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)  # every descendant waited for: --workers' processes too
    return r.ru_utime + r.ru_stime


KERNELS: Path | None = None  # a cache holding only the compiled kernels, copied into every fresh cache


def fresh(cache: Path) -> None:
    """Empty ``cache``, but for the compiled kernels of :data:`KERNELS`."""
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir()
    if KERNELS is not None and (KERNELS / "numba").is_dir():
        shutil.copytree(KERNELS / "numba", cache / "numba")


def compile_kernels(cache: Path) -> None:
    """Run a tiny Egghead study with ``cache``, which compiles its kernels there (the Motus study has none)."""
    cache.mkdir()
    subprocess.run([sys.executable, "-c", RUNNER, "experiment", "egghead", "--rounds", "3", "--quiet", "--json"],
                   env={**os.environ, "SLEUTH_CACHE": str(cache)}, check=True, capture_output=True)


def bytecode_cache(folder: Path) -> None:
    """Every process the benchmark starts reads sleuth's modules compiled to bytecode (written to ``folder`` the
    first time), as an installed sleuth does (pip compiles them at install), even where the environment says
    PYTHONDONTWRITEBYTECODE: compiling them from source again in every leg would add about 0.05 s to each."""
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)


@dataclass
class Cost:
    """What one leg cost: wall seconds, and CPU seconds of each process."""

    wall: float
    client: float  # the process running the command (with the scheduler of a local cluster)
    workers: list[float] = field(default_factory=list)  # each worker process
    other: float = 0.0  # the nannies and the scheduler of an external cluster; what else the leg started
    others: str = "nannies and scheduler"
    floor: float | None = None  # :func:`critical_path`: no run of these tasks on these workers ends sooner

    @property
    def cpu(self) -> float:
        return self.client + sum(self.workers) + self.other

    def show(self) -> str:
        parts = [f"client {self.client:.1f}"]
        if self.workers:
            parts += [f"workers {' + '.join(f'{w:.1f}' for w in self.workers)}", f"{self.others} {self.other:.1f}"]
        elif self.other >= 0.05:
            parts.append(f"other processes {self.other:.1f}")
        return f"{self.wall:.1f} s wall, {self.cpu:.1f} s CPU ({', '.join(parts)})"


class ColdCluster:
    """A two-worker external cluster whose workers use ``cache``: :meth:`restart` restarts them (fresh processes,
    a fresh cache), :meth:`cpu` gives the CPU seconds used so far by each of its processes."""

    def __init__(self, address: str, client: Any, cache: Path, settle: bool) -> None:
        self.address, self.client, self.cache, self.settle = address, client, cache, settle
        self.procs: dict[str, Any] = {}

    def restart(self) -> str:
        import psutil

        fresh(self.cache)
        self.client.restart(wait_for_workers=True)
        if self.settle:  # until each worker has finished what it does as it starts (sleuth-tuning's preload)
            self.client.run(_settled)
        self.procs = {"scheduler": psutil.Process(self.client.run_on_scheduler(os.getpid))}
        for i, (pid, parent) in enumerate(sorted(self.client.run(_pids).values())):
            self.procs[f"worker {i}"], self.procs[f"nanny {i}"] = psutil.Process(pid), psutil.Process(parent)
        return self.address

    def cpu(self) -> dict[str, float]:
        return {name: sum(p.cpu_times()[:2]) for name, p in self.procs.items()}

    @contextlib.contextmanager
    def paused(self) -> Iterator[None]:
        """The cluster's processes stopped (SIGSTOP, then SIGCONT) while a leg that does not use it runs: idle, the
        scheduler, workers and nannies still take about 4% of a core (heartbeats, periodic checks), which a leg
        keeping both cores busy would share (a leg of a user without a cluster running has them to itself)."""
        import psutil

        procs = [psutil.Process(self.client.run_on_scheduler(os.getpid))]
        for pid, parent in self.client.run(_pids).values():
            procs += [psutil.Process(pid), psutil.Process(parent)]
        for proc in procs:
            proc.suspend()
        try:
            yield
        finally:
            for proc in procs:
                proc.resume()


@contextlib.contextmanager
def cold_cluster(cache: Path, settle: bool = False) -> Iterator[ColdCluster]:
    """``settle``: the workers as they are on a cluster sleuth has used before, between two runs: sleuth's
    ``sleuth-tuning`` plugin registered (by a first connection, here), and each leg's restarted workers idle
    before the leg starts; else (``--busy-workers``) the first leg registers the plugin and every leg starts as
    soon as its restarted workers are back."""
    from distributed import Client

    cache.mkdir(exist_ok=True)
    with external_cluster(2, env={"SLEUTH_CACHE": str(cache)}) as address, Client(address) as client:
        if settle:
            from sleuth.cluster import check_workers

            check_workers(client, 60)
        yield ColdCluster(str(address), client, cache, settle)


def _settled() -> None:
    """Wait for this worker's background start-up (:func:`sleuth.cluster.wait_warm`), if it has one."""
    import sys

    cluster = sys.modules.get("sleuth.cluster")
    if cluster is not None:
        cluster.wait_warm()


def _pids() -> tuple[int, int]:
    return os.getpid(), os.getppid()


def timeline(report: dict[str, Any], start: float) -> str:
    """The leg's timeline from a :data:`RUNNER` report: the client's events (wall seconds from the launch of
    its process, CPU seconds of the client so far) and, per worker, its tasks' wall spans."""
    events = report["client"]
    shown = [f"{what} {t - start:.2f} (cpu {cpu:.2f})" for what, t, cpu in events if not what.startswith("result")]
    results = [f"{what.removeprefix('result ')} at {t - start:.2f}" for what, t, _ in events
               if what.startswith("result")]
    if len(results) > 12:  # the first ten and the last
        results = [*results[:10], f"... {len(results) - 11} more ...", results[-1]]
    lines = ["    client: " + ", ".join(shown), "    results: task " + ", ".join(results)]
    for n, (_, w) in enumerate(sorted(report["workers"].items())):
        spans = [f"{what} {a - start:.2f}-{b - start:.2f}" for what, a, b in w["log"]]
        if len(spans) > 12:
            spans = [*spans[:10], f"... {len(spans) - 11} more ...", spans[-1]]
        lines.append(f"    worker {n} (process started {w['started'] - start:+.2f}, cpu {w['cpu']:.2f}): "
                     + ", ".join(spans))
    return "\n".join(lines)


def critical_path(report: dict[str, Any], start: float) -> float | None:
    """The earliest a leg with these tasks could end (seconds from its launch): the first task's start on the
    workers plus the busier worker's share under the best split of the tasks' measured seconds (every split
    tried, up to 16 tasks; past that the larger of the longest task and an equal share), the client's closing
    left out; None for a serial leg."""
    workers = report["workers"].values()
    spans = [(a, b) for w in workers for what, a, b in w["log"] if what == "task"]
    if not spans:
        return None
    seconds, bins = [b - a for a, b in spans], max(1, len(report["workers"]))
    if bins == 2 and len(seconds) <= 16:
        total = sum(seconds)
        share = min(max(part, total - part) for mask in range(1 << len(seconds))
                    for part in [sum(t for i, t in enumerate(seconds) if mask >> i & 1)])
    else:
        share = max(max(seconds), sum(seconds) / bins)
    return min(a for a, _ in spans) - start + share


def leg(argv: list[str], cache: Path, tuning: str = "", cluster: ColdCluster | None = None,
        idle: Sequence[ColdCluster] = ()) -> tuple[Cost, Any, str]:
    """The cost of ``sleuth experiment ARGV`` (with ``--cluster`` on ``cluster``, restarted first) in a child
    process, its JSON output without timings and its timeline (:func:`timeline`); ``tuning``: ``UNTUNED`` or
    ``ALLOCATOR`` (see :data:`RUNNER`).  The clusters ``idle`` are paused meanwhile (:meth:`ColdCluster.paused`)."""
    if cluster is not None:
        argv = [*argv, "--cluster", cluster.restart()]
        before = cluster.cpu()
    fresh(cache)
    report = cache.with_suffix(".report.json")
    env = {**os.environ, "SLEUTH_CACHE": str(cache), "BENCH_REPORT": str(report),
           **({tuning: "1"} if tuning else {})}
    with contextlib.ExitStack() as paused:
        for other in idle:
            paused.enter_context(other.paused())
        start, launched, children = time.perf_counter(), time.time(), _cpu()
        r = subprocess.run([sys.executable, "-c", RUNNER, "experiment", *argv, "--quiet", "--json"], env=env,
                           capture_output=True, text=True)
        wall, children = time.perf_counter() - start, _cpu() - children
    if r.returncode:
        raise SystemExit(f"sleuth experiment {' '.join(argv)}: exit {r.returncode}: {r.stderr.strip()[-500:]}")
    got = json.loads(report.read_text())
    if cluster is not None:
        used = {name: cpu - before[name] for name, cpu in cluster.cpu().items()}
        workers = [cpu for name, cpu in sorted(used.items()) if name.startswith("worker")]
        cost = Cost(wall, got["driver"], workers, sum(used.values()) - sum(workers))
    else:  # every process of the leg is a descendant, waited for: the nannies are what remains
        workers = [got["workers"][a] for a in sorted(got["workers"])]
        cost = Cost(wall, got["driver"], workers, max(0.0, children - got["driver"] - sum(workers)), "other processes")
    cost.floor = critical_path(got["timeline"], launched)
    return cost, strip_times(json.loads(r.stdout)), timeline(got["timeline"], launched)


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=1000, help="Egghead rounds (0 to skip)")
    ap.add_argument("--lengths", default="7,8", help="Motus study lengths ('' to skip)")
    ap.add_argument("--only", choices=("egghead", "motus"), help="run one study only (Egghead or the Motus study)")
    ap.add_argument("--no-pause", dest="pause_idle", action="store_false",
                    help="leave the clusters not used by a leg running (idle) while it runs; by default they are "
                         "paused (SIGSTOP): idle, they take about 4%% of a core")
    ap.add_argument("--legs", default="serial,workers,cluster",
                    help="the legs to run, comma separated (serial, workers, cluster; the ratios need all three)")
    ap.add_argument("--repeat", type=int, default=1, help="repeats of every leg (medians)")
    ap.add_argument("--untuned", action="store_true", help="also a cluster without sleuth's worker plugin")
    ap.add_argument("--allocator-only", action="store_true",
                    help="also a cluster whose workers get only the allocator setting (Dask's housekeeping as is)")
    ap.add_argument("--timeline", action="store_true",
                    help="print each leg's timeline: the client's steps and each worker's tasks, in seconds from "
                         "the launch of the command")
    ap.add_argument("--cold-kernels", action="store_true", help="every leg compiles the kernels (empty caches)")
    ap.add_argument("--busy-workers", action="store_true",
                    help="start each cluster leg as soon as its restarted workers are back, still loading numba's "
                         "compiler (the first leg registering sleuth's plugin), instead of once they are idle")
    args = ap.parse_args()
    global KERNELS
    legs = set(args.legs.split(",")) | ({"cluster"} if args.untuned or args.allocator_only else set())
    studies = ([("Egghead", ["egghead", "--rounds", str(args.rounds), "--seed", "7"])]
               if args.rounds and args.only != "motus" else []) \
        + ([("Motus study", ["motus", "--lengths", args.lengths])] if args.lengths and args.only != "egghead" else [])
    print(f"{os.cpu_count()} CPUs; {load()} at the start", flush=True)
    with tempfile.TemporaryDirectory(prefix="sleuth-bench-") as tmp, contextlib.ExitStack() as stack:
        bytecode_cache(Path(tmp, "bytecode"))
        caches = {name: Path(tmp, name.replace(" ", "-"))
                  for name in ("serial", "local", "cluster", "untuned", "allocator only")}
        if not args.cold_kernels:
            KERNELS = Path(tmp, "kernels")
            compile_kernels(KERNELS)
        tuned = stack.enter_context(cold_cluster(caches["cluster"], not args.busy_workers)) if "cluster" in legs \
            else None
        others = [(f"--cluster {what}", stack.enter_context(cold_cluster(caches[what])), tuning)
                  for what, tuning, wanted in (("untuned", "UNTUNED", args.untuned),
                                               ("allocator only", "ALLOCATOR", args.allocator_only)) if wanted]
        ok = True
        for title, argv in studies:
            times: dict[str, list[float]] = {}
            cpus: dict[str, list[float]] = {}
            floors: dict[str, list[float]] = {}
            outputs: list[Any] = []
            for _ in range(args.repeat):
                runs = [("serial", argv, None, ""), ("--workers 2", [*argv, "--workers", "2"], None, ""),
                        ("--cluster", argv, tuned, "")] + [(name, argv, c, t) for name, c, t in others]
                runs = [run for run in runs if run[0].lstrip("-").split(" ")[0] in legs]
                for name, full, cluster, tuning in runs:
                    idle = [c for c in (tuned, *(c for _, c, _ in others)) if c is not None and c is not cluster]
                    cost, out, line = leg(full, caches["local" if "--workers" in full else "serial"], tuning, cluster,
                                          idle if args.pause_idle else ())
                    times.setdefault(name, []).append(cost.wall)
                    cpus.setdefault(name, []).append(cost.cpu)
                    if cost.floor is not None:
                        floors.setdefault(name, []).append(cost.floor)
                    outputs.append(out)
                    print(f"  {title}, {name}: {cost.show()} ({load()})", flush=True)
                    if args.timeline:
                        print(line, flush=True)
            same = all(o == outputs[0] for o in outputs)
            ok = ok and same
            med = {name: statistics.median(t) for name, t in times.items()}
            if legs != {"serial", "workers", "cluster"}:
                print(f"{title}: medians of {args.repeat}: " + ", ".join(f"{name} {t:.1f} s" for name, t in med.items())
                      + f"; identical results: {'yes' if same else 'NO'} ({load()})", flush=True)
                continue
            serial_cpu = statistics.median(cpus["serial"])
            print(f"{title}: CPU seconds (client and workers), medians: " + ", ".join(
                f"{name} {statistics.median(c):.1f} (x{statistics.median(c) / serial_cpu:.2f} serial)"
                for name, c in cpus.items()), flush=True)
            extra = "".join(f", {name.removeprefix('--cluster ')} cluster x{med['serial'] / med[name]:.2f}"
                            for name, _, _ in others)
            print(f"{title} ({' '.join(argv)}): medians of {args.repeat}: serial {med['serial']:.1f} s, --workers 2 "
                  f"{med['--workers 2']:.1f} s, --cluster {med['--cluster']:.1f} s; speed-up over serial: --workers 2 "
                  f"x{med['serial'] / med['--workers 2']:.2f}, --cluster x{med['serial'] / med['--cluster']:.2f}"
                  f"{extra}; --cluster / --workers 2 = {med['--cluster'] / med['--workers 2']:.2f}; identical "
                  f"results: {'yes' if same else 'NO'} ({load()})", flush=True)
            print(f"{title}: the critical path of each parallel leg (its first task's start plus the busier worker's "
                  "share of its tasks' measured seconds, split at best), medians: " + ", ".join(
                      f"{name} {statistics.median(f):.2f} s, so at most x{med['serial'] / statistics.median(f):.2f} "
                      "serial" for name, f in floors.items()), flush=True)
            if args.repeat > 1:  # each repeat's legs ran back to back: their ratios cancel the machine's drift
                ratio = [(s / w, s / c, c / w) for s, w, c in
                         zip(times["serial"], times["--workers 2"], times["--cluster"], strict=True)]
                mid = [statistics.median(r[k] for r in ratio) for k in range(3)]
                print(f"{title}: the ratios of each repeat, medians: --workers 2 x{mid[0]:.2f}, --cluster "
                      f"x{mid[1]:.2f}, --cluster / --workers 2 = {mid[2]:.2f} (per repeat: "
                      + "; ".join(f"x{a:.2f} x{b:.2f} {c:.2f}" for a, b, c in ratio) + ")", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
