"""Benchmark of the exact optimal-average search (prints figures; not a test).

    python tests/bench/bench_motus_optimal.py [--repeat 3] [--parts first,salet,hard,mastermind,rank,motus]
        [--motus 7M,8G,9L,10L] [--first-runs 3] [--reference PYTHON ...]

Each timed run uses a fresh search (no cache carried over); the numba kernel is compiled once first and its
compile time printed apart.  CPU seconds are medians over ``--repeat`` runs (the machine is shared, so CPU
rather than wall time); nodes are the search nodes visited; peak memory is the process's maximum RSS.

``first``: what a fresh process pays for the kernel, in pairs of fresh processes sharing an empty kernel
cache folder (``SLEUTH_CACHE``): the first compiles the kernel, the second loads it; each prints the CPU
seconds from building its first search to the end of a tiny search (a 3-word cut of Wordle); the first then
the CPU seconds of a hard-mode search of the same cut (hard mode may have a compiled version of its own), the
second SALET's tree in normal and hard mode (CPU, nodes).  Medians over ``--first-runs`` pairs.
``--reference PYTHON`` runs the same child code with another interpreter (another checkout's environment:
the code before a change), so that before and after are measured in one run, on one machine, at one load.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sleuth.models.motus.optimal import Optimal  # noqa: E402
from sleuth.models.motus.optimal_study import MASTERMIND_OPENERS, cell_value, rank_openers  # noqa: E402
from sleuth.models.motus.space import WordSpace, game_space  # noqa: E402
from sleuth.models.motus.words import french  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def timed(make, run, repeat: int) -> tuple[int, float, int]:  # type: ignore[no-untyped-def]
    """(value, median CPU seconds, nodes) of ``run(make())`` over ``repeat`` fresh searches."""
    cpus, value, nodes = [], 0, 0
    for _ in range(repeat):
        search = make()
        c0 = time.process_time()
        value = run(search)
        cpus.append(time.process_time() - c0)
        nodes = search.nodes
    return value, statistics.median(cpus), nodes


CHILD = r"""
import json, sys, time
from sleuth.models.motus.optimal import Optimal
from sleuth.models.motus.space import WordSpace, game_space
wordle = game_space("wordle")
wordle.matrix()
tiny = WordSpace(wordle.cell.dictionary.cell(5, "Z"), 6)
c0 = time.process_time()
Optimal(tiny).value()
out = {"kernel": time.process_time() - c0}
if "hard-first" in sys.argv[1:]:  # hard mode's first search after the normal game's (its own compiled version)
    c0 = time.process_time()
    Optimal(tiny, hard=True, cap=6).value()
    out["hard-first"] = time.process_time() - c0
for name, hard, cap in (("salet", False, None), ("hard", True, 6)):
    if name in sys.argv[1:]:
        search = Optimal(wordle, hard=hard, cap=cap)
        c0 = time.process_time()
        out[name] = [search.guess_value(search.row("SALET")), time.process_time() - c0, search.nodes]
print(json.dumps(out))
"""


def first_runs(python: str, pairs: int, salet: bool) -> dict[str, float]:
    """Medians over ``pairs`` of (compiling process, loading process) of ``CHILD`` run by ``python``."""
    runs: dict[str, list[float]] = {}
    for _ in range(pairs):
        with tempfile.TemporaryDirectory() as cache:
            env = {**os.environ, "SLEUTH_CACHE": cache}
            env.pop("SLEUTH_NO_CACHE", None)
            for label in ("compile", "cached"):
                extra = ["hard-first"] if label == "compile" else ["salet", "hard"] if salet else []
                r = subprocess.run([python, "-c", CHILD, *extra], capture_output=True, text=True, env=env,
                                   check=True)
                out = json.loads(r.stdout.strip().splitlines()[-1])
                runs.setdefault(label, []).append(out["kernel"])
                if "hard-first" in out:
                    runs.setdefault("hard-first", []).append(out["hard-first"])
                for name in set(extra) - {"hard-first"}:
                    total, cpu, nodes = out[name]
                    runs.setdefault(name, []).append(cpu)
                    runs[f"{name} total"], runs[f"{name} nodes"] = [total], [nodes]
    return {k: statistics.median(v) for k, v in runs.items()}


def first_table(pythons: list[str], pairs: int) -> None:
    """The ``first`` part: one line per interpreter (the references first, this checkout's last), with ratios
    to the first line."""
    print(f"first run, medians of {pairs} pairs of fresh processes (load {os.getloadavg()[0]:.1f}); CPU seconds "
          "from the first search's start to the end of a tiny one, then SALET's tree in the loading process")
    print("(hard+: the compiling process's first hard-mode search after the normal one, on the same tiny cut)")
    print(f"{'interpreter':<40} {'compile':>8} {'hard+':>6} {'cached':>7} {'SALET':>6} {'nodes':>6} {'hard':>6} "
          f"{'nodes':>6}")
    ref = None
    for py in pythons:
        m = first_runs(py, pairs, salet=True)
        ref = ref or m
        print(f"{py[-40:]:<40} {m['compile']:8.2f} {m['hard-first']:6.2f} {m['cached']:7.2f} {m['salet']:6.2f} "
              f"{m['salet nodes']:6.0f} "
              f"{m['hard']:6.2f} {m['hard nodes']:6.0f}  (totals {m['salet total']:.0f}, {m['hard total']:.0f}; "
              f"compile x{m['compile'] / ref['compile']:.2f}, SALET x{m['salet'] / ref['salet']:.2f} of the first "
              "line)")
    print(f"load after: {os.getloadavg()[0]:.1f}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--parts", default="first,salet,hard,mastermind,rank,motus")
    ap.add_argument("--motus", default="7M,8G,9L,10L", help="French cells, length then first letter")
    ap.add_argument("--node-limit", type=int, default=2_000_000, help="per Motus cell")
    ap.add_argument("--first-runs", type=int, default=3, help="pairs of fresh processes for the part first")
    ap.add_argument("--reference", action="append", default=[],
                    help="another interpreter whose sleuth runs the part first too (before a change)")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
    if "first" in parts:
        first_table([*args.reference, sys.executable], args.first_runs)
        if parts == {"first"}:
            return 0
    wordle = game_space("wordle")
    wordle.matrix()
    c0 = time.process_time()
    Optimal(WordSpace(wordle.cell.dictionary.cell(5, "Z"), 6)).value()
    print(f"numba compile + a tiny search: {time.process_time() - c0:.1f} s CPU")
    if "salet" in parts:
        v, cpu, nodes = timed(lambda: Optimal(wordle), lambda s: s.guess_value(s.row("SALET")), args.repeat)
        print(f"Wordle SALET, normal: total {v} (anchor 7920); median {cpu:.2f} s CPU over {args.repeat}; "
              f"{nodes} nodes")
        v, cpu, nodes = timed(lambda: Optimal(wordle), lambda s: s.tree("SALET").total, 1)
        print(f"Wordle SALET, normal, with the tree built: total {v}; {cpu:.2f} s CPU; {nodes} nodes")
    if "hard" in parts:
        v, cpu, nodes = timed(lambda: Optimal(wordle, hard=True, cap=6), lambda s: s.guess_value(s.row("SALET")),
                              args.repeat)
        print(f"Wordle SALET, hard mode, cap 6: total {v} (anchor 8122); median {cpu:.2f} s CPU; {nodes} nodes")
        v, cpu, nodes = timed(lambda: Optimal(wordle, hard=True), lambda s: s.guess_value(s.row("SALET")), 1)
        print(f"Wordle SALET, hard mode, no cap: total {v}; {cpu:.2f} s CPU; {nodes} nodes")
    if "mastermind" in parts:
        mm = game_space("mastermind")
        for cap in (None, 5):
            def run(s: Optimal) -> int:
                return min(s.guess_value(s.row(o)) for o in MASTERMIND_OPENERS)
            v, cpu, nodes = timed(lambda cap=cap: Optimal(mm, cap=cap), run, 1)
            print(f"Mastermind 4x6, every opener up to symmetry, cap {cap}: optimum {v} "
                  f"(anchor {5625 if cap is None else 5626}); {cpu:.2f} s CPU; {nodes} nodes")
    if "rank" in parts:
        for cap in (None, 5):
            c0 = time.process_time()
            ranked = rank_openers(MASTERMIND_OPENERS, "mastermind", cap=cap)
            c1 = time.process_time()
            every = rank_openers(MASTERMIND_OPENERS, "mastermind", cap=cap, cutoff=False)
            shown = ", ".join(f"{r['opener']} {r['total'] if r['status'] == 'exact' else '>=' + str(r['lower'])}"
                              f" ({r['status']})" for r in ranked)
            print(f"Mastermind ranking, cap {cap}: {shown}; {c1 - c0:.2f} s CPU with the cut-off, "
                  f"{time.process_time() - c1:.2f} s without (every total: "
                  + ", ".join(f"{r['opener']} {r['total']}" for r in every) + ")")
    if "motus" in parts:
        fr = french()
        for spec in args.motus.split(","):
            length, first = int(spec[:-1]), spec[-1].upper()
            r = cell_value(WordSpace(fr.cell(length, first), 6), node_limit=args.node_limit)
            what = f"exact total {r['total']} = {r['average']}" if r["exact"] else \
                f"bounds {r['lower']}-{r['upper']} (not finished)"
            print(f"Motus {r['cell']}: {r['words']} words, {what}; {r['cpu_seconds']:.2f} s CPU; {r['nodes']} nodes")
    print(f"peak memory {peak_mb():.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
