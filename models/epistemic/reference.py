"""Plain explicit-state reference implementations of the classic puzzles: Python loops over lists of
worlds, with knowledge computed by grouping worlds per observation.  They share no code with the formula
engine or the world tables, so tests compare the two, and the benchmark reports the speed ratio."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from operator import itemgetter

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
    worlds: list[World] = [(x, y) for x in range(2, limit) for y in range(x + 1, limit) if x + y <= limit]
    s: Observe = lambda w: w[0] + w[1]  # noqa: E731
    p: Observe = lambda w: w[0] * w[1]  # noqa: E731
    not_kp = set(worlds) - knows_world(worlds, p)
    steps: list[Callable[[list[World]], set[World]]] = [
        lambda ws: knows_that(ws, s, not_kp), lambda ws: knows_world(ws, p), lambda ws: knows_world(ws, s)]
    for keep in steps:
        kept = keep(worlds)
        worlds = [w for w in worlds if w in kept]
    return worlds


def what_sum(bound: int) -> list[World]:
    span = range(1, bound + 1)
    worlds: list[World] = [(a, b, c) for a in span for b in span for c in span
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
        knowing = [knows_value(worlds, views[i], itemgetter(i)) for i in range(n)]
        who = [i for i in range(n) if actual in knowing[i]]
        if who:
            return rounds, who
        nobody = set(worlds)
        for k in knowing:
            nobody -= k
        worlds = [w for w in worlds if w in nobody]
        rounds += 1


# -- Kripke models with explicit relations: product update, common and distributed knowledge --------------

Holds = Callable[[int], bool]


@dataclass
class Kripke:
    """Worlds (valuations), per agent the set of worlds each world considers possible, designated worlds."""

    worlds: list[World]
    rel: dict[str, list[set[int]]]
    designated: set[int]


@dataclass(frozen=True)
class RefEvent:
    pre: Callable[[World], bool]
    post: Callable[[World], World]
    designated: bool = True


def observation_model(worlds: Sequence[World], views: dict[str, Observe]) -> Kripke:
    rel = {a: [{v for v, y in enumerate(worlds) if view(y) == view(x)} for x in worlds] for a, view in views.items()}
    return Kripke(list(worlds), rel, set(range(len(worlds))))


def _nothing(world: World) -> Hashable:
    """What an agent without a view keeps observing: nothing."""
    return ()


def product(model: Kripke, events: Sequence[RefEvent], erel: dict[str, list[set[int]]],
            learn: tuple[Callable[[World], Hashable], set[str]] | None = None,
            views: dict[str, Observe] | None = None) -> Kripke:
    """The product update, pair by pair: (w, e) exists when e's precondition holds at w; ``views``: what each
    agent keeps observing, compared in the worlds after the event."""
    pairs = [(w, e) for e, ev in enumerate(events) for w in range(len(model.worlds)) if ev.pre(model.worlds[w])]
    index = {p: i for i, p in enumerate(pairs)}
    worlds = [events[e].post(model.worlds[w]) for w, e in pairs]
    rel: dict[str, list[set[int]]] = {}
    for a, r in model.rel.items():
        rel[a] = []
        view: Observe = (views or {}).get(a, _nothing)
        learned = learn[0] if learn is not None and a in learn[1] else None  # what ``a`` learns, if anything
        for i, (w, e) in enumerate(pairs):
            heard = None if learned is None else learned(model.worlds[w])
            rel[a].append({index[(v, f)] for v in r[w] for f in erel[a][e] if (v, f) in index
                           and (learned is None or learned(model.worlds[v]) == heard)
                           and view(worlds[index[(v, f)]]) == view(worlds[i])})
    designated = {i for i, (w, e) in enumerate(pairs) if w in model.designated and events[e].designated}
    return Kripke(worlds, rel, designated)


def restrict(model: Kripke, keep: set[int]) -> Kripke:
    """A public announcement: keep the listed worlds, cut every relation to them."""
    order = sorted(keep)
    new = {w: i for i, w in enumerate(order)}
    rel = {a: [{new[v] for v in r[w] if v in new} for w in order] for a, r in model.rel.items()}
    return Kripke([model.worlds[w] for w in order], rel, {new[w] for w in model.designated if w in new})


def k(model: Kripke, agent: str, holds: Holds) -> list[bool]:
    return [all(holds(v) for v in model.rel[agent][w]) for w in range(len(model.worlds))]


def distributed(model: Kripke, group: Sequence[str], holds: Holds) -> list[bool]:
    out = []
    for w in range(len(model.worlds)):
        meet = set.intersection(*(model.rel[a][w] for a in group))
        out.append(all(holds(v) for v in meet))
    return out


def common(model: Kripke, group: Sequence[str], holds: Holds) -> list[bool]:
    """Holds in every world reachable in one step or more (breadth-first search from each world)."""
    out = []
    for w in range(len(model.worlds)):
        seen: set[int] = set()
        todo = [v for a in group for v in model.rel[a][w]]
        while todo:
            v = todo.pop()
            if v not in seen:
                seen.add(v)
                todo.extend(u for a in group for u in model.rel[a][v])
        out.append(all(holds(v) for v in seen))
    return out


def muddy_some_hear(n: int, muddy: int, hearers: int) -> list[list[int]]:
    """Muddy children where only the first ``hearers`` hear whether someone is muddy (the others know they
    heard it): after the father and after each round of "nobody knows", which children know at the actual
    world (until someone knows)."""
    worlds = [tuple((m >> i) & 1 for i in range(n)) for m in range(2 ** n)]
    model = observation_model(worlds, {f"c{i}": others(i) for i in range(n)})
    told = {f"c{i}" for i in range(hearers)}
    model = product(model, [RefEvent(lambda w: True, lambda w: w)], {a: [{0}] for a in model.rel},
                    (lambda w: sum(w) >= 1, told))
    actual = tuple(1 if i < muddy else 0 for i in range(n))
    out = []
    while True:
        knowing = [[len({model.worlds[v][i] for v in model.rel[f"c{i}"][w]}) == 1 for w in range(len(model.worlds))]
                   for i in range(n)]
        at = model.worlds.index(actual)
        who = [i for i in range(n) if knowing[i][at]]
        out.append(who)
        if who:
            return out
        model = restrict(model, {w for w in range(len(model.worlds)) if not any(kn[w] for kn in knowing)})
