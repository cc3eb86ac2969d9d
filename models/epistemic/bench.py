"""``sleuth experiment epistemic``: median CPU seconds of the classic and the event-model puzzles, against the
plain explicit-state Python reference run in the same process, with peak memory for muddy children.
SMCDEL's published timings (van Benthem, van Eijck, Gattinger, Su 2018) are not stored with sleuth: the
figures quoted below are the ones the project noted earlier, for orientation only."""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from sleuth.puzzle import load_data, load_puzzle
from sleuth.resources import example_path

from . import classic, reference, russian

# SMCDEL (symbolic model checker for DEL, Haskell + BDDs), published on an older desktop CPU.
SMCDEL = {"sum-and-product": "0.98 s", "what-sum": "0.22-0.83 s for bounds 10-50",
          "muddy": "timings only plotted, not stored here; its BDD versions run 3..40 children, "
                   "the explicit DEMO-S5 3..12"}


def median_time(fn: Callable[[], Any], runs: int) -> tuple[float, Any]:
    """Median CPU seconds of ``runs`` calls (CPU, not wall: the machine is shared)."""
    times, result = [], None
    for _ in range(runs):
        t = time.process_time()
        result = fn()
        times.append(time.process_time() - t)
    return statistics.median(times), result


def peak_mib(fn: Callable[[], Any]) -> float:
    """Peak traced memory of one call (numpy arrays included), in MiB."""
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2 ** 20
    finally:
        tracemalloc.stop()


def solve_worlds(doc: dict[str, Any]) -> int:
    report = load_data(doc, file="<bench>").solve()
    return int(report.fields["count"])


def verify_file(name: str) -> int:
    """Verify a bundled puzzle's claims; the number that came out as expected."""
    with example_path(f"epistemic/{name}") as path:
        puzzle = load_puzzle(path)
    return sum(r.ok for r in puzzle.verify(puzzle.claims))


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="sleuth experiment epistemic", description=__doc__)
    ap.add_argument("--runs", type=int, default=5, help="runs per workload (median reported)")
    ap.add_argument("--bounds", default="10,20,30,40,50,100,150,200", help="What Sum bounds")
    ap.add_argument("--children", default="8,10,12,14,16,18,20", help="muddy children sizes")
    ap.add_argument("--ref-children", type=int, default=14, help="largest muddy children size for the reference")
    ap.add_argument("--memory", action="store_true", help="also trace the peak memory of muddy children")
    ap.add_argument("--no-reference", action="store_true", help="skip the plain Python reference")
    ap.add_argument("--no-events", action="store_true", help="skip the event-model puzzles")
    args = ap.parse_args(argv)
    runs = max(1, args.runs)
    print(f"median CPU seconds of {runs} runs; 'ref' is the plain explicit-state Python loop in this process")
    print(f"{'workload':<44}{'worlds':>9}{'sleuth s':>11}{'ref s':>10}{'ref/sleuth':>12}")

    def row(name: str, work: Callable[[], Any], ref: Callable[[], Any] | None = None,
            ref_count: Callable[[Any], int] = len) -> None:
        t, count = median_time(work, runs)
        if args.no_reference or ref is None:
            print(f"{name:<44}{count:>9}{t:>11.4f}")
            return
        rt, rres = median_time(ref, runs)
        agree = "" if ref_count(rres) == count else "  MISMATCH"
        print(f"{name:<44}{count:>9}{t:>11.4f}{rt:>10.4f}{rt / max(t, 1e-9):>11.1f}x{agree}")

    row("sum and product", lambda: solve_worlds(classic.sum_and_product()), reference.sum_and_product)
    print(f"  (SMCDEL: {SMCDEL['sum-and-product']})")
    for b in [int(x) for x in args.bounds.split(",") if x]:
        row(f"what sum, bound {b}", lambda b=b: solve_worlds(classic.what_sum(b)), lambda b=b: reference.what_sum(b))
    print(f"  (SMCDEL: {SMCDEL['what-sum']})")
    for n in [int(x) for x in args.children.split(",") if x]:
        # worst case: every child muddy, n - 1 rounds of silence; 'worlds' is what is left at the end
        row(f"muddy children n={n}, all muddy", lambda n=n: solve_worlds(classic.muddy_children(n, n)),
            (lambda n=n: reference.muddy_children(n, n)) if n <= args.ref_children else None,
            lambda r, n=n: 1 if r[0] == n - 1 else -1)
        if args.memory:
            print(f"  peak memory {peak_mib(lambda n=n: solve_worlds(classic.muddy_children(n, n))):.0f} MiB "
                  f"({2 ** n} worlds x {n} variables)")
    print(f"  (SMCDEL: {SMCDEL['muddy']})")
    if args.no_events:
        return 0
    print("event models, common knowledge, after(): 'worlds' is the number of claims verified as expected")
    for name in ("russian-cards", "dining-cryptographers", "drinking-logicians", "consecutive-numbers",
                 "muddy-children-some-hear", "sally-anne", "gossip-4"):
        row(f"verify {name}", lambda name=name: verify_file(name))
    row("russian cards: safe announcements (SMCDEL 102)", lambda: len(russian.safe_announcements()))
    row("drinking logicians n=10 (SMCDEL thirstyCheck)",
        lambda: int(load_data(classic.drinking_logicians(10)).final_state(after=0).truth(
            classic.drinking_check(10)).sum()))
    for n in (8, 10, 12, 14):
        # only child 1 hears the father (semi-private); n - 1 rounds of silence, then children 2..n know
        row(f"muddy children n={n}, all muddy, 1 hears", lambda n=n: len(load_data(
            classic.muddy_some_hear(n, n, 1, n - 1)).solve().fields["knowers"][-1]["know"]),
            (lambda n=n: reference.muddy_some_hear(n, n, 1)) if n <= 8 else None, lambda r: len(r[-1]))
    return 0
