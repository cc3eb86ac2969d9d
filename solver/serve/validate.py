"""Every request body of the companion read and checked whole, before anything is done with it.

A body is first checked as plain data (:func:`plain`: JSON values TOML can hold, at most :data:`MAX_DEPTH`
deep, no lone surrogate in any string or key), then against its route's shape (:data:`SHAPES`: which fields,
their types, which are required; an unknown field is refused too).  A refusal is a :class:`PuzzleError`
naming the field (``ops[2].index``), which the API answers with 400: a request is accepted whole or not at all.

>>> check("edit", {"ops": [{"op": "append", "key": "suggestion", "value": {"by": "Bob"}}], "solve": "x"})
Traceback (most recent call last):
...
sleuth.errors.PuzzleError: solve: expected an object (allowed: {"options": {...}} or null)
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import PuzzleError

MAX_DEPTH = 24          # nesting of lists and objects in a body (a puzzle table needs 6 at most)
MAX_INT = 2 ** 63 - 1   # TOML's integers are 64-bit
MAX_OPS = 500           # changes in one edit
MAX_CLAIMS = 50         # claims in one verify
OP_KINDS = ("append", "replace", "delete", "set", "unset")

Shape = Callable[[Any, str], None]


_BARE_KEY = re.compile(r"^[\w-]{1,40}$")


def _where(place: str, key: str | int) -> str:
    """``place`` one level down: ``ops[2]`` (counted from 1), ``solve.options``, or a key that is not a plain
    name as JSON writes it (one line, ASCII, shortened)."""
    if isinstance(key, int):
        return f"{place}[{key + 1}]"
    if not _BARE_KEY.match(key):
        key = json.dumps(key[:40])
    return f"{place}.{key}" if place else key


def _text_ok(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def plain(value: Any, place: str = "") -> None:
    """``value`` as JSON gives it, checked for what a puzzle file can hold: strings without a lone surrogate
    (``"\\udc80"``), integers of 64 bits, finite numbers, lists and string-keyed objects at most
    :data:`MAX_DEPTH` deep.  Iterative, so a body nested thousands deep is refused, not a RecursionError."""
    stack: list[tuple[Any, str, int]] = [(value, place, 0)]
    while stack:
        v, at, depth = stack.pop()
        here = at or "the request body"
        if isinstance(v, str):
            if not _text_ok(v):
                raise PuzzleError("a lone surrogate (\\ud800-\\udfff) is not text", place=here,
                                  allowed="UTF-8 text")
        elif isinstance(v, bool) or v is None:
            continue
        elif isinstance(v, int):
            if not -MAX_INT - 1 <= v <= MAX_INT:
                raise PuzzleError("integer out of range", place=here, allowed="-2^63 to 2^63-1")
        elif isinstance(v, float):
            if not math.isfinite(v):
                raise PuzzleError("not a finite number", place=here)
        elif isinstance(v, (list, dict)):
            if depth >= MAX_DEPTH:
                raise PuzzleError("nested too deep", place=here, allowed=f"at most {MAX_DEPTH} levels")
            if isinstance(v, list):
                stack.extend((item, _where(at, i), depth + 1) for i, item in enumerate(v))
            else:
                for k, item in v.items():
                    if not isinstance(k, str) or not _text_ok(k):
                        raise PuzzleError("a key with a lone surrogate is not text", place=here,
                                          allowed="UTF-8 text")
                    stack.append((item, _where(at, k), depth + 1))
        else:
            raise PuzzleError(f"unexpected {type(v).__name__}", place=here)


# -- shapes: small checkers that name the field ----------------------------------------------------------------

def anything(value: Any, place: str) -> None:
    """Any plain value (already checked by :func:`plain`); the game's reader checks it later, before saving."""


def string(*, nonempty: bool = False, choices: tuple[str, ...] = ()) -> Shape:
    def check_string(value: Any, place: str) -> None:
        if not isinstance(value, str) or (nonempty and not value.strip()):
            raise PuzzleError("expected a non-empty string" if nonempty else "expected a string", place=place,
                              allowed=", ".join(choices) or None)
        if choices and value not in choices:
            raise PuzzleError(f"unknown value {value[:40]!r}", place=place, allowed=", ".join(choices))
    return check_string


def integer(value: Any, place: str) -> None:
    if not isinstance(value, int) or isinstance(value, bool):
        raise PuzzleError("expected an integer", place=place)


def nullable(shape: Shape) -> Shape:
    def check_nullable(value: Any, place: str) -> None:
        if value is not None:
            shape(value, place)
    return check_nullable


def list_of(item: Shape, *, low: int, high: int, what: str) -> Shape:
    def check_list(value: Any, place: str) -> None:
        if not isinstance(value, list) or not low <= len(value) <= high:
            raise PuzzleError(f"expected a list of {what}", place=place, allowed=f"{low} to {high} items")
        for i, v in enumerate(value):
            item(v, _where(place, i))
    return check_list


def scalar_map(value: Any, place: str) -> None:
    """Command options as the CLI passes them (``--set key=value`` and flags): scalars (or null) by name."""
    if not isinstance(value, dict):
        raise PuzzleError("expected an object of options", place=place, allowed="{option: value}")
    for k, v in value.items():
        if not isinstance(v, (str, int, float, bool)) and v is not None:
            raise PuzzleError("expected a string, number or true/false", place=_where(place, k))


def table(fields: Mapping[str, Shape], *, required: tuple[str, ...] = (), allowed: str | None = None) -> Shape:
    """An object with only ``fields`` (each checked by its shape), ``required`` ones present."""
    def check_table(value: Any, place: str) -> None:
        if not isinstance(value, dict):
            raise PuzzleError("expected an object", place=place or "the request body", allowed=allowed)
        for key in value:
            if key not in fields:
                raise PuzzleError(f"unknown field {key[:40]!r}", place=_where(place, key),
                                  allowed=", ".join(fields) or "none")
        for key in required:
            if key not in value:
                raise PuzzleError("missing", place=_where(place, key))
        for key, shape in fields.items():
            if key in value:
                shape(value[key], _where(place, key))
    return check_table


OP_FIELDS = {"append": ("value",), "replace": ("index", "value"), "delete": ("index",), "set": ("value",),
             "unset": ()}


def change(value: Any, place: str) -> None:
    """One change of an edit: ``{"op", "key"}`` and the fields its kind needs (``index``, ``value``), no other."""
    if not isinstance(value, dict):
        raise PuzzleError("expected an object", place=place, allowed='{"op": ..., "key": ...}')
    string(choices=OP_KINDS)(value.get("op"), _where(place, "op"))
    needs = OP_FIELDS[value["op"]]
    table({"op": anything, "key": string(), "index": integer, "value": anything},
          required=("op", "key", *needs))(value, place)
    for extra in ("index", "value"):
        if extra in value and extra not in needs:
            raise PuzzleError(f"a {value['op']} change takes no {extra}", place=_where(place, extra),
                              allowed=", ".join(("op", "key", *needs)))


def puzzle_table(value: Any, place: str) -> None:
    if not isinstance(value, dict):
        raise PuzzleError("expected a puzzle table", place=place, allowed="{game: ..., ...}")


def new_table(value: Any, place: str) -> None:
    """A new saved table: exactly one of ``data`` (a puzzle table), ``text`` (a file's text) or ``example``;
    optional name."""
    table({"name": nullable(string()), "example": string(nonempty=True), "text": string(),
           "filename": nullable(string()), "data": puzzle_table})(value, place)
    given = [k for k in ("data", "text", "example") if k in value]
    if len(given) != 1:
        raise PuzzleError("expected exactly one of data, text, example" + (f" (given: {', '.join(given)})"
                                                                          if given else ""),
                          place=given[1] if len(given) > 1 else "data", allowed='{"data": {game: ..., ...}}, '
                          '{"text": "..."} or {"example": "GAME/NAME"}')


SOLVE = nullable(table({"options": nullable(scalar_map)}, allowed='{"options": {...}} or null'))
OPTIONS = nullable(scalar_map)
METHOD = nullable(string(nonempty=True))

SHAPES: dict[str, Shape] = {
    "create": new_table,
    "edit": table({"ops": list_of(change, low=1, high=MAX_OPS, what="changes"), "solve": SOLVE},
                  required=("ops",)),
    "step": table({"solve": SOLVE}),
    "solve": table({"options": OPTIONS}),
    "verify": table({"claims": list_of(string(nonempty=True), low=1, high=MAX_CLAIMS, what="claim texts")},
                    required=("claims",)),
    "suggest": table({"method": METHOD, "options": OPTIONS}),
    "job": table({"command": string(choices=("solve", "suggest", "review")), "method": METHOD, "options": OPTIONS},
                 required=("command",)),
    "file": table({"name": string(nonempty=True), "text": string()}, required=("name", "text")),
}


def check(route: str, value: Any) -> dict[str, Any]:
    """``value`` (a parsed body) checked whole for ``route`` (a key of :data:`SHAPES`); returned unchanged."""
    plain(value)
    SHAPES[route](value, "")
    assert isinstance(value, dict)
    return value
