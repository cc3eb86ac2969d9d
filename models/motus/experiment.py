"""Studies behind ``sleuth experiment motus | emi | wordle``.

* ``motus``: every word of the chosen cells played with every method under the seed's rules (Table 4);
* ``emi``: the Evil Motus Index of every (length, first letter) cell (Table 1), with a time limit per cell;
  cells that do not finish print their proven bounds, never a guess;
* ``wordle``: Wordle answers and Mastermind codes played with every method, Knuth's strategy included,
  and the feedback-matrix throughput against the pair-by-pair reference.

Progress goes to stderr when it is a terminal.  Figures are medians over ``--repeat`` runs where timed.
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from solver.errors import PuzzleError

from . import feedback as fb
from . import strategy as st
from .emi import GameTree, SearchTimeout, Value
from .space import CodeSpace, Space, WordSpace
from .words import ALPHABET, dictionary

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


class Progress:
    """One self-overwriting line on stderr, only when stderr is a terminal."""

    def __init__(self, total: int, what: str) -> None:
        self.total, self.what, self.done = total, what, 0
        self.start = time.monotonic()
        self.live = sys.stderr.isatty()

    def step(self, n: int, note: str = "") -> None:
        self.done += n
        if self.live:
            elapsed = time.monotonic() - self.start
            print(f"\r{self.what}: {self.done}/{self.total} ({elapsed:.0f}s) {note:<30}", end="",
                  file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.live:
            print(file=sys.stderr)


def _ranges(text: str, lo: int, hi: int, what: str) -> list[int]:
    out: list[int] = []
    try:
        for part in text.split(","):
            a, _, b = part.partition("-")
            out.extend(range(int(a), int(b or a) + 1))
    except ValueError:
        raise PuzzleError(f"cannot read {text!r}", place=f"--{what}", allowed="e.g. 5-10 or 5,7") from None
    bad = [x for x in out if not lo <= x <= hi]
    if bad or not out:
        raise PuzzleError(f"{bad[0] if bad else text} is out of range", place=f"--{what}", allowed=f"{lo} to {hi}")
    return sorted(set(out))


def _letters(text: str) -> list[str]:
    text = text.upper()
    out: list[str] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        if a not in ALPHABET or (b and b not in ALPHABET) or len(a) != 1:
            raise PuzzleError(f"cannot read {text!r}", place="--letters", allowed="letters, e.g. A-Z or A,C,X")
        out.extend(ALPHABET[ALPHABET.index(a): ALPHABET.index(b or a) + 1])
    return sorted(set(out))


def _methods(text: str) -> list[st.Method]:
    return [st.parse_method(m, "--methods") for m in text.split(",") if m.strip()]


def peak_memory_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- the study (Table 4) -------------------------------------------------------------------------------------

@dataclass
class Tally:
    words: int = 0
    total: int = 0
    fails: int = 0
    worst: int = 0
    seconds: float = 0.0
    histogram: dict[int, int] = field(default_factory=dict)

    def add(self, result: st.CellResult, seconds: float) -> None:
        self.words += result.tries.size
        self.total += result.total
        self.fails += result.fails
        self.worst = max(self.worst, result.worst)
        self.seconds += seconds
        for k, v in zip(*np.unique(result.tries, return_counts=True)):
            self.histogram[int(k)] = self.histogram.get(int(k), 0) + int(v)

    @property
    def average(self) -> float:
        return self.total / self.words if self.words else 0.0


def study(spaces: Iterable[WordSpace], methods: Sequence[st.Method], *, time_limit: float = 60.0,
          progress: Progress | None = None) -> tuple[dict[st.Method, Tally], dict[str, float]]:
    """Play every answer of every space with every method; tallies per method and timings."""
    tallies = {m: Tally() for m in methods}
    timing = {"matrix": 0.0, "first": 0.0, "pairs": 0}
    for space in spaces:
        t0 = time.perf_counter()
        matrix = space.matrix()
        timing["matrix"] += time.perf_counter() - t0
        timing["pairs"] += matrix.size
        t0 = time.perf_counter()
        possible = np.zeros(matrix.shape[0], dtype=bool)
        possible[space.answer_rows] = True
        plain = [m for m in methods if m is not st.Method.MINIMAX]
        stats = st.row_stats(matrix) if len(space.answers) > 2 and plain else None
        firsts = {m: st.choose(matrix, possible, m, stats=stats) for m in plain}
        timing["first"] += time.perf_counter() - t0
        for method in methods:
            t0 = time.perf_counter()
            tree = GameTree(matrix, space.found, time_limit=time_limit) if method is st.Method.MINIMAX else None
            minimax = None if tree is None else (lambda rows, poss, _t=tree: _t.optimal_rows(rows, poss))
            try:
                result = st.play_all(matrix, space.answer_rows, space.found, method, space.tries,
                                     first=firsts.get(method), minimax=minimax)
            except SearchTimeout:
                print(f"{space.label}: {method.title} timed out (left out of its tally)", file=sys.stderr)
                continue
            tallies[method].add(result, time.perf_counter() - t0)
        if progress:
            progress.step(len(space.answers), space.label)
        if hasattr(space, "_matrix"):
            space._matrix = None  # free the cell's matrix before the next one
    return tallies, timing


def _cells(spec: str, lengths: list[int], letters: list[str]) -> list[WordSpace]:
    words = dictionary(spec)
    out = []
    for length in lengths:
        for first in letters:
            cell = words.cell(length, first)
            if cell.answers:
                out.append(WordSpace(cell, 5 if length == 5 else 6))
    return out


def main_study(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="sleuth experiment motus",
                                 description="Every word of the chosen cells with every method (seed's Table 4).")
    ap.add_argument("--dictionary", default="fr", help="fr | wordle | a word-list path (default fr)")
    ap.add_argument("--lengths", default="5-10", help="word lengths, e.g. 5-10 or 7,8 (default 5-10)")
    ap.add_argument("--letters", default="A-Z", help="first letters, e.g. A-Z or L,X (default A-Z)")
    ap.add_argument("--methods", default=",".join(m.value for m in st.Method if m is not st.Method.MINIMAX),
                    help="comma-separated methods (default: all but minimax)")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per cell for minimax")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    lengths = _ranges(args.lengths, 2, 30, "lengths")
    spaces = _cells(args.dictionary, lengths, _letters(args.letters))
    methods = _methods(args.methods)
    total = sum(len(s.answers) for s in spaces)
    progress = Progress(total, "words")
    start = time.perf_counter()
    tallies, timing = study(spaces, methods, time_limit=args.time_limit, progress=progress)
    progress.close()
    wall = time.perf_counter() - start
    rows = sorted(tallies.items(), key=lambda kv: kv[1].average)
    if args.json:
        print(json.dumps({"words": total, "cells": len(spaces), "seconds": round(wall, 1),
                          "matrix_seconds": round(timing["matrix"], 1), "pairs": int(timing["pairs"]),
                          "peak_memory_mb": round(peak_memory_mb()),
                          "methods": {m.value: {"average": round(t.average, 4), "fails": t.fails,
                                                "worst": t.worst, "words": t.words,
                                                "seconds": round(t.seconds, 1)} for m, t in rows}}))
        return 0
    print(f"{spaces[0].cell.dictionary.source if spaces else args.dictionary}: {total} words in {len(spaces)} "
          f"cells, lengths {args.lengths}, letters {args.letters}")
    print(f"{'Method':<15}{'Average':>9}{'Fails':>8}{'Worst':>7}{'Seconds':>9}   seed: Average  Fails  Worst")
    for m, t in rows:
        seed = SEED_TABLE4.get(m.value)
        seed_txt = f"{seed[0]:>14.4f}{seed[1] if seed[1] is not None else '?':>7}{seed[2]:>7}" if seed else ""
        print(f"{m.title:<15}{t.average:>9.4f}{t.fails:>8}{t.worst:>7}{t.seconds:>9.1f}  {seed_txt}")
    print(f"total {wall:.1f}s (feedback matrices {timing['matrix']:.1f}s for {timing['pairs']:.3g} pairs, "
          f"first proposals {timing['first']:.1f}s); peak memory {peak_memory_mb():.0f} MB")
    return 0
