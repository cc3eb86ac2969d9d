"""The optimal strategy: the recursion of the seed's eq. (1), memoised on the sufficient statistic.

Multiplying eq. (1) by ``N(c, p)`` turns it into integers.  Let ``T(c, p)`` be the number of correct
guesses summed over every deck order consistent with ``(c, p)`` when the player plays optimally; then with
partial feedback

    T(c, p) = max_a  N(c - e_a, p) + T(c - e_a, p) + T(c, p + e_a)

and ``E(c, p) = T(c, p) / N(c, p)``: no fraction is formed until the end, and the maximum compares
integers.  With complete feedback the next card is shown, so ``T(c) = max_a N(c - e_a) + sum_b T(c - e_b)``.

States are memoised on a canonical key (the sorted ``(c_a, p_a)`` codes plus the number of cards to come),
so states that differ by a permutation of the types are solved once.  Guessing a type that cannot be next
is never better than guessing one that can (the answer is then a refinement of no information, and the
immediate reward is not smaller), so such guesses are left out of the maximum; tests check the values
against the plain recursion over every guess.
"""

from __future__ import annotations

import enum
import sys
from fractions import Fraction

from sleuth.limits import LimitReached

from .counting import BITS, Arrangements, Key, Statistic, canonical


class Feedback(enum.Enum):
    PARTIAL = "partial"    # told only right or wrong
    COMPLETE = "complete"  # the card is shown


class StateBudgetExceeded(LimitReached):
    """The recursion needed more memoised states than allowed."""


StateKey = tuple[int, ...]  # the canonical key followed by the number of cards to come

ONE_CARD = 1 << BITS


def _with(key: Key, i: int, code: int) -> Key:
    """``key`` with its ``i``-th type recoded (dropped when no card of it is left unplaced)."""
    rest = key[:i] + key[i + 1:]
    return tuple(sorted(rest + (code,))) if code >> BITS else rest


class OptimalSolver:
    """``T`` and ``E`` of the optimal strategy for one feedback mode (any deck; the memo is shared)."""

    def __init__(self, feedback: Feedback = Feedback.PARTIAL, arrangements: Arrangements | None = None,
                 *, max_states: int | None = None) -> None:
        self.feedback = feedback
        self.n = arrangements or Arrangements()
        self.memo: dict[StateKey, int] = {}
        self.max_states = max_states

    # -- values ---------------------------------------------------------------------------------------
    def expected(self, know: Statistic) -> Fraction:
        """Expected number of further correct guesses under optimal play."""
        total = know.count(self.n)
        if total == 0:
            raise ValueError("no deck order is consistent with this history")
        return Fraction(self.total(know), total)

    def total(self, know: Statistic) -> int:
        return self._total(canonical(know.c, know.p), know.cards_left)

    def key_total(self, key: Key, left: int) -> int:
        """``T`` of a canonical key (:func:`.counting.canonical`) with ``left`` cards still to come."""
        return self._total(key, left)

    def guess_totals(self, know: Statistic) -> list[int]:
        """For each type: ``T`` if that type is guessed now and play is optimal afterwards."""
        left = know.cards_left
        if left <= 0:
            return [0] * len(know.c)
        out = []
        for a in range(len(know.c)):
            if self.feedback is Feedback.COMPLETE:
                out.append(self._complete_guess(know, a))
                continue
            yes, no = know.after(a, True), know.after(a, False)
            w_yes = yes.count(self.n) if know.c[a] > 0 else 0
            value = w_yes + (self.total(yes) if w_yes else 0)
            if no.count(self.n):
                value += self.total(no)
            out.append(value)
        return out

    def _complete_guess(self, know: Statistic, a: int) -> int:
        value = 0
        for b in range(len(know.c)):
            if know.c[b]:
                child = know.after(b, b == a, actual=b)
                w = child.count(self.n)
                if w:
                    value += (w if b == a else 0) + self.total(child)
        return value

    def guess_values(self, know: Statistic) -> list[Fraction]:
        """Expected further correct guesses for each possible guess now (optimal play afterwards)."""
        total = know.count(self.n)
        return [Fraction(t, total) for t in self.guess_totals(know)]

    # -- the recursion ----------------------------------------------------------------------------------
    def _total(self, key: Key, left: int) -> int:
        if left <= 0:
            return 0
        state = key + (left,)
        found = self.memo.get(state)
        if found is None:
            if self.max_states is not None and len(self.memo) >= self.max_states:
                raise StateBudgetExceeded(f"more than {self.max_states} states")
            partial = self.feedback is Feedback.PARTIAL
            found = self.memo[state] = self._partial(key, left) if partial else self._complete(key, left)
        return found

    def _partial(self, key: Key, left: int) -> int:
        n = self.n.of_key
        best = 0
        previous = -1
        for i, code in enumerate(key):
            if code == previous:  # identical types: identical guesses
                continue
            previous = code
            yes = _with(key, i, code - ONE_CARD)
            w_yes = n(yes)
            if not w_yes:
                continue
            value = w_yes + self._total(yes, left - 1)
            no = _with(key, i, code + 1)
            if n(no):
                value += self._total(no, left - 1)
            if value > best:
                best = value
        return best

    def _complete(self, key: Key, left: int) -> int:
        n = self.n.of_key
        shown = 0
        best = 0
        for i, code in enumerate(key):
            child = _with(key, i, code - ONE_CARD)
            w = n(child)
            best = max(best, w)
            if w:
                shown += self._total(child, left - 1)
        return best + shown


def ensure_recursion(depth: int) -> None:
    """The recursion goes one level per card (two per card and "no" with the plain references)."""
    need = 4 * depth + 200
    if sys.getrecursionlimit() < need:
        sys.setrecursionlimit(need)
