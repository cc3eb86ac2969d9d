"""The symmetries of Mastermind that a position keeps, for the exact search's first plies.

A permutation of the colours and one of the pegs map every code onto a code and keep every feedback: when one
maps a position's possible codes onto themselves, it maps each guess onto a guess of the same value there.  So
the guesses of a position need searching only one per orbit of the symmetries it keeps (its stabiliser), and the
guesses tied for best are whole orbits.  :class:`CodeSymmetries` finds a stabiliser fast: a symmetry keeping a
set keeps its table of colour counts per peg, which leaves few candidates to check one by one.

This is the review's reduction (a position after any history: the symmetries keeping its possible codes);
:mod:`.symmetry` is the code-breaking table's (the symmetries keeping the guesses made, named by a canonical form,
with checkpoints), where every position is reached from the root.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np

from .symmetry import position_counts, table_symmetries

if TYPE_CHECKING:
    from .optimal import Optimal

PLIES = 2   # plies searched one guess per orbit (below them: the compiled search, which knows no symmetry)
SMALL = 64  # positions of at most this many codes go to the compiled search at once (orbits cost more there)


class CodeSymmetries:
    """The colour and peg permutations of ``pegs`` x ``colours`` codes (codes numbered as
    :class:`.space.CodeSpace` numbers them: the first peg the most significant digit)."""

    def __init__(self, pegs: int, colours: int) -> None:
        self.pegs, self.colours = pegs, colours
        self.digits = np.array(list(itertools.product(range(colours), repeat=pegs)), dtype=np.int64)
        self.weights = colours ** np.arange(pegs - 1, -1, -1, dtype=np.int64)

    def counts(self, codes: np.ndarray) -> np.ndarray:
        """``out[c, p]``: how many of ``codes`` (indices) have colour ``c`` at peg ``p``."""
        return position_counts(self.digits[codes], self.colours)

    def image(self, colour: np.ndarray, peg: np.ndarray, codes: np.ndarray | None = None) -> np.ndarray:
        """The index of each code (default: all) under the colour permutation ``colour`` (colour c becomes
        ``colour[c]``) after the pegs are reordered by ``peg`` (peg p takes the colour of peg ``peg[p]``)."""
        d = self.digits if codes is None else self.digits[codes]
        return np.asarray((colour[d[:, peg]] * self.weights).sum(axis=1), dtype=np.int64)

    def stabiliser(self, codes: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Every symmetry (colour permutation, peg permutation) that maps the set ``codes`` onto itself: the
        candidates that keep its table of colour counts per peg (:func:`.symmetry.table_symmetries`) checked."""
        inside = np.zeros(len(self.digits), dtype=bool)
        inside[codes] = True
        out = []
        for perm, colour in table_symmetries(self.counts(codes)):
            peg = np.array(perm, dtype=np.int64)
            if inside[self.image(colour, peg, codes)].all():
                out.append((colour, peg))
        return out

    def orbits(self, codes: np.ndarray, guesses: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The guesses (indices) up to the symmetries keeping ``codes``: for each guess, the least guess of its
        orbit (its representative), and the representatives' orbit sizes (indexed by guess, 0 elsewhere)."""
        rep = guesses.copy()
        for colour, peg in self.stabiliser(codes):
            rep = np.minimum(rep, self.image(colour, peg, guesses))
        sizes = np.bincount(rep, minlength=len(self.digits))
        return rep, sizes


class StabiliserSearch:
    """Exact values of the positions of a Mastermind search (:class:`.optimal.Optimal` over every code, normal
    rules), the first :data:`PLIES` plies searched one guess per orbit of the symmetries the position keeps
    (guesses in order of their class-size bound, cut off as the search cuts them), the plies below by the
    search itself.  The whole set of codes (kept by every symmetry: its orbits cost the most to find) goes to
    the search at once.  Each exact value found is left in the search's cache; :class:`.emi.SearchTimeout`
    from the search passes through."""

    def __init__(self, search: Optimal, plies: int = PLIES, small: int = SMALL) -> None:
        space = search.space
        self.s, self.plies, self.small = search, plies, small
        self.sym = CodeSymmetries(space.pegs, space.colours)  # type: ignore[attr-defined]
        self.inf = int(search.k.INF)
        self.found = space.found
        self.everything = len(space.answers)

    def _depth(self, used: int) -> int:
        return int(self.s.k.DMAX) if self.s.cap is None else self.s.cap - used

    def orbits(self, answers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per guess its orbit's representative, and the representatives (guess rows, ascending)."""
        rep, sizes = self.sym.orbits(answers, self.s.pool)
        return rep, np.flatnonzero(sizes)

    def value(self, answers: np.ndarray, used: int, beta: int | None = None, plies: int | None = None) -> int:
        """As :meth:`.optimal.Optimal.value` (exact below ``beta``, else a lower bound at least ``beta``)."""
        s = self.s
        plies = self.plies if plies is None else plies
        n = len(answers)
        if n <= max(self.small, 2) or plies <= 0 or n == self.everything:
            return s.value(answers, None, used, beta)
        if self._depth(used) <= 0:
            return self.inf
        _, reps = self.orbits(answers)
        bounds = s.guess_bounds(answers, reps, used)
        top = self.inf if beta is None else beta
        best, guess = top, -1
        for j in np.lexsort((reps, bounds)):
            if bounds[j] >= best:
                break
            v = self.guess_value(int(reps[j]), answers, used, best, plies)
            if v < best:
                best, guess = v, int(reps[j])
        if guess >= 0 and best < self.inf:
            s.remember(answers, used, best, guess)
        return best

    def guess_value(self, guess: int, answers: np.ndarray, used: int, beta: int | None = None,
                    plies: int | None = None) -> int:
        """As :meth:`.optimal.Optimal.guess_value`: ``guess`` first, then the best play."""
        s = self.s
        plies = self.plies if plies is None else plies
        n = len(answers)
        depth = self._depth(used)
        if depth <= 0:
            return self.inf
        codes = s.matrix[guess, answers]
        values, inverse = np.unique(codes, return_inverse=True)
        parts = [answers[inverse.reshape(-1) == i] for i, c in enumerate(values.tolist()) if c != self.found]
        if parts and depth <= 1:
            return self.inf  # answers left after the last guess allowed
        cd = depth - 1 if s.cap is not None else depth
        lows = [int(s.lbt[cd, len(p)]) for p in parts]
        total, rest = n, sum(lows)
        top = self.inf if beta is None else beta
        for part, low in zip(parts, lows, strict=True):
            rest -= low
            if total + low + rest >= top:
                return min(total + low + rest, self.inf)
            v = self.value(part, used + 1, None if beta is None else top - total - rest, plies - 1)
            if v >= self.inf:
                return self.inf
            total += v
        return min(total, self.inf)


__all__ = ["CodeSymmetries", "PLIES", "SMALL", "StabiliserSearch"]
