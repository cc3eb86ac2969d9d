"""Notes: what a command ignored or found suspicious, one line each, on the ``sleuth.notes`` logger.

Notes go to standard error; a program silences them with ``NOTES.disabled = True`` (or replaces the handler)
and reads ``Puzzle.notes`` / ``Report.notes`` instead.
"""

from __future__ import annotations

import logging
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .puzzle import Puzzle


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at the time (tests and the CLI redirect it)."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


NOTES = logging.getLogger("sleuth.notes")
NOTES.addHandler(_Stderr())
NOTES.propagate = False


def emit_notes(puzzle: Puzzle) -> None:
    """Each note not yet shown, one line on the ``sleuth.notes`` logger (standard error unless configured)."""
    shown = getattr(puzzle, "_notes_shown", 0)
    for line in puzzle.notes[shown:]:
        NOTES.warning("sleuth: note: %s", line)
    puzzle._notes_shown = len(puzzle.notes)  # type: ignore[attr-defined]


