"""The games folder: every saved table (a game being played, or a puzzle being worked on, in the companion) is a
puzzle file (the TOML the CLI reads), saved atomically after every event, with its undo and redo history beside
it.  Code and messages call it a *table*; the folder, its environment variable and the HTTP API keep the name
``games`` (``SLEUTH_GAMES_DIR``, ``/api/games``) that users and pages already use.

Only names matching :data:`NAME` are accepted, and every path is built as ``folder / (name + suffix)``, so no
request can reach a file outside the folder.  Each table has a lock: an event is read, applied, checked by the
CLI's own reader (:func:`sleuth.loading.load_data`) and saved under it, so concurrent requests never lose or
interleave an event.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import PuzzleError, SleuthError
from ..files import parse_text, read_bounded
from ..puzzle import Puzzle
from ..loading import load_data

TABLES_ENV = "SLEUTH_GAMES_DIR"
NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")
SUFFIX = ".toml"
HISTORY = ".history.json"
MAX_HISTORY = 200        # undo steps kept per table
MAX_TABLE_BYTES = 1 << 20  # a saved table (and an upload) is at most this long
FILE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,59}\.txt$")  # an uploaded file (a word list)


def tables_folder() -> Path:
    """Where saved tables are kept: ``$SLEUTH_GAMES_DIR``, else the platform's user data folder."""
    env = os.environ.get(TABLES_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("sleuth")) / "games"


def check_name(name: str) -> str:
    if not isinstance(name, str) or not NAME.match(name):
        raise PuzzleError(f"bad table name {str(name)[:80]!r}", place="name",
                          allowed="1 to 64 letters, digits, '-' and '_', starting with a letter or digit")
    return name


# tomli_w writes every array one item a line; a short array of plain values is kept on one line instead
_ITEM = re.compile(r'^    ("(?:[^"\\\n]|\\.)*"|[^\s,\[\]{}"]+),$', re.M)
_BARE = re.compile(r"^[A-Za-z0-9_-]+$")
_ONE_LINE = re.compile(r'\[\n((?:    (?:"(?:[^"\\\n]|\\.)*"|[^\s,\[\]{}"]+),\n){1,12})\]')


def to_toml(data: Mapping[str, Any], name: str = "game") -> str:
    """A puzzle table as TOML text (``game`` first; empty arrays of tables left out)."""
    import tomli_w

    ordered = {k: data[k] for k in ("game", "title", "viewer") if k in data}
    ordered.update({k: v for k, v in data.items() if k not in ordered and v != []})

    def section(k: str, v: Any) -> bool:  # an array of flat tables, written as [[key]] blocks as the docs show
        return _BARE.match(k) is not None and isinstance(v, list) and all(
            isinstance(t, dict) and not any(isinstance(x, dict) for x in t.values()) for t in v)
    try:
        text = tomli_w.dumps({k: v for k, v in ordered.items() if not section(k, v)})
        for k, v in ordered.items():
            if section(k, v):
                text += "".join(f"\n[[{k}]]\n" + tomli_w.dumps(item) for item in v)
        return _ONE_LINE.sub(lambda m: "[" + ", ".join(_ITEM.findall(m.group(1))) + "]", text)
    except (TypeError, ValueError) as exc:  # null, or a value TOML cannot hold
        raise PuzzleError(f"a value cannot be written to a puzzle file ({exc})", file=name + SUFFIX,
                          allowed="strings, numbers, true/false, lists and tables") from None


def atomic_write(path: Path, text: str, *, durable: bool = True) -> None:
    """Write ``text`` to ``path`` so that a crash leaves either the old file or the new one (``durable``: on
    disk before it replaces the old one, so that a power cut too leaves one of them)."""
    fd, tmp = tempfile.mkstemp(prefix="." + path.name, suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            if durable:
                os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def check(data: Mapping[str, Any], name: str) -> Puzzle:
    """The table read by the CLI's own reader; a :class:`PuzzleError` naming the field when it is wrong."""
    return load_data(data, file=name + SUFFIX)


def _plain(value: Any, depth: int = 0) -> bool:
    """Strings, integers, booleans, lists and string-keyed tables only (what TOML gives back unchanged)."""
    if depth > 60:
        return False
    if isinstance(value, (str, bool, int)):
        return True
    if isinstance(value, list):
        return all(_plain(v, depth + 1) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _plain(v, depth + 1) for k, v in value.items())
    return False


@dataclass
class TableInfo:
    name: str
    game: str | None
    title: str | None
    modified: float
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "game": self.game, "title": self.title, "modified": self.modified,
                "error": self.error}


class Store:
    """The games folder with one lock per saved table."""

    def __init__(self, folder: Path | None = None) -> None:
        self.folder = (folder or tables_folder()).resolve()
        self.folder.mkdir(parents=True, exist_ok=True)
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        # parsed files, valid while the file's (mtime, size, inode) is unchanged: one parse per event, not three
        self._cache: dict[Path, tuple[tuple[int, int, int], Any]] = {}

    # -- paths and locks -------------------------------------------------------------------------------
    def path(self, name: str, suffix: str = SUFFIX) -> Path:
        path = self.folder / (check_name(name) + suffix)
        if path.resolve().parent != self.folder:  # a symlink planted in the folder: refuse, never follow
            raise PuzzleError("is not a saved table of the games folder", file=name)
        return path

    @contextmanager
    def lock(self, name: str) -> Iterator[None]:
        with self._guard:
            lock = self._locks.setdefault(check_name(name), threading.Lock())
        with lock:
            yield

    def exists(self, name: str) -> bool:
        return self.path(name).is_file()

    # -- reading -----------------------------------------------------------------------------------------
    def tables(self) -> list[TableInfo]:
        out = []
        for path in sorted(self.folder.glob("*" + SUFFIX)):
            name = path.name[: -len(SUFFIX)]
            if not NAME.match(name) or path.is_symlink():
                continue
            try:
                data = self.data(name)
                out.append(TableInfo(name, str(data.get("game")), data.get("title"), path.stat().st_mtime))
            except (SleuthError, OSError) as exc:
                out.append(TableInfo(name, None, None, path.stat().st_mtime, str(exc)))
        out.sort(key=lambda g: -g.modified)
        return out

    def _cached(self, path: Path) -> dict[str, Any] | None:
        """The value remembered for ``path`` while the file is unchanged (its own outer dict and lists: the
        tables inside are shared and never changed in place: edits work on a deep copy, undo moves whole ones)."""
        try:
            st = path.stat()
        except OSError:
            return None
        hit = self._cache.get(path)
        if not hit or hit[0] != (st.st_mtime_ns, st.st_size, st.st_ino):
            return None
        return {k: list(v) if isinstance(v, list) else v for k, v in hit[1].items()}

    def _remember(self, path: Path, value: dict[str, Any]) -> None:
        st = path.stat()
        self._cache[path] = ((st.st_mtime_ns, st.st_size, st.st_ino), value)

    def text(self, name: str) -> str:
        path = self.path(name)
        if not path.is_file():
            raise KeyError(name)
        try:
            return read_bounded(str(path), MAX_TABLE_BYTES).decode("utf-8")
        except PuzzleError as exc:  # said with the table's name, not the server's path
            raise PuzzleError(exc.message, file=name + SUFFIX) from None

    def data(self, name: str) -> dict[str, Any]:
        """The saved table's puzzle data (its tables inside are shared with the cache: copy before changing them)."""
        path = self.path(name)
        cached = self._cached(path)
        if cached is not None:
            return cached
        data = parse_text(self.text(name), name + SUFFIX)
        self._remember(path, data)
        return dict(data)

    def history(self, name: str) -> dict[str, list[dict[str, Any]]]:
        path = self.path(name, HISTORY)
        cached = self._cached(path)
        if cached is not None:
            return dict(cached)
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
            history = {"undo": list(raw.get("undo", [])), "redo": list(raw.get("redo", []))}
        except (OSError, ValueError, AttributeError):
            return {"undo": [], "redo": []}
        self._remember(path, history)
        return {k: list(v) for k, v in history.items()}

    # -- writing (callers hold the table's lock) ------------------------------------------------------------
    def unused_name(self, base: str) -> str:
        base = re.sub(r"[^A-Za-z0-9_-]+", "-", base).strip("-_")[:56] or "game"
        if not base[0].isalnum():
            base = "g" + base
        name, k = base, 1
        while self.path(name).exists():
            k += 1
            name = f"{base}-{k}"
        return name

    def create(self, data: Mapping[str, Any], name: str | None = None) -> str:
        """Save a new table (checked first); its name: ``name`` if free, else one made from the title."""
        with self._guard:
            if name is not None and not self.path(check_name(name)).exists():
                chosen = name
            else:
                chosen = self.unused_name(name or str(data.get("title") or data.get("game") or "game")
                                          + time.strftime("-%Y%m%d-%H%M"))
            rendered = self.render(chosen, data)
            check(rendered[1], chosen)
            self.save(chosen, data, rendered)
            self.path(chosen, HISTORY).unlink(missing_ok=True)
            return chosen

    def render(self, name: str, data: Mapping[str, Any]) -> tuple[str, dict[str, Any]]:
        """The TOML text that would be saved, and that text read back as the CLI reads it (JSON values, the
        page's, come back from TOML unchanged, so only other tables are read back)."""
        text = to_toml(data, name)
        if len(text.encode("utf-8")) > MAX_TABLE_BYTES:
            raise PuzzleError(f"the table would be longer than {MAX_TABLE_BYTES} bytes", file=name + SUFFIX)
        if _plain(data):
            return text, {k: v for k, v in data.items() if v != []}
        return text, parse_text(text, name + SUFFIX)

    def save(self, name: str, data: Mapping[str, Any], rendered: tuple[str, dict[str, Any]] | None = None) -> None:
        text, canonical = rendered or self.render(name, data)
        path = self.path(name)
        atomic_write(path, text)
        self._remember(path, canonical)

    def save_history(self, name: str, history: Mapping[str, list[dict[str, Any]]]) -> None:
        trimmed = {"undo": history["undo"][-MAX_HISTORY:], "redo": history["redo"][-MAX_HISTORY:]}
        path = self.path(name, HISTORY)
        atomic_write(path, json.dumps(trimmed), durable=False)
        self._remember(path, trimmed)

    def change(self, name: str, new: Mapping[str, Any], before_save: Callable[[Puzzle], None] | None = None
               ) -> Puzzle:
        """Replace the table by ``new`` once the CLI's reader accepts it (as it will be saved) and ``before_save``
        (given the loaded puzzle: an answer asked with the change) has run without error; the old one goes on
        the undo stack.  Any error before that leaves the file and its history as they were."""
        old = self.data(name)
        rendered = self.render(name, new)
        puzzle = check(rendered[1], name)
        if before_save is not None:
            before_save(puzzle)
        history = self.history(name)
        history["undo"].append(old)
        history["redo"] = []
        self.save(name, new, rendered)
        self.save_history(name, history)
        return puzzle

    def step(self, name: str, direction: str, before_save: Callable[[Puzzle], None] | None = None) -> bool:
        """Undo (``direction = "undo"``) or redo one change; False when there is none.  The table it goes back to
        is read by the CLI's reader first (a step kept by an older sleuth may hold what the reader now refuses:
        refused, nothing changed); ``before_save`` as for :meth:`change`, given the table as it will be."""
        other = "redo" if direction == "undo" else "undo"
        history = self.history(name)
        if not history[direction]:
            return False
        target = history[direction].pop()
        puzzle = check(target, name)
        if before_save is not None:
            before_save(puzzle)
        history[other].append(self.data(name))
        self.save(name, target)
        self.save_history(name, history)
        return True

    def save_file(self, name: str, text: str) -> str:
        """Save an uploaded file a puzzle may name (a word list, ``*.txt``) into the folder; never overwrites."""
        if not FILE_NAME.match(name):
            raise PuzzleError(f"bad file name {name[:80]!r}", place="name",
                              allowed="1 to 64 letters, digits, '.', '-' and '_' ending in .txt")
        if len(text.encode("utf-8")) > MAX_TABLE_BYTES:
            raise PuzzleError(f"the file is longer than {MAX_TABLE_BYTES} bytes", place="text")
        path = self.folder / name
        with self._guard:
            if path.exists() or path.is_symlink():
                raise PuzzleError(f"a file named {name!r} is already in the games folder", place="name",
                                  allowed="a new name")
            atomic_write(path, text)
        return name

    def files(self) -> list[str]:
        """The uploaded files of the folder (what a puzzle's ``dictionary`` may name)."""
        return sorted(p.name for p in self.folder.glob("*.txt") if FILE_NAME.match(p.name) and p.is_file()
                      and not p.is_symlink())

    def delete(self, name: str) -> None:
        self.path(name).unlink()
        self.path(name, HISTORY).unlink(missing_ok=True)
