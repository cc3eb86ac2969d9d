"""``sleuth experiment epistemic``: median CPU seconds of the classic and the event-model puzzles, against the
plain explicit-state Python reference run in the same process, with peak memory for muddy children on request.

Each workload (one puzzle at one size, sleuth and the reference) is one task of :mod:`sleuth.executor`; both
are timed where the task runs, so the ratio holds on any worker.  ``--plot`` draws time against size.
SMCDEL's published timings (van Benthem, van Eijck, Gattinger, Su 2018) are not stored with sleuth: the
figures quoted below are the ones the project noted earlier, for orientation only."""

from __future__ import annotations

import statistics
import time
import tracemalloc
from functools import partial
from collections.abc import Callable, Sequence
from typing import Any

from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, int_list
from sleuth.figures import check_target, pyplot, save
from sleuth.formula import parse
from sleuth.loading import load_data, load_puzzle
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


def _muddy_worlds(n: int) -> int:
    """The muddy children (all ``n`` muddy) solved from the document built in code."""
    return solve_worlds(classic.muddy_children(n, n))


REF_CHILDREN = 14   # the plain reference is run up to this many muddy children
EVENT_FILES = ("russian-cards", "dining-cryptographers", "drinking-logicians", "consecutive-numbers",
               "muddy-children-some-hear", "sally-anne", "gossip-4")


def verify_file(name: str) -> int:
    """Verify a bundled puzzle's claims; the number that came out as expected."""
    with example_path(f"epistemic/{name}") as path:
        puzzle = load_puzzle(path)
    return sum(r.ok for r in puzzle.verify(puzzle.claims))


def _verify_job(name: str) -> Callable[[int], Callable[[], int]]:
    """The benchmark job that verifies one bundled file (the same at every size)."""
    return lambda n: lambda: verify_file(name)


EVENT_KINDS: dict[str, Callable[[int], Callable[[], int]]] = {
    **{f"verify:{name}": _verify_job(name) for name in EVENT_FILES},
    "russian": lambda n: lambda: len(russian.safe_announcements()),
    "drinking": lambda n: lambda: classic.load_epistemic(classic.drinking_logicians(n)).final_state(after=0).judge(
        parse(classic.drinking_check(n)))[0],
    # only child 1 hears the father (semi-private); n - 1 rounds of silence, then children 2..n know
    "muddy-hear": lambda n: lambda: len(load_data(classic.muddy_some_hear(n, n, 1, n - 1)).solve()
                                         .fields["knowers"][-1]["know"]),
}
EVENT_REFERENCES: dict[str, Callable[[int], Callable[[], Any]]] = {
    "muddy-hear": lambda n: lambda: reference.muddy_some_hear(n, n, 1)}


def workload(job: tuple[str, int, int, bool]) -> dict[str, Any]:
    """One task: a puzzle (``sum-and-product``, ``what-sum`` or ``muddy``) at one size, by sleuth and, unless
    ``skip_reference``, by the reference; median seconds of ``runs`` runs and the worlds left."""
    kind, size, runs, skip_reference = job
    if kind in EVENT_KINDS:
        t, worlds = median_time(EVENT_KINDS[kind](size), runs)
        out: dict[str, Any] = {"kind": kind, "size": size, "worlds": worlds, "seconds": t}
        ref_of = EVENT_REFERENCES.get(kind)
        if ref_of is not None and not skip_reference and size <= 8:
            rt, result = median_time(ref_of(size), runs)
            out.update(reference_seconds=rt, agree=len(result[-1]) == worlds)
        return out
    doc: dict[str, Any]
    ref: Callable[[], Any]
    count: Callable[[Any], int]
    if kind == "sum-and-product":
        doc, ref, count = classic.sum_and_product(), reference.sum_and_product, len
    elif kind == "what-sum":
        doc, ref, count = classic.what_sum(size), (lambda: reference.what_sum(size)), len
    else:  # every child muddy, n - 1 rounds of silence; 'worlds' is what is left at the end
        doc, ref = classic.muddy_children(size, size), (lambda: reference.muddy_children(size, size))
        count = lambda r: 1 if r[0] == size - 1 else -1
    t, worlds = median_time(lambda: solve_worlds(doc), runs)
    out = {"kind": kind, "size": size, "worlds": worlds, "seconds": t}
    if kind == "muddy" and size > REF_CHILDREN:
        skip_reference = True
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
    ap.add_argument("--no-events", action="store_true", help="skip the event-model puzzles")
    ap.add_argument("--memory", action="store_true", help="also trace the peak memory of muddy children")
    add_run_options(ap)
    args = ap.parse_args(argv)
    check_target(args.plot)
    jobs = [("sum-and-product", 100, args.runs, args.no_reference),
            *(("what-sum", b, args.runs, args.no_reference) for b in args.bounds),
            *(("muddy", n, args.runs, args.no_reference) for n in args.children)]
    if not args.no_events:
        jobs += [(f"verify:{name}", 0, args.runs, True) for name in EVENT_FILES]
        jobs += [("russian", 0, args.runs, True), ("drinking", 10, args.runs, True),
                 *(("muddy-hear", n, args.runs, args.no_reference) for n in (8, 10, 12, 14))]
    with Executor.from_args(args, "epistemic") as ex:
        rows = ex.map_tasks(workload, jobs, label="workloads", unit="workload")
    print(f"median of {args.runs} runs; 'ref' is the plain explicit-state Python loop in the same process")
    print(f"{'workload':<34}{'worlds':>9}{'sleuth s':>11}{'ref s':>10}{'ref/sleuth':>12}")
    names: dict[str, Callable[[int], str]] = {
             "sum-and-product": lambda n: "sum and product", "what-sum": lambda n: f"what sum, bound {n}",
             "muddy": lambda n: f"muddy children n={n}, all muddy",
             "russian": lambda n: "russian cards: safe announcements (SMCDEL 102)",
             "drinking": lambda n: f"drinking logicians n={n} (thirstyCheck)",
             "muddy-hear": lambda n: f"muddy children n={n}, 1 hears"}
    for i, r in enumerate(rows):
        label = f"verify {r['kind'][7:]} (claims ok)" if r["kind"].startswith("verify:") else \
            names[r["kind"]](r["size"])
        line = f"{label:<34}{r['worlds']:>9}{r['seconds']:>11.4f}"
        if "reference_seconds" in r:
            rt = r["reference_seconds"]
            line += f"{rt:>10.4f}{rt / r['seconds']:>11.1f}x" + ("" if r["agree"] else "  MISMATCH")
        print(line)
        nxt = rows[i + 1]["kind"] if i + 1 < len(rows) else None
        if r["kind"] == "sum-and-product":
            print(f"  (SMCDEL: {SMCDEL['sum-and-product']})")
        elif r["kind"] == "what-sum" and nxt != "what-sum":
            print(f"  (SMCDEL: {SMCDEL['what-sum']})")
    if args.memory:
        for n in args.children:
            print(f"  muddy children n={n}: peak memory "
                  f"{peak_mib(partial(_muddy_worlds, n)):.0f} MiB")
    if args.plot:
        plot(args.plot, [r for r in rows if r["kind"] in ("sum-and-product", "what-sum", "muddy")], args.runs)
    return 0
