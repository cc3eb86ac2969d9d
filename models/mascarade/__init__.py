"""Mascarade: exact beliefs over card placements, per viewer, by four methods (see docs/mascarade.md).

The package has the shape every game has: :mod:`.game` (the game's declaration), :mod:`.state` (the table and
its events, what each viewer observes), :mod:`.model` (the declarative model: a boolean per swap, reveals and
looks as named observations), :mod:`.world` (the declarative side), :mod:`.puzzle` (solve, verify; the typed
answer).  Derivations: the tree and states of :mod:`.components` (with :mod:`.analysis`, the API :func:`belief` /
:func:`own_card_beliefs`), the seed's matrix (:mod:`.matrix`, approximate), nested beliefs (:mod:`.nested`);
:func:`simulate` (:mod:`.simulation`) plays random legal games, :mod:`.experiment` the studies.  The names
below are imported on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.game import lazy_exports

if TYPE_CHECKING:
    from sleuth.puzzle import PuzzleDoc

    from .analysis import BeliefResult, OwnCard, belief, own_card_beliefs, run_steps
    from .components import ComponentBelief, Method
    from .puzzle import MascaradePuzzle
    from .simulation import simulate
    from .state import Event, EventKind, MascaradeState, read_state

_LAZY = {"BeliefResult": "analysis", "OwnCard": "analysis", "belief": "analysis", "own_card_beliefs": "analysis",
         "run_steps": "analysis", "ComponentBelief": "components", "Method": "components", "Event": "state",
         "EventKind": "state", "MascaradeState": "state", "read_state": "state", "MascaradePuzzle": "puzzle",
         "simulate": "simulation"}

__all__ = ["BeliefResult", "ComponentBelief", "Event", "EventKind", "MascaradeState", "MascaradePuzzle", "Method",
           "OwnCard",
           "belief", "load", "own_card_beliefs", "read_state", "run_steps", "simulate"]


def load(doc: PuzzleDoc) -> MascaradePuzzle:
    from .puzzle import load as load_puzzle
    return load_puzzle(doc)


__getattr__ = lazy_exports(__name__, _LAZY)
