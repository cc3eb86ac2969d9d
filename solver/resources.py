"""Files shipped inside the package: the bundled example puzzles and the data games read at run time.

Everything is read through :mod:`importlib.resources`, so it works the same from a checkout, an editable
install and a wheel.  A command-line FILE may name a bundled puzzle as ``example:GAME/NAME``.
"""

from __future__ import annotations

import contextlib
import os
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from .errors import PuzzleError

EXAMPLE_PREFIX = "example:"
_PUZZLE_SUFFIXES = (".toml", ".json")


def data_root() -> Traversable:
    """The folder of bundled puzzles and data (``puzzles/`` in the repository, ``sleuth/puzzles`` installed)."""
    return resources.files("sleuth.puzzles")


def data_file(*parts: str) -> Traversable:
    """A bundled data file, e.g. ``data_file("egghead", "questions.toml")``."""
    node = data_root()
    for part in parts:
        node = node.joinpath(part)
    return node


@dataclass(frozen=True)
class Example:
    """A bundled puzzle: ``GAME/NAME`` is how a user names it (``example:clue/classic-3-players``)."""

    folder: str
    name: str
    resource: Traversable

    @property
    def ref(self) -> str:
        return f"{self.folder}/{self.name}"

    def text(self) -> str:
        return self.resource.read_text(encoding="utf-8")


def _is_puzzle(node: Traversable) -> bool:
    if not node.name.endswith(_PUZZLE_SUFFIXES) or not node.is_file():
        return False
    if node.name.endswith(".json"):
        return True
    try:
        return "game" in tomllib.loads(node.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError):
        return False


def _in_folder(folder: str | None, name: str | None = None) -> Iterator[Example]:
    """The bundled puzzles of ``folder`` (None: every folder) in name order; with ``name``, only those of that
    name (any case), the others' files not read."""
    for sub in sorted(data_root().iterdir(), key=lambda n: n.name):
        if not sub.is_dir() or sub.name.startswith(("_", ".")) or folder is not None and sub.name != folder:
            continue
        for node in sorted(sub.iterdir(), key=lambda n: n.name):
            stem = node.name.rsplit(".", 1)[0]
            if (name is None or stem.casefold() == name.casefold()) and _is_puzzle(node):
                yield Example(sub.name, stem, node)


def examples(folder: str | None = None) -> list[Example]:
    """The bundled puzzles (data files such as the Egghead question catalogue are not puzzles)."""
    return list(_in_folder(folder))


def example_folders() -> list[str]:
    return sorted({e.folder for e in examples()})


def find_example(ref: str) -> Example:
    """``GAME/NAME`` (with or without the ``example:`` prefix and the file suffix) to the bundled puzzle."""
    key = ref.removeprefix(EXAMPLE_PREFIX).strip().strip("/")
    for suffix in _PUZZLE_SUFFIXES:
        key = key.removesuffix(suffix)
    folder, _, name = key.partition("/")
    # the one file named: not every bundled puzzle read (40-50 ms)
    found = next(_in_folder(folder, name), None)
    if found is not None:
        return found
    pool = examples(folder) if folder in example_folders() else []
    known = [e.ref for e in (pool or examples())]
    raise PuzzleError(f"no bundled example {key!r}", file=EXAMPLE_PREFIX + key,
                      allowed=", ".join(known) + " (sleuth examples lists them)")


@contextlib.contextmanager
def example_path(ref: str) -> Iterator[Path]:
    """A real file path for a bundled example (extracted to a temporary file only if the package is zipped)."""
    with resources.as_file(find_example(ref).resource) as path:
        yield path


def is_example(name: str | os.PathLike[str]) -> bool:
    return isinstance(name, str) and name.startswith(EXAMPLE_PREFIX)


# -- the documentation, shipped as ``sleuth.docs`` ---------------------------------------------------------------

def docs_root() -> Traversable:
    """The folder of documentation pages (``docs/`` in the repository, ``sleuth/docs`` installed)."""
    return resources.files("sleuth.docs")


def doc_pages() -> dict[str, str]:
    """Every page by name (``clue`` for docs/clue.md), with its title (the first heading)."""
    pages: dict[str, str] = {}
    for node in sorted(docs_root().iterdir(), key=lambda n: n.name):
        if node.name.endswith(".md") and node.is_file():
            first = next((line for line in node.read_text(encoding="utf-8").splitlines() if line.strip()), "")
            pages[node.name.removesuffix(".md")] = first.lstrip("# ").strip()
    return pages


def find_doc(name: str) -> Traversable:
    """A page by its name (``cli``, ``clue``, ``docs/clue.md``) or by a game's name or alias (its page)."""
    key = name.strip().removeprefix("docs/").removesuffix(".md").casefold()
    pages = doc_pages()
    if key in ("", "index", "readme"):
        key = "README"
    for page in pages:
        if page.casefold() == key.casefold():
            return docs_root().joinpath(page + ".md")
    from .errors import UnknownNameError
    from .registry import all_games

    for game in all_games():
        if key in {game.name.casefold(), *(a.casefold() for a in game.aliases)} and game.page in pages:
            return docs_root().joinpath(game.page + ".md")
    raise UnknownNameError("page", name, [*pages, *(g.name for g in all_games())], place="docs")
