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
(numba, the optional extra ``emi``; :data:`.game.EMI_KERNEL`) where available, else the numpy one below.  The
compiled one keeps the bounds and cutoffs; inside one call it replaces the per-set cache and the signature test by kept
refutation witnesses (see there); the per-set cache stays for the calls made from Python.  A time limit
raises :class:`SearchTimeout`; callers report the proven bounds, never a guess.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from types import ModuleType

import numpy as np

from sleuth.limits import LimitReached, TooLarge, check_bytes, memory_budget

from .game import EMI_KERNEL


class SearchTimeout(LimitReached):
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


CACHE_FLOOR = 1 << 20  # bytes the per-set cache needs at least for a search to be worth starting


@dataclass(frozen=True)
class SearchPlan:
    """Which kernel runs, its witnesses per depth (numba) and the bytes left for the per-set cache."""

    kernel: str
    slots: int
    buffers: int
    room: int


def _compiled(kernel: str) -> ModuleType | None:
    """The compiled kernel (:data:`.game.EMI_KERNEL`) for ``kernel``: ``auto`` where available, ``numba`` whatever
    its switch says (ImportError without numba), ``numpy`` never."""
    if kernel == "numpy":
        return None
    module = EMI_KERNEL.load(switch=kernel == "auto")
    if module is None and kernel == "numba":
        raise ImportError("numba is not installed", name="numba")
    return module


def kernel_compiled() -> bool:
    """Whether this process has compiled the numba kernel already.  Its recursive search (with a clock read
    through ``objmode``) cannot be kept in numba's cache: each process compiles it again, about 10 s."""
    kernel = EMI_KERNEL.load() if EMI_KERNEL.loaded() else None
    return kernel is not None and bool(kernel._fits.signatures)


def one_search_kernel() -> str:
    """The kernel for a command's one search (``suggest --method minimax``, a ``best guess`` claim): numba where
    this process has compiled it already, else numpy.  The compile (about 10 s in every process) costs more than
    the numpy search of each position measured: Knuth's Mastermind example 0.22 s (numba 0.19 s once
    compiled), Mastermind after one guess 15.6 s (numba 22.0 s), Wordle after CRANE with 102 words left 8.7 s
    (numba 5.2 s)."""
    return "numba" if kernel_compiled() else "numpy"


def _codes_bound() -> int:
    return 1 << 16  # the compiled kernel's uint16 feedback codes: its stamp tables hold one slot per code


def _numpy_bytes(guesses: int, answers: int, itemsize: int) -> int:
    # the answer-major copy, and at the top of the recursion the codes of the whole set, their sorted copy,
    # a boolean mask and two int64 index arrays; deeper sets are smaller (counted once more)
    return guesses * answers * (itemsize + 2 * (2 * itemsize + 1 + 16))


def plan_search(guesses: int, answers: int, *, kernel: str = "auto", itemsize: int = 2,
                matrix: bool = False) -> SearchPlan:
    """The search's memory plan within the budget, or :class:`~sleuth.limits.TooLarge` with the estimate,
    the budget and how to raise it.  ``matrix``: count the feedback matrix too (not built yet)."""
    base = guesses * answers * itemsize if matrix else 0
    detail = f"{guesses:,} proposals x {answers:,} answers"
    also = "a smaller word list or another --method"
    compiled = _compiled(kernel)
    if compiled is not None:
        MIN_SLOTS, buffer_bytes, slots_within = compiled.MIN_SLOTS, compiled.buffer_bytes, compiled.slots_within
        copy = guesses * answers * 2 if itemsize != 2 else 0  # the kernel's uint16 copy
        codes = _codes_bound()
        left = memory_budget() - base - copy - CACHE_FLOOR
        slots = slots_within(guesses, answers, codes, left)
        if not slots:
            check_bytes("the minimax search", base + copy + CACHE_FLOOR + buffer_bytes(guesses, answers, codes,
                        MIN_SLOTS), detail=f"{detail}, witness store and recursion tables", also=also)
        used = base + copy + buffer_bytes(guesses, answers, codes, slots)
        return SearchPlan("numba", slots, used, check_bytes("the minimax search", used))
    used = base + _numpy_bytes(guesses, answers, itemsize)
    room = check_bytes("the minimax search", used + CACHE_FLOOR, detail=f"{detail}, recursion tables", also=also)
    return SearchPlan("numpy", 0, used, room + CACHE_FLOOR)


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
        or ``"auto"`` (numba when it imports).  The search's buffers are estimated first and refused past
        the memory budget (:func:`plan_search`); the per-set cache gets what is left of it."""
        self.matrix = matrix
        self._kernel = None
        if kernel not in ("auto", "numba", "numpy"):
            raise ValueError(f"kernel: auto, numba or numpy, not {kernel!r}")
        plan = plan_search(*matrix.shape, kernel=kernel, itemsize=matrix.dtype.itemsize)
        if plan.kernel == "numba" and (compiled := _compiled("numba")) is not None:
            self._kernel = compiled.Kernel(matrix, found, clock, slots=plan.slots)
        self.kernel = plan.kernel
        self.found = found
        self.clock = clock
        self.deadline = None if time_limit is None else clock() + time_limit
        self.fit_at: dict[bytes, int] = {}   # smallest depth proven enough
        self.fail_at: dict[bytes, int] = {}  # largest depth proven not enough
        self.nodes = 0
        self.cache_bytes, self.cache_limit = 0, plan.room  # the two caches stay within what the budget leaves

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
