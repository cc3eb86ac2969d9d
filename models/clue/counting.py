"""Exact counting of the deals consistent with a Clue log, and everything read off the counts.

A deal puts every card in one place: a player's hand (exact hand sizes) or the envelope (one card per
category).  The observations restrict the places a card may take (``allowed`` bit masks), ask that a player
hold at least one card of a set (a shown card nobody saw), and exclude envelope triples (wrong accusations).

Counting, not enumeration: cards that no at-least-one constraint or accusation mentions and that share a
category and an allowed mask are exchangeable, so they are placed as one block with binomial weights.  A
forward pass over the blocks keeps, per state, the number of partial deals; the state is the remaining
capacity of every hand, what went into each envelope slot, and which at-least-one constraints are still
unmet, packed in one integer key.  A backward pass gives the number of completions, and forward x backward
the number of deals with a given card in a given place.  Each layer of states is a sorted numpy array and
each move is applied to the whole layer at once (an outside observer of a long six-player game has layers
of ~10^5 states).  Everything is an exact integer: int64 where :func:`deal_bound` shows the counts fit,
Python integers in object arrays otherwise; probabilities are fractions of them.

The exact knowledge sheet is the support of these counts: a cell is *yes* when every deal has it, *no*
when none has it.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import random
from collections import defaultdict
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from math import comb, factorial, prod
from types import ModuleType
from typing import Any, Literal

import numpy as np

from sleuth.errors import InternalError
from sleuth.jit import load_kernel
from sleuth.limits import TooLarge, check_size, max_items

from .state import ClueState, Obs, ObsKind


@dataclass
class Problem:
    """The counting view of a game: allowed places per card, at-least-one sets, excluded triples."""

    sizes: tuple[int, ...]                       # hand size per player
    card_category: tuple[int, ...]               # category per card
    allowed: list[int]                           # bit mask of places per card (bit n = envelope)
    some: list[tuple[int, frozenset[int]]] = field(default_factory=list)
    excluded: set[tuple[int, int, int]] = field(default_factory=set)

    @property
    def n(self) -> int:
        return len(self.sizes)

    @property
    def env_bit(self) -> int:
        return 1 << self.n

    @classmethod
    def from_observations(cls, game: ClueState, obs: Sequence[Obs]) -> Problem:
        n, deck = len(game.players), game.deck
        full = (1 << (n + 1)) - 1
        sizes = list(game.hand_sizes)
        prob = cls(tuple(sizes), tuple(deck.category(c) for c in range(len(deck))), [full] * len(deck))
        for o in obs:
            if o.kind is ObsKind.HOLDS:
                for c in o.cards:
                    prob.allowed[c] &= 1 << o.player  # type: ignore[operator]
            elif o.kind is ObsKind.LACKS:
                for c in o.cards:
                    prob.allowed[c] &= ~(1 << o.player)  # type: ignore[operator]
            elif o.kind is ObsKind.SOME:
                prob.some.append((o.player, frozenset(o.cards)))  # type: ignore[arg-type]
            elif o.kind is ObsKind.HAND_SIZE:
                sizes[o.player] = o.size  # type: ignore[index]
            elif o.kind is ObsKind.NOT_TRIPLE:
                prob.excluded.add(tuple(o.cards))  # type: ignore[arg-type]
            elif o.kind is ObsKind.ENVELOPE:
                for c in o.cards:
                    prob.allowed[c] &= prob.env_bit
                    for d in deck.members(deck.category(c)):
                        if d != c:
                            prob.allowed[d] &= ~prob.env_bit
        prob.sizes = tuple(sizes)
        return prob

    def categories(self) -> list[list[int]]:
        cats: list[list[int]] = [[], [], []]
        for c, k in enumerate(self.card_category):
            cats[k].append(c)
        return cats

    def propagate(self) -> Problem | None:
        """An equivalent problem with the obvious consequences applied, or None when none is possible.

        Fixes cards with one place left, fills hands that are full or that have exactly enough candidates,
        does the same for envelope slots, and shrinks each at-least-one set to the cards its player may still
        hold (dropping it when met, fixing its card when one is left).
        """
        allowed, some = list(self.allowed), list(self.some)
        n, env = self.n, self.env_bit
        cats = self.categories()
        changed = True
        while changed:
            changed = False
            if any(m == 0 for m in allowed):
                return None
            slots: list[tuple[int, int, Sequence[int]]] = [(1 << p, self.sizes[p], range(len(allowed)))
                                                           for p in range(n)]
            slots += [(env, 1, cat) for cat in cats]
            for bit, size, cards in slots:
                fixed = [c for c in cards if allowed[c] == bit]
                possible = [c for c in cards if allowed[c] & bit]
                if len(fixed) > size or len(possible) < size:
                    return None
                if len(fixed) == size and len(possible) > size:
                    for c in possible:
                        if allowed[c] != bit:
                            allowed[c] &= ~bit
                    changed = True
                elif len(possible) == size and len(fixed) < size:
                    for c in possible:
                        allowed[c] = bit
                    changed = True
            kept: list[tuple[int, frozenset[int]]] = []
            for p, wanted in some:
                left = frozenset(c for c in wanted if allowed[c] >> p & 1)
                if any(allowed[c] == 1 << p for c in left):
                    continue
                if not left:
                    return None
                if len(left) == 1:
                    allowed[next(iter(left))] = 1 << p
                    changed = True
                    continue
                kept.append((p, left))
            some = _minimal_sets(kept)
        excluded = {t for t in self.excluded if all(allowed[c] & env for c in t)}
        return Problem(self.sizes, self.card_category, allowed, some, excluded)


def _minimal_sets(some: list[tuple[int, frozenset[int]]]) -> list[tuple[int, frozenset[int]]]:
    """Drop duplicates and sets implied by a smaller set of the same player."""
    unique = sorted(set(some), key=lambda x: (x[0], len(x[1]), sorted(x[1])))
    out: list[tuple[int, frozenset[int]]] = []
    for p, s in unique:
        if not any(q == p and t <= s for q, t in out):
            out.append((p, s))
    return out


@dataclass(frozen=True)
class Counts:
    """How many deals are consistent, and how many have each card in each place (and each triple)."""

    total: int
    cells: tuple[tuple[int, ...], ...]                      # [card][place]
    triples: dict[tuple[int, int, int], int] | None = None   # envelope (suspect, weapon, room) -> deals

    def probability(self, card: int, place: int) -> Fraction:
        return Fraction(self.cells[card][place], self.total) if self.total else Fraction(0)


def deal_bound(problem: Problem) -> int:
    """The deals of the deck with no observation but the hand sizes (the envelope as a hand of three): no
    count of partial or whole deals formed while counting can exceed it."""
    sizes = (*problem.sizes, 3)
    return factorial(sum(sizes)) // prod(factorial(h) for h in sizes)


KERNEL_FROM = 20_000   # entries in a layer of a split pass from which its remaining steps run compiled
COLD_KERNEL_WORK = 1_000_000  # ... once the layer entries the pass handled in numpy, and this layer's times
# the steps left, reach this many (about 0.15 s of numpy), where this process has not loaded the kernel yet:
# loading numba and the kernel takes 0.6-0.9 s, more than the whole numpy pass of most states (a command
# line's only answer)


@lru_cache(maxsize=1)
def kernel_available() -> bool:
    """Whether :func:`split_kernel` may load (numba installed, ``SLEUTH_CLUE_KERNEL`` not ``numpy``), without
    loading it: importing numba and loading the kernel take 0.6-0.9 s, so a split pass loads it only when it
    turns out long (:data:`COLD_KERNEL_WORK`)."""
    return os.environ.get("SLEUTH_CLUE_KERNEL", "") != "numpy" and importlib.util.find_spec("numba") is not None


_kernel_tried: list[bool] = []  # not empty once this process called split_kernel


def kernel_loaded() -> bool:
    """Whether this process has loaded (or tried to load) :func:`split_kernel`."""
    return bool(_kernel_tried)


@lru_cache(maxsize=1)
def split_kernel() -> ModuleType | None:
    """The compiled loops of the split passes (:mod:`._split_kernel`, cached on disk by
    :func:`sleuth.jit.load_kernel`), or None without numba (or with ``SLEUTH_CLUE_KERNEL=numpy``, which tests
    use to compare both)."""
    _kernel_tried.append(True)
    if os.environ.get("SLEUTH_CLUE_KERNEL", "") == "numpy":
        return None
    try:
        return load_kernel(__name__.rsplit(".", 1)[0] + "._split_kernel", KERNELS, True, INTERNAL, INLINE)
    except ImportError:
        return None


KERNELS = ("_reach", "_mix", "_mix_ratio", "_proportions", "_multiple", "split_layer", "merge_records", "record_copies",
           "resolve_records", "finish", "_codes", "_record_codes", "_remaining", "knowledge_sums", "belief_sums",
           "read_records")
# called only by the other kernels
INTERNAL = ("_reach", "_mix", "_mix_ratio", "_proportions", "_multiple", "_codes", "_record_codes", "_remaining")
INLINE = ("_reach",)  # inlined into its caller: a call per entry made the passes up to twice as slow

ENTRY_BYTES = 32  # what one state (key, forward and backward count) or one transition kept costs, in int64
OBJECT_FACTOR = 5  # the same as Python integers in object arrays (the keys or counts past 62 bits)
COMPILED_ENTRY_BYTES = 48  # a (state, record) entry of a compiled split layer: 3 int64 columns, this layer and next
TWO_STEPS = True   # a compiled split call runs two steps where it may (tests compare with one step per call)
COPIES = True   # compiled split calls keep records that are whole multiples of another as copies (tests turn it off)
COPY_FROM = 8   # entries of a child record from which a compiled call checks whether it is a copy (fewer save little)


class LayerTooLarge(TooLarge):
    """The counting would keep more states and transitions than the memory budget (``--set max_worlds``) or
    than ``max_states`` in one layer allow; a caller may catch it and use another method."""


@dataclass
class _Group:
    cards: list[int]
    category: int
    mask: int
    code: int = 1   # what the envelope slot records when this group fills it (1 = untracked)


def count_deals(problem: Problem, *, triples: bool = False, max_states: int | None = None,
                options: Mapping[str, Any] | None = None) -> Counts:
    """Exact counts for every (card, place); with ``triples`` also per envelope triple.

    Raises :class:`LayerTooLarge` before a step would keep more states and transitions than the
    shared limit (:func:`sleuth.limits.max_items`: ``--set max_worlds`` in ``options``, else the memory
    budget), and with ``max_states`` as soon as a layer holds more states."""
    n_cards, n_places = len(problem.card_category), problem.n + 1
    reduced = problem.propagate()
    if reduced is None:
        return Counts(0, tuple((0,) * n_places for _ in range(n_cards)), {} if triples else None)
    return _Counter(reduced, triples).run(max_states, options)


@dataclass
class SplitForm:
    """The last layer of a compiled split pass by record (:mod:`._split_kernel`): record ``r`` has the value
    ``rec_val[r]`` and the entries ``rec_start[r]:rec_start[r + 1]``, each a final state (an index in
    ``states``), its deals and the OR of its envelope groups.  A pass that resolved its showings
    (:meth:`_Counter.split` ``showings``): ``digit_shift`` gives per showing the bit of its 2-bit field, the
    position in the showing of the card shown (the watched pairs' bits are then all 0); with ``weighted`` the
    deals are weighed (times 6 / |cards the shower holds| per showing) and ``num2`` (when not empty) has
    them unweighed."""

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


def resolution_fits(problem: Problem, width: int, showings: int) -> bool:
    """Whether a split pass whose records are ``width`` bits may resolve ``showings`` showings in int64: the
    records with a 2-bit field per showing, and the counts (a deal is in up to 3 records per showing resolved;
    weighed, its shares add up to 6)."""
    return width + 2 * showings <= 62 and deal_bound(problem) * 6 ** showings < 1 << 62


class Reorder(Exception):
    """A split pass stopped to be run in another card order (:meth:`_Counter.split` ``reorder``)."""


@dataclass
class _Resolve:
    """What :meth:`_Counter.split` resolves: per showing its three (card, shower) pairs; whether the deals are
    weighed, and kept unweighed too."""

    showings: Sequence[Sequence[tuple[int, int]]]
    weigh: bool
    unweighed: bool


class _Counter:
    def __init__(self, prob: Problem, track_all: bool, *, wide: bool = False,
                 refine: Callable[[int], Hashable] | None = None, reverse: bool = False) -> None:
        """``wide``: Python integers for keys and counts even where int64 would do (tests use it).
        ``refine``: cards with different values are never placed in one block (a card mapped to a tuple
        ``("single", ...)`` is always a block of its own).  ``reverse``: the one-card groups in the reverse of
        :meth:`_order` (sets open early and closed late become sets open early and closed early: a split
        pass, whose records multiply towards the end, then keeps fewer states per record there)."""
        self.prob = prob
        self.track_all = track_all
        n = prob.n
        constrained = set().union(*(s for _, s in prob.some)) if prob.some else set()
        accused = {c for t in prob.excluded for c in t}
        blocks: dict[tuple[int, int, Hashable], list[int]] = defaultdict(list)
        singles: list[int] = []
        for c, mask in enumerate(prob.allowed):
            extra = refine(c) if refine is not None else None
            if c in constrained or c in accused or (isinstance(extra, tuple) and extra[:1] == ("single",)):
                singles.append(c)
            else:
                blocks[(prob.card_category[c], mask, extra)].append(c)
        groups = [_Group(cards, cat, mask) for (cat, mask, _), cards in
                  sorted(blocks.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[1][0]))]
        order = self._order(singles)
        groups += [_Group([c], prob.card_category[c], prob.allowed[c]) for c in (order[::-1] if reverse else order)]
        per_category = [0, 0, 0]
        for g in groups:
            if track_all or any(c in accused for c in g.cards):
                g.code = 2 + per_category[g.category]
                per_category[g.category] += 1
        self.groups = groups
        # state layout: capacities | envelope slots | cards placed in the current group | met sets
        self.cap_bits = max(1, max(prob.sizes).bit_length())
        self.env_shift = self.cap_bits * n
        self.env_bits = max(2, (max(per_category) + 2).bit_length())
        self.u_shift = self.env_shift + 3 * self.env_bits
        self.u_bits = max(1, max(len(g.cards) for g in groups).bit_length())
        self.m_shift = self.u_shift + self.u_bits
        self.card_group = {c: i for i, g in enumerate(groups) for c in g.cards}
        self.code_group = {(g.category, g.code): i for i, g in enumerate(groups) if g.code > 1}
        self.excluded_codes = {tuple(groups[self.card_group[c]].code for c in t) for t in prob.excluded}
        # a set is open from its first card's group to its last card's: sets open at different times share
        # a bit of the state (a *slot*), 1 once the set is met, back to 0 when its last card is placed
        first = [min(self.card_group[c] for c in cards) for _, cards in prob.some]
        last_group = [max(self.card_group[c] for c in cards) for _, cards in prob.some]
        slot_end: list[int] = []   # per slot: the last group of the set that holds it
        bit = [0] * len(prob.some)
        for k in sorted(range(len(prob.some)), key=lambda k: first[k]):
            free = next((j for j, end in enumerate(slot_end) if end < first[k]), len(slot_end))
            slot_end[free:free + 1] = [last_group[k]]
            bit[k] = 1 << (self.m_shift + free)
        self.n_slots = len(slot_end)
        self.hand_sets: dict[tuple[int, int], tuple[int, bool]] = {}   # (group, player): open sets, any to come
        self.moves = []  # (group index, place, last place of the group, met bits, closing bits)
        for gi, g in enumerate(groups):
            places = [q for q in range(n + 1) if g.mask >> q & 1]
            kill = sum(bit[k] for k, lg in enumerate(last_group) if lg == gi)
            for j, q in enumerate(places):
                clear = 0
                if q < n:
                    clear = sum(bit[k] for k, (p, s) in enumerate(prob.some) if p == q and g.cards[0] in s)
                    mine = [k for k, (p, _) in enumerate(prob.some) if p == q]
                    self.hand_sets[(gi, q)] = (sum(bit[k] for k in mine if first[k] <= gi < last_group[k]),
                                               any(first[k] > gi for k in mine))
                last = j == len(places) - 1
                self.moves.append((gi, q, last, clear, kill if last else 0))
        # numpy layers: int64 where every key and every count fits, Python integers (object arrays) otherwise
        self.key_dtype: type = object if wide or self.m_shift + self.n_slots > 62 else np.int64
        big = deal_bound(prob) * max(len(g.cards) for g in groups) >= 1 << 62
        self.dtype: type = object if wide or big else np.int64

    def _order(self, singles: list[int]) -> list[int]:
        """Cards of at-least-one sets in an order that keeps few sets open at a time.

        A set is open from its first card to its last; the unmet-set part of the state varies only over
        open sets.  Greedy: next take the card that closes the most sets and opens the fewest.
        """
        left = set(singles)
        sets = [set(s) for _, s in self.prob.some]
        remaining = [set(s) for s in sets]
        opened = [False] * len(sets)
        containing = {c: [k for k, s in enumerate(sets) if c in s] for c in left}
        order: list[int] = []
        while left:
            def score(c: int) -> tuple[int, int, int]:
                closes = sum(1 for k in containing[c] if len(remaining[k]) == 1)   # c is its last card
                opens = sum(1 for k in containing[c] if not opened[k] and len(sets[k]) > 1)
                return (opens - closes, -closes, c)
            c = min(left, key=score)
            order.append(c)
            left.discard(c)
            for k, s in enumerate(sets):
                if c in s:
                    opened[k] = True
                    remaining[k].discard(c)
        return order

    def initial(self) -> int:
        st = 0
        for p, h in enumerate(self.prob.sizes):
            st |= h << (p * self.cap_bits)
        return st

    def _step(self, move: tuple[int, int, bool, int, int], keys: np.ndarray) -> tuple[np.ndarray, ...]:
        """One move from every state of a layer at once: (source index, next state, ways, cards placed) for
        every transition that keeps the deal possible."""
        gi, q, last, clear, kill = move
        group, player = self.groups[gi], q < self.prob.n
        u = _small((keys >> self.u_shift) & ((1 << self.u_bits) - 1))
        rem = len(group.cards) - u
        if player:
            sh = q * self.cap_bits
            room = _small((keys >> sh) & ((1 << self.cap_bits) - 1))   # free places in the hand
        else:
            sh = self.env_shift + group.category * self.env_bits
            room = (_small((keys >> sh) & ((1 << self.env_bits) - 1)) == 0).astype(np.int64)  # slot still empty
        choices = [rem] if last else range(int(np.minimum(rem, room).max(initial=0)) + 1)
        out: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        for m in choices:  # cards of the group this place takes: the rest (last place) or each count
            ok = m <= room
            if not last:
                ok &= m <= rem
            t = keys - (m << sh) if player else np.where(m > 0, keys | (group.code << sh), keys)
            t = t - (u << self.u_shift) if last else t + (m << self.u_shift)
            if clear:
                t = np.where(m > 0, t | clear, t)
            if player:
                ok &= self._room_left(gi, q, room - m, t)
            if kill:
                ok &= (t & kill) == kill  # a set is left unmet for good: its last card went elsewhere
                t = t & ~kill             # its slot free for a set to come
            src = np.flatnonzero(ok)
            placed = rem[src] if last else np.full(src.size, m, dtype=np.int64)  # last: m is rem
            ways = _BINOM[rem[src], placed] if player else np.where(placed > 0, rem[src], 1)
            out.append((src, t[src], ways.astype(self.dtype, copy=False), placed))
        if len(out) == 1:
            return out[0]
        return tuple(np.concatenate(parts) for parts in zip(*out, strict=True))

    def _place_one(self, move: tuple[int, int, bool, int, int], keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_step` for a one-card group at the start of its step (:meth:`_group_steps`: nothing of the
        group placed yet): the card goes to the move's place, one way, so only (source index, next state)."""
        gi, q, _, clear, kill = move
        if q < self.prob.n:
            sh = q * self.cap_bits
            room = _small((keys >> sh) & ((1 << self.cap_bits) - 1))
            src = np.flatnonzero(room > 0)
            t = keys[src] - (1 << sh)
            if clear:
                t = t | clear
            ok = self._room_left(gi, q, room[src] - 1, t)
        else:
            group = self.groups[gi]
            sh = self.env_shift + group.category * self.env_bits
            src = np.flatnonzero(_small((keys >> sh) & ((1 << self.env_bits) - 1)) == 0)
            t = keys[src] | (group.code << sh)
            ok = True
        if kill:
            ok = ok & ((t & kill) == kill)
        if ok is not True:
            kept = np.flatnonzero(ok)
            src, t = src[kept], t[kept]
        return src, (t & ~kill if kill else t)

    def _transitions(self, moves: list[tuple[int, int, bool, int, int]], keys: np.ndarray, *, whole: bool
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[int]]:
        """Every transition of one step (``moves``, alternatives from the layer ``keys``): (source index, next
        state, ways, cards placed) as arrays, move after move, and where each move's transitions end.
        ``whole``: the step is one of :meth:`_group_steps` (a one-card group's card not yet placed)."""
        if whole and len(self.groups[moves[0][0]].cards) == 1:
            pairs = [self._place_one(mv, keys) for mv in moves]
            if len(pairs) == 1:   # one place (no copy)
                src, nxt = pairs[0]
            else:
                src, nxt = (np.concatenate(x) for x in zip(*pairs, strict=True))
            ends = list(itertools.accumulate(p[0].size for p in pairs))
            return src, nxt, np.ones(src.size, dtype=self.dtype), np.ones(src.size, dtype=np.int64), ends
        parts = [self._step(mv, keys) for mv in moves]
        ends = list(itertools.accumulate(p[0].size for p in parts))
        if len(parts) == 1:
            src, nxt, ways, placed = parts[0]
        else:
            src, nxt, ways, placed = (np.concatenate(x) for x in zip(*parts, strict=True))
        return src, nxt, ways, placed, ends

    def _room_left(self, gi: int, q: int, room: np.ndarray, keys: np.ndarray) -> np.ndarray | bool:
        """Whether player ``q``'s hand, with ``room`` places left after group ``gi``'s move, may still meet
        their sets: not when it is full with a set unmet (open and not met in ``keys``, or to come)."""
        open_bits, to_come = self.hand_sets[(gi, q)]
        if to_come:
            return room > 0
        if open_bits:
            return (room > 0) | ((keys & open_bits) == open_bits)
        return True

    def codes(self, keys: np.ndarray) -> list[np.ndarray]:
        em = (1 << self.env_bits) - 1
        return [_small((keys >> (self.env_shift + k * self.env_bits)) & em) for k in range(3)]

    def accept(self, keys: np.ndarray) -> np.ndarray:
        """Which final states are complete deals: every set met and the envelope not an excluded triple."""
        ok = (keys >> self.m_shift) == 0
        codes = self.codes(keys)
        for triple in self.excluded_codes:
            ok &= ~((codes[0] == triple[0]) & (codes[1] == triple[1]) & (codes[2] == triple[2]))
        return ok

    def run(self, max_states: int | None = None, options: Mapping[str, Any] | None = None, *,
            per_move: bool = False) -> Counts:
        """The counts by a forward and a backward pass over the layers: one layer per step of
        :meth:`_group_steps` (a one-card group's places in one step), or with ``per_move`` one layer per
        move (a place taking some of its group's cards: the order :meth:`sample` draws its deals in)."""
        keys: np.ndarray = np.array([self.initial()], dtype=self.key_dtype)
        self.layers = [keys]
        self.run_steps = [[mv] for mv in self.moves] if per_move else self._group_steps()
        self.run_whole = not per_move
        forward: list[np.ndarray] = [np.ones(1, dtype=self.dtype)]
        steps = []
        wide = self.key_dtype is object or self.dtype is object
        entry = ENTRY_BYTES * (OBJECT_FACTOR if wide else 1)
        kept = 1
        most = max_items(options, entry)  # read once: the budget does not change during one count
        for i, moves in enumerate(self.run_steps):
            # the next layer has at most one transition per (state, cards a place takes)
            bound = keys.size * (len(self.groups[moves[0][0]].cards) + len(moves))
            if kept + bound > most:  # the message (and the estimate) from the shared check
                check_size(f"Clue states and transitions (counting the deals, step {i + 1} of "
                           f"{len(self.run_steps)})", kept + bound, options, entry, error=LayerTooLarge)
            src, nxt, ways, placed, ends = self._transitions(moves, keys, whole=not per_move)
            keys, dst = _unique(nxt)
            kept += src.size + keys.size
            if max_states is not None and keys.size > max_states:
                raise LayerTooLarge(f"{keys.size} states in one layer")
            steps.append((src, dst, ways, placed, ends))
            forward.append(segment_sum(dst, forward[-1][src] * ways, keys.size, self.dtype))
            self.layers.append(keys)
        accepted = self.accept(keys)
        back: np.ndarray = accepted.astype(self.dtype)
        total = int((forward[-1] * back).sum())
        self.backs = [back]
        n_places = self.prob.n + 1
        group_cells = [[0] * n_places for _ in self.groups]
        for i in range(len(steps) - 1, -1, -1):
            src, dst, ways, placed, ends = steps[i]
            through = ways * back[dst]
            placing = forward[i][src] * through * placed
            for mv, start, end in zip(self.run_steps[i], [0, *ends], ends, strict=False):
                group_cells[mv[0]][mv[1]] += int(placing[start:end].sum())
            back = segment_sum(src, through, self.layers[i].size, self.dtype)
            self.backs.append(back)
        self.backs.reverse()
        cells = [[0] * n_places for _ in self.prob.card_category]
        for g, row in zip(self.groups, group_cells, strict=True):
            for c in g.cards:
                cells[c] = [x // len(g.cards) for x in row]
        triples: dict[tuple[int, int, int], int] | None = None
        if self.track_all:
            triples = {}
            final = np.flatnonzero(accepted)
            for codes, cnt in zip(zip(*(x.tolist() for x in self.codes(keys[final])), strict=True),
                                  forward[-1][final].tolist(), strict=True):
                gs = [self.groups[self.code_group[(k, code)]] for k, code in enumerate(codes)]
                share = cnt // (len(gs[0].cards) * len(gs[1].cards) * len(gs[2].cards))
                for triple in itertools.product(gs[0].cards, gs[1].cards, gs[2].cards):
                    triples[triple] = triples.get(triple, 0) + share
        return Counts(total, tuple(map(tuple, cells)), triples)

    def split(self, player: int | None, watched: Sequence[tuple[int, int]], *, counts: bool = True,
              by_envelope: bool = False, ors: bool = True, options: Mapping[str, Any] | None = None,
              rows: bool = True, kernel_from: int | None = None,
              showings: Sequence[Sequence[tuple[int, int]]] = (), weigh: bool = False, unweighed: bool = False,
              reorder: Callable[[], bool] | None = None) -> tuple[np.ndarray, list[int], list[int]]:
        """One forward pass that keeps the deals apart by a *record*: how many cards of each group
        ``player`` takes (None: no player's), and for each ``(card, place)`` of ``watched`` (cards of
        one-card groups) whether the card is there.  Per record of the complete deals: the number of deals
        (0 when ``counts`` is off) and a bit mask of the groups that put a card in the envelope in some of
        them (0 when ``ors`` is off); returned as the records (a sorted array), the counts and the masks.
        ``by_envelope``: the record also holds the envelope slots (:meth:`codes`; meaningful when every group
        has a code, ``track_all``) from bit ``record_width`` on.  ``record_layout`` gives each field's bit:
        per group index its count's shift, per watched pair its bit.  From :data:`KERNEL_FROM` (or
        ``kernel_from``) entries in a layer, with numba, the rest of the pass runs compiled and :attr:`form`
        keeps its last layer by record (else :attr:`form` is None); with ``rows`` off the rows are then not
        made (empty arrays returned).  With ``rows`` off, the compiled part also *resolves* ``showings`` (per
        showing, its three (card, shower) pairs, all watched): once a showing's cards are placed, a record
        becomes one record per card the shower holds there (the card shown, a field of the record) and the
        watched bits no showing still needs are dropped, so that records of one view merge early
        (:class:`SplitForm` ``digit_shift``); ``weigh``: the deals are then weighed by 6 / |held| per showing,
        and ``unweighed`` keeps them unweighed too (``num2``).  ``reorder``: asked when the pass turns compiled
        (a large pass), raises :class:`Reorder` when it says so (the caller runs the pass in another order)."""
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
        steps = self._group_steps()
        can_compile = kernel_available() and not wide and or_dtype is np.int64
        work = 0  # layer entries handled in numpy (see COLD_KERNEL_WORK)
        for i, moves in enumerate(steps):
            gi = moves[0][0]
            bound = keys.size * (len(self.groups[gi].cards) + len(moves))
            if bound > most:
                check_size(f"Clue states kept apart by hand and shown cards (step {i + 1} of {len(steps)})", bound,
                           options, entry, error=LayerTooLarge)
            card = self.groups[gi].cards[0]
            rec_steps = [(1 << shifts[gi] if q == player else 0) + (1 << bits[(card, q)] if (card, q) in bits else 0)
                         for _, q, *_ in moves]
            if can_compile and keys.size >= (KERNEL_FROM if kernel_from is None else kernel_from) and \
                    (kernel_loaded() or work + keys.size * (len(steps) - i) >= COLD_KERNEL_WORK) and \
                    (kernel := split_kernel()) is not None:
                if reorder is not None and reorder():
                    raise Reorder
                resolve = _Resolve(showings, weigh, unweighed) if showings and not rows else None
                self.form = self._split_compiled(kernel, steps[i:], keys, recs, num, env_groups, player, shifts,
                                                 bits, ors, options, resolve)
                if not rows:
                    return np.zeros(0, dtype=np.int64), [], []
                keys, recs, num, env_groups = self.form.entries()
                break
            one = len(self.groups[gi].cards) == 1   # every move places the card: one way, one card
            work += keys.size
            src, nxt, ways, placed, ends = self._transitions(moves, keys, whole=True)
            per_move = np.diff([0, *ends])
            nrec = recs[src]
            if any(rec_steps):
                inc: np.ndarray = np.repeat(np.array(rec_steps, dtype=rec_dtype), per_move)
                nrec = nrec + (inc if one else inc * placed.astype(rec_dtype))
            if packed:
                both = (nxt << width) | nrec
                order, starts = _runs(both)
                both = both[order[starts]]
                keys, recs = both >> width, both & ((1 << width) - 1)
            else:
                order, starts = _runs(nxt, nrec)
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
        ok = np.flatnonzero(self.accept(keys))
        recs = recs[ok]
        if by_envelope:
            slots: np.ndarray = _small((keys[ok] >> self.env_shift) & ((1 << 3 * self.env_bits) - 1)).astype(rec_dtype)
            recs = recs + (slots << width)
        if by_envelope and bool(np.all(recs[1:] > recs[:-1])):
            # a complete deal's state is its envelope slots (every other field 0): the layer, sorted by
            # (state, record), already has each record once, in order
            sums = num[ok].tolist() if counts else [0] * recs.size
            return recs, sums, env_groups[ok].tolist() if ors else [0] * recs.size
        out_recs, dst = _unique(recs)
        masks = _segment_or(dst, env_groups[ok], out_recs.size, or_dtype).tolist() if ors else [0] * out_recs.size
        sums = segment_sum(dst, num[ok], out_recs.size, self.dtype).tolist() if counts else [0] * out_recs.size
        return out_recs, sums, masks

    def split_cost(self, player: int | None, watched: Sequence[tuple[int, int]]) -> float:
        """An estimate of the (state, record) entries :meth:`split` keeps: per step, the states of the plain
        count times 1.3 per group so far that the record follows (the player may take it, or it is watched).
        Only to compare card orders (:class:`_Counter` ``reverse``); a forward pass over the states alone."""
        keys: np.ndarray = np.array([self.initial()], dtype=self.key_dtype)
        followed = {c for c, _ in watched}
        pbit = 0 if player is None else 1 << player
        cost, grow = 0.0, 1.0
        for moves in self._group_steps():
            group = self.groups[moves[0][0]]
            if group.mask & pbit or group.cards[0] in followed:
                grow *= 1.3
            keys = _unique(self._transitions(moves, keys, whole=True)[1], "quicksort")[0]
            cost += keys.size * grow
        return cost

    def _split_compiled(self, kernel: ModuleType, steps: list[list[tuple[int, int, bool, int, int]]],
                        keys: np.ndarray, recs: np.ndarray, num: np.ndarray, env_groups: np.ndarray,
                        player: int | None, shifts: dict[int, int], bits: dict[tuple[int, int], int], ors: bool,
                        options: Mapping[str, Any] | None, resolve: _Resolve | None = None) -> SplitForm:
        """:meth:`split`'s remaining ``steps`` from the layer of (state, record) entries ``keys``, ``recs``
        (deals ``num``, envelope groups ``env_groups``), by the compiled :func:`._split_kernel.split_layer`
        (int64 throughout): each step's transitions are computed once per distinct state; with ``resolve``,
        each showing resolved after the step that places its last card (:func:`_resolved`, merged as the next
        step reads the records); records that are whole multiples of another kept as copies from one step to
        the next (:func:`._split_kernel.split_layer`, :func:`._split_kernel.record_copies`) and written out in
        full after the last.  Returns the last layer by record."""
        if num.size != keys.size:         # counts off: not kept (1 per entry from here: a positive number)
            num = np.ones(keys.size, dtype=np.int64)
        if env_groups.size != keys.size:  # ors off: not kept
            env_groups = np.zeros(keys.size, dtype=np.int64)
        by_rec = np.argsort(recs, kind="stable")
        recs, keys, num, env_groups = recs[by_rec], keys[by_rec], num[by_rec], env_groups[by_rec]
        starts = np.flatnonzero(np.concatenate(([True], recs[1:] != recs[:-1])))
        rec_start = np.append(starts, recs.size).astype(np.int64)
        rec_val = recs[starts].astype(np.int64)
        states, ent_state = _unique(keys, "quicksort")
        num, env_groups = num.astype(np.int64), env_groups.astype(np.int64)
        width = max([*(b + 1 for b in bits.values()), *(sh + len(self.groups[gi].cards).bit_length()
                                                        for gi, sh in shifts.items()), 0])
        if resolve is not None and not resolution_fits(self.prob, width, len(resolve.showings)):
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
            if not COPIES or (copies is None and not dedup):
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
                if TWO_STEPS and i + 1 < len(steps) and not due.get(i) else None
            both = n_read * first.paths(second) if second is not None else 0
            if second is not None and both <= most:
                most_out = both
            else:
                ahead, second = second, None   # the next call's step
            last = i if second is None else i + 1
            states = first.states if second is None else second.states
            # the next layer's buffers, as large as it may be: the layer before this one's where they are large
            # enough (written over: fresh memory costs a page fault per page written), else from numpy; the kernel
            # writes what it needs
            n_cls = first.cls_inc.size * (1 if second is None else second.cls_inc.size)
            sizes = [vals.size * n_cls + 1, vals.size * n_cls, most_out, most_out, most_out if use2 else 0,
                     most_out if ors else 0, *[vals.size * n_cls] * 3]
            out = [old if old.size >= size else np.empty(size, dtype=np.int64)
                   for old, size in zip(spare, sizes, strict=True)]
            *out, n_rec, n_ent = kernel.split_layer(
                rec_start, vals, group_start, src, factor, factor2, grp_ref, grp_k, grp_k2, ent_state, num, num2,
                env_groups, *first.arrays(), *(second or _NO_STEP).arrays(), use2, ors, COPY_FROM if COPIES else 0,
                *out)
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
            out = [np.empty(vals.size + 1, dtype=np.int64), *(np.empty(n_read, dtype=np.int64) for _ in range(2)),
                   np.empty(n_read if use2 else 0, dtype=np.int64), np.empty(n_read if ors else 0, dtype=np.int64)]
            n_ent = kernel.merge_records(group_start, src, factor, factor2, rec_start, ent_state, num, num2,
                                         env_groups, int(states.size), use2, ors, *out)
            rec_start, rec_val, ent_state = out[0], vals, out[1][:n_ent]
            num, num2, env_groups = out[2][:n_ent], out[3][:n_ent if use2 else 0], out[4][:n_ent if ors else 0]
        return SplitForm(states, rec_start, rec_val, ent_state, num,
                         env_groups if ors else np.zeros(ent_state.size, dtype=np.int64), digit_shift,
                         resolve is not None and resolve.weigh, num2)

    def _step_table(self, moves: list[tuple[int, int, bool, int, int]], states: np.ndarray, player: int | None,
                    shifts: dict[int, int], bits: dict[tuple[int, int], int]) -> _StepTable:
        """One step of :meth:`_split_compiled` from the distinct ``states`` of a layer, as the compiled kernel
        reads it."""
        gi = moves[0][0]
        card = self.groups[gi].cards[0]
        src, nxt, ways, placed, ends = self._transitions(moves, states, whole=True)
        per_move = np.diff([0, *ends])
        rec_steps = [(1 << shifts[gi] if q == player else 0) + (1 << bits[(card, q)] if (card, q) in bits else 0)
                     for _, q, *_ in moves]
        inc = np.repeat(np.array(rec_steps, dtype=np.int64), per_move) * placed
        env_or = np.repeat(np.array([1 << gi if q == self.prob.n else 0 for _, q, *_ in moves], dtype=np.int64),
                           per_move) * (placed > 0)
        cls_inc, cls = _unique(inc, "quicksort")
        order = np.argsort(src, kind="stable")
        tr_start = np.searchsorted(src[order], np.arange(states.size + 1)).astype(np.int64)
        nxt_states, dst = _unique(nxt, "quicksort")
        return _StepTable(tr_start, dst[order].astype(np.int64), ways[order].astype(np.int64),
                          cls[order].astype(np.int64), env_or[order], cls_inc, nxt_states,
                          int(np.diff(tr_start).max(initial=0)))

    def _group_steps(self) -> list[list[tuple[int, int, bool, int, int]]]:
        """The moves grouped into steps that each make one layer: a one-card group in one step (its card
        goes to each of its places: one move per place, each taking the card, alternatives of one another),
        the places of a larger group one step each (:attr:`moves`)."""
        by_group: list[list[tuple[int, int, bool, int, int]]] = [[] for _ in self.groups]
        for mv in self.moves:
            by_group[mv[0]].append(mv)
        steps: list[list[tuple[int, int, bool, int, int]]] = []
        for gi, (g, moves) in enumerate(zip(self.groups, by_group, strict=True)):
            if len(g.cards) == 1:
                kill = moves[-1][4]
                steps.append([(gi, q, True, clear, kill) for _, q, _, clear, _ in moves])
            else:
                steps += [[mv] for mv in moves]
        return steps

    def sample(self, rng: random.Random, k: int) -> list[tuple[int, ...]]:
        """``k`` deals drawn independently and uniformly from the consistent deals (after :meth:`run`), all
        walked through the layers together: at each step every deal takes a transition with probability
        proportional to ways x completions."""
        deals = np.full((k, len(self.prob.card_category)), -1, dtype=np.int64)
        pools = [np.array([rng.sample(g.cards, len(g.cards)) for _ in range(k)]) for g in self.groups]
        taken = [np.zeros(k, dtype=np.int64) for _ in self.groups]
        keys = np.repeat(self.layers[0], k)
        for i, moves in enumerate(self.run_steps):
            gi = moves[0][0]
            src, nxt, ways, placed, ends = self._transitions(moves, keys, whole=self.run_whole)
            place = np.repeat(np.array([mv[1] for mv in moves], dtype=np.int64), np.diff([0, *ends]))
            order = np.argsort(src, kind="stable")
            src, nxt, placed, place = src[order], nxt[order], placed[order], place[order]
            weight = ways[order] * self.backs[i + 1][np.searchsorted(self.layers[i + 1], nxt)]
            cum = np.cumsum(weight)
            start, end = (np.searchsorted(src, np.arange(k), side=side) for side in ("left", "right"))
            prior = np.where(start > 0, cum[np.maximum(start, 1) - 1], 0)  # weight of the other deals' options
            mine = cum[end - 1] - prior                                     # every deal has an option
            draws = np.array([rng.randrange(int(t)) for t in mine.tolist()], dtype=cum.dtype)
            pick = np.searchsorted(cum, prior + draws, side="right")
            keys, count, where = nxt[pick], placed[pick], place[pick]
            for j in range(int(count.max(initial=0))):
                who = np.flatnonzero(count > j)
                deals[who, pools[gi][who, taken[gi][who]]] = where[who]
                taken[gi][who] += 1
        return [tuple(row) for row in deals.tolist()]


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
        src = np.repeat(np.arange(self.start.size - 1), np.diff(self.start))
        return int(np.bincount(src, np.diff(then.start)[self.dst], self.start.size - 1).max(initial=0))


_EMPTY = np.zeros(0, dtype=np.int64)
_NO_STEP = _StepTable(np.zeros(1, dtype=np.int64), _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, _EMPTY, 0)   # no second step


Merged = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]   # values, group starts, source records, factors


def _identity(rec_val: np.ndarray) -> Merged:
    """Every record on its own (:meth:`_Counter._split_compiled`'s merged records; the lists left empty)."""
    empty = np.zeros(0, dtype=np.int64)
    return rec_val, empty, empty, empty


def _resolved(merged: Merged, pos: list[int], clear: int, shift: int, weigh: bool) -> Merged:
    """Merged records with one showing resolved (:func:`._split_kernel.resolve_records`): each record once per
    card of the showing the shower holds (``pos``: the cards' watched bits, -1 for a card the shower cannot
    hold), that card's position in the field at bit ``shift``, the bits ``clear`` dropped, the deals times 6
    / |held| with ``weigh``; records of one value merged (their sources listed together)."""
    kernel = split_kernel()
    assert kernel is not None
    out: Merged = kernel.resolve_records(*merged, np.array(pos, dtype=np.int64), clear, shift, weigh)
    return out


_BINOM = np.array([[comb(r, x) for x in range(64)] for r in range(64)], dtype=np.int64)  # fits: C(63, 31) < 2**63


def _unique(values: np.ndarray, kind: Literal["stable", "quicksort"] = "stable") -> tuple[np.ndarray, np.ndarray]:
    """Sorted distinct values and the index of each value among them.  By default a stable sort: the values
    come as a few sorted runs (one per choice of a move), which timsort merges in about linear time; values
    in no order sort faster with ``kind="quicksort"``."""
    if values.size <= 1:  # a layer of one state (a deal pinned down): no sort
        return values.copy(), np.zeros(values.size, dtype=np.int64)
    order = np.argsort(values, kind=kind)
    ordered = values[order]
    first = np.ones(values.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    inverse = np.empty(values.size, dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return ordered[first], inverse


def _runs(values: np.ndarray, second: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The order that sorts ``values`` (stable; with ``second``: the pairs ``(values[i], second[i])``) and
    where each run of equal values starts in that order: ``reduceat`` over the sorted values adds up (or
    ORs) each distinct value's entries."""
    if second is not None and (values.dtype == object or second.dtype == object):
        shift = max(1, int(max(second.tolist(), default=0)).bit_length())
        values, second = np.array([(int(x) << shift) | int(y) for x, y in zip(values.tolist(), second.tolist(),
                                                                              strict=True)], dtype=object), None
    order = np.argsort(values, kind="stable") if second is None else np.lexsort((second, values))
    ordered = values[order]
    first = np.ones(values.size, dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    if second is not None:
        ordered2 = second[order]
        first[1:] |= ordered2[1:] != ordered2[:-1]
    return order, np.flatnonzero(first)


def _unique_pairs(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sorted distinct pairs ``(a[i], b[i])`` (as two arrays) and the index of each pair among them."""
    if a.dtype == object or b.dtype == object:
        shift = max(1, int(max(b.tolist(), default=0)).bit_length())
        both, inverse = _unique(np.array([(int(x) << shift) | int(y) for x, y in zip(a.tolist(), b.tolist(),
                                                                                 strict=True)], dtype=object))
        mask = (1 << shift) - 1
        return (np.array([x >> shift for x in both.tolist()], dtype=a.dtype),
                np.array([x & mask for x in both.tolist()], dtype=b.dtype), inverse)
    if a.size and min(int(a.min()), int(b.min())) >= 0:
        shift = int(b.max()).bit_length()
        if int(a.max()).bit_length() + shift <= 62:   # both in one int64: one sort
            both, inverse = _unique((a << shift) | b, "quicksort")
            return both >> shift, both & ((1 << shift) - 1), inverse
    order = np.lexsort((b, a))
    oa, ob = a[order], b[order]
    first = np.ones(a.size, dtype=bool)
    first[1:] = (oa[1:] != oa[:-1]) | (ob[1:] != ob[:-1])
    inverse = np.empty(a.size, dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return oa[first], ob[first], inverse


def _segment_or(index: np.ndarray, values: np.ndarray, size: int, dtype: type) -> np.ndarray:
    """``out[j] = OR of values[index == j]``."""
    out: np.ndarray = np.zeros(size, dtype=dtype)
    np.bitwise_or.at(out, index, values)
    return out


def _small(values: np.ndarray) -> np.ndarray:
    """A field read off the state keys, as int64 (the keys are object arrays when they pass 62 bits)."""
    return values.astype(np.int64, copy=False)


def segment_sum(index: np.ndarray, values: np.ndarray, size: int, dtype: type) -> np.ndarray:
    """``out[j] = sum(values[index == j])``, exact (np.bincount would go through float64)."""
    out: np.ndarray = np.zeros(size, dtype=dtype)
    if size == 1:  # one state: every value is its own (np.add.at costs microseconds even then)
        out[0] = values.sum()
    else:
        np.add.at(out, index, values)
    return out


def sample_deals(problem: Problem, k: int, rng: random.Random) -> list[tuple[int, ...]]:
    """``k`` deals drawn uniformly (with replacement) from the consistent deals; [] when there is none."""
    reduced = problem.propagate()
    if reduced is None:
        return []
    counter = _Counter(reduced, False)
    if counter.run(per_move=True).total == 0:   # one layer per move: a seed draws the deals it always drew
        return []
    return counter.sample(rng, k)


# -- reference: brute force for small decks ------------------------------------------------------------

def brute_force_counts(problem: Problem) -> Counts:
    """The same counts by listing every deal (tests only: small decks)."""
    n, n_cards = problem.n, len(problem.card_category)
    cells = [[0] * (n + 1) for _ in range(n_cards)]
    triples: dict[tuple[int, int, int], int] = defaultdict(int)
    total = 0
    cats = problem.categories()
    for env in itertools.product(*cats):
        if env in problem.excluded or any(not problem.allowed[c] & problem.env_bit for c in env):
            continue
        rest = [c for c in range(n_cards) if c not in env]
        for deal in _hands(rest, list(problem.sizes), problem):
            if not all(any(deal.get(c, n) == p for c in s) for p, s in problem.some):
                continue
            total += 1
            triples[env] += 1  # type: ignore[index]
            for c in range(n_cards):
                cells[c][deal.get(c, n)] += 1
    return Counts(total, tuple(map(tuple, cells)), dict(triples))


def _hands(cards: list[int], sizes: list[int], problem: Problem) -> Iterator[dict[int, int]]:
    if not cards:
        yield {}
        return
    c, rest = cards[0], cards[1:]
    for p, left in enumerate(sizes):
        if left and problem.allowed[c] >> p & 1:
            sizes[p] -= 1
            for deal in _hands(rest, sizes, problem):
                yield {c: p, **deal}
            sizes[p] += 1
