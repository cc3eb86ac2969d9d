"""Motus, Wordle and Mastermind's worlds: a world is the secret (a word, or a code as digits)."""

from __future__ import annotations

from collections.abc import Iterator

from sleuth.game import WorldModel

from .feedback import feedback, mastermind_feedback, to_code
from .model import build_model
from .puzzle import SecretPuzzle
from .space import CodeSpace


def model(puzzle: SecretPuzzle) -> WorldModel:
    sm = build_model(puzzle.space, puzzle.proposals)
    return WorldModel(sm.model, sm.variables, lambda values: sm.decode(list(values)))


def check(puzzle: SecretPuzzle, secret: str) -> bool:
    """Every proposal's feedback is what the secret would have given (the reference rules, one pair at a time)."""
    space = puzzle.space
    for p in puzzle.proposals:
        if isinstance(space, CodeSpace):
            black, white = mastermind_feedback(tuple(map(int, p.text)), tuple(map(int, secret)))
            got = space.code_of(black, white)
        else:
            got = to_code(feedback(p.text, secret))
        if not p.canonical or got != p.code:
            return False
    return True


def candidates(puzzle: SecretPuzzle) -> Iterator[str]:
    return iter(puzzle.space.answers)
