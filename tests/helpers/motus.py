"""Motus: brute-force values and random games of the Evil Motus Index, brute-force optimal totals."""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Hashable

import numpy as np
from hypothesis import strategies as hst
from sleuth.models.motus.game import OPTIMAL_KERNEL

from tests.helpers.motus_brute import brute_total, word_feedback

LETTERS = "ABCDE"


def brute_value(matrix: np.ndarray, found: int, poss: tuple[int, ...]) -> int:
    """Plain minimax over every guess row: proposals needed to be sure to find any answer of ``poss``."""

    @functools.cache
    def value(p: tuple[int, ...]) -> int:
        if len(p) <= 1:
            return len(p)
        best = 1 << 30
        for g in range(matrix.shape[0]):
            parts: dict[int, list[int]] = {}
            for a in p:
                parts.setdefault(int(matrix[g, a]), []).append(a)
            if len(parts) == 1 and found not in parts:
                continue
            best = min(best, 1 + max(0 if c == found else value(tuple(x)) for c, x in parts.items()))
        return best

    return value(tuple(sorted(poss)))


@hst.composite
def games(draw: hst.DrawFn) -> tuple[np.ndarray, int]:
    """A random feedback matrix: answers are the first guess rows (found code on the diagonal), a few more
    guess rows, few codes (so that sets are hard to split and refutations happen)."""
    answers = draw(hst.integers(2, 11))
    extra = draw(hst.integers(0, 5))
    codes = draw(hst.integers(2, 4))
    cells = draw(hst.lists(hst.integers(0, codes - 1), min_size=(answers + extra) * answers,
                           max_size=(answers + extra) * answers))
    matrix = np.array(cells, dtype=np.uint16).reshape(answers + extra, answers)
    found = codes
    matrix[np.arange(answers), np.arange(answers)] = found
    return matrix, found


INF = OPTIMAL_KERNEL.plain().INF


def brute(answers: tuple[str, ...], guesses: tuple[str, ...], *,
          feedback: Callable[[str, str], Hashable] = word_feedback, hard: bool = False, cap: int | None = None) -> int:
    """The brute-force total (tests/helpers/motus_brute.py) in the kernels' terms: INF when the cap cannot be met."""
    total = brute_total(answers, guesses, feedback, hard=hard, cap=cap)
    return INF if total == float("inf") else int(total)


def random_words(rng: random.Random, n: int, length: int = 4) -> list[str]:
    out: set[str] = set()
    while len(out) < n:
        out.add("".join(rng.choice(LETTERS) for _ in range(length)))
    return sorted(out)


def random_game(seed: int, answers: int = 8, extra: int = 6) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """A random word game: (its kind, ``answers`` sorted answers, every guess: those and ``extra`` more)."""
    rng = random.Random(seed)
    words = random_words(rng, answers + extra)
    return ("words", tuple(sorted(rng.sample(words, answers))), tuple(words))


def opener_totals(game: tuple[str, tuple[str, ...], tuple[str, ...]], hard: bool = False,
                  cap: int | None = None) -> dict[str, int]:
    """Every opener's least total by brute force: its classes each solved by :func:`brute` (hard mode: each class
    keeps the opener's hints)."""
    from tests.helpers.motus_brute import keeps_hints, word_feedback

    _, answers, guesses = game
    out = {}
    for g in guesses:
        parts: dict[str, list[str]] = {}
        for s in answers:
            parts.setdefault(word_feedback(g, s), []).append(s)
        total = len(answers)
        for marks, part in parts.items():
            if g in part:
                continue
            pool = tuple(w for w in guesses if keeps_hints(w, g, marks)) if hard else guesses
            total += brute(tuple(part), pool, hard=hard, cap=None if cap is None else cap - 1)
        out[g] = min(total, INF)
    return out
