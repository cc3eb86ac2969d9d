"""Egghead: valids per player (eq. 1, CP-SAT), behavioural analysis on a packed master table (Algorithm 1),
the literal conditional-information-table reference, and the simulation study of the seed."""

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
