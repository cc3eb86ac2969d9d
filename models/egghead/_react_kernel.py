"""eq. 3 on a packed table in two passes over its words, compiled with numba (:mod:`sleuth.jit`).

A packed table of ``n`` players and ``h`` hands is viewed as ``R = h ** (n - 1)`` rows of ``w`` 64-bit words
(the last player's hands as bits); row ``a * h + s`` has ``s`` as the hand of player ``n - 2`` and the digits
of ``a`` (base ``h``) as the hands of players ``0 .. n - 3``.  :func:`react_table` keeps, for every player with
a reaction, the worlds whose row along that player's axis has exactly one hand when the player solved (and
not exactly one when not).  The first pass gathers, per axis, the bits seen once and at least twice along it
(``h ** (n - 2)`` rows of ``w`` words each); the second pass clears the worlds the reactions exclude, every
mask computed from the table as it was given (as :func:`.tables.react` does with the numpy masks).  Without
numba the numpy masks of :class:`.tables.PackedSpace` run instead; tests check that both agree.
"""

from __future__ import annotations

import numpy as np


def _block_bases(bps, axes, st, h, n, hw):
    """``bps[a, i]``: the first word, among the rows with player ``axes[i]`` left out, of block ``a``'s rows
    (block ``a = ah * h + al``: one division per ``h`` blocks, not per block)."""
    for ah in range(max(1, bps.shape[0] // h)):
        for i in range(axes.shape[0]):
            p = axes[i]
            if p == n - 3:
                base = ah * hw
            else:
                q = st[p] // h  # the stride of player p's digit in ah
                base = ((ah // (q * h)) * q + ah % q) * h * hw
            for al in range(min(h, bps.shape[0])):
                bps[ah * h + al, i] = base if p == n - 3 else base + al * hw


def react_table(T, h, n, act):
    """Apply eq. 3 for every player ``p`` with ``act[p] >= 0`` (1: solved, 0: did not) to the table ``T``
    (``R x w`` words, changed in place); True when a world was removed.  The loops run over whole blocks of
    ``h * w`` contiguous words (the rows ``a * h .. a * h + h - 1``), which the compiler vectorises."""
    R = T.shape[0]
    w = T.shape[1]
    A = R // h
    hw = h * w
    flat = T.reshape(R * w)
    zero = np.uint64(0)
    one = np.uint64(1)
    st = np.ones(n, np.int64)  # the stride of player p's digit in a (players 0 .. n - 3)
    for p in range(n - 4, -1, -1):
        st[p] = st[p + 1] * h
    na = 0
    for p in range(n - 2):
        na += act[p] >= 0
    axes = np.empty(na, np.int64)  # a loop, not a list comprehension: seconds less to compile
    na = 0
    for p in range(n - 2):
        if act[p] >= 0:
            axes[na] = p
            na += 1
    sign = np.empty(axes.shape[0], np.uint64)  # xor-ed into "exactly one": all ones for "did not solve"
    for i in range(axes.shape[0]):
        sign[i] = zero if act[axes[i]] == 1 else ~zero
    once = np.zeros((axes.shape[0], A * w), np.uint64)  # per axis: the rows with that player left out
    twice = np.zeros((axes.shape[0], A * w), np.uint64)
    mid = act[n - 2]
    last = act[n - 1]
    m_once = np.zeros(A * w, np.uint64)
    m_twice = np.zeros(A * w, np.uint64)
    bps = np.zeros((A, na), np.int64)  # per block and axis: where its words gather (the block, that player left out)
    _block_bases(bps, axes, st, h, n, hw)
    empty = np.zeros(A, np.bool_)  # blocks without a world: nothing to gather, nothing to clear
    for a in range(A):
        o = a * hw
        seen = zero
        for u in range(hw):
            seen |= flat[o + u]
        if seen == zero:
            empty[a] = True
            continue
        xb = flat[o:o + hw]
        for i in range(na):
            bp = bps[a, i]
            oi = once[i, bp:bp + hw]
            ti = twice[i, bp:bp + hw]
            for u in range(hw):
                x = xb[u]
                ti[u] |= oi[u] & x
                oi[u] |= x
        if mid >= 0:
            for s in range(h):
                for k in range(w):
                    x = flat[o + s * w + k]
                    m_twice[a * w + k] |= m_once[a * w + k] & x
                    m_once[a * w + k] |= x
    diff = zero
    mid_sign = zero if mid == 1 else ~zero
    y = np.empty(hw, np.uint64)
    mm = np.empty(w, np.uint64)
    for a in range(A):
        if empty[a]:
            continue
        o = a * hw
        xb = flat[o:o + hw]
        for u in range(hw):
            y[u] = xb[u]
        for i in range(na):
            bp = bps[a, i]
            sg = sign[i]
            oi = once[i, bp:bp + hw]
            ti = twice[i, bp:bp + hw]
            for u in range(hw):
                y[u] &= (oi[u] & ~ti[u]) ^ sg
        if mid >= 0:
            for k in range(w):
                mm[k] = (m_once[a * w + k] & ~m_twice[a * w + k]) ^ mid_sign
            for s in range(h):
                for k in range(w):
                    y[s * w + k] &= mm[k]
        if last >= 0:
            for s in range(h):
                nonzero = 0
                bit = zero
                for k in range(w):
                    x = xb[s * w + k]
                    if x != zero:
                        nonzero += 1
                        bit = x
                single = nonzero == 1 and (bit & (bit - one)) == zero
                if single != (last == 1):
                    for k in range(w):
                        y[s * w + k] = zero
        for u in range(hw):
            diff |= xb[u] ^ y[u]
            xb[u] = y[u]
    return diff != zero


def and_into(T, U):
    """``T &= U`` (both ``R x w`` words, ``T`` in place); True when a bit was cleared."""
    changed = False
    for i in range(T.shape[0]):
        for k in range(T.shape[1]):
            x = T[i, k]
            y = x & U[i, k]
            if y != x:
                T[i, k] = y
                changed = True
    return changed


def and_gather(T, block, ids):
    """``T &= block[ids]`` without the gathered table: row ``a * h + s`` of ``T`` is and-ed with row ``s`` of
    block ``ids[a]`` (eq. 2 with the answer mask of :meth:`.tables.PackedSpace.answer_mask`)."""
    h = block.shape[1]
    for a in range(ids.shape[0]):
        b = ids[a]
        for s in range(h):
            row = a * h + s
            for k in range(T.shape[1]):
                T[row, k] &= block[b, s, k]


def fix_last(T, hand, full):
    """eq. 5 for the last player, in place: each row becomes every hand (``full``) when it holds ``hand``, else
    none."""
    word = hand // 64
    bit = np.uint64(1) << np.uint64(hand % 64)
    zero = np.uint64(0)
    for i in range(T.shape[0]):
        held = (T[i, word] & bit) != zero
        for k in range(T.shape[1]):
            T[i, k] = full[k] if held else zero
