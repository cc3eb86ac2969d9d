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
from fractions import Fraction
from typing import Any

import numpy as np

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
