"""Motus / Lingo, Wordle and Mastermind: possible secrets, the seed's scoring methods, the Evil Motus Index.

``load(doc)`` reads a puzzle of any of the three games (:mod:`.game`); :mod:`.feedback` is the feedback rule,
:mod:`.words` the dictionaries, :mod:`.strategy` the scoring methods and whole-cell play, :mod:`.emi` exact
minimax values, :mod:`.experiment` the studies behind ``sleuth experiment motus | emi | wordle``.
"""

from __future__ import annotations

from sleuth.puzzle import PuzzleDoc

CLAIM_KEYS = ("method",)
HAS_VIEWER = False  # every player sees the same feedback: a viewer is noted as ignored


def load(doc: PuzzleDoc):  # type: ignore[no-untyped-def]
    from .game import load as load_game
    return load_game(doc)
