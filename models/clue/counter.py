"""The counting engine: the deals of a :class:`.problem.Problem` counted layer by layer (:class:`DealCounter`).

Cards that no at-least-one constraint or accusation mentions and that share a category and an allowed mask
are exchangeable, so they are placed as one block with binomial weights.  A forward pass over the blocks
keeps, per state, the number of partial deals; the state is the remaining capacity of every hand, what went
into each envelope slot, and which at-least-one constraints are still unmet, packed in one integer key.  A
backward pass gives the number of completions, and forward x backward the number of deals with a given card
in a given place.  Each layer of states is a sorted numpy array and each move is applied to the whole layer
at once.  The passes kept apart by a player's view build on it (:mod:`.split`), and so does the advice's
shared pass (:mod:`.suggest`).
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sleuth.limits import TooLarge, check_size, max_items

from .arrays import BINOM, segment_sum, small, unique
from .problem import Counts, Problem, deal_bound

ENTRY_BYTES = 32  # what one state (key, forward and backward count) or one transition kept costs, in int64
OBJECT_FACTOR = 5  # the same as Python integers in object arrays (the keys or counts past 62 bits)

class LayerTooLarge(TooLarge):
    """The counting would keep more states and transitions than the memory budget (``--set max_worlds``) or
    than ``max_states`` in one layer allow; a caller may catch it and use another method."""


@dataclass
class _Group:
    cards: list[int]
    category: int
    mask: int
    code: int = 1   # what the envelope slot records when this group fills it (1 = untracked)


class DealCounter:
    """The deals of a propagated :class:`.problem.Problem` counted layer by layer (:meth:`run`), and drawn
    uniformly from them (:meth:`sample`)."""

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

    def step(self, move: tuple[int, int, bool, int, int], keys: np.ndarray) -> tuple[np.ndarray, ...]:
        """One move from every state of a layer at once: (source index, next state, ways, cards placed) for
        every transition that keeps the deal possible."""
        gi, q, last, clear, kill = move
        group, player = self.groups[gi], q < self.prob.n
        u = small((keys >> self.u_shift) & ((1 << self.u_bits) - 1))
        rem = len(group.cards) - u
        if player:
            sh = q * self.cap_bits
            room = small((keys >> sh) & ((1 << self.cap_bits) - 1))   # free places in the hand
        else:
            sh = self.env_shift + group.category * self.env_bits
            room = (small((keys >> sh) & ((1 << self.env_bits) - 1)) == 0).astype(np.int64)  # slot still empty
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
            ways = BINOM[rem[src], placed] if player else np.where(placed > 0, rem[src], 1)
            out.append((src, t[src], ways.astype(self.dtype, copy=False), placed))
        if len(out) == 1:
            return out[0]
        return tuple(np.concatenate(parts) for parts in zip(*out, strict=True))

    def _place_one(self, move: tuple[int, int, bool, int, int], keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`step` for a one-card group at the start of its step (:meth:`group_steps`: nothing of the
        group placed yet): the card goes to the move's place, one way, so only (source index, next state)."""
        gi, q, _, clear, kill = move
        if q < self.prob.n:
            sh = q * self.cap_bits
            room = small((keys >> sh) & ((1 << self.cap_bits) - 1))
            src = np.flatnonzero(room > 0)
            t = keys[src] - (1 << sh)
            if clear:
                t = t | clear
            ok = self._room_left(gi, q, room[src] - 1, t)
        else:
            group = self.groups[gi]
            sh = self.env_shift + group.category * self.env_bits
            src = np.flatnonzero(small((keys >> sh) & ((1 << self.env_bits) - 1)) == 0)
            t = keys[src] | (group.code << sh)
            ok = True
        if kill:
            ok = ok & ((t & kill) == kill)
        if ok is not True:
            kept = np.flatnonzero(ok)
            src, t = src[kept], t[kept]
        return src, (t & ~kill if kill else t)

    def transitions(self, moves: list[tuple[int, int, bool, int, int]], keys: np.ndarray, *, whole: bool
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, list[int]]:
        """Every transition of one step (``moves``, alternatives from the layer ``keys``): (source index, next
        state, ways, cards placed) as arrays, move after move, and where each move's transitions end.
        ``whole``: the step is one of :meth:`group_steps` (a one-card group's card not yet placed)."""
        if whole and len(self.groups[moves[0][0]].cards) == 1:
            src, nxt, ends = self.placements(moves, keys)
            return src, nxt, np.ones(src.size, dtype=self.dtype), np.ones(src.size, dtype=np.int64), ends
        parts = [self.step(mv, keys) for mv in moves]
        ends = list(itertools.accumulate(p[0].size for p in parts))
        if len(parts) == 1:
            src, nxt, ways, placed = parts[0]
        else:
            src, nxt, ways, placed = (np.concatenate(x) for x in zip(*parts, strict=True))
        return src, nxt, ways, placed, ends

    def placements(self, moves: list[tuple[int, int, bool, int, int]], keys: np.ndarray
                   ) -> tuple[np.ndarray, np.ndarray, list[int]]:
        """:meth:`transitions` of a one-card group's step (of :meth:`group_steps`), where every transition is one
        way and places one card: (source index, next state) as arrays, move after move, and where each move's
        transitions end."""
        pairs = [self._place_one(mv, keys) for mv in moves]
        if len(pairs) == 1:   # one place (no copy)
            src, nxt = pairs[0]
        else:
            src, nxt = (np.concatenate(x) for x in zip(*pairs, strict=True))
        return src, nxt, list(itertools.accumulate(p[0].size for p in pairs))

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
        return [small((keys >> (self.env_shift + k * self.env_bits)) & em) for k in range(3)]

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
        :meth:`group_steps` (a one-card group's places in one step), or with ``per_move`` one layer per
        move (a place taking some of its group's cards: the order :meth:`sample` draws its deals in)."""
        keys: np.ndarray = np.array([self.initial()], dtype=self.key_dtype)
        self.layers = [keys]
        self.run_steps = [[mv] for mv in self.moves] if per_move else self.group_steps()
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
            src, nxt, ways, placed, ends = self.transitions(moves, keys, whole=not per_move)
            keys, dst = unique(nxt)
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


    def group_steps(self) -> list[list[tuple[int, int, bool, int, int]]]:
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
            src, nxt, ways, placed, ends = self.transitions(moves, keys, whole=self.run_whole)
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

