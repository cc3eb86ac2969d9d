"""The feedback rule of Motus / Wordle and Mastermind, one pair at a time and as whole matrices.

A word feedback is a string over ``G`` (right place), ``Y`` (elsewhere in the word) and ``B`` (absent). It
is also a small integer code: position ``i`` carries ``0`` (B), ``1`` (Y) or ``2`` (G) times ``3**i``, so
a 10-letter feedback fits in a uint16 and ``3**L - 1`` means "found".

The seed's rule: right-place letters first; then, left to right, a letter of the proposal is marked
misplaced while the secret still has unmatched copies of it (copies not already marked right-place or
misplaced), so the marks go to the lowest-index occurrences of the proposal.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

MARKS = "BYG"
BLOCK_PAIRS = 4_000_000  # pairs per chunk of the vectorised computation (bounds its working memory)
MATRIX_VERSION = 1  # bump when the code layout changes (names the cached matrices)


def feedback(guess: str, secret: str) -> str:
    """Reference implementation, one pair: ``feedback('LEGALES', 'LOGIQUE') == 'GYGBBBB'``."""
    if len(guess) != len(secret):
        raise ValueError("words of different lengths")
    marks = ["B"] * len(guess)
    unmatched: Counter[str] = Counter()
    for i, (g, s) in enumerate(zip(guess, secret, strict=True)):
        if g == s:
            marks[i] = "G"
        else:
            unmatched[s] += 1
    for i, g in enumerate(guess):
        if marks[i] != "G" and unmatched[g] > 0:
            marks[i] = "Y"
            unmatched[g] -= 1
    return "".join(marks)


def found_code(length: int) -> int:
    return 3 ** length - 1


def to_code(marks: str) -> int:
    return sum(MARKS.index(m) * 3 ** i for i, m in enumerate(marks))


def from_code(code: int, length: int) -> str:
    out = []
    for _ in range(length):
        code, r = divmod(int(code), 3)
        out.append(MARKS[r])
    return "".join(out)


def is_canonical(marks: str, guess: str) -> bool:
    """Whether some secret can produce ``marks`` for ``guess``: for each letter, misplaced marks come before
    absent marks among its non-right-place occurrences (the lowest-index rule)."""
    seen_absent: set[str] = set()
    for g, m in zip(guess, marks, strict=True):
        if m == "B":
            seen_absent.add(g)
        elif m == "Y" and g in seen_absent:
            return False
    return True


def code_dtype(length: int) -> type:
    if 3 ** length <= 1 << 16:
        return np.uint16
    return np.uint32 if 3 ** length <= 1 << 32 else np.uint64


def matrix(guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
    """Feedback codes of every guess (rows) against every secret (columns), vectorised.

    ``guesses`` and ``secrets`` are letter-index arrays (see :func:`words.encode`).  A letter that occurs
    once in the guess is marked ``G`` where the secret has it in place and otherwise ``Y`` exactly when the
    secret contains it, so its marks add up linearly: ``3**i * (present + in_place)``.  All of those come
    out of one matrix product (float32, exact while codes stay below 2**24; float64 beyond).  A letter the
    guess repeats contributes a term that depends only on (letter, its positions) and the secret; it is
    computed once per such group and added to the rows that share it.
    """
    n, length = guesses.shape
    m = secrets.shape[0]
    dtype = code_dtype(length)
    out: np.ndarray = np.empty((n, m), dtype=dtype)
    if n == 0 or m == 0:
        return out
    powers = 3 ** np.arange(length)
    rows = np.arange(m)
    counts = np.zeros((m, 26), dtype=np.int16)
    for j in range(length):
        np.add.at(counts, (rows, secrets[:, j]), 1)
    # secret features: letter present (26), letter x at position i (26 * L)
    exact = np.float32 if 3 ** length < 1 << 24 else np.float64  # integer sums stay exact
    feats = np.zeros((m, 26 * (length + 1)), dtype=exact)
    feats[:, :26] = counts > 0
    for i in range(length):
        feats[rows, 26 * (i + 1) + secrets[:, i].astype(np.int64)] = 1.0
    weights = np.zeros((n, 26 * (length + 1)), dtype=exact)
    groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for r, word in enumerate(guesses.tolist()):
        where: dict[int, list[int]] = {}
        for i, x in enumerate(word):
            where.setdefault(x, []).append(i)
        for x, pos in where.items():
            if len(pos) == 1:
                i = pos[0]
                weights[r, x] += powers[i]
                weights[r, 26 * (i + 1) + x] += powers[i]
            else:
                groups.setdefault((x, tuple(pos)), []).append(r)
    step = max(1, BLOCK_PAIRS // m)
    feats_t = np.ascontiguousarray(feats.T)
    for lo in range(0, n, step):
        out[lo:lo + step] = np.rint(weights[lo:lo + step] @ feats_t).astype(dtype)
    for (x, spots), members in groups.items():
        out[members] += _repeated_letter_term(x, spots, secrets, counts[:, x]).astype(dtype)
    return out


def _repeated_letter_term(x: int, positions: tuple[int, ...], secrets: np.ndarray,
                          copies: np.ndarray) -> np.ndarray:
    """The marks of a letter that the guess has at several ``positions``, against every secret."""
    green = secrets[:, list(positions)] == x                       # (m, k)
    unmatched = copies - green.sum(1)
    term = np.zeros(secrets.shape[0], dtype=np.int64)
    earlier_misses = np.zeros(secrets.shape[0], dtype=np.int64)
    for r, p in enumerate(positions):
        g = green[:, r]
        yellow = ~g & (earlier_misses < unmatched)
        term += 3 ** p * (2 * g + yellow)
        earlier_misses += ~g
    return term


def matrix_reference(guesses: list[str], secrets: list[str]) -> np.ndarray:
    """The same matrix from :func:`feedback`, pair by pair (for tests)."""
    length = len(guesses[0]) if guesses else 0
    return np.array([[to_code(feedback(g, s)) for s in secrets] for g in guesses],
                    dtype=code_dtype(length)).reshape(len(guesses), len(secrets))


# -- Mastermind -------------------------------------------------------------------------------------------

def mastermind_feedback(guess: tuple[int, ...], secret: tuple[int, ...]) -> tuple[int, int]:
    """(black, white): right colour right place; right colour wrong place (counted with multiplicity)."""
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    common = sum((Counter(guess) & Counter(secret)).values())
    return black, common - black


def mastermind_matrix(guesses: np.ndarray, secrets: np.ndarray, colours: int) -> np.ndarray:
    """Codes ``black * (pegs + 1) + white`` for every pair; found is ``pegs * (pegs + 1)``."""
    pegs = guesses.shape[1]
    gc = np.stack([(guesses == c).sum(1) for c in range(colours)], 1).astype(np.int16)
    sc = np.stack([(secrets == c).sum(1) for c in range(colours)], 1).astype(np.int16)
    out = np.empty((guesses.shape[0], secrets.shape[0]), dtype=np.uint16)
    step = max(1, BLOCK_PAIRS // max(1, secrets.shape[0] * max(pegs, colours)))  # rows per block: bounded memory
    for lo in range(0, guesses.shape[0], step):
        g = guesses[lo:lo + step]
        black = (g[:, None, :] == secrets[None, :, :]).sum(-1, dtype=np.int16)
        common = np.minimum(gc[lo:lo + step, None, :], sc[None, :, :]).sum(-1, dtype=np.int16)
        out[lo:lo + step] = black * (pegs + 1) + (common - black)
    return out
