"""The counting view of a Clue log (:class:`Problem`: allowed places per card, at-least-one sets, excluded
triples) and what counting it gives (:class:`Counts`); :func:`deal_bound` bounds every count formed on the way.

The counting itself is :mod:`.counter` (:func:`.counting.count_deals`); :meth:`Problem.propagate` applies the
obvious consequences first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from math import factorial, prod

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
