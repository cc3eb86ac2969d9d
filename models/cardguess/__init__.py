"""Card guessing with partial or complete feedback (seed: Gural, Simper and So, 2019).

The package has the shape every game has: :mod:`.game` (the game's declaration), :mod:`.state` (the file read
into a :class:`~.state.CardGuessState`), :mod:`.model` (the deck order as a declarative model, one observation per
guess), :mod:`.world` (the declarative side: model, rules, candidates) and :mod:`.puzzle` (solve, verify,
suggest, plot; the typed answer).  Derivations: the sufficient statistic (:mod:`.counting`, the fast exact one)
and the seed's Bayes filter (:mod:`.seed`); strategies (:mod:`.strategies`), the optimal recursion
(:mod:`.optimal`), exact score distributions (:mod:`.scores`), entropy bounds (:mod:`.bounds`), studies
(:mod:`.experiment`).  The names below are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.game import lazy_exports

if TYPE_CHECKING:
    from sleuth.puzzle import Puzzle, PuzzleDoc

    from .counting import Arrangements, Statistic
    from .optimal import Feedback, OptimalSolver
    from .scores import ScoreDistribution, score_distribution
    from .strategies import STRATEGIES, make_strategy

_LAZY = {"Arrangements": "counting", "Statistic": "counting", "Feedback": "optimal", "OptimalSolver": "optimal",
         "ScoreDistribution": "scores", "score_distribution": "scores", "STRATEGIES": "strategies",
         "make_strategy": "strategies"}


def expected_score(deck: tuple[int, ...], strategy: str = "optimal", feedback: str = "partial",
                   **params: object) -> ScoreDistribution:
    """Exact score distribution of a strategy on a fresh deck, e.g. ``expected_score((3, 3, 3)).expected``."""
    from .optimal import Feedback
    from .scores import score_distribution
    from .strategies import make_strategy

    return score_distribution(make_strategy(strategy, Feedback(feedback), None, **params), tuple(deck))


def load(doc: PuzzleDoc) -> Puzzle:
    from .puzzle import CardGuessPuzzle
    return CardGuessPuzzle(doc)


__getattr__ = lazy_exports(__name__, _LAZY)


__all__ = ["Arrangements", "Feedback", "Statistic", "OptimalSolver", "STRATEGIES", "ScoreDistribution",
           "expected_score", "load", "make_strategy", "score_distribution"]
