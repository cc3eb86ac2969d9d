"""Minimum hitting sets, solved directly by the CP-SAT optimiser.

A hitting set meets every given set.  The Clue seed needs the union of all minimum hitting sets (⋃MHS):
the cards that some minimum explanation of the suggestions needs.

>>> best = minimum_hitting_set([{1, 2}, {2, 3}, {3, 4}])
>>> len(best), is_hitting_set(best, [{1, 2}, {2, 3}, {3, 4}])
(2, True)
>>> sorted(map(sorted, all_minimum_hitting_sets([{1, 2}, {2, 3}, {3, 4}])))
[[1, 3], [2, 3], [2, 4]]
>>> sorted(union_of_minimum_hitting_sets([{1, 2}, {2, 3}, {3, 4}]))
[1, 2, 3, 4]
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import Generic, TypeVar

from .backends import SolveStatus, make_backend
from .limits import SolverTimeout
from .model import LinearExpr, Lit, Model

E = TypeVar("E", bound=Hashable)


class _HittingModel(Generic[E]):
    """The 0/1 model of a hitting-set problem: one literal per element, one clause per set."""

    def __init__(self, sets: Iterable[Iterable[E]], weights: Mapping[E, int] | None, backend: str) -> None:
        self.sets = [frozenset(s) for s in sets]
        if any(not s for s in self.sets):
            raise ValueError("an empty set cannot be hit")
        self.elements: list[E] = sorted({e for s in self.sets for e in s}, key=repr)
        self.weights = {e: int((weights or {}).get(e, 1)) for e in self.elements}
        if any(w <= 0 for w in self.weights.values()):
            raise ValueError("hitting-set weights must be positive integers")
        self.model = Model()
        self.lit = {e: self.model.bool_var(f"pick {e!r}").lit() for e in self.elements}
        for s in self.sets:
            self.model.add_any([self.lit[e] for e in s])
        self.cost = LinearExpr.sum_of(self.lit[e].var * self.weights[e] for e in self.elements)
        self.backend = make_backend(self.model, backend)
        self._optimum: int | None = None

    def optimum(self) -> tuple[int, frozenset[E]]:
        out = self.backend.solve(minimize=self.cost)
        if out.status is not SolveStatus.FEASIBLE or out.values is None or out.objective is None:
            raise SolverTimeout("minimum hitting set: the optimiser did not finish")
        self._optimum = out.objective
        return out.objective, frozenset(e for e in self.elements if self.lit[e].value_in(out.values))

    def at_optimum(self) -> Lit:
        """A guard literal that fixes the cost to the optimum."""
        if self._optimum is None:
            self.optimum()
        guard = self.model.bool_var("at optimum", aux=True).lit()
        self.model.add(self.cost == self._optimum, when=guard)
        return guard


def minimum_hitting_set(sets: Iterable[Iterable[E]], weights: Mapping[E, int] | None = None,
                        backend: str = "cpsat") -> frozenset[E]:
    """One hitting set of minimum total weight (default weight 1 per element)."""
    sets = list(sets)
    if not sets:
        return frozenset()
    return _HittingModel(sets, weights, backend).optimum()[1]


def all_minimum_hitting_sets(sets: Iterable[Iterable[E]], weights: Mapping[E, int] | None = None,
                             limit: int | None = None, backend: str = "cpsat") -> list[frozenset[E]]:
    """Every hitting set of minimum weight (at most ``limit``)."""
    sets = list(sets)
    if not sets:
        return [frozenset()]
    hm = _HittingModel(sets, weights, backend)
    guard = hm.at_optimum()
    found: list[frozenset[E]] = []
    for sol in hm.backend.solutions([guard], limit=limit):
        found.append(frozenset(e for e in hm.elements if hm.lit[e].value_in(sol)))
    return list(dict.fromkeys(found))


def union_of_minimum_hitting_sets(sets: Iterable[Iterable[E]], weights: Mapping[E, int] | None = None,
                                  backend: str = "cpsat") -> frozenset[E]:
    """⋃MHS: elements that belong to at least one minimum hitting set.

    Solution-guided: each optimal solution found adds its elements; an element not yet covered is tested
    with one solve (optimal cost and the element picked).
    """
    sets = list(sets)
    if not sets:
        return frozenset()
    hm = _HittingModel(sets, weights, backend)
    _, first = hm.optimum()
    guard = hm.at_optimum()
    union = set(first)
    for e in hm.elements:
        if e in union:
            continue
        out = hm.backend.solve([guard, hm.lit[e]])
        if out.status is SolveStatus.UNKNOWN:
            raise SolverTimeout("union of minimum hitting sets: a solve reached the time limit")
        if out.values is not None:
            union.update(x for x in hm.elements if hm.lit[x].value_in(out.values))
    return frozenset(union)


def is_hitting_set(candidate: Iterable[E], sets: Sequence[Iterable[E]]) -> bool:
    chosen = set(candidate)
    return all(chosen & set(s) for s in sets)
