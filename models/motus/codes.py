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

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import feedback as fb
from .space import Space, code_list

SYMBOLS = "0123456789ABCDEF"
FAMILIES = ("mastermind", "black", "bullscows")
# (family, pegs, colours) -> (published optimal total, or None when only an average is published; the source)
PUBLISHED: dict[tuple[str, int, int], tuple[int | None, str]] = {
    ("mastermind", 4, 6): (5625, "Koyama and Lai: 5,625 / 1,296 (Knuth 1977: at most 5 guesses, 4.476 on average)"),
    ("mastermind", 4, 7): (None, "Ville: 4.676 on average"),
    ("bullscows", 4, 10): (26274, "Tanaka: 26,274 / 5,040"),
}
PUBLISHED_AVERAGE = {("mastermind", 4, 7): 4.676}  # published as an average to 3 decimals only


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
        self.answers = code_list(self.symbols, self.pegs, distinct=self.family == "bullscows")
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


def cell_task(job: tuple[Any, ...]) -> dict[str, Any]:
    """One cell of the table, ``(family, pegs, colours, node_limit[, levels, checkpoint directory])``: its exact
    optimum (or proven bounds past the node limit), with the published value beside it.  ``levels`` > 0: the
    search with symmetry reduction on the first ``levels`` guesses (:mod:`.symmetry`), the classes it finishes
    written to ``family-PEGSxCOLOURS.jsonl`` in the checkpoint directory when one is given (a run resumes there);
    a seventh item True: no search, the proven bounds from that checkpoint (:meth:`.SymmetricSearch.bounds`)."""
    from .optimal_study import cell_value

    family, pegs, colours, node_limit = job[:4]
    levels, where = (job[4], job[5]) if len(job) > 4 else (0, "")
    only_bounds = len(job) > 6 and job[6]
    cpu = time.process_time()
    space = PegSpace(pegs=pegs, colours=colours, family=family)
    if levels:
        import os

        from .symmetry import SymmetricSearch

        path = os.path.join(where, f"{family}-{pegs}x{colours}.jsonl") if where else ""
        search = SymmetricSearch(space, levels=levels, checkpoint=path, node_limit=node_limit)
        r = search.bounds() if only_bounds else search.result()
    else:
        r = cell_value(space, node_limit=node_limit)
    published = PUBLISHED.get((family, pegs, colours))
    r.update(family=family, pegs=pegs, colours=colours, codes=size(family, pegs, colours),
             published_total=published[0] if published else None, published=published[1] if published else None,
             cpu_seconds=round(time.process_time() - cpu, 2))
    if published and published[0] is not None and r["exact"]:
        r["agrees"] = r["total"] == published[0]
    elif (family, pegs, colours) in PUBLISHED_AVERAGE and r["exact"]:
        r["agrees"] = round(r["total"] / r["codes"], 3) == PUBLISHED_AVERAGE[(family, pegs, colours)]
    return r


def chosen_cells(text: str, families: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """``--cells``: ``family:PEGSxCOLOURS`` items, comma-separated (e.g. ``mastermind:4x7,bullscows:4x10``)."""
    from sleuth.errors import PuzzleError

    out = []
    for item in (x.strip() for x in text.split(",") if x.strip()):
        family, _, shape = item.partition(":")
        pegs, _, colours = shape.lower().partition("x")
        if family not in families or not pegs.isdigit() or not colours.isdigit():
            raise PuzzleError(f"cannot read {item!r}", place="--cells",
                              allowed=f"family:PEGSxCOLOURS, family one of {', '.join(families)}")
        p, c = int(pegs), int(colours)
        if not (1 <= p <= 16 and 2 <= c <= len(SYMBOLS)) or (family == "bullscows" and p > c) \
                or size(family, p, c) > 10_000:
            raise PuzzleError(f"{item}: no such cell", place="--cells", allowed=f"1-16 pegs, 2-{len(SYMBOLS)} "
                              "colours (bullscows: at least as many as pegs), at most 10000 codes")
        out.append((family, p, c))
    return out


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
    cells = chosen_cells(args.cells, families) if args.cells else table_cells(families, args.max_codes)
    jobs: list[tuple[Any, ...]] = [(f, p, c, args.node_limit) for f, p, c in cells]
    if args.checkpoint and not args.symmetry:
        raise PuzzleError("--checkpoint keeps the classes of the symmetric search", place="--checkpoint",
                          allowed="--symmetry LEVELS beside it")
    if args.checkpoint:
        import os

        try:
            os.makedirs(args.checkpoint, exist_ok=True)
        except OSError as err:
            raise PuzzleError(f"cannot make the directory {args.checkpoint}: {err.strerror}", place="--checkpoint",
                              allowed="a directory that can be written") from None
    if args.from_checkpoint and not args.checkpoint:
        raise PuzzleError("--from-checkpoint reads the classes of --checkpoint", place="--from-checkpoint",
                          allowed="--symmetry LEVELS --checkpoint DIR beside it")
    if args.symmetry:
        jobs = [(*job, args.symmetry, args.checkpoint) for job in jobs]
    if args.from_checkpoint:
        jobs = [(*job, True) for job in jobs]
    with Executor.from_args(args, "mastermind-table") as ex:
        rows = ex.map_tasks(cell_task, jobs, label="cells", unit="cell", weights=[float(size(*c)) for c in cells])
    if args.json:
        print(json.dumps({"max_codes": args.max_codes, "node_limit": args.node_limit, "cells": rows}))
        return 0
    which = "the cells asked for" if args.cells else f"cells of at most {args.max_codes} codes"
    how = f", one guess per orbit of the symmetries for the first {args.symmetry} guesses" if args.symmetry else ""
    print(f"exact expected-case optima (every code may be proposed, no cap{how}), {which}")
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
