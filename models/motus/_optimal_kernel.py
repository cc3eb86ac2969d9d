"""The exact optimal-average search behind :mod:`optimal`, written once for two kernels.

This file is plain Python in the subset numba compiles: :mod:`optimal` runs it as it is (the pure Python
kernel, for small sets and machines without numba) and, when numba imports, loads it a second time and
compiles every function in that copy (the recursion then calls the compiled function).  Both give the same
answers, in the same order.

``solve`` returns the least total number of guesses that finds every answer of ``S`` (each answer counts the
guesses made until it is found, this one included) when that total is below ``beta``; otherwise a value
``>= beta`` that is a proven lower bound.  Pruning (the best exact Wordle solvers do the same):

* class-size lower bounds ``lbt[d, s]``: with at most ``K`` feedback classes besides "found" per guess, at
  most ``K**(i-1)`` answers are found at the ``i``-th guess, so ``s`` answers need at least the greedy fill
  of those levels (``2s - 1`` while ``s <= K + 1``; infinite past the depth cap ``d``);
* per guess, the bound ``n + sum lbt[class]`` orders the guesses and cuts the loop once it reaches the best
  total found so far; within a guess, classes are solved largest first and the guess is dropped as soon as
  the partial sum plus the bounds of the classes left reaches the best (cut-off on partial sums);
* a cache keyed by the candidate set (two 64-bit Zobrist hashes, :func:`memo_get`, a hash table in a numpy
  array; plus the depth left under a cap and the allowed guesses in hard mode) keeps exact values and proven
  lower bounds;
* instant answers: a possible answer that splits the rest into singletons gives ``2n - 1`` at once, and a
  guess whose classes all have one or two answers is exact at its bound; classes of one or two answers are
  never searched;
* guesses that put every answer in one class (and cannot win) are dropped.
"""

from __future__ import annotations

import numpy as np

INF = 1 << 30
# A cache entry packs a value (a proven lower bound, at most INF) above bit VALUE, the flag EXACT (the value is
# exact) and the best guess's row below it: INF << VALUE < 2**63, so a packed entry never wraps.
VALUE = 32
EXACT = 1 << 31
DMAX = 40  # the depth index that stands for "no cap"


def hard_filter(allowed, g, code, glet, gcnt):
    """The guesses of ``allowed`` that keep the hints of guess ``g`` with feedback ``code`` (Wordle's hard
    mode: every green letter in its place, every revealed letter used at least as often as revealed)."""
    length = glet.shape[1]
    req = np.empty(26, np.int64)  # np.empty and loops: np.zeros costs numba more to compile
    req[:] = 0
    green = np.empty(length, np.int64)
    green[:] = 0
    c = code
    for i in range(length):
        dgt = c % 3
        c //= 3
        if dgt == 2:
            green[i] = 1
        if dgt > 0:
            req[glet[g, i]] += 1
    out = np.empty(allowed.shape[0], np.int64)
    k = 0
    for j in range(allowed.shape[0]):
        h = allowed[j]
        ok = True
        for i in range(length):
            if green[i] == 1 and glet[h, i] != glet[g, i]:
                ok = False
                break
        if ok:
            for a in range(26):
                if req[a] > 0 and gcnt[h, a] < req[a]:
                    ok = False
                    break
        if ok:
            out[k] = h
            k += 1
    return out[:k]


def sort_keys(keys):
    """``keys`` sorted ascending in place (heapsort: a few lines that numba compiles in a fraction of the time
    of ``np.sort``, which matters to a first run that compiles the kernel)."""
    n = keys.shape[0]
    for start in range(n // 2 - 1, -1, -1):
        _sift(keys, start, n)
    for end in range(n - 1, 0, -1):
        x = keys[0]
        keys[0] = keys[end]
        keys[end] = x
        _sift(keys, n - n, end)  # not the constant 0: numba would compile _sift again for it
    return keys


def _sift(keys, i, n):
    """Restore the max-heap below ``i`` in ``keys[:n]``."""
    x = keys[i]
    while True:
        c = 2 * i + 1
        if c >= n:
            break
        if c + 1 < n and keys[c + 1] > keys[c]:
            c += 1
        if keys[c] <= x:
            break
        keys[i] = keys[c]
        i = c
    keys[i] = x


def new_memo(slots):
    """An empty cache of ``slots`` slots (a power of two): an open-addressing hash table in one int64 array,
    row 0 the number of entries, then one row ``(h1, h2, packed)`` per slot (``packed`` -1: free).  Numpy
    rather than numba's typed dict, whose code costs seconds more to compile."""
    memo = np.empty((slots + 1, 3), np.int64)
    memo[:] = -1
    memo[0, 0] = 0
    return memo


def memo_get(memo, h1, h2):
    """The packed entry (never negative) of the candidate set hashed ``(h1, h2)`` (128 bits) in the cache
    ``memo`` (:func:`new_memo`), -1 when absent."""
    return memo[_slot(memo, h1, h2), 2]


def _slot(memo, h1, h2):
    """The row of ``(h1, h2)`` in the cache: its entry's, else the free one where it would go (linear probing
    from ``h1``; the table is never full)."""
    mask = memo.shape[0] - 2
    i = h1 & mask
    while True:
        r = i + 1
        if memo[r, 2] < 0 or (memo[r, 0] == h1 and memo[r, 1] == h2):
            return r
        i = (i + 1) & mask


def memo_put(memo, h1, h2, packed):
    """Keep ``packed`` (``>= 0``) for ``(h1, h2)``, replacing the entry of that key; the cache, doubled first
    when it would be more than half full (the caller keeps the returned array)."""
    if 2 * (memo[0, 0] + 1) > memo.shape[0] - 1:
        old = memo
        memo = new_memo(2 * (old.shape[0] - 1))
        for r in range(1, old.shape[0]):
            if old[r, 2] >= 0:
                _place(memo, old[r, 0], old[r, 1], old[r, 2])
    _place(memo, h1, h2, packed)
    return memo


def _place(memo, h1, h2, packed):
    """Store ``(h1, h2) -> packed`` in its slot (the table has room)."""
    r = _slot(memo, h1, h2)
    if memo[r, 2] < 0:
        memo[0, 0] += 1
    memo[r, 0] = h1
    memo[r, 1] = h2
    memo[r, 2] = packed


def guess_bound(MT, g, S, found, dl, marks, ctl, limit):
    """``n + sum lbt[cd, class]`` over the feedback classes of guess ``g`` (column ``g`` of ``MT``) on ``S``; INF
    when it splits nothing and cannot win; stops early with a value ``>= limit`` once that is certain
    (every answer still to place adds at least one guess, but for one that may be found).  ``dl[x]`` is
    ``lbt[cd, x + 1] - lbt[cd, x]``; ``marks`` (stamps, counts per code) needs no clearing: a code's count
    is valid only where its stamp is this call's number (``ctl[4]``, advanced here)."""
    n = S.shape[0]
    ctl[4] += 1
    gen = ctl[4]
    tot = n
    k = 0
    for i in range(n):
        c = MT[S[i], g]
        if marks[0, c] != gen:
            marks[0, c] = gen
            marks[1, c] = 0
            k += 1
        x = marks[1, c]
        marks[1, c] = x + 1
        if c != found:
            tot += dl[x]
        if tot + n - 2 - i >= limit:
            left = n - 2 - i  # (conditionals rather than max and min: fewer functions for numba to compile)
            return tot + left if left > 0 else tot
    if k == 1 and MT[S[0], g] != found:
        return INF
    return tot


def enter(S, allowed, d, beta, forced, MT, found, arow, lbt, dlt, zs, zg, zd, memo, capped, counts, ctl):
    """A node's start: ``(True, value)`` when it is settled at once (no answers, one or two, the node limit,
    the class-size bound at ``beta``, the cache, a perfect split), else ``(False, 0)`` with its hash, bound,
    first guess (the best possible answer by bound) and that guess's bound; last, the cache (grown when a
    perfect split was kept)."""
    n = S.shape[0]
    z = n - n
    h1 = zd[d, 0]
    h2 = zd[d, 1]
    lbn = lbt[d, n]
    if ctl[1] != 0:
        return True, z + INF, h1, h2, lbn, forced, z, memo
    if n == 0:
        return True, z, h1, h2, lbn, forced, z, memo
    if forced < 0 and n <= 2:
        return True, lbn, h1, h2, lbn, forced, z, memo
    ctl[0] += 1
    if ctl[0] > ctl[2]:
        ctl[1] = 1
        return True, z + INF, h1, h2, lbn, forced, z, memo
    if forced >= 0:
        return False, z, h1, h2, lbn, forced, z, memo
    if lbn >= beta:
        return True, lbn, h1, h2, lbn, forced, z, memo
    for i in range(n):
        h1 ^= zs[S[i], 0]
        h2 ^= zs[S[i], 1]
    if zg is not None:  # hard mode: the allowed guesses are part of the key
        for j in range(allowed.shape[0]):
            h1 ^= zg[allowed[j], 0]
            h2 ^= zg[allowed[j], 1]
    packed = memo[_slot(memo, h1, h2), 2]  # memo_get's line (one function less to compile)
    if packed >= 0:
        val = packed >> VALUE
        if packed & EXACT or val >= beta:
            return True, val, h1, h2, lbn, forced, z, memo
        if val > lbn:
            lbn = val
    # the possible answers first: a perfect split is optimal at once, else the best of them, searched
    # first, sets a total that cuts the bounds of all the other guesses short
    cd = d - 1 if capped else d
    dl = dlt[cd]
    marks = counts[1:]
    low = z + INF
    first = forced
    for i in range(n):
        g = arow[S[i]]
        b = guess_bound(MT, g, S, found, dl, marks, ctl, low)
        if b == 2 * n - 1:
            memo = memo_put(memo, h1, h2, (b << VALUE) | EXACT | g)
            return True, b, h1, h2, lbn, forced, z, memo
        if b < low:
            low = b
            first = g
    return False, z, h1, h2, lbn, first, low, memo


def others(S, allowed, first, best, MT, found, dlt, cd, counts, ctl):
    """Every guess but ``first`` whose bound is below ``best``, ordered by bound (ties by guess order), and
    those bounds."""
    dl = dlt[cd]
    marks = counts[1:]
    m = allowed.shape[0]
    keys = np.empty(m, np.int64)
    kept = 0
    for j in range(m):
        if allowed[j] != first:
            b = guess_bound(MT, allowed[j], S, found, dl, marks, ctl, best)
            if b < best:  # the others cannot beat the best total: never sorted, never searched
                keys[kept] = b * m + j  # unique keys: ties broken by guess order
                kept += 1
    keys = sort_keys(keys[:kept])
    cand = np.empty(kept, np.int64)
    glb = np.empty(kept, np.int64)
    for t in range(kept):
        cand[t] = allowed[keys[t] % m]
        glb[t] = keys[t] // m
    return cand, glb


def classes(MT, g, S, found, cnt):
    """The feedback classes of guess ``g`` (column ``g`` of ``MT``) on ``S`` by counting sort: ``idx`` (positions
    in ``S``, class by class, codes ascending), each class's start, size and code (found left out), and the
    classes largest first.  ``cnt`` is scratch, zero before and after."""
    n = S.shape[0]
    distinct = np.empty(n, np.int64)
    nd = 0
    for i in range(n):
        c = MT[S[i], g]
        if cnt[c] == 0:
            distinct[nd] = c
            nd += 1
        cnt[c] += 1
    distinct = sort_keys(distinct[:nd])
    starts = np.empty(nd, np.int64)
    sizes = np.empty(nd, np.int64)
    ccode = np.empty(nd, np.int64)
    q = 0
    pos = 0
    for r in range(nd):
        c = distinct[r]
        size = cnt[c]
        cnt[c] = pos  # the next free slot of this class
        if c != found:
            starts[q] = pos
            sizes[q] = size
            ccode[q] = c
            q += 1
        pos += size
    idx = np.empty(n, np.int64)
    for i in range(n):
        c = MT[S[i], g]
        idx[cnt[c]] = i
        cnt[c] += 1
    for r in range(nd):
        cnt[distinct[r]] = 0
    corder = np.empty(q, np.int64)  # largest first, ties in code order: by the key (n - size) * q + class
    for r in range(q):
        corder[r] = (n - sizes[r]) * q + r
    sort_keys(corder)
    for r in range(q):
        corder[r] %= q
    return idx, starts[:q], sizes[:q], ccode[:q], corder  # views: a copy costs numba a lot of code


def _put(stack, i, x):
    """``stack[i] = x``, growing the stack by one when ``i`` is its length."""
    if i == len(stack):
        stack.append(x)
    else:
        stack[i] = x


# the scalars of a frame of :func:`solve` (one row of its ``sc`` array per node on the path)
D, BETA, FORCED, H1, H2, LBN, CD, BEST, BESTG, LOW, PHASE, T, TOTAL, REM, R, G = range(16)


def solve(S, allowed, d, beta, forced, MT, found, arow, lbt, dlt, zs, zg, zd, memo, capped, glet, gcnt, counts,
          ctl):
    """The value (see the module docstring) and the cache ``memo`` (:func:`new_memo`; a new array when it
    grew: the caller keeps it).  ``forced >= 0`` evaluates that one guess (no cache); ``ctl`` holds
    ``[nodes, aborted, node limit, best guess, stamp]``; ``counts`` is scratch of three rows of one slot per
    feedback code: the first zeroed, the other two :func:`guess_bound`'s ``marks``; ``dlt`` is ``lbt``'s
    steps (``lbt[d, s + 1] - lbt[d, s]``).  Hard mode passes the guesses' hashes ``zg``, letters ``glet`` and
    letter counts ``gcnt`` (:func:`hard_filter`), the normal game None for the three: numba then prunes hard
    mode's branches and compiles (and caches) a smaller kernel for it.

    The depth-first search keeps its path in explicit stacks (one frame per node: its arrays in lists, its
    scalars in a row of ``sc``) rather than recursing, so that numba can cache the compiled kernel."""
    cnt = counts[0]
    z = S.shape[0] - S.shape[0]
    # frame arrays: answers, allowed guesses, candidates and their bounds, the current candidate's classes
    s_S = [S]
    s_A = [allowed]
    s_cand = [S]
    s_glb = [S]
    s_idx = [S]
    s_starts = [S]
    s_sizes = [S]
    s_code = [S]
    s_order = [S]
    # a child has fewer answers than its parent (the forced guess's child as many): the path never holds more
    # frames than this (a push into the last row stops the search, as the node limit does, rather than write
    # past the table)
    sc = np.empty((S.shape[0] + 2, 16), np.int64)
    sc[:] = 0
    sc[0, D] = d
    sc[0, BETA] = beta
    sc[0, FORCED] = forced
    top = z  # not the constant 0 (numba would compile _put again for it)
    state = 0  # 0: enter the frame, 1: next candidate, 2: next class, 3: return ``ret`` to the parent
    ret = z
    while True:
        if state == 0:
            fS = s_S[top]
            fA = s_A[top]
            fd = sc[top, D]
            done, val, h1, h2, lbn, first, low, memo = enter(fS, fA, fd, sc[top, BETA], sc[top, FORCED], MT, found,
                                                             arow, lbt, dlt, zs, zg, zd, memo, capped, counts, ctl)
            if done:
                ret = val
                state = 3
                continue
            sc[top, H1] = h1
            sc[top, H2] = h2
            sc[top, LBN] = lbn
            sc[top, CD] = fd - 1 if capped else fd
            sc[top, BEST] = sc[top, BETA]
            sc[top, BESTG] = -1
            sc[top, LOW] = low
            sc[top, PHASE] = 0
            sc[top, T] = 0
            one = np.empty(1, np.int64)
            one[0] = first
            _put(s_cand, top, one)
            bound = np.empty(1, np.int64)
            bound[0] = low
            _put(s_glb, top, bound)
            state = 1
        elif state == 1:
            fS = s_S[top]
            n = fS.shape[0]
            cand = s_cand[top]
            glb = s_glb[top]
            t = sc[top, T]
            best = sc[top, BEST]
            cd = sc[top, CD]
            if ctl[1] != 0:
                ret = z + INF
                state = 3
                continue
            if t >= cand.shape[0] or glb[t] >= best or cand[t] < 0:
                # every guess that is not a possible answer needs at least 2n; the possible answers' bounds
                # are known
                if sc[top, PHASE] == 0 and sc[top, FORCED] < 0 and (best > sc[top, LOW] or best > n + n * lbt[cd, 1]):
                    cand, glb = others(fS, s_A[top], cand[0], best, MT, found, dlt, cd, counts, ctl)
                    s_cand[top] = cand
                    s_glb[top] = glb
                    sc[top, PHASE] = 1
                    sc[top, T] = 0
                    continue
                bestg = sc[top, BESTG]
                if sc[top, FORCED] >= 0:
                    if bestg >= 0:
                        ctl[3] = bestg
                    ret = best
                elif best < sc[top, BETA]:
                    memo = memo_put(memo, sc[top, H1], sc[top, H2], (min(best, INF) << VALUE) | EXACT | bestg)
                    ret = best
                else:
                    bound = max(sc[top, LBN], sc[top, BETA])
                    memo = memo_put(memo, sc[top, H1], sc[top, H2], min(bound, INF) << VALUE)
                    ret = bound
                state = 3
                continue
            g = cand[t]
            idx, starts, sizes, ccode, corder = classes(MT, g, fS, found, cnt)
            rem = z
            for r in range(sizes.shape[0]):
                rem += lbt[cd, sizes[r]]
            if n + rem >= best:
                sc[top, T] = t + 1
                continue
            _put(s_idx, top, idx)
            _put(s_starts, top, starts)
            _put(s_sizes, top, sizes)
            _put(s_code, top, ccode)
            _put(s_order, top, corder)
            sc[top, G] = g
            sc[top, TOTAL] = n
            sc[top, REM] = rem
            sc[top, R] = 0
            state = 2
        elif state == 2:
            sizes = s_sizes[top]
            corder = s_order[top]
            cd = sc[top, CD]
            best = sc[top, BEST]
            total = sc[top, TOTAL]
            rem = sc[top, REM]
            r = sc[top, R]
            q = sizes.shape[0]
            pushed = False
            while r < q:
                cls = corder[r]
                size = sizes[cls]
                rem -= lbt[cd, size]
                if size > 2:
                    fS = s_S[top]
                    idx = s_idx[top]
                    start = s_starts[top][cls]
                    child = np.empty(size, np.int64)
                    for u in range(size):
                        child[u] = fS[idx[start + u]]
                    sub = s_A[top]
                    if glet is not None:
                        sub = hard_filter(sub, sc[top, G], s_code[top][cls], glet, gcnt)
                    sc[top, TOTAL] = total
                    sc[top, REM] = rem
                    sc[top, R] = r
                    top += 1
                    if top + 1 == sc.shape[0]:
                        ctl[1] = 1
                    _put(s_S, top, child)
                    _put(s_A, top, sub)
                    sc[top, D] = cd
                    sc[top, BETA] = best - total - rem
                    sc[top, FORCED] = -1
                    pushed = True
                    break
                total += lbt[cd, size]
                if total + rem >= best:
                    break
                r += 1
            if pushed:
                state = 0
                continue
            if r >= q and total < best:
                sc[top, BEST] = total
                sc[top, BESTG] = sc[top, G]
            sc[top, T] += 1
            state = 1
        else:
            if top == 0:
                return ret, memo
            top -= 1
            if ctl[1] != 0:
                ret = z + INF
                continue
            total = sc[top, TOTAL] + ret
            rem = sc[top, REM]
            if total + rem >= sc[top, BEST]:
                sc[top, T] += 1
                state = 1
            else:
                sc[top, TOTAL] = total
                sc[top, R] += 1
                state = 2


def ply_bound(MT, S, pool, arow, found, dl, counts, ctl):
    """The one-ply bound of the candidate set ``S`` (:mod:`.openers`): the least :func:`guess_bound` over the
    guesses of ``pool`` (the possible answers first: the best of them cuts the others' sweeps short), with
    ``dl`` the steps of the class-size bound one level down; INF when no guess splits ``S``."""
    marks = counts[1:]
    best = INF
    for i in range(S.shape[0]):
        b = guess_bound(MT, arow[S[i]], S, found, dl, marks, ctl, best)
        if b < best:
            best = b
    if best == 2 * S.shape[0] - 1:  # a possible answer splitting the rest into singletons: nothing does better
        return best
    for j in range(pool.shape[0]):
        b = guess_bound(MT, pool[j], S, found, dl, marks, ctl, best)
        if b < best:
            best = b
    return best
