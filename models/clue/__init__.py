"""Clue / Cluedo: who holds which card, and what is in the envelope.

The package has the shape every game has: :mod:`.state` (the file read into a :class:`~.state.ClueState`: deck,
seats, known cards, the public log, observations per viewer), :mod:`.model` (the declarative model, one named
observation per fact), :mod:`.world` (the declarative side: model, rules, candidates), :mod:`.puzzle` (solve,
verify, suggest; the typed answer and the grid) and :mod:`.game` (the game's declaration). Derivations: exact
deal counting (:mod:`.counting`, the sheet and probabilities), the sheet three ways (:mod:`.sheet`), the
seed's rules (:mod:`.rules`, approximate); :mod:`.others` (what the others know), :mod:`.suggest`,
:mod:`.simulate` and :mod:`.experiment` (the benchmark). """

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sleuth.puzzle import Puzzle, PuzzleDoc



def load(doc: PuzzleDoc) -> Puzzle:
    from .puzzle import load as _load
    return _load(doc)
