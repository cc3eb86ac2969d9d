"""A loaded puzzle: the interface every game implements (:class:`Puzzle`).

Contents: :class:`PuzzleDoc` (a parsed file before its game reads it), :class:`Puzzle` (solve, verify, suggest,
each run under the time limit with its options checked against the game's declaration) and :func:`claim_spec`.
Loading a file into one is :mod:`sleuth.loading` (which needs the registry of games, so it sits above this
module); reading files is :mod:`sleuth.files`; notes are :mod:`sleuth.notes`.
"""

from __future__ import annotations

import dataclasses
import functools
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .derive import AUTO, DEFAULT_BACKEND, Choice, find_derivation
from .errors import PuzzleError, SleuthError
from .limits import deadline, time_limit
from .notes import emit_notes
from .registry import all_games
from .results import ClaimResult, ClaimSpec, Report, Verdict
from .schema import Section, choose

if TYPE_CHECKING:
    from .game import Game

__all__ = ["Puzzle", "PuzzleDoc", "claim_spec", "emit_notes"]


@dataclass
class PuzzleDoc:
    """A parsed file before its game reads it: the common keys, and the game's own section."""

    game: Game
    section: Section            # the whole top-level table; common keys are already marked as read
    file: str | None = None
    title: str | None = None
    viewer: str | None = None   # from the file, or --viewer
    claims: list[ClaimSpec] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what was ignored or is suspicious, one line each
    viewer_from_cli: bool = False

    def note(self, message: str, place: str | None = None) -> None:
        """Record a warning (a fact ignored for the viewer, a hand listed short...): one line, file and place."""
        head = ": ".join(p for p in (self.file, place) if p)
        line = f"{head}: {message}" if head else message
        if line not in self.notes:
            self.notes.append(line)


class Puzzle(ABC):
    """A loaded game state.  Games subclass this; the CLI is a thin layer over these three methods."""

    game: str = ""

    def __init__(self, doc: PuzzleDoc) -> None:
        self.doc = doc
        self.game = doc.game.name
        self.title = doc.title
        self.claims = list(doc.claims)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game's solve, verify and suggest get their options checked against the game's declaration
        (:meth:`sleuth.game.Game.accept`) and run under ``options["time-limit"]`` (see :mod:`sleuth.limits`)."""
        super().__init_subclass__(**kwargs)
        for name in ("solve", "verify", "suggest"):
            if name in cls.__dict__:
                setattr(cls, name, _command(name, cls.__dict__[name]))

    @abstractmethod
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        """The game state solved: the game's typed answer (its JSON fields), and a human rendering."""

    @abstractmethod
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        """A verdict for each claim (a claim whose text does not parse raises PuzzleError at its place)."""

    def suggest(self, *, method: str | None = None, options: Mapping[str, Any] | None = None) -> Report:
        raise SleuthError(f"{self.doc.file or 'puzzle'}: game {self.game!r} has no 'suggest'")

    def derivation(self, options: Mapping[str, Any] | None, backend: str = DEFAULT_BACKEND, *,
                   auto: str | None = None) -> Choice:
        """The derivation ``--method`` names (``auto``: ``auto`` or the game's first exact one) and its engine.

        A derivation that runs no engine ignores ``backend``: a note says so when it is not the default.
        """
        value = (options or {}).get("method")
        d = find_derivation(self.doc.game.methods, AUTO if value is None else value, auto=auto, file=self.doc.file,
                            place="--method")
        if d.engine:
            return Choice(d, backend)
        if backend != DEFAULT_BACKEND:
            self.doc.note(f"--backend {backend} is not used: method {d.name!r} runs no engine (--method model "
                          f"answers from the game's model on {backend})", "--backend")
        return Choice(d, None)

    def render_world(self, world: Any) -> str:
        """A witness world as this game draws it (claims' witnesses; default: :func:`sleuth.results.render_world`)."""
        from .results import render_world
        return render_world(world)

    @property
    def notes(self) -> list[str]:
        """Warnings of this puzzle: set at load and by the commands run so far (also in ``Report.notes``)."""
        return self.doc.notes

    def flag(self, value: object, place: str) -> bool:
        """An on/off option: a boolean (a command-line flag), or true/false, yes/no, 1/0, on/off from ``--set``."""
        if isinstance(value, bool):
            return value
        text = str(value).strip().casefold()
        if text in ("true", "yes", "1", "on") or text in ("false", "no", "0", "off"):
            return text in ("true", "yes", "1", "on")
        raise PuzzleError(f"{value!r} is not true or false", file=self.doc.file, place=place,
                          allowed="true or false")

    def integer(self, options: Mapping[str, Any] | None, key: str, default: int, lo: int, hi: int) -> int:
        """An integer option from lo to hi (``--set key=N``); its default when absent; else bad input."""
        value = (options or {}).get(key)
        if value is None:
            return default
        try:
            number = int(str(value).replace("_", "")) if not isinstance(value, bool) else None
        except ValueError:
            number = None
        if number is None or not lo <= number <= hi:
            raise PuzzleError(f"{value!r} is not an integer from {lo} to {hi}", file=self.doc.file,
                              place=self.doc.game.usage(key).replace("=VALUE", ""), allowed=f"{lo} to {hi}")
        return number

    def fraction(self, options: Mapping[str, Any] | None, key: str, default: Fraction, lo: Fraction | int,
                 hi: Fraction | int) -> Fraction:
        """An exact number option (``p/q``, a decimal or an integer) from lo to hi; its default when absent."""
        from .schema import parse_fraction

        value = (options or {}).get(key)
        if value is None:
            return default
        place = self.doc.game.usage(key).replace("=VALUE", "")
        try:
            number = parse_fraction(value)
        except PuzzleError as exc:
            raise PuzzleError(exc.message, file=self.doc.file, place=place, allowed=f"{lo} to {hi}") from None
        if not lo <= number <= hi:
            raise PuzzleError(f"{number} is out of range", file=self.doc.file, place=place, allowed=f"{lo} to {hi}")
        return number


def _command(command: str, method: Any) -> Any:
    """``method`` with its options checked for ``command`` and run under their time limit (reaching it raises
    SolverTimeout)."""
    @functools.wraps(method)
    def run(self: Puzzle, *args: Any, options: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
        from .options import keyword_options

        options = keyword_options(method, options, kwargs, self.doc.game.all_options())
        options = self.doc.game.accept(command, options, self, all_games)
        if command == "suggest" and self.doc.game.suggest_methods:
            kwargs["method"] = self.doc.game.suggest_method(kwargs.get("method"), file=self.doc.file,
                                                            place="--method").name
        if command == "verify" and args:  # claim texts (str) are questions
            from .claims import question_specs   # the claim language: only verify reads it (15-20 ms to import)

            args = (question_specs(args[0]), *args[1:])
        with deadline(time_limit(options)):
            result = method(self, *args, options=options, **kwargs)
        if command == "verify":
            result = [dataclasses.replace(r, shown={side: self.render_world(w) for side, w in r.witnesses().items()})
                      for r in result]
        emit_notes(self)
        if isinstance(result, Report) and self.notes:
            result = dataclasses.replace(result, notes=tuple(dict.fromkeys((*result.notes, *self.notes))))
        return result
    return run


def claim_spec(text: str, expect: str | None = "entailed") -> ClaimSpec:
    """A claim to check (``expect`` entailed, refuted or open), or with ``expect=None`` a question."""
    if expect is None:
        return ClaimSpec(text, None)
    return ClaimSpec(text, Verdict(choose(expect, ["entailed", "refuted", "open"], "verdict")))
