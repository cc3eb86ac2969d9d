"""A card-guessing game state: the deck, the feedback mode and the history, checked and solved."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal, overload

from sleuth.errors import InternalError, PuzzleError
from sleuth.puzzle import PuzzleDoc
from sleuth.schema import Names, Section, describe

from .counting import Arrangements, Statistic
from .optimal import Feedback, StateBudgetExceeded, ensure_recursion
from .model import Guess
from .scores import Evaluator, ScoreDistribution
from .strategies import Optimal, Strategy, first_max, make_strategy

MAX_TYPES = 16
MAX_COUNT = 100
MAX_CARDS = 120
MAX_COMPOSITIONS = 1_000_000   # compositions listed in `remaining`
MAX_STATES = 250_000           # memoised states for suggest / claims before giving up (about 2-4 s)
TOO_LARGE_FOR_OPTIMAL = (f"the deck is too large for the exact optimal strategy: its recursion passed the limit of "
                         f"{MAX_STATES:,} states; use --method greedy, entropy, expected-counts or constant-step, "
                         "or a smaller deck")


@dataclass
class CardGuessState:
    """The deck's types and counts (in the file's order), the feedback mode and the guesses so far."""

    types: list[str]
    counts: tuple[int, ...]
    feedback: Feedback = Feedback.PARTIAL
    history: list[Guess] = field(default_factory=list)
    arrangements: Arrangements = field(default_factory=Arrangements)

    # -- the sufficient statistic ------------------------------------------------------------------------
    def statistic(self, upto: int | None = None) -> Statistic:
        """The sufficient statistic after the first ``upto`` guesses (default: all)."""
        know = Statistic.initial(self.counts)
        for g in self.history[:upto]:
            know = know.after(g.card, g.correct, g.actual)
        return know

    @property
    def consistent(self) -> bool:
        know = self.statistic()
        return all(x >= 0 for x in know.c) and know.count(self.arrangements) > 0

    def composition(self, x: Sequence[int]) -> dict[str, int]:
        return dict(zip(self.types, x, strict=False))

    def posterior(self, upto: int | None = None) -> dict[tuple[int, ...], Fraction]:
        know = self.statistic(upto)
        size = math.prod(c + 1 for c in know.c)
        if size > MAX_COMPOSITIONS:
            raise PuzzleError(f"the remaining deck has up to {size} possible compositions; listing is limited "
                              f"to {MAX_COMPOSITIONS}")
        return know.posterior(self.arrangements)

    def next_probabilities(self) -> dict[str, Fraction]:
        return dict(zip(self.types, self.statistic().next_probabilities(self.arrangements), strict=False))

    # -- strategies -----------------------------------------------------------------------------------
    def strategy(self, name: str, **params: Any) -> Strategy:
        return make_strategy(name, self.feedback, self.arrangements, **params)

    def strategy_state(self, strategy: Strategy) -> Any:
        """The strategy's own state after replaying the history (the running counts of section 6)."""
        state = strategy.start(self.counts)
        for g in self.history:
            state = strategy.observe(state, g.card, g.correct, g.actual)
        return state

    @overload
    def further(self, strategy: Strategy, *, required: Literal[True] = ...) -> ScoreDistribution: ...

    @overload
    def further(self, strategy: Strategy, *, required: bool) -> ScoreDistribution | None: ...

    def further(self, strategy: Strategy, *, required: bool = True) -> ScoreDistribution | None:
        """Exact distribution of the further correct guesses if ``strategy`` plays from here.

        When it needs more than :data:`MAX_STATES` states: an error, or None if not ``required``.
        """
        know = self.statistic()
        ensure_recursion(sum(self.counts) * 2)
        try:
            return Evaluator(strategy, max_states=MAX_STATES).distribution(know, self.strategy_state(strategy))
        except StateBudgetExceeded:
            if not required:
                return None
            raise PuzzleError(f"the deck is too large for an exact evaluation of {strategy.name!r} "
                              f"(more than {MAX_STATES} states)") from None

    def best(self, strategy: Strategy) -> tuple[int, list[Any]]:
        """The strategy's guess now and its score for every type."""
        know = self.statistic()
        ensure_recursion(sum(self.counts) * 2)
        if isinstance(strategy, Optimal) and strategy.solver.max_states is None:
            strategy.solver.max_states = MAX_STATES
        try:
            scores = strategy.scores(self.strategy_state(strategy), know)
        except StateBudgetExceeded:
            raise PuzzleError(TOO_LARGE_FOR_OPTIMAL) from None
        return first_max(scores), scores

    def optimal_values(self) -> list[Fraction]:
        """Expected further correct guesses after guessing each type now, then playing optimally."""
        strategy = self.strategy("optimal")
        if not isinstance(strategy, Optimal):
            raise InternalError(f"'optimal' made {strategy!r}")
        strategy.solver.max_states = MAX_STATES
        ensure_recursion(sum(self.counts) * 2)
        try:
            return strategy.values(self.statistic())
        except StateBudgetExceeded:
            raise PuzzleError(TOO_LARGE_FOR_OPTIMAL) from None


# -- reading a puzzle file ----------------------------------------------------------------------------

def read_state(doc: PuzzleDoc) -> CardGuessState:
    """The game part of a puzzle file (``deck``, ``feedback``, ``[[guess]]``), fully checked."""
    section = doc.section
    types, counts = read_deck(section)
    feedback = Feedback(section.string("feedback", "partial", choices=[f.value for f in Feedback]))
    names = Names("card", types)
    history: list[Guess] = []
    guesses = section.sections("guess")
    if len(guesses) > sum(counts):
        raise section.error(f"{len(guesses)} guesses for a deck of {sum(counts)} cards", "guess",
                            allowed=f"at most {sum(counts)} guesses")
    for gs in guesses:
        history.append(read_guess(gs, names, feedback))
        gs.finish()
    return CardGuessState(types, counts, feedback, history)


def read_deck(section: Section) -> tuple[list[str], tuple[int, ...]]:
    deck = section.raw("deck")
    if not isinstance(deck, dict):
        raise section.error(f"expected a table of card types and counts, got {describe(deck)}", "deck",
                            allowed="e.g. deck = { J = 3, Q = 3, K = 3 }")
    ds = section.section("deck")
    if not 1 <= len(ds.data) <= MAX_TYPES:
        raise section.error(f"has {len(ds.data)} card types", "deck", allowed=f"1 to {MAX_TYPES} types")
    types = [str(k).strip() for k in ds.data]
    for raw_name, name in zip(ds.data, types, strict=False):
        if not name:
            raise ds.error("a card type needs a name", raw_name)
    try:
        Names("card", types)
    except PuzzleError as exc:
        raise ds.error(f"{exc.message} (names are compared ignoring case)") from None
    counts = tuple(ds.integer(k, lo=1, hi=MAX_COUNT) for k in ds.data)
    if sum(counts) > MAX_CARDS:
        raise section.error(f"has {sum(counts)} cards", "deck", allowed=f"at most {MAX_CARDS} cards")
    return types, counts


def read_guess(gs: Section, names: Names, feedback: Feedback) -> Guess:
    card = names.index(gs.string("card"), gs, "card")
    correct = gs.boolean("correct", None)
    if feedback is Feedback.PARTIAL:
        if gs.has("actual"):
            raise gs.error("'actual' is only known with complete feedback", "actual",
                           allowed="card, correct (feedback = \"partial\")")
        if correct is None:
            raise gs.error("is required with partial feedback", "correct", allowed="true, false")
        return Guess(card, correct)
    if not gs.has("actual"):
        raise gs.error("is required with complete feedback (the card shown)", "actual", allowed=list(names))
    actual = names.index(gs.string("actual"), gs, "actual")
    if correct is not None and correct != (actual == card):
        raise gs.error(f"correct = {describe(correct)} contradicts card {names.names[card]!r} and actual "
                       f"{names.names[actual]!r}", "correct", allowed=describe(actual == card))
    return Guess(card, actual == card, actual)


def read_method(value: Any, place: str, file: str | None = None) -> str:
    """A strategy name (or alias), as its canonical name."""
    from .game import GAME

    return GAME.suggest_method(value, file=file, place=place).name


def read_parameter(value: Any, key: str, place: str, file: str | None = None) -> Fraction:
    """``gamma`` (0..100) or ``step`` (0..MAX_COUNT) as an exact fraction."""
    from sleuth.schema import parse_fraction
    try:
        frac = parse_fraction(value)
    except PuzzleError as exc:
        raise PuzzleError(exc.message, file=file, place=place, allowed=exc.allowed) from None
    hi = 100 if key == "gamma" else MAX_COUNT
    if not 0 <= frac <= hi:
        raise PuzzleError(f"{key} = {value} is out of range", file=file, place=place, allowed=f"0 to {hi}")
    return frac
