"""Task results as JSON that cannot run code when read (the lines of ``--resume`` files).

:func:`encode` turns a result into JSON values and :func:`decode` turns them back into an equal result.  Plain
JSON (``None``, booleans, numbers, strings, lists, dictionaries with string keys) stands for itself; everything
else is a one-key-``"$"`` object naming its kind:

* ``tuple``, ``set``, ``frozenset``, ``dict`` (other keys, as ``[key, value]`` pairs), ``Fraction`` (``"p/q"``);
* ``ndarray`` and ``numpy`` scalars: dtype (booleans, integers, floats, complex only) and the raw bytes;
* ``enum``, ``dataclass`` and ``namedtuple``: a class of sleuth named ``module:qualname``, looked up in a
  ``sleuth`` module (never another), with its value or fields.  A dataclass is rebuilt field by field without
  calling its ``__init__``, as pickle would, so that no code runs beyond sleuth's own modules being imported.

Anything else is refused when written (:class:`TypeError`) and when read (:class:`ValueError`).
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import importlib
import json
import os
from fractions import Fraction
from typing import Any

import numpy as np

from .errors import InternalError, PuzzleError

_NUMERIC_KINDS = "biufc"  # numpy dtypes that hold plain numbers (no objects, no pointers)


def _class_name(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _sleuth_class(name: object) -> type:
    """The class ``module:qualname`` of a sleuth module (ValueError for any other)."""
    if not isinstance(name, str) or name.count(":") != 1:
        raise ValueError(f"bad class name {name!r}")
    module, qualname = name.split(":")
    if module != "sleuth" and not module.startswith("sleuth.") or "<" in qualname:
        raise ValueError(f"{name!r} is not a class of sleuth")
    try:
        obj: Any = importlib.import_module(module)
        for part in qualname.split("."):
            obj = getattr(obj, part)
    except (ImportError, AttributeError):
        raise ValueError(f"no class {name!r} in this sleuth") from None
    if not isinstance(obj, type):
        raise ValueError(f"{name!r} is not a class")
    return obj


def encode(obj: Any) -> Any:
    """``obj`` as JSON values (see the module docstring); TypeError for a type it cannot write."""
    if obj is None or type(obj) in (bool, int, float, str):
        return obj
    if type(obj) is list:
        return [encode(x) for x in obj]
    if type(obj) is dict:
        if all(type(k) is str for k in obj) and "$" not in obj:
            return {k: encode(v) for k, v in obj.items()}
        return {"$": "dict", "v": [[encode(k), encode(v)] for k, v in obj.items()]}
    if type(obj) in (tuple, set, frozenset):
        return {"$": type(obj).__name__, "v": [encode(x) for x in obj]}
    if type(obj) is Fraction:
        return {"$": "Fraction", "v": str(obj)}
    if isinstance(obj, np.ndarray | np.generic) and obj.dtype.kind in _NUMERIC_KINDS:
        data = np.asarray(obj)  # tobytes: C order
        return {"$": "ndarray" if isinstance(obj, np.ndarray) else "numpy", "dtype": data.dtype.str,
                "shape": list(data.shape), "v": base64.b64encode(data.tobytes()).decode("ascii")}
    cls = type(obj)
    if cls.__module__ == "sleuth" or cls.__module__.startswith("sleuth."):
        if isinstance(obj, enum.Enum):
            return {"$": "enum", "cls": _class_name(cls), "v": encode(obj.value)}
        if dataclasses.is_dataclass(obj):
            return {"$": "dataclass", "cls": _class_name(cls),
                    "v": {f.name: encode(getattr(obj, f.name)) for f in dataclasses.fields(obj)}}
        if isinstance(obj, tuple) and hasattr(cls, "_fields"):
            return {"$": "namedtuple", "cls": _class_name(cls), "v": [encode(x) for x in obj]}
    raise TypeError(f"cannot write a {cls.__module__}.{cls.__qualname__} to a results file")


def decode(data: Any) -> Any:
    """The value :func:`encode` wrote; ValueError for anything it would not have written."""
    if data is None or type(data) in (bool, int, float, str):
        return data
    if type(data) is list:
        return [decode(x) for x in data]
    if type(data) is not dict:
        raise ValueError(f"unexpected {type(data).__name__}")
    if "$" not in data:
        return {k: decode(v) for k, v in data.items()}
    kind, value = data["$"], data.get("v", [])
    if kind in ("tuple", "set", "frozenset", "namedtuple", "dict") and type(value) is not list:
        raise ValueError(f"{kind}: a list expected")
    if kind == "tuple":
        return tuple(decode(x) for x in value)
    if kind in ("set", "frozenset"):
        return (set if kind == "set" else frozenset)(decode(x) for x in value)
    if kind == "dict":
        if not all(type(p) is list and len(p) == 2 for p in value):
            raise ValueError("dict: [key, value] pairs expected")
        return {decode(k): decode(v) for k, v in value}
    if kind == "Fraction":
        if type(value) is not str or len(value) > 100_000:
            raise ValueError("Fraction: 'p/q' expected")
        return Fraction(value)
    if kind in ("ndarray", "numpy"):
        dtype = np.dtype(str(data.get("dtype")))
        shape = data.get("shape")
        if dtype.kind not in _NUMERIC_KINDS or type(shape) is not list or not all(type(n) is int for n in shape):
            raise ValueError(f"{kind}: a numeric dtype and a shape expected")
        array = np.frombuffer(base64.b64decode(str(value), validate=True), dtype=dtype).reshape(shape).copy()
        return array if kind == "ndarray" else array[()]
    cls = _sleuth_class(data.get("cls"))
    if kind == "enum" and issubclass(cls, enum.Enum):
        return cls(decode(value))
    if kind == "namedtuple" and issubclass(cls, tuple) and hasattr(cls, "_fields"):
        return cls(*[decode(x) for x in value])
    if kind == "dataclass" and dataclasses.is_dataclass(cls) and type(value) is dict:
        names = [f.name for f in dataclasses.fields(cls)]
        if sorted(value) != sorted(names):
            raise ValueError(f"{data['cls']}: fields {sorted(value)} in the file, {sorted(names)} in this sleuth")
        obj = object.__new__(cls)
        for name in names:
            object.__setattr__(obj, name, decode(value[name]))
        return obj
    raise ValueError(f"unknown kind {kind!r} (or class {data.get('cls')!r} of another kind)")


class ResultsFile:
    """Finished results appended as JSON lines ``{"i": index, "r": result}`` (reading them runs no code) after a
    header line naming the experiment and the digest of its task list (``--resume FILE``)."""

    FORMAT = "sleuth results 1"

    def __init__(self, path: str, header: tuple[str, str]) -> None:
        self.path = path
        self.header = {"format": self.FORMAT, "experiment": header[0], "tasks": header[1]}
        self.done: dict[int, Any] = {}
        good = 0
        if os.path.exists(path) and os.path.getsize(path) > 0:
            good = self._read()
        try:
            self.handle = open(path, "r+b" if good else "wb")  # noqa: SIM115 - closed in close()
            if good:
                self.handle.truncate(good)
                self.handle.seek(good)
            else:
                self._write(self.header)
        except OSError as exc:
            raise PuzzleError(f"cannot write it ({exc.strerror})", file=path, place="--resume") from None

    def _read(self) -> int:
        """Load the finished results; the length of the file's whole lines (a last line cut short by an
        interrupted run is dropped)."""
        where = {"file": self.path, "place": "--resume"}
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError as exc:
            raise PuzzleError(f"cannot read it ({exc.strerror})", **where) from None
        if data[:1] == b"\x80":
            raise PuzzleError("is a results file of an older sleuth (a pickle, which could run code when read): "
                              "it is not read", **where, allowed="a new file, or the old one moved away") from None
        lines = data.split(b"\n")
        whole = lines[:-1]  # the last piece has no newline: empty, or a record cut short
        try:
            header = json.loads(whole[0]) if whole else None
        except ValueError:
            header = None
        if not isinstance(header, dict) or header.get("format") != self.FORMAT:
            raise PuzzleError("is not a sleuth results file", **where)
        if header != self.header:
            raise PuzzleError("was written by another experiment or with other options", **where,
                              allowed="the same command, or a new file")
        good = len(whole[0]) + 1
        for number, line in enumerate(whole[1:], 2):
            try:
                record = json.loads(line)
                index, result = record["i"], decode(record["r"])
                if type(index) is not int or index < 0:
                    raise ValueError(f"bad index {index!r}")
            except (ValueError, TypeError, KeyError) as exc:
                raise PuzzleError(f"line {number}: not a result of this sleuth ({exc})", **where) from None
            self.done[index] = result
            good += len(line) + 1
        return good

    def _write(self, record: dict[str, Any]) -> None:
        self.handle.write(json.dumps(record, separators=(",", ":")).encode() + b"\n")
        self.handle.flush()

    def add(self, index: int, result: Any) -> None:
        try:
            self._write({"i": index, "r": encode(result)})
        except TypeError as exc:
            raise InternalError(f"--resume: {exc}") from None

    def close(self) -> None:
        self.handle.close()
