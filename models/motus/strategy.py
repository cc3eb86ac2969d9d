"""The seed's scoring methods, and whole games played as decision trees over a feedback matrix.

For a proposal ``w`` and the possible words ``P = {p_1..p_m}``, the seed's vector is
``nu(w) = <alpha_1..alpha_m>`` with ``alpha_i`` the number of possible words left if ``w`` is proposed and
``p_i`` is the secret, i.e. the size of ``p_i``'s feedback class.  Every method is a function of the
multiset of class sizes ``c_k`` (``alpha`` repeats ``c_k`` exactly ``c_k`` times):

* Sum ``sum alpha = sum c_k**2``; Max ``max alpha``; Gmax: the vectors sorted in decreasing order compared
  lexicographically (leximin on the worst cases); Possible Gmax: Gmax among possible words only;
* Gini ``G = 2 sum_i i alpha'_i / (m sum alpha) - (m + 1) / m`` (``alpha'`` ascending), compared exactly;
* Entropy ``H = -sum (alpha_i / S) log2(alpha_i / S)``, *lowest* first, exactly as the seed states it
  (its Table 3 lists these values; the seed reports that this method does poorly); values closer than
  ``1e-12`` count as ties;
* SumGini: Sum, then the lowest Gini;  Bobo: the first possible word in alphabetical order;
* Information (not in the seed; what popular solvers call entropy): the *highest* expected information,
  the entropy of the feedback partition ``log2 m - sum_k c_k log2 c_k / m``; values closer than ``1e-12``
  tie;
* Minimax: the exact game value (see :mod:`emi`).

Ties: a possible word before one that cannot be the secret, then alphabetical order.  Words already
proposed are never proposed again, nor are words that cannot be the secret and leave every possible word
in one class: they only waste a try.  That matters for Gini alone (an even split, hence Gini 0, includes
"no split at all"): taken literally its rule proposes such words again and again (worst case 730 tries on
three 7-letter cells), while the seed reports a worst case of 9, so its program did not propose them.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np

from sleuth.errors import InternalError
from sleuth.limits import check_bytes

ROW_CHUNK_ELEMENTS = 8_000_000  # codes per chunk when computing class sizes


def check_matrix(guesses: int, answers: int, itemsize: int, *, copies: int = 2, stats: bool = True) -> int:
    """Refuse a ``guesses x answers`` feedback matrix (and its ``copies - 1`` transposed copies and, with
    ``stats``, the class-size scratch of :func:`row_stats`) past the memory budget; the bytes it needs."""
    need = copies * guesses * answers * itemsize + (24 * min(ROW_CHUNK_ELEMENTS, guesses * answers) if stats else 0)
    check_bytes("the feedback matrix", need, detail=f"{guesses:,} proposals x {answers:,} answers",
                also="a smaller word list")
    return need


class Method(enum.Enum):
    SUM = "sum"
    MAX = "max"
    GMAX = "gmax"
    GINI = "gini"
    ENTROPY = "entropy"
    BOBO = "bobo"
    SUMGINI = "sumgini"
    POSSIBLE_GMAX = "possible-gmax"
    MINIMAX = "minimax"
    INFORMATION = "information"

    @property
    def title(self) -> str:
        return {"sum": "Sum", "max": "Max", "gmax": "Gmax", "gini": "Gini", "entropy": "Entropy",
                "bobo": "Bobo", "sumgini": "Sum Gini", "possible-gmax": "Possible Gmax",
                "minimax": "Minimax", "information": "Information"}[self.value]


BY_LARGEST = frozenset({Method.GMAX, Method.POSSIBLE_GMAX})          # the smallest largest class first
BY_SUM = frozenset({Method.SUM, Method.SUMGINI})                     # the smallest sum of squares first
DETAILED = frozenset({Method.GINI, Method.ENTROPY, Method.INFORMATION})  # need the detailed row statistics


def parse_method(name: str, place: str = "--method") -> Method:
    """The scoring method ``name`` names, by the game's declaration (its names and aliases)."""
    from .game import MOTUS

    return Method(MOTUS.suggest_method(name, place=place).name)


@dataclass(frozen=True)
class RowStats:
    """Per candidate row: sum of squares of class sizes, largest class, number of classes, Gini numerator
    ``A = sum_i i alpha'_i`` and entropy."""

    sumsq: np.ndarray
    largest: np.ndarray
    classes: np.ndarray
    gini_a: np.ndarray | None = None   # computed only with ``detail=True``
    entropy: np.ndarray | None = None
    information: np.ndarray | None = None  # entropy of the partition (bits), with ``detail=True``

    def detail(self, name: Literal["gini_a", "entropy", "information"]) -> np.ndarray:
        """A statistic computed only with ``detail=True`` (``gini_a``, ``entropy``, ``information``)."""
        value: np.ndarray | None = getattr(self, name)
        if value is None:
            raise InternalError(f"row statistics computed without detail have no {name}")
        return value


def _runs(codes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Class sizes of each row as (row index, size) pairs, rows in order."""
    k, m = codes.shape
    s = np.sort(codes, axis=1)
    starts = np.ones((k, m), dtype=bool)
    if m > 1:
        np.not_equal(s[:, 1:], s[:, :-1], out=starts[:, 1:])
    idx = np.flatnonzero(starts.ravel())
    sizes = np.diff(np.append(idx, k * m))
    return idx // m, sizes


def row_stats(codes: np.ndarray, *, detail: bool = True) -> RowStats:
    """Class-size statistics of every row of a (guesses x possible) code matrix (Gini's numerator and the
    entropy only with ``detail``)."""
    k, m = codes.shape
    names = ("sumsq", "largest", "classes") + (("gini_a", "entropy", "information") if detail else ())
    out = {name: np.zeros(k, dtype=np.float64 if name in ("entropy", "information") else np.int64)
           for name in names}
    step = max(1, ROW_CHUNK_ELEMENTS // max(m, 1))
    for lo in range(0, k, step):
        block = codes[lo:lo + step]
        row, size = _runs(block)
        kb = block.shape[0]
        counts = np.bincount(row, None, kb).astype(np.int64)
        starts = np.cumsum(counts) - counts
        out["classes"][lo:lo + kb] = counts
        out["sumsq"][lo:lo + kb] = np.add.reduceat(size * size, starts)
        out["largest"][lo:lo + kb] = np.maximum.reduceat(size, starts)
        if not detail:
            continue
        # ascending sizes within each row: entries before a class = cumulative size of the smaller ones
        order = np.lexsort((size, row))
        c_sorted = size[order]
        cum = np.cumsum(c_sorted)
        before = cum - c_sorted - np.repeat(np.r_[0, cum[starts[1:] - 1]], counts)
        a = c_sorted * c_sorted * before + c_sorted * c_sorted * (c_sorted + 1) // 2
        out["gini_a"][lo:lo + kb] = np.add.reduceat(a, starts)
        plogp = np.add.reduceat(c_sorted * c_sorted * np.log2(c_sorted), starts)
        s_tot = out["sumsq"][lo:lo + kb].astype(np.float64)
        out["entropy"][lo:lo + kb] = np.log2(s_tot) - plogp / s_tot
        clogc = np.add.reduceat(c_sorted * np.log2(c_sorted), starts)
        out["information"][lo:lo + kb] = np.log2(m) - clogc / m
    return RowStats(**out)


def gini(stats: RowStats, i: int, m: int) -> Fraction:
    """The exact Gini index of row ``i`` (``m`` possible words)."""
    return Fraction(2 * int(stats.detail("gini_a")[i]), m * int(stats.sumsq[i])) - Fraction(m + 1, m)


def _keep_min(cand: np.ndarray, key: np.ndarray) -> np.ndarray:
    vals = key[cand]
    return cand[vals == vals.min()]


def _keep_min_close(cand: np.ndarray, key: np.ndarray, tol: float = 1e-12) -> np.ndarray:
    vals = key[cand]
    low = vals.min()
    return cand[vals <= low + tol * max(1.0, abs(low))]


def _keep_min_gini(cand: np.ndarray, stats: RowStats) -> np.ndarray:
    """Rows of least Gini index, compared exactly: ``G`` is increasing in ``A / S`` at a node."""
    a, s = stats.detail("gini_a")[cand], stats.sumsq[cand]
    ratio = a / s
    near = np.flatnonzero(ratio <= ratio.min() * (1 + 1e-9))
    if float(a[near].max()) * float(s[near].max()) < 2.0 ** 62:  # cross products fit in int64
        i = near[np.argmin(ratio[near])]
        return cand[near[a[near] * s[i] == a[i] * s[near]]]
    exact = [Fraction(int(a[i]), int(s[i])) for i in near]
    best = min(exact)
    return cand[near[[x == best for x in exact]]]


def _keep_leximin(cand: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Rows whose class sizes, sorted in decreasing order, are lexicographically smallest (Gmax)."""
    best: np.ndarray | None = None
    keep: list[int] = []
    m = codes.shape[1]
    step = max(1, ROW_CHUNK_ELEMENTS // max(m, 1))
    for lo in range(0, len(cand), step):
        rows = cand[lo:lo + step]
        row, size = _runs(codes[rows])
        width = int(np.bincount(row, None, len(rows)).max())
        mat = np.zeros((len(rows), width), dtype=np.int64)
        counts = np.bincount(row, None, len(rows)).astype(np.int64)
        col = np.arange(len(row)) - np.repeat(np.cumsum(counts) - counts, counts)
        mat[row, col] = size
        mat = -np.sort(-mat, axis=1)
        live = np.arange(len(rows))
        for j in range(width):
            live = live[mat[live, j] == mat[live, j].min()]
            if len(live) == 1:
                break
        vec = mat[live[0]]
        if best is not None:
            w = max(len(best), len(vec))
            a, b = np.pad(best, (0, w - len(best))), np.pad(vec, (0, w - len(vec)))
            diff = np.flatnonzero(a != b)
            if diff.size and a[diff[0]] < b[diff[0]]:
                continue
            if diff.size:
                keep = []
        best = vec
        keep.extend(rows[live].tolist())
    return np.array(keep, dtype=np.int64)


def choose(codes: np.ndarray, possible: np.ndarray, method: Method,
           minimax: Callable[[np.ndarray], np.ndarray] | None = None, stats: RowStats | None = None,
           allowed: np.ndarray | None = None) -> int:
    """The row a method proposes: the first (alphabetically) of :func:`best_rows`."""
    return int(best_rows(codes, possible, method, minimax, stats, allowed).min())


def best_rows(codes: np.ndarray, possible: np.ndarray, method: Method,
              minimax: Callable[[np.ndarray], np.ndarray] | None = None, stats: RowStats | None = None,
              allowed: np.ndarray | None = None) -> np.ndarray:
    """The rows a method ranks best, ties included (possible words preferred among equal scores).

    ``codes``: (candidate rows x possible words) feedback codes, rows in alphabetical order of the words;
    ``possible``: which rows are possible words.  ``minimax`` (for Method.MINIMAX) maps candidate rows to
    the rows of optimal worst case; ``stats``: :func:`row_stats` of ``codes`` when already known;
    ``allowed``: the rows that may be proposed (default all; words already proposed are not).
    Returns row indices of ``codes``; which of them is proposed is only a convention (the first).
    """
    k, m = codes.shape
    if allowed is None:
        allowed = np.ones(k, dtype=bool)
    if method is Method.BOBO or m <= 2:
        # with one or two possible words every method's scores tie among the possible words
        rows = np.flatnonzero(possible & allowed)
        if rows.size:
            return rows
    cand = np.flatnonzero(allowed)
    if method is Method.POSSIBLE_GMAX and (possible & allowed).any():
        cand = np.flatnonzero(possible & allowed)
    if method is Method.MINIMAX:
        if minimax is None:
            raise ValueError("Minimax needs a game-tree solver")
        cand = minimax(cand)
    elif method in BY_LARGEST:
        largest = (stats or row_stats(codes[cand], detail=False)).largest
        if stats is not None:
            largest = largest[cand]
        cand = cand[largest == largest.min()]
        cand = _keep_leximin(cand, codes)
    else:
        detailed = method in DETAILED
        if stats is None or (detailed and stats.gini_a is None):
            stats = row_stats(codes, detail=detailed)
        useful = cand[(stats.classes[cand] > 1) | possible[cand]]
        if useful.size:  # a proposal that splits nothing and cannot win only wastes a try
            cand = useful
        if method in BY_SUM:
            cand = _keep_min(cand, stats.sumsq)
        if method is Method.MAX:
            cand = _keep_min(cand, stats.largest)
        if method is Method.GINI:
            cand = _keep_min_gini(cand, stats)
        if method is Method.SUMGINI and cand.size > 1:
            tied = row_stats(codes[cand])
            cand = cand[_keep_min_gini(np.arange(cand.size), tied)]
        if method is Method.ENTROPY:
            cand = _keep_min_close(cand, stats.detail("entropy"))
        if method is Method.INFORMATION:
            cand = _keep_min_close(cand, -stats.detail("information"))
    preferred = cand[possible[cand]]
    return preferred if preferred.size else cand


def scores(codes: np.ndarray, possible_count: int) -> dict[str, np.ndarray | list[Fraction]]:
    """Every method's score of every row, for display (``sum``, ``max``, ``gini``, ``entropy``)."""
    stats = row_stats(codes)
    return {"sum": stats.sumsq, "max": stats.largest, "classes": stats.classes,
            "gini": [gini(stats, i, possible_count) for i in range(codes.shape[0])],
            "entropy": stats.detail("entropy"), "information": stats.detail("information")}


# -- whole games --------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class CellResult:
    """Tries needed for every secret of a cell by one method (counted past the limit until found)."""

    method: Method
    tries: np.ndarray   # per answer, in the cell's order
    limit: int

    @property
    def fails(self) -> int:
        return int((self.tries > self.limit).sum())

    @property
    def worst(self) -> int:
        return int(self.tries.max()) if self.tries.size else 0

    @property
    def total(self) -> int:
        return int(self.tries.sum())


NodeMinimax = Callable[[np.ndarray, np.ndarray], np.ndarray]  # (rows, possible-answer mask) -> rows kept


def play_all(matrix: np.ndarray, answer_rows: np.ndarray, found: int, method: Method, limit: int,
             first: int | None = None, minimax: NodeMinimax | None = None,
             columns: np.ndarray | None = None) -> CellResult:
    """Play every secret with ``method`` by walking its decision tree once.

    ``matrix``: feedback codes (guess rows x answers); ``answer_rows[j]``: the guess row of answer ``j``.
    Every node (the possible answers and the proposals so far) is decided once for all the secrets that
    reach it.  ``first`` optionally fixes the opening proposal (shared by all methods of a study).
    ``minimax(rows, poss)`` (Method.MINIMAX) says which guess rows reach the game value of the answers
    ``poss`` (a boolean mask over ``rows``).  ``columns``: ``matrix.T`` made contiguous, if already made.
    """
    n_guess, n_ans = matrix.shape
    if columns is None:
        columns = np.ascontiguousarray(matrix.T)
    tries = np.zeros(n_ans, dtype=np.int64)
    stack: list[tuple[np.ndarray, tuple[int, ...]]] = [(np.arange(n_ans), ())]
    while stack:
        poss, proposed = stack.pop()
        depth = len(proposed)
        if poss.size == 1:
            tries[poss[0]] = depth + 1
            continue
        if poss.size == 2 and method is not Method.MINIMAX:
            tries[poss[0]], tries[poss[1]] = depth + 1, depth + 2
            continue
        if depth == 0 and first is not None:
            g = first
        else:
            g = _decide(columns, answer_rows, poss, proposed, method, minimax)
        codes = matrix[g, poss]
        order = np.argsort(codes, kind="stable")
        sorted_codes = codes[order]
        cuts = np.flatnonzero(np.diff(sorted_codes)) + 1
        for part, code in zip(np.split(poss[order], cuts), sorted_codes[np.r_[0, cuts]], strict=True):
            if code == found:
                tries[part[0]] = depth + 1
            else:
                stack.append((part, proposed + (g,)))
    return CellResult(method, tries, limit)


def _decide(columns: np.ndarray, answer_rows: np.ndarray, poss: np.ndarray, proposed: Sequence[int],
            method: Method, minimax: NodeMinimax | None) -> int:
    n_guess = columns.shape[1]
    possible = np.zeros(n_guess, dtype=bool)
    possible[answer_rows[poss]] = True
    if method is Method.BOBO or poss.size <= 2:
        return int(answer_rows[poss].min())
    allowed = np.ones(n_guess, dtype=bool)
    allowed[list(proposed)] = False
    codes = np.ascontiguousarray(columns[poss].T)
    return choose(codes, possible, method,
                  None if minimax is None else (lambda cand: cand[minimax(cand, poss)]), allowed=allowed)


def entropy_of(sizes: Sequence[int]) -> float:
    """The seed's entropy of a vector of sizes (log base 2), for tests and display."""
    total = sum(sizes)
    return -sum(a / total * math.log2(a / total) for a in sizes)
