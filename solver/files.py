"""Reading puzzle files: TOML, or JSON with the same structure, within the input limits.

Every failure is a :class:`~sleuth.errors.PuzzleError` naming the file, the place and what is allowed; no
input can make the reader recurse without bound, allocate without bound or wait forever.
"""

from __future__ import annotations

import json
import math
import os
import re
import select
import stat
import sys
import tomllib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from .errors import PuzzleError
from .names import json_object
from .resources import find_example, is_example

MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 50              # nested arrays and tables ([ ], { }, dotted keys) in a puzzle file
MAX_INT_DIGITS = 100        # exact arithmetic takes any size; the games check their own ranges (and the solvers refuse
                            # an expression that could leave 64 bits, naming it)
MAX_STRING_CHARS = 10_000   # a string or a key
MAX_ITEMS = 1_000_000       # the items of one list, or the keys of one table
PIPE_WAIT_SECONDS = 10.0    # how long a named pipe may stay without a writer before reading it is given up

# Tokens that open or close a level of nesting, and what may hide a bracket (strings, comments).
_TOML_TOKENS = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*|[\[\]{}]')
_JSON_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
_LONG_INT = re.compile(r"(?<![\w.])[+-]?\d[\d_]{" + str(MAX_INT_DIGITS) + ",}")


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
    try:
        return parse_text(text, name, json_hint=hint.lower().endswith(".json"))
    except PuzzleError:
        data = game_text(text)  # not TOML nor JSON: a text a game reads (Wordle's shared grid)
        if data is None:
            raise
        return data


def game_text(text: str) -> dict[str, Any] | None:
    """The puzzle a game makes of a text in its own format (its declaration's ``text_input``), else None."""
    from .registry import all_games

    for game in all_games():
        data = game.read_text(text)
        if data is not None:
            return data
    return None


def read_bounded(name: str, limit: int = MAX_FILE_BYTES) -> bytes:
    """At most ``limit`` bytes of a file, whatever it is (regular, pipe, character device), else PuzzleError.

    A named pipe is read as long as a program writes to it, and given up after :data:`PIPE_WAIT_SECONDS`
    without a byte (no writer at all included), so that ``sleuth solve PIPE`` never waits forever.
    """
    try:
        if os.path.isdir(name):
            raise PuzzleError("is a directory, not a puzzle file", file=name)
        if stat.S_ISFIFO(os.stat(name).st_mode) and hasattr(select, "poll"):
            raw = _read_pipe(name, limit)
        else:
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


def _read_pipe(name: str, limit: int) -> bytes:
    fd = os.open(name, os.O_RDONLY | os.O_NONBLOCK)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            if not poller.poll(int(PIPE_WAIT_SECONDS * 1000)):
                raise PuzzleError(f"is a named pipe that no program wrote to for {PIPE_WAIT_SECONDS:g} s", file=name,
                                  allowed="a file, a pipe with a writer, or - for standard input")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


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




# -- files a puzzle names (a word list): read where the caller allows ----------------------------------------

_NAMED_FOLDER: ContextVar[Path | None] = ContextVar("sleuth_named_files_folder", default=None)
NAMED_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,79}$")  # a bare file name, not hidden, no path


@contextmanager
def named_files_in(folder: Path) -> Iterator[None]:
    """Within the block (this thread or task), a file a puzzle names is read only from ``folder``, by its bare
    name (:func:`read_named`): how ``sleuth serve`` keeps every request inside its games folder."""
    token = _NAMED_FOLDER.set(Path(folder))
    try:
        yield
    finally:
        _NAMED_FOLDER.reset(token)


def read_named(spec: str, *, what: str, file: str | None, place: str, allowed: str, bundled: str
               ) -> tuple[bytes, str]:
    """The bytes of a file that a puzzle's key names (``what``: "word list"), and the name to show for it.

    Every game reads such a file through here.  Normally ``spec`` is a path, relative to the folder of the
    puzzle ``file``.  Inside :func:`named_files_in` it must be the name of a regular file directly in that
    folder (no path, no symbolic link), and a refusal names neither the folder nor whether a file exists
    elsewhere.  ``allowed`` says what the key takes, ``bundled`` the names the game resolves itself.
    """
    folder = _NAMED_FOLDER.get()
    if folder is None:
        path = Path(spec).expanduser()
        if not path.is_absolute() and file:
            path = Path(file).resolve().parent / path
        try:
            return read_bounded(str(path)), str(path)
        except PuzzleError as exc:
            raise PuzzleError(f"{what} {str(path)!r} {exc.message}", file=file, place=place,
                              allowed=allowed) from None
    refused = PuzzleError(f"{what} {spec[:80]!r} is not a file of the games folder", file=file, place=place,
                          allowed=f"{bundled}, or the name of a file uploaded into the games folder")
    if not NAMED_FILE.match(spec):
        raise refused
    try:
        fd = os.open(folder / spec, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        raise refused from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise refused
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MAX_FILE_BYTES + 1)
    finally:
        os.close(fd)
    if len(raw) > MAX_FILE_BYTES:
        raise PuzzleError(f"{what} {spec!r} is larger than {MAX_FILE_BYTES} bytes", file=file, place=place)
    return raw, spec
