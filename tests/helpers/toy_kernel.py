"""A kernel module in the fewest lines (plain Python in the subset numba compiles), for the tests of
:class:`sleuth.jit.Kernel`."""

from __future__ import annotations


def _twice(x):  # type: ignore[no-untyped-def]
    return x + x


def total(values):  # type: ignore[no-untyped-def]
    """Twice the sum of ``values`` (an array), through a helper the compiled copy calls compiled."""
    s = 0
    for v in values:
        s += _twice(v)
    return s
