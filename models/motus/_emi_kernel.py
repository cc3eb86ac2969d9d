"""The compiled minimax search behind :class:`emi.GameTree` (numba; optional extra ``emi``).

One call ``fits(p, k)`` answers "can every secret of ``p`` be found within ``k`` proposals?" with the
bounds and cutoffs of the numpy path (bounds from the number of feedback classes, proposals tried in order
of their largest class, a proposal dropped at its first class that does not fit, largest first, and for a
part to be done in one more proposal only guesses that made at least that many classes on the parent set,
most classes first, each dropped at its first collision), and instead of a per-set cache, refutation
witnesses:

* a failing set ``F`` at depth ``j`` (not solvable in ``j`` proposals) keeps a small *witness* ``W`` ⊆ ``F``
  that fails too.  At depth 2 it is a set on which every guess has two words with the same feedback (built
  greedily over the guesses, then shrunk); at depth ``j > 2`` it is the union of the depth ``j - 1``
  witnesses that refuted each proposal, or a set larger than the count bound allows;
* fits is monotone (a superset is never easier), so a proposal whose feedback puts a kept witness of depth
  ``>= k - 1`` inside one class (not the found class) is refuted at once, and a set that contains a kept
  witness of depth ``>= k`` fails at once.  The most recently useful witness is tried first (killer).

Every witness is proven when it is kept (never a heuristic), so every answer is exact.  The search runs
whole inside the compiled code; the time limit is read through ``objmode`` every 1024 nodes.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numba as nb
import numpy as np

KMAX = 16      # deepest search depth (proposals) the buffers hold
NW = 2048      # witnesses kept per depth (a ring: the oldest is overwritten)
WCAP = 1024    # largest witness kept
SHRINK = 12    # depth-2 witnesses up to this size are shrunk one word at a time
MIN_SLOTS = 64  # fewest witnesses per depth worth a search (the ring shrinks to fit the memory budget)

_CLOCK: list[Callable[[], float]] = [lambda: 0.0]


def _now() -> float:
    return float(_CLOCK[0]())


@nb.njit(cache=True)
def _newtag(ints):
    ints[2] += 1
    return ints[2]


@nb.njit(cache=False)  # objmode blocks do not survive numba's cache
def _tick(ints, deadline):
    ints[0] += 1
    if ints[1] == 0 and (ints[0] & 1023) == 0 and deadline[0] < np.inf:
        with nb.objmode(t="float64"):
            t = _now()
        if t > deadline[0]:
            ints[1] = 1
    return ints[1] != 0


@nb.njit(cache=True)
def _separates(row, items, n, stamp, t):
    for i in range(n):
        c = row[items[i]]
        if stamp[c] == t:
            return False
        stamp[c] = t
    return True


@nb.njit(cache=True)
def _witness2(mat, d_items, n, out, stamp, cnt, mark, ints):
    """A small subset of ``d_items`` on which every guess has a collision (``d_items`` has one per guess).
    Written to ``out``; returns its size, or -1 if some guess separates ``d_items`` (never, by the caller)."""
    w = 0
    wt = _newtag(ints)
    for g in range(mat.shape[0]):
        row = mat[g]
        t = _newtag(ints)
        if not _separates(row, out, w, stamp, t):
            continue
        added = False
        for i in range(n):  # one word meeting a word of the witness
            x = d_items[i]
            if mark[x] != wt and stamp[row[x]] == t:
                out[w] = x
                mark[x] = wt
                w += 1
                added = True
                break
        if not added:  # two words of the set meeting each other
            t2 = _newtag(ints)
            for i in range(n):
                x = d_items[i]
                if mark[x] == wt:
                    continue
                c = row[x]
                if stamp[c] == t2:
                    out[w] = cnt[c]
                    out[w + 1] = x
                    mark[cnt[c]] = wt
                    mark[x] = wt
                    w += 2
                    added = True
                    break
                stamp[c] = t2
                cnt[c] = x
        if not added:
            return -1
    if w <= SHRINK:  # drop words one at a time while every guess still has a collision
        j = w - 1
        while j >= 0:
            tmp = out[j]
            out[j] = out[w - 1]
            ok = True
            for g in range(mat.shape[0]):
                if _separates(mat[g], out, w - 1, stamp, _newtag(ints)):
                    ok = False
                    break
            if ok:
                w -= 1
            else:
                out[w - 1] = out[j]
                out[j] = tmp
            j -= 1
    return w


@nb.njit(cache=True)
def _keep(wit, wsz, wcount, level, items, n):
    if n < 2 or n > wit.shape[2]:
        return
    slot = wcount[level] % wit.shape[1]
    wit[level, slot, :n] = items[:n]
    wsz[level, slot] = n
    wcount[level] += 1


@nb.njit(cache=True)
def _add_union(ubuf, ulen, umark, k, items, n, utag):
    for i in range(n):
        x = items[i]
        if umark[k, x] != utag:
            umark[k, x] = utag
            ubuf[k, ulen[k]] = x
            ulen[k] += 1


@nb.njit(cache=True)
def _fits2(mat, items, n, bound, order, use_order, stamp, ints):
    rows = order.shape[0] if use_order else mat.shape[0]
    for r in range(rows):
        g = order[r] if use_order else r
        if use_order and bound[g] < n:
            break  # rows sorted by bound, largest first
        if _separates(mat[g], items, n, stamp, _newtag(ints)):
            return True
    return False


@nb.njit(cache=False)
def _fits(S, items, k, bound, order, use_order):
    """1: ``items`` (sorted answer indices) can be done in ``k`` proposals; 0: it cannot, and ``wlen[k]``
    is the size of a proven witness in ``wout[k]`` (-1 when none was kept); -1: out of time."""
    (mat, found, stamp, cnt, ints, deadline, partbuf, dbuf, largest, ccode, cstart, csize,
     wout, wlen, umark, ubuf, ulen, member, wit, wsz, wcount) = S
    m = items.shape[0]
    if m <= 1:
        return 1
    if k <= 1:
        wout[k, 0] = items[0]
        wout[k, 1] = items[1]
        wlen[k] = 2
        return 0
    if _tick(ints, deadline):
        return -1
    if k == 2:
        if _fits2(mat, items, m, bound, order, use_order, stamp, ints):
            return 1
        wlen[2] = _witness2(mat, items, m, wout[2], stamp, cnt, member[2], ints)
        return 0
    G = mat.shape[0]
    levels = wit.shape[0]
    # kept witnesses inside this set: of depth >= k it fails now; of depth k - 1 they refute proposals
    mt = _newtag(ints)
    for i in range(m):
        member[k, items[i]] = mt
    ring = wit.shape[1]
    wcap = wit.shape[2]
    room = 256
    for lv in range(k - 1, levels):
        room += min(wcount[lv], ring)
    app_level = np.empty(room, dtype=np.int64)
    app_gen = np.empty(room, dtype=np.int64)  # insertion number: slot gen % ring while not overwritten
    napp = 0
    for lv in range(k - 1, levels):
        cntw = min(wcount[lv], ring)
        for s0 in range(cntw):
            gen = wcount[lv] - 1 - s0  # most recent first
            s = gen % ring
            n_w = wsz[lv, s]
            inside = True
            for i in range(n_w):
                if member[k, wit[lv, s, i]] != mt:
                    inside = False
                    break
            if inside:
                if lv >= k:
                    wout[k, :n_w] = wit[lv, s, :n_w]
                    wlen[k] = n_w
                    return 0
                app_level[napp] = lv
                app_gen[napp] = gen
                napp += 1
    # classes per guess: the number (bound for the parts) and the largest (order, count cutoff)
    d = dbuf[k]
    big = largest[k]
    maxd = 0
    for g in range(G):
        row = mat[g]
        t = _newtag(ints)
        dist = 0
        most = 0
        for i in range(m):
            c = row[items[i]]
            if stamp[c] != t:
                stamp[c] = t
                cnt[c] = 0
                dist += 1
            cnt[c] += 1
            if c != found and cnt[c] > most:
                most = cnt[c]
        d[g] = dist
        big[g] = most
        if dist > maxd:
            maxd = dist
    if maxd >= m:
        return 1
    cap = 1  # a part larger than maxd ** (k - 2) cannot be done in k - 1
    for _ in range(k - 2):
        cap = min(cap * maxd, m)
    guess_order = np.argsort(big, kind="mergesort")
    child_order = np.argsort(-d, kind="mergesort")
    utag = _newtag(ints)
    ulen[k] = 0
    proven = True  # every proposal refuted so far has a kept witness in the union
    for r in range(G):
        g = guess_order[r]
        if d[g] < 2:
            continue  # no information on this set: never needed
        row = mat[g]
        # a kept witness inside one class (not the found one): refuted at once
        hit = -1
        for a in range(napp):
            lv = app_level[a]
            if wcount[lv] > app_gen[a] + ring:
                continue  # overwritten since
            s = app_gen[a] % ring
            c0 = row[wit[lv, s, 0]]
            if c0 == found:
                continue
            same = True
            for i in range(1, wsz[lv, s]):
                if row[wit[lv, s, i]] != c0:
                    same = False
                    break
            if same:
                hit = a
                break
        if hit >= 0:
            lv = app_level[hit]
            gen = app_gen[hit]
            s = gen % ring
            if proven:
                _add_union(ubuf, ulen, umark, k, wit[lv, s], wsz[lv, s], utag)
            if hit > 0:  # killer: try it first next time
                app_level[1:hit + 1] = app_level[:hit].copy()
                app_gen[1:hit + 1] = app_gen[:hit].copy()
                app_level[0] = lv
                app_gen[0] = gen
            continue
        # partition by feedback (counting sort; parts keep their order), largest part first
        t = _newtag(ints)
        nd = 0
        for i in range(m):
            c = row[items[i]]
            if stamp[c] != t:
                stamp[c] = t
                cnt[c] = 0
                ccode[k, nd] = c
                nd += 1
            cnt[c] += 1
        sizes = np.empty(nd, dtype=np.int64)
        for j in range(nd):
            sizes[j] = cnt[ccode[k, j]]
        by_size = np.argsort(-sizes, kind="mergesort")
        pos = 0
        for j in range(nd):
            c = ccode[k, by_size[j]]
            cstart[k, j] = pos
            csize[k, j] = cnt[c]
            pos += cnt[c]
            cnt[c] = cstart[k, j]
        codes_sorted = np.empty(nd, dtype=np.int64)
        for j in range(nd):
            codes_sorted[j] = ccode[k, by_size[j]]
        for i in range(m):
            x = items[i]
            c = row[x]
            partbuf[k, cnt[c]] = x
            cnt[c] += 1
        if big[g] > cap:
            # refuted by counting; the witness is a part too large for k - 1 (shrunk at depth 2)
            if proven:
                j = 0
                while codes_sorted[j] == found:
                    j += 1
                part = partbuf[k, cstart[k, j]:cstart[k, j] + csize[k, j]]
                if k - 1 == 2:
                    nw = _witness2(mat, part, part.shape[0], wout[2], stamp, cnt, member[2], ints)
                    if nw >= 2:
                        _keep(wit, wsz, wcount, 2, wout[2], nw)
                        _add_union(ubuf, ulen, umark, k, wout[2], nw, utag)
                    else:
                        proven = False
                elif cap + 1 <= wcap:
                    _keep(wit, wsz, wcount, k - 1, part, cap + 1)
                    _add_union(ubuf, ulen, umark, k, part, cap + 1, utag)
                else:
                    proven = False
            continue
        ok = True
        for j in range(nd):
            if codes_sorted[j] == found or csize[k, j] < 2:
                continue
            part = partbuf[k, cstart[k, j]:cstart[k, j] + csize[k, j]]
            res = _fits(S, part, k - 1, d, child_order, True)
            if res < 0:
                return -1
            if res == 0:
                ok = False
                nw = wlen[k - 1]
                if nw >= 2:
                    if proven:
                        _add_union(ubuf, ulen, umark, k, wout[k - 1], nw, utag)
                    if nw <= wcap:
                        _keep(wit, wsz, wcount, k - 1, wout[k - 1], nw)
                        # it lies inside this set: try it first on the proposals still to come
                        if napp == app_level.shape[0]:
                            napp -= 1
                        app_level[1:napp + 1] = app_level[:napp].copy()
                        app_gen[1:napp + 1] = app_gen[:napp].copy()
                        app_level[0] = k - 1
                        app_gen[0] = wcount[k - 1] - 1
                        napp += 1
                else:
                    proven = False
                break
        if ok:
            return 1
    if proven and ulen[k] >= 2:
        wout[k, :ulen[k]] = ubuf[k, :ulen[k]]
        wlen[k] = ulen[k]
    else:
        wlen[k] = -1
    return 0


def buffer_bytes(guesses: int, answers: int, n_codes: int, slots: int = NW) -> int:
    """The bytes :class:`Kernel` allocates for a ``guesses x answers`` matrix with ``n_codes`` feedback codes
    and ``slots`` witnesses per depth, the deepest recursion's scratch included (the matrix itself aside)."""
    wcap = max(2, min(WCAP, answers))
    a, g = max(answers, 2), guesses
    per_depth = 8 * (8 * a + 2 * g) + slots * (4 * wcap + 8) + 16  # the (depth, ...) tables and the witness ring
    per_frame = 16 * (256 + KMAX * slots) + 16 * g + 16 * min(n_codes, a)  # kept-witness list, argsorts, classes
    return KMAX * (per_depth + per_frame) + 16 * n_codes + 16 * g


def slots_within(guesses: int, answers: int, n_codes: int, room: int) -> int:
    """The most witnesses per depth (at most :data:`NW`, halved from there) whose buffers fit in ``room``
    bytes; 0 when not even :data:`MIN_SLOTS` fit."""
    slots = NW
    while slots >= MIN_SLOTS:
        if buffer_bytes(guesses, answers, n_codes, slots) <= room:
            return slots
        slots //= 2
    return 0


class Kernel:
    """The buffers of one search (one feedback matrix); witnesses persist across calls.

    ``slots``: witnesses kept per depth (a ring), so that the store never grows past its first size."""

    def __init__(self, matrix: np.ndarray, found: int, clock: Callable[[], float], slots: int = NW) -> None:
        mat = np.asarray(matrix)
        if mat.dtype != np.uint16 and mat.size:  # one compiled variant for word cells: uint16 codes
            if int(mat.max()) < 1 << 16 and found < 1 << 16:
                mat = mat.astype(np.uint16)
            else:  # long words: dense codes
                _, inv = np.unique(np.append(mat.ravel(), found), return_inverse=True)
                found = int(inv[-1])
                mat = inv[:-1].reshape(mat.shape).astype(np.uint16 if found < 1 << 16 else np.int32)
        mat = np.ascontiguousarray(mat)
        n_codes = max(int(mat.max()) if mat.size else 0, found) + 1
        G, A = mat.shape
        wcap = max(2, min(WCAP, A))  # a witness is a set of answers: never more than A
        self.clock = clock
        self.deadline = np.array([np.inf])
        self.ints = np.zeros(3, dtype=np.int64)  # nodes, timed out, last tag
        lv = KMAX
        self.S = (mat, found, np.zeros(n_codes, np.int64), np.zeros(n_codes, np.int64), self.ints, self.deadline,
                  np.zeros((lv, A), np.int64), np.zeros((lv, G), np.int64), np.zeros((lv, G), np.int64),
                  np.zeros((lv, A), np.int64), np.zeros((lv, A), np.int64), np.zeros((lv, A), np.int64),
                  np.zeros((lv, max(A, 2)), np.int64), np.full(lv, -1, np.int64), np.zeros((lv, A), np.int64),
                  np.zeros((lv, A), np.int64), np.zeros(lv, np.int64), np.zeros((lv, A), np.int64),
                  np.zeros((lv, slots, wcap), np.int32), np.zeros((lv, slots), np.int64), np.zeros(lv, np.int64))
        self._all = np.arange(G, dtype=np.int64)
        self._bound = np.zeros(G, dtype=np.int64)

    def witnesses(self) -> list[tuple[int, np.ndarray]]:
        """The kept witnesses: (depth, answer indices) that cannot be done in ``depth`` proposals."""
        wit, wsz, wcount = self.S[-3:]
        ring = wit.shape[1]
        out = []
        for level in range(KMAX):
            for gen in range(max(0, int(wcount[level]) - ring), int(wcount[level])):
                s = gen % ring
                out.append((level, wit[level, s, :wsz[level, s]].copy()))
        return out

    @property
    def nodes(self) -> int:
        return int(self.ints[0])

    def fits(self, p: np.ndarray, k: int, deadline: float | None) -> int:
        """1 or 0 as :meth:`GameTree.fits`, -1 when ``deadline`` (on the clock) passed."""
        if k >= KMAX:
            raise ValueError(f"depth {k} beyond the compiled search ({KMAX - 1})")
        _CLOCK[0] = self.clock
        self.deadline[0] = math.inf if deadline is None else deadline
        if deadline is not None and self.clock() > deadline:
            return -1
        self.ints[1] = 0
        items = np.ascontiguousarray(np.sort(np.asarray(p, dtype=np.int64)))
        return int(_fits(self.S, items, max(k, 0), self._bound, self._all, False))
