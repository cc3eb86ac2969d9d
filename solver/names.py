"""One name policy for every game (docs/names.md): how names compare, which are reserved, how claims quote them.

- Names compare case-insensitively, after collapsing white space (:func:`sleuth.schema.fold`).  Two names of
  one kind that fold to the same text are refused, naming both places; so is an empty name.
- A name the JSON output uses as its own key (Clue's ``envelope`` column) is reserved for that game.
- Any other name is accepted.  In a claim it is written bare, or in double quotes or backquotes when it
  contains a word of the claim language or spaces: ``"Bob holds" holds Peacock``.  In the epistemic formula
  language, quotes are values, so variables and agents are quoted with backquotes only.
- In a file, the keys of one table may not repeat (JSON) nor differ only in case (TOML and JSON).

>>> unique_names("player", ["Ann", "Bob"], "players")
['Ann', 'Bob']
>>> unquote('"Bob holds"'), unquote("`it``s`"), unquote(" Ann ")
('Bob holds', 'it`s', 'Ann')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from .errors import PuzzleError
from .schema import fold

# A name as a claim pattern captures it: double-quoted, backquoted (a doubled backquote inside), or bare.
NAME = r'(?:"[^"]+"|`(?:[^`]|``)+`|.+?)'


_SPECIAL = set('"`=,()')


def unquote(text: str) -> str:
    """The name a claim wrote: quotes and surrounding space removed (a doubled backquote is one)."""
    text = text.strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1]
    if len(text) >= 2 and text[0] == text[-1] == "`":
        return text[1:-1].replace("``", "`")
    return text


def quote(name: str, words: Iterable[str] = ()) -> str:
    """How a claim writes ``name``: bare when it is one word, not one of ``words`` and without ``"`=,()``;
    else in double quotes (in backquotes when the name has a double quote)."""
    plain = bool(name) and not any(ch.isspace() or ch in _SPECIAL for ch in name) \
        and name.casefold() not in {w.casefold() for w in words}
    if plain:
        return name
    return f'"{name}"' if '"' not in name else "`" + name.replace("`", "``") + "`"


def unique_names(kind: str, names: Sequence[object], place: str, *, file: str | None = None,
                 reserved: Iterable[str] = (), why: str = "") -> list[str]:
    """Check a list of names: strings, not empty, no two the same up to case, none reserved.

    ``place`` is the key path of the list (``players``); errors name the item (``players[3]``) and, for a
    repeat, the earlier one too.
    """
    unique_items(kind, [(f"{place}[{i}]", n) for i, n in enumerate(names, 1)], file=file, reserved=reserved, why=why)
    return [str(n) for n in names]  # every one checked a string above


def unique_keys(kind: str, keys: Iterable[str], place: str, *, file: str | None = None,
                reserved: Iterable[str] = (), why: str = "") -> list[str]:
    """:func:`unique_names` for the keys of a table (the place of a key is ``table.key``)."""
    keys = list(keys)
    unique_items(kind, [(f"{place}.{k}" if place else k, k) for k in keys], file=file, reserved=reserved, why=why)
    return keys


def unique_items(kind: str, items: Sequence[tuple[str, object]], *, file: str | None = None,
                 reserved: Iterable[str] = (), why: str = "") -> None:
    """The check behind :func:`unique_names`, for ``(place, name)`` pairs gathered from several lists."""
    seen: dict[str, tuple[str, str]] = {}
    banned = {fold(r) for r in reserved}
    for where, name in items:
        if not isinstance(name, str):
            raise PuzzleError(f"expected a {kind} name, got {name!r}", file=file, place=where)
        key = fold(name)
        if not key:
            raise PuzzleError(f"empty {kind} name", file=file, place=where, allowed="a name with a letter or digit")
        if key in banned:
            raise PuzzleError(f"{kind} name {name!r} is reserved{why}", file=file, place=where,
                              allowed="any other name (see sleuth docs names)")
        if key in seen:
            first_place, first = seen[key]
            raise PuzzleError(f"{kind} {name!r} is listed twice: here and as {first!r} at {first_place}"
                              " (names compare case-insensitively)", file=file, place=where)
        seen[key] = (where, name)


def first_repeat(items: Sequence[Any]) -> tuple[int, int] | None:
    """The first ``(i, j)``, ``i < j``, with ``items[i] == items[j]`` (items hashable), or None."""
    seen: dict[Any, int] = {}
    for j, item in enumerate(items):
        if item in seen:
            return seen[item], j
        seen[item] = j
    return None


# -- keys of the file itself ------------------------------------------------------------------------------

class _Pairs(dict[str, Any]):
    """A JSON object that remembers a key given twice (json.loads would keep the last silently)."""

    repeated: str | None = None


def json_object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for :func:`json.loads`: keeps the first repeated key for :func:`check_keys`."""
    out = _Pairs()
    for key, value in pairs:
        if key in out and out.repeated is None:
            out.repeated = key
        out[key] = value
    return out


def check_keys(data: Any, file: str | None = None) -> None:
    """Refuse a table with a key given twice, or two keys that differ only in case (walked iteratively)."""
    stack: list[tuple[Any, str]] = [(data, "")]
    while stack:
        value, place = stack.pop()
        if isinstance(value, dict):
            if isinstance(value, _Pairs) and value.repeated is not None:
                raise PuzzleError(f"key {value.repeated!r} is listed twice in one JSON object", file=file,
                                  place=place or None, allowed="each key once")
            seen: dict[str, str] = {}
            for key in value:
                k = fold(key) if isinstance(key, str) else key
                if k in seen:
                    raise PuzzleError(f"key {key!r} is listed twice: as {seen[k]!r} and as {key!r} (keys and"
                                      " names compare case-insensitively)", file=file, place=place or None)
                seen[k] = key
            stack.extend((v, f"{place}.{k}" if place else str(k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{place}[{i}]") for i, v in enumerate(value, 1))
