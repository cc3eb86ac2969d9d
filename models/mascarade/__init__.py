"""Mascarade: exact beliefs over card placements, per viewer, by four methods (see README, "Mascarade").

``load(doc)`` is the puzzle-file entry point; :func:`belief` and :func:`knowledge` are the API;
:func:`simulate` plays random legal games with a true hidden placement.
"""

from .analysis import BeliefResult, OwnCard, belief, knowledge, run_steps
from .belief import ComponentBelief, Method
from .game import Event, EventKind, Game, parse_game
from .puzzle import MascaradePuzzle, load
from .simulate import simulate

CLAIM_KEYS: tuple[str, ...] = ()

__all__ = ["BeliefResult", "ComponentBelief", "Event", "EventKind", "Game", "MascaradePuzzle", "Method", "OwnCard",
           "belief", "knowledge", "load", "parse_game", "run_steps", "simulate"]
