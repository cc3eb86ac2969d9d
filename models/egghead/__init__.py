"""Egghead: valids per player (eq. 1) and the behavioural analysis (Algorithm 1) of the seed.

The package has the shape every game has: :mod:`.game` (the game's declaration), :mod:`.state` (the file read
into an :class:`~.state.EggheadState`; the geometry of hands in :mod:`.hands`, the question language in
:mod:`.questions`), :mod:`.model` (the declarative model of what a player heard, one named observation per
answer), :mod:`.world` (the declarative side), :mod:`.puzzle` (solve, verify; the typed answer).  Derivations:
the packed master table and its knowledge-layer twin (:mod:`.tables`), the literal conditional-information
tables (:mod:`.reference`); the simulation study in :mod:`.experiment`.  The names below are imported on first
use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sleuth.game import lazy_exports

if TYPE_CHECKING:
    from sleuth.puzzle import PuzzleDoc

    from .hands import Setup
    from .puzzle import EggheadPuzzle
    from .questions import CompiledQuestion, QuestionDef, load_catalogue, parse
    from .rounds import play_round
    from .tables import PackedSpace, PackedTables

_LAZY = {"Setup": "hands", "EggheadPuzzle": "puzzle", "CompiledQuestion": "questions", "QuestionDef": "questions",
         "load_catalogue": "questions", "parse": "questions", "PackedSpace": "tables", "PackedTables": "tables",
         "play_round": "tables"}

__all__ = ["Setup", "EggheadPuzzle", "CompiledQuestion", "QuestionDef", "load_catalogue", "parse", "PackedSpace",
           "PackedTables", "play_round", "load"]


def load(doc: PuzzleDoc) -> EggheadPuzzle:
    from .puzzle import EggheadPuzzle
    return EggheadPuzzle(doc)


__getattr__ = lazy_exports(__name__, _LAZY)
