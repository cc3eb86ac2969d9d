"""Benchmark of the word games' optimal trees and Egghead's rounds (prints figures; not a test).

    python tests/bench/bench_words_egghead.py [--python OTHER_PYTHON ...] [--rounds 40] [--five-rounds 6]
                                              [--repeat 1] [--parts egghead,salet,hard]

    # Egghead before/after: this checkout against the base's interpreter (which imports the base's code)
    python tests/bench/bench_words_egghead.py --python BASE/.venv/bin/python --parts egghead --five-rounds 40 \
        --repeat 3

Every figure is measured in a fresh child process of each interpreter given (the first column: this one; add
the interpreter of a checkout of the base commit for before/after in the same run), so that compilation,
caches and peak memory are those of a user's process:

* Egghead, 4 and 5 players, all players behavioural and one: CPU milliseconds per round (median, p95, max;
  CPU rather than wall time, the machine is shared), after the compiled kernels are loaded (their load time
  printed apart); with ``--repeat R``, each figure is the median over R children (the same seeded rounds), and
  with a second interpreter the ratio of the medians (first column / second) follows;
* Wordle from SALET, normal and hard mode (cap 6): CPU seconds of the search, nodes, the process's peak
  memory, and apart the first search of a fresh process twice: with an empty kernel cache (the compilation a
  first run after an install pays) and with the cache the first child left (what every later process pays).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

EGGHEAD = r"""
import json, resource, statistics, sys, time
time.perf_counter = time.process_time  # the rounds' clock: CPU seconds
from sleuth.models.egghead import experiment as ex
from sleuth.models.egghead.hands import Setup
from sleuth.models.egghead.questions import load_catalogue
players, ba, rounds = map(int, sys.argv[1:4])
load = ex.warm_kernel() if hasattr(ex, "warm_kernel") else 0.0
s = Setup(players, 6, 3)
qs = [q.compile_for(s) for q in load_catalogue(6)]
g = ex.simulate(s, qs, [p < ba for p in range(players)], rounds, 0)
t = sorted(x * 1000 for x in g.round_times)
print(json.dumps({"median": statistics.median(t), "p95": t[min(len(t) - 1, int(0.95 * len(t)))], "max": t[-1],
                  "load": load, "solves": sum(len(x) for x in g.solve_rounds),
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""

WORDLE = r"""
import json, resource, sys, time
hard = sys.argv[1] == "hard"
from sleuth.models.motus.optimal import Optimal
try:
    from sleuth.models.motus.space import game_space
except ImportError:
    from sleuth.models.motus.optimal import game_space
from sleuth.models.motus.space import CodeSpace
c0 = time.process_time()
Optimal(CodeSpace(pegs=2, colours=3)).value()  # the kernel: compiled, or loaded from the cache
first = time.process_time() - c0
space = game_space("wordle")
space.matrix()
search = Optimal(space, hard=hard, cap=6 if hard else None)
c0 = time.process_time()
total = search.guess_value(search.row("SALET"))
print(json.dumps({"first": first, "cpu": time.process_time() - c0, "total": total, "nodes": search.nodes,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def child(python: str, code: str, *args: str, env: dict[str, str] | None = None) -> dict[str, float]:
    out = subprocess.run([python, "-c", code, *args], capture_output=True, text=True, check=True,
                         env={**os.environ, **(env or {})})
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--python", action="append", default=[], help="another interpreter to measure (e.g. base)")
    ap.add_argument("--rounds", type=int, default=40, help="Egghead rounds with 4 players")
    ap.add_argument("--five-rounds", type=int, default=6, help="Egghead rounds with 5 players")
    ap.add_argument("--repeat", type=int, default=1, help="Egghead: children per figure (the median is printed)")
    ap.add_argument("--parts", default="egghead,salet,hard")
    args = ap.parse_args()
    pythons = [sys.executable, *args.python]
    parts = set(args.parts.split(","))
    print(f"load average {os.getloadavg()[0]:.1f} at the start; columns: " + " | ".join(pythons))
    if "egghead" in parts:
        for players, ba, rounds in [(4, 4, args.rounds), (4, 1, args.rounds), (5, 5, args.five_rounds),
                                    (5, 1, args.five_rounds)]:
            cells, medians = [], []
            runs: dict[str, list[dict[str, float]]] = {py: [] for py in pythons}
            for _ in range(max(1, args.repeat)):  # interleaved: both interpreters see the same load
                for py in pythons:
                    runs[py].append(child(py, EGGHEAD, str(players), str(ba), str(rounds)))
            for py in pythons:
                r = {key: statistics.median(x[key] for x in runs[py]) for key in runs[py][0]}
                medians.append(r["median"])
                cells.append(f"median {r['median']:7.1f}  p95 {r['p95']:7.1f}  max {r['max']:7.1f} ms CPU "
                             f"(kernels loaded in {r['load']:.2f} s, peak {r['peak_mb']:.0f} MB, "
                             f"{r['solves']:.0f} solves)")
            ratio = f"; median ratio {medians[0] / medians[1]:.2f}" if len(medians) > 1 else ""
            print(f"Egghead {players} players, {ba} BA, {rounds} rounds, load {os.getloadavg()[0]:.1f}: "
                  + " | ".join(cells) + ratio, flush=True)
    for mode in [m for m in ("salet", "hard") if m in parts]:
        cells = []
        for py in pythons:
            with tempfile.TemporaryDirectory() as cache:
                fresh = child(py, WORDLE, mode, env={"SLEUTH_CACHE": cache})
                again = child(py, WORDLE, mode, env={"SLEUTH_CACHE": cache})
            cells.append(f"total {again['total']}, {again['cpu']:.2f} s CPU, {again['nodes']} nodes, peak "
                         f"{again['peak_mb']:.0f} MB; first search of a process {fresh['first']:.1f} s CPU with an "
                         f"empty cache, {again['first']:.1f} s with the cache")
        print(f"Wordle SALET{', hard mode, cap 6' if mode == 'hard' else ''}: " + " | ".join(cells), flush=True)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
