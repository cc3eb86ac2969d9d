"""``sleuth experiment epistemic``: median wall times of the classic puzzles, against the plain
explicit-state Python reference run in the same process (and SMCDEL's published figures as an anchor)."""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

from sleuth.puzzle import load_data

from . import classic, reference

# SMCDEL (symbolic model checker for DEL, Haskell + BDDs), published on an older desktop CPU.
SMCDEL = {"sum-and-product": "0.98 s", "what-sum": "0.22-0.83 s for bounds 10-50"}


def median_time(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(runs):
        t = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), result


def solve_worlds(doc: dict[str, Any]) -> int:
    report = load_data(doc, file="<bench>").solve()
    return int(report.fields["count"])


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="sleuth experiment epistemic", description=__doc__)
    ap.add_argument("--runs", type=int, default=5, help="runs per workload (median reported)")
    ap.add_argument("--bounds", default="10,20,30,40,50,100,150,200", help="What Sum bounds")
    ap.add_argument("--children", default="3,4,6,8,10,12,14,16", help="muddy children sizes")
    ap.add_argument("--no-reference", action="store_true", help="skip the plain Python reference")
    args = ap.parse_args(argv)
    runs = max(1, args.runs)
    print(f"median of {runs} runs; 'ref' is the plain explicit-state Python loop in this process")
    print(f"{'workload':<34}{'worlds':>9}{'sleuth s':>11}{'ref s':>10}{'ref/sleuth':>12}")

    def row(name: str, doc: dict[str, Any], ref: Callable[[], Any], ref_count: Callable[[Any], int]) -> None:
        t, count = median_time(lambda: solve_worlds(doc), runs)
        if args.no_reference:
            print(f"{name:<34}{count:>9}{t:>11.4f}")
            return
        rt, rres = median_time(ref, runs)
        agree = "" if ref_count(rres) == count else "  MISMATCH"
        print(f"{name:<34}{count:>9}{t:>11.4f}{rt:>10.4f}{rt / t:>11.1f}x{agree}")

    row("sum and product", classic.sum_and_product(), reference.sum_and_product, len)
    print(f"  (SMCDEL: {SMCDEL['sum-and-product']})")
    for b in [int(x) for x in args.bounds.split(",") if x]:
        row(f"what sum, bound {b}", classic.what_sum(b), lambda b=b: reference.what_sum(b), len)
    print(f"  (SMCDEL: {SMCDEL['what-sum']})")
    for n in [int(x) for x in args.children.split(",") if x]:
        # worst case: every child muddy, n - 1 rounds of silence; 'worlds' is what is left at the end
        row(f"muddy children n={n}, all muddy", classic.muddy_children(n, n),
            lambda n=n: reference.muddy_children(n, n), lambda r, n=n: 1 if r[0] == n - 1 else -1)
    return 0
