"""Motus / Lingo, Wordle and Mastermind: possible secrets, the seed's scoring methods, the Evil Motus Index.

The package has the shape every game has: :mod:`.state` (the file read into a :class:`~.state.MotusState`:
the space played over, :mod:`.space`, and the proposals), :mod:`.model` (the declarative model of the secret,
one named observation per proposal), :mod:`.world` (the declarative side), :mod:`.puzzle` (solve, verify,
suggest; the typed answer) and :mod:`.game` (the game's declaration). :mod:`.feedback` is the feedback rule
(the vectorised table derivation), :mod:`.words` the dictionaries, :mod:`.strategy` the scoring methods,
:mod:`.emi` exact minimax values, :mod:`.optimal` exact optimal averages, :mod:`.experiment` and
:mod:`.wordle_study` the studies, :mod:`.codes` and :mod:`.symmetry` the code-breaking table. Bulls and Cows
(``game = "bulls"``) is Mastermind's :class:`~.space.CodeSpace` without repeated symbols. """

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sleuth.puzzle import Puzzle, PuzzleDoc



def load(doc: PuzzleDoc) -> Puzzle:
    from .puzzle import load as load_game
    return load_game(doc)
