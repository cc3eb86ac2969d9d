"""The one-ply class bound behind :mod:`.openers`, in the plain-Python subset numba compiles (loaded as Python or
compiled by :func:`sleuth.jit.load_kernel`, with the same answers).

``ply_bound`` is a proven lower bound of the optimal total of a candidate set ``S``: the least, over every
guess ``g`` of ``pool``, of ``n + sum lbt[class]`` over the feedback classes of ``g`` on ``S`` (the found class
excluded), where ``lbt`` is the class-size bound of :func:`.optimal.lower_bounds` one level down.  A guess that
puts every answer in one class and cannot win is skipped (a tree never needs it).  The possible answers are
tried first: the best of them cuts the sweep over the other guesses short (``early``).
"""

from __future__ import annotations


INF = 1 << 30


def one_guess(MT, g, S, found, dl, marks, gen, limit):
    """``n + sum lbt[class]`` of guess ``g`` (column ``g`` of ``MT``) on ``S``, or a value ``>= limit`` once
    that is certain; INF when ``g`` splits nothing and cannot win.  ``marks[0, c] == gen`` says code ``c``
    was seen in this call, ``marks[1, c]`` its count so far; ``dl[x] = lbt[x + 1] - lbt[x]``."""
    n = S.shape[0]
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
            left = n - 2 - i
            return tot + left if left > 0 else tot
    if k == 1 and MT[S[0], g] != found:
        return INF
    return tot


def ply_bound(MT, S, pool, arow, found, dl, marks, stamp):
    """The one-ply bound of ``S`` (see the module docstring) and the next stamp of ``marks`` (kept by the
    caller across calls, so that ``marks`` never needs clearing)."""
    n = S.shape[0]
    best = INF
    gen = stamp
    for i in range(n):
        gen += 1
        b = one_guess(MT, arow[S[i]], S, found, dl, marks, gen, best)
        if b < best:
            best = b
    if best == 2 * n - 1:  # a possible answer splitting the rest into singletons: nothing does better
        return best, gen
    for j in range(pool.shape[0]):
        gen += 1
        b = one_guess(MT, pool[j], S, found, dl, marks, gen, best)
        if b < best:
            best = b
    return best, gen
