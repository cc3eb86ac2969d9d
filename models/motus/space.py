"""What a game is played over: the secrets, the allowed proposals, the feedback rule and its matrix.

:class:`WordSpace` serves Motus (one cell: length and first letter) and Wordle (answers and a larger list of
allowed guesses); :class:`CodeSpace` serves Mastermind (every code of ``pegs`` pegs in ``colours`` colours,
written as digits ``1..colours``).  Both give the full feedback matrix (guess rows x answers, small integer
codes), cached on disk for word cells.
"""

from __future__ import annotations

import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from sleuth import cache

from . import feedback as fb
from .words import Cell


class Space(ABC):
    """Answers (possible secrets) and guesses (allowed proposals), both sorted; answers are guesses too."""

    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    tries: int          # proposals allowed by the rules (a game counts on past it until found)
    label: str

    @property
    @abstractmethod
    def found(self) -> int:
        """The feedback code of a right proposal."""

    @abstractmethod
    def encode(self, items: list[str] | tuple[str, ...]) -> np.ndarray: ...

    @abstractmethod
    def codes(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        """Feedback codes of encoded guesses (rows) against encoded secrets (columns)."""

    @abstractmethod
    def show(self, code: int) -> str:
        """A feedback code as the user writes it."""

    @cached_property
    def answer_array(self) -> np.ndarray:
        return self.encode(self.answers)

    @cached_property
    def guess_array(self) -> np.ndarray:
        return self.encode(self.guesses)

    @cached_property
    def guess_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.guesses)}

    @cached_property
    def answer_rows(self) -> np.ndarray:
        """The guess row of every answer."""
        return np.array([self.guess_index[w] for w in self.answers], dtype=np.int64)

    def row_codes(self, guess: str, secrets: np.ndarray | None = None) -> np.ndarray:
        """One proposal's feedback against every answer (or the given answer indices)."""
        cols = self.answer_array if secrets is None else self.answer_array[secrets]
        return self.codes(self.encode([guess]), cols)[0]

    def matrix(self) -> np.ndarray:
        """The full (guesses x answers) feedback matrix, from the cache when it is there."""
        return self.codes(self.guess_array, self.answer_array)


@dataclass(eq=False)
class WordSpace(Space):
    cell: Cell
    tries: int = 6
    _matrix: np.ndarray | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.answers = self.cell.answers
        self.guesses = self.cell.guesses
        self.label = self.cell.label

    @property
    def length(self) -> int:
        return self.cell.length

    @property
    def found(self) -> int:
        return fb.found_code(self.length)

    def encode(self, items: list[str] | tuple[str, ...]) -> np.ndarray:
        from .words import encode
        return encode(tuple(items), self.length)

    def codes(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        return fb.matrix(guesses, secrets)

    def show(self, code: int) -> str:
        return fb.from_code(code, self.length)

    def matrix(self) -> np.ndarray:
        if self._matrix is None:
            name = f"motus/matrix-{self.cell.key}-v{fb.MATRIX_VERSION}.npy"
            self._matrix = cache.load_array(name)
            if self._matrix is None:
                self._matrix = super().matrix()
                cache.save_array(name, self._matrix)
        return self._matrix


@dataclass(eq=False)
class CodeSpace(Space):
    pegs: int = 4
    colours: int = 6
    tries: int = 10
    names: tuple[str, ...] = ()   # the colours' names, when the file names them (codes stay digits inside)

    def __post_init__(self) -> None:
        symbols = "123456789"[: self.colours]
        self.answers = tuple("".join(c) for c in itertools.product(symbols, repeat=self.pegs))
        self.guesses = self.answers
        legend = f" ({', '.join(f'{i} = {n}' for i, n in enumerate(self.names, 1))})" if self.names else ""
        self.label = f"{self.pegs} pegs, {self.colours} colours{legend}"

    @property
    def found(self) -> int:
        return self.pegs * (self.pegs + 1)

    def encode(self, items: list[str] | tuple[str, ...]) -> np.ndarray:
        if not items:
            return np.zeros((0, self.pegs), dtype=np.int8)
        raw = np.frombuffer("".join(items).encode("ascii"), dtype=np.uint8).reshape(len(items), self.pegs)
        return (raw - ord("1")).astype(np.int8)

    def codes(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        return fb.mastermind_matrix(guesses, secrets, self.colours)

    def show(self, code: int) -> str:
        black, white = divmod(int(code), self.pegs + 1)
        return f"black {black}, white {white}"

    def code_of(self, black: int, white: int) -> int:
        return black * (self.pegs + 1) + white
