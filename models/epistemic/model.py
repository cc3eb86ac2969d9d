"""The declarative model of an epistemic puzzle's starting worlds (:func:`build_model`).

A variable per domain (a boolean per value for a sparse one), the listed worlds as a table constraint and
each constraint compiled onto the variables, by the engine's formula compiler
(:func:`sleuth.epistemic.world_model`); the announcements and events then act on the enumerated worlds
(:mod:`sleuth.epistemic`, knowledge of others on :mod:`sleuth.knowledge`).
"""

from __future__ import annotations

from typing import Any

from sleuth.model import Model

from .state import EpistemicState


def coded_rows(state: EpistemicState) -> list[tuple[int, ...]]:
    """The listed worlds, one coded value per domain (names as their index)."""
    return [tuple(d.code(row[d.name]) for d in state.domains) for row in state.explicit or ()]


def build_model(state: EpistemicState) -> tuple[Model, list[Any]]:
    """The model and, per domain in order, the linear expression that is its value."""
    from sleuth.epistemic import world_model

    return world_model(state.domains, [node for _, node in state.constraints],
                       None if state.explicit is None else coded_rows(state))
