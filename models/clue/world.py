"""Clue's worlds: a world is a deal, the place (player index, or the envelope) of every card."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from sleuth.game import WorldModel, per_puzzle

from .state import Obs, ObsKind
from .model import build_model
from .puzzle import CluePuzzle

World = tuple[int, ...]  # card -> place


def model(puzzle: CluePuzzle) -> WorldModel:
    cm = build_model(puzzle.state, puzzle.observations())
    n = len(puzzle.state.places)
    return WorldModel(cm.model, [v for row in cm.holds for v in row],
                      lambda values: tuple(values[c * n: (c + 1) * n].index(1) for c in range(len(cm.holds))))


@per_puzzle
def _observations(puzzle: CluePuzzle) -> list[Obs]:
    return puzzle.observations()


def check(puzzle: CluePuzzle, world: World) -> bool:
    """One card of each category in the envelope, and every observation the viewer has holds."""
    game = puzzle.state
    env = game.envelope
    if any(sum(world[c] == env for c in game.deck.members(k)) != 1 for k in range(3)):
        return False
    for o in _observations(puzzle):
        at = [world[c] == (env if o.player is None else o.player) for c in o.cards]
        ok = {ObsKind.HOLDS: all(at), ObsKind.LACKS: not any(at), ObsKind.SOME: any(at),
              ObsKind.NOT_TRIPLE: not all(at), ObsKind.ENVELOPE: all(at),
              ObsKind.HAND_SIZE: sum(w == o.player for w in world) == o.size}[o.kind]
        if not ok:
            return False
    return True


def candidates(puzzle: CluePuzzle) -> Iterator[World]:
    """Every placement of every card (places ** cards: small decks only)."""
    return itertools.product(range(len(puzzle.state.places)), repeat=len(puzzle.state.deck))
