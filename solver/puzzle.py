"""Loading puzzle files (TOML, or JSON with the same structure) and the interface every game implements."""

from __future__ import annotations

import json
import os
import sys
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import PuzzleError, SleuthError
from .games import GameInfo, find_game, game_module
from .names import check_keys, loads_json
from .resources import find_example, is_example
from .results import ClaimResult, ClaimSpec, Report, Verdict
from .schema import Section, choose

COMMON_KEYS = ("game", "title", "viewer", "claim")
MAX_FILE_BYTES = 64 * 1024 * 1024


@dataclass
class PuzzleDoc:
    """A parsed file before its game reads it: the common keys, and the game's own section."""

    game: GameInfo
    section: Section            # the whole top-level table; common keys are already marked as read
    file: str | None = None
    title: str | None = None
    viewer: str | None = None   # from the file, or --viewer
    claims: list[ClaimSpec] = field(default_factory=list)


class Puzzle(ABC):
    """A loaded game state.  Games subclass this; the CLI is a thin layer over these three methods."""

    game: str = ""

    def __init__(self, doc: PuzzleDoc) -> None:
        self.doc = doc
        self.game = doc.game.name
        self.title = doc.title
        self.claims = list(doc.claims)

    @abstractmethod
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        """The game state solved: the JSON fields DESIGN.md names, and a human rendering."""

    @abstractmethod
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        """A verdict for each claim (a claim whose text does not parse raises PuzzleError at its place)."""

    def suggest(self, *, method: str | None = None, options: Mapping[str, Any] | None = None) -> Report:
        raise SleuthError(f"{self.doc.file or 'puzzle'}: game {self.game!r} has no 'suggest'")

    def reject_options(self, options: Mapping[str, Any] | None, allowed: Sequence[str] = ()) -> dict[str, Any]:
        """Fail clearly on a command-line option this game does not take."""
        opts = {k: v for k, v in (options or {}).items() if v is not None and v is not False}
        for key in opts:
            if key not in allowed:
                raise PuzzleError(f"option --{key} does not apply to game {self.game!r}",
                                  file=self.doc.file, allowed=[f"--{a}" for a in allowed] or "none")
        return opts


def read_document(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The file's top-level table; every failure is a :class:`PuzzleError` naming the file and place.

    ``path`` may also be ``-`` (standard input) or ``example:GAME/NAME`` (a bundled puzzle).  At most
    :data:`MAX_FILE_BYTES` are read from any source, devices and pipes included.
    """
    name = os.fspath(path)
    hint = name
    if is_example(name):
        example = find_example(name)
        hint = example.resource.name
        raw = example.resource.read_bytes()
    elif name == "-":
        raw = sys.stdin.buffer.read(MAX_FILE_BYTES + 1)
        name = "<stdin>"
    else:
        raw = _read_bounded(name)
    if len(raw) > MAX_FILE_BYTES:
        raise PuzzleError(f"is larger than {MAX_FILE_BYTES} bytes, the limit for puzzle files", file=name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleError(f"is not UTF-8 text (byte {exc.start})", file=name) from None
    if not text.strip():
        raise PuzzleError("is empty", file=name, allowed="a TOML or JSON puzzle with at least a 'game' key")
    return parse_text(text, name, json_hint=hint.lower().endswith(".json"))


def _read_bounded(name: str) -> bytes:
    """At most one byte more than the limit, whatever the file is (regular, pipe, character device)."""
    try:
        if os.path.isdir(name):
            raise PuzzleError("is a directory, not a puzzle file", file=name)
        with open(name, "rb") as fh:
            return fh.read(MAX_FILE_BYTES + 1)
    except FileNotFoundError:
        raise PuzzleError("no such file", file=name) from None
    except PermissionError:
        raise PuzzleError("cannot be read (permission denied)", file=name) from None
    except OSError as exc:
        raise PuzzleError(f"cannot be read ({exc.strerror or exc})", file=name) from None


def parse_text(text: str, name: str = "<puzzle>", *, json_hint: bool = False) -> dict[str, Any]:
    looks_json = json_hint or name.lower().endswith(".json") or text.lstrip().startswith("{")
    if looks_json:
        try:
            data = loads_json(text)   # a key given twice is kept for check_keys
        except json.JSONDecodeError as exc:
            raise PuzzleError(f"broken JSON: {exc.msg}", file=name, place=f"line {exc.lineno}, column {exc.colno}") \
                from None
        except RecursionError:
            raise PuzzleError("JSON nested too deeply", file=name) from None
        if not isinstance(data, dict):
            raise PuzzleError("the top level must be an object", file=name)
        return data
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        place = None
        if "(at line" in msg:
            msg, _, where = msg.partition(" (at ")
            place = where.rstrip(")")
        raise PuzzleError(f"broken TOML: {msg}", file=name, place=place) from None


def load_document(data: Mapping[str, Any], *, file: str | None = None, viewer: str | None = None) -> PuzzleDoc:
    section = Section(dict(data), file=file)
    game_name = section.raw("game")
    if not isinstance(game_name, str):
        raise section.error("expected a game name", "game", allowed=_game_names())
    info = find_game(game_name, file=file, place="game")
    title = section.str("title", None)
    file_viewer = section.str("viewer", None)
    module = _module(info)
    claim_keys = ("text", "expect", *getattr(module, "CLAIM_KEYS", ()))
    claims = []
    for cs in section.sections("claim"):
        text = cs.str("text")
        expect = cs.str("expect", "entailed", choices=[v.value for v in (Verdict.ENTAILED, Verdict.REFUTED,
                                                                          Verdict.OPEN)])
        options = {k: cs.raw(k) for k in claim_keys[2:] if cs.has(k)}
        cs.finish(claim_keys)
        claims.append(ClaimSpec(text, Verdict(expect), cs.place, options))
    return PuzzleDoc(info, section, file, title, viewer or file_viewer, claims)


def _module(info: GameInfo):  # type: ignore[no-untyped-def]
    try:
        return game_module(info)
    except ModuleNotFoundError as exc:
        if exc.name and info.module.startswith(exc.name):
            raise SleuthError(f"game {info.name!r} is not available in this build") from None
        raise


def _game_names() -> list[str]:
    from .games import GAMES
    return [g.name for g in GAMES]


def load_puzzle(path: str | os.PathLike[str], *, viewer: str | None = None) -> Puzzle:
    """Read, check and load a puzzle file (or ``-``, or ``example:GAME/NAME``); ``viewer`` overrides the file's."""
    name = os.fspath(path)
    return load_data(read_document(name), file=name, viewer=viewer)


def load_data(data: Mapping[str, Any], *, file: str | None = None, viewer: str | None = None) -> Puzzle:
    """Load a puzzle from an already parsed table (the API's entry point for programs)."""
    check_keys(data, file)
    doc = load_document(data, file=file, viewer=viewer)
    puzzle = _module(doc.game).load(doc)
    doc.section.finish()
    return puzzle


def loads(text: str, *, viewer: str | None = None, name: str = "<string>") -> Puzzle:
    """Load a puzzle from TOML (or JSON) text."""
    return load_data(parse_text(text, name), file=name, viewer=viewer)


def claim_spec(text: str, expect: str = "entailed") -> ClaimSpec:
    return ClaimSpec(text, Verdict(choose(expect, ["entailed", "refuted", "open"], "verdict")))
