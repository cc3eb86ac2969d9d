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

The parts: the counting view of a log (:mod:`.problem`), the layered counting engine (:mod:`.counter`), its
array steps (:mod:`.arrays`), the passes kept apart by a player's view (:mod:`.split`) and the plumbing of
their compiled loops (:mod:`.compiled`: loading, thresholds, the switches tests flip there).  This module
counts and samples with them, keeps the brute-force reference, and names what they export (``__all__``).
"""

from __future__ import annotations

import itertools
import random
from collections import defaultdict
from collections.abc import Iterator, Mapping
from typing import Any

from .arrays import segment_sum
from .compiled import COLD_KERNEL_WORK, COPIES, COPY_FROM, KERNEL_FROM, TWO_STEPS
from .counter import ENTRY_BYTES, OBJECT_FACTOR, DealCounter, LayerTooLarge
from .problem import Counts, Problem, deal_bound
from .split import COMPILED_ENTRY_BYTES, Merged, Reorder, SplitCounter, SplitForm, resolution_fits

__all__ = [
    "COLD_KERNEL_WORK", "COMPILED_ENTRY_BYTES", "COPIES", "COPY_FROM", "ENTRY_BYTES", "KERNEL_FROM",
    "OBJECT_FACTOR", "TWO_STEPS", "Counts", "DealCounter", "LayerTooLarge", "Merged", "Problem", "Reorder",
    "SplitCounter", "SplitForm", "brute_force_counts", "count_deals", "deal_bound", "resolution_fits",
    "sample_deals", "segment_sum",
]


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
    return DealCounter(reduced, triples).run(max_states, options)


def sample_deals(problem: Problem, k: int, rng: random.Random) -> list[tuple[int, ...]]:
    """``k`` deals drawn uniformly (with replacement) from the consistent deals; [] when there is none."""
    reduced = problem.propagate()
    if reduced is None:
        return []
    counter = DealCounter(reduced, False)
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
