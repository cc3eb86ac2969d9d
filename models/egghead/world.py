"""Egghead's worlds, for one player's basic analysis: a world is that player's hand (sorted values).

The declarative model is the player's: their hand's variables, the hands they saw and the answers they heard
(one named observation each), after the rounds of the file; the player is the viewer, else the first player.
The behavioural analysis adds knowledge of others on top (``--method tables`` or ``layer``).
"""

from __future__ import annotations

from collections.abc import Iterator

from sleuth.errors import PuzzleError
from sleuth.game import WorldModel, per_puzzle

from .model import EggheadModel
from .puzzle import EggheadPuzzle

World = tuple[int, ...]


def _player(puzzle: EggheadPuzzle) -> int:
    return puzzle.viewer if puzzle.viewer is not None else 0


@per_puzzle
def _heard(puzzle: EggheadPuzzle) -> EggheadModel:
    """The player's basic analysis after the rounds (computed once: ``check`` runs for every hand)."""
    basic = _as_basic(puzzle).run("cpsat", "model").tables
    if not isinstance(basic, EggheadModel) or not basic.determined(_player(puzzle)):
        raise PuzzleError("the player's worlds depend on a hand that is not on the table",
                          file=puzzle.doc.file, place="viewer")
    return basic


def _as_basic(puzzle: EggheadPuzzle) -> EggheadPuzzle:
    """The same puzzle read with the basic analysis (the model's part)."""
    import copy

    basic = copy.copy(puzzle)
    basic.analysis = "basic"
    basic.behavioural = [False] * puzzle.setup.players
    return basic


def model(puzzle: EggheadPuzzle) -> WorldModel:
    m, mine = _heard(puzzle).model(_player(puzzle))
    return WorldModel(m, mine, tuple)


def check(puzzle: EggheadPuzzle, hand: World) -> bool:
    """Every answer the player heard is what the question gives with this hand and the hands they saw."""
    p, setup = _player(puzzle), puzzle.setup
    index = setup.hands.index(tuple(hand))
    for h in _heard(puzzle).heard[p]:
        world = [index if o == p else int(x or 0) for o, x in enumerate(h.hands)]
        if int(h.question.answer(world, h.visible)) != h.answer:
            return False
    return True


def candidates(puzzle: EggheadPuzzle) -> Iterator[World]:
    return iter(puzzle.setup.hands)
