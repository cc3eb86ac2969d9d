"""Errors that sleuth reports to users: bad input names the file, the place and what is allowed."""

from __future__ import annotations

from collections.abc import Iterable


class SleuthError(ValueError):
    """Base class of every error caused by what the user wrote (the CLI exits 2 on these)."""


class PuzzleError(SleuthError):
    """A puzzle file (or a command-line value) is wrong.

    ``file`` names the file, ``place`` the key path (``suggestion[3].cards``) or line, and ``allowed`` what
    would have been accepted.  ``str(err)`` is the one line the CLI prints.
    """

    def __init__(self, message: str, *, file: str | None = None, place: str | None = None,
                 allowed: Iterable[object] | str | None = None) -> None:
        self.message = message
        self.file = file
        self.place = place
        if allowed is not None and not isinstance(allowed, str):
            allowed = ", ".join(str(a) for a in allowed)
        self.allowed = allowed
        super().__init__(self._render())

    def _render(self) -> str:
        head = ": ".join(p for p in (self.file, self.place) if p)
        text = f"{head}: {self.message}" if head else self.message
        if self.allowed:
            text += f" (allowed: {self.allowed})"
        return text

    def located(self, file: str | None = None, place: str | None = None) -> PuzzleError:
        """The same error with the file and/or an outer place filled in (``place`` is prefixed)."""
        new_place = self.place
        if place:
            new_place = f"{place}.{self.place}" if self.place and not self.place.startswith("[") \
                else f"{place}{self.place or ''}"
        return PuzzleError(self.message, file=self.file or file, place=new_place, allowed=self.allowed)


class UnknownNameError(PuzzleError):
    """A name (player, card, word, game, method...) that matches nothing; lists the names that exist."""

    def __init__(self, kind: str, name: object, known: Iterable[object], **where: str | None) -> None:
        self.kind = kind
        self.name = name
        super().__init__(f"unknown {kind} {name!r}", allowed=list(known), **where)


class InternalError(RuntimeError):
    """Two exact computations of sleuth disagree: a bug in sleuth, never a verdict (the CLI exits 70)."""

    def __init__(self, message: str) -> None:
        super().__init__(f"internal error: {message}; please report it with the puzzle file")
