"""eq. 2, 3 and 5 on a packed table, over its non-empty blocks only, compiled with numba (:mod:`sleuth.jit`).

A packed table of ``n`` players and ``h`` hands is viewed as ``R = h ** (n - 1)`` rows of ``w`` 64-bit words
(the last player's hands as bits); row ``a * h + s`` has ``s`` as the hand of player ``n - 2`` and the digits
of ``a`` (base ``h``) as the hands of players ``0 .. n - 3``.  The ``h`` rows of one ``a`` are *block* ``a``
(``h * w`` contiguous words).  Each table comes with an occupancy ``occ`` (one byte per block): a block whose
byte is 0 holds no world, so every kernel skips it (a byte of 1 only says "may hold worlds").  Behavioural
analysis leaves the tables sparse (often under 1 % of the blocks), so a round costs the blocks in play, not
the ``h ** (n - 2)`` blocks of the space.

:func:`react_blocks` keeps, for every player with a reaction, the worlds whose row along that player's axis
has exactly one hand when the player solved (and not exactly one when not).  A first pass gathers, per axis,
the bits seen once and at least twice along it (``h ** (n - 2)`` rows of ``w`` words each); a second pass
clears the worlds the reactions exclude, every mask computed from the table as it was given (as
:func:`.tables.react` does with the numpy masks).  Rows of one word (up to 64 hands, the seed's 56) take
:func:`react_narrow`, which checks each word against every reaction in one loop; longer rows
:func:`react_wide`.  The loops of :func:`react_narrow` and the tallies (:func:`_gather`, :func:`_keep`) index
with unsigned offsets, not slices or signed indices: numba checks a signed index for a negative value at each
access, which keeps the compiler from vectorising the loop, and a slice taken per block costs reference
counting (with either, eq. 3 on a full 5-player table took up to 3 times as long).  :func:`react_again` gives
the same result when the reactions are the last call's and the table changed since only in the blocks marked
``dirty`` (every kernel marks the blocks it changes): it gathers and checks only the rows through those
blocks.  Without numba the numpy masks of :class:`.tables.PackedSpace` run instead; tests check that all agree.
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
    exactly when one bit is set (1: solved, 0: did not, -1: not reacting).  ``mm``: ``w`` words of work space.
    Rows of one word (up to 64 hands) take loops without branches, which the compiler vectorises."""
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
        if w == 1:
            m = mm[0]
            for s in range(h):
                y[s] &= m
        else:
            for s in range(h):
                for k in range(w):
                    y[s * w + k] &= mm[k]
    if last >= 0:
        if w == 1:
            want = zero if last == 1 else ~zero  # xor-ed into "exactly one", as for the other players
            for s in range(h):
                x = xb[s]
                single = zero - np.uint64((x != zero) & ((x & (x - one)) == zero))
                y[s] &= single ^ want
            return
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
    """``xb[:] = y``; the OR of what changed (0 when nothing did).  An unchanged block is not written (most
    blocks lose no world: their cache lines stay clean)."""
    d = np.uint64(0)
    for u in range(xb.shape[0]):
        d |= xb[u] ^ y[u]
    if d != np.uint64(0):
        for u in range(xb.shape[0]):
            xb[u] = y[u]
    return d


def _settle(xb, y, occ, dirty, a):
    """Store ``y`` in block ``a`` (``xb``), mark it in ``dirty`` when it changed (else clear the mark) and in
    ``occ`` when it is left empty; the OR of what changed."""
    d = _store(xb, y)
    dirty[a] = d != np.uint64(0)
    if _empty(xb):
        occ[a] = 0
    return d


def _empty(xb):
    """True when the block ``xb`` holds no world."""
    seen = np.uint64(0)
    for u in range(xb.shape[0]):
        seen |= xb[u]
    return seen == np.uint64(0)


def _gather(src, so, once, twice, to, m):
    """Add the ``m`` words of ``src`` from ``so`` to a line's tallies, the words of ``once`` (the bits seen
    once or more) and ``twice`` (twice or more) from ``to``; the OR of the words added (0: none held a world).
    The offsets are unsigned: numba checks a signed index for a negative value at every access, which keeps
    the compiler from vectorising the loop."""
    seen = np.uint64(0)
    for u in range(m):
        i = np.uint64(u)
        x = src[so + i]
        twice[to + i] |= once[to + i] & x
        once[to + i] |= x
        seen |= x
    return seen


def _keep(y, once, twice, to, sg, m):
    """``y[:m] &= `` the worlds whose line (the tallies from word ``to``, unsigned) holds exactly one (``sg``
    0) or not exactly one (``sg`` all ones) hand."""
    for u in range(m):
        i = np.uint64(u)
        y[u] &= (once[to + i] & ~twice[to + i]) ^ sg


def react_table(T, h, n, act):
    """:func:`react_blocks` on every block of ``T`` (no occupancy known)."""
    occ = np.ones(T.shape[0] // h, np.uint8)
    once = np.zeros((max(n - 2, 1), T.shape[0] // h * T.shape[1]), np.uint64)
    return react_blocks(T, occ, h, n, act, once, np.zeros_like(once), np.zeros_like(occ))


def react_blocks(T, occ, h, n, act, once, twice, dirty, only=-1):
    """Apply eq. 3 for every player ``p`` with ``act[p] >= 0`` (1: solved, 0: did not) to the table ``T``
    (``R x w`` words, changed in place) over the blocks ``occ`` marks, clearing the marks of blocks left
    empty; True when a world was removed.  ``dirty[a]`` becomes 1 for the blocks it changed, else 0 (what
    :func:`react_again` starts from).  ``once`` and ``twice``: zeros of ``max(n - 2, 1) x (R / h * w)``
    words, the work space (per axis, the rows with that player left out), left as zeros.  ``only``: a player
    ``p < n - 2`` who does not react and along whose axis the table is the same, or -1: then only the blocks
    where ``p`` holds hand 0 are read and changed (the others are left as they are; the caller copies them,
    :func:`fix_axis` with hand 0), a ``1 / h`` part of the work.

    Not compiled itself: rows of one word (up to 64 hands) go to :func:`react_narrow`, longer rows to
    :func:`react_wide`, so a process compiles only the one its tables need."""
    if T.shape[1] == 1:
        return react_narrow(T, occ, h, n, act, once, twice, dirty, only)
    return react_wide(T, occ, h, n, act, once, twice, dirty, only)


def _elsewhere(a, only, st, h):
    """True when ``only >= 0`` and player ``only`` does not hold hand 0 in block ``a``."""
    return only >= 0 and (a // st[only]) % h != 0


def _exactly_one_rows(flat, o, h, sign):
    """The hands that exactly one row of the block at word ``o`` (``h`` rows of one word) holds, xor
    ``sign``: the mask of player n - 2's eq. 3.  Four tallies side by side (one would be a chain of ``2 h``
    dependent operations), merged at the end."""
    zero = np.uint64(0)
    o0 = o1 = o2 = o3 = zero
    t0 = t1 = t2 = t3 = zero
    s = 0
    while s + 4 <= h:
        x = flat[o + s]
        t0 |= o0 & x
        o0 |= x
        x = flat[o + s + 1]
        t1 |= o1 & x
        o1 |= x
        x = flat[o + s + 2]
        t2 |= o2 & x
        o2 |= x
        x = flat[o + s + 3]
        t3 |= o3 & x
        o3 |= x
        s += 4
    while s < h:
        x = flat[o + s]
        t0 |= o0 & x
        o0 |= x
        s += 1
    once = o0 | o1 | o2 | o3
    twice = t0 | t1 | t2 | t3 | (o0 & o1) | ((o0 | o1) & o2) | ((o0 | o1 | o2) & o3)
    return (once & ~twice) ^ sign


def _kept_here(x, mid, run, last_sign, last_off):
    """The worlds of the row word ``x`` that eq. 3 keeps for the players whose lines lie within its run: those
    in ``mid`` (player n - 2's mask) and ``run`` (player n - 3's), and, unless ``last_off`` is all ones, those
    the last player's reaction allows (exactly one bit set in ``x``, xor ``last_sign``)."""
    zero = np.uint64(0)
    single = zero - np.uint64((x != zero) & ((x & (x - np.uint64(1))) == zero))
    return x & mid & run & ((single ^ last_sign) | last_off)


def _run_lines(a0, act, only, st, h, base):
    """For the run from block ``a0``: ``base[p]``, the first word of its lines along each reacting player
    ``p < n - 3`` (``len(st) = n - 2``); False (nothing set) when :func:`react_narrow` leaves the run out
    (``only`` is such a player, who does not hold hand 0 in it)."""
    if 0 <= only < st.shape[0] - 1 and (a0 // st[only]) % h != 0:
        return False
    for p in range(st.shape[0] - 1):
        if act[p] >= 0:
            base[p] = _left_out(a0, p, st, h) * h
    return True


def react_narrow(T, occ, h, n, act, once, twice, dirty, only):
    """:func:`react_blocks` for rows of one word.

    The table is read as *runs* of ``h`` blocks, the blocks that differ only in player ``n - 3``'s hand:
    the lines along that player, player n - 2 (a block's columns) and the last player (a word) lie within
    one run; the lines along players ``0 .. n - 4`` cross the runs (and a run's lines along one of them are
    consecutive).  The first pass takes the runs one by one: it gathers the crossing lines and the run's own
    lines, then checks each word of the run against the players whose lines lie within it, in one loop.
    Every mask is read from the table as given (the crossing lines gathered before the run changes), and
    eq. 3 is the AND of all masks, so the second pass ANDs the crossing masks into what the first left,
    and only in the blocks whose crossing lines can remove a world: after most answers none can, and the
    second pass reads nothing."""
    R = T.shape[0]
    A = R // h
    flat = T.reshape(R)
    once_w = once.reshape(once.shape[0] * once.shape[1])  # player p's lines from word p * cols
    twice_w = twice.reshape(twice.shape[0] * twice.shape[1])
    cols = once.shape[1]
    zero = np.uint64(0)
    ones = ~zero
    st = _strides(h, n)
    nd = n - 2                        # the players whose hands number the blocks
    B = h if nd >= 1 else 1           # blocks per run
    Bo = 1 if only == nd - 1 else B   # with ``only`` = player n - 3: the first block of each run
    sign = np.zeros(max(nd, 1), np.uint64)  # xor-ed into "exactly one": all ones for "did not solve"
    for p in range(nd):
        sign[p] = zero if act[p] == 1 else ones
    crossing = 0
    for p in range(nd - 1):
        crossing += act[p] >= 0
    inner = nd >= 1 and act[nd - 1] >= 0
    mid = act[n - 2]
    mid_sign = zero if mid == 1 else ones
    last_sign = zero if act[n - 1] == 1 else ones
    last_off = ones if act[n - 1] < 0 else zero
    local = inner or mid >= 0 or act[n - 1] >= 0
    base = np.zeros(max(nd, 1), np.int64)  # per crossing player: the first word of the run's lines
    run_once = np.empty(h, np.uint64)
    run_twice = np.empty(h, np.uint64)
    run_mask = np.empty(h, np.uint64)
    y = np.empty(h, np.uint64)
    diff = zero
    held = np.empty(A, np.int64)      # the blocks the first pass gathered
    nh = 0
    for r in range(A // B):
        a0 = r * B
        if not _run_lines(a0, act, only, st, h, base):
            continue
        run_once[:] = zero
        run_twice[:] = zero
        for j in range(Bo):
            dirty[a0 + j] = 0
            if occ[a0 + j] == 0:
                continue
            held[nh] = a0 + j
            nh += 1
            o = np.uint64((a0 + j) * h)
            seen = zero
            for p in range(nd - 1):
                if act[p] >= 0:
                    seen |= _gather(flat, o, once_w, twice_w, np.uint64(p * cols + base[p] + j * h), h)
            if inner:
                seen |= _gather(flat, o, run_once, run_twice, np.uint64(0), h)
            if not local and (seen == zero if crossing else _empty(flat[(a0 + j) * h:(a0 + j + 1) * h])):
                occ[a0 + j] = 0  # (else the check below finds the blocks left empty)
        if not local:
            continue
        for s in range(h):
            run_mask[s] = (run_once[s] & ~run_twice[s]) ^ sign[nd - 1] if inner else ones
        for j in range(Bo):
            a = a0 + j
            if occ[a] == 0:
                continue
            uo = np.uint64(a * h)
            m_mid = _exactly_one_rows(flat, a * h, h, mid_sign) if mid >= 0 else ones
            d = zero
            seen = zero
            for s in range(h):
                x = flat[uo + np.uint64(s)]
                v = _kept_here(x, m_mid, run_mask[s], last_sign, last_off)
                d |= x ^ v
                seen |= v
                y[s] = v
            # (the same as in the second pass: a helper here made the stage 1.3 times as slow)
            if d != zero:  # the block lost worlds (most do not: they are not written)
                for s in range(h):
                    flat[uo + np.uint64(s)] = y[s]
                diff |= d
                dirty[a] = 1
            if seen == zero:
                occ[a] = 0
    # the lines the second pass reads, chosen once (an array chosen per block costs reference counting):
    # players 0 and 1, or a line of all ones for a player who does not react
    all_ones = np.full(h, ones, np.uint64)
    no_bits = np.zeros(h, np.uint64)
    use0 = nd >= 2 and act[0] >= 0
    use1 = nd == 3 and act[1] >= 0
    o0, t0, s0 = (once_w, twice_w, sign[0]) if use0 else (all_ones, no_bits, zero)
    o1, t1, s1 = (once_w, twice_w, sign[1 if nd > 1 else 0]) if use1 else (all_ones, no_bits, zero)
    # the crossing lines that can remove a world (a bit the line holds and its mask clears): every line, or
    # the lines through the blocks gathered when they are few
    lines = A // h if nd >= 2 else 0
    removes = np.zeros((max(nd - 1, 1), lines), np.uint8)
    every = nh * 4 > A
    todo = False
    for p in range(nd - 1):
        if act[p] < 0:
            continue
        for i in range(lines if every else nh):
            key = i if every else _left_out(held[i], p, st, h)
            b = np.uint64(p * cols + key * h)
            rem = zero
            for s in range(h):
                u = b + np.uint64(s)
                rem |= once_w[u] & ~((once_w[u] & ~twice_w[u]) ^ sign[p])
            removes[p, key] = rem != zero
            todo |= rem != zero
    for r in range(A // B if todo else 0):
        a0 = r * B
        if not _run_lines(a0, act, only, st, h, base):
            continue
        for j in range(Bo):
            a = a0 + j
            if occ[a] == 0:
                continue
            hit = False
            for p in range(nd - 1):
                hit |= act[p] >= 0 and removes[p, base[p] // h + j] != 0
            if not hit:
                continue
            d = zero
            seen = zero
            uo = np.uint64(a * h)
            if nd <= 3:  # players 0 and 1 at most: one vectorised loop (a player not reacting reads all ones)
                u0 = np.uint64(base[0] + j * h if use0 else 0)
                u1 = np.uint64(cols + base[1] + j * h if use1 else 0)
                for s in range(h):
                    i = np.uint64(s)
                    x = flat[uo + i]
                    v = x & ((o0[u0 + i] & ~t0[u0 + i]) ^ s0) & ((o1[u1 + i] & ~t1[u1 + i]) ^ s1)
                    d |= x ^ v
                    seen |= v
                    y[s] = v
            else:
                for s in range(h):
                    x = flat[a * h + s]
                    v = x
                    for p in range(nd - 1):
                        if act[p] >= 0:
                            u = p * cols + base[p] + j * h + s
                            v &= (once_w[u] & ~twice_w[u]) ^ sign[p]
                    d |= x ^ v
                    seen |= v
                    y[s] = v
            if d != zero:
                for s in range(h):
                    flat[uo + np.uint64(s)] = y[s]
                diff |= d
                dirty[a] = 1
            if seen == zero:
                occ[a] = 0
    for p in range(nd - 1):  # the crossing lines back to zeros
        if act[p] < 0:
            continue
        if every:
            once[p, :] = zero
            twice[p, :] = zero
            continue
        for i in range(nh):
            b = _left_out(held[i], p, st, h) * h
            once[p, b:b + h] = zero
            twice[p, b:b + h] = zero
    return diff != zero


def react_wide(T, occ, h, n, act, once, twice, dirty, only):
    """Apply eq. 3 for every player ``p`` with ``act[p] >= 0`` (1: solved, 0: did not) to the table ``T``
    (``R x w`` words, changed in place) over the blocks ``occ`` marks, clearing the marks of blocks left
    empty; True when a world was removed.  ``dirty[a]`` becomes 1 for the blocks it changed, else 0 (what
    :func:`react_again` starts from).  ``once`` and ``twice``: zeros of ``max(n - 2, 1) x (R / h * w)``
    words, the work space (per axis, the rows with that player left out), left as zeros.

    The lines along player 0 cross the whole table: a first pass gathers them.  Every other line lies within
    one *slice* (the blocks of one hand of player 0, ``R / h`` rows), so the second pass takes the slices one
    by one: it gathers the slice's lines, then checks the slice's worlds while the slice is still in the
    cache.  The loops run over whole blocks of ``h * w`` contiguous words, which the compiler vectorises."""
    R = T.shape[0]
    w = T.shape[1]
    A = R // h
    hw = h * w
    flat = T.reshape(R * w)
    once_w = once.reshape(once.shape[0] * once.shape[1])  # player p's lines from word p * cols
    twice_w = twice.reshape(twice.shape[0] * twice.shape[1])
    cols = once.shape[1]
    zero = np.uint64(0)
    st = _strides(h, n)
    nd = n - 2                       # the players whose hands number the blocks
    S = A // h if nd >= 1 else 1     # blocks per slice
    sign = np.empty(max(nd, 1), np.uint64)  # xor-ed into "exactly one": all ones for "did not solve"
    for p in range(nd):
        sign[p] = zero if act[p] == 1 else ~zero
    mid = act[n - 2]
    last = act[n - 1]
    outer = nd >= 1 and act[0] >= 0  # player 0's lines, gathered in a pass of their own
    rel = np.empty((max(nd, 1), S), np.int64)  # the line through block j of slice 0, per player (no division
    for j in range(S):                          # in the loops: slice c's lines are c * S / h further on)
        rel[0, j] = j
        for p in range(1, nd):
            rel[p, j] = _left_out(j, p, st, h)
    inner = 0
    for p in range(1, nd):
        inner += act[p] >= 0
    live = np.empty(A if outer else 0, np.int64)  # the blocks player 0's pass gathered
    nl = 0
    for a in range(A if outer else 0):
        dirty[a] = 0
        if occ[a] == 0 or _elsewhere(a, only, st, h):
            continue
        o = a * hw
        if _empty(flat[o:o + hw]):
            occ[a] = 0
            continue
        live[nl] = a
        nl += 1
        bp = (a % S) * hw    # the line along player 0 (whose digit has stride S)
        _gather(flat, np.uint64(o), once_w, twice_w, np.uint64(bp), hw)
    diff = zero
    y = np.empty(hw, np.uint64)
    mm = np.empty(w, np.uint64)
    for c in range(A // S):
        lo = c * S
        seen = 0
        for a in range(lo, lo + S if inner else lo):  # the slice's lines (with only players 0, n - 2 and
            if occ[a] == 0 or _elsewhere(a, only, st, h):  # n - 1 reacting, the check below is the
                continue                                            # only pass)
            o = a * hw
            if not outer and _empty(flat[o:o + hw]):
                occ[a] = 0
                continue
            seen += 1
            for p in range(1, nd):
                if act[p] >= 0:
                    bp = (rel[p, a - lo] + lo // h) * hw
                    _gather(flat, np.uint64(o), once_w, twice_w, np.uint64(p * cols + bp), hw)
        for a in range(lo, lo + S):
            if occ[a] == 0 or _elsewhere(a, only, st, h):
                dirty[a] = 0
                continue
            o = a * hw
            xb = flat[o:o + hw]
            for u in range(hw):
                y[u] = xb[u]
            for p in range(nd):
                if act[p] >= 0:
                    bp = (rel[p, a - lo] + (lo // h if p else 0)) * hw
                    _keep(y, once_w, twice_w, np.uint64(p * cols + bp), sign[p], hw)
            _own_rows(xb, y, mm, h, w, mid, last)
            diff |= _settle(xb, y, occ, dirty, a)
        if seen and inner:  # the slice's lines back to zeros (they lie in one range of S * w words)
            for p in range(1, nd):
                if act[p] >= 0:
                    once[p, lo * w:(lo + S) * w] = zero
                    twice[p, lo * w:(lo + S) * w] = zero
    if nl > S // 4:  # player 0's lines back to zeros: all of them, or the lines gathered
        once[0, :] = zero
        twice[0, :] = zero
    else:
        for j in range(nl):
            bp = (live[j] % S) * hw
            once[0, bp:bp + hw] = zero
            twice[0, bp:bp + hw] = zero
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
    once_w = once.reshape(once.shape[0] * once.shape[1])  # player p's lines from word p * cols
    twice_w = twice.reshape(twice.shape[0] * twice.shape[1])
    cols = once.shape[1]
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
            bp = np.uint64(p * cols + key * hw)
            for d in range(h):
                b = base + d * q
                if occ[b] == 0:
                    continue
                if todo[b] == 0:
                    todo[b] = 1
                    blocks[nb] = b
                    nb += 1
                _gather(flat, np.uint64(b * hw), once_w, twice_w, bp, hw)
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
            _keep(y, once_w, twice_w, np.uint64(p * cols + key * hw), sg, hw)
        if again:
            _own_rows(xb, y, mm, h, w, mid, last)
        diff |= _settle(xb, y, occ, dirty, a)
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
    hw = T.shape[0] // occ.shape[0] * T.shape[1]
    flat = T.reshape(T.shape[0] * T.shape[1])
    other = U.reshape(U.shape[0] * U.shape[1])
    zero = np.uint64(0)
    changed = zero
    for a in range(occ.shape[0]):
        if occ[a] == 0 or only[a] == 0:
            continue
        o = np.uint64(a * hw)  # unsigned offsets: see the module's docstring
        seen = zero
        d = zero
        for u in range(hw):
            i = o + np.uint64(u)
            x = flat[i]
            y = x & other[i]
            d |= x ^ y
            flat[i] = y
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
    hw = block.shape[1] * block.shape[2]
    flat = T.reshape(T.shape[0] * T.shape[1])
    masks = block.reshape(block.shape[0] * hw)
    zero = np.uint64(0)
    for a in range(ids.shape[0]):
        if occ[a] == 0:
            continue
        o = np.uint64(a * hw)  # unsigned offsets: see the module's docstring
        b = np.uint64(ids[a] * hw)
        seen = zero
        d = zero
        for u in range(hw):
            i = np.uint64(u)
            x = flat[o + i]
            y = x & masks[b + i]
            d |= x ^ y
            flat[o + i] = y
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
    hw = h * w
    flat = T.reshape(T.shape[0] * w)
    zero = np.uint64(0)
    A = occ.shape[0]
    if p >= n - 2:
        word = hand // 64
        shift = np.uint64(hand % 64)
        row = np.empty(w, np.uint64)
        for a in range(A):
            if occ[a] == 0:
                continue
            o = a * hw
            seen = zero
            if p == n - 1 and w == 1:  # no branch: all ones where the row holds ``hand``
                f = full[0]
                for s in range(h):
                    x = f & (zero - ((flat[o + s] >> shift) & np.uint64(1)))
                    flat[o + s] = x
                    seen |= x
            elif p == n - 1:
                for s in range(h):
                    held = zero - ((flat[o + s * w + word] >> shift) & np.uint64(1))
                    for k in range(w):
                        x = full[k] & held
                        flat[o + s * w + k] = x
                        seen |= x
            elif w == 1:  # a scalar, not ``row``: the compiler need not read it again after each store
                x = flat[o + hand]
                seen = x
                for s in range(h):
                    flat[o + s] = x
            else:
                for k in range(w):
                    row[k] = flat[o + hand * w + k]
                    seen |= row[k]
                for s in range(h):
                    for k in range(w):
                        flat[o + s * w + k] = row[k]
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
            for u in range(hw):
                flat[a * hw + u] = flat[src * hw + u]
            occ[a] = 1
        elif occ[a] != 0:
            for u in range(hw):
                flat[a * hw + u] = zero
            occ[a] = 0
