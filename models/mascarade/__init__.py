"""Mascarade: exact beliefs over card placements, per viewer, by four methods (see docs/mascarade.md).

The package has the shape every game has: :mod:`.state` (the table and its events, what each viewer
observes), :mod:`.model` (the declarative model: a boolean per swap, reveals and looks as named
observations), :mod:`.world` (the Game interface), :mod:`.puzzle` (solve, verify; the typed answer) and
:mod:`.spec`.  Derivations: the tree and states of :mod:`.belief` (with :mod:`.analysis`, the API
:func:`belief` / :func:`knowledge`), the seed's matrix (:mod:`.matrix`, approximate), nested beliefs
(:mod:`.nested`); :func:`simulate` plays random legal games, :mod:`.experiment` the studies.
"""

from .analysis import BeliefResult, OwnCard, belief, knowledge, run_steps
from .belief import ComponentBelief, Method
from .state import Event, EventKind, Game, read_state
from .puzzle import MascaradePuzzle, load
from .simulate import simulate

CLAIM_KEYS: tuple[str, ...] = ()

__all__ = ["BeliefResult", "ComponentBelief", "Event", "EventKind", "Game", "MascaradePuzzle", "Method", "OwnCard",
           "belief", "knowledge", "load", "read_state", "run_steps", "simulate"]
