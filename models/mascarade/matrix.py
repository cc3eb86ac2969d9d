"""The seed's doubly stochastic matrix update: P(position holds identity) only, n x k exact fractions.

A swap-or-not is linear in the marginals, so for swaps (known or not) the matrix is exact.  A reveal or a look
conditions the joint distribution, which the marginals alone do not determine: the update below (the observed
row becomes certain, the observed identity's column is rescaled to its remaining count over the other rows,
then every row is renormalised) is an *estimate*, and the matrix says so from then on (``exact`` is False).
An observation that was already certain in the matrix changes nothing and keeps it exact.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from fractions import Fraction


class MatrixBelief:
    """Marginals of one viewer's belief, updated by the doubly stochastic matrix rule."""

    def __init__(self, initial: Sequence[int], prior: Fraction = Fraction(1, 2)) -> None:
        self.initial = tuple(initial)
        self.prior = Fraction(prior)
        self.n_ids = max(self.initial) + 1
        self.counts = Counter(self.initial)
        self.rows: list[list[Fraction]] = [[Fraction(int(c == j)) for j in range(self.n_ids)] for c in self.initial]
        self.exact = True
        self.consistent = True
        self.note = ""

    def swap(self, a: int, b: int, outcome: bool | None) -> None:
        if outcome is None and self.prior in (0, 1):
            outcome = self.prior == 1
        ra, rb = self.rows[a], self.rows[b]
        if outcome is None:
            p, q = self.prior, 1 - self.prior
            self.rows[a] = [q * x + p * y for x, y in zip(ra, rb, strict=True)]
            self.rows[b] = [p * x + q * y for x, y in zip(ra, rb, strict=True)]
        elif outcome:
            self.rows[a], self.rows[b] = rb, ra

    def see(self, pos: int, card: int) -> bool:
        row = self.rows[pos]
        if row[card] == 1:
            return True
        if row[card] == 0:
            # Exact while the matrix is exact (a zero marginal means no world); an estimate otherwise.
            self.consistent = False
            if not self.exact:
                self.note += " The estimate puts 0 on an observed card; the exact methods may not."
            return False
        self.exact = False
        self.note = ("The matrix is exact for swaps only: after a reveal or a look it is an estimate "
                     "(the observed column is rescaled and the rows renormalised), not the belief.")
        self.rows[pos] = [Fraction(int(j == card)) for j in range(self.n_ids)]
        others = [r for i, r in enumerate(self.rows) if i != pos]
        mass = sum((r[card] for r in others), Fraction(0))
        left = self.counts[card] - 1
        for r in others:
            r[card] = r[card] * left / mass if mass else Fraction(0)
            s = sum(r)
            if s:
                r[:] = [x / s for x in r]
        return True

    def marginals(self) -> list[dict[int, Fraction]]:
        if not self.consistent:
            return [{} for _ in self.initial]
        return [{j: x for j, x in enumerate(r) if x} for r in self.rows]
