"""The compiled loops of Clue's counting passes: whether they may load, loading them (once per process, cached
on disk by :func:`sleuth.jit.load_kernel`), when a split pass turns to them, and the switches tests flip.

Without numba, or with ``SLEUTH_CLUE_KERNEL=numpy`` (which tests use to compare both), every pass runs its
numpy code.  The split passes (:mod:`.split`) and the advice (:mod:`.suggest`) read the values here when they
run, so that a test sets them on this module.
"""

from __future__ import annotations

import importlib.util
import os
from functools import lru_cache
from types import ModuleType

from sleuth.jit import load_kernel

PACKAGE = __name__.rsplit(".", 1)[0]   # the kernels' package (this one)

KERNEL_FROM = 20_000   # entries in a layer of a split pass from which its remaining steps run compiled
COLD_KERNEL_WORK = 1_000_000  # ... once the layer entries the pass handled in numpy, and this layer's times
# the steps left, reach this many (about 0.15 s of numpy), where this process has not loaded the kernel yet:
# loading numba and the kernel takes 0.6-0.9 s, more than the whole numpy pass of most states (a command
# line's only answer)


@lru_cache(maxsize=1)
def kernel_available() -> bool:
    """Whether :func:`split_kernel` may load (numba installed, ``SLEUTH_CLUE_KERNEL`` not ``numpy``), without
    loading it: importing numba and loading the kernel take 0.6-0.9 s, so a split pass loads it only when it
    turns out long (:data:`COLD_KERNEL_WORK`)."""
    return os.environ.get("SLEUTH_CLUE_KERNEL", "") != "numpy" and importlib.util.find_spec("numba") is not None


_kernel_tried: list[bool] = []  # not empty once this process called split_kernel


def kernel_loaded() -> bool:
    """Whether this process has loaded (or tried to load) :func:`split_kernel`."""
    return bool(_kernel_tried)


@lru_cache(maxsize=1)
def split_kernel() -> ModuleType | None:
    """The compiled loops of the split passes (:mod:`._split_kernel`, cached on disk by
    :func:`sleuth.jit.load_kernel`), or None without numba (or with ``SLEUTH_CLUE_KERNEL=numpy``, which tests
    use to compare both)."""
    _kernel_tried.append(True)
    if os.environ.get("SLEUTH_CLUE_KERNEL", "") == "numpy":
        return None
    try:
        return load_kernel(PACKAGE + "._split_kernel", KERNELS, True, INTERNAL, INLINE)
    except ImportError:
        return None


KERNELS = ("_reach", "_mix", "_mix_ratio", "_proportions", "_multiple", "split_layer", "merge_records", "record_copies",
           "resolve_records", "finish", "_codes", "_record_codes", "_remaining", "knowledge_sums", "belief_sums",
           "read_records")
# called only by the other kernels
INTERNAL = ("_reach", "_mix", "_mix_ratio", "_proportions", "_multiple", "_codes", "_record_codes", "_remaining")
INLINE = ("_reach",)  # inlined into its caller: a call per entry made the passes up to twice as slow

TWO_STEPS = True   # a compiled split call runs two steps where it may (tests compare with one step per call)
COPIES = True   # compiled split calls keep records that are whole multiples of another as copies (tests turn it off)
COPY_FROM = 8   # entries of a child record from which a compiled call checks whether it is a copy (fewer save little)


@lru_cache(maxsize=1)
def advice_kernel() -> ModuleType | None:
    """The compiled inner loop of the exact advice (:mod:`._advice_kernel`), or None without numba (or with
    ``SLEUTH_CLUE_KERNEL=numpy``)."""
    if os.environ.get("SLEUTH_CLUE_KERNEL", "") == "numpy":
        return None
    try:
        return load_kernel(PACKAGE + "._advice_kernel", ("move", "move_columns"), True)
    except ImportError:
        return None
