"""Entropy bounds on the greedy score with complete feedback (seed section 4).

With complete feedback the remaining composition before the ``j``-th card is known to the player and is
hypergeometric; the greedy player is right with probability ``1 - pi`` where ``pi`` is the minimal error
probability of guessing the next card.  Fano's inequality, ``H <= Phi(pi) = h(pi) + pi log(M - 1)``, bounds
``pi`` from below, and Feder and Merhav's lemma, ``H >= phi(pi)`` with ``phi`` the least entropy of a
distribution whose largest mass is ``1 - pi`` (piecewise: ``k = floor(1 / (1 - pi))`` masses ``1 - pi`` and
the rest), bounds it from above.  ``M`` is the number of types.  The inverses are taken by bisection
(both functions increase on ``[0, (M - 1) / M]``).

Two ways of applying them are reported:

* ``averaged`` — the seed's: invert the step's average entropy ``H_j = sum_r P(r) H(r)``.  With Fano this is
  a valid bound (``Phi^-1`` is convex); with ``phi`` it is what the seed computes (about 4.70 on (3,3,3)),
  but not a proven bound, since ``phi^-1`` is not concave.
* ``per state`` — invert each state's entropy and average the bounds: valid for both.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction


def binary_entropy(x: float) -> float:
    return 0.0 if x <= 0 or x >= 1 else -x * math.log2(x) - (1 - x) * math.log2(1 - x)


def fano(pi: float, m: int) -> float:
    """``Phi(pi) = h(pi) + pi log2(M - 1)``: the largest entropy with error probability ``pi``."""
    return binary_entropy(pi) + pi * math.log2(m - 1) if m > 1 else 0.0


def feder_merhav(pi: float, m: int) -> float:
    """``phi(pi)``: the smallest entropy of a distribution whose largest probability is ``1 - pi``."""
    q = 1.0 - pi
    k = min(m - 1, max(1, math.floor(1.0 / q + 1e-12))) if m > 1 else 1
    rest = max(0.0, 1.0 - k * q)
    return -k * q * math.log2(q) - (rest * math.log2(rest) if rest > 0 else 0.0)


def inverse(f: Callable[[float, int], float], h: float, m: int, iterations: int = 80) -> float:
    """The ``pi`` in ``[0, (M-1)/M]`` with ``f(pi) = h`` (clamped to the interval)."""
    lo, hi = 0.0, (m - 1) / m
    for _ in range(iterations):
        mid = (lo + hi) / 2
        if f(mid, m) < h:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


@dataclass(frozen=True)
class StepBound:
    step: int              # 1-based position of the card guessed
    entropy: float         # average entropy of the next card (bits)
    greedy: Fraction       # exact probability that greedy is right at this step
    lower_avg: float       # P(correct) >= 1 - phi^-1(H_j)    (seed's way)
    upper_avg: float       # P(correct) <= 1 - Phi^-1(H_j)
    lower_state: float     # averages of the per-state bounds
    upper_state: float


@dataclass(frozen=True)
class FanoBounds:
    deck: tuple[int, ...]
    steps: tuple[StepBound, ...]

    @property
    def greedy(self) -> Fraction:
        return sum((s.greedy for s in self.steps), Fraction(0))

    def total(self, attr: str) -> float:
        return sum(getattr(s, attr) for s in self.steps)


def complete_feedback_bounds(deck: Sequence[int]) -> FanoBounds:
    """Per-step entropies, exact greedy success and both bounds, for complete feedback."""
    deck = tuple(deck)
    m, n = len(deck), sum(deck)
    steps = []
    for j in range(n):
        left = n - j
        total = math.comb(n, left)
        entropy = 0.0
        exact = Fraction(0)
        low_state = up_state = 0.0
        for r in itertools.product(*[range(c + 1) for c in deck]):
            if sum(r) != left:
                continue
            weight = Fraction(math.prod(math.comb(c, x) for c, x in zip(deck, r, strict=False)), total)
            if not weight:
                continue
            h = -sum(x / left * math.log2(x / left) for x in r if x)
            entropy += float(weight) * h
            exact += weight * Fraction(max(r), left)
            low_state += float(weight) * (1 - inverse(feder_merhav, h, m))
            up_state += float(weight) * (1 - inverse(fano, h, m))
        steps.append(StepBound(j + 1, entropy, exact, 1 - inverse(feder_merhav, entropy, m),
                               1 - inverse(fano, entropy, m), low_state, up_state))
    return FanoBounds(deck, tuple(steps))
