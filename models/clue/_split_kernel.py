"""The inner loops of Clue's counting passes kept apart by a player's view, compiled with numba
(:mod:`sleuth.jit`; :func:`.compiled.split_kernel` loads them): without numba the numpy code of
:meth:`.split.SplitCounter.split` and :mod:`.others` runs instead, and tests check that both agree.

A layer of the split pass is stored by *record*: records never merge (a move adds to a record a field or a
bit no earlier move touched), so the layer is a list of records, each with its own few (state, deals,
envelope groups) entries, the states numbered in the layer's sorted distinct states.  The transitions are
computed once per distinct state (numpy, a few hundred states); a step applies them to every entry, adding
up the entries of one record that reach the same state in dense scratch arrays (no hashing, no sorting).
A record whose entries are another record's times whole numbers is kept as a *copy* (that record and the
factors, no entries): a step gives it that record's children as copies, without reading anything.

The loops over entries and transitions index with unsigned integers (``np.uint64``): numba checks every signed
index for a negative value, which cost the split passes 13-16% (measured on the slowest three-player states).
"""

from __future__ import annotations

import math

import numpy as np


COPY_PROBES = 8   # earlier children compared at most per child (records of one hash but not multiples)


def split_layer(rec_start: np.ndarray, rec_val: np.ndarray, group_start: np.ndarray, src_rec: np.ndarray,
                src_factor: np.ndarray, src_factor2: np.ndarray, grp_ref: np.ndarray, grp_k: np.ndarray,
                grp_k2: np.ndarray, ent_state: np.ndarray, ent_num: np.ndarray,
                ent_num2: np.ndarray, ent_or: np.ndarray, tr_start: np.ndarray, tr_dst: np.ndarray,
                tr_ways: np.ndarray, tr_cls: np.ndarray, tr_or: np.ndarray, cls_inc: np.ndarray, n_next: int,
                tr_start2: np.ndarray, tr_dst2: np.ndarray, tr_ways2: np.ndarray, tr_cls2: np.ndarray,
                tr_or2: np.ndarray, cls_inc2: np.ndarray, n_next2: int,
                use_num2: bool, use_or: bool, copy_from: int, out_rec_start: np.ndarray, out_rec_val: np.ndarray,
                out_state: np.ndarray, out_num: np.ndarray, out_num2: np.ndarray, out_or: np.ndarray,
                out_ref: np.ndarray, out_k: np.ndarray, out_k2: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                           np.ndarray, np.ndarray, int, int]:
    """One step, or two: record ``r`` holds the entries ``rec_start[r]:rec_start[r + 1]`` (state index, deals, a
    second count of deals with ``use_num2``, OR of envelope groups).  The step reads them merged: its record
    ``g``, of value ``rec_val[g]``, is the records ``src_rec[group_start[g]:group_start[g + 1]]`` together,
    the deals of each times its ``src_factor`` and the second count times its ``src_factor2`` (1 where that is
    empty); with no ``group_start`` (empty), every record on its own.  A record ``g`` with ``grp_ref[g] >= 0``
    (``grp_ref`` not empty) is ``grp_k[g]`` times the earlier record ``grp_ref[g]`` (its second count
    ``grp_k2[g]`` times): it is not computed, its children are that record's, as *copies* (below).  State
    ``s`` has the transitions ``tr_start[s]:tr_start[s + 1]`` (next state, ways, class of the record's
    increment, envelope group bit; without ``use_or`` the envelope groups are not kept and the output's are
    left unset, likewise the second count).  With a second step (``cls_inc2`` not empty, its transitions the
    same way from the first step's ``n_next`` states to ``n_next2``), each record's entries after the first
    step go through the second one at once, without being written out.  Writes the next layer the same way
    to the ``out_`` buffers (the caller sizes them for the most the layer may hold; replaced by larger ones
    here when too small) and returns them with the numbers of records and entries written; each record's
    children in the order of the classes (of the first step, then the second).

    Copies: an output record with ``out_ref[o] >= 0`` has no entries of its own; its entries are those of the
    earlier output record ``out_ref[o]`` (which has its own), the deals times ``out_k[o]`` and the second count
    times ``out_k2[o]``.  A child computed here of ``copy_from`` entries or more (none with 0) whose entries
    are, in order, those of an earlier computed child of this call times whole numbers (the same states and
    envelope groups) is written as such a copy (a hash of its states and of its counts' proportions, then an
    exact check against at most :data:`COPY_PROBES` children of that hash)."""
    n_cls = cls_inc.shape[0]
    n_cls2 = cls_inc2.shape[0]
    two = n_cls2 > 0
    n_rec = rec_val.shape[0]
    most_rec = n_rec * n_cls * (n_cls2 if two else 1)
    if out_rec_val.shape[0] < most_rec:
        out_rec_val = np.empty(most_rec, np.int64)
        out_rec_start = np.empty(most_rec + 1, np.int64)
    if out_ref.shape[0] < most_rec:
        out_ref = np.empty(most_rec, np.int64)
        out_k = np.empty(most_rec, np.int64)
        out_k2 = np.empty(most_rec, np.int64)
    cell = np.empty((tr_dst.shape[0], 2), np.int64)   # a transition's cell: (class, next state), and its ways
    for t in range(tr_dst.shape[0]):
        cell[t, 0] = tr_cls[t] * n_next + tr_dst[t]
        cell[t, 1] = tr_ways[t]
    cell2 = np.empty((tr_dst2.shape[0], 2), np.int64)
    for t in range(tr_dst2.shape[0]):
        cell2[t, 0] = tr_cls2[t] * n_next2 + tr_dst2[t]
        cell2[t, 1] = tr_ways2[t]
    cap = out_state.shape[0]
    # per cell, side by side (one cache line): deals, second count, OR (the last two columns only where they are
    # kept: a third of the memory a pass without them reads and writes).  A cell is reached when its deals are not
    # 0 (every entry's deals are positive) and set back to 0 once read: no mark column (the passes' scratch
    # arrays, larger than the cache, half as large without it: the split passes about 15% faster, measured on
    # suggest --show of example:clue/master-detective)
    width = 3 if use_num2 or use_or else 1
    acc = np.zeros((n_cls * n_next, width), np.int64)
    touched = np.empty(n_cls * n_next, np.int64)   # per class c, from c * n_next: the cells reached
    count = np.zeros(n_cls, np.int64)
    acc2 = np.zeros((n_cls2 * n_next2, width), np.int64)   # the same after the second step
    touched2 = np.empty(n_cls2 * n_next2, np.int64)
    count2 = np.zeros(n_cls2, np.int64)
    # where the children are read from: the first step's cells, or the second's
    out_acc, out_touched, out_count, out_next, out_inc = (acc2, touched2, count2, n_next2, cls_inc2) if two else \
        (acc, touched, count, n_next, cls_inc)
    merged = group_start.shape[0] > 0
    factor2 = src_factor2.shape[0] > 0
    copies = grp_ref.shape[0] > 0
    first_child = np.empty(n_rec + 1, np.int64)   # record r's children: first_child[r]:first_child[r + 1]
    # the hash table of the computed children checked (open addressing; four slots per record read, filled to
    # half at most: small enough to stay in the cache)
    size = 1024
    while copy_from and size < 4 * n_rec:
        size *= 2
    table = np.full(size if copy_from else 0, -1, np.int32)
    free = size // 2
    n_out = 0
    n_out_rec = 0
    for r in range(n_rec):
        first_child[r] = n_out_rec
        if copies and grp_ref[r] >= 0:   # a copy of an earlier record: copies of its children
            q = grp_ref[r]
            for j in range(first_child[q], first_child[q + 1]):
                out_rec_val[n_out_rec] = rec_val[r] + out_rec_val[j] - rec_val[q]
                out_rec_start[n_out_rec] = n_out
                whole = out_ref[j] < 0
                out_ref[n_out_rec] = j if whole else out_ref[j]
                out_k[n_out_rec] = grp_k[r] * (1 if whole else out_k[j])
                out_k2[n_out_rec] = grp_k2[r] * (1 if whole else out_k2[j])
                n_out_rec += 1
            continue
        g0, g1 = (group_start[r], group_start[r + 1]) if merged else (r, r + 1)
        for g in range(g0, g1):
            sr = src_rec[g] if merged else g
            f = src_factor[g] if merged else 1
            f2 = src_factor2[g] if factor2 else 1
            for e in range(np.uint64(rec_start[sr]), np.uint64(rec_start[sr + 1])):
                s = ent_state[e]
                num = ent_num[e] * f
                env = ent_or[e] if use_or else 0
                num2 = ent_num2[e] * f2 if use_num2 else 0
                _reach(acc, touched, count, n_next, cell, tr_start, tr_cls, tr_or, s, num, num2, env, use_num2, use_or)
        # the children written out: of the first step, or of each first-step child through the second step
        for c1 in range(n_cls if two else 1):
            base = rec_val[r]
            if two:
                if count[c1] == 0:
                    continue
                # the child record of class c1 (its cells listed from c1 * n_next)
                lo = c1 * n_next
                # the same as above, from the cells of the first step
                for j in range(np.uint64(lo), np.uint64(lo + count[c1])):
                    i1 = np.uint64(touched[j])
                    s = touched[j] - lo
                    num = acc[i1, 0]
                    num2 = acc[i1, 1] if use_num2 else 0
                    env = acc[i1, 2] if use_or else 0
                    acc[i1, 0] = 0
                    _reach(acc2, touched2, count2, n_next2, cell2, tr_start2, tr_cls2, tr_or2, s, num, num2, env,
                           use_num2, use_or)
                count[c1] = 0
                base += cls_inc[c1]
            n_touched = 0
            for c in range(out_inc.shape[0]):
                n_touched += out_count[c]
            if n_out + n_touched > cap:
                cap = max(2 * cap, n_out + n_touched, 1024)
                grown_state = np.empty(cap, out_state.dtype)   # int32 (the split passes') or int64
                grown_state[:n_out] = out_state[:n_out]
                out_state = grown_state
                grown = np.empty(cap, np.int64)
                grown[:n_out] = out_num[:n_out]
                out_num = grown
                if use_num2:
                    grown = np.empty(cap, np.int64)
                    grown[:n_out] = out_num2[:n_out]
                    out_num2 = grown
                if use_or:
                    grown = np.empty(cap, np.int64)
                    grown[:n_out] = out_or[:n_out]
                    out_or = grown
            for c in range(out_inc.shape[0]):   # a child record per class reached, its entries together
                k = out_count[c]
                if k == 0:
                    continue
                out_rec_val[n_out_rec] = base + out_inc[c]
                out_rec_start[n_out_rec] = n_out
                out_ref[n_out_rec] = -1
                out_k[n_out_rec] = 1
                out_k2[n_out_rec] = 1
                s0 = n_out
                check = copy_from > 0 and k >= copy_from   # is it a copy? (hashed as it is written)
                h = k
                lo = c * out_next
                for j in range(np.uint64(lo), np.uint64(lo + k)):
                    i = np.uint64(out_touched[j])
                    o = np.uint64(n_out)
                    out_state[o] = out_touched[j] - lo
                    out_num[o] = out_acc[i, 0]
                    if use_num2:
                        out_num2[o] = out_acc[i, 1]
                    if use_or:
                        out_or[o] = out_acc[i, 2]
                    if check:
                        h = _mix(_mix(h, out_touched[j] - lo), out_acc[i, 2] if use_or else 0)
                    out_acc[i, 0] = 0
                    n_out += 1
                out_count[c] = 0
                if check:
                    h = _proportions(h, out_num, s0, n_out)
                    if use_num2:
                        h = _proportions(h, out_num2, s0, n_out)
                    slot = h & (size - 1)
                    probes = 0
                    while table[slot] >= 0 and probes < COPY_PROBES:
                        probes += 1
                        o = table[slot]
                        f = _multiple(out_state, out_or, out_num, out_rec_start[o], out_rec_start[o + 1], s0, n_out,
                                      use_or, True)
                        f2 = _multiple(out_state, out_or, out_num2, out_rec_start[o], out_rec_start[o + 1], s0, n_out,
                                       False, False) if f > 0 and use_num2 else 1
                        if f > 0 and f2 > 0:
                            out_ref[n_out_rec] = o
                            out_k[n_out_rec] = f
                            out_k2[n_out_rec] = f2
                            n_out = s0   # its entries are the other child's: not kept
                            break
                        slot = (slot + 1) & (size - 1)
                    if out_ref[n_out_rec] < 0 and table[slot] < 0 and free > 0:
                        table[slot] = n_out_rec
                        free -= 1
                n_out_rec += 1
    first_child[n_rec] = n_out_rec
    out_rec_start[n_out_rec] = n_out
    return out_rec_start, out_rec_val, out_state, out_num, out_num2, out_or, out_ref, out_k, out_k2, n_out_rec, n_out


def entries_bound(rec_start: np.ndarray, group_start: np.ndarray, src_rec: np.ndarray, grp_ref: np.ndarray,
                  ent_state: np.ndarray, fan: np.ndarray) -> int:
    """The most entries :func:`split_layer` writes from the same records (its arguments of those names): per
    entry read, the transitions of its state (``fan``, per state; of both steps where it runs two), a record
    computed as a copy reading none.  Tighter than the entries read times the most of one state, and one pass
    over the state column."""
    merged = group_start.shape[0] > 0
    copies = grp_ref.shape[0] > 0
    n = group_start.shape[0] - 1 if merged else rec_start.shape[0] - 1
    total = 0
    for g in range(n):
        if copies and grp_ref[g] >= 0:
            continue
        for j in range(group_start[g] if merged else g, group_start[g + 1] if merged else g + 1):
            r = src_rec[j] if merged else j
            for e in range(np.uint64(rec_start[r]), np.uint64(rec_start[r + 1])):
                total += fan[ent_state[e]]
    return total


def _proportions(h: int, num: np.ndarray, lo: int, hi: int) -> int:
    """``h`` hashed further (:func:`_mix`) with what a record's counts ``num[lo:hi]`` keep when multiplied by a
    whole number: the middle and the last count as fractions of the first."""
    for e in ((lo + hi) // 2, hi - 1):
        h = _mix_ratio(h, num[e], num[lo])
    return h


def _mix(h: int, x: int) -> int:
    """A hash ``h`` (0 <= h < 2**31 - 1) mixed with ``x`` (0 <= x): int64 throughout, never wrapping."""
    return (h * 16777619 + x % 2147483647) % 2147483647


def _mix_ratio(h: int, a: int, b: int) -> int:
    """A hash ``h`` mixed with the fraction ``a / b`` (positive) to 24 bits: its binary exponent and mantissa."""
    m, e = math.frexp(a / b)
    return _mix(_mix(h, e + 4096), int(m * 16777216.0))


def _multiple(state: np.ndarray, env: np.ndarray, num: np.ndarray, lo: int, hi: int, lo2: int, hi2: int,
              use_or: bool, same_states: bool) -> int:
    """The whole number ``f`` such that the entries ``lo2:hi2`` are those of ``lo:hi`` with their counts ``num``
    times ``f`` (with ``same_states``, also the same ``state``, and envelope groups with ``use_or``), in order; 0
    where there is none (also where a product would pass 9e18: int64 never wraps here).  Also for merged
    records: their sources as ``state``, their factors as ``num``."""
    if hi - lo != hi2 - lo2 or num[lo] <= 0 or num[lo2] % num[lo]:
        return 0
    f = num[lo2] // num[lo]
    bound = 9.0e18 / f
    for e in range(hi - lo):
        u, v = lo2 + e, lo + e
        if same_states and (state[u] != state[v] or (use_or and env[u] != env[v])):
            return 0
        if num[v] > bound or num[v] * f != num[u]:
            return 0
    return f


def _reach(acc: np.ndarray, touched: np.ndarray, count: np.ndarray, n_next: int, cell: np.ndarray,
           tr_start: np.ndarray, tr_cls: np.ndarray, tr_or: np.ndarray, s: int, num: int, num2: int, env: int,
           use_num2: bool, use_or: bool) -> None:
    """One entry of :func:`split_layer` (state ``s``, deals ``num``, second count ``num2``, envelope groups
    ``env``) through the transitions of its state: added into the cells it reaches (``acc``), a cell reached
    first (its deals 0: the caller sets a cell back to 0 once it has read it) listed in ``touched`` under its class
    (each transition's cell and ways side by side in ``cell``: one cache line; compiled inlined: a call per entry
    made the passes up to twice as slow)."""
    su = np.uint64(s)
    for t in range(np.uint64(tr_start[su]), np.uint64(tr_start[su + np.uint64(1)])):
        i = np.uint64(cell[t, 0])
        w = cell[t, 1]
        if acc[i, 0] == 0:
            c = np.uint64(tr_cls[t])
            touched[np.uint64(c * np.uint64(n_next) + np.uint64(count[c]))] = cell[t, 0]
            count[c] += 1
            acc[i, 0] = num * w
            if use_num2:
                acc[i, 1] = num2 * w
            if use_or:
                acc[i, 2] = env | tr_or[t]
        else:
            acc[i, 0] += num * w
            if use_num2:
                acc[i, 1] += num2 * w
            if use_or:
                acc[i, 2] |= env | tr_or[t]


def merge_records(group_start: np.ndarray, src_rec: np.ndarray, src_factor: np.ndarray, src_factor2: np.ndarray,
                  rec_start: np.ndarray, ent_state: np.ndarray, ent_num: np.ndarray, ent_num2: np.ndarray,
                  ent_or: np.ndarray, n_states: int, use_num2: bool, use_or: bool, out_rec_start: np.ndarray,
                  out_state: np.ndarray, out_num: np.ndarray, out_num2: np.ndarray, out_or: np.ndarray) -> int:
    """Records put together: output record ``o`` gathers the input records ``src_rec[group_start[o]:group_start[o
    + 1]]``, the deals of each times its ``src_factor`` and the second count times its ``src_factor2`` (1 where
    that is empty), adding up the entries of one state (dense scratch arrays over the ``n_states`` states; a
    record of one source is copied as it is, in its order).  Writes the output's entries to the ``out_``
    buffers (sized by the caller for every input entry of every source) and returns how many."""
    mark = np.zeros(n_states, np.int64)
    acc_num = np.zeros(n_states, np.int64)
    acc_num2 = np.zeros(n_states, np.int64)
    acc_or = np.zeros(n_states, np.int64)
    touched = np.empty(n_states, np.int64)
    factor2 = src_factor2.shape[0] > 0
    n_out = 0
    n_groups = group_start.shape[0] - 1
    for o in range(n_groups):
        out_rec_start[o] = n_out
        if group_start[o + 1] - group_start[o] == 1:
            i = group_start[o]
            r = src_rec[i]
            f = src_factor[i]
            f2 = src_factor2[i] if factor2 else 1
            for e in range(rec_start[r], rec_start[r + 1]):
                out_state[n_out] = ent_state[e]
                out_num[n_out] = ent_num[e] * f
                if use_num2:
                    out_num2[n_out] = ent_num2[e] * f2
                if use_or:
                    out_or[n_out] = ent_or[e]
                n_out += 1
            continue
        n_touched = 0
        for i in range(group_start[o], group_start[o + 1]):
            r = src_rec[i]
            f = src_factor[i]
            f2 = src_factor2[i] if factor2 else 1
            for e in range(rec_start[r], rec_start[r + 1]):
                s = ent_state[e]
                if mark[s] != o + 1:
                    mark[s] = o + 1
                    touched[n_touched] = s
                    n_touched += 1
                    acc_num[s] = ent_num[e] * f
                    if use_num2:
                        acc_num2[s] = ent_num2[e] * f2
                    if use_or:
                        acc_or[s] = ent_or[e]
                else:
                    acc_num[s] += ent_num[e] * f
                    if use_num2:
                        acc_num2[s] += ent_num2[e] * f2
                    if use_or:
                        acc_or[s] |= ent_or[e]
        for j in range(n_touched):
            s = touched[j]
            out_state[n_out] = s
            out_num[n_out] = acc_num[s]
            if use_num2:
                out_num2[n_out] = acc_num2[s]
            if use_or:
                out_or[n_out] = acc_or[s]
            n_out += 1
    out_rec_start[n_groups] = n_out
    return n_out


def record_copies(n: int, group_start: np.ndarray, src_rec: np.ndarray, src_factor: np.ndarray, ref: np.ndarray,
                  ref_k: np.ndarray, ref_k2: np.ndarray, dedup: bool
                  ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The ``n`` records a step reads (merged: record ``g`` is the layer's records ``src_rec[group_start[g]:
    group_start[g + 1]]`` times ``src_factor``; every record on its own where ``group_start`` is empty) in the
    form :func:`split_layer` reads them with copies: each source that is a copy (``ref >= 0``: ``ref_k`` times
    record ``ref``, its second count ``ref_k2`` times, :func:`split_layer`'s ``out_`` arrays) replaced by the
    record it copies, the sources of each record sorted and each once (factors added up), with the second
    count's factors; and with ``dedup`` the records that are whole multiples of an earlier one (the same
    sources, both factors the earlier one's times whole numbers; a hash of the sources and the factors'
    proportions, then an exact check of at most :data:`COPY_PROBES` records): ``grp_ref`` (-1 where a record
    is computed), ``grp_k``, ``grp_k2``.  Returns group starts, sources, factors, second factors and those
    three."""
    merged = group_start.shape[0] > 0
    m = group_start[n] if merged else n
    out_start = np.empty(n + 1, np.int64)
    out_src = np.empty(m, np.int64)
    out_f = np.empty(m, np.int64)
    out_f2 = np.empty(m, np.int64)
    grp_ref = np.full(n, -1, np.int64)
    grp_k = np.ones(n, np.int64)
    grp_k2 = np.ones(n, np.int64)
    size = 1
    while dedup and size < 2 * n + 2:
        size *= 2
    table = np.full(size if dedup else 0, -1, np.int32)
    w = 0
    for g in range(n):
        out_start[g] = w
        lo, hi = (group_start[g], group_start[g + 1]) if merged else (g, g + 1)
        for i in range(lo, hi):   # each source in, sorted (insertion: a record has a few sources)
            r = src_rec[i] if merged else i
            f = src_factor[i] if merged else 1
            f2 = 1
            if ref[r] >= 0:
                f, f2, r = f * ref_k[r], ref_k2[r], ref[r]
            j = w
            while j > out_start[g] and out_src[j - 1] > r:
                j -= 1
            if j > out_start[g] and out_src[j - 1] == r:   # twice: the factors added up
                out_f[j - 1] += f
                out_f2[j - 1] += f2
                continue
            for t in range(w, j, -1):
                out_src[t], out_f[t], out_f2[t] = out_src[t - 1], out_f[t - 1], out_f2[t - 1]
            out_src[j], out_f[j], out_f2[j] = r, f, f2
            w += 1
        if not dedup:
            continue
        lo = out_start[g]
        h = _mix(w - lo, out_src[lo])
        for i in range(lo + 1, w):   # (the first factors' proportion is 1)
            h = _mix_ratio(_mix_ratio(_mix(h, out_src[i]), out_f[i], out_f[lo]), out_f2[i], out_f2[lo])
        slot = h & (size - 1)
        probes = 0
        while table[slot] >= 0 and probes < COPY_PROBES:
            probes += 1
            q = table[slot]
            qlo = out_start[q]
            k = _multiple(out_src, out_src, out_f, qlo, out_start[q + 1], lo, w, False, True)   # same sources
            k2 = _multiple(out_src, out_src, out_f2, qlo, out_start[q + 1], lo, w, False, False) if k > 0 else 0
            if k > 0 and k2 > 0:
                grp_ref[g], grp_k[g], grp_k2[g] = q, k, k2
                break
            slot = (slot + 1) & (size - 1)
        if grp_ref[g] < 0 and table[slot] < 0:
            table[slot] = g
    out_start[n] = w
    return out_start, out_src[:w], out_f[:w], out_f2[:w], grp_ref, grp_k, grp_k2


def finish(rec_start: np.ndarray, ent_state: np.ndarray, ent_num: np.ndarray, ent_or: np.ndarray,
           state_ok: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per record of the last layer: its deals and the OR of its envelope groups over the accepted states."""
    n_rec = rec_start.shape[0] - 1
    nums = np.zeros(n_rec, np.int64)
    ors = np.zeros(n_rec, np.int64)
    for r in range(n_rec):
        for e in range(rec_start[r], rec_start[r + 1]):
            if state_ok[ent_state[e]]:
                nums[r] += ent_num[e]
                ors[r] |= ent_or[e]
    return nums, ors


def _record_codes(r: int, resolved: np.ndarray, code: np.ndarray, held: np.ndarray, pair_bit: np.ndarray,
                  codes: np.ndarray, shares: np.ndarray) -> int:
    """The views of record ``r``: its one view once its showings are resolved (``code[r]``, share 1), else
    :func:`_codes` of its held bits; written to ``codes``, ``shares``; returns how many."""
    if resolved[r]:
        codes[0] = code[r]
        shares[0] = 1
        return 1
    return _codes(held[r], pair_bit, codes, shares)


def _codes(held: int, pair_bit: np.ndarray, codes: np.ndarray, shares: np.ndarray) -> int:
    """The views a record's held bits allow: per unseen showing, a suggested card the shower holds (digit:
    its position in the suggestion, the first showing most significant), each with its share times 6 per
    showing (6 / cards held).  Written to ``codes``, ``shares``; returns how many (0 when a showing has none)."""
    u = pair_bit.shape[0]
    n = 1
    codes[0] = 0
    shares[0] = 1
    for j in range(u):
        h = 0
        for k in range(3):
            if pair_bit[j, k] >= 0 and (held >> pair_bit[j, k]) & 1:
                h += 1
        if h == 0:
            return 0
        part = 6 // h
        m = n * h
        for i in range(n - 1, -1, -1):   # from the end: the n old entries spread to n * h new ones in place
            c, s = codes[i], shares[i]
            for k in range(2, -1, -1):
                if pair_bit[j, k] >= 0 and (held >> pair_bit[j, k]) & 1:
                    m -= 1
                    codes[m] = c * 3 + k
                    shares[m] = s * part
        n = n * h
    return n


def _remaining(gi: int, comp: int, group_size: np.ndarray, group_class: np.ndarray, class_shift: np.ndarray,
               class_mask: np.ndarray) -> int:
    k = group_class[gi]
    if k < 0:
        return group_size[gi]
    return group_size[gi] - ((comp >> class_shift[k]) & class_mask[k])


def knowledge_sums(order: np.ndarray, comp: np.ndarray, held: np.ndarray, code: np.ndarray, resolved: np.ndarray,
                   nums: np.ndarray, env: np.ndarray, role: np.ndarray, pair_bit: np.ndarray, n_codes: int,
                   group_cat: np.ndarray,
                   group_size: np.ndarray, group_class: np.ndarray, class_shift: np.ndarray,
                   class_mask: np.ndarray, max_views: int) -> np.ndarray:
    """Rows (records: hand code, held bits, deals, envelope groups), visited in ``order`` (grouped by hand):
    a row with ``role & 1`` weighs its views (deals times its share; a ``resolved`` row is one view, ``code``,
    its deals already weighed), one with ``role & 2`` ORs its
    envelope groups into them.  Per view, the player knows a part when one card of it is possible.  Returns
    the weights of the views that know the envelope, the suspect, the weapon, the room, and in the last
    entry 1 when a weighed view has no row of role 2 (else 0)."""
    out = np.zeros(5, np.int64)
    n_groups = group_size.shape[0]
    cat_mask = np.zeros(3, np.int64)   # per category: its groups, as a bit mask
    for gi in range(n_groups):
        cat_mask[group_cat[gi]] |= np.int64(1) << gi
    acc_w = np.zeros(n_codes, np.int64)
    acc_env = np.zeros(n_codes, np.int64)
    state = np.zeros(n_codes, np.int64)   # bit 1: weighed, bit 2: seen by the player's pass, 4: touched
    touched = np.empty(n_codes, np.int64)
    codes = np.empty(max_views, np.int64)
    shares = np.empty(max_views, np.int64)
    n = order.shape[0]
    i = 0
    while i < n:
        c0 = comp[order[i]]
        n_touched = 0
        while i < n and comp[order[i]] == c0:
            r = order[i]
            i += 1
            k = _record_codes(r, resolved, code, held, pair_bit, codes, shares)
            for j in range(k):
                v = codes[j]
                if state[v] == 0:
                    touched[n_touched] = v
                    n_touched += 1
                    state[v] = 4
                if role[r] & 1:
                    acc_w[v] += nums[r] * shares[j]
                    state[v] |= 1
                if role[r] & 2:
                    acc_env[v] |= env[r]
                    state[v] |= 2
        some = 0    # the groups with a card outside the hand, and those with two or more
        many = 0
        for gi in range(n_groups):
            left = _remaining(gi, c0, group_size, group_class, class_shift, class_mask)
            if left > 0:
                some |= 1 << gi
            if left > 1:
                many |= 1 << gi
        for t in range(n_touched):
            v = touched[t]
            if state[v] & 1 and not state[v] & 2:
                out[4] = 1
            w = acc_w[v]
            known = 0   # a category is known when its possible envelope cards are one group's one card
            for k in range(3):
                x = acc_env[v] & cat_mask[k] & some
                if x != 0 and x & (x - 1) == 0 and x & many == 0:
                    out[1 + k] += w
                    known += 1
            if known == 3:
                out[0] += w
            acc_w[v] = 0
            acc_env[v] = 0
            state[v] = 0
    return out


def belief_sums(order: np.ndarray, comp: np.ndarray, held: np.ndarray, code: np.ndarray, resolved: np.ndarray,
                rec_start: np.ndarray, ent_state: np.ndarray, ent_num: np.ndarray, rec_w: np.ndarray,
                state_triple: np.ndarray, state_out: np.ndarray, n_var: int, role: np.ndarray,
                pair_bit: np.ndarray, n_codes: int, triple_groups: np.ndarray, group_size: np.ndarray,
                group_class: np.ndarray, class_shift: np.ndarray, class_mask: np.ndarray, max_views: int
                ) -> tuple[np.ndarray, np.ndarray, int]:
    """Records (hand code, held bits, entries: final state and deals), visited in ``order`` (grouped by
    hand); a final state's envelope triple: an index in ``triple_groups`` (the three groups it takes its
    cards from), -1 when the state is not a complete deal.  A record with ``role & 1`` weighs its views by
    ``rec_w``, its complete deals (times each view's share; a ``resolved`` record is one view, ``code``, its
    deals weighed already), and needs no entries (one of role 1 alone lists none); one with ``role & 2``
    counts the player's deals per (view, envelope triple) from its entries, in a dense table per hand.
    ``n_var`` variants of the player's deals at once: variant ``q`` leaves out the player's states with bit
    ``q`` of ``state_out`` (the weighing states never are; a function of the state's triple), read off the one
    table per hand (each cell left out of the variants its triple's bits name).  Per variant: the sum over views
    of weight x entropy of the player's envelope distribution (bits) and the weight of the views where one
    envelope is left; and 1 when a weighed view has no deal of role 2 in some variant (else 0)."""
    entropy = np.zeros(n_var, np.float64)
    knows = np.zeros(n_var, np.int64)
    missing = 0
    n_trip = triple_groups.shape[0]
    table = n_codes * n_trip
    triple_out = np.zeros(n_trip, np.int64)   # per triple, the variants that leave it out
    for st in range(state_triple.shape[0]):
        if state_triple[st] >= 0:
            triple_out[state_triple[st]] |= state_out[st]
    acc_w = np.zeros(n_codes, np.int64)
    total = np.zeros(n_var * n_codes, np.int64)
    triples = np.zeros(n_var * n_codes, np.int64)
    ent = np.zeros(n_var * n_codes, np.float64)
    state = np.zeros(n_codes, np.int64)   # bit 0: weighed, 2: touched
    touched = np.empty(n_codes, np.int64)
    cells = np.zeros(table, np.int64)
    cell_list = np.empty(table, np.int64)
    n_groups = group_size.shape[0]
    left = np.empty(n_groups, np.int64)
    n_log = 1 << 12
    log2_of = np.zeros(n_log, np.float64)   # log2 of small integers, looked up
    for x in range(1, n_log):
        log2_of[x] = np.log2(x)
    codes = np.empty(max_views, np.int64)
    shares = np.empty(max_views, np.int64)
    every = (1 << n_var) - 1
    n = order.shape[0]
    i = 0
    while i < n:
        c0 = comp[order[i]]
        n_touched = 0
        n_cells = 0
        while i < n and comp[order[i]] == c0:
            r = order[i]
            i += 1
            k = _record_codes(r, resolved, code, held, pair_bit, codes, shares)
            if k == 0:
                continue
            some = rec_w[r] if role[r] == 1 else 0   # the record's complete deals
            for e in range(rec_start[r], rec_start[r + 1]):
                st = ent_state[e]
                tr = state_triple[st]
                if tr < 0:
                    continue
                num = ent_num[e]
                some += num
                if role[r] & 2:
                    for j in range(k):
                        x = codes[j] * n_trip + tr
                        if cells[x] == 0:
                            cell_list[n_cells] = x
                            n_cells += 1
                        cells[x] += num
            if some == 0:
                continue
            for j in range(k):
                v = codes[j]
                if state[v] == 0:
                    touched[n_touched] = v
                    n_touched += 1
                    state[v] = 4
                if role[r] & 1:
                    acc_w[v] += rec_w[r] if resolved[r] else rec_w[r] * shares[j]
                    state[v] |= 1
        for gi in range(n_groups):   # the cards of each group outside the hand
            left[gi] = _remaining(gi, c0, group_size, group_class, class_shift, class_mask)
        for j in range(n_cells):   # envelopes per cell's triple: the product of its groups' cards left
            x = cell_list[j]
            v = x // n_trip
            tr = x % n_trip
            w = left[triple_groups[tr, 0]] * left[triple_groups[tr, 1]] * left[triple_groups[tr, 2]]
            d = cells[x]
            # the view's entropy is log2(total) + sum(d * (log2 w - log2 d)) / total (d: deals of a cell)
            term = d * ((log2_of[w] if w < n_log else np.log2(w)) - (log2_of[d] if d < n_log else np.log2(d)))
            out = triple_out[tr]
            for q in range(n_var):
                if (out >> q) & 1:
                    continue
                y = q * n_codes + v
                total[y] += d
                triples[y] += w
                ent[y] += term
            cells[x] = 0
        for t in range(n_touched):
            v = touched[t]
            if state[v] & 1:
                seen = 0   # the variants with a deal of the player's in this view
                for q in range(n_var):
                    if total[q * n_codes + v] != 0:
                        seen |= 1 << q
                if seen != every:
                    missing = 1
                if acc_w[v] != 0:
                    for q in range(n_var):
                        y = q * n_codes + v
                        if total[y] != 0:
                            entropy[q] += float(acc_w[v]) * (np.log2(total[y]) + ent[y] / total[y])
                        if triples[y] == 1:
                            knows[q] += acc_w[v]
            acc_w[v] = 0
            for q in range(n_var):
                y = q * n_codes + v
                total[y] = 0
                triples[y] = 0
                ent[y] = 0.0
            state[v] = 0
    return entropy, knows, missing


def read_records(records: np.ndarray, field_shift: np.ndarray, field_mask: np.ndarray, field_to: np.ndarray,
                 pair_pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per record: the hand code (field ``f``, ``(record >> field_shift[f]) & field_mask[f]``, added at bit
    ``field_to[f]``) and the held bits (bit ``i`` from the record's bit ``pair_pos[i]``, 0 where it is -1)."""
    n = records.shape[0]
    comp = np.zeros(n, np.int64)
    held = np.zeros(n, np.int64)
    for r in range(n):
        x = records[r]
        c = 0
        for f in range(field_shift.shape[0]):
            c |= ((x >> field_shift[f]) & field_mask[f]) << field_to[f]
        h = 0
        for i in range(pair_pos.shape[0]):
            if pair_pos[i] >= 0:
                h |= ((x >> pair_pos[i]) & 1) << i
        comp[r] = c
        held[r] = h
    return comp, held


def resolve_records(vals: np.ndarray, group_start: np.ndarray, src_rec: np.ndarray, src_factor: np.ndarray,
                    pos: np.ndarray, clear: int, shift: int, weigh: bool
                    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Merged records (values ``vals``, record ``g`` the layer's records ``src_rec[group_start[g]:group_start[g
    + 1]]`` times ``src_factor``; every record on its own when ``group_start`` is empty) with one showing
    resolved: each record once per card ``k`` of the showing its shower holds (bit ``pos[k]`` of the value;
    -1: never), its value with the bits ``clear`` dropped and ``k`` at bit ``shift``, its deals times 6 /
    (cards held) with ``weigh``.  Records of one value are merged (a hash table, values modulo a prime; in the
    order they first appear).  Returns the new values, group starts, sources and factors."""
    n = vals.shape[0]
    merged = group_start.shape[0] > 0
    size = 6 * n + 3   # a prime at least that (values mod a prime spread well, whatever bits they vary in)
    while True:
        d = 2
        while d * d <= size and size % d:
            d += 1
        if d * d > size:
            break
        size += 1
    slot_val = np.empty(size, np.int64)
    slot_id = np.full(size, -1, np.int64)
    exp_out = np.empty(3 * n, np.int64)   # per expansion: its new record, its record, its factor
    exp_rec = np.empty(3 * n, np.int64)
    exp_f = np.empty(3 * n, np.int64)
    out_vals = np.empty(3 * n, np.int64)
    n_exp = 0
    n_out = 0
    for g in range(n):
        h = 0
        for k in range(3):
            if pos[k] >= 0 and (vals[g] >> pos[k]) & 1:
                h += 1
        if h == 0:
            continue
        for k in range(3):
            if pos[k] >= 0 and (vals[g] >> pos[k]) & 1:
                v = (vals[g] & ~clear) | (k << shift)
                i = v % size
                while slot_id[i] >= 0 and slot_val[i] != v:
                    i = i + 1 if i + 1 < size else 0
                if slot_id[i] < 0:
                    slot_id[i] = n_out
                    slot_val[i] = v
                    out_vals[n_out] = v
                    n_out += 1
                exp_out[n_exp] = slot_id[i]
                exp_rec[n_exp] = g
                exp_f[n_exp] = 6 // h if weigh else 1
                n_exp += 1
    out_start = np.zeros(n_out + 1, np.int64)
    for e in range(n_exp):
        g = exp_rec[e]
        out_start[exp_out[e] + 1] += group_start[g + 1] - group_start[g] if merged else 1
    for o in range(n_out):
        out_start[o + 1] += out_start[o]
    fill = out_start[:n_out].copy()
    out_src = np.empty(out_start[n_out], np.int64)
    out_factor = np.empty(out_start[n_out], np.int64)
    for e in range(n_exp):
        g = exp_rec[e]
        o = exp_out[e]
        if merged:
            for j in range(group_start[g], group_start[g + 1]):
                out_src[fill[o]] = src_rec[j]
                out_factor[fill[o]] = src_factor[j] * exp_f[e]
                fill[o] += 1
        else:
            out_src[fill[o]] = g
            out_factor[fill[o]] = exp_f[e]
            fill[o] += 1
    return out_vals[:n_out], out_start, out_src, out_factor
