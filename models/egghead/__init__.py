"""Egghead: valids per player (eq. 1) and the behavioural analysis (Algorithm 1) of the seed.

The package has the shape every game has: :mod:`.state` (the file read into an :class:`~.state.EggheadState`;
the geometry of hands in :mod:`.hands`, the question language in :mod:`.questions`), :mod:`.model` (the
declarative model of what a player heard, one named observation per answer), :mod:`.world` (the Game
interface), :mod:`.puzzle` (solve, verify; the typed answer) and :mod:`.spec`.  Derivations: the packed
master table and its knowledge-layer twin (:mod:`.tables`), the literal conditional-information tables
(:mod:`.reference`); the simulation study in :mod:`.experiment`.
"""

from __future__ import annotations

from sleuth.puzzle import PuzzleDoc

from .hands import Setup
from .puzzle import EggheadPuzzle
from .questions import CompiledQuestion, QuestionDef, load_catalogue, parse
from .tables import PackedSpace, PackedTables, play_round

__all__ = ["Setup", "EggheadPuzzle", "CompiledQuestion", "QuestionDef", "load_catalogue", "parse", "PackedSpace",
           "PackedTables", "play_round", "load"]


def load(doc: PuzzleDoc) -> EggheadPuzzle:
    return EggheadPuzzle(doc)
