"""Exact score distributions of deterministic strategies.

``counts[k]`` is the number of deck orders consistent with the current knowledge on which the strategy
makes exactly ``k`` further correct guesses; they sum to ``N(c, p)``, so the distribution and the expected
score are exact fractions.  The recursion follows the feedback: with partial feedback the orders split on
"next card is the guess" (``N(c - e_g, p)`` of them) or not (``N(c, p + e_g)``); with complete feedback on
which type is shown.  It is memoised on the knowledge and the strategy's own state.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .counting import Statistic
from .optimal import Feedback, StateBudgetExceeded, ensure_recursion
from .strategies import Strategy


@dataclass(frozen=True)
class ScoreDistribution:
    """How many further guesses come out right, over the consistent deck orders."""

    counts: tuple[int, ...]  # counts[k]: deck orders with exactly k further correct guesses

    @property
    def total(self) -> int:
        return sum(self.counts)

    @property
    def expected(self) -> Fraction:
        return Fraction(sum(k * w for k, w in enumerate(self.counts)), self.total)

    @property
    def probabilities(self) -> dict[int, Fraction]:
        return {k: Fraction(w, self.total) for k, w in enumerate(self.counts) if w}

    def to_json(self) -> dict[str, Any]:
        return {"expected": str(self.expected), "expected_decimal": float(self.expected),
                "distribution": {str(k): str(q) for k, q in self.probabilities.items()}}


def _shift_add(acc: list[int], dist: tuple[int, ...], by: int) -> None:
    need = len(dist) + by
    if len(acc) < need:
        acc.extend([0] * (need - len(acc)))
    for k, w in enumerate(dist):
        acc[k + by] += w


class Evaluator:
    """Score distributions of one strategy, memoised on (knowledge, strategy state)."""

    def __init__(self, strategy: Strategy, *, max_states: int | None = None) -> None:
        self.strategy = strategy
        self.n = strategy.n
        self.memo: dict[tuple[Statistic, Hashable], tuple[int, ...]] = {}
        self.max_states = max_states

    def distribution(self, know: Statistic, state: Hashable) -> ScoreDistribution:
        if know.count(self.n) == 0:
            raise ValueError("no deck order is consistent with this history")
        ensure_recursion(sum(know.c) + sum(know.p))
        return ScoreDistribution(self._counts(know, state))

    def _counts(self, know: Statistic, state: Hashable) -> tuple[int, ...]:
        if know.cards_left <= 0:
            return (know.count(self.n),)
        key = (know, state)
        found = self.memo.get(key)
        if found is not None:
            return found
        if self.max_states is not None and len(self.memo) >= self.max_states:
            raise StateBudgetExceeded(f"more than {self.max_states} states")
        s = self.strategy
        guess = s.choose(state, know)
        acc: list[int] = []
        branches: list[tuple[bool, int | None]]
        if s.feedback is Feedback.PARTIAL:
            branches = [(True, None), (False, None)]
        else:
            branches = [(b == guess, b) for b in range(len(know.c)) if know.c[b]]
        for correct, actual in branches:
            child = know.after(guess, correct, actual)
            if child.count(self.n):
                _shift_add(acc, self._counts(child, s.observe(state, guess, correct, actual)), int(correct))
        result = tuple(acc)
        self.memo[key] = result
        return result


def score_distribution(strategy: Strategy, counts: tuple[int, ...],
                       max_states: int | None = None) -> ScoreDistribution:
    """The whole game's score distribution for a fresh deck."""
    return Evaluator(strategy, max_states=max_states).distribution(Statistic.initial(counts),
                                                                     strategy.start(counts))
