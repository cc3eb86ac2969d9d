"""Benchmark of the code-breaking table's symmetric search (prints figures; not a test).

    python tests/bench/bench_symmetry.py [--repeat 3] [--cells mastermind:4x6,bullscows:4x7,bullscows:5x6]
        [--levels 2] [--bulls-class] [--iso]

Per cell: the CPU seconds (median over ``--repeat`` fresh searches, after one untimed call that loads the
compiled kernel) of the exact optimum with one guess per orbit of the symmetries fixing the guesses made
(``by_class`` off: the search before the class symmetries) and with the orbits joined by the symmetries that
keep each class (on), the ratio, kernel calls and nodes.  ``--bulls-class``: the same for one class of Bulls
and Cows with 4 of 10 digits (408 codes, after 0123 then 1045 with the largest feedback classes) at
``--symmetry`` 3 and 4, the case that makes the 4-of-10 cell slow.  ``--iso``: per cell, the search without and
with the values of isomorphic classes shared (class symmetries on), e.g. ``--cells black:3x6,mastermind:3x8
--levels 3 --iso``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sleuth.models.motus.codes import PegSpace, chosen_cells  # noqa: E402
from sleuth.models.motus.symmetry import SymmetricSearch  # noqa: E402


def cell_run(space: PegSpace, levels: int, by_class: bool, iso: bool = True) -> tuple[float, int, int, int | None]:
    s = SymmetricSearch(space, levels=levels, by_class=by_class, iso=iso)
    s.search.value(s.search.pool[:3])  # loads the compiled kernel (untimed)
    cpu = time.process_time()
    r = s.result()
    return time.process_time() - cpu, r["kernel_calls"], r["nodes"], r["total"]


def bulls_class(levels: int, by_class: bool) -> tuple[float, int, int, int | None]:
    space = PegSpace(pegs=4, colours=10, family="bullscows")
    s = SymmetricSearch(space, levels=levels, by_class=by_class)
    m = s.search.matrix
    first, second = space.guess_index["0123"], space.guess_index["1045"]
    answers = np.arange(len(space.answers))
    for g in (first, second):
        codes = m[g, answers]
        values, counts = np.unique(codes, return_counts=True)
        answers = answers[codes == values[np.argmax(counts)]]
    s.search.value(answers[:3])
    cpu = time.process_time()
    value, _ = s.class_value([first, second], answers, 1 << 30)
    return time.process_time() - cpu, s.calls, s.search.nodes, value


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--cells", default="mastermind:4x6,bullscows:4x7,bullscows:5x6")
    ap.add_argument("--levels", type=int, default=2)
    ap.add_argument("--bulls-class", action="store_true")
    ap.add_argument("--iso", action="store_true", help="compare without and with isomorphic classes shared")
    args = ap.parse_args()
    jobs = [(f"{f}:{p}x{c}", lambda on, f=f, p=p, c=c: cell_run(PegSpace(pegs=p, colours=c, family=f),
                                                                  args.levels, on or args.iso, not args.iso or on))
            for f, p, c in chosen_cells(args.cells, ("mastermind", "black", "bullscows"))]
    if args.bulls_class and not args.iso:
        jobs += [(f"bulls 4x10 class of 408, levels {lv}", lambda by, lv=lv: bulls_class(lv, by)) for lv in (3, 4)]
    what = "iso" if args.iso else "by_class"
    print(f"{'case':<36} {what:>8} {'CPU s':>8} {'calls':>8} {'nodes':>10} {'value':>7}")
    for name, run in jobs:
        medians = {}
        for by in (False, True):
            runs = [run(by) for _ in range(args.repeat)]
            medians[by] = statistics.median(r[0] for r in runs)
            _, calls, nodes, value = runs[-1]
            print(f"{name:<36} {str(by):>8} {medians[by]:>8.2f} {calls:>8} {nodes:>10} {value!s:>7}", flush=True)
        print(f"{'':<36} {'ratio':>8} {medians[False] / max(medians[True], 1e-9):>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
