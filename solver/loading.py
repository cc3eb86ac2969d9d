"""Loading a puzzle: a file, ``-`` or ``example:GAME/NAME`` (:func:`load_puzzle`), a parsed table
(:func:`load_data`) or text (:func:`loads`) into the :class:`~sleuth.puzzle.Puzzle` of its game.

It finds the game in the registry, so it sits above :mod:`sleuth.puzzle` (the base class the games implement),
which imports neither the registry nor this module.  Reading files within the input limits is :mod:`sleuth.files`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from .errors import InternalError, PuzzleError
from .files import check_limits, parse_text, read_document
from .names import check_keys as check_repeated_keys
from .puzzle import Puzzle, PuzzleDoc
from .registry import all_games, find_game
from .resources import example_path, is_example
from .results import ClaimSpec, Verdict
from .schema import Section
from .spec import check_keys

__all__ = ["load_data", "load_document", "load_puzzle", "loads", "parse_text", "read_document"]


def load_document(data: Mapping[str, Any], *, file: str | None = None, viewer: str | None = None) -> PuzzleDoc:
    if not isinstance(data, Mapping):
        raise PuzzleError("the top level must be a table", file=file)
    check_limits(data, file)
    section = Section(dict(data), file=file)
    game_name = section.raw("game")
    if not isinstance(game_name, str):
        raise section.error("expected a game name", "game", allowed=_game_names())
    game = find_game(game_name, file=file, place="game")
    check_keys(section.data, game.all_keys(), file=file)
    title = section.string("title", None)
    file_viewer = section.string("viewer", None)
    section.string("notes", None)  # free text for people: checked to be a string, then ignored
    claim_keys = ("text", "expect", *game.claim_key_names)
    claims = []
    for cs in section.sections("claim"):
        text = cs.string("text")
        expect = cs.string("expect", "entailed", choices=[v.value for v in (Verdict.ENTAILED, Verdict.REFUTED,
                                                                          Verdict.OPEN)])
        options = {k: cs.raw(k) for k in claim_keys[2:] if cs.has(k)}
        cs.finish(claim_keys)
        claims.append(ClaimSpec(text, Verdict(expect), cs.place, options))
    return PuzzleDoc(game, section, file, title, viewer or file_viewer, claims, viewer_from_cli=viewer is not None)


def _game_names() -> list[str]:
    return [g.name for g in all_games()]


def load_puzzle(path: str | os.PathLike[str], *, viewer: str | None = None) -> Puzzle:
    """Read, check and load a puzzle file (or ``-``, or ``example:GAME/NAME``); ``viewer`` overrides the file's."""
    name = os.fspath(path)
    if is_example(name):  # read from its real location, so that paths inside it resolve beside it
        with example_path(name) as real:
            return load_data(read_document(real), file=str(real), viewer=viewer)
    return load_data(read_document(name), file=name, viewer=viewer)


def load_data(data: Mapping[str, Any], *, file: str | None = None, viewer: str | None = None) -> Puzzle:
    """Load a puzzle from an already parsed table (the API's entry point for programs)."""
    check_repeated_keys(data, file)
    doc = load_document(data, file=file, viewer=viewer)
    puzzle = doc.game.load(doc)
    if not isinstance(puzzle, Puzzle):
        raise InternalError(f"{doc.game.package}.load returned {type(puzzle).__name__}, not a Puzzle")
    doc.section.finish()
    if doc.viewer is not None and not doc.game.viewer:
        doc.note(f"viewer {doc.viewer!r} is ignored: game {doc.game.name!r} has no viewer",
                 "--viewer" if doc.viewer_from_cli else "viewer")
    return puzzle


def loads(text: str, *, viewer: str | None = None, name: str = "<string>") -> Puzzle:
    """Load a puzzle from TOML (or JSON) text."""
    return load_data(parse_text(text, name), file=name, viewer=viewer)
