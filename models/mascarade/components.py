"""Exact beliefs over card placements: the seed's branching-time tree and distribution over states.

The belief is a product of independent *components*.  A component is a set of positions whose cards have been
mixed by swaps of unknown outcome, with an exact (unnormalised, integer) weight per placement of its cards.
A position no uncertain swap touched is a component of one position with one placement: its card is certain.
A swap of unknown outcome between two components merges them (their product); a known swap only moves cards
between positions; a reveal or a look keeps the placements that agree with it, after which every position
whose card became certain is split off again.

A placement of a component is packed into one ``int64`` key, 4 bits per position (position ``p`` at bits
``4p..4p+3``, zero outside the component), so components combine by bitwise or and equal placements are found
by sorting keys.  Weights are ``int64`` while they provably fit (checked before every multiplication, reduced
by their gcd when they grow) and Python integers after that, so every probability is an exact fraction.

Each component is held in one of two representations (:class:`Repr`):

- ``TREE``: one leaf per history (sequence of swap outcomes), never merged; the history bits are kept, so the
  posterior of each past swap can be read off (the seed's probabilistic branching time update).  Leaves double
  with every unknown swap.
- ``STATES``: one row per distinct placement, equal placements merged after every swap (the seed's
  distribution over states, with the shortcut of generating states as they become possible).

``Method.AUTO`` keeps a component as a tree while it is small and converts it to states once its leaves
outnumber the placements it could possibly have or a fixed cap (the seed's hybrid, section 5).
"""

from __future__ import annotations

import enum
import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sleuth.limits import LimitReached

BITS = 4
NIBBLE = (1 << BITS) - 1
SAFE = 1 << 62              # int64 weights and their sums stay below this
EXACT_FLOAT = 1 << 52       # float64 sums are exact below this


class Method(enum.Enum):
    AUTO = "auto"
    TREE = "tree"
    STATES = "states"
    MATRIX = "matrix"
    CPSAT = "cpsat"


class Repr(enum.Enum):
    TREE = "tree"
    STATES = "states"


DEFAULT_TREE_CAP = 1024     # AUTO: a tree larger than this becomes states (measured: `sleuth experiment mascarade`)


class ComponentLimit(LimitReached):
    """A component outgrew the configured limit on rows (leaves or states)."""


def nibble(keys: np.ndarray, pos: int) -> np.ndarray:
    return (keys >> (BITS * pos)) & NIBBLE


def pack(placement: Sequence[int], positions: Iterable[int]) -> int:
    return sum(placement[p] << (BITS * p) for p in positions)


def swap_nibbles(keys: np.ndarray, a: int, b: int) -> np.ndarray:
    va, vb = nibble(keys, a), nibble(keys, b)
    clear = np.int64(~((NIBBLE << (BITS * a)) | (NIBBLE << (BITS * b))))
    return (keys & clear) | (va << (BITS * b)) | (vb << (BITS * a))


def move_nibble(keys: np.ndarray, src: int, dst: int) -> np.ndarray:
    """Keys whose position ``dst`` is empty (0): the card at ``src`` moves to ``dst``."""
    v = nibble(keys, src)
    return (keys & np.int64(~(NIBBLE << (BITS * src)))) | (v << (BITS * dst))


def exact_sum(weights: np.ndarray) -> int:
    return int(weights.sum()) if weights.dtype == object else int(weights.sum(dtype=np.int64))


def group_sums(groups: np.ndarray, weights: np.ndarray, n_groups: int) -> list[int]:
    """Exact ``sum(weights[groups == g])`` for every g (int64 weights split in halves for exact float sums)."""
    if weights.dtype == object:
        out = [0] * n_groups
        for g, w in zip(groups.tolist(), weights.tolist(), strict=True):
            out[g] += w
        return out
    total = [0] * n_groups
    chunk = 1 << 20
    for start in range(0, len(weights), chunk):
        g = groups[start:start + chunk]
        w = weights[start:start + chunk]
        lo = np.bincount(g, (w & 0x7FFFFFFF).astype(np.float64), n_groups)
        hi = np.bincount(g, (w >> 31).astype(np.float64), n_groups)
        for i in range(n_groups):
            total[i] += int(lo[i]) + (int(hi[i]) << 31)
    return total


@dataclass
class Component:
    """Positions mixed by unknown swaps and the weighted placements (or histories) of their cards."""

    positions: list[int]
    keys: np.ndarray                 # int64, one per row
    weights: np.ndarray              # int64 or object, one per row, all > 0
    hist: np.ndarray | None = None   # TREE: uint64 (rows, words), bit k = unknown swap k happened
    swap_ids: tuple[int, ...] = ()   # TREE: the unknown swaps recorded in ``hist``

    @property
    def representation(self) -> Repr:
        return Repr.TREE if self.hist is not None else Repr.STATES

    @property
    def rows(self) -> int:
        return len(self.keys)

    def total(self) -> int:
        return exact_sum(self.weights)

    def nbytes(self) -> int:
        return self.keys.nbytes + (self.weights.nbytes if self.weights.dtype != object else 40 * self.rows) \
            + (self.hist.nbytes if self.hist is not None else 0)

    def distinct(self) -> int:
        return self.rows if self.hist is None else len(np.unique(self.keys))

    def state_space(self, initial: Sequence[int]) -> int:
        """How many placements this component's cards have at most (a multinomial)."""
        counts = Counter(initial[p] for p in self.positions)
        n = math.factorial(len(self.positions))
        for c in counts.values():
            n //= math.factorial(c)
        return n

    # -- weights -------------------------------------------------------------------------------------
    def make_room(self, factor: int) -> None:
        """Ensure total * factor stays exact in int64 (divide by the gcd, else switch to Python ints)."""
        if self.weights.dtype == object:
            return
        total = self.total()
        if total * factor < SAFE:
            return
        g = int(np.gcd.reduce(self.weights))
        if g > 1:
            self.weights //= g
            total //= g
        if total * factor >= SAFE:
            self.weights = self.weights.astype(object)

    def reduce(self) -> None:
        g = int(np.gcd.reduce(self.weights)) if self.rows else 1
        if g > 1:
            self.weights = self.weights // g
        if self.weights.dtype == object and self.rows and self.total() < SAFE:
            self.weights = self.weights.astype(np.int64)

    # -- representation --------------------------------------------------------------------------------
    def merge_equal(self) -> None:
        """STATES: one row per distinct placement, weights summed (drops the history)."""
        self.hist, self.swap_ids = None, ()
        if self.rows <= 1:
            return
        order = np.argsort(self.keys, kind="stable")
        keys = self.keys[order]
        new = np.empty(len(keys), dtype=bool)
        new[0] = True
        np.not_equal(keys[1:], keys[:-1], out=new[1:])
        starts = np.flatnonzero(new)
        if len(starts) == len(keys):
            self.keys, self.weights = keys, self.weights[order]
            return
        self.keys = keys[starts]
        self.weights = np.add.reduceat(self.weights[order], starts)

    def select(self, mask: np.ndarray) -> None:
        self.keys = self.keys[mask]
        self.weights = self.weights[mask]
        if self.hist is not None:
            self.hist = self.hist[mask]


def _words(swap_id: int) -> int:
    return swap_id // 64 + 1


def _pad(hist: np.ndarray, words: int) -> np.ndarray:
    if hist.shape[1] >= words:
        return hist
    return np.concatenate([hist, np.zeros((hist.shape[0], words - hist.shape[1]), np.uint64)], axis=1)


COMPONENT_METHODS = frozenset({Method.AUTO, Method.TREE, Method.STATES})  # what ComponentBelief implements


class ComponentBelief:
    """The exact belief of one viewer, updated event by event (methods tree, states and auto)."""

    def __init__(self, initial: Sequence[int], prior: Fraction = Fraction(1, 2), method: Method = Method.AUTO,
                 *, tree_cap: int = DEFAULT_TREE_CAP, max_rows: int | None = None, factor: bool = True) -> None:
        if method not in COMPONENT_METHODS:
            raise ValueError(f"ComponentBelief does not implement {method}")
        self.initial = tuple(initial)
        self.method = method
        self.prior = Fraction(prior)
        self.tree_cap = tree_cap
        self.max_rows = max_rows
        self.consistent = True
        self.unknown_swaps = 0           # ids of unknown swaps, in order
        self.settled: dict[int, Fraction] = {}   # TREE: posteriors of swaps whose components dissolved
        self.comp_of: dict[int, Component] = {}
        for p, c in enumerate(self.initial):
            self.comp_of[p] = self._certain(p, c)
        self._marg_cache: dict[int, tuple[Component, list[int], list[list[int]], int]] = {}
        self.factor = factor
        if not factor and len(self.initial) > 1:     # the seed's plain methods: one component for the table
            comp = self.comp_of[0]
            for p in range(1, len(self.initial)):
                comp = self._merge(comp, self.comp_of[p])

    def _certain(self, pos: int, card: int) -> Component:
        tree = self.method is not Method.STATES
        return Component([pos], np.array([card << (BITS * pos)], np.int64), np.ones(1, np.int64),
                         np.zeros((1, 1), np.uint64) if tree else None)

    @property
    def components(self) -> list[Component]:
        seen: dict[int, Component] = {}
        for c in self.comp_of.values():
            seen[id(c)] = c
        return list(seen.values())

    def _changed(self, comp: Component) -> None:
        self._marg_cache.pop(id(comp), None)

    # -- events ----------------------------------------------------------------------------------------
    def swap(self, a: int, b: int, outcome: bool | None) -> None:
        """A swap-or-not of positions a and b; ``outcome`` None when the viewer does not know it."""
        if outcome is None and self.prior in (0, 1):
            outcome = self.prior == 1
        if outcome is None:
            self._unknown_swap(a, b)
        elif outcome:
            self._known_swap(a, b)

    def _known_swap(self, a: int, b: int) -> None:
        ca, cb = self.comp_of[a], self.comp_of[b]
        if ca is cb:
            ca.keys = swap_nibbles(ca.keys, a, b)
            self._changed(ca)
            return
        ca.keys = move_nibble(ca.keys, a, b)
        cb.keys = move_nibble(cb.keys, b, a)
        ca.positions = sorted(p if p != a else b for p in ca.positions)
        cb.positions = sorted(p if p != b else a for p in cb.positions)
        self.comp_of[a], self.comp_of[b] = cb, ca
        self._changed(ca)
        self._changed(cb)

    def _unknown_swap(self, a: int, b: int) -> None:
        y, x = self.prior.numerator, self.prior.denominator - self.prior.numerator   # swapped, not swapped
        comp = self._merge(self.comp_of[a], self.comp_of[b])
        swap_id = self.unknown_swaps
        self.unknown_swaps += 1
        comp.make_room(x + y)
        keys2 = swap_nibbles(comp.keys, a, b)
        w_not, w_yes = (comp.weights, comp.weights) if x == y else (comp.weights * x, comp.weights * y)
        if comp.hist is not None:
            hist = _pad(comp.hist, _words(swap_id))
            hist2 = hist.copy()
            hist2[:, swap_id // 64] |= np.uint64(1 << (swap_id % 64))
            comp.hist = np.concatenate([hist, hist2])
            comp.swap_ids = (*comp.swap_ids, swap_id)
        comp.keys = np.concatenate([comp.keys, keys2])
        comp.weights = np.concatenate([w_not, w_yes])
        tree_too_big = self.method is Method.AUTO and comp.rows > min(self.tree_cap, comp.state_space(self.initial))
        if comp.hist is None or tree_too_big:
            comp.merge_equal()
        self._check_size(comp)
        self._changed(comp)
        self._split_certain(comp, (a, b))

    def _check_size(self, comp: Component) -> None:
        if self.max_rows is not None and comp.rows > self.max_rows:
            raise ComponentLimit(f"a component of {len(comp.positions)} positions reached {comp.rows} "
                           f"{'leaves' if comp.hist is not None else 'states'} (limit {self.max_rows})")

    def _merge(self, c1: Component, c2: Component) -> Component:
        if c1 is c2:
            return c1
        c1.reduce()
        c2.reduce()
        c1.make_room(c2.total())
        c2.make_room(c1.total())
        if c1.weights.dtype != c2.weights.dtype:
            c1.weights, c2.weights = c1.weights.astype(object), c2.weights.astype(object)
        keys = (c1.keys[:, None] | c2.keys[None, :]).ravel()
        weights = (c1.weights[:, None] * c2.weights[None, :]).ravel()
        hist = None
        ids: tuple[int, ...] = ()
        if c1.hist is not None and c2.hist is not None:
            words = max(c1.hist.shape[1], c2.hist.shape[1])
            h1, h2 = _pad(c1.hist, words), _pad(c2.hist, words)
            hist = (h1[:, None, :] | h2[None, :, :]).reshape(-1, words)
            ids = tuple(sorted({*c1.swap_ids, *c2.swap_ids}))
        merged = Component(sorted(c1.positions + c2.positions), keys, weights, hist, ids)
        if hist is None and (c1.hist is not None or c2.hist is not None):
            merged.merge_equal()
        for p in merged.positions:
            self.comp_of[p] = merged
        self._changed(c1)
        self._changed(c2)
        self._check_size(merged)
        return merged

    def see(self, pos: int, card: int) -> bool:
        """The viewer learns that ``pos`` holds ``card``; False when no placement agrees (contradiction)."""
        comp = self.comp_of[pos]
        mask = nibble(comp.keys, pos) == card
        if not mask.all():
            comp.select(mask)
            self._changed(comp)
            if comp.rows == 0:
                self.consistent = False
                return False
            comp.reduce()
            self._split_certain(comp, comp.positions)
        return True

    def _split_certain(self, comp: Component, candidates: Iterable[int]) -> None:
        """Split off positions whose card is now the same in every row of the component."""
        if not self.factor or len(comp.positions) == 1 or comp.rows == 0:
            return
        certain = [p for p in candidates if p in comp.positions
                   and bool((nibble(comp.keys, p) == nibble(comp.keys[:1], p)[0]).all())]
        if not certain:
            return
        if len(certain) >= len(comp.positions) - 1:
            certain = list(comp.positions)      # the last one is certain too
            if comp.hist is not None:
                self.settled.update(self._swap_posteriors(comp, comp.hist))
        for p in certain:
            card = int(nibble(comp.keys[:1], p)[0])
            comp.keys = comp.keys & np.int64(~(NIBBLE << (BITS * p)))
            comp.positions.remove(p)
            self.comp_of[p] = self._certain(p, card)
        self._changed(comp)
        if not comp.positions:
            return
        if comp.hist is None:
            comp.merge_equal()

    # -- reading the belief ------------------------------------------------------------------------------
    def _component_marginals(self, comp: Component) -> tuple[list[int], list[list[int]], int]:
        cached = self._marg_cache.get(id(comp))
        if cached is None or cached[0] is not comp:
            n_ids = max(self.initial) + 1
            total = comp.total()
            table = [group_sums(nibble(comp.keys, p).astype(np.intp), comp.weights, n_ids) for p in comp.positions]
            cached = self._marg_cache[id(comp)] = (comp, list(comp.positions), table, total)
        return cached[1], cached[2], cached[3]

    def marginals(self) -> list[dict[int, Fraction]]:
        """P(position holds identity), exactly, for every position (identities with P > 0 only)."""
        out: list[dict[int, Fraction]] = [{} for _ in self.initial]
        if not self.consistent:
            return out
        for comp in self.components:
            positions, table, total = self._component_marginals(comp)
            for p, row in zip(positions, table, strict=True):
                out[p] = {c: Fraction(w, total) for c, w in enumerate(row) if w}
        return out

    def support(self) -> int:
        """The number of placements with non-zero probability."""
        if not self.consistent:
            return 0
        return math.prod(c.distinct() for c in self.components)

    def rows(self) -> int:
        return sum(c.rows for c in self.components)

    def nbytes(self) -> int:
        return sum(c.nbytes() for c in self.components)

    def largest(self) -> int:
        return max(c.rows for c in self.components)

    def distribution(self) -> dict[tuple[int, ...], Fraction]:
        """The whole posterior {placement: probability} (a product over components; small tables only)."""
        if not self.consistent:
            return {}
        dist: dict[int, Fraction] = {0: Fraction(1)}
        for comp in self.components:
            total = comp.total()
            part: Counter[int] = Counter()
            for k, w in zip(comp.keys.tolist(), comp.weights.tolist(), strict=True):
                part[k] += w
            dist = {k1 | k2: p1 * Fraction(w2, total) for k1, p1 in dist.items() for k2, w2 in part.items()}
        n = len(self.initial)
        return {tuple((k >> (BITS * p)) & NIBBLE for p in range(n)): pr for k, pr in dist.items()}

    def witness(self, pos: int, card: int, holds: bool) -> tuple[int, ...] | None:
        """A placement with non-zero probability in which ``pos`` holds ``card`` (or not, ``holds=False``)."""
        if not self.consistent:
            return None
        key = 0
        for comp in self.components:
            row = 0
            if pos in comp.positions:
                match = (nibble(comp.keys, pos) == card) == holds
                if not match.any():
                    return None
                row = int(np.argmax(match))
            key |= int(comp.keys[row])
        return tuple((key >> (BITS * p)) & NIBBLE for p in range(len(self.initial)))

    @staticmethod
    def _swap_posteriors(comp: Component, hist: np.ndarray) -> dict[int, Fraction]:
        """P(swap k happened) for the unknown swaps of a component, from its history bits ``hist``."""
        total = comp.total()
        out = {}
        for sid in comp.swap_ids:
            bit = (hist[:, sid // 64] >> np.uint64(sid % 64)) & np.uint64(1)
            yes = group_sums(bit.astype(np.intp), comp.weights, 2)[1]
            out[sid] = Fraction(yes, total)
        return out

    def swap_posteriors(self) -> dict[int, Fraction] | None:
        """TREE only: P(unknown swap k really happened | what the viewer saw), for every unknown swap k."""
        if self.method is not Method.TREE or not self.consistent:
            return None
        out = dict(self.settled)
        for comp in self.components:
            if comp.hist is not None:
                out.update(self._swap_posteriors(comp, comp.hist))
        for sid in range(self.unknown_swaps):
            out.setdefault(sid, self.prior)     # a swap of two equal certain cards that dissolved unseen
        return dict(sorted(out.items()))
