"""Errors that sleuth reports to users: bad input names the file, the place and what is allowed."""

from __future__ import annotations

import contextlib
import difflib
from collections.abc import Iterable, Iterator


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
        names = list(known)
        near = nearest(name, names)
        hint = f" (did you mean {near!r}?)" if near is not None else ""
        super().__init__(f"unknown {kind} {name!r}{hint}", allowed=names, **where)


MAX_NEAREST_SCAN = 5000  # names compared for a "did you mean" (a word list's unknown word gets none)


def nearest(name: object, known: Iterable[object]) -> str | None:
    """The known name closest to ``name`` (case-insensitive; also by each of its words: 'Miss Scarlett'
    finds 'Scarlet'), or None when nothing is close or the list is too long to scan."""
    if not isinstance(name, str) or not name.strip():
        return None
    names = [str(k) for k in known]
    if len(names) > MAX_NEAREST_SCAN:
        return None
    folded = {" ".join(n.split()).casefold(): n for n in names}
    words = name.casefold().split()
    for probe in (" ".join(words), *sorted(words, key=len, reverse=True)):
        found = difflib.get_close_matches(probe, list(folded), n=1, cutoff=0.75 if probe != " ".join(words) else 0.6)
        if found:
            return folded[found[0]]
    return None


MAX_REPORTED = 20  # mistakes of one file reported in one run


class PuzzleErrors(PuzzleError):
    """Several mistakes of one file, reported together: one line each, at most :data:`MAX_REPORTED`."""

    def __init__(self, errors: list[PuzzleError], *, stopped: bool = False) -> None:
        self.errors = list(errors)
        lines, seen = [], set()
        for e in self.errors:  # a long list of allowed names is written once
            repeat = e.allowed is not None and len(e.allowed) > 60 and e.allowed in seen
            lines.append(str(PuzzleError(e.message, file=e.file, place=e.place, allowed="as above")) if repeat
                         else str(e))
            seen.add(e.allowed)
        if stopped:
            lines.append(f"(stopped after {len(self.errors)} mistakes; fix these and run again)")
        super().__init__("\n".join(lines))
        self.file = self.errors[0].file if self.errors else None


class Mistakes:
    """Collects the mistakes of one file so that one run reports them all (see :class:`PuzzleErrors`).

    >>> m = Mistakes()
    >>> with m.collect():
    ...     raise PuzzleError("first", place="a")
    >>> with m.collect():
    ...     raise PuzzleError("second", place="b")
    >>> m.raise_any()
    Traceback (most recent call last):
    ...
    sleuth.errors.PuzzleErrors: a: first
    b: second
    """

    def __init__(self, limit: int = MAX_REPORTED) -> None:
        self.found: list[PuzzleError] = []
        self.limit = limit

    @contextlib.contextmanager
    def collect(self) -> Iterator[None]:
        """Run a block; a PuzzleError in it is recorded (the rest of the block is skipped), not raised."""
        try:
            yield
        except PuzzleErrors as many:
            for e in many.errors:
                self.add(e)
        except PuzzleError as exc:
            self.add(exc)

    def add(self, exc: PuzzleError) -> None:
        if str(exc) not in (str(e) for e in self.found):
            self.found.append(exc)
        if len(self.found) >= self.limit:
            raise PuzzleErrors(self.found, stopped=True)

    def __bool__(self) -> bool:
        return bool(self.found)

    def raise_any(self) -> None:
        """Raise what was collected: the one error as it is, several as :class:`PuzzleErrors`."""
        if len(self.found) == 1:
            raise self.found[0]
        if self.found:
            raise PuzzleErrors(self.found)


class InternalError(RuntimeError):
    """Two exact computations of sleuth disagree: a bug in sleuth, never a verdict (the CLI exits 70)."""

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(f"internal error: {message}; please report it with the puzzle file")

    def __reduce__(self) -> tuple[type, tuple[str]]:  # pickled as made (sent back by a worker process)
        return type(self), (self.message,)
