"""Plain explicit-state reference implementations of the classic puzzles: Python loops over lists of
worlds, with knowledge computed by grouping worlds per observation.  They share no code with the formula
engine or the world tables, so tests compare the two, and the benchmark reports the speed ratio."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence

World = tuple[int, ...]
Observe = Callable[[World], Hashable]


def _cells(worlds: Sequence[World], observe: Observe) -> dict[Hashable, list[World]]:
    cells: dict[Hashable, list[World]] = defaultdict(list)
    for w in worlds:
        cells[observe(w)].append(w)
    return cells


def knows_world(worlds: Sequence[World], observe: Observe) -> set[World]:
    """Worlds in which the agent can name the world."""
    return {c[0] for c in _cells(worlds, observe).values() if len(c) == 1}


def knows_that(worlds: Sequence[World], observe: Observe, holds: set[World]) -> set[World]:
    """Worlds in which every world the agent cannot tell apart is in ``holds``."""
    out: set[World] = set()
    for cell in _cells(worlds, observe).values():
        if all(w in holds for w in cell):
            out.update(cell)
    return out


def knows_value(worlds: Sequence[World], observe: Observe, value: Callable[[World], Hashable]) -> set[World]:
    out: set[World] = set()
    for cell in _cells(worlds, observe).values():
        if len({value(w) for w in cell}) == 1:
            out.update(cell)
    return out


def others(i: int) -> Observe:
    """The view of the agent on forehead ``i``: every coordinate but its own."""
    return lambda w: w[:i] + w[i + 1:]


def sum_and_product(limit: int = 100) -> list[World]:
    worlds = [(x, y) for x in range(2, limit) for y in range(x + 1, limit) if x + y <= limit]
    s: Observe = lambda w: w[0] + w[1]  # noqa: E731
    p: Observe = lambda w: w[0] * w[1]  # noqa: E731
    not_kp = set(worlds) - knows_world(worlds, p)
    for keep in (lambda ws: knows_that(ws, s, not_kp), lambda ws: knows_world(ws, p),
                 lambda ws: knows_world(ws, s)):
        kept = keep(worlds)
        worlds = [w for w in worlds if w in kept]
    return worlds


def what_sum(bound: int) -> list[World]:
    worlds = [(a, b, c) for a in range(1, bound + 1) for b in range(1, bound + 1) for c in range(1, bound + 1)
              if a == b + c or b == a + c or c == a + b]
    for i in range(3):
        known = knows_world(worlds, others(i))
        worlds = [w for w in worlds if w not in known]
    return worlds


def muddy_children(n: int, muddy: int) -> tuple[int, list[int]]:
    """Rounds of "nobody knows" before someone knows at the actual world (the first ``muddy`` children
    muddy), and which children know then."""
    worlds = [tuple((m >> i) & 1 for i in range(n)) for m in range(1, 2 ** n)]
    actual = tuple(1 if i < muddy else 0 for i in range(n))
    views = [others(i) for i in range(n)]
    rounds = 0
    while True:
        knowing = [knows_value(worlds, views[i], lambda w, i=i: w[i]) for i in range(n)]
        who = [i for i in range(n) if actual in knowing[i]]
        if who:
            return rounds, who
        nobody = set(worlds)
        for k in knowing:
            nobody -= k
        worlds = [w for w in worlds if w in nobody]
        rounds += 1
