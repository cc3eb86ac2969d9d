"""What a game is played over: the secrets, the allowed proposals, the feedback rule and its matrix.

:class:`WordSpace` serves Motus (one cell: length and first letter) and Wordle (answers and a larger list of
allowed guesses); :class:`CodeSpace` serves Mastermind (every code of ``pegs`` pegs in ``colours`` colours,
written as digits ``1..colours``).  Both give the full feedback matrix (guess rows x answers, small integer
codes), cached on disk for word cells.
"""

from __future__ import annotations

import hashlib
import itertools
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

import numpy as np
from sleuth import cache

from . import feedback as fb
from .words import Cell, WordList, dictionary, wordle


class Space(ABC):
    """Answers (possible secrets) and guesses (allowed proposals), both sorted; answers are guesses too."""

    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    tries: int          # proposals allowed by the rules (a game counts on past it until found)
    label: str
    noun = "word"       # what the secrets are called in sentences

    @property
    def marks(self) -> str:
        """What the feedback is called in sentences."""
        return "marks"

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


def code_list(symbols: str, pegs: int, *, distinct: bool = False) -> tuple[str, ...]:
    """Every code of ``pegs`` of ``symbols`` (all different when ``distinct``), sorted: the codes of Mastermind,
    Bulls and Cows and the code-breaking table's cells (:class:`CodeSpace`, :class:`.codes.PegSpace`)."""
    make = itertools.permutations(symbols, pegs) if distinct else itertools.product(symbols, repeat=pegs)
    return tuple(sorted("".join(c) for c in make))


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
    """Mastermind's codes (digits ``1..colours``, repetition allowed, black and white pegs); with ``distinct``,
    Bulls and Cows: codes of ``pegs`` different ``symbols`` (default ``0..colours-1``), bulls (right place) and
    cows (elsewhere), the same counts as black and white pegs."""

    pegs: int = 4
    colours: int = 6
    tries: int = 10
    names: tuple[str, ...] = ()   # the colours' names, when the file names them (codes stay digits inside)
    distinct: bool = False
    symbols: str = ""
    noun = "code"

    def __post_init__(self) -> None:
        if not self.symbols:
            self.symbols = ("0123456789ABCDEF" if self.distinct else "123456789")[: self.colours]
        self.answers = code_list(self.symbols, self.pegs, distinct=self.distinct)
        if self.distinct:
            self.label = f"Bulls and Cows, {self.pegs} of {self.colours} symbols ({self.symbols})"
        else:
            legend = f" ({', '.join(f'{i} = {n}' for i, n in enumerate(self.names, 1))})" if self.names else ""
            self.label = f"{self.pegs} pegs, {self.colours} colours{legend}"
        self.guesses = self.answers

    @property
    def marks(self) -> str:
        return "bulls and cows" if self.distinct else "pegs"

    @property
    def found(self) -> int:
        return self.pegs * (self.pegs + 1)

    def encode(self, items: list[str] | tuple[str, ...]) -> np.ndarray:
        if not items:
            return np.zeros((0, self.pegs), dtype=np.int8)
        raw = np.frombuffer("".join(items).encode("ascii"), dtype=np.uint8).reshape(len(items), self.pegs)
        table = np.zeros(256, dtype=np.int8)
        table[np.frombuffer(self.symbols.encode("ascii"), dtype=np.uint8)] = np.arange(self.colours)
        return table[raw]

    def codes(self, guesses: np.ndarray, secrets: np.ndarray) -> np.ndarray:
        return fb.mastermind_matrix(guesses, secrets, self.colours)

    def show(self, code: int) -> str:
        black, white = divmod(int(code), self.pegs + 1)
        if self.distinct:
            return f"{black} bull{'s' * (black != 1)}, {white} cow{'s' * (white != 1)}"
        return f"black {black}, white {white}"

    def code_of(self, black: int, white: int) -> int:
        return black * (self.pegs + 1) + white


SpaceKey = str | tuple[str, int, int] | tuple[str, tuple[str, ...], tuple[str, ...]]
"""A game the studies play, as a hashable, picklable key: ``"wordle"`` (the official lists), ``"mastermind"``
(4 pegs, 6 colours), ``("mastermind", pegs, colours)``, or ``("words", answers, guesses)`` (a word game over
those lists, answers among the guesses)."""


@lru_cache(maxsize=8)
def game_space(game: SpaceKey) -> Space:
    """The space of a :data:`SpaceKey`: Wordle and word games with 6 tries, Mastermind with 10."""
    if game == "mastermind":
        return CodeSpace(pegs=4, colours=6, tries=10)
    if game == "wordle":
        return WordSpace(wordle().cell(5), 6)
    if isinstance(game, tuple) and len(game) == 3 and game[0] == "mastermind":
        return CodeSpace(pegs=int(game[1]), colours=int(game[2]), tries=10)  # type: ignore[arg-type]
    if isinstance(game, tuple) and len(game) == 3 and game[0] == "words":
        answers, guesses = tuple(game[1]), tuple(game[2])  # type: ignore[arg-type]
        digest = hashlib.sha256(repr((answers, guesses)).encode()).hexdigest()[:16]
        wl = WordList("words", f"words-{digest}", answers, guesses, "words")
        return WordSpace(wl.cell(len(answers[0])), 6)
    raise ValueError(f"game: wordle or mastermind, not {game!r}")


def game_key(name: str, pegs: int = 4, colours: int = 6) -> SpaceKey:
    """The key of ``--games NAME`` with ``--pegs`` and ``--colours`` (which only Mastermind reads)."""
    return name if name == "wordle" or (pegs, colours) == (4, 6) else ("mastermind", pegs, colours)


class CellJob(NamedTuple):
    """One (length, first letter) cell, as the studies' tasks carry it (picklable): its words travel with the
    task, so that a worker reads no dictionary (neither the time to load one nor the client's files)."""

    name: str  # the dictionary's name, key (caching) and source, as in :class:`.words.WordList`
    key: str
    source: str
    length: int
    first: str  # "" for every first letter
    answers: tuple[str, ...]
    guesses: tuple[str, ...]

    @classmethod
    def of(cls, space: WordSpace) -> CellJob:
        cell, words = space.cell, space.cell.dictionary
        return cls(words.name, words.key, words.source, cell.length, cell.first or "", cell.answers, cell.guesses)

    def space(self) -> WordSpace:
        """The cell's space (Motus: 5 tries for 5 letters, else 6)."""
        words = WordList(self.name, self.key, (), (), self.source)
        cell = Cell(words, self.length, self.first or None, self.answers, self.guesses)
        return WordSpace(cell, 5 if self.length == 5 else 6)


def cell_spaces(spec: str, lengths: list[int], letters: list[str]) -> list[WordSpace]:
    """The non-empty cells of a dictionary (``fr``, ``wordle`` or a path) for every length and first letter."""
    words = dictionary(spec)
    out = []
    for length in lengths:
        for first in letters:
            cell = words.cell(length, first)
            if cell.answers:
                out.append(WordSpace(cell, 5 if length == 5 else 6))
    return out
