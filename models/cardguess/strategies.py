"""Guessing strategies.  Each scores every type and guesses the best, ties to the lowest index in the deck.

A strategy may carry a state of its own (the playable strategies of the seed's section 6 keep running
counts); ``start`` gives it for a fresh deck and ``observe`` updates it after each guess.  Posterior-based
strategies (greedy, optimal, entropy) have no state: they read the sufficient statistic.

============================  ===============================================================================
``greedy``                    the type most likely to be next (seed Definition 2.1)
``optimal``                   the guess of eq. (1): most expected correct guesses to the end
``entropy``                   ``P(next is a) - gamma * H(c_{n+1} | X_n(a))`` in bits (seed 2.2, 5.6)
``expected-counts``           section 6: running expected counts ``C``; right: ``C_g -= 1``; wrong:
                              ``C_i -= C_i / sum_{j != g} C_j`` for the other types; negatives set to 0
``constant-step``             section 6 variant: wrong: ``C_i -= step`` (0.55) for the other types
============================  ===============================================================================

The running counts are exact fractions, so their decisions (and ties) are exact too.  With complete
feedback they subtract the card shown, which makes them greedy.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, ClassVar

from sleuth.errors import InternalError

from .counting import Arrangements, Statistic
from .optimal import Feedback, OptimalSolver

Score = Fraction | float | int


class Strategy(ABC):
    """A deterministic strategy: per-type scores, the first maximum is the guess."""

    name: ClassVar[str]
    label: ClassVar[str]

    def __init__(self, feedback: Feedback = Feedback.PARTIAL, arrangements: Arrangements | None = None) -> None:
        self.feedback = feedback
        self.n = arrangements or Arrangements()

    def start(self, counts: Sequence[int]) -> Hashable:
        """The strategy's own state before the first guess."""
        return None

    def observe(self, state: Hashable, guess: int, correct: bool, actual: int | None) -> Hashable:
        """The state after a guess and its feedback (``actual`` with complete feedback)."""
        return state

    @abstractmethod
    def scores(self, state: Hashable, know: Statistic) -> list[Score]:
        """How good each guess looks to this strategy (higher is better)."""

    def choose(self, state: Hashable, know: Statistic) -> int:
        return first_max(self.scores(state, know))

    def describe(self) -> str:
        return self.name


def first_max(scores: Sequence[Score]) -> int:
    """Index of the largest score; ties go to the lowest index (the deck's order)."""
    best = 0
    for i, s in enumerate(scores):
        if s > scores[best]:
            best = i
    return best


class Greedy(Strategy):
    name = "greedy"
    label = "P(next)"

    def scores(self, state: Hashable, know: Statistic) -> list[Score]:
        return list(know.next_probabilities(self.n))


class Optimal(Strategy):
    name = "optimal"
    label = "E(further correct)"

    def __init__(self, feedback: Feedback = Feedback.PARTIAL, arrangements: Arrangements | None = None,
                 solver: OptimalSolver | None = None) -> None:
        super().__init__(feedback, arrangements)
        self.solver = solver or OptimalSolver(feedback, self.n)

    def scores(self, state: Hashable, know: Statistic) -> list[Score]:
        return list(self.solver.guess_totals(know))  # integers: proportional to the expected values

    def values(self, know: Statistic) -> list[Fraction]:
        return self.solver.guess_values(know)


class Entropy(Strategy):
    name = "entropy"
    label = "P - gamma*H"

    def __init__(self, feedback: Feedback = Feedback.PARTIAL, arrangements: Arrangements | None = None,
                 gamma: float = 0.15) -> None:
        super().__init__(feedback, arrangements)
        self.gamma = float(gamma)

    def scores(self, state: Hashable, know: Statistic) -> list[Score]:
        probs = know.next_probabilities(self.n)
        if self.feedback is Feedback.COMPLETE:  # the composition is known after every card: H = 0
            return [float(q) for q in probs]
        # rounded so that types in symmetric positions tie exactly (then the lowest index wins)
        return [round(float(probs[a]) - self.gamma * know.conditional_entropy(a, self.n), 12)
                for a in range(len(probs))]

    def describe(self) -> str:
        return f"entropy (gamma={self.gamma:g})"


def _running_counts(state: Hashable) -> list[Fraction]:
    """The state of the running-count strategies: one expected count per type."""
    if not isinstance(state, tuple):
        raise InternalError(f"a running-count strategy was given the state {state!r}")
    return list(state)


class ExpectedCounts(Strategy):
    """Section 6: the player keeps one running expected count per type."""

    name = "expected-counts"
    label = "running count"

    def start(self, counts: Sequence[int]) -> Hashable:
        return tuple(Fraction(x) for x in counts)

    def observe(self, state: Hashable, guess: int, correct: bool, actual: int | None) -> Hashable:
        counts = _running_counts(state)
        if actual is not None or correct:
            seen = guess if actual is None else actual
            counts[seen] -= 1
        else:
            counts = self.spread_miss(counts, guess)
        return tuple(max(Fraction(0), x) for x in counts)

    def spread_miss(self, counts: list[Fraction], guess: int) -> list[Fraction]:
        others = sum(x for i, x in enumerate(counts) if i != guess)
        if others <= 0:
            return counts
        return [x if i == guess else x - x / others for i, x in enumerate(counts)]

    def scores(self, state: Hashable, know: Statistic) -> list[Score]:
        return list[Score](_running_counts(state))


class ConstantStep(ExpectedCounts):
    """Section 6 variant: after a miss, subtract a constant from every other type's count."""

    name = "constant-step"
    label = "running count"

    def __init__(self, feedback: Feedback = Feedback.PARTIAL, arrangements: Arrangements | None = None,
                 step: Fraction = Fraction(11, 20)) -> None:
        super().__init__(feedback, arrangements)
        self.step = Fraction(step)

    def spread_miss(self, counts: list[Fraction], guess: int) -> list[Fraction]:
        return [x if i == guess else x - self.step for i, x in enumerate(counts)]

    def describe(self) -> str:
        return f"constant-step (step={self.step})"


STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (Greedy, Optimal, Entropy, ExpectedCounts, ConstantStep)}


def make_strategy(name: str, feedback: Feedback = Feedback.PARTIAL, arrangements: Arrangements | None = None,
                  **params: Any) -> Strategy:
    """A strategy by its canonical name; ``gamma`` (entropy) and ``step`` (constant-step) are parameters."""
    cls = STRATEGIES[name]
    kwargs: dict[str, Any] = {}
    if cls is Entropy and params.get("gamma") is not None:
        kwargs["gamma"] = params["gamma"]
    if cls is ConstantStep and params.get("step") is not None:
        kwargs["step"] = params["step"]
    return cls(feedback, arrangements, **kwargs)
