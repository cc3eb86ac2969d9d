"""Exact counting of the deals consistent with a Clue log, and everything read off the counts.

A deal puts every card in one place: a player's hand (exact hand sizes) or the envelope (one card per
category).  The observations restrict the places a card may take (``allowed`` bit masks), ask that a player
hold at least one card of a set (a shown card nobody saw), and exclude envelope triples (wrong accusations).

Counting, not enumeration: cards that no at-least-one constraint or accusation mentions and that share a
category and an allowed mask are exchangeable, so they are placed as one block with binomial weights.  A
forward pass over the blocks keeps, per state, the number of partial deals; the state is the remaining
capacity of every hand, what went into each envelope slot, and which at-least-one constraints are still
unmet.  A backward pass gives the number of completions, and forward x backward the number of deals with a
given card in a given place.  Everything is an exact integer; probabilities are fractions of them.

The exact knowledge sheet is the support of these counts: a cell is *yes* when every deal has it, *no*
when none has it.
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from .game import Game, Obs, ObsKind


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
    def from_observations(cls, game: Game, obs: Sequence[Obs]) -> Problem:
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
            slots = [(1 << p, self.sizes[p], range(len(allowed))) for p in range(n)]
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
            for p, cards in some:
                left = frozenset(c for c in cards if allowed[c] >> p & 1)
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


class StateBudgetExceeded(RuntimeError):
    """The forward pass grew past ``max_states`` states in one layer (the caller may use another method)."""


@dataclass
class _Group:
    cards: list[int]
    category: int
    mask: int
    code: int = 1   # what the envelope slot records when this group fills it (1 = untracked)


def count_deals(problem: Problem, *, triples: bool = False, max_states: int | None = None) -> Counts:
    """Exact counts for every (card, place); with ``triples`` also per envelope triple.

    With ``max_states``, raises :class:`StateBudgetExceeded` as soon as a layer holds more states."""
    n_cards, n_places = len(problem.card_category), problem.n + 1
    reduced = problem.propagate()
    if reduced is None:
        return Counts(0, tuple((0,) * n_places for _ in range(n_cards)), {} if triples else None)
    return _Counter(reduced, triples).run(max_states)


class _Counter:
    def __init__(self, prob: Problem, track_all: bool) -> None:
        self.prob = prob
        self.track_all = track_all
        n = prob.n
        constrained = set().union(*(s for _, s in prob.some)) if prob.some else set()
        accused = {c for t in prob.excluded for c in t}
        blocks: dict[tuple[int, int], list[int]] = defaultdict(list)
        singles: list[int] = []
        for c, mask in enumerate(prob.allowed):
            if c in constrained or c in accused:
                singles.append(c)
            else:
                blocks[(prob.card_category[c], mask)].append(c)
        groups = [_Group(cards, cat, mask) for (cat, mask), cards in sorted(blocks.items())]
        groups += [_Group([c], prob.card_category[c], prob.allowed[c]) for c in self._order(singles)]
        per_category = [0, 0, 0]
        for g in groups:
            if track_all or any(c in accused for c in g.cards):
                g.code = 2 + per_category[g.category]
                per_category[g.category] += 1
        self.groups = groups
        # state layout: capacities | envelope slots | cards placed in the current group | unmet sets
        self.cap_bits = max(1, max(prob.sizes).bit_length())
        self.env_shift = self.cap_bits * n
        self.env_bits = max(2, (max(per_category) + 2).bit_length())
        self.u_shift = self.env_shift + 3 * self.env_bits
        self.u_bits = max(1, max(len(g.cards) for g in groups).bit_length())
        self.m_shift = self.u_shift + self.u_bits
        self.card_group = {c: i for i, g in enumerate(groups) for c in g.cards}
        self.code_group = {(g.category, g.code): i for i, g in enumerate(groups) if g.code > 1}
        self.excluded_codes = {tuple(groups[self.card_group[c]].code for c in t) for t in prob.excluded}
        last_group: dict[int, int] = {}
        for k, (_, s) in enumerate(prob.some):
            last_group[k] = max(self.card_group[c] for c in s)
        self.player_sets = [sum(1 << k for k, (p, _) in enumerate(prob.some) if p == q) << self.m_shift
                            for q in range(n)]
        self.moves = []  # (group index, place, last place of the group, clear bits, kill bits)
        for gi, g in enumerate(groups):
            places = [q for q in range(n + 1) if g.mask >> q & 1]
            kill = sum(1 << k for k, lg in last_group.items() if lg == gi) << self.m_shift
            for j, q in enumerate(places):
                clear = 0
                if q < n:
                    clear = sum(1 << k for k, (p, s) in enumerate(prob.some) if p == q and g.cards[0] in s)
                last = j == len(places) - 1
                self.moves.append((gi, q, last, clear << self.m_shift, kill if last else 0))

    def _order(self, singles: list[int]) -> list[int]:
        """Cards of at-least-one sets in an order that keeps few sets open at a time.

        A set is open from its first card to its last; the unmet-set part of the state varies only over
        open sets.  Greedy: next take the card that closes the most sets and opens the fewest.
        """
        left = set(singles)
        sets = [set(s) for _, s in self.prob.some]
        remaining = [set(s) for s in sets]
        opened = [False] * len(sets)
        order: list[int] = []
        while left:
            def score(c: int) -> tuple[int, int, int]:
                closes = sum(1 for r in remaining if r == {c})
                opens = sum(1 for k, s in enumerate(sets) if c in s and not opened[k] and len(s) > 1)
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
        return st | (((1 << len(self.prob.some)) - 1) << self.m_shift)

    def transitions(self, move: tuple[int, int, bool, int, int], st: int) -> Iterator[tuple[int, int, int]]:
        """(next state, ways, cards placed) for one move from one state."""
        gi, q, last, clear, kill = move
        g = self.groups[gi]
        k = len(g.cards)
        umask = (1 << self.u_bits) - 1
        u = (st >> self.u_shift) & umask
        rem = k - u
        if q < self.prob.n:
            sh = q * self.cap_bits
            cap = (st >> sh) & ((1 << self.cap_bits) - 1)
            choices: Sequence[int] = (rem,) if last else range(min(rem, cap) + 1)
            for m in choices:
                if m > cap:
                    continue
                t = st - (m << sh)
                t = t - (u << self.u_shift) if last else t + (m << self.u_shift)
                if m and clear:
                    t &= ~clear
                if t & kill or (m == cap and t & self.player_sets[q]):
                    continue  # a set is left unmet for good (its last card passed, or the hand is full)
                yield t, comb(rem, m), m
        else:
            esh = self.env_shift + g.category * self.env_bits
            slot = (st >> esh) & ((1 << self.env_bits) - 1)
            choices = (rem,) if last else ((0, 1) if rem else (0,))
            for m in choices:
                if m > 1 or (m and slot):
                    continue
                t = st | (g.code << esh) if m else st
                t = t - (u << self.u_shift) if last else t + (m << self.u_shift)
                if t & kill:
                    continue
                yield t, rem if m else 1, m

    def codes(self, st: int) -> tuple[int, int, int]:
        em = (1 << self.env_bits) - 1
        return tuple((st >> (self.env_shift + k * self.env_bits)) & em for k in range(3))  # type: ignore[return-value]

    def accept(self, st: int) -> bool:
        return st >> self.m_shift == 0 and self.codes(st) not in self.excluded_codes

    def run(self, max_states: int | None = None) -> Counts:
        layers: list[dict[int, int]] = [{self.initial(): 1}]
        for mv in self.moves:
            nxt: dict[int, int] = defaultdict(int)
            for st, cnt in layers[-1].items():
                for t, w, _ in self.transitions(mv, st):
                    nxt[t] += cnt * w
            if max_states is not None and len(nxt) > max_states:
                raise StateBudgetExceeded(f"{len(nxt)} states in one layer")
            layers.append(nxt)
        back: dict[int, int] = {st: 1 for st in layers[-1] if self.accept(st)}
        self.backs = [back]
        total = sum(layers[-1][st] for st in back)
        n_places = self.prob.n + 1
        group_cells = [[0] * n_places for _ in self.groups]
        for i in range(len(self.moves) - 1, -1, -1):
            mv = self.moves[i]
            gi, q = mv[0], mv[1]
            prev: dict[int, int] = {}
            acc = 0
            for st, cnt in layers[i].items():
                ways = 0
                for t, w, m in self.transitions(mv, st):
                    b = back.get(t)
                    if b:
                        ways += w * b
                        if m:
                            acc += cnt * w * b * m
                if ways:
                    prev[st] = ways
            group_cells[gi][q] += acc
            back = prev
            self.backs.append(back)
        self.backs.reverse()
        cells = [[0] * n_places for _ in self.prob.card_category]
        for g, row in zip(self.groups, group_cells, strict=True):
            for c in g.cards:
                for q in range(n_places):
                    cells[c][q] = row[q] // len(g.cards)
        triples = None
        if self.track_all:
            triples = {}
            for st, cnt in layers[-1].items():
                if not self.accept(st):
                    continue
                gs = [self.groups[self.code_group[(k, code)]] for k, code in enumerate(self.codes(st))]
                share = cnt // (len(gs[0].cards) * len(gs[1].cards) * len(gs[2].cards))
                for triple in itertools.product(*(g.cards for g in gs)):
                    triples[triple] = triples.get(triple, 0) + share  # type: ignore[index]
        return Counts(total, tuple(map(tuple, cells)), triples)


    def sample(self, rng: random.Random) -> tuple[int, ...]:
        """One deal drawn uniformly from the consistent deals (after :meth:`run`)."""
        deal = [-1] * len(self.prob.card_category)
        pools = [rng.sample(g.cards, len(g.cards)) for g in self.groups]
        st = self.initial()
        for i, mv in enumerate(self.moves):
            options = [(t, w * self.backs[i + 1].get(t, 0), m) for t, w, m in self.transitions(mv, st)]
            x = rng.randrange(sum(weight for _, weight, _ in options))
            pick = 0
            while x >= options[pick][1]:
                x -= options[pick][1]
                pick += 1
            t, _, m = options[pick]
            pool = pools[mv[0]]
            for _ in range(m):
                deal[pool.pop()] = mv[1]
            st = t
        return tuple(deal)


def sample_deals(problem: Problem, k: int, rng: random.Random) -> list[tuple[int, ...]]:
    """``k`` deals drawn uniformly (with replacement) from the consistent deals; [] when there is none."""
    reduced = problem.propagate()
    if reduced is None:
        return []
    counter = _Counter(reduced, False)
    if counter.run().total == 0:
        return []
    return [counter.sample(rng) for _ in range(k)]


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
