"""The Game interface: what every game package provides, so that a game is one package.

A game package (built in, or a plug-in found through the ``sleuth.games`` entry points) has

- ``spec`` (a :class:`~sleuth.spec.GameSpec`): its keys, options, claims and registered derivations;
- ``load(doc) -> Puzzle``: the file read into a typed state (the :class:`~sleuth.puzzle.Puzzle` holds it),
  with ``solve`` / ``verify`` / ``suggest`` and the rendering of answers;
- ``world``: the declarative side, three functions over a loaded puzzle —
  ``model(puzzle) -> WorldModel`` (the constraint model, one named observation per fact, and how its
  variables read as a world), ``check(puzzle, world) -> bool`` (the rules in plain Python) and
  ``candidates(puzzle)`` (every world before any observation, for small puzzles).

The model is the definition: enumerating it on either engine yields the worlds (:func:`model_worlds`), and
the tests hold it to the plain rules over every candidate (:func:`checked_worlds`) on small puzzles.
"""

from __future__ import annotations

import functools
import importlib
import weakref
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar, cast

if TYPE_CHECKING:
    from .model import Model, Var
    from .puzzle import Puzzle


P = TypeVar("P")
R = TypeVar("R")


def per_puzzle(fn: Callable[[P], R]) -> Callable[[P], R]:
    """``fn(puzzle)`` computed once per loaded puzzle: what a world module's ``check`` needs is derived from the
    puzzle, and ``check`` runs once per candidate world."""
    cache: weakref.WeakKeyDictionary[Any, R] = weakref.WeakKeyDictionary()

    @functools.wraps(fn)
    def once(puzzle: P) -> R:
        if puzzle not in cache:
            cache[puzzle] = fn(puzzle)
        return cache[puzzle]
    return once


@dataclass(frozen=True)
class WorldModel:
    """A game state's declarative model, the variables that make a world, and how to read one."""

    model: Model
    variables: Sequence[Var]
    decode: Callable[[tuple[int, ...]], Hashable]


class WorldModule(Protocol):
    """What a game package's ``world`` module provides (a module satisfies it; mypy checks every built-in
    game's against it in ``sleuth.models``)."""

    def model(self, puzzle: Any, /) -> WorldModel: ...

    def check(self, puzzle: Any, world: Any, /) -> bool: ...

    def candidates(self, puzzle: Any, /) -> Iterable[Any]: ...


def world_module(puzzle: Puzzle) -> WorldModule:
    """The ``world`` module of the puzzle's game package (model, check, candidates)."""
    return cast(WorldModule, importlib.import_module(puzzle.doc.game.module + ".world"))


def model_worlds(puzzle: Puzzle, backend: str = "cpsat") -> set[Hashable]:
    """The worlds the game's declarative model admits, enumerated on ``backend``."""
    from .engine import Engine

    wm: WorldModel = world_module(puzzle).model(puzzle)
    return {wm.decode(values) for values in Engine(wm.model, backend).valids(wm.variables)}


def checked_worlds(puzzle: Puzzle) -> set[Hashable]:
    """The candidate worlds that the game's plain-Python rules accept (brute force, small puzzles)."""
    mod = world_module(puzzle)
    return {w for w in mod.candidates(puzzle) if mod.check(puzzle, w)}
