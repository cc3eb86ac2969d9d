"""Card guessing with partial or complete feedback (seed: Gural, Simper and So, 2019).

Exact posteriors from the sufficient statistic (:mod:`.counting`), cross-checked by counting the solutions
of a CP-SAT model of the deck order (:mod:`.orders`) and by the seed's own Bayes filter (:mod:`.seed`);
strategies (:mod:`.strategies`), the optimal recursion (:mod:`.optimal`), exact score distributions
(:mod:`.scores`), entropy bounds (:mod:`.bounds`), experiments and the benchmark (:mod:`.experiment`).
"""

from __future__ import annotations

from sleuth.puzzle import Puzzle, PuzzleDoc

from .counting import Arrangements, Knowledge
from .optimal import Feedback, OptimalSolver
from .scores import ScoreDistribution, score_distribution
from .strategies import STRATEGIES, make_strategy

CLAIM_KEYS = ("method", "gamma", "step")
HAS_VIEWER = False  # one guesser: a viewer is noted as ignored


def expected_score(deck: tuple[int, ...], strategy: str = "optimal", feedback: str = "partial",
                   **params: object) -> ScoreDistribution:
    """Exact score distribution of a strategy on a fresh deck, e.g. ``expected_score((3, 3, 3)).expected``."""
    return score_distribution(make_strategy(strategy, Feedback(feedback), None, **params), tuple(deck))


def load(doc: PuzzleDoc) -> Puzzle:
    from .puzzle import CardGuessPuzzle
    return CardGuessPuzzle(doc)


__all__ = ["Arrangements", "CLAIM_KEYS", "Feedback", "Knowledge", "OptimalSolver", "STRATEGIES",
           "ScoreDistribution", "expected_score", "load", "make_strategy", "score_distribution"]
