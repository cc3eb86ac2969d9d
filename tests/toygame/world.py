"""The toy game's declarative side, as every game package gives it (see sleuth.game)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence

from sleuth.game import WorldModel

from . import ThreeCards


def model(puzzle: ThreeCards) -> WorldModel:
    return WorldModel(puzzle.model, puzzle.at, tuple)


def check(puzzle: ThreeCards, world: Sequence[int]) -> bool:
    return puzzle.check(world)


def candidates(puzzle: ThreeCards) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(3), repeat=3)
