"""Exact minimax game values: the Evil Motus Index and the Minimax method.

``value(P)`` is the number of proposals a player needs to be sure to find the secret when it can be any
word of ``P`` and an adversary may change it as long as every feedback given stays true (the seed's Evil
Motus).  Proposals may be any allowed guess.  It is found by iterative deepening on ``fits(P, k)`` ("some
proposal leaves every feedback class solvable in ``k - 1`` more"), with the pruning of exact word-game
solvers:

* bounds: one word needs 1 proposal, more need 2 (exactly when one guess gives every word its own
  feedback), and a class larger than the most classes any guess makes on ``P`` cannot be done in 2;
* cutoffs: a proposal is dropped at its first class that does not fit, classes are tried largest first
  and proposals in order of their largest class;
* caching by candidate set: every (set, depth) answer is kept, proven both ways;
* proposals that give the same feedback on every word of the set are tried once; for a part to be done in
  one more proposal, only guesses that made at least that many classes on the whole set are tried.

The search runs in one of two kernels with the same answers: the compiled one in :mod:`._emi_kernel`
(numba, the optional extra ``emi``) when numba imports, else the numpy one below.  The compiled one keeps
the bounds and cutoffs; inside one call it replaces the per-set cache and the signature test by kept
refutation witnesses (see there); the per-set cache stays for the calls made from Python.  A time limit
raises :class:`SearchTimeout`; callers report the proven bounds, never a guess.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from sleuth.limits import TooLarge, memory_budget


class SearchTimeout(RuntimeError):
    """The search ran out of time; ``lower`` is proven, ``upper`` is proven when not None."""

    def __init__(self, lower: int, upper: int | None) -> None:
        super().__init__(f"time limit reached (value in [{lower}, {upper if upper else '?'}])")
        self.lower, self.upper = lower, upper


@dataclass(frozen=True)
class Value:
    """A proven game value, or proven bounds when the search ran out of time."""

    lower: int
    upper: int | None
    seconds: float

    @property
    def exact(self) -> bool:
        return self.upper == self.lower

    def __str__(self) -> str:
        if self.exact:
            return str(self.lower)
        return f">={self.lower}" if self.upper is None else f"{self.lower}-{self.upper}"


def _distinct_per_row(codes: np.ndarray) -> np.ndarray:
    if codes.shape[1] <= 1:
        return np.full(codes.shape[0], codes.shape[1], dtype=np.int64)
    s = np.sort(codes, axis=1)
    return 1 + (s[:, 1:] != s[:, :-1]).sum(1)


class GameTree:
    """Minimax search over one feedback matrix (guess rows x answers)."""

    def __init__(self, matrix: np.ndarray, found: int, *, time_limit: float | None = None,
                 clock: Callable[[], float] = time.monotonic, kernel: str = "auto") -> None:
        """``time_limit`` is measured on ``clock``: wall time by default, ``time.process_time`` for CPU
        seconds (what a benchmark on a shared machine should use).  ``kernel``: ``"numba"``, ``"numpy"``
        or ``"auto"`` (numba when it imports)."""
        self.matrix = matrix
        self._kernel = None
        if kernel not in ("auto", "numba", "numpy"):
            raise ValueError(f"kernel: auto, numba or numpy, not {kernel!r}")
        if kernel != "numpy":
            try:
                from ._emi_kernel import Kernel
            except ImportError:
                if kernel == "numba":
                    raise
            else:
                self._kernel = Kernel(matrix, found, clock)
        self.kernel = "numpy" if self._kernel is None else "numba"
        self.found = found
        self.clock = clock
        self.deadline = None if time_limit is None else clock() + time_limit
        self.fit_at: dict[bytes, int] = {}   # smallest depth proven enough
        self.fail_at: dict[bytes, int] = {}  # largest depth proven not enough
        self.nodes = 0
        self.cache_bytes, self.cache_limit = 0, memory_budget()  # the two caches stay within the budget

    @cached_property
    def columns(self) -> np.ndarray:
        """Answer x guess (the numpy kernel's layout: gathering a set's codes is a row copy)."""
        return np.ascontiguousarray(self.matrix.T)

    # -- public -------------------------------------------------------------------------------------------
    def value(self, poss: np.ndarray | None = None, *, upper: int | None = None) -> Value:
        """The exact number of proposals needed for the answers ``poss`` (default: all)."""
        start = time.monotonic()
        p = np.arange(self.matrix.shape[1]) if poss is None else np.sort(np.asarray(poss, dtype=np.int64))
        k = min(int(p.size), 2)  # proven: more than one word needs two proposals
        try:
            k = self.lower_bound(p)
            while not self.fits(p, k):
                k += 1
        except SearchTimeout:
            raise SearchTimeout(k, upper) from None
        return Value(k, k, time.monotonic() - start)

    def lower_bound(self, p: np.ndarray) -> int:
        if p.size <= 1:
            return p.size
        if self._kernel is not None:
            return 2 if self.fits(p, 2) else 3
        most = int(_distinct_per_row(self.columns[p].T).max())
        return 2 if most >= p.size else 3

    def optimal_rows(self, rows: np.ndarray, poss: np.ndarray) -> np.ndarray:
        """Which of ``rows`` (guess rows) achieve the game value of ``poss``: a boolean mask."""
        p = np.sort(np.asarray(poss, dtype=np.int64))
        best = self.value(p).lower
        return np.array([self._guess_fits(int(g), p, best) for g in rows], dtype=bool)

    # -- search -------------------------------------------------------------------------------------------
    def fits(self, p: np.ndarray, k: int, bound: np.ndarray | None = None) -> bool:
        """Can every secret of ``p`` be found within ``k`` proposals?

        ``bound``: per guess row, the number of classes it makes on a superset of ``p`` (it makes no more
        on ``p``), so that only rows with at least ``|p|`` can separate ``p`` in one proposal.
        """
        m = p.size
        if m == 0:
            return True
        if k <= 0:
            return False
        if m == 1:
            return True
        if k == 1:
            return False
        key = p.tobytes()
        if self.fit_at.get(key, 1 << 30) <= k:
            return True
        if self.fail_at.get(key, 0) >= k:
            return False
        if self._kernel is not None:
            status = self._kernel.fits(p, k, self.deadline)
            self.nodes = self._kernel.nodes
            if status < 0:
                raise SearchTimeout(0, None)
            ok = status == 1
        else:
            ok = self._fits_numpy(p, k, bound, m)
        if key not in self.fit_at and key not in self.fail_at:
            self.cache_bytes += len(key) + 120  # the bytes key, its object and two dict slots
            if self.cache_bytes > self.cache_limit:
                raise TooLarge(f"the minimax search cached more than {self.cache_limit:,} bytes of proven sets "
                               "(the memory budget); raise SLEUTH_MEMORY_BUDGET or use another method")
        if ok:
            self.fit_at[key] = min(k, self.fit_at.get(key, 1 << 30))
        else:
            self.fail_at[key] = max(k, self.fail_at.get(key, 0))
        return ok

    def _fits_numpy(self, p: np.ndarray, k: int, bound: np.ndarray | None, m: int) -> bool:
        self._tick()
        if k == 2 and bound is not None:
            rows = np.flatnonzero(bound >= m)
            ok = rows.size > 0 and bool(_distinct_per_row(self.columns[p][:, rows].T).max() >= m)
        else:
            codes = self.columns[p].T
            distinct = _distinct_per_row(codes)
            if distinct.max() >= m:
                ok = True
            elif k == 2:
                ok = False
            else:
                ok = self._search(p, codes, k, distinct)
        return ok

    def _search(self, p: np.ndarray, codes: np.ndarray, k: int, distinct: np.ndarray) -> bool:
        n = codes.shape[0]
        # no guess makes more than `most` classes on p, hence on any part of it: a part larger than
        # most ** (k - 2) cannot be done in k - 1 proposals
        cap = int(distinct.max()) ** (k - 2)
        # largest class per row, found class (size 1) included: a cheap order and a bound
        largest = self._largest(codes)
        refuted = largest > cap
        order = np.lexsort((np.arange(n), largest))
        seen: set[bytes] = set()
        for g in order:
            if refuted[g]:
                continue
            row = codes[g]
            sig = row.tobytes()
            if sig in seen:  # same feedback on every possible word: same subtree
                continue
            seen.add(sig)
            if self._row_fits(row, p, k, distinct):
                return True
        return False

    def _guess_fits(self, g: int, p: np.ndarray, k: int) -> bool:
        if p.size == 0:
            return True
        return self._row_fits(self.matrix[g, p], p, k)

    def _row_fits(self, row: np.ndarray, p: np.ndarray, k: int, bound: np.ndarray | None = None) -> bool:
        order = np.argsort(row, kind="stable")
        sorted_codes = row[order]
        cuts = np.flatnonzero(np.diff(sorted_codes)) + 1
        heads = sorted_codes[np.r_[0, cuts]]
        parts = [(part, code) for part, code in zip(np.split(p[order], cuts), heads, strict=True)
                 if code != self.found]
        if len(parts) == 1 and parts[0][0].size == p.size:
            return False  # no information and not a possible word: never useful
        parts.sort(key=lambda pc: -pc[0].size)
        return all(self.fits(np.sort(part), k - 1, bound) for part, _ in parts)

    @staticmethod
    def _largest(codes: np.ndarray) -> np.ndarray:
        s = np.sort(codes, axis=1)
        m = s.shape[1]
        starts = np.ones(s.shape, dtype=bool)
        starts[:, 1:] = s[:, 1:] != s[:, :-1]
        idx = np.flatnonzero(starts.ravel())
        sizes = np.diff(np.append(idx, s.size))
        largest = np.zeros(s.shape[0], dtype=np.int64)
        np.maximum.at(largest, idx // m, sizes)
        return largest

    def _tick(self) -> None:
        self.nodes += 1
        if self.deadline is not None and self.nodes % 16 == 0 and self.clock() > self.deadline:
            raise SearchTimeout(0, None)
