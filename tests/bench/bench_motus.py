"""Benchmark of the Motus study, the Evil Motus Index and the feedback matrix (prints figures; not a test).

    python tests/bench/bench_motus.py [--study 5-10] [--emi 7-10] [--emi-time-limit 120] [--throughput 10R]

Runs each workload through the same code as ``sleuth experiment``; wall and CPU seconds are printed side
by side, since the machines this runs on are shared.  ``--study ''`` or ``--emi ''`` skips a part.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sleuth.models.motus import experiment as ex  # noqa: E402
from sleuth.models.motus import strategy as st  # noqa: E402
from sleuth.models.motus.wordle_study import throughput  # noqa: E402
from sleuth.models.motus.space import WordSpace, cell_spaces  # noqa: E402
from sleuth.models.motus.words import french  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", default="5-10", help="lengths for the study ('' to skip)")
    ap.add_argument("--letters", default="A-Z")
    ap.add_argument("--emi", default="7-10", help="lengths for the index ('' to skip)")
    ap.add_argument("--emi-time-limit", type=float, default=120.0, help="CPU seconds per cell")
    ap.add_argument("--throughput", default="10R", help="cell for the matrix throughput ('' to skip)")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    letters = ex._letters(args.letters)
    if args.throughput:
        space = WordSpace(french().cell(int(args.throughput[:-1]), args.throughput[-1]))
        tp = throughput(space, args.repeat)
        print(f"matrix {space.label}: {tp['pairs']:.3g} pairs, median {tp['median_seconds']:.2f}s of "
              f"{args.repeat} = {tp['pairs_per_second'] / 1e6:.1f} M pairs/s; reference "
              f"{tp['reference_pairs_per_second'] / 1e3:.0f} k pairs/s; ratio x{tp['ratio']:.0f}; "
              f"{tp['pairs_per_cpu_second'] / 1e6:.1f} M pairs per CPU second; "
              f"peak {ex.peak_memory_mb():.0f} MB", flush=True)
    if args.study:
        lengths = ex._ranges(args.study, 2, 30, "study")
        methods = [m for m in st.Method if m is not st.Method.MINIMAX]
        for n in lengths:
            spaces = cell_spaces("fr", [n], letters)
            wall, cpu = time.perf_counter(), time.process_time()
            tallies, timing = ex.study(spaces, methods)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            words = sum(len(s.answers) for s in spaces)
            print(f"study length {n}: {words} words, {len(spaces)} cells, wall {wall:.1f}s, cpu {cpu:.1f}s, "
                  f"matrices {timing['matrix']:.1f}s, peak {ex.peak_memory_mb():.0f} MB", flush=True)
            for m, t in sorted(tallies.items(), key=lambda kv: kv[1].average):
                print(f"  {m.value:<14} words {t.words:>6} tries {t.total:>7} average {t.average:.4f} "
                      f"fails {t.fails:>5} worst {t.worst:>3} {t.seconds:7.1f}s", flush=True)
    if args.emi:
        lengths = ex._ranges(args.emi, 2, 30, "emi")
        for n in lengths:
            for space in cell_spaces("fr", [n], letters):
                wall, cpu = time.perf_counter(), time.process_time()
                cell = ex.evil_motus_index(space, args.emi_time_limit)
                print(f"emi {space.label}: {len(space.answers)} words, value {cell.show()}, "
                      f"wall {time.perf_counter() - wall:.1f}s, cpu {time.process_time() - cpu:.1f}s", flush=True)
                space._matrix = None
    return 0


if __name__ == "__main__":
    sys.exit(main())
