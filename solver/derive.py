"""Derivations: the named ways a game answers the query its declarative model defines.

Each game's query (Clue's sheet, Motus's possible words, Mascarade's marginals, ...) is defined by the game's
declarative model (:mod:`sleuth.model`): the answer is what the model's solutions give.  A *derivation* is a
named way to compute that answer, registered in the game's declaration (``Game.methods``), fastest first:

- an **exact** derivation (counting, master tables, trees, vectorised matrices, compiled kernels) must give
  the model's answer; the conformance tests hold every bundled puzzle to it;
- an **approximate** one is labelled so in every output (``"exact": false`` in JSON);
- ``model`` answers from the declarative model itself, on the engine ``--backend`` names; every game has it;
- ``auto`` (the default) is the first exact derivation that serves the request, unless the game says
  otherwise (a game may pick by size).

``--backend`` picks only the engine that runs a model, never the algorithm: a derivation that runs no engine
reports ``"backend": null``, with a note when another engine than the default was asked for.

>>> methods = (Derivation("count", "exact counting"), Derivation("model", "enumerate the model", engine=True),
...            Derivation("guess", "a heuristic", exact=False))
>>> find_derivation(methods, "AUTO").name, find_derivation(methods, "guess").exact
('count', False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from .errors import InternalError, PuzzleError, UnknownNameError

AUTO = "auto"
DEFAULT_BACKEND = "cpsat"


@dataclass(frozen=True)
class Derivation:
    """One registered way to answer a game's query."""

    name: str
    meaning: str
    exact: bool = True
    engine: bool = False            # runs on the engine --backend names (CP-SAT or python-constraint)
    aliases: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        return ("exact" if self.exact else "APPROXIMATE") + (", on --backend" if self.engine else "")


def model(meaning: str, *aliases: str) -> Derivation:
    """The ``model`` derivation: the game's declarative model answered by the engine alone."""
    return Derivation("model", meaning, engine=True, aliases=aliases)


def find_derivation(methods: Sequence[Derivation], value: object, *, auto: str | None = None,
                    **where: str | None) -> Derivation:
    """The derivation ``value`` names (a name or alias, any case); ``auto`` is ``auto`` or the first exact one."""
    key = str(value).strip().casefold()
    if key == AUTO:
        key = (auto or next(d.name for d in methods if d.exact)).casefold()
    for d in methods:
        if key == d.name.casefold() or key in (a.casefold() for a in d.aliases):
            return d
    raise UnknownNameError("method", value, [AUTO, *(d.name for d in methods)], **where)


def method_key(value: object) -> str:
    """How a method name is compared: any case, and spaces, ``-`` and ``_`` alike (``Sum Gini`` = ``sum-gini``)."""
    return "-".join(str(value).replace("_", " ").replace("-", " ").split()).casefold()


def find_method(methods: Sequence[Derivation], value: object, **where: str | None) -> Derivation:
    """The ``suggest`` method ``value`` names, a name or alias (:func:`method_key`); None: the first declared
    (the default).  The one check of ``suggest --method``: an unknown name is bad input naming the methods.

    >>> ways = (Derivation("sumgini", "Sum Gini", aliases=("sum-gini",)), Derivation("max", "Max"))
    >>> find_method(ways, None).name, find_method(ways, "Sum_Gini").name, find_method(ways, "MAX").name
    ('sumgini', 'sumgini', 'max')
    """
    if value is None and methods:
        return methods[0]
    key = method_key(value)
    for d in methods:
        if key == method_key(d.name) or key in (method_key(a) for a in d.aliases):
            return d
    raise UnknownNameError("method", value, [d.name for d in methods], **where)


T = TypeVar("T")


def handlers(methods: Sequence[Derivation], table: Mapping[str, T]) -> Mapping[str, T]:
    """A game's code for (some of) its registered derivations, by name: how a game dispatches a derivation,
    rather than comparing strings.  A name the game does not register is a bug, found when the module loads.

    >>> ways = (Derivation("count", "exact"), model("the model"))
    >>> handlers(ways, {"count": len})["count"]("abc")
    3
    >>> handlers(ways, {"rules": len})  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    sleuth.errors.InternalError: code for a name the game does not register
    """
    names = [d.name for d in methods]
    for name in table:
        if name not in names:
            raise InternalError(f"code for {name!r}, which is not a registered derivation ({', '.join(names)})")
    return dict(table)


class NotServed(PuzzleError):
    """The method asked for cannot serve this puzzle or request (a one-line error, exit status 2; ``auto`` can)."""


@dataclass(frozen=True)
class Choice:
    """The derivation a command runs, and the engine it runs on (None: it runs none)."""

    derivation: Derivation
    backend: str | None

    @property
    def name(self) -> str:
        return self.derivation.name

    def fields(self) -> dict[str, Any]:
        """The JSON fields that label every answer: ``method``, ``exact`` and ``backend``."""
        return {"method": self.derivation.name, "exact": self.derivation.exact, "backend": self.backend}


def markdown_methods(methods: Sequence[Derivation]) -> str:
    """The methods table of a game's docs page."""
    rows = ["| method | kind | meaning |", "| --- | --- | --- |",
            "| `auto` | exact | the default: the first exact method below, unless the `--method` option says how "
            "the game picks |"]
    for d in methods:
        alias = f" (also: {', '.join(d.aliases)})" if d.aliases else ""
        rows.append(f"| `{d.name}`{alias} | {d.label} | {d.meaning} |")
    return "\n".join(rows)
