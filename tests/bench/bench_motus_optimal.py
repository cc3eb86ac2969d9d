"""Benchmark of the exact optimal-average search (prints figures; not a test).

    python tests/bench/bench_motus_optimal.py [--repeat 3] [--parts salet,hard,mastermind,rank,motus]
        [--motus 7M,8G,9L,10L]

Each timed run uses a fresh search (no cache carried over); the numba kernel is compiled once first and its
compile time printed apart.  CPU seconds are medians over ``--repeat`` runs (the machine is shared, so CPU
rather than wall time); nodes are the search nodes visited; peak memory is the process's maximum RSS.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--parts", default="salet,hard,mastermind,rank,motus")
    ap.add_argument("--motus", default="7M,8G,9L,10L", help="French cells, length then first letter")
    ap.add_argument("--node-limit", type=int, default=2_000_000, help="per Motus cell")
    args = ap.parse_args()
    parts = set(args.parts.split(","))
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
