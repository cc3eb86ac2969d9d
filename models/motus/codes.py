"""Code-breaking games beyond classic Mastermind, and their table of exact expected-case optima
(``sleuth experiment wordle --mastermind-table``).

:class:`PegSpace` is a family of code spaces over ``pegs`` positions and ``colours`` symbols:

* ``mastermind``: codes with repetition, black and white pegs (as :class:`.space.CodeSpace`);
* ``black``: codes with repetition, black pegs only (how many symbols are in their place);
* ``bullscows``: codes without a repeated symbol, bulls (in place) and cows (elsewhere): Bulls and Cows.

Each cell's optimum is :func:`.optimal_study.cell_value` (the exact search of :mod:`.optimal`: every code may
be proposed, no cap; proven bounds past a node limit).  Published values stand beside the cells that have one.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import feedback as fb
from .space import Space

SYMBOLS = "0123456789ABCDEF"
FAMILIES = ("mastermind", "black", "bullscows")
# (family, pegs, colours) -> (published optimal total, or None when only an average is published; the source)
PUBLISHED: dict[tuple[str, int, int], tuple[int | None, str]] = {
    ("mastermind", 4, 6): (5625, "Koyama and Lai: 5,625 / 1,296"),
    ("mastermind", 4, 7): (None, "Ville: 4.676 on average"),
    ("bullscows", 4, 10): (26274, "Tanaka: 26,274 / 5,040"),
}


@dataclass(eq=False)
class PegSpace(Space):
    """Every code of ``pegs`` symbols among ``colours`` (without repeats for ``bullscows``); symbols are
    written ``1..9`` as in Mastermind up to 9 colours, ``0..9`` then ``A..F`` past it."""

    pegs: int = 4
    colours: int = 6
    family: str = "mastermind"
    tries: int = 10

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"family: {', '.join(FAMILIES)}, not {self.family!r}")
        if not 1 <= self.pegs <= 16 or not 2 <= self.colours <= len(SYMBOLS):
            raise ValueError(f"pegs 1-16 and colours 2-{len(SYMBOLS)}")
        if self.family == "bullscows" and self.pegs > self.colours:
            raise ValueError("Bulls and Cows needs at least as many symbols as positions")
        self.symbols = "123456789"[: self.colours] if self.colours <= 9 else SYMBOLS[: self.colours]
        make = itertools.permutations if self.family == "bullscows" else \
            (lambda s, n: itertools.product(s, repeat=n))
        self.answers = tuple(sorted("".join(c) for c in make(self.symbols, self.pegs)))
        self.guesses = self.answers
        what = {"mastermind": "black and white pegs", "black": "black pegs only",
                "bullscows": "Bulls and Cows, no repeated symbol"}[self.family]
        self.label = f"{self.pegs} pegs, {self.colours} colours, {what}"

    @property
    def found(self) -> int:
        return self.pegs if self.family == "black" else self.pegs * (self.pegs + 1)

    def encode(self, items: list[str] | tuple[str, ...]) -> np.ndarray:
        index = {s: i for i, s in enumerate(self.symbols)}
        return np.array([[index[ch] for ch in item] for item in items], dtype=np.int8).reshape(len(items), self.pegs)

    def codes(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        if self.family != "black":
            return fb.mastermind_matrix(guesses, secrets, self.colours)
        out = np.empty((guesses.shape[0], secrets.shape[0]), dtype=np.uint16)
        for lo in range(0, guesses.shape[0], 256):
            out[lo:lo + 256] = (guesses[lo:lo + 256, None, :] == secrets[None, :, :]).sum(-1)
        return out

    def show(self, code: int) -> str:
        if self.family == "black":
            return f"black {code}"
        black, white = divmod(int(code), self.pegs + 1)
        return f"{black} bulls, {white} cows" if self.family == "bullscows" else f"black {black}, white {white}"


def size(family: str, pegs: int, colours: int) -> int:
    return math.perm(colours, pegs) if family == "bullscows" else colours ** pegs


def table_cells(families: tuple[str, ...] = FAMILIES, max_codes: int = 2401, max_colours: int = 10
                ) -> list[tuple[str, int, int]]:
    """Every (family, pegs, colours) with 2 to ``max_colours`` colours, at least 2 pegs and 2 to ``max_codes``
    codes, smallest first."""
    out = []
    for family in families:
        for colours in range(2, max_colours + 1):
            pegs = 2
            while pegs <= 16 and size(family, pegs, colours) <= max_codes:
                if family != "bullscows" or pegs <= colours:
                    out.append((family, pegs, colours))
                pegs += 1
    return sorted(out, key=lambda c: (size(*c), FAMILIES.index(c[0]), c[1]))


def cell_task(job: tuple[str, int, int, int | None]) -> dict[str, Any]:
    """One cell of the table: its exact optimum (or proven bounds past the node limit), with the published
    value beside it."""
    from .optimal_study import cell_value

    family, pegs, colours, node_limit = job
    cpu = time.process_time()
    r = cell_value(PegSpace(pegs=pegs, colours=colours, family=family), node_limit=node_limit)
    published = PUBLISHED.get((family, pegs, colours))
    r.update(family=family, pegs=pegs, colours=colours, codes=size(family, pegs, colours),
             published_total=published[0] if published else None, published=published[1] if published else None,
             cpu_seconds=round(time.process_time() - cpu, 2))
    if published and published[0] is not None and r["exact"]:
        r["agrees"] = r["total"] == published[0]
    return r


def main_table(args: Any) -> int:
    """``experiment wordle --mastermind-table``: one task per cell on the experiment executor."""
    import json

    from sleuth.errors import PuzzleError
    from sleuth.executor import Executor, comma_list

    families = tuple(comma_list(args.families))
    bad = [f for f in families if f not in FAMILIES]
    if bad or not families:
        raise PuzzleError(f"unknown family {bad[0] if bad else args.families!r}", place="--families",
                          allowed=", ".join(FAMILIES))
    cells = table_cells(families, args.max_codes)
    jobs = [(f, p, c, args.node_limit) for f, p, c in cells]
    with Executor.from_args(args, "mastermind-table") as ex:
        rows = ex.map_tasks(cell_task, jobs, label="cells", unit="cell", weights=[float(size(*c)) for c in cells])
    if args.json:
        print(json.dumps({"max_codes": args.max_codes, "node_limit": args.node_limit, "cells": rows}))
        return 0
    print(f"exact expected-case optima (every code may be proposed, no cap), cells of at most {args.max_codes} "
          "codes")
    print(f"  {'family':<10} {'pegs':>4} {'col':>3} {'codes':>5} {'optimal total':>17} {'average':>8} "
          f"{'CPU s':>8}  published")
    for r in rows:
        value = f"{r['total']:>17}" if r["exact"] else f"{'[' + str(r['lower']) + ', ' + str(r['upper']) + ']':>17}"
        avg = f"{r['total'] / r['codes']:>8.4f}" if r["exact"] else f"{'bounds':>8}"
        pub = r["published"] or "none at hand"
        if r.get("agrees") is False:
            pub += " (DIFFERS)"
        print(f"  {r['family']:<10} {r['pegs']:>4} {r['colours']:>3} {r['codes']:>5} {value} {avg} "
              f"{r['cpu_seconds']:>8.1f}  {pub}")
    return 0
