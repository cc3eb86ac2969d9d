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
* a cache keyed by the candidate set (two 64-bit Zobrist hashes; plus the depth left under a cap and the
  allowed guesses in hard mode) keeps exact values and proven lower bounds;
* instant answers: a possible answer that splits the rest into singletons gives ``2n - 1`` at once, and a
  guess whose classes all have one or two answers is exact at its bound; classes of one or two answers are
  never searched;
* guesses that put every answer in one class (and cannot win) are dropped.
"""

from __future__ import annotations

import numpy as np

INF = 1 << 30
DMAX = 40  # the depth index that stands for "no cap"


def hard_filter(allowed, g, code, glet, gcnt):
    """The guesses of ``allowed`` that keep the hints of guess ``g`` with feedback ``code`` (Wordle's hard
    mode: every green letter in its place, every revealed letter used at least as often as revealed)."""
    length = glet.shape[1]
    req = np.zeros(26, np.int64)
    green = np.zeros(length, np.int64)
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
    return out[:k].copy()


def guess_bound(row, S, found, dl, marks, ctl, limit):
    """``n + sum lbt[cd, class]`` over the feedback classes of one guess (its ``row`` of codes) on ``S``; INF
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
        c = row[S[i]]
        if marks[0, c] != gen:
            marks[0, c] = gen
            marks[1, c] = 0
            k += 1
        x = marks[1, c]
        marks[1, c] = x + 1
        if c != found:
            tot += dl[x]
        if tot + n - 2 - i >= limit:
            return tot + max(0, n - 2 - i)
    if k == 1 and row[S[0]] != found:
        return INF
    return tot


def solve(S, allowed, d, beta, forced, M, found, arow, lbt, zs, zg, zd, memo, capped, hard, glet, gcnt, counts,
          ctl):
    """See the module docstring.  ``forced >= 0`` evaluates that one guess (no cache); ``ctl`` holds
    ``[nodes, aborted, node limit, best guess, stamp]``; ``counts`` is scratch of three rows of one slot per
    feedback code: the first zeroed, the other two :func:`guess_bound`'s ``marks``."""
    n = S.shape[0]
    if ctl[1] != 0:
        return INF
    if n == 0:
        return 0
    if forced < 0 and n <= 2:
        return lbt[d, n]
    ctl[0] += 1
    if ctl[0] > ctl[2]:
        ctl[1] = 1
        return INF
    inf = n - n + INF
    lbn = lbt[d, n]
    cd = d - 1 if capped else d
    dl = lbt[cd, 1:] - lbt[cd, :-1]
    marks = counts[1:]
    cnt = counts[0]
    h1 = zd[d, 0]
    h2 = zd[d, 1]
    if forced < 0:
        if lbn >= beta:
            return lbn
        for i in range(n):
            h1 ^= zs[S[i], 0]
            h2 ^= zs[S[i], 1]
        if hard:
            for j in range(allowed.shape[0]):
                h1 ^= zg[allowed[j], 0]
                h2 ^= zg[allowed[j], 1]
        packed = memo.get((h1, h2), -1)
        if packed >= 0:
            val = packed >> 33
            if (packed >> 32) & 1 == 1 or val >= beta:
                return val
            if val > lbn:
                lbn = val
    best = beta
    bestg = -1
    first = forced
    low = 0
    if forced < 0:
        # the possible answers first: a perfect split is optimal at once, else the best of them, searched
        # first, sets a total that cuts the bounds of all the other guesses short
        low = inf
        for i in range(n):
            g = arow[S[i]]
            b = guess_bound(M[g], S, found, dl, marks, ctl, inf)
            if b == 2 * n - 1:
                memo[(h1, h2)] = (b << 33) | (1 << 32) | g
                return b
            if b < low:
                low = b
                first = g
    cand = np.empty(1, np.int64)
    cand[0] = first
    glb = np.empty(1, np.int64)
    glb[0] = low
    for phase in range(2):
        if phase == 1:
            # every guess that is not a possible answer needs at least 2n; the possible answers' bounds are known
            if forced >= 0 or best <= min(low, n + n * lbt[cd, 1]):
                break
            m = allowed.shape[0]
            keys = np.empty(m, np.int64)
            kept = 0
            for j in range(m):
                if allowed[j] != first:
                    b = guess_bound(M[allowed[j]], S, found, dl, marks, ctl, best)
                    if b < best:  # the others cannot beat the best total: never sorted, never searched
                        keys[kept] = b * m + j  # unique keys: ties broken by guess order
                        kept += 1
            keys = np.sort(keys[:kept])
            cand = np.empty(kept, np.int64)
            glb = np.empty(kept, np.int64)
            for t in range(kept):
                cand[t] = allowed[keys[t] % m]
                glb[t] = keys[t] // m
        for t in range(cand.shape[0]):
            if glb[t] >= best or cand[t] < 0:
                break
            g = cand[t]
            row = M[g]
            # the classes by counting sort (codes ascending, answers in their order within a class)
            distinct = np.empty(n, np.int64)
            nd = 0
            for i in range(n):
                c = row[S[i]]
                if cnt[c] == 0:
                    distinct[nd] = c
                    nd += 1
                cnt[c] += 1
            distinct = np.sort(distinct[:nd])
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
                c = row[S[i]]
                idx[cnt[c]] = i
                cnt[c] += 1
            for r in range(nd):
                cnt[distinct[r]] = 0
            corder = np.argsort(-sizes[:q], kind="mergesort")
            total = n
            rem = 0
            for r in range(q):
                rem += lbt[cd, sizes[r]]
            if total + rem >= best:
                continue
            ok = True
            for r in range(q):
                cls = corder[r]
                size = sizes[cls]
                rem -= lbt[cd, size]
                if size <= 2:
                    v = lbt[cd, size]
                else:
                    child = np.empty(size, np.int64)
                    for u in range(size):
                        child[u] = S[idx[starts[cls] + u]]
                    sub = allowed
                    if hard:
                        sub = hard_filter(allowed, g, ccode[cls], glet, gcnt)
                    v = solve(child, sub, cd, best - total - rem, -1, M, found, arow, lbt, zs, zg, zd, memo,
                              capped, hard, glet, gcnt, counts, ctl)
                total += v
                if total + rem >= best:
                    ok = False
                    break
            if ctl[1] != 0:
                return INF
            if ok and total < best:
                best = total
                bestg = g
    if ctl[1] != 0:
        return INF
    if forced >= 0:
        if bestg >= 0:
            ctl[3] = bestg
        return best
    if best < beta:
        memo[(h1, h2)] = (min(best, INF) << 33) | (1 << 32) | bestg
        return best
    bound = max(lbn, beta)
    memo[(h1, h2)] = min(bound, INF) << 33
    return bound


def search(S, allowed, d, beta, forced, M, found, arow, lbt, zs, zg, zd, memo, capped, hard, glet, gcnt, counts,
           ctl):
    """The entry point: :func:`solve` (compiled, its recursion must start inside compiled code)."""
    return solve(S, allowed, d, beta, forced, M, found, arow, lbt, zs, zg, zd, memo, capped, hard, glet, gcnt,
                 counts, ctl)
