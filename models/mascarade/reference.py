"""Plain reference for the tests: every history of the unknown swaps, walked one by one with fractions."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction

from .state import SeeStep, Step, SwapStep


def brute_force(initial: Sequence[int], steps: Sequence[Step],
                prior: Fraction = Fraction(1, 2)) -> dict[tuple[int, ...], Fraction]:
    """The exact posterior {placement: P}; empty when no history agrees with what was seen."""
    unknown = sum(1 for s in steps if isinstance(s, SwapStep) and s.outcome is None)
    weights: dict[tuple[int, ...], Fraction] = {}
    for bits in itertools.product((False, True), repeat=unknown):
        it = iter(bits)
        state = list(initial)
        w = Fraction(1)
        ok = True
        for s in steps:
            if isinstance(s, SwapStep):
                happened = s.outcome if s.outcome is not None else next(it)
                if s.outcome is None:
                    w *= prior if happened else 1 - prior
                if happened:
                    state[s.a], state[s.b] = state[s.b], state[s.a]
            elif state[s.position] != s.identity:
                ok = False
                break
        if ok and w:
            key = tuple(state)
            weights[key] = weights.get(key, Fraction(0)) + w
    total = sum(weights.values(), Fraction(0))
    return {k: v / total for k, v in weights.items()} if total else {}


def marginals_of(dist: dict[tuple[int, ...], Fraction], n: int) -> list[dict[int, Fraction]]:
    out: list[dict[int, Fraction]] = [{} for _ in range(n)]
    for placement, p in dist.items():
        for pos, c in enumerate(placement):
            out[pos][c] = out[pos].get(c, Fraction(0)) + p
    return out


__all__ = ["brute_force", "marginals_of", "SeeStep"]
