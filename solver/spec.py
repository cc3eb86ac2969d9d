"""The vocabulary of a game's declaration: puzzle-file keys and command options (see :class:`sleuth.game.Game`).

From the keys a game declares come: the key tables of docs/ (checked by a test), the JSON Schema that
``sleuth schema GAME`` prints for editors, the unknown-key errors (which list every valid key at that place,
not only the keys read so far), and the help of ``sleuth games GAME``.

>>> keys = common_keys() + (Key("size", "integer", "how big", default="3"),)
>>> check_keys({"game": "toy", "size": 2, "sise": 3}, keys, file="t.toml")
Traceback (most recent call last):
...
sleuth.errors.PuzzleError: t.toml: sise: unknown key 'sise' (allowed: claim, game, notes, size, title, viewer)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import PuzzleError

# Types a key may have; each maps to a JSON Schema fragment.
_JSON_TYPES: dict[str, dict[str, Any]] = {
    "string": {"type": "string"},
    "integer": {"type": "integer"},
    "boolean": {"type": "boolean"},
    "number": {"type": "number"},
    "fraction": {"type": ["string", "integer", "number"], "description": "p/q, a decimal or an integer"},
    "list of strings": {"type": "array", "items": {"type": "string"}},
    "list of integers": {"type": "array", "items": {"type": "integer"}},
    "list of tables": {"type": "array", "items": {"type": "object"}},
    "table": {"type": "object"},
    "array of tables": {"type": "array", "items": {"type": "object"}},
    "string or table": {"type": ["string", "object"]},
    "string or list": {"type": ["string", "array"]},
    "integer or string": {"type": ["integer", "string"]},
    "integer or list": {"type": ["integer", "array"]},
    "list": {"type": "array"},
    "any": {},
}


@dataclass(frozen=True)
class Key:
    """One key of a puzzle file.

    ``keys`` lists the fixed keys of a table (or of each table of an array of tables); ``names`` describes the
    value of each entry of a table whose keys are names the user chooses (``[hands]``: player -> cards).
    """

    name: str
    kind: str                   # the value's type in the file: "string", "array of tables"...
    meaning: str
    default: str | None = None
    required: bool = False
    keys: tuple[Key, ...] = ()
    names: str | None = None
    choices: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in _JSON_TYPES:
            raise ValueError(f"key {self.name!r}: unknown type {self.kind!r}")

    def json_schema(self) -> dict[str, Any]:
        out: dict[str, Any] = dict(_JSON_TYPES[self.kind])
        out["description"] = self.meaning + (f" (default: {self.default})" if self.default is not None else "")
        if self.choices:
            out["enum"] = list(self.choices) if self.kind == "string" else None
            if out["enum"] is None:
                del out["enum"]
        if self.keys:
            table = object_schema(self.keys)
            if self.kind == "array of tables":
                out["items"] = table
            elif self.kind == "string or table":
                out = {"description": out["description"], "anyOf": [{"type": "string"}, table]}
            else:
                out.update(table)
        elif self.names is not None:
            out["additionalProperties"] = {"description": self.names}
        return out




@dataclass(frozen=True)
class Option:
    """A command-line option of a game: a flag (``--method``) or a ``--set KEY=VALUE`` key."""

    name: str
    kind: str                   # what the value is: "seconds", "name"...
    default: str
    meaning: str
    commands: tuple[str, ...] = ("solve",)
    flag: bool = False

    @property
    def usage(self) -> str:
        return f"--{self.name}" if self.flag else f"--set {self.name}=VALUE"


COMMON_OPTIONS = (
    Option("time-limit", "seconds", "none", "stop the command after this long (exit 3: no exact answer)",
           ("solve", "verify", "suggest"), flag=True),
    Option("max_worlds", "integer", "memory budget / size of one", "the most worlds (deals, states) the game may "
           "enumerate; past it, a refusal with the estimate", ("solve", "verify", "suggest")),
)


def common_keys(claim_keys: Sequence[Key] = ()) -> tuple[Key, ...]:
    claim = (Key("text", "string", "the claim, in the game's claim language", required=True),
             Key("expect", "string", "the verdict the claim should get", default="entailed",
                 choices=("entailed", "refuted", "open")), *claim_keys)
    return (Key("game", "string", "which game the file describes", required=True),
            Key("title", "string", "a title, shown in the output", default="none"),
            Key("viewer", "string", "whose knowledge the results show (the --viewer option overrides it)",
                default="as the game says"),
            Key("claim", "array of tables", "deductions to verify (sleuth verify)", default="none", keys=claim),
            Key("notes", "string", "free notes of the players (the companion's notes box); every command ignores "
                "them", default="none"))


def object_schema(keys: Sequence[Key]) -> dict[str, Any]:
    return {"type": "object", "properties": {k.name: k.json_schema() for k in keys},
            "required": [k.name for k in keys if k.required], "additionalProperties": False}


def check_keys(data: Mapping[str, Any], keys: Sequence[Key], *, file: str | None = None) -> None:
    """Reject any key not among ``keys`` (a game's ``all_keys()``), anywhere in the file, listing every key
    allowed there."""
    _check(data, keys, file, "")


def _check(data: Mapping[str, Any], keys: Sequence[Key], file: str | None, place: str) -> None:
    by_name = {k.name: k for k in keys}
    for name, value in data.items():
        where = f"{place}.{name}" if place else str(name)
        key = by_name.get(name)
        if key is None:
            raise PuzzleError(f"unknown key {name!r}", file=file, place=where, allowed=sorted(by_name))
        if not key.keys:
            continue
        if isinstance(value, dict):
            _check(value, key.keys, file, where)
        elif isinstance(value, list) and key.kind == "array of tables":
            for i, item in enumerate(value):
                if isinstance(item, dict):
                    _check(item, key.keys, file, f"{where}[{i + 1}]")


def key_table(keys: Sequence[Key], prefix: str = "") -> list[str]:
    """Markdown rows (key, type, default, meaning) for docs/, nested tables flattened as ``table.key``."""
    rows = []
    for k in keys:
        name = f"{prefix}{k.name}"
        default = "required" if k.required else (k.default or "")
        meaning = k.meaning if k.meaning.endswith(".") else k.meaning + "."
        if k.choices:
            meaning += f" One of: {', '.join(k.choices)}."
        if k.names:
            meaning += f" Each entry: {k.names}."
        rows.append(f"| `{name}` | {k.kind} | {default} | {meaning} |")
        rows.extend(key_table(k.keys, f"{name}."))
    return rows


def markdown_keys(keys: Sequence[Key]) -> str:
    """The key table of a game's docs page (a test checks the page contains exactly this)."""
    head = ["| key | type | default | meaning |", "| --- | --- | --- | --- |"]
    return "\n".join(head + key_table(keys))


def markdown_options(options: Sequence[Option]) -> str:
    head = ["| option | commands | type | default | meaning |", "| --- | --- | --- | --- | --- |"]
    rows = [f"| `{o.usage}` | {', '.join(o.commands)} | {o.kind} | {o.default} | {o.meaning} |"
            for o in options]
    return "\n".join(head + rows)
