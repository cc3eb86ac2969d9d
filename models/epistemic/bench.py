"""``sleuth experiment epistemic``: median wall times of the classic puzzles, against the plain
explicit-state Python reference run in the same process (and SMCDEL's published figures as an anchor).

Each workload (one puzzle at one size, sleuth and the reference) is one task of :mod:`sleuth.executor`; both
are timed where the task runs, so the ratio holds on any worker.  ``--plot`` draws time against size."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, int_list
from sleuth.figures import check_target, pyplot, save
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


def workload(job: tuple[str, int, int, bool]) -> dict[str, Any]:
    """One task: a puzzle (``sum-and-product``, ``what-sum`` or ``muddy``) at one size, by sleuth and, unless
    ``skip_reference``, by the reference; median seconds of ``runs`` runs and the worlds left."""
    kind, size, runs, skip_reference = job
    if kind == "sum-and-product":
        doc, ref, count = classic.sum_and_product(), reference.sum_and_product, len
    elif kind == "what-sum":
        doc, ref, count = classic.what_sum(size), (lambda: reference.what_sum(size)), len
    else:  # every child muddy, n - 1 rounds of silence; 'worlds' is what is left at the end
        doc, ref = classic.muddy_children(size, size), (lambda: reference.muddy_children(size, size))
        count = lambda r: 1 if r[0] == size - 1 else -1
    t, worlds = median_time(lambda: solve_worlds(doc), runs)
    out = {"kind": kind, "size": size, "worlds": worlds, "seconds": t}
    if not skip_reference:
        rt, result = median_time(ref, runs)
        out.update(reference_seconds=rt, agree=count(result) == worlds)
    return out


def plot(path: str, rows: Sequence[dict[str, Any]], runs: int) -> None:
    """Median seconds against the puzzle's size, sleuth and the reference, one panel per family."""
    plt = pyplot()
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.8))
    for ax, kind, xlabel in ((axes[0], "what-sum", "bound (values 1..bound)"),
                             (axes[1], "muddy", "children (all muddy)")):
        mine = [r for r in rows if r["kind"] == kind]
        xs = [r["size"] for r in mine]
        ax.plot(xs, [r["seconds"] for r in mine], marker="o", color="tab:blue", label="sleuth")
        if mine and "reference_seconds" in mine[0]:
            ax.plot(xs, [r["reference_seconds"] for r in mine], marker="s", ls="--", color="tab:orange",
                    label="plain Python reference")
        ax.set_yscale("log")
        ax.set(xlabel=xlabel, ylabel="median seconds (log scale)",
               title="What Sum" if kind == "what-sum" else "Muddy children")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
    snp = next((r for r in rows if r["kind"] == "sum-and-product"), None)
    note = f"; Sum and Product: sleuth {snp['seconds']:.3f} s" if snp else ""
    fig.suptitle(f"Epistemic puzzles: median of {runs} runs{note}")
    fig.tight_layout()
    save(fig, path)


def main(argv: list[str]) -> int:
    ap = ExperimentParser(prog="sleuth experiment epistemic", description=__doc__)
    ap.add_argument("--runs", type=bounded(int, 1, 1000), default=5, help="runs per workload (median reported)")
    ap.add_argument("--bounds", type=int_list(2, 400), default=[10, 20, 30, 40, 50, 100, 150, 200],
                    help="What Sum bounds (2 to 400)")
    ap.add_argument("--children", type=int_list(2, 20), default=[3, 4, 6, 8, 10, 12, 14, 16],
                    help="muddy children sizes (2 to 20)")
    ap.add_argument("--no-reference", action="store_true", help="skip the plain Python reference")
    add_run_options(ap)
    args = ap.parse_args(argv)
    check_target(args.plot)
    jobs = [("sum-and-product", 100, args.runs, args.no_reference),
            *(("what-sum", b, args.runs, args.no_reference) for b in args.bounds),
            *(("muddy", n, args.runs, args.no_reference) for n in args.children)]
    with Executor.from_args(args, "epistemic") as ex:
        rows = ex.map(workload, jobs, label="workloads", unit="workload")
    print(f"median of {args.runs} runs; 'ref' is the plain explicit-state Python loop in the same process")
    print(f"{'workload':<34}{'worlds':>9}{'sleuth s':>11}{'ref s':>10}{'ref/sleuth':>12}")
    names = {"sum-and-product": lambda n: "sum and product", "what-sum": lambda n: f"what sum, bound {n}",
             "muddy": lambda n: f"muddy children n={n}, all muddy"}
    for i, r in enumerate(rows):
        line = f"{names[r['kind']](r['size']):<34}{r['worlds']:>9}{r['seconds']:>11.4f}"
        if "reference_seconds" in r:
            rt = r["reference_seconds"]
            line += f"{rt:>10.4f}{rt / r['seconds']:>11.1f}x" + ("" if r["agree"] else "  MISMATCH")
        print(line)
        nxt = rows[i + 1]["kind"] if i + 1 < len(rows) else None
        if r["kind"] == "sum-and-product":
            print(f"  (SMCDEL: {SMCDEL['sum-and-product']})")
        elif r["kind"] == "what-sum" and nxt != "what-sum":
            print(f"  (SMCDEL: {SMCDEL['what-sum']})")
    if args.plot:
        plot(args.plot, rows, args.runs)
    return 0
