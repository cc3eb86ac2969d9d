"""The deck order as a constraint model, the second derivation of the posterior.

One variable per position holds the type of the card there; the deck's composition is one observation
(exactly ``count`` positions hold each type) and each guess is another (position ``i`` holds / does not
hold the guessed type; with complete feedback it holds the card shown).  Every solution is one deck order;
counting the solutions by the composition of the positions still to come gives the posterior, and because
all orders of a uniformly shuffled deck are equally likely that count is exact.  Enumeration is only
sensible for small decks (:data:`MAX_ORDERS`); it is the cross-check of :mod:`counting`, and the model
also names a minimal set of conflicting guesses when a history is impossible.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from sleuth.engine import Engine
from sleuth.model import Model, Var

from .counting import multinomial

MAX_ORDERS = 200_000


@dataclass(frozen=True)
class Guess:
    """One guess of the history: the type guessed, whether it was right, and the card shown if any."""

    card: int
    correct: bool
    actual: int | None = None


@dataclass
class CardGuessModel:
    model: Model
    positions: list[Var]


def build_model(types: Sequence[str], counts: Sequence[int], history: Sequence[Guess]) -> CardGuessModel:
    """The model of the deck order with one observation for the composition and one per guess."""
    m = Model()
    positions = [m.int_var(0, len(types) - 1, f"card {i + 1}") for i in range(sum(counts))]
    deck = ", ".join(f"{k} {t}" for t, k in zip(types, counts, strict=False))
    with m.observation(f"deck: {deck}"):
        for a, k in enumerate(counts):
            m.add_exactly(k, [m.indicator(v, a) for v in positions])
    for i, g in enumerate(history):
        name = types[g.card]
        if g.actual is not None:
            label = f"guess {i + 1}: {name}, shown {types[g.actual]}"
        else:
            label = f"guess {i + 1}: {name} {'right' if g.correct else 'wrong'}"
        with m.observation(label):
            if g.actual is not None:
                m.add(positions[i] == g.actual)
            else:
                m.add(positions[i] == g.card if g.correct else positions[i] != g.card)
    return CardGuessModel(m, positions)


@dataclass(frozen=True)
class EnumeratedPosterior:
    orders: int                                        # deck orders consistent with the history
    remaining: dict[tuple[int, ...], Fraction]         # composition of the cards to come
    next_card: list[Fraction]                          # type of the next card


def enumerate_posterior(types: Sequence[str], counts: Sequence[int], history: Sequence[Guess],
                        backend: str = "cpsat", time_limit: float | None = None) -> EnumeratedPosterior:
    """Count the solutions of the order model by remaining composition and next card."""
    total_orders = multinomial(counts)
    if total_orders > MAX_ORDERS:
        raise ValueError(f"the deck has {total_orders} orders; enumeration is limited to {MAX_ORDERS}")
    om = build_model(types, counts, history)
    engine = Engine(om.model, backend, time_limit=time_limit)
    future = om.positions[len(history):]
    by_comp: Counter[tuple[int, ...]] = Counter()
    by_next: Counter[int] = Counter()
    orders = 0
    for order in engine.valids(om.positions):
        rest = order[len(history):]
        by_comp[tuple(rest.count(a) for a in range(len(types)))] += 1
        if future:
            by_next[rest[0]] += 1
        orders += 1
    if orders == 0:
        return EnumeratedPosterior(0, {}, [])
    remaining = {x: Fraction(w, orders) for x, w in sorted(by_comp.items())}
    nxt = [Fraction(by_next[a], orders) for a in range(len(types))] if future else [Fraction(0)] * len(types)
    return EnumeratedPosterior(orders, remaining, nxt)


def conflicting_guesses(types: Sequence[str], counts: Sequence[int], history: Sequence[Guess],
                        backend: str = "cpsat", time_limit: float | None = None) -> tuple[str, ...]:
    """A minimal set of observations (the deck, guesses) that no deck order satisfies together."""
    om = build_model(types, counts, history)
    return Engine(om.model, backend, time_limit=time_limit).conflict() or ()
