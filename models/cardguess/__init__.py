"""Card guessing with partial or complete feedback (seed: Gural, Simper and So, 2019).

The package has the shape every game has: :mod:`.state` (the file read into a :class:`~.state.CardGame`),
:mod:`.model` (the deck order as a declarative model, one observation per guess), :mod:`.world` (the Game
interface: model, rules, candidates), :mod:`.puzzle` (solve, verify, suggest, plot; the typed answer) and
:mod:`.spec`.  Derivations: the sufficient statistic (:mod:`.counting`, the fast exact one) and the seed's
Bayes filter (:mod:`.seed`); strategies (:mod:`.strategies`), the optimal recursion (:mod:`.optimal`), exact
score distributions (:mod:`.scores`), entropy bounds (:mod:`.bounds`), studies (:mod:`.experiment`).
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
