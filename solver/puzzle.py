"""Loading puzzle files (TOML, or JSON with the same structure) and the interface every game implements."""

from __future__ import annotations

import dataclasses
import functools
import json
import logging
import math
import os
import re
import sys
import tomllib
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from types import ModuleType
from typing import Any

from .derive import AUTO, DEFAULT_BACKEND, Choice, find_derivation
from .errors import InternalError, PuzzleError, SleuthError
from .games import GameInfo, find_game, game_module
from .limits import MAX_WORLDS_KEY, TIME_KEY, deadline, max_items, time_limit
from .names import check_keys as check_repeated_keys
from .names import json_object
from .resources import example_path, find_example, is_example
from .results import ClaimResult, ClaimSpec, Report, Verdict
from .schema import Section, choose
from .spec import FLAG_OPTIONS, check_keys

COMMON_KEYS = ("game", "title", "viewer", "claim")
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 50              # nested arrays and tables ([ ], { }, dotted keys) in a puzzle file
MAX_INT_DIGITS = 100        # exact arithmetic takes any size; the games check their own ranges (and the solvers refuse
                            # an expression that could leave 64 bits, naming it)
MAX_STRING_CHARS = 10_000   # a string or a key
MAX_ITEMS = 1_000_000       # the items of one list, or the keys of one table

# Tokens that open or close a level of nesting, and what may hide a bracket (strings, comments).
_TOML_TOKENS = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]')
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_LONG_INT = re.compile(r"(?<![\w.])[+-]?\d[\d_]{" + str(MAX_INT_DIGITS) + ",}")


@dataclass
class PuzzleDoc:
    """A parsed file before its game reads it: the common keys, and the game's own section."""

    game: GameInfo
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
    uses_max_worlds = False  # games whose enumerations honour --set max_worlds (others note that it does not apply)

    def __init__(self, doc: PuzzleDoc) -> None:
        self.doc = doc
        self.game = doc.game.name
        self.title = doc.title
        self.claims = list(doc.claims)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every game's solve, verify and suggest run under ``options["time-limit"]`` (see :mod:`sleuth.limits`)."""
        super().__init_subclass__(**kwargs)
        for name in ("solve", "verify", "suggest"):
            if name in cls.__dict__:
                setattr(cls, name, _timed(cls.__dict__[name]))

    @abstractmethod
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        """The game state solved: the JSON fields DESIGN.md names, and a human rendering."""

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
        value = (options or {}).get("method") or AUTO
        d = find_derivation(self.doc.game.spec.methods, value, auto=auto, file=self.doc.file, place="--method")
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
                              place=option_usage(key).replace("=VALUE", ""), allowed=f"{lo} to {hi}")
        return number

    def fraction(self, options: Mapping[str, Any] | None, key: str, default: Fraction, lo: Fraction | int,
                 hi: Fraction | int) -> Fraction:
        """An exact number option (``p/q``, a decimal or an integer) from lo to hi; its default when absent."""
        from .schema import parse_fraction

        value = (options or {}).get(key)
        if value is None:
            return default
        place = option_usage(key).replace("=VALUE", "")
        try:
            number = parse_fraction(value)
        except PuzzleError as exc:
            raise PuzzleError(exc.message, file=self.doc.file, place=place, allowed=f"{lo} to {hi}") from None
        if not lo <= number <= hi:
            raise PuzzleError(f"{number} is out of range", file=self.doc.file, place=place, allowed=f"{lo} to {hi}")
        return number

    def reject_options(self, options: Mapping[str, Any] | None, allowed: Sequence[str] = ()) -> dict[str, Any]:
        """Fail clearly on a command-line option this game does not take."""
        opts = {k: v for k, v in (options or {}).items() if v is not None and v is not False}
        if MAX_WORLDS_KEY in opts:
            max_items(opts, 1)  # validated for every game
            if not self.uses_max_worlds:
                self.doc.note(f"--set {MAX_WORLDS_KEY} does not apply to game {self.game!r} (its sizes have "
                              "limits of their own)", f"--set {MAX_WORLDS_KEY}")
        for key in opts:
            if key not in allowed and key not in (TIME_KEY, MAX_WORLDS_KEY):
                raise PuzzleError(f"option {option_usage(key)} does not apply to game {self.game!r}",
                                  file=self.doc.file, allowed=[option_usage(a) for a in allowed] or "none")
        return opts


def option_usage(key: str) -> str:
    """How the user writes an option: ``--method`` for the command-line flags, ``--set key=VALUE`` otherwise."""
    return f"--{key}" if key in FLAG_OPTIONS else f"--set {key}=VALUE"


def _timed(method: Any) -> Any:
    """``method`` run under the time limit its options give; reaching it raises SolverTimeout."""
    @functools.wraps(method)
    def run(self: Puzzle, *args: Any, options: Mapping[str, Any] | None = None, **kwargs: Any) -> Any:
        from .claims import question_specs
        from .options import keyword_options
        options = keyword_options(method, options, kwargs)
        if method.__name__ == "verify" and args:  # claim texts (str) are questions
            args = (question_specs(args[0]), *args[1:])
        with deadline(time_limit(options)):
            result = method(self, *args, options=options, **kwargs)
        if method.__name__ == "verify":
            result = [dataclasses.replace(r, shown={side: self.render_world(w) for side, w in r.witnesses().items()})
                      for r in result]
        emit_notes(self)
        if isinstance(result, Report) and self.notes:
            result = dataclasses.replace(result, notes=tuple(dict.fromkeys((*result.notes, *self.notes))))
        return result
    return run


class _Stderr(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes to whatever ``sys.stderr`` is at the time (tests and the CLI redirect it)."""

    @property
    def stream(self) -> Any:
        return sys.stderr

    @stream.setter
    def stream(self, value: Any) -> None:
        pass


# Notes go to standard error, one line each; a program silences them with NOTES.disabled = True (or
# replaces the handler) and reads Puzzle.notes / Report.notes instead.
NOTES = logging.getLogger("sleuth.notes")
NOTES.addHandler(_Stderr())
NOTES.propagate = False


def emit_notes(puzzle: Puzzle) -> None:
    """Each note not yet shown, one line on the ``sleuth.notes`` logger (standard error unless configured)."""
    shown = getattr(puzzle, "_notes_shown", 0)
    for line in puzzle.notes[shown:]:
        NOTES.warning("sleuth: note: %s", line)
    puzzle._notes_shown = len(puzzle.notes)  # type: ignore[attr-defined]


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
        raw = read_bounded(name)
    if len(raw) > MAX_FILE_BYTES:
        raise PuzzleError(f"is larger than {MAX_FILE_BYTES} bytes, the limit for puzzle files", file=name)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzleError(f"is not UTF-8 text (byte {exc.start})", file=name) from None
    if not text.strip():
        raise PuzzleError("is empty", file=name, allowed="a TOML or JSON puzzle with at least a 'game' key")
    return parse_text(text, name, json_hint=hint.lower().endswith(".json"))


def read_bounded(name: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """At most ``limit`` bytes of a file, whatever it is (regular, pipe, character device), else PuzzleError."""
    try:
        if os.path.isdir(name):
            raise PuzzleError("is a directory, not a puzzle file", file=name)
        with open(name, "rb") as fh:
            raw = fh.read(limit + 1)
    except FileNotFoundError:
        raise PuzzleError("no such file", file=name) from None
    except PermissionError:
        raise PuzzleError("cannot be read (permission denied)", file=name) from None
    except OSError as exc:
        raise PuzzleError(f"cannot be read ({exc.strerror or exc})", file=name) from None
    if len(raw) > limit:
        raise PuzzleError(f"is larger than {limit} bytes, the limit for input files", file=name)
    return raw


class _BigInt(int):
    """A JSON integer too long to convert: kept as its digit count, refused with its place by :func:`check_limits`."""


def _json_int(digits: str) -> int:
    return _BigInt(len(digits.lstrip("-"))) if len(digits.lstrip("-")) > MAX_INT_DIGITS else int(digits)


def _json_constant(word: str) -> float:
    raise PuzzleError(f"{word} is not a number a puzzle may use", allowed="finite numbers")


def parse_text(text: str, name: str = "<puzzle>", *, json_hint: bool = False) -> dict[str, Any]:
    """TOML or JSON text as a table, within the input limits (nesting, integer size, string and list length)."""
    looks_json = json_hint or name.lower().endswith(".json") or text.lstrip().startswith("{")
    check_depth(text, name, json=looks_json)
    kind = "JSON" if looks_json else "TOML"
    try:
        if looks_json:
            data = json.loads(text, parse_int=_json_int, parse_constant=_json_constant,
                              object_pairs_hook=json_object)  # a key given twice is kept for the check
        else:
            data = tomllib.loads(text)
    except json.JSONDecodeError as exc:
        raise PuzzleError(f"broken JSON: {exc.msg}", file=name, place=f"line {exc.lineno}, column {exc.colno}") \
            from None
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        place = None
        if "(at line" in msg:
            msg, _, where = msg.partition(" (at ")
            place = where.rstrip(")")
        raise PuzzleError(f"broken TOML: {msg}", file=name, place=place) from None
    except PuzzleError as exc:
        raise exc.located(file=name) from None
    except RecursionError:  # last resort: the scan above should have refused first
        raise PuzzleError(f"{kind} nested too deeply", file=name, allowed=f"at most {MAX_DEPTH} levels") from None
    except ValueError:  # an integer past Python's own conversion limit (TOML)
        m = _LONG_INT.search(text)
        place = f"line {text.count(chr(10), 0, m.start()) + 1}" if m else None
        raise PuzzleError("an integer is too long", file=name, place=place,
                          allowed=f"integers of at most {MAX_INT_DIGITS} digits") from None
    if not isinstance(data, dict):
        raise PuzzleError("the top level must be an object", file=name)
    check_limits(data, name)
    return data


def check_depth(text: str, name: str, *, json: bool = False) -> None:
    """Refuse text whose brackets nest deeper than :data:`MAX_DEPTH`, before a parser recurses into it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for m in (_JSON_TOKENS if json else _TOML_TOKENS).finditer(text):
        token = m.group()
        if token in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = text.count("\n", 0, m.start()) + 1
                raise PuzzleError(f"nested more than {MAX_DEPTH} levels deep", file=name, place=f"line {line}",
                                  allowed=f"at most {MAX_DEPTH} levels of arrays and tables")
        elif token in "]}":
            depth = max(0, depth - 1)


def check_limits(data: Mapping[str, Any], name: str | None = None) -> None:
    """Refuse a parsed table that nests too deeply, or holds a too long string, list or integer (iteratively)."""
    stack: list[tuple[Any, str, int]] = [(data, "", 0)]
    while stack:
        value, place, depth = stack.pop()
        where = (place if len(place) <= 80 else place[:77] + "...") or None
        if depth > MAX_DEPTH:
            raise PuzzleError(f"nested more than {MAX_DEPTH} levels deep", file=name, place=where,
                              allowed=f"at most {MAX_DEPTH} levels of arrays and tables")
        if isinstance(value, bool):
            continue
        if isinstance(value, _BigInt) or (isinstance(value, int) and abs(value) >= 10 ** MAX_INT_DIGITS):
            digits = int(value) if isinstance(value, _BigInt) else len(str(abs(value)))
            raise PuzzleError(f"an integer of {digits} digits is out of range", file=name, place=where,
                              allowed=f"integers of at most {MAX_INT_DIGITS} digits")
        if isinstance(value, float) and not math.isfinite(value):
            raise PuzzleError(f"{value} is not a number a puzzle may use", file=name, place=where,
                              allowed="finite numbers")
        if isinstance(value, str) and len(value) > MAX_STRING_CHARS:
            raise PuzzleError(f"a string of {len(value)} characters", file=name, place=where,
                              allowed=f"at most {MAX_STRING_CHARS} characters")
        if isinstance(value, (list, dict)) and len(value) > MAX_ITEMS:
            raise PuzzleError(f"{len(value)} {'items' if isinstance(value, list) else 'keys'}", file=name,
                              place=where, allowed=f"at most {MAX_ITEMS}")
        if isinstance(value, list):
            stack.extend((v, f"{place}[{i + 1}]", depth + 1) for i, v in enumerate(value))
        elif isinstance(value, dict):
            for k, v in value.items():
                key = str(k)
                if len(key) > MAX_STRING_CHARS:
                    raise PuzzleError(f"a key of {len(key)} characters", file=name, place=where,
                                      allowed=f"at most {MAX_STRING_CHARS} characters")
                stack.append((v, f"{place}.{key}" if place else key, depth + 1))


def load_document(data: Mapping[str, Any], *, file: str | None = None, viewer: str | None = None) -> PuzzleDoc:
    if not isinstance(data, Mapping):
        raise PuzzleError("the top level must be a table", file=file)
    check_limits(data, file)
    section = Section(dict(data), file=file)
    game_name = section.raw("game")
    if not isinstance(game_name, str):
        raise section.error("expected a game name", "game", allowed=_game_names())
    info = find_game(game_name, file=file, place="game")
    check_keys(section.data, info.spec, file=file)
    title = section.string("title", None)
    file_viewer = section.string("viewer", None)
    module = _module(info)
    claim_keys = ("text", "expect", *getattr(module, "CLAIM_KEYS", ()))
    claims = []
    for cs in section.sections("claim"):
        text = cs.string("text")
        expect = cs.string("expect", "entailed", choices=[v.value for v in (Verdict.ENTAILED, Verdict.REFUTED,
                                                                          Verdict.OPEN)])
        options = {k: cs.raw(k) for k in claim_keys[2:] if cs.has(k)}
        cs.finish(claim_keys)
        claims.append(ClaimSpec(text, Verdict(expect), cs.place, options))
    return PuzzleDoc(info, section, file, title, viewer or file_viewer, claims, viewer_from_cli=viewer is not None)


def _module(info: GameInfo) -> ModuleType:
    try:
        return game_module(info)
    except ModuleNotFoundError as exc:
        if exc.name and info.module.startswith(exc.name):
            raise SleuthError(f"game {info.name!r} is not available in this build") from None
        raise


def _game_names() -> list[str]:
    from .games import all_games
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
    module = _module(doc.game)
    puzzle = module.load(doc)
    if not isinstance(puzzle, Puzzle):
        raise InternalError(f"{doc.game.module}.load returned {type(puzzle).__name__}, not a Puzzle")
    doc.section.finish()
    if doc.viewer is not None and not getattr(module, "HAS_VIEWER", True):
        doc.note(f"viewer {doc.viewer!r} is ignored: game {doc.game.name!r} has no viewer",
                 "--viewer" if doc.viewer_from_cli else "viewer")
    return puzzle


def loads(text: str, *, viewer: str | None = None, name: str = "<string>") -> Puzzle:
    """Load a puzzle from TOML (or JSON) text."""
    return load_data(parse_text(text, name), file=name, viewer=viewer)


def claim_spec(text: str, expect: str | None = "entailed") -> ClaimSpec:
    """A claim to check (``expect`` entailed, refuted or open), or with ``expect=None`` a question."""
    if expect is None:
        return ClaimSpec(text, None)
    return ClaimSpec(text, Verdict(choose(expect, ["entailed", "refuted", "open"], "verdict")))
