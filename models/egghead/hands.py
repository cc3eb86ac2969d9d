"""Hands (multisets of card values) and the geometry of the world space.

A hand is a sorted tuple of ``hand_size`` values in ``1..values`` (cards drawn with replacement, order
irrelevant): there are C(values + hand_size - 1, hand_size) of them, 56 for the seed's 6 values and 3 cards.
Hands are numbered in lexicographic order; a world is one hand index per player.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

WORD_BITS = 64


@dataclass(frozen=True)
class Setup:
    """Players, values per card and cards per hand."""

    players: int
    values: int
    hand_size: int
    names: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        if not self.names:
            object.__setattr__(self, "names", tuple(chr(ord("A") + i) if i < 26 else f"P{i + 1}"
                                                    for i in range(self.players)))

    @cached_property
    def hands(self) -> tuple[tuple[int, ...], ...]:
        return tuple(itertools.combinations_with_replacement(range(1, self.values + 1), self.hand_size))

    @property
    def n_hands(self) -> int:
        return math.comb(self.values + self.hand_size - 1, self.hand_size)

    @cached_property
    def index(self) -> dict[tuple[int, ...], int]:
        return {h: i for i, h in enumerate(self.hands)}

    @cached_property
    def counts(self) -> np.ndarray:
        """``counts[h, v-1]``: how many cards of hand ``h`` show ``v``."""
        out = np.zeros((self.n_hands, self.values), dtype=np.int64)
        for i, hand in enumerate(self.hands):
            for v in hand:
                out[i, v - 1] += 1
        return out

    @cached_property
    def value_masks(self) -> np.ndarray:
        """Bit ``v-1`` set when the hand shows ``v``."""
        return ((self.counts > 0) * (1 << np.arange(self.values))).sum(axis=1).astype(np.int64)

    @property
    def n_worlds(self) -> int:
        return self.n_hands ** self.players

    @property
    def words(self) -> int:
        """64-bit words per packed row (the last player's hands)."""
        return -(-self.n_hands // WORD_BITS)

    def hand_of(self, cards: tuple[int, ...] | list[int]) -> int:
        return self.index[tuple(sorted(cards))]

    def deal(self, rng: np.random.Generator) -> int:
        """A hand of independent uniform cards (the seed's infinite deck), as an index."""
        return self.hand_of(tuple(int(x) for x in rng.integers(1, self.values + 1, self.hand_size)))


def format_hand(hand: tuple[int, ...]) -> str:
    return " ".join(str(v) for v in hand)
