"""An epistemic puzzle's worlds: a world is one value per variable (names coded by their index).

The declarative model is the starting set of worlds: the variables' domains (or the listed worlds) and the
constraints.  The announcements and events then act on that set (:mod:`sleuth.epistemic`).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import numpy as np

from sleuth.epistemic import ExplicitState, WorldTable
from sleuth.game import WorldModel

from .model import build_model, coded_rows
from .puzzle import EpistemicPuzzle

World = tuple[int, ...]


def model(puzzle: EpistemicPuzzle) -> WorldModel:
    m, order = build_model(puzzle.state)
    variables = sorted({v for e in order for v in e.variables}, key=lambda v: v.index)
    return WorldModel(m, variables, lambda values: tuple(e.value(dict(zip(variables, values, strict=True)))
                                                         for e in order))


def check(puzzle: EpistemicPuzzle, world: World) -> bool:
    """Every constraint is true in this one world (each formula evaluated on a one-world table)."""
    state = ExplicitState(WorldTable(puzzle.domains, np.array([world], dtype=object)), {})
    return all(bool(state.truth(node)[0]) for _, node in puzzle.constraints)


def candidates(puzzle: EpistemicPuzzle) -> Iterator[World]:
    """The listed worlds, or every combination of the domains' values."""
    if puzzle.explicit is not None:
        return iter(coded_rows(puzzle.state))
    return itertools.product(*(d.values for d in puzzle.domains))

