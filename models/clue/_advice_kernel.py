"""The inner loop of the exact Clue advice (:func:`.suggest._class_scores`), compiled with numba
(:mod:`sleuth.jit`): one step of the shared counting pass applied to the dense counts (a row per live state,
a column per (cards of a suggestion placed so far, answer so far)), every transition and column in one pass
with no temporary array.  Without numba the numpy rounds of :class:`.suggest._Move` run instead; tests check
that both give the same scores.  Indices are unsigned (``np.uint64``): numba checks every signed index for a
negative value (19% of these loops' time on the slowest three-player states).
"""

from __future__ import annotations

import numpy as np


def move(x: np.ndarray, src: np.ndarray, dst: np.ndarray, ways: np.ndarray, out: np.ndarray) -> None:
    """``out[dst[t]] += ways[t] * x[src[t]]`` for every transition ``t`` (every column as it is)."""
    cols = np.uint64(x.shape[1])
    for t in range(np.uint64(src.shape[0])):
        s, d, w = np.uint64(src[t]), np.uint64(dst[t]), ways[t]
        for j in range(cols):
            out[d, j] += w * x[s, j]


def move_columns(x: np.ndarray, src: np.ndarray, dst: np.ndarray, where: np.ndarray, still: np.ndarray,
                 more: np.ndarray, grown_to: np.ndarray, out: np.ndarray) -> None:
    """One step placing one card (every way is 1; the transitions sorted by ``dst``): transition ``t`` takes it
    to place number ``where[t]``.  Row ``src[t]`` adds to row ``dst[t]``: its columns ``still`` (without the
    card) to the first columns of ``out``, in their order, and its columns ``more`` (that take the card) to
    the columns ``grown_to[where[t]]`` (their answers after that place)."""
    n_still, n_more = still.shape[0], more.shape[0]
    run = n_still > 0 and still[n_still - 1] - still[0] == n_still - 1   # consecutive columns: no gather
    first = np.uint64(still[0] if n_still else 0)
    for t in range(np.uint64(src.shape[0])):
        xs, od, to = x[np.uint64(src[t])], out[np.uint64(dst[t])], grown_to[np.uint64(where[t])]
        if run:
            for j in range(np.uint64(n_still)):
                od[j] += xs[first + j]
        else:
            for j in range(np.uint64(n_still)):
                od[j] += xs[np.uint64(still[j])]
        for j in range(np.uint64(n_more)):
            od[np.uint64(to[j])] += xs[np.uint64(more[j])]
