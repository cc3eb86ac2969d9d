"""Studies behind ``sleuth experiment motus | emi | wordle``.

* ``motus``: every word of the chosen cells played with every method under the seed's rules (Table 4);
* ``emi``: the Evil Motus Index of every (length, first letter) cell (Table 1), with a time limit per cell;
  cells that do not finish print their proven bounds, never a guess;
* ``wordle``: Wordle answers and Mastermind codes played with every method, Knuth's strategy included,
  and the feedback-matrix throughput against the pair-by-pair reference.

Each runs on :mod:`sleuth.executor` (one task per cell, or per game and method): ``--workers N`` /
``--cluster ADDRESS`` / ``--resume FILE``, progress on a terminal, ``--plot FILE.png`` (:mod:`.plot`).
Figures are medians over ``--repeat`` runs where timed.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sleuth.errors import PuzzleError
from sleuth.executor import Executor, ExperimentParser, add_run_options, bounded, comma_list, ints
from sleuth.figures import check_target
from sleuth.jit import compile_lock
from sleuth.timing import peak_memory_mb

from . import feedback as fb
from . import strategy as st
from .emi import GameTree, SearchTimeout, Value, plan_search
from .space import CellJob, Space, WordSpace, cell_spaces
from .words import ALPHABET

SEED_TABLE4 = {  # method: (average, fails, worst case) as printed in the seed (ODS5, 212,017 words)
    "sumgini": (2.8145, 53, 8), "possible-gmax": (2.8779, 560, 13), "sum": (2.9834, 81, 8),
    "gmax": (3.0117, 75, 7), "max": (3.0482, 76, 7), "bobo": (3.2852, 1730, 11), "gini": (3.5434, 2069, 9),
    "entropy": (3.7225, 6596, 10), "minimax": (3.3952, None, 7),
}
SEED_TABLE1 = {  # length: EMI per first letter A..Z without E (the seed's columns)
    5: "5 5 7 5 4 5 4 4 4 4 5 5 5 4 5 3 6 5 5 3 5 3 3 3 4",
    6: "5 5 5 5 4 4 4 4 4 4 4 5 4 4 4 4 5 4 4 3 4 3 3 3 3",
    7: "5 5 4 5 4 4 4 4 4 4 4 4 4 4 4 4 5 4 4 3 4 3 2 3 3",
    8: "4 4 4 4 4 4 4 4 3 3 4 4 3 4 4 3 4 4 4 3 4 3 2 3 3",
    9: "4 4 4 4 4 4 3 4 3 3 4 4 3 3 4 3 4 4 4 3 4 3 2 3 3",
    10: "4 4 4 4 4 4 3 4 3 3 4 4 3 3 4 3 4 4 4 3 3 3 2 3 3",
}
SEED_LETTERS = "ABCDFGHIJKLMNOPQRSTUVWXYZ"


def _ranges(text: str, lo: int, hi: int, what: str) -> list[int]:
    return ints(text, lo, hi, f"--{what}", spans=True, allowed=f"{lo} to {hi}, e.g. 5-10 or 5,7")


def _letters(text: str) -> list[str]:
    text = text.upper()
    out: list[str] = []
    for part in comma_list(text) or [""]:
        a, dash, b = part.partition("-")
        b = b if dash else a
        if len(a) != 1 or len(b) != 1 or a not in ALPHABET or b not in ALPHABET:
            raise PuzzleError(f"cannot read {text!r}", place="--letters", allowed="letters, e.g. A-Z or A,C,X")
        out.extend(ALPHABET[ALPHABET.index(a): ALPHABET.index(b) + 1])
    return sorted(set(out))


def _methods(text: str) -> list[st.Method]:
    return [st.parse_method(m, "--methods") for m in comma_list(text)]


# -- the study (Table 4) -------------------------------------------------------------------------------------

@dataclass
class Tally:
    words: int = 0
    total: int = 0
    fails: int = 0
    worst: int = 0
    seconds: float = 0.0
    histogram: dict[int, int] = field(default_factory=dict)

    def merge(self, other: Tally) -> None:
        self.words += other.words
        self.total += other.total
        self.fails += other.fails
        self.worst = max(self.worst, other.worst)
        self.seconds += other.seconds
        for k, v in other.histogram.items():
            self.histogram[k] = self.histogram.get(k, 0) + v

    def add(self, result: st.CellResult, seconds: float) -> None:
        self.words += result.tries.size
        self.total += result.total
        self.fails += result.fails
        self.worst = max(self.worst, result.worst)
        self.seconds += seconds
        for k, v in zip(*np.unique(result.tries, return_counts=True), strict=True):
            self.histogram[int(k)] = self.histogram.get(int(k), 0) + int(v)

    @property
    def average(self) -> float:
        return self.total / self.words if self.words else 0.0


Timing = dict[str, float]


def _itemsize(space: Space) -> int:
    """Bytes per feedback code of the space's matrix (word cells: by word length)."""
    return np.dtype(fb.code_dtype(space.length)).itemsize if isinstance(space, WordSpace) else 2


def study_cell(space: Space, methods: Sequence[st.Method], *, time_limit: float = 60.0,
               memo: dict[str, Any] | None = None) -> tuple[dict[st.Method, Tally], Timing, list[str]]:
    """Play every answer of one space with every method: tallies per method, timings, and notes (the
    methods that timed out, left out of their tally).  ``memo``: the space's matrix and class-size statistics
    are kept there for the next call on the same space (another group of methods), instead of freed."""
    tallies = {m: Tally() for m in methods}
    notes: list[str] = []
    shape = (len(space.guesses), len(space.answers))
    st.check_matrix(*shape, _itemsize(space), stats=any(m is not st.Method.MINIMAX for m in methods))
    if st.Method.MINIMAX in methods:
        plan_search(*shape, matrix=True, itemsize=_itemsize(space))
    t0 = time.perf_counter()
    matrix = space.matrix()
    timing = {"matrix": time.perf_counter() - t0, "pairs": float(matrix.size)}
    t0 = time.perf_counter()
    possible = np.zeros(matrix.shape[0], dtype=bool)
    possible[space.answer_rows] = True
    plain = [m for m in methods if m is not st.Method.MINIMAX]
    stats = (memo or {}).get("stats")
    if stats is None and len(space.answers) > 2 and plain:
        stats = st.row_stats(matrix)
        if memo is not None:
            memo["stats"] = stats
    firsts: dict[st.Method, int] = {m: st.choose(matrix, possible, m, stats=stats) for m in plain}
    timing["first"] = time.perf_counter() - t0
    for method in methods:
        t0 = time.perf_counter()
        tree = GameTree(matrix, space.found, time_limit=time_limit) if method is st.Method.MINIMAX else None
        minimax = None if tree is None else (lambda rows, poss, _t=tree: _t.optimal_rows(rows, poss))
        try:
            result = st.play_all(matrix, space.answer_rows, space.found, method, space.tries,
                                 first=firsts.get(method), minimax=minimax)
        except SearchTimeout:
            notes.append(f"{space.label}: {method.title} timed out (left out of its tally)")
            continue
        tallies[method].add(result, time.perf_counter() - t0)
    if hasattr(space, "_matrix") and memo is None:
        space._matrix = None  # free the cell's matrix before the next one
    return tallies, timing, notes


def merge(parts: Iterable[tuple[dict[st.Method, Tally], Timing, list[str]]], methods: Sequence[st.Method]
          ) -> tuple[dict[st.Method, Tally], Timing, list[str]]:
    """The tallies, timings and notes of several cells added up (in the order given)."""
    tallies = {m: Tally() for m in methods}
    timing = {"matrix": 0.0, "first": 0.0, "pairs": 0.0}
    notes: list[str] = []
    for part, part_timing, part_notes in parts:
        for m, t in part.items():
            tallies[m].merge(t)
        for k, v in part_timing.items():
            timing[k] += v
        notes.extend(part_notes)
    return tallies, timing, notes


def study(spaces: Iterable[Space], methods: Sequence[st.Method], *, time_limit: float = 60.0
          ) -> tuple[dict[st.Method, Tally], Timing]:
    """Play every answer of every space with every method, serially; tallies per method and timings."""
    tallies, timing, notes = merge((study_cell(s, methods, time_limit=time_limit) for s in spaces), methods)
    for note in notes:
        print(note, file=sys.stderr)
    return tallies, timing


StudyJob = tuple[CellJob, tuple[str, ...], float, int]  # a cell, a group of methods, the minimax limit, the part


# CPU seconds per method on the largest cell of lengths 7-8 (R, 8 letters: 6303 x 6303 = 40 million pairs),
# measured once; a task's cost is taken as proportional to its cell's pairs.  Only the split and the order
# of the tasks use them (the results do not depend on either).
METHOD_COST = {"sum": 1.4, "max": 1.7, "gmax": 1.9, "gini": 15.0, "entropy": 5.5, "bobo": 0.3, "sumgini": 1.6,
               "possible-gmax": 0.8, "information": 3.3, "minimax": 20.0}
CELL_COST = 2.6  # the feedback matrix and the class-size statistics of a cell (paid by each of its tasks)
COST_PAIRS = 6303 * 6303
PARTS = 24  # a cell is split until no task of it costs much more than the whole study over PARTS
MIN_TASK_COST = 2.0  # ... or than this many estimated CPU seconds (a small study is not worth splitting)


def study_jobs(spaces: Sequence[WordSpace], methods: Sequence[st.Method], time_limit: float
               ) -> tuple[list[StudyJob], list[float], list[float]]:
    """The tasks of a study, their weights in words (progress) and their estimated costs (the longest goes
    first).  A cell whose cost is large against the whole study is split into groups of methods, balanced
    by :data:`METHOD_COST` (heaviest method first into the lightest group); the split depends only on the
    cells and the methods, never on the number of workers, so a results file resumes with any."""
    def cost(space: Space, names: Sequence[str]) -> float:
        scale = len(space.guesses) * len(space.answers) / COST_PAIRS
        return scale * (CELL_COST + sum(METHOD_COST.get(n, 2.0) for n in names))

    names = [m.value for m in methods]
    target = max(MIN_TASK_COST, sum(cost(s, names) for s in spaces) / PARTS)
    jobs: list[StudyJob] = []
    weights: list[float] = []
    costs: list[float] = []
    for space in spaces:
        whole = cost(space, names)
        groups: list[list[str]] = [[] for _ in range(min(len(names), max(1, math.ceil(whole / target))))]
        for name in sorted(names, key=lambda n: -METHOD_COST.get(n, 2.0)):
            min(groups, key=lambda g: sum(METHOD_COST.get(n, 2.0) for n in g)).append(name)
        groups = [g for g in groups if g]
        for part, group in enumerate(groups):
            ordered = tuple(n for n in names if n in group)
            jobs.append((CellJob.of(space), ordered, time_limit, part))
            weights.append(len(space.answers) * len(group) / len(names))
            costs.append(cost(space, ordered))
    return jobs, weights, costs


_PREPARED: dict[CellJob, tuple[Space, dict[str, Any]]] = {}  # the last cell a task used (one)


def _study_task(job: StudyJob) -> tuple[dict[st.Method, Tally], Timing, list[str]]:
    """One task of ``experiment motus``: one (length, first letter) cell of a dictionary, a group of methods.
    The cell's matrix and statistics stay in this process for the next task on the same cell (serially:
    the cell's other groups come next)."""
    cell, methods, time_limit, part = job
    if cell not in _PREPARED:
        _PREPARED.clear()
        _PREPARED[cell] = (cell.space(), {})
    space, memo = _PREPARED[cell]
    tallies, timing, notes = study_cell(space, [st.Method(m) for m in methods], time_limit=time_limit, memo=memo)
    if part:
        timing["pairs"] = 0.0  # the cell's pairs are counted once, by its first part
    return tallies, timing, notes


def _cell_options(ap: argparse.ArgumentParser, lengths: str, dictionaries: str) -> None:
    ap.add_argument("--dictionary", default="fr", help=f"{dictionaries} (default fr)")
    ap.add_argument("--lengths", default=lengths, help=f"word lengths, e.g. 5-10 or 7,8 (default {lengths})")
    ap.add_argument("--letters", default="A-Z", help="first letters, e.g. A-Z or L,X (default A-Z)")
    add_run_options(ap, jobs_alias=True)


def main_study(argv: list[str]) -> int:
    ap = ExperimentParser(prog="sleuth experiment motus",
                          description="Every word of the chosen cells with every method (the source paper's Table 4).")
    _cell_options(ap, "5-10", "fr | wordle | a word-list path")
    ap.add_argument("--methods", default=",".join(m.value for m in st.Method if m is not st.Method.MINIMAX),
                    help="comma-separated methods (default: all but minimax)")
    ap.add_argument("--time-limit", type=bounded(float, 0, 10**6, above=True), default=60.0,
                    help="seconds per cell for minimax")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--optimal", action="store_true",
                    help="the exact optimal total of each cell instead (proven bounds past --node-limit)")
    ap.add_argument("--node-limit", type=bounded(int, 1, 10**12), default=1_000_000,
                    help="search nodes per cell for --optimal")
    args = ap.parse_args(argv)
    check_target(args.plot)
    lengths = _ranges(args.lengths, 2, 30, "lengths")
    spaces = cell_spaces(args.dictionary, lengths, _letters(args.letters))
    if args.optimal:
        from .optimal_study import main_cells
        return main_cells(args, spaces)
    methods = _methods(args.methods)
    total = sum(len(s.answers) for s in spaces)
    jobs, weights, costs = study_jobs(spaces, methods, args.time_limit)
    start, cpu = time.perf_counter(), time.process_time()
    with Executor.from_args(args, "motus") as ex:
        parts = ex.map_tasks(_study_task, jobs, label="words", unit="word", weights=weights, costs=costs,
                             groups=[job[0] for job in jobs])  # a cell's parts share its matrix
    _PREPARED.clear()
    tallies, timing, notes = merge(parts, methods)
    for note in notes:
        print(note, file=sys.stderr)
    wall, cpu = time.perf_counter() - start, time.process_time() - cpu + ex.stats.task_cpu * ex.distributed
    rows = sorted(tallies.items(), key=lambda kv: kv[1].average)
    if args.plot:
        from .plot import plot_study

        by_length = {n: merge([p for p, j in zip(parts, jobs, strict=True) if j[0].length == n], methods)[0]
                     for n in lengths if any(j[0].length == n for j in jobs)}
        plot_study(args.plot, tallies, by_length, f"Motus study: {total} words of {args.dictionary}, "
                                                  f"lengths {args.lengths}, letters {args.letters}")
    if args.json:
        print(json.dumps({"words": total, "cells": len(spaces), "seconds": round(wall, 1),
                          "cpu_seconds": round(cpu, 1), "workers": ex.stats.workers,
                          "matrix_seconds": round(timing["matrix"], 1), "pairs": int(timing["pairs"]),
                          "peak_memory_mb": round(peak_memory_mb()),
                          "methods": {m.value: {"average": round(t.average, 4), "fails": t.fails,
                                                "worst": t.worst, "words": t.words, "histogram": t.histogram,
                                                "seconds": round(t.seconds, 1)} for m, t in rows}}))
        return 0
    print(f"{spaces[0].cell.dictionary.source if spaces else args.dictionary}: {total} words in {len(spaces)} "
          f"cells, lengths {args.lengths}, letters {args.letters}")
    print(f"{'Method':<15}{'Average':>9}{'Fails':>8}{'Worst':>7}{'Seconds':>9}   seed: Average  Fails  Worst")
    for m, t in rows:
        seed = SEED_TABLE4.get(m.value)
        seed_txt = f"{seed[0]:>14.4f}{seed[1] if seed[1] is not None else '?':>7}{seed[2]:>7}" if seed else ""
        print(f"{m.title:<15}{t.average:>9.4f}{t.fails:>8}{t.worst:>7}{t.seconds:>9.1f}  {seed_txt}")
    print(f"total {wall:.1f}s wall, {cpu:.1f}s CPU on {ex.stats.workers} worker(s) (feedback matrices "
          f"{timing['matrix']:.1f}s for {timing['pairs']:.3g} pairs, first proposals {timing['first']:.1f}s); "
          f"peak memory {peak_memory_mb():.0f} MB{' here' if ex.distributed else ''}")
    return 0


# -- the Evil Motus Index (Table 1) ---------------------------------------------------------------------------

@dataclass(frozen=True)
class EmiCell:
    label: str
    words: int
    value: Value
    heuristic_upper: int | None = None  # worst case of the Max strategy, when the search did not finish
    cpu: float = 0.0  # CPU seconds of the cell (feedback matrix included)

    def to_json(self) -> dict[str, object]:
        upper = self.value.upper if self.value.upper is not None else self.heuristic_upper
        return {"words": self.words, "value": self.value.lower if self.value.exact else None,
                "exact": self.value.exact, "lower": self.value.lower, "upper": upper,
                "seconds": round(self.value.seconds, 2), "cpu_seconds": round(self.cpu, 2)}

    def show(self) -> str:
        if self.value.exact:
            return str(self.value.lower)
        upper = self.value.upper if self.value.upper is not None else self.heuristic_upper
        return f"{self.value.lower}-{upper}?" if upper is not None else f">={self.value.lower}?"


def evil_motus_index(space: WordSpace, time_limit: float | None, *, cpu: bool = True) -> EmiCell:
    """The exact EMI of a cell, or its proven bounds when ``time_limit`` (CPU seconds with ``cpu``, so that
    a shared machine does not change the answer) runs out."""
    cpu0 = time.process_time()
    plan_search(len(space.guesses), len(space.answers), matrix=True, itemsize=_itemsize(space))
    matrix = space.matrix()
    tree = GameTree(matrix, space.found, time_limit=time_limit,
                    clock=time.process_time if cpu else time.monotonic)
    start = time.perf_counter()
    try:
        value = tree.value()
    except SearchTimeout as exc:
        heuristic = st.play_all(matrix, space.answer_rows, space.found, st.Method.MAX, space.tries).worst
        lower = exc.lower
        return EmiCell(space.label, len(space.answers),
                       Value(lower, heuristic if heuristic == lower else None, time.perf_counter() - start),
                       heuristic, time.process_time() - cpu0)
    return EmiCell(space.label, len(space.answers), value, cpu=time.process_time() - cpu0)


_WARM: set[int] = set()


def _warm_kernel(space: WordSpace) -> None:
    """Solve a 3-word cut of the cell once per word length and process, so that compiling the search kernel
    (numba: tens of CPU seconds in a fresh process) is never charged to a cell's time limit, whichever
    worker the cell lands on."""
    if space.length in _WARM:
        return
    _WARM.add(space.length)
    codes = space.encode(list(space.answers[:3]))
    with compile_lock("motus-emi"):  # the workers of one machine compile it once
        GameTree(space.codes(codes, codes), space.found).value()


def _emi_task(job: tuple[CellJob, float | None]) -> EmiCell:
    """One task of ``experiment emi``: the index of one (length, first letter) cell."""
    cell, time_limit = job
    space = cell.space()
    plan_search(len(space.guesses), len(space.answers), matrix=True, itemsize=_itemsize(space))  # before compiling
    _warm_kernel(space)
    return evil_motus_index(space, time_limit)


def main_emi(argv: list[str]) -> int:
    ap = ExperimentParser(prog="sleuth experiment emi",
                          description="Evil Motus Index per (length, first letter) cell (the source paper's Table 1).")
    _cell_options(ap, "7-10", "fr | a word-list path")
    ap.add_argument("--time-limit", type=bounded(float, 0, 10**6, above=True), default=120.0,
                    help="CPU seconds per cell (default 120)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    check_target(args.plot)
    lengths = _ranges(args.lengths, 2, 30, "lengths")
    letters = _letters(args.letters)
    spaces = cell_spaces(args.dictionary, lengths, letters)
    jobs = [(CellJob.of(s), args.time_limit) for s in spaces]
    start = time.perf_counter()
    def prepare() -> None:  # compiled in this process, before local workers are forked from it
        for space in spaces:
            _warm_kernel(space)

    with Executor.from_args(args, "emi", prepare=prepare) as ex:
        # the largest cells first (their search is the longest, up to the time limit)
        found = ex.map_tasks(_emi_task, jobs, label="cells", unit="cell",
                       costs=[len(s.guesses) * len(s.answers) for s in spaces])
    cells = {(s.length, s.cell.first or ""): c for s, c in zip(spaces, found, strict=True)}
    wall, cpu = time.perf_counter() - start, sum(c.cpu for c in found)
    if args.plot:
        from .plot import plot_emi

        plot_emi(args.plot, cells, f"Evil Motus Index, {args.dictionary} (time limit {args.time_limit:g} CPU s "
                                   "per cell)")
    exact = sum(c.value.exact for c in cells.values())
    if args.json:
        print(json.dumps({"seconds": round(wall, 1), "cpu_seconds": round(cpu, 1), "time_limit": args.time_limit,
                          "exact": exact,
                          "cells": {f"{n}{f}": c.to_json() for (n, f), c in cells.items()},
                          "peak_memory_mb": round(peak_memory_mb())}))
        return 0
    used = [x for x in letters if any((n, x) in cells for n in lengths)]
    print("Evil Motus Index (rows: length, columns: first letter; a-b? = proven lower bound a, strategy "
          "bound b, search stopped at the time limit)")
    print("     " + "".join(f"{x:>5}" for x in used))
    for n in lengths:
        print(f"{n:>4} " + "".join(f"{cells[(n, x)].show() if (n, x) in cells else '':>5}" for x in used))
    if args.dictionary == "fr":
        print("seed (ODS5):")
        for n in lengths:
            if n in SEED_TABLE1:
                seed = dict(zip(SEED_LETTERS, SEED_TABLE1[n].split(), strict=True))
                print(f"{n:>4} " + "".join(f"{seed.get(x, '-'):>5}" for x in used))
    slow = sorted(cells.values(), key=lambda c: -c.cpu)[:3]
    print(f"{exact} of {len(cells)} cells exact in {wall:.1f}s wall, {cpu:.1f}s CPU in the cells "
          f"(time limit {args.time_limit:g} CPU s per cell, {ex.stats.workers} worker(s), each compiling the "
          "kernel once before its first cell); "
          f"slowest: " + ", ".join(f"{c.label} {c.cpu:.1f}s CPU" for c in slow)
          + f"; peak memory {peak_memory_mb():.0f} MB")
    return 0
