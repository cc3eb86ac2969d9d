"""Clue / Cluedo: who holds which card, and what is in the envelope.

``load(doc)`` turns a puzzle file into a :class:`~models.clue.puzzle.CluePuzzle`.  The pieces: ``game``
(schema, observations per viewer), ``model`` (the engine model), ``counting`` (exact deal counts: sheet and
probabilities), ``sheet`` (yes/no/maybe three ways), ``rules`` (the seed's rules), ``suggest``, ``simulate``
and ``experiment`` (the benchmark).
"""

from __future__ import annotations

from sleuth.puzzle import PuzzleDoc

CLAIM_KEYS: tuple[str, ...] = ()


def load(doc: PuzzleDoc):  # type: ignore[no-untyped-def]
    from .puzzle import load as _load
    return _load(doc)
