"""Benchmark of the experiments' executor: serial against 2 local worker processes (prints figures; not a test).

    python tests/bench/bench_executor.py [--lengths 7,8] [--letters A-Z] [--rounds 200] [--trivial 400]

In the same run: the Motus study on the given lengths (one task per cell, or per group of methods for
the largest cells, see ``study_jobs``; the costliest first), the Egghead study (four
configurations, ``--batch`` rounds per task), each serial then on 2 workers, with wall seconds, CPU seconds
(this process plus the workers' tasks), the ratio and whether the results are identical; and the overhead
per task (sending, collecting) on ``--trivial`` near-empty tasks.  What this process already holds (the word list, the
Egghead tables) is loaded on every worker before the clock starts; that set-up time is printed apart.  Each
mode gets a fresh feedback-matrix cache, so that neither reads what the other computed.  The machine is
shared: read the CPU seconds beside the wall times.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sleuth.executor import Executor, task_seed  # noqa: E402
from sleuth.models.egghead import experiment as egg  # noqa: E402
from sleuth.models.motus import experiment as mx  # noqa: E402
from sleuth.models.motus import strategy as st  # noqa: E402
from sleuth.models.motus.space import cell_spaces  # noqa: E402
from sleuth.models.motus.words import french  # noqa: E402


def measured(run: Callable[[Executor], Any], workers: int, warm: Callable[[], Any]
             ) -> tuple[Any, float, float, Executor, float]:
    """The result, wall seconds and CPU seconds (here plus the workers' tasks) of ``run`` on an executor, and
    the seconds spent before: cluster start-up and ``warm`` on every worker (what this process already holds:
    the word list, the Egghead tables).  A fresh matrix cache for each run."""
    os.environ["SLEUTH_CACHE"] = tempfile.mkdtemp(prefix="sleuth-bench-")
    t0 = time.perf_counter()
    with Executor(workers=workers, quiet=True) as ex:
        if ex.distributed:
            ex.on_workers(warm)
        setup = time.perf_counter() - t0
        start, cpu = time.perf_counter(), time.process_time()
        out = run(ex)
        wall = time.perf_counter() - start
    return out, wall, time.process_time() - cpu + (ex.stats.task_cpu if ex.distributed else 0.0), ex, setup


def compare(name: str, run: Callable[[Executor], Any], same: Callable[[Any, Any], bool], warm: Callable[[], Any]
            ) -> None:
    warm()
    a, wall1, cpu1, ex1, _ = measured(run, 1, warm)
    b, wall2, cpu2, ex2, setup = measured(run, 2, warm)
    print(f"{name}: {ex1.stats.tasks} tasks; serial {wall1:.1f} s wall / {cpu1:.1f} s CPU; 2 workers {wall2:.1f} s "
          f"wall / {cpu2:.1f} s CPU (after {setup:.1f} s of cluster start-up and warm-up); speed-up "
          f"x{wall1 / wall2:.2f} (CPU ratio {cpu2 / cpu1:.2f}); median task "
          f"{statistics.median(ex1.stats.per_task):.2f} s, longest {max(ex1.stats.per_task):.2f} s; identical "
          f"results: {'yes' if same(a, b) else 'NO'}", flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lengths", default="7,8", help="Motus study lengths ('' to skip)")
    ap.add_argument("--letters", default="A-Z")
    ap.add_argument("--rounds", type=int, default=200, help="Egghead rounds per configuration (0 to skip)")
    ap.add_argument("--batch", type=int, default=25, help="Egghead rounds per task")
    ap.add_argument("--trivial", type=int, default=400, help="near-empty tasks for the overhead (0 to skip)")
    args = ap.parse_args()
    print(f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f} at the start", flush=True)

    if args.trivial:
        for workers in (1, 2):
            with Executor(workers=workers, quiet=True) as ex:
                ex.map_tasks(task_seed, list(range(20)))  # warm up: workers started, modules imported
                start = time.perf_counter()
                ex.map_tasks(task_seed, list(range(args.trivial)))
                wall = time.perf_counter() - start
            print(f"overhead: {args.trivial} near-empty tasks on {workers} worker(s): {wall / args.trivial * 1e3:.2f} "
                  f"ms per task", flush=True)

    if args.lengths:
        lengths = mx._ranges(args.lengths, 2, 30, "lengths")
        spaces = cell_spaces("fr", lengths, mx._letters(args.letters))
        methods = [m for m in st.Method if m is not st.Method.MINIMAX]
        jobs, weights, costs = mx.study_jobs(spaces, methods, 60.0)
        words = sum(len(s.answers) for s in spaces)

        def motus(ex: Executor) -> dict[str, tuple[int, int, int, int, dict[int, int]]]:
            tallies = mx.merge(ex.map_tasks(mx._study_task, jobs, weights=weights, costs=costs), methods)[0]
            mx._PREPARED.clear()
            return {m.value: (t.words, t.total, t.fails, t.worst, t.histogram) for m, t in tallies.items()}

        compare(f"Motus study, lengths {args.lengths}, {words} words, {len(methods)} methods, {len(spaces)} cells "
                f"in {len(jobs)} tasks (costliest first)", motus, lambda a, b: a == b, french)

    if args.rounds:
        ns = egg._parser().parse_args(["--rounds", str(args.rounds), "--batch", str(args.batch)])
        setup, questions = egg._setup(ns)

        def egghead(ex: Executor) -> list[list[Any]]:
            results = egg.study(ns, setup, questions, [1, 2, 3, 4], ex)
            return [[(s.label, s.observations) for s in r["types"]] + [r["wins"]] for r in results]

        ids = tuple(q.qid for q in questions)
        compare(f"Egghead study, 4 players, k = 1..4, {args.rounds} rounds each, {args.batch} per task", egghead,
                lambda a, b: a == b, partial(egg.warm, setup, ids))
    return 0


if __name__ == "__main__":
    sys.exit(main())
