"""The array steps of Clue's counting passes: distinct values and where each entry went (:func:`unique`,
:func:`unique_pairs`, :func:`runs`, :func:`distinct`), exact sums and ORs per distinct value (:func:`segment_sum`,
:func:`segment_or`), fields read off packed state keys (:func:`small`), and the binomials of a block's ways
(:data:`BINOM`).  Exact throughout: int64, or Python integers in object arrays where the values pass 62 bits.
"""

from __future__ import annotations

from math import comb
from typing import Literal

import numpy as np


BINOM = np.array([[comb(r, x) for x in range(64)] for r in range(64)], dtype=np.int64)  # fits: C(63, 31) < 2**63


def unique(values: np.ndarray, kind: Literal["stable", "quicksort"] = "stable") -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values and the index of each value among them.  By default a stable sort: the values
    come as a few sorted runs (one per choice of a move), which timsort merges in about linear time; values
    in no order sort faster with ``kind="quicksort"``."""
    if values.size <= 1:  # a layer of one state (a deal pinned down): no sort
        return values.copy(), np.zeros(values.size, dtype=np.int64)
    order = np.argsort(values, kind=kind)
    ordered = values[order]
    first = np.ones(values.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    inverse = np.empty(values.size, dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return ordered[first], inverse


def distinct(values: np.ndarray) -> np.ndarray:
    """The sorted distinct values (:func:`unique` without where each value went: one sort, no scatter)."""
    if values.size <= 1:
        return values.copy()
    ordered = np.sort(values, kind="stable")   # a few sorted runs: merged in about linear time
    first = np.ones(values.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    return ordered[first]


def runs(values: np.ndarray, second: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The order that sorts ``values`` (stable; with ``second``: the pairs ``(values[i], second[i])``) and
    where each run of equal values starts in that order: ``reduceat`` over the sorted values adds up (or
    ORs) each distinct value's entries."""
    if second is not None and (values.dtype == object or second.dtype == object):
        shift = max(1, int(max(second.tolist(), default=0)).bit_length())
        values, second = np.array([(int(x) << shift) | int(y) for x, y in zip(values.tolist(), second.tolist(),
                                                                              strict=True)], dtype=object), None
    order = np.argsort(values, kind="stable") if second is None else np.lexsort((second, values))
    ordered = values[order]
    first = np.ones(values.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    if second is not None:
        ordered2 = second[order]
        first[1:] |= ordered2[1:] != ordered2[:-1]
    return order, np.flatnonzero(first)


def unique_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted distinct pairs ``(a[i], b[i])`` (as two arrays) and the index of each pair among them."""
    if a.dtype == object or b.dtype == object:
        shift = max(1, int(max(b.tolist(), default=0)).bit_length())
        both, inverse = unique(np.array([(int(x) << shift) | int(y) for x, y in zip(a.tolist(), b.tolist(),
                                                                                 strict=True)], dtype=object))
        mask = (1 << shift) - 1
        return (np.array([x >> shift for x in both.tolist()], dtype=a.dtype),
                np.array([x & mask for x in both.tolist()], dtype=b.dtype), inverse)
    if a.size and min(int(a.min()), int(b.min())) >= 0:
        shift = int(b.max()).bit_length()
        if int(a.max()).bit_length() + shift <= 62:   # both in one int64: one sort
            both, inverse = unique((a << shift) | b, "quicksort")
            return both >> shift, both & ((1 << shift) - 1), inverse
    order = np.lexsort((b, a))
    oa, ob = a[order], b[order]
    first = np.ones(a.size, dtype=bool)
    first[1:] = (oa[1:] != oa[:-1]) | (ob[1:] != ob[:-1])
    inverse = np.empty(a.size, dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return oa[first], ob[first], inverse


def segment_or(index: np.ndarray, values: np.ndarray, size: int, dtype: type) -> np.ndarray:
    """``out[j] = OR of values[index == j]``."""
    out: np.ndarray = np.zeros(size, dtype=dtype)
    np.bitwise_or.at(out, index, values)
    return out


def small(values: np.ndarray) -> np.ndarray:
    """A field read off the state keys, as int64 (the keys are object arrays when they pass 62 bits)."""
    return values.astype(np.int64, copy=False)


def segment_sum(index: np.ndarray, values: np.ndarray, size: int, dtype: type) -> np.ndarray:
    """``out[j] = sum(values[index == j])``, exact (np.bincount would go through float64)."""
    out: np.ndarray = np.zeros(size, dtype=dtype)
    if size == 1:  # one state: every value is its own (np.add.at costs microseconds even then)
        out[0] = values.sum()
    else:
        np.add.at(out, index, values)
    return out
