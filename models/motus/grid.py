"""Wordle's shared grid: the lines of coloured squares a player posts, read as a game.

A grid is the text Wordle's share button copies, optionally with the header (``Wordle 1,234 4/6``, a ``*``
after the score marks hard mode), with the word guessed written after each row (``🟩⬛⬛🟨⬛ CRANE``) when
known, and an ``answer: WORD`` line.  Squares: 🟩 (or high contrast 🟧) right place, 🟨 (or 🟦) elsewhere,
⬛ or ⬜ absent.  In a wordle puzzle file it is the key ``grid`` (a multi-line string), with ``answer`` and
``words`` as keys; on standard input (``sleuth solve -``, ``sleuth review -``) the text alone is a puzzle.

Without the words a grid still says something: every answer for which some allowed guess gives each row's
colours is consistent with it (reverse solving, :func:`reverse_mask`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from sleuth.errors import PuzzleError

SQUARES = {"🟩": "G", "🟧": "G", "🟨": "Y", "🟦": "Y", "⬛": "B", "⬜": "B"}
_HEADER = re.compile(r"^wordle\b[^/]*?\b([1-9]|x)/(\d+)(\*?)\s*$", re.IGNORECASE)
_ANSWER = re.compile(r"^answer\s*[:=]\s*([A-Za-z]+)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Grid:
    """A shared grid read: each row's marks (G/Y/B), the word after it (None when not written), the answer
    line's word, hard mode (the header's ``*``) and the header's score (None: no header; 0: ``X``)."""

    rows: tuple[str, ...]
    words: tuple[str | None, ...]
    answer: str | None
    hard: bool
    score: int | None


def _squares(token: str) -> str | None:
    token = token.replace("\ufe0f", "")
    if token and all(c in SQUARES for c in token):
        return "".join(SQUARES[c] for c in token)
    return None


def looks_like_grid(text: str) -> bool:
    """Whether ``text`` is a shared grid (a line that starts with squares) rather than TOML or JSON."""
    return any(_squares(line.strip().split(" ")[0]) for line in text.splitlines() if line.strip())


def parse_grid(text: str, *, file: str | None = None, place: str = "grid") -> Grid:
    """Read a shared grid; a line that is neither a header, a row nor an answer line is bad input."""
    rows: list[str] = []
    words: list[str | None] = []
    answer, hard, score = None, False, None
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line:
            continue
        head = _HEADER.match(line)
        if head and not rows:
            score = 0 if head.group(1).lower() == "x" else int(head.group(1))
            hard = head.group(3) == "*"
            continue
        ans = _ANSWER.match(line)
        if ans:
            answer = ans.group(1).upper()
            continue
        parts = line.split()
        marks = _squares(parts[0])
        if marks is None or len(parts) > 2:
            raise PuzzleError(f"cannot read line {number} ({line[:40]!r})", file=file, place=place,
                              allowed="a row of squares 🟩 🟨 ⬛/⬜ (optionally followed by its word), the header "
                                      "'Wordle N k/6', or 'answer: WORD'")
        if rows and len(marks) != len(rows[0]):
            raise PuzzleError(f"line {number} has {len(marks)} squares, the first row {len(rows[0])}", file=file,
                              place=place, allowed="rows of equal length")
        rows.append(marks)
        words.append(parts[1].upper() if len(parts) == 2 else None)
    if not rows:
        raise PuzzleError("has no row of squares", file=file, place=place, allowed="one line of squares per guess")
    if score and score != len(rows):
        raise PuzzleError(f"the header says {score} guesses, the grid has {len(rows)} rows", file=file, place=place)
    return Grid(tuple(rows), tuple(words), answer, hard, score)


def grid_document(text: str) -> dict[str, Any] | None:
    """A shared grid given as the whole input (standard input): the wordle puzzle it stands for; None when the
    text is not a grid (then it is read as TOML or JSON)."""
    if not looks_like_grid(text):
        return None
    return {"game": "wordle", "grid": text}


def reverse_mask(matrix: np.ndarray, codes: list[int], found: int) -> np.ndarray:
    """The answers (columns of the feedback ``matrix``) for which every code of ``codes`` is the feedback of
    some allowed guess (a row); a found row (all green) is the answer itself, every answer can give it."""
    mask = np.ones(matrix.shape[1], dtype=bool)
    for code in dict.fromkeys(codes):
        if code != found:
            mask &= (matrix == code).any(axis=0)
    return mask


__all__ = ["Grid", "SQUARES", "grid_document", "looks_like_grid", "parse_grid", "reverse_mask"]
