"""Card guessing's worlds: a world is the deck order (the type of the card at each position)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from sleuth.game import WorldModel

from .model import build_model
from .puzzle import CardGuessPuzzle

World = tuple[int, ...]


def model(puzzle: CardGuessPuzzle) -> WorldModel:
    s = puzzle.state
    om = build_model(s.types, s.counts, s.history)
    return WorldModel(om.model, om.positions, tuple)


def check(puzzle: CardGuessPuzzle, order: World) -> bool:
    """The deck's composition, and every guess of the history answered as it was."""
    s = puzzle.state
    if any(order.count(a) != k for a, k in enumerate(s.counts)):
        return False
    for i, g in enumerate(s.history):
        if g.actual is not None and order[i] != g.actual:
            return False
        if g.actual is None and (order[i] == g.card) != g.correct:
            return False
    return True


def candidates(puzzle: CardGuessPuzzle) -> Iterator[World]:
    """Every sequence of types as long as the deck (types ** cards: small decks only)."""
    return itertools.product(range(len(puzzle.state.types)), repeat=sum(puzzle.state.counts))
