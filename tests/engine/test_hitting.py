"""Minimum hitting sets by the optimiser against brute force."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.hitting import (all_minimum_hitting_sets, is_hitting_set, minimum_hitting_set,
                            union_of_minimum_hitting_sets)

set_systems = st.lists(st.frozensets(st.integers(0, 6), min_size=1, max_size=3), min_size=1, max_size=6)
weights = st.dictionaries(st.integers(0, 6), st.integers(1, 4))


def brute(sets, w):
    elements = sorted(set().union(*sets))
    best, found = None, []
    for r in range(len(elements) + 1):
        for combo in itertools.combinations(elements, r):
            if is_hitting_set(combo, sets):
                cost = sum(w.get(e, 1) for e in combo)
                if best is None or cost < best:
                    best, found = cost, [frozenset(combo)]
                elif cost == best:
                    found.append(frozenset(combo))
    return best, set(found)


@settings(max_examples=60, deadline=None)
@given(set_systems, weights)
def test_hitting_sets_match_brute_force(sets, w):
    best, every = brute(sets, w)
    one = minimum_hitting_set(sets, w)
    assert is_hitting_set(one, sets) and sum(w.get(e, 1) for e in one) == best
    assert set(all_minimum_hitting_sets(sets, w)) == every
    assert union_of_minimum_hitting_sets(sets, w) == frozenset().union(*every)


def test_weights_change_the_answer():
    sets = [{"a", "b"}, {"b", "c"}]
    assert minimum_hitting_set(sets) == {"b"}
    assert minimum_hitting_set(sets, {"b": 5}) == {"a", "c"}
    assert minimum_hitting_set([]) == frozenset()
