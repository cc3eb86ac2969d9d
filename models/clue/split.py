"""Counting passes that keep the deals apart by a *record* (:class:`SplitCounter`): how many cards of each block
a player takes, and where watched cards go; what the other players know and believe is read off them
(:mod:`.others`).  From :data:`.compiled.KERNEL_FROM` entries in a layer (with numba) the rest of a pass runs
in the compiled loops of :mod:`._split_kernel`, which keep the last layer by record (:class:`SplitForm`).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np

from sleuth.allocator import MMAP_THRESHOLD
from sleuth.errors import InternalError
from sleuth.limits import check_size, max_items

from . import compiled
from .arrays import distinct, runs, segment_or, segment_sum, small, unique
from .counter import ENTRY_BYTES, OBJECT_FACTOR, DealCounter, LayerTooLarge
from .game import SPLIT_KERNEL
from .problem import Problem, deal_bound

STEP_SEARCH_FROM = 20_000   # transitions of a step from which its increments are searched for, not sorted
COMPILED_ENTRY_BYTES = 48  # a (state, record) entry of a compiled split layer: 3 int64 columns, this layer and next
# (the state column int32 where a layer's states fit, :func:`state_index`: 40 then; the bound is the int64 one)
TIGHT_FROM = MMAP_THRESHOLD // 8   # entries of a layer's loose bound from which its buffers are mapped on their own
# (:mod:`sleuth.allocator`: fresh pages, a fault each) and the tighter bound may let it reuse the layer before's
STATE32 = (1 << 31) - 1   # the most states a compiled split layer numbers in int32 (:func:`state_index`)
KEEP_BYTES = 1 << 26   # what split_cost keeps for the pass at most (64 MiB: about 8 million transitions' int32 indices)

@dataclass
class SplitForm:
    """The last layer of a compiled split pass by record (:mod:`._split_kernel`): record ``r`` has the value
    ``rec_val[r]`` and the entries ``rec_start[r]:rec_start[r + 1]``, each a final state (an index in
    ``states``; int32 where they fit, :func:`state_index`), its deals and the OR of its envelope groups.  A pass
    that resolved its showings (:meth:`SplitCounter.split` ``showings``): ``digit_shift`` gives per showing the bit
    of its 2-bit field, the position in the showing of the card shown (the watched pairs' bits are then all 0);
    with ``weighted`` the deals are weighed (times 6 / |cards the shower holds| per showing) and ``num2`` (when
    not empty) has them unweighed."""

    states: np.ndarray
    rec_start: np.ndarray
    rec_val: np.ndarray
    ent_state: np.ndarray
    num: np.ndarray
    env_groups: np.ndarray
    digit_shift: tuple[int, ...] = ()
    weighted: bool = False
    num2: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))

    @property
    def resolved(self) -> bool:
        return bool(self.digit_shift)

    def entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """One entry per (state, record): states, records, deals, envelope groups."""
        return (self.states[self.ent_state], np.repeat(self.rec_val, np.diff(self.rec_start)), self.num,
                self.env_groups)


def state_index(n_states: int) -> type:
    """The dtype of a compiled split layer's state column over ``n_states`` distinct states: int32 where every
    index fits (:data:`STATE32`; a quarter less memory per entry for the layers to write and read), else int64."""
    return np.int32 if n_states <= STATE32 else np.int64


def resolution_fits(problem: Problem, width: int, showings: int, weigh: bool = True) -> bool:
    """Whether a split pass whose records are ``width`` bits may resolve ``showings`` showings in int64: the
    records with a 2-bit field per showing, and the counts (a deal is in up to 3 records per showing resolved,
    once in each: unweighed, a record's count is at most the deals; ``weigh``: its shares add up to 6)."""
    return width + 2 * showings <= 62 and deal_bound(problem) * (6 ** showings if weigh else 1) < 1 << 62


class Reorder(Exception):
    """A split pass stopped to be run in another card order (:meth:`SplitCounter.split` ``reorder``)."""


@dataclass
class _Resolve:
    """What :meth:`SplitCounter.split` resolves: per showing its three (card, shower) pairs; whether the deals are
    weighed, and kept unweighed too."""

    showings: Sequence[Sequence[tuple[int, int]]]
    weigh: bool
    unweighed: bool


class SplitCounter(DealCounter):
    """A :class:`.counter.DealCounter` whose pass keeps the deals apart by record (:meth:`split`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._costed: dict[tuple[int, int], _Costed] = {}   # per step (its first move): :meth:`split_cost`'s

    def split(self, player: int | None, watched: Sequence[tuple[int, int]], *, counts: bool = True,
              by_envelope: bool = False, ors: bool = True, options: Mapping[str, Any] | None = None,
              rows: bool = True, kernel_from: int | None = None,
              showings: Sequence[Sequence[tuple[int, int]]] = (), weigh: bool = False, unweighed: bool = False,
              reorder: Callable[[], bool] | None = None, copies: bool = True
              ) -> tuple[np.ndarray, list[int], list[int]]:
        """One forward pass that keeps the deals apart by a *record*: how many cards of each group
        ``player`` takes (None: no player's), and for each ``(card, place)`` of ``watched`` (cards of
        one-card groups) whether the card is there.  Per record of the complete deals: the number of deals
        (0 when ``counts`` is off) and a bit mask of the groups that put a card in the envelope in some of
        them (0 when ``ors`` is off); returned as the records (a sorted array), the counts and the masks.
        ``by_envelope``: the record also holds the envelope slots (:meth:`codes`; meaningful when every group
        has a code, ``track_all``) from bit ``record_width`` on.  ``record_layout`` gives each field's bit:
        per group index its count's shift, per watched pair its bit.  From :data:`.compiled.KERNEL_FROM` (or
        ``kernel_from``) entries in a layer, with numba, the rest of the pass runs compiled and :attr:`form`
        keeps its last layer by record (else :attr:`form` is None); with ``rows`` off the rows are then not
        made (empty arrays returned).  With ``rows`` off, the compiled part also *resolves* ``showings`` (per
        showing, its three (card, shower) pairs, all watched): once a showing's cards are placed, a record
        becomes one record per card the shower holds there (the card shown, a field of the record) and the
        watched bits no showing still needs are dropped, so that records of one view merge early
        (:class:`SplitForm` ``digit_shift``); ``weigh``: the deals are then weighed by 6 / |held| per showing,
        and ``unweighed`` keeps them unweighed too (``num2``).  ``reorder``: asked when the pass turns compiled
        (a large pass), raises :class:`Reorder` when it says so (the caller runs the pass in another order).
        ``copies`` off: the compiled part keeps no record as a copy of another (:meth:`_split_compiled`)."""
        self.form: SplitForm | None = None
        pbit = 0 if player is None else 1 << player
        env = self.prob.n
        shifts: dict[int, int] = {}
        width = 0
        for gi, g in enumerate(self.groups):
            if g.mask & pbit:
                shifts[gi] = width
                width += len(g.cards).bit_length()
        bits: dict[tuple[int, int], int] = {}
        for c, q in watched:
            gi = self.card_group[c]
            if len(self.groups[gi].cards) != 1:
                raise InternalError(f"watched card {c} is not a group of its own")
            if self.groups[gi].mask >> q & 1 and (c, q) not in bits:
                bits[(c, q)] = width
                width += 1
        self.record_layout, self.record_width = (shifts, bits), width
        rec_dtype: type = np.int64 if width + (3 * self.env_bits if by_envelope else 0) <= 62 else object
        or_dtype: type = np.int64 if len(self.groups) <= 62 else object
        keys: np.ndarray = np.array([self.initial()], dtype=self.key_dtype)
        recs: np.ndarray = np.zeros(1, dtype=rec_dtype)
        num: np.ndarray = np.ones(1, dtype=self.dtype)
        env_groups: np.ndarray = np.zeros(1, dtype=or_dtype)
        wide = self.key_dtype is object or self.dtype is object or rec_dtype is object
        packed = not wide and self.m_shift + self.n_slots + width <= 63  # key and record in one int64
        entry = 2 * ENTRY_BYTES * (OBJECT_FACTOR if wide else 1)
        most = max_items(options, entry)
        steps = self.group_steps()
        can_compile = SPLIT_KERNEL.available() and not wide and or_dtype is np.int64
        work = 0  # layer entries handled in numpy (see compiled.COLD_KERNEL_WORK)
        for i, moves in enumerate(steps):
            gi = moves[0][0]
            bound = keys.size * (len(self.groups[gi].cards) + len(moves))
            if bound > most:
                check_size(f"Clue states kept apart by hand and shown cards (step {i + 1} of {len(steps)})", bound,
                           options, entry, error=LayerTooLarge)
            card = self.groups[gi].cards[0]
            rec_steps = [(1 << shifts[gi] if q == player else 0) + (1 << bits[(card, q)] if (card, q) in bits else 0)
                         for _, q, *_ in moves]
            long = work + keys.size * (len(steps) - i) >= compiled.COLD_KERNEL_WORK
            if can_compile and keys.size >= (compiled.KERNEL_FROM if kernel_from is None else kernel_from) and \
                    (SPLIT_KERNEL.loaded() or long) and (kernel := SPLIT_KERNEL.load()) is not None:
                if reorder is not None and reorder():
                    raise Reorder
                resolve = _Resolve(showings, weigh, unweighed) if showings and not rows else None
                self.form = self._split_compiled(kernel, steps[i:], keys, recs, num, env_groups, player, shifts,
                                                 bits, ors, options, resolve, copies)
                self._costed.clear()
                if not rows:
                    return np.zeros(0, dtype=np.int64), [], []
                keys, recs, num, env_groups = self.form.entries()
                break
            one = len(self.groups[gi].cards) == 1   # every move places the card: one way, one card
            work += keys.size
            src, nxt, ways, placed, ends = self._moves(moves, keys)
            per_move = np.diff([0, *ends])
            nrec = recs[src]
            if any(rec_steps):
                inc: np.ndarray = np.repeat(np.array(rec_steps, dtype=rec_dtype), per_move)
                nrec = nrec + (inc if one else inc * placed.astype(rec_dtype))
            if packed:
                both = (nxt << width) | nrec
                order, starts = runs(both)
                both = both[order[starts]]
                keys, recs = both >> width, both & ((1 << width) - 1)
            else:
                order, starts = runs(nxt, nrec)
                keys, recs = nxt[order[starts]], nrec[order[starts]]
            from_ = src[order]
            if ors:
                nenv = env_groups[from_]
                if any(q == env for _, q, *_ in moves):
                    env_bit = [1 << gi if q == env else 0 for _, q, *_ in moves]
                    env_inc: np.ndarray = np.repeat(np.array(env_bit, dtype=or_dtype), per_move)
                    nenv = nenv | (env_inc if one else env_inc * placed.astype(or_dtype))[order]
                env_groups = np.bitwise_or.reduceat(nenv, starts) if starts.size else nenv[:0]
            if counts:
                moved = num[from_] if one else num[from_] * ways[order]
                num = np.add.reduceat(moved, starts) if starts.size else num[:0]
        self._costed.clear()
        ok = np.flatnonzero(self.accept(keys))
        recs = recs[ok]
        if by_envelope:
            slots: np.ndarray = small((keys[ok] >> self.env_shift) & ((1 << 3 * self.env_bits) - 1)).astype(rec_dtype)
            recs = recs + (slots << width)
        if by_envelope and bool(np.all(recs[1:] > recs[:-1])):
            # a complete deal's state is its envelope slots (every other field 0): the layer, sorted by
            # (state, record), already has each record once, in order
            sums = num[ok].tolist() if counts else [0] * recs.size
            return recs, sums, env_groups[ok].tolist() if ors else [0] * recs.size
        out_recs, dst = unique(recs)
        masks = segment_or(dst, env_groups[ok], out_recs.size, or_dtype).tolist() if ors else [0] * out_recs.size
        sums = segment_sum(dst, num[ok], out_recs.size, self.dtype).tolist() if counts else [0] * out_recs.size
        return out_recs, sums, masks

    def split_cost(self, player: int | None, watched: Sequence[tuple[int, int]], below: float = math.inf) -> float:
        """An estimate of the (state, record) entries :meth:`split` keeps: per step, the states of the plain
        count times 1.3 per group so far that the record follows (the player may take it, or it is watched).
        Only to compare card orders (:class:`.counter.DealCounter` ``reverse``); a forward pass over the states
        alone, stopped once the sum reaches ``below`` (what it has then: the order is not cheaper than that).
        Without ``below`` (the estimate of the order a pass takes unless another is found cheaper), each step's
        transitions are kept (up to :data:`KEEP_BYTES` in all) for the compiled part of the pass that
        follows in this order: it reads them again from the same states (:meth:`_step_table`)."""
        keys: np.ndarray = np.array([self.initial()], dtype=self.key_dtype)
        followed = {c for c, _ in watched}
        pbit = 0 if player is None else 1 << player
        cost, grow = 0.0, 1.0
        room = KEEP_BYTES if below == math.inf and self.key_dtype is not object and self.dtype is not object \
            else 0
        self._costed.clear()
        for moves in self.group_steps():
            group = self.groups[moves[0][0]]
            if group.mask & pbit or group.cards[0] in followed:
                grow *= 1.3
            src, nxt, ways, placed, ends = self._moves(moves, keys)
            # what keeping the step costs: its source and next state in int32 (half the memory; the room keeps them
            # far under 2**31), its states (at most one per transition), its ways and cards placed
            kept = 8 * (src.size + nxt.size) + ways.nbytes + placed.nbytes
            if kept > room:   # not kept: the states alone
                states = distinct(nxt)
            else:
                states, dst = unique(nxt)   # sorted runs, one per move: stable
                room -= kept
                self._costed[moves[0][:2]] = _Costed(keys, src.astype(np.int32), dst.astype(np.int32), ways, placed,
                                                     ends, states)
            keys = states
            cost += keys.size * grow
            if cost >= below:
                break
        return cost

    def _split_compiled(self, kernel: ModuleType, steps: list[list[tuple[int, int, bool, int, int]]],
                        keys: np.ndarray, recs: np.ndarray, num: np.ndarray, env_groups: np.ndarray,
                        player: int | None, shifts: dict[int, int], bits: dict[tuple[int, int], int], ors: bool,
                        options: Mapping[str, Any] | None, resolve: _Resolve | None = None,
                        copies_on: bool = True) -> SplitForm:
        """:meth:`split`'s remaining ``steps`` from the layer of (state, record) entries ``keys``, ``recs``
        (deals ``num``, envelope groups ``env_groups``), by the compiled :func:`._split_kernel.split_layer`
        (int64 throughout): each step's transitions are computed once per distinct state; with ``resolve``,
        each showing resolved after the step that places its last card (:func:`_resolved`, merged as the next
        step reads the records); records that are whole multiples of another kept as copies from one step to
        the next (:func:`._split_kernel.split_layer`, :func:`._split_kernel.record_copies`) and written out in
        full after the last (not with ``copies_on`` off).  Returns the last layer by record."""
        use_copies = copies_on and compiled.COPIES
        if num.size != keys.size:         # counts off: not kept (1 per entry from here: a positive number)
            num = np.ones(keys.size, dtype=np.int64)
        if env_groups.size != keys.size:  # ors off: not kept
            env_groups = np.zeros(keys.size, dtype=np.int64)
        by_rec = np.argsort(recs, kind="stable")
        recs, keys, num, env_groups = recs[by_rec], keys[by_rec], num[by_rec], env_groups[by_rec]
        starts = np.flatnonzero(np.concatenate(([True], recs[1:] != recs[:-1])))
        rec_start = np.append(starts, recs.size).astype(np.int64)
        rec_val = recs[starts].astype(np.int64)
        states, ent_state = unique(keys)
        ent_state = ent_state.astype(state_index(states.size))
        num, env_groups = num.astype(np.int64), env_groups.astype(np.int64)
        width = max([*(b + 1 for b in bits.values()), *(sh + len(self.groups[gi].cards).bit_length()
                                                        for gi, sh in shifts.items()), 0])
        if resolve is not None and not resolution_fits(self.prob, width, len(resolve.showings), resolve.weigh):
            resolve = None
        use2 = resolve is not None and resolve.weigh and resolve.unweighed
        num2 = num.copy() if use2 else np.zeros(0, dtype=np.int64)
        digit_shift = tuple(width + 2 * j for j in range(len(resolve.showings))) if resolve is not None else ()
        due: dict[int, list[int]] = defaultdict(list)   # per step (-1: before the first), the showings it completes
        if resolve is not None:
            at = {self.groups[moves[0][0]].cards[0]: i for i, moves in enumerate(steps)
                  if len(self.groups[moves[0][0]].cards) == 1}
            for j, pairs in enumerate(resolve.showings):
                due[max([at.get(c, -1) for c, q in pairs if (c, q) in bits], default=-1)].append(j)
        pending = set(range(len(resolve.showings))) if resolve is not None else set()
        layer = [rec_start, rec_val, ent_state, num, num2, env_groups]
        # the records that are copies of another (:func:`._split_kernel.split_layer`: the record each copies and
        # the two factors), None while there are none
        copies: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        # the whole arrays the layer is a part of, and those of the layer before (free once this one is read)
        buffers, spare = list(layer) + [_EMPTY] * 3, [np.zeros(0, dtype=np.int64)] * (len(layer) + 3)
        # the records as the next step reads them: record g is the layer's records src[start[g]:start[g + 1]]
        # together, their deals times factor (the identity until a showing is resolved)
        merged = _identity(rec_val)   # group starts not empty: records merged (the kernels read them so)

        def resolve_due(i: int) -> None:
            nonlocal merged
            assert resolve is not None
            for j in due.get(i, []):
                pending.discard(j)
                still = {bits[pair] for k in pending for pair in resolve.showings[k] if pair in bits}
                pos = [bits.get(pair, -1) for pair in resolve.showings[j]]
                clear = sum(1 << b for b in pos if b >= 0 and b not in still)
                merged = _resolved(merged, pos, clear, digit_shift[j], resolve.weigh)

        def read_as(dedup: bool) -> tuple[np.ndarray, ...]:
            """What the next step reads (:func:`._split_kernel.record_copies`): the merged records' group starts,
            sources, both factors, and with ``dedup`` which records are multiples of an earlier one (empty arrays:
            each record on its own, none)."""
            vals, group_start, src, factor = merged
            if not group_start.size:   # each record on its own: the copies as they are
                return (group_start, src, factor, _EMPTY, *(copies if copies is not None else (_EMPTY,) * 3))
            if not use_copies or (copies is None and not dedup):
                return group_start, src, factor, _EMPTY, _EMPTY, _EMPTY, _EMPTY
            ref, k, k2 = copies if copies is not None else (np.full(layer[1].size, -1, dtype=np.int64), _EMPTY, _EMPTY)
            out: tuple[np.ndarray, ...] = kernel.record_copies(vals.size, group_start, src, factor, ref, k, k2, dedup)
            return out

        if resolve is not None:
            resolve_due(-1)
        most = max_items(options, COMPILED_ENTRY_BYTES)
        ahead: _StepTable | None = None
        i = 0
        while i < len(steps):
            rec_start, _, ent_state, num, num2, env_groups = layer
            vals = merged[0]
            group_start, src, factor, factor2, grp_ref, grp_k, grp_k2 = read_as(True)
            first = ahead if ahead is not None else self._step_table(steps[i], states, player, shifts, bits)
            ahead = None
            # the next layer's entries at most: each entry read (an entry of a record merged into several
            # records is read for each) times its transitions; in memory, this layer's three int64 columns and the
            # next one's (two without the envelope groups)
            n_read = ent_state.size if not group_start.size else int(np.diff(rec_start)[src].sum())
            most_out = n_read * first.fan_out
            check_size(f"Clue states kept apart by hand and shown cards (step {i + 1} of {len(steps)} left)",
                       max(most_out, ent_state.size), options, COMPILED_ENTRY_BYTES, error=LayerTooLarge)
            # the next step too, in the same call, where no showing is resolved in between and the budget allows
            # the bound: the entries in between are never written out
            second = self._step_table(steps[i + 1], first.states, player, shifts, bits) \
                if compiled.TWO_STEPS and i + 1 < len(steps) and not due.get(i) else None
            both = n_read * first.paths(second) if second is not None else 0
            if second is not None and both <= most:
                most_out = both
            else:
                ahead, second = second, None   # the next call's step
            last = i if second is None else i + 1
            states = first.states if second is None else second.states
            # the next layer's buffers, as large as it may be: the layer before this one's where they are large
            # enough (written over: fresh memory costs a page fault per page written), else from numpy, as large
            # as the bound above (only the pages written are memory: a later layer may then write over them); the
            # kernel writes what it needs.  Where the layer before's are smaller than that bound but not than the
            # entries read, the tighter bound (the sum of each entry's transitions) decides, for large layers
            # (smaller buffers come from the heap, which the allocator reuses without faults)
            n_cls = first.cls_inc.size * (1 if second is None else second.cls_inc.size)
            sizes = [vals.size * n_cls + 1, vals.size * n_cls, most_out, most_out, most_out if use2 else 0,
                     most_out if ors else 0, *[vals.size * n_cls] * 3]
            types: list[type] = [np.int64] * len(sizes)
            types[2] = state_index(states.size)   # the next layer's state column
            fits = sizes.copy()
            if n_read <= spare[3].size < most_out and most_out >= TIGHT_FROM:
                tight = kernel.entries_bound(rec_start, group_start, src, grp_ref, ent_state, first.reach(second))
                fits[2:6] = [min(size, tight) for size in sizes[2:6]]
            out = [old if old.size >= fit and old.dtype == dtype else np.empty(size, dtype=dtype)
                   for old, size, fit, dtype in zip(spare, sizes, fits, types, strict=True)]
            *out, n_rec, n_ent = kernel.split_layer(
                rec_start, vals, group_start, src, factor, factor2, grp_ref, grp_k, grp_k2, ent_state, num, num2,
                env_groups, *first.arrays(), *(second or _NO_STEP).arrays(), use2, ors,
                compiled.COPY_FROM if use_copies else 0, *out)
            spare, buffers = buffers, out
            layer[:] = [out[0][:n_rec + 1], out[1][:n_rec], out[2][:n_ent], out[3][:n_ent],
                        out[4][:n_ent if use2 else 0], out[5][:n_ent if ors else 0]]
            copies = (out[6][:n_rec], out[7][:n_rec], out[8][:n_rec]) if (out[6][:n_rec] >= 0).any() else None
            merged = _identity(layer[1])
            if resolve is not None:
                resolve_due(last)
            i = last + 1
        rec_start, rec_val, ent_state, num, num2, env_groups = layer
        vals = merged[0]
        group_start, src, factor, factor2, ref, k, k2 = read_as(False)
        if not group_start.size and ref.size:   # copies: each a record of one source
            whole = ref < 0
            group_start = np.arange(vals.size + 1, dtype=np.int64)
            src = np.where(whole, group_start[:-1], ref)
            factor, factor2 = np.where(whole, 1, k), np.where(whole, 1, k2)
        if group_start.size:   # resolved after the last step, or copies: merge (and copy) now
            n_read = int(np.diff(rec_start)[src].sum())
            check_size("Clue states kept apart by hand and shown cards (the showings resolved, no step left)", n_read,
                       options, COMPILED_ENTRY_BYTES, error=LayerTooLarge)
            out = [np.empty(vals.size + 1, dtype=np.int64), np.empty(n_read, dtype=state_index(states.size)),
                   np.empty(n_read, dtype=np.int64),
                   np.empty(n_read if use2 else 0, dtype=np.int64), np.empty(n_read if ors else 0, dtype=np.int64)]
            n_ent = kernel.merge_records(group_start, src, factor, factor2, rec_start, ent_state, num, num2,
                                         env_groups, int(states.size), use2, ors, *out)
            rec_start, rec_val, ent_state = out[0], vals, out[1][:n_ent]
            num, num2, env_groups = out[2][:n_ent], out[3][:n_ent if use2 else 0], out[4][:n_ent if ors else 0]
        return SplitForm(states, rec_start, rec_val, ent_state, num,
                         env_groups if ors else np.zeros(ent_state.size, dtype=np.int64), digit_shift,
                         resolve is not None and resolve.weigh, num2)

    def _moves(self, moves: list[tuple[int, int, bool, int, int]], keys: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[int]]:
        """:meth:`.counter.DealCounter.transitions` of a step of :meth:`group_steps`; for a one-card group (every
        transition one way, one card) its ways and cards placed are not made (empty)."""
        if len(self.groups[moves[0][0]].cards) == 1:
            src, nxt, ends = self.placements(moves, keys)
            return src, nxt, _EMPTY, _EMPTY, ends
        return self.transitions(moves, keys, whole=True)

    def _step_table(self, moves: list[tuple[int, int, bool, int, int]], states: np.ndarray, player: int | None,
                    shifts: dict[int, int], bits: dict[tuple[int, int], int]) -> _StepTable:
        """One step of :meth:`_split_compiled` from the distinct ``states`` of a layer, as the compiled kernel
        reads it; its transitions those :meth:`split_cost` found from the same states where it kept them."""
        gi = moves[0][0]
        card = self.groups[gi].cards[0]
        one = len(self.groups[gi].cards) == 1   # every transition places the card, one way
        kept = self._costed.pop(moves[0][:2], None)
        if kept is not None and (kept.keys is states or np.array_equal(kept.keys, states)):
            src, dst, ways, placed, ends, nxt_states = kept.src, kept.dst, kept.ways, kept.placed, kept.ends, \
                kept.states
        else:
            src, nxt, ways, placed, ends = self._moves(moves, states)
            nxt_states, dst = unique(nxt)   # sorted runs, one per move: a stable sort merges them (3x faster here)
        per_move = np.diff([0, *ends])
        rec_steps = [(1 << shifts[gi] if q == player else 0) + (1 << bits[(card, q)] if (card, q) in bits else 0)
                     for _, q, *_ in moves]
        env_bit = [1 << gi if q == self.prob.n else 0 for _, q, *_ in moves]
        order = np.argsort(src, kind="stable")
        if one:   # the increments are the moves' own: classes per move (those with a transition), no search
            used = sorted({r for r, k in zip(rec_steps, per_move.tolist(), strict=True) if k})
            cls_inc = np.array(used, dtype=np.int64)
            move_cls = [used.index(r) if k else 0 for r, k in zip(rec_steps, per_move.tolist(), strict=True)]
            cls = np.repeat(np.array(move_cls, dtype=np.int64), per_move)[order]
            env_or = np.repeat(np.array(env_bit, dtype=np.int64), per_move)[order]
            ways = np.ones(src.size, dtype=np.int64)
        else:
            inc = np.repeat(np.array(rec_steps, dtype=np.int64), per_move) * placed
            env_or = (np.repeat(np.array(env_bit, dtype=np.int64), per_move) * (placed > 0))[order]
            if inc.size < STEP_SEARCH_FROM:
                cls_inc, cls = unique(inc, "quicksort")
            else:   # the distinct increments (a move's times the cards it places): found among the few possible ones
                possible = np.unique(np.array([r * k for r in set(rec_steps)
                                               for k in range(len(self.groups[gi].cards) + 1)], dtype=np.int64))
                at = np.searchsorted(possible, inc)
                used_at = np.bincount(at, minlength=possible.size) > 0
                cls_inc, cls = possible[used_at], (np.cumsum(used_at) - 1)[at]
            cls, ways = cls[order].astype(np.int64), ways[order].astype(np.int64)
        per_state = np.bincount(src, minlength=states.size)
        tr_start = np.zeros(states.size + 1, dtype=np.int64)
        np.cumsum(per_state, out=tr_start[1:])
        return _StepTable(tr_start, dst[order].astype(np.int64), ways, cls, env_or, cls_inc, nxt_states,
                          int(per_state.max(initial=0)))


@dataclass
class _Costed:
    """A step's transitions as :meth:`SplitCounter.split_cost` found them from the distinct states ``keys``
    (source, next state as an index in ``states``, the next layer's; ``ways`` and ``placed`` empty for a
    one-card group: every transition one way, one card), for :meth:`SplitCounter._step_table`."""

    keys: np.ndarray
    src: np.ndarray
    dst: np.ndarray
    ways: np.ndarray
    placed: np.ndarray
    ends: list[int]
    states: np.ndarray


@dataclass
class _StepTable:
    """A step's transitions per distinct state of its layer (:func:`._split_kernel.split_layer`): state ``s``
    has ``start[s]:start[s + 1]``, each with its next state (an index in ``states``, the next layer's), ways,
    class of record increment (``cls_inc``) and envelope group bit; ``fan_out``: the most of one state."""

    start: np.ndarray
    dst: np.ndarray
    ways: np.ndarray
    cls: np.ndarray
    env_or: np.ndarray
    cls_inc: np.ndarray
    states: np.ndarray
    fan_out: int

    def arrays(self) -> tuple[Any, ...]:
        """The kernel's arguments for this step."""
        return self.start, self.dst, self.ways, self.cls, self.env_or, self.cls_inc, int(self.states.size)

    def paths(self, then: _StepTable) -> int:
        """The most transitions of this step followed by one of ``then`` from one state."""
        return int(self.reach(then).max(initial=0))

    def reach(self, then: _StepTable | None = None) -> np.ndarray:
        """Per state, its transitions (with ``then``: of this step followed by one of ``then``)."""
        if then is None:
            return np.diff(self.start)
        through = np.zeros(self.dst.size + 1, dtype=np.int64)   # running sum of the next step's transitions
        np.cumsum(np.diff(then.start)[self.dst], out=through[1:])
        return through[self.start[1:]] - through[self.start[:-1]]


_EMPTY = np.zeros(0, dtype=np.int64)
_NO_STEP = _StepTable(np.zeros(1, dtype=np.int64), _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, 0)   # no second step


Merged = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]   # values, group starts, source records, factors


def _identity(rec_val: np.ndarray) -> Merged:
    """Every record on its own (:meth:`SplitCounter._split_compiled`'s merged records; the lists left empty)."""
    empty = np.zeros(0, dtype=np.int64)
    return rec_val, empty, empty, empty


def _resolved(merged: Merged, pos: list[int], clear: int, shift: int, weigh: bool) -> Merged:
    """Merged records with one showing resolved (:func:`._split_kernel.resolve_records`): each record once per
    card of the showing the shower holds (``pos``: the cards' watched bits, -1 for a card the shower cannot
    hold), that card's position in the field at bit ``shift``, the bits ``clear`` dropped, the deals times 6
    / |held| with ``weigh``; records of one value merged (their sources listed together)."""
    kernel = SPLIT_KERNEL.load()
    assert kernel is not None
    out: Merged = kernel.resolve_records(*merged, np.array(pos, dtype=np.int64), clear, shift, weigh)
    return out

