"""The sufficient statistic of the seed (section 2) and exact posteriors read off it.

After any history of guesses the player's knowledge is ``(c, p)``: ``c[a]`` is the number of cards of type
``a`` whose position is not known (the initial count minus the cards seen), ``p[a]`` the number of
positions known *not* to hold ``a`` (the "no" answers to guesses of ``a``).  Positions of the no's do not
matter, so every deck order consistent with the history is an arrangement of the multiset ``c`` over
``|c|`` positions, ``p[a]`` of which forbid ``a``; the other ``|c| - |p|`` positions are the cards still to
come.  :func:`arrangements` counts them, ``N(c, p)``, with the seed's recursion written for multisets::

    N(c, p + e_a) = N(c, p) - N(c - e_a, p)       N(c, 0) = |c|! / prod(c_a!)

(one free position turned into a "not a" position loses the arrangements that put an ``a`` there; the seed
writes it for distinguishable cards, where the second term carries the factor ``c_a``).  Everything else is
a ratio of such counts: ``P(next is a) = N(c - e_a, p) / N(c, p)`` and the posterior of the remaining deck's
composition ``x`` is ``N(c - x, p) * |x|!/prod(x_a!) / N(c, p)``.

``N`` is symmetric under permuting the types jointly in ``c`` and ``p``, and a type with ``c[a] = 0`` makes
its "not a" positions free, so counts are memoised on a canonical key: the sorted pairs ``(c_a, p_a)`` with
``c_a > 0``, each coded as one small integer (flat tuples of ints hash fast and take little memory).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from sleuth.limits import TooLarge, max_items

Key = tuple[int, ...]
BITS = 7                 # a type is coded as c << BITS | p; counts and "no"s stay below 2**BITS
LOW = (1 << BITS) - 1


def canonical(c: Sequence[int], p: Sequence[int]) -> Key:
    """The memo key of ``(c, p)``: the sorted codes ``c_a << 7 | p_a`` of the types still unplaced."""
    if any(x > LOW for x in c) or any(x > LOW for x in p):
        raise ValueError(f"counts above {LOW} are not supported")
    return tuple(sorted(ca << BITS | pa for ca, pa in zip(c, p, strict=False) if ca > 0))


def decode(key: Key) -> list[tuple[int, int]]:
    return [(code >> BITS, code & LOW) for code in key]


def multinomial(counts: Sequence[int]) -> int:
    """``|counts|! / prod(counts_a!)``: the arrangements of a multiset."""
    total = math.factorial(sum(counts))
    for x in counts:
        total //= math.factorial(x)
    return total


ENTRY_BYTES = 400   # one memo entry: a tuple key, a big integer and the dict slot (measured: ~300-400 B)


class Arrangements:
    """Memoised ``N(c, p)`` on canonical keys (one instance can serve many decks).

    The memo holds at most ``max_entries`` values (default: the memory budget over :data:`ENTRY_BYTES`,
    see :mod:`sleuth.limits`); past that, :class:`~sleuth.limits.TooLarge` is raised.
    """

    def __init__(self, max_entries: int | None = None) -> None:
        self.memo: dict[Key, int] = {}
        self.max_entries = max_entries if max_entries is not None else max_items(None, ENTRY_BYTES)

    def __call__(self, c: Sequence[int], p: Sequence[int]) -> int:
        if any(x < 0 for x in c):
            return 0
        return self.of_key(canonical(c, p))

    def of_key(self, key: Key) -> int:
        found = self.memo.get(key)
        if found is None:
            if len(self.memo) >= self.max_entries:
                raise TooLarge(f"counting deck orders needs more than {self.max_entries:,} memoised counts (the limit "
                               "is --set max_worlds, else the memory budget); raise either")
            found = self.memo[key] = self._compute(key)
        return found

    def _compute(self, key: Key) -> int:
        total_c = total_p = 0
        for code in key:
            total_c += code >> BITS
            total_p += code & LOW
        if total_p > total_c:
            return 0
        for code in key:
            ca, pa = code >> BITS, code & LOW
            if pa > total_c - ca:  # more "not a" positions than cards other than a
                return 0
        for i, code in enumerate(key):
            if code & LOW:
                # N(c, p) = N(c, p - e_a) - N(c - e_a, p - e_a)
                rest = key[:i] + key[i + 1:]
                value = self.of_key(tuple(sorted(rest + (code - 1,))))
                both = code - (1 << BITS) - 1
                value -= self.of_key(tuple(sorted(rest + (both,))) if both >> BITS else rest)
                return value
        return multinomial([code >> BITS for code in key])


def bump(v: tuple[int, ...], a: int, by: int) -> tuple[int, ...]:
    """``v`` with ``by`` added at index ``a``."""
    return v[:a] + (v[a] + by,) + v[a + 1:]


@dataclass(frozen=True)
class Statistic:
    """The sufficient statistic ``(c, p)`` of a history; methods give exact probabilities."""

    c: tuple[int, ...]
    p: tuple[int, ...]

    @classmethod
    def initial(cls, counts: Sequence[int]) -> Statistic:
        return cls(tuple(counts), (0,) * len(counts))

    @property
    def cards_left(self) -> int:
        """Positions still to be dealt (the unknown cards minus the "no" positions)."""
        return sum(self.c) - sum(self.p)

    def after(self, guess: int, correct: bool, actual: int | None = None) -> Statistic:
        """The statistic after one guess: right (or a shown card) removes a card, wrong adds a "no"."""
        if actual is not None:
            return Statistic(bump(self.c, actual, -1), self.p)
        if correct:
            return Statistic(bump(self.c, guess, -1), self.p)
        return Statistic(self.c, bump(self.p, guess, 1))

    def count(self, n: Arrangements) -> int:
        """``N(c, p)``: deck orders consistent with the history (0 when the history is impossible)."""
        return n(self.c, self.p)

    def next_weights(self, n: Arrangements) -> list[int]:
        """For each type, the consistent orders whose next card is that type (they sum to ``N(c, p)``)."""
        if self.cards_left <= 0:
            return [0] * len(self.c)
        return [n(bump(self.c, a, -1), self.p) if self.c[a] else 0 for a in range(len(self.c))]

    def next_probabilities(self, n: Arrangements) -> list[Fraction]:
        total = self.count(n)
        if total == 0:
            raise ValueError("no deck order is consistent with this history")
        return [Fraction(w, total) for w in self.next_weights(n)]

    def compositions(self, n: Arrangements) -> Iterator[tuple[tuple[int, ...], int]]:
        """``(x, weight)`` for each possible composition ``x`` of the cards to come (weights sum to N)."""
        left = self.cards_left
        if left < 0:
            return
        for x in _bounded_vectors(self.c, left):
            hidden = tuple(ca - xa for ca, xa in zip(self.c, x, strict=False))
            weight = n(hidden, self.p) * multinomial(x)
            if weight:
                yield x, weight

    def posterior(self, n: Arrangements) -> dict[tuple[int, ...], Fraction]:
        """Exact probability of each composition of the remaining deck (sorted by composition)."""
        total = self.count(n)
        if total == 0:
            raise ValueError("no deck order is consistent with this history")
        return {x: Fraction(w, total) for x, w in sorted(self.compositions(n))}

    def entropy(self, n: Arrangements) -> float:
        """Entropy (bits) of the remaining deck's composition."""
        return entropy_bits(self.posterior(n).values())

    def conditional_entropy(self, guess: int, n: Arrangements) -> float:
        """``H(c_{n+1} | X_n(guess))`` in bits: the expected entropy after guessing ``guess`` (seed 2.2)."""
        weights = self.next_weights(n)
        total = sum(weights)
        p_yes = Fraction(weights[guess], total)
        h = 0.0
        if p_yes:
            h += float(p_yes) * self.after(guess, True).entropy(n)
        if p_yes != 1:
            h += float(1 - p_yes) * self.after(guess, False).entropy(n)
        return h


def entropy_bits(probabilities: Iterable[Fraction]) -> float:
    return -sum(float(q) * math.log2(q) for q in probabilities if q)


def _bounded_vectors(upper: Sequence[int], total: int) -> Iterator[tuple[int, ...]]:
    """Integer vectors ``0 <= x <= upper`` with ``sum(x) == total``, in lexicographic order."""
    if not upper:
        if total == 0:
            yield ()
        return
    rest_max = sum(upper[1:])
    for first in range(max(0, total - rest_max), min(upper[0], total) + 1):
        for tail in _bounded_vectors(upper[1:], total - first):
            yield (first, *tail)


def brute_force_posterior(counts: Sequence[int], history: Sequence[tuple[int, bool, int | None]]
                          ) -> dict[tuple[int, ...], Fraction]:
    """Posterior by listing every distinct deck order (tiny decks only; a reference for tests)."""
    cards = [a for a, k in enumerate(counts) for _ in range(k)]
    tally: dict[tuple[int, ...], int] = {}
    for order in set(itertools.permutations(cards)):
        if all((order[i] == g) == ok and (actual is None or order[i] == actual)
               for i, (g, ok, actual) in enumerate(history)):
            rest = order[len(history):]
            x = tuple(rest.count(a) for a in range(len(counts)))
            tally[x] = tally.get(x, 0) + 1
    total = sum(tally.values())
    return {x: Fraction(w, total) for x, w in sorted(tally.items())}
