"""Checked reading of puzzle-file sections: types, ranges, unknown keys and case-insensitive names.

Every game parses its section with :class:`Section`, so that every mistake is reported the same way:
the file, the key path and what is allowed.

>>> s = Section({"values": 6, "players": ["A", "B"]}, file="x.toml")
>>> s.integer("values", lo=2, hi=9)
6
>>> s.integer("hand_size", default=3)
3
>>> s.integer("values", lo=7)
Traceback (most recent call last):
...
sleuth.errors.PuzzleError: x.toml: values: 6 is out of range (allowed: 7 and more)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import Any, TypeVar

from .errors import PuzzleError, UnknownNameError

T = TypeVar("T")
_MISSING: Any = object()

_TYPE_NAMES = {int: "an integer", str: "a string", bool: "true or false", list: "a list",
               dict: "a table", float: "a number"}


def _type_name(t: type | tuple[type, ...]) -> str:
    if isinstance(t, tuple):
        return " or ".join(_type_name(x) for x in t)
    return _TYPE_NAMES.get(t, t.__name__)


def describe(value: object) -> str:
    """How a value the user wrote is quoted back in messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Section:
    """A table of a puzzle file, read key by key; :meth:`finish` rejects keys nobody read."""

    def __init__(self, data: object, *, file: str | None = None, place: str = "") -> None:
        self.file = file
        self.place = place
        if not isinstance(data, dict):
            raise self.error(f"expected a table, got {describe(data)}")
        self.data: dict[str, Any] = data
        self.used: set[str] = set()

    # -- errors -------------------------------------------------------------------------------------
    def path(self, key: str | int | None = None) -> str:
        if key is None:
            return self.place
        if isinstance(key, int):
            return f"{self.place}[{key}]"
        return f"{self.place}.{key}" if self.place else key

    def error(self, message: str, key: str | int | None = None,
              allowed: Iterable[object] | str | None = None) -> PuzzleError:
        return PuzzleError(message, file=self.file, place=self.path(key) or None, allowed=allowed)

    # -- access -------------------------------------------------------------------------------------
    def has(self, key: str) -> bool:
        return key in self.data

    def raw(self, key: str, default: Any = _MISSING) -> Any:
        self.used.add(key)
        if key not in self.data:
            if default is _MISSING:
                raise self.error("is required", key)
            return default
        return self.data[key]

    def get(self, key: str, typ: type | tuple[type, ...], default: Any = _MISSING) -> Any:
        value = self.raw(key, default)
        if value is default and key not in self.data:
            return value
        return self.check_type(value, typ, key)

    def check_type(self, value: Any, typ: type | tuple[type, ...], key: str | int | None) -> Any:
        types = typ if isinstance(typ, tuple) else (typ,)
        ok = isinstance(value, types) and not (isinstance(value, bool) and bool not in types)
        if not ok:
            raise self.error(f"expected {_type_name(typ)}, got {describe(value)}", key)
        return value

    def integer(self, key: str, default: Any = _MISSING, *, lo: int | None = None, hi: int | None = None) -> Any:
        value = self.get(key, int, default)
        if key in self.data:
            check_range(value, lo, hi, self, key)
        return value

    def string(self, key: str, default: Any = _MISSING, *, choices: Sequence[str] | None = None) -> Any:
        value = self.get(key, str, default)
        if choices is not None and key in self.data:
            return choose(value, choices, "value", self, key)
        return value

    def boolean(self, key: str, default: Any = _MISSING) -> Any:
        return self.get(key, bool, default)

    def fraction(self, key: str, default: Any = _MISSING, *, lo: Fraction | None = None,
                 hi: Fraction | None = None) -> Any:
        value = self.raw(key, default)
        if key not in self.data:
            return value
        frac = parse_fraction(value, self, key)
        if (lo is not None and frac < lo) or (hi is not None and frac > hi):
            raise self.error(f"{value!s} is out of range", key, allowed=f"from {lo} to {hi}")
        return frac

    def array(self, key: str, item: type | tuple[type, ...] | None = None, default: Any = _MISSING,
             *, min_len: int = 0, max_len: int | None = None) -> Any:
        value = self.get(key, list, default)
        if key not in self.data:
            return value
        if len(value) < min_len or (max_len is not None and len(value) > max_len):
            bound = (f"exactly {min_len}" if min_len == max_len else f"{min_len} to {max_len}" if max_len is not None
                     else f"at least {min_len}")
            raise self.error(f"has {len(value)} items", key, allowed=f"{bound} items")
        if item is not None:
            for i, v in enumerate(value, 1):
                self.check_type(v, item, f"{key}[{i}]")
        return value

    def section(self, key: str, default: Any = _MISSING) -> Section | Any:
        value = self.raw(key, default)
        if key not in self.data:
            return value
        return Section(value, file=self.file, place=self.path(key))

    def sections(self, key: str) -> list[Section]:
        """An array of tables (``[[key]]``); missing means none."""
        value = self.raw(key, [])
        if not isinstance(value, list):
            raise self.error(f"expected a list of tables ([[{key}]]), got {describe(value)}", key)
        return [Section(v, file=self.file, place=f"{self.path(key)}[{i + 1}]") for i, v in enumerate(value)]

    def finish(self, extra_allowed: Iterable[str] = ()) -> None:
        """Reject keys that nothing read (typos such as ``shownby``)."""
        unknown = [k for k in self.data if k not in self.used and k not in set(extra_allowed)]
        if unknown:
            allowed = sorted(self.used | set(extra_allowed))
            raise self.error(f"unknown key {unknown[0]!r}", unknown[0], allowed=allowed)


def check_range(value: int, lo: int | None, hi: int | None, section: Section, key: str | int) -> int:
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        if lo is not None and hi is not None:
            allowed = f"{lo} to {hi}"
        elif lo is not None:
            allowed = f"{lo} and more"
        else:
            allowed = f"{hi} and less"
        raise section.error(f"{describe(value)} is out of range", key, allowed=allowed)
    return value


def parse_fraction(value: object, section: Section | None = None, key: str | int | None = None) -> Fraction:
    """``"3/8"``, ``"0.5"``, ``1`` or ``0.25`` as an exact fraction."""
    try:
        if isinstance(value, bool):
            raise ValueError
        if isinstance(value, (int, float, str)):
            return Fraction(str(value).strip()) if not isinstance(value, int) else Fraction(value)
        raise ValueError
    except (ValueError, ZeroDivisionError):
        msg = f"{describe(value)} is not a fraction"
        if section is None:
            raise PuzzleError(msg, allowed="p/q, a decimal or an integer") from None
        raise section.error(msg, key, allowed="p/q, a decimal or an integer") from None


def fold(name: str) -> str:
    """The case-insensitive form of a name."""
    return " ".join(name.split()).casefold()


def choose(value: str, choices: Iterable[str], kind: str, section: Section | None = None,
           key: str | int | None = None, aliases: dict[str, str] | None = None) -> str:
    """Match ``value`` case-insensitively against ``choices`` (and aliases); return the canonical choice."""
    table = {fold(c): c for c in choices}
    for alias, target in (aliases or {}).items():
        table.setdefault(fold(alias), target)
    found = table.get(fold(value)) if isinstance(value, str) else None
    if found is None:
        known = list(dict.fromkeys(table.values()))
        if section is None:
            raise UnknownNameError(kind, value, known)
        raise UnknownNameError(kind, value, known, file=section.file, place=section.path(key) or None)
    return found


class Names:
    """A list of names matched case-insensitively, e.g. the players or the cards of a deck.

    >>> players = Names("player", ["Ann", "Bob"])
    >>> players.resolve("ann")
    'Ann'
    >>> players.index("BOB")
    1
    """

    def __init__(self, kind: str, names: Iterable[str], aliases: Mapping[str, str] | None = None) -> None:
        """``aliases``: other spellings (``Miss Scarlet``) of some names (``Scarlet``); a name always wins."""
        self.kind = kind
        self.names = list(names)
        self._index: dict[str, int] = {}
        for i, n in enumerate(self.names):
            if fold(n) in self._index:
                raise PuzzleError(f"{kind} {n!r} is listed twice")
            self._index[fold(n)] = i
        for alias, target in (aliases or {}).items():
            if fold(target) in self._index:
                self._index.setdefault(fold(alias), self._index[fold(target)])

    def __iter__(self) -> Iterator[str]:
        return iter(self.names)

    def __len__(self) -> int:
        return len(self.names)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and fold(name) in self._index

    def index(self, name: str, section: Section | None = None, key: str | int | None = None) -> int:
        i = self._index.get(fold(name)) if isinstance(name, str) else None
        if i is None:
            if section is None:
                raise UnknownNameError(self.kind, name, self.names)
            raise UnknownNameError(self.kind, name, self.names, file=section.file,
                                   place=section.path(key) or None)
        return i

    def resolve(self, name: str, section: Section | None = None, key: str | int | None = None) -> str:
        return self.names[self.index(name, section, key)]
