"""eq. 2, 3 and 5 on a packed table, over its non-empty blocks only, compiled with numba (:mod:`sleuth.jit`).

A packed table of ``n`` players and ``h`` hands is viewed as ``R = h ** (n - 1)`` rows of ``w`` 64-bit words
(the last player's hands as bits); row ``a * h + s`` has ``s`` as the hand of player ``n - 2`` and the digits
of ``a`` (base ``h``) as the hands of players ``0 .. n - 3``.  The ``h`` rows of one ``a`` are *block* ``a``
(``h * w`` contiguous words).  Each table comes with an occupancy ``occ`` (one byte per block): a block whose
byte is 0 holds no world, so every kernel skips it (a byte of 1 only says "may hold worlds").  Behavioural
analysis leaves the tables sparse (often under 1 % of the blocks), so a round costs the blocks in play, not
the ``h ** (n - 2)`` blocks of the space.

:func:`react_blocks` keeps, for every player with a reaction, the worlds whose row along that player's axis
has exactly one hand when the player solved (and not exactly one when not).  The first pass gathers, per axis,
the bits seen once and at least twice along it (``h ** (n - 2)`` rows of ``w`` words each); the second pass
clears the worlds the reactions exclude, every mask computed from the table as it was given (as
:func:`.tables.react` does with the numpy masks).  :func:`react_again` gives the same result when the
reactions are the last call's and the table changed since only in the blocks marked ``dirty`` (every kernel
marks the blocks it changes): it gathers and checks only the rows through those blocks.  Without numba the
numpy masks of :class:`.tables.PackedSpace` run instead; tests check that all agree.
"""

from __future__ import annotations

import numpy as np


def occupancy(T, h, occ):
    """``occ[a] = 1`` when block ``a`` of ``T`` holds a world, else 0 (one pass over the table)."""
    hw = h * T.shape[1]
    flat = T.reshape(T.shape[0] * T.shape[1])
    for a in range(occ.shape[0]):
        occ[a] = not _empty(flat[a * hw:a * hw + hw])


def _strides(h, n):
    """The stride of player ``p``'s digit in a block index (players ``0 .. n - 3``)."""
    st = np.ones(max(n - 2, 1), np.int64)
    for p in range(n - 4, -1, -1):
        st[p] = st[p + 1] * h
    return st


def _left_out(a, p, st, h):
    """Block ``a`` with player ``p``'s digit removed: the index, among the rows with that player left out, of
    the first of the block's ``h`` rows, divided by ``h``."""
    return (a // (st[p] * h)) * st[p] + a % st[p]


def _own_rows(xb, y, mm, h, w, mid, last):
    """Eq. 3 for the two players whose hands lie inside one block ``xb`` (``h`` rows of ``w`` words), ANDed
    into ``y``: player n - 2 (``mid``) by the block's columns, the last player (``last``) by each row, one hand
    exactly when one bit is set (1: solved, 0: did not, -1: not reacting).  ``mm``: ``w`` words of work space."""
    zero = np.uint64(0)
    one = np.uint64(1)
    if mid >= 0:
        mid_sign = zero if mid == 1 else ~zero
        for k in range(w):
            m_once = zero
            m_twice = zero
            for s in range(h):
                x = xb[s * w + k]
                m_twice |= m_once & x
                m_once |= x
            mm[k] = (m_once & ~m_twice) ^ mid_sign
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


def _store(xb, y):
    """``xb[:] = y``; the OR of what changed (0 when nothing did)."""
    d = np.uint64(0)
    for u in range(xb.shape[0]):
        d |= xb[u] ^ y[u]
        xb[u] = y[u]
    return d


def _empty(xb):
    """True when the block ``xb`` holds no world."""
    seen = np.uint64(0)
    for u in range(xb.shape[0]):
        seen |= xb[u]
    return seen == np.uint64(0)


def _gather(xb, oi, ti):
    """Add the block ``xb`` to a line's tallies: ``oi`` the bits seen once or more, ``ti`` twice or more."""
    for u in range(xb.shape[0]):
        x = xb[u]
        ti[u] |= oi[u] & x
        oi[u] |= x


def _keep(y, oi, ti, sg):
    """``y &= `` the worlds whose line holds exactly one (``sg`` 0) or not exactly one (``sg`` all ones) hand."""
    for u in range(y.shape[0]):
        y[u] &= (oi[u] & ~ti[u]) ^ sg


def react_table(T, h, n, act):
    """:func:`react_blocks` on every block of ``T`` (no occupancy known)."""
    occ = np.ones(T.shape[0] // h, np.uint8)
    once = np.zeros((max(n - 2, 1), T.shape[0] // h * T.shape[1]), np.uint64)
    return react_blocks(T, occ, h, n, act, once, np.zeros_like(once), np.zeros_like(occ))


def react_blocks(T, occ, h, n, act, once, twice, dirty):
    """Apply eq. 3 for every player ``p`` with ``act[p] >= 0`` (1: solved, 0: did not) to the table ``T``
    (``R x w`` words, changed in place) over the blocks ``occ`` marks, clearing the marks of blocks left
    empty; True when a world was removed.  ``dirty[a]`` becomes 1 for the blocks it changed, else 0 (what
    :func:`react_again` starts from).  ``once`` and ``twice``: zeros of ``max(n - 2, 1) x (R / h * w)``
    words, the work space (per axis, the rows with that player left out), left as zeros: only the rows of
    the blocks in play are touched.  The loops run over whole blocks of ``h * w`` contiguous words, which the
    compiler vectorises."""
    R = T.shape[0]
    w = T.shape[1]
    A = R // h
    hw = h * w
    flat = T.reshape(R * w)
    zero = np.uint64(0)
    st = _strides(h, n)
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
    mid = act[n - 2]
    last = act[n - 1]
    live = np.empty(A, np.int64)  # the blocks holding a world, in order
    nl = 0
    for a in range(A):
        dirty[a] = 0
        if occ[a] == 0:
            continue
        o = a * hw
        if _empty(flat[o:o + hw]):
            occ[a] = 0
            continue
        live[nl] = a
        nl += 1
        if na == 0:
            continue
        xb = flat[o:o + hw]
        for i in range(na):
            bp = _left_out(a, axes[i], st, h) * hw
            oi = once[axes[i], bp:bp + hw]
            ti = twice[axes[i], bp:bp + hw]
            _gather(xb, oi, ti)
    diff = zero
    y = np.empty(hw, np.uint64)
    mm = np.empty(w, np.uint64)
    for j in range(nl):
        a = live[j]
        o = a * hw
        xb = flat[o:o + hw]
        for u in range(hw):
            y[u] = xb[u]
        for i in range(na):
            bp = _left_out(a, axes[i], st, h) * hw
            sg = sign[i]
            oi = once[axes[i], bp:bp + hw]
            ti = twice[axes[i], bp:bp + hw]
            _keep(y, oi, ti, sg)
        _own_rows(xb, y, mm, h, w, mid, last)
        d = _store(xb, y)
        diff |= d
        dirty[a] = d != zero
        if _empty(xb):
            occ[a] = 0
    for j in range(nl):  # the work space back to zeros
        for i in range(na):
            bp = _left_out(live[j], axes[i], st, h) * hw
            once[axes[i], bp:bp + hw] = zero
            twice[axes[i], bp:bp + hw] = zero
    return diff != zero


def react_again(T, occ, h, n, act, once, twice, dirty, marks, todo, limit):
    """:func:`react_blocks` again with the same ``act`` on a table that has changed since only in the blocks
    ``dirty`` marks (by that call, :func:`and_into` or :func:`and_gather`); same result, ``dirty`` updated the
    same way: 1 when a world was removed, else 0.  Nothing done, -1, when the lines to gather again hold more
    than ``limit`` times the blocks a full pass gathers (every block holding worlds, once per axis).

    A world that survived the last call keeps or loses its place by the rows through it along the reacting
    players' axes; only rows that lost a world can have changed their size.  So only the lines through a
    changed block are gathered again (along player ``p < n - 2``: the ``h`` blocks that differ from it in
    ``p``'s hand; along player ``n - 2`` and the last player: the block itself), and only the worlds on them
    are checked, against those lines.  ``marks``: zeros of ``max(n - 2, 1) x (R / h ** 2)`` bytes (per axis,
    the lines to gather again), ``todo``: ``R / h`` bytes of zeros (2: a changed block, 1: a block on a line
    to check again); both left as zeros."""
    R = T.shape[0]
    w = T.shape[1]
    A = R // h
    hw = h * w
    flat = T.reshape(R * w)
    zero = np.uint64(0)
    st = _strides(h, n)
    mid = act[n - 2]
    last = act[n - 1]
    changed = np.empty(A, np.int64)
    nc = 0
    live = 0
    for a in range(A):
        live += occ[a] != 0
        if dirty[a] != 0:
            changed[nc] = a
            nc += 1
    keys = np.empty((max(n - 2, 1), nc), np.int64)  # per axis: the lines to gather again
    nk = np.zeros(max(n - 2, 1), np.int64)
    for j in range(nc):
        for p in range(n - 2):
            if act[p] < 0:
                continue
            key = _left_out(changed[j], p, st, h)
            if marks[p, key] == 0:
                marks[p, key] = 1
                keys[p, nk[p]] = key
                nk[p] += 1
    work = 0  # blocks to gather (and check) again, against the blocks a pass over every axis reads
    axes = 0
    for p in range(n - 2):
        axes += act[p] >= 0
        q = st[p]
        for j in range(nk[p]):
            key = keys[p, j]
            base = (key // q) * q * h + key % q
            for d in range(h):
                work += occ[base + d * q] != 0
    if work > live * axes * limit:  # about as much work as a pass over every block: leave it to react_blocks
        for p in range(n - 2):
            for j in range(nk[p]):
                marks[p, keys[p, j]] = 0
        return -1
    blocks = np.empty(A, np.int64)  # the blocks to check again
    nb = 0
    for j in range(nc):
        a = changed[j]
        dirty[a] = 0
        blocks[nb] = a
        nb += 1
        todo[a] = 2
    for p in range(n - 2):  # gather the marked lines, and list the blocks on them
        q = st[p]
        for j in range(nk[p]):
            key = keys[p, j]
            base = (key // q) * q * h + key % q
            bp = key * hw
            oi = once[p, bp:bp + hw]
            ti = twice[p, bp:bp + hw]
            for d in range(h):
                b = base + d * q
                if occ[b] == 0:
                    continue
                if todo[b] == 0:
                    todo[b] = 1
                    blocks[nb] = b
                    nb += 1
                xb = flat[b * hw:b * hw + hw]
                _gather(xb, oi, ti)
    diff = zero
    y = np.empty(hw, np.uint64)
    mm = np.empty(w, np.uint64)
    for j in range(nb):
        a = blocks[j]
        again = todo[a] == 2
        todo[a] = 0
        if occ[a] == 0:
            continue
        o = a * hw
        xb = flat[o:o + hw]
        for u in range(hw):
            y[u] = xb[u]
        for p in range(n - 2):
            if act[p] < 0:
                continue
            key = _left_out(a, p, st, h)
            if marks[p, key] == 0:
                continue
            sg = zero if act[p] == 1 else ~zero
            bp = key * hw
            oi = once[p, bp:bp + hw]
            ti = twice[p, bp:bp + hw]
            _keep(y, oi, ti, sg)
        if again:
            _own_rows(xb, y, mm, h, w, mid, last)
        d = _store(xb, y)
        diff |= d
        dirty[a] = d != zero
        if _empty(xb):
            occ[a] = 0
    for p in range(n - 2):  # the work space back to zeros
        for j in range(nk[p]):
            key = keys[p, j]
            marks[p, key] = 0
            once[p, key * hw:key * hw + hw] = zero
            twice[p, key * hw:key * hw + hw] = zero
    return 1 if diff != zero else 0


def and_into(T, U, occ, dirty, only):
    """``T &= U`` (both ``R x w`` words, ``T`` in place) over the blocks both ``occ`` (``T``'s) and ``only``
    mark (where ``U`` changed since ``T`` was last within it), clearing the marks of blocks left empty and
    setting ``dirty[a]`` for the blocks it changed; True when a bit was cleared."""
    h = T.shape[0] // occ.shape[0]
    w = T.shape[1]
    zero = np.uint64(0)
    changed = zero
    for a in range(occ.shape[0]):
        if occ[a] == 0 or only[a] == 0:
            continue
        seen = zero
        d = zero
        for i in range(a * h, a * h + h):
            for k in range(w):
                x = T[i, k]
                y = x & U[i, k]
                d |= x ^ y
                T[i, k] = y
                seen |= y
        if d != zero:
            dirty[a] = 1
            changed = d
        if seen == zero:
            occ[a] = 0
    return changed != zero


def and_gather(T, block, ids, occ, dirty):
    """``T &= block[ids]`` without the gathered table: row ``a * h + s`` of ``T`` is and-ed with row ``s`` of
    block ``ids[a]`` (eq. 2 with the answer mask of :meth:`.tables.PackedSpace.answer_mask`), over the blocks
    ``occ`` marks, clearing the marks of blocks left empty and setting ``dirty[a]`` for the blocks it
    changed."""
    h = block.shape[1]
    w = T.shape[1]
    zero = np.uint64(0)
    for a in range(ids.shape[0]):
        if occ[a] == 0:
            continue
        b = ids[a]
        seen = zero
        d = zero
        for s in range(h):
            row = a * h + s
            for k in range(w):
                x = T[row, k]
                y = x & block[b, s, k]
                d |= x ^ y
                T[row, k] = y
                seen |= y
        if d != zero:
            dirty[a] = 1
        if seen == zero:
            occ[a] = 0


def fix_axis(T, occ, h, n, p, hand, full, dirty):
    """eq. 5 in place: every world takes the row it had when player ``p`` held ``hand`` (that player is
    re-dealt), over the blocks ``occ`` marks, which it updates.  The last player: each row becomes every hand
    (``full``) when it holds ``hand``, else none; player ``n - 2``: each block's rows become its row ``hand``;
    an earlier player: each block becomes the block with ``p``'s digit set to ``hand`` (left as it is), and
    takes that block's ``dirty`` mark (the blocks where the table differs from the one the last eq. 3 read,
    re-dealt the same way: :func:`react_again` runs on from there)."""
    w = T.shape[1]
    zero = np.uint64(0)
    A = occ.shape[0]
    if p >= n - 2:
        word = hand // 64
        bit = np.uint64(1) << np.uint64(hand % 64)
        row = np.empty(w, np.uint64)
        for a in range(A):
            if occ[a] == 0:
                continue
            seen = zero
            if p == n - 1:
                for i in range(a * h, a * h + h):
                    held = (T[i, word] & bit) != zero
                    for k in range(w):
                        T[i, k] = full[k] if held else zero
                        seen |= T[i, k]
            else:
                for k in range(w):
                    row[k] = T[a * h + hand, k]
                    seen |= row[k]
                for i in range(a * h, a * h + h):
                    for k in range(w):
                        T[i, k] = row[k]
            if seen == zero:
                occ[a] = 0
        return
    st = _strides(h, n)[p]
    for a in range(A):
        d = (a // st) % h
        if d == hand:
            continue
        src = a + (hand - d) * st
        dirty[a] = dirty[src]
        if occ[src] != 0:
            for i in range(h):
                for k in range(w):
                    T[a * h + i, k] = T[src * h + i, k]
            occ[a] = 1
        elif occ[a] != 0:
            for i in range(a * h, a * h + h):
                for k in range(w):
                    T[i, k] = zero
            occ[a] = 0
