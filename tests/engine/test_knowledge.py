"""The knowledge layer (sleuth.knowledge): every operator against its definition, world by world."""

from __future__ import annotations

import doctest
import importlib
import random
from fractions import Fraction

import numpy as np
import pytest

from sleuth import knowledge
from sleuth.knowledge import Worlds, belief, entropy, expectation, knows


def random_model(seed: int) -> tuple[Worlds[str], list[tuple[int, int, int]], list[Fraction]]:
    """Worlds (a, b, c) in 0..2, a random subset, random Fraction weights (some 0); Ann sees a, Bob sees
    (b, c) as a 2-d array, Cy sees a + b as a list."""
    rng = random.Random(seed)
    worlds = [(a, b, c) for a in range(3) for b in range(3) for c in range(3) if rng.random() < 0.7]
    weights = [Fraction(rng.randint(0, 4), rng.randint(1, 3)) for _ in worlds]
    obs = {"Ann": np.array([w[0] for w in worlds]), "Bob": np.array([[w[1], w[2]] for w in worlds]),
           "Cy": [w[0] + w[1] for w in worlds]}
    return Worlds(worlds, obs, weights), worlds, weights


def cell(worlds: list[tuple[int, int, int]], player: str, i: int) -> list[int]:
    key = {"Ann": lambda w: w[0], "Bob": lambda w: (w[1], w[2]), "Cy": lambda w: w[0] + w[1]}[player]
    return [j for j, w in enumerate(worlds) if key(w) == key(worlds[i])]


@pytest.mark.parametrize("seed", range(6))
def test_operators_match_their_definitions(seed: int) -> None:
    model, worlds, weights = random_model(seed)
    x = [w[2] for w in worlds]   # X: the third coordinate
    for p in ("Ann", "Bob", "Cy"):
        kn = model.knows(p, x)
        bel = model.belief(p, x, 1)
        for i in range(len(worlds)):
            c = cell(worlds, p, i)
            assert kn[i] == (len({x[j] for j in c}) == 1)
            den = sum(weights[j] for j in c)
            assert bel[i] == (sum(weights[j] for j in c if x[j] == 1) / den if den else 0)
            counts = model.counts(p, i, x)
            assert sum(counts.values()) == den and knows(counts) == (len({x[j] for j in c if weights[j]}) == 1)
    # nesting: Ann's view of "Bob knows X", Ann's expectation of Bob's belief, "Ann thinks Bob may know X"
    bob_knows = model.knows("Bob", x)
    may = model.somewhere("Ann", bob_knows)
    sure = model.everywhere("Ann", bob_knows)
    nested = model.expectation("Ann", model.belief("Bob", x, 1))
    for i in range(len(worlds)):
        c = cell(worlds, "Ann", i)
        assert may[i] == any(bob_knows[j] for j in c) and sure[i] == all(bob_knows[j] for j in c)
        den = sum(weights[j] for j in c)
        want = sum(weights[j] * model.belief("Bob", x, 1)[j] for j in c) / den if den else 0
        assert nested[i] == want
    total = sum(weights)
    assert model.probability(bob_knows) == (sum(w for w, k in zip(weights, bob_knows, strict=True) if k) / total
                                            if total else 0)


def test_integer_weights_stay_exact_and_big_ones_do_not_overflow() -> None:
    big = 3 ** 60
    model = Worlds([0, 1, 2], {"A": [0, 0, 1]}, [big, 2 * big, 5])
    assert model.belief("A", [0, 1, 2], 1)[0] == Fraction(2, 3)
    assert model.probability([True, False, False]) == Fraction(big, 3 * big + 5)
    small = Worlds([0, 1, 2], {"A": np.array([0, 0, 1])}, np.array([1, 2, 5]))
    assert small.weights.dtype == np.int64 and small.expectation("A", [3, 6, 1]).tolist() == [5, 5, 1]


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="observation keys"):
        Worlds([1, 2], {"A": [1]})
    with pytest.raises(ValueError, match="exact"):
        Worlds([1, 2], {"A": [1, 2]}, [0.5, 0.5])
    with pytest.raises(ValueError, match="weights"):
        Worlds([1, 2], {"A": [1, 2]}, [1])


def test_counted_cells_and_viewer_expectation() -> None:
    assert knows({"a": 3, "b": 0}) and not knows({"a": 1, "b": 1}) and not knows({})
    assert belief({"a": 1, "b": 3}) == {"a": Fraction(1, 4), "b": Fraction(3, 4)}
    assert entropy({"a": 1, "b": 1}) == 1.0 and entropy({"a": 5}) == 0
    views = [("v1", 1), ("v2", 3), ("v3", 0)]
    judged = {"v1": {"knows": True, "n": 2}, "v2": {"knows": False, "n": 4}}
    assert expectation(views, judged.__getitem__) == {"knows": Fraction(1, 4), "n": Fraction(7, 2)}
    assert expectation([], judged.__getitem__) == {}


def test_docstring_example() -> None:
    result = doctest.testmod(importlib.import_module("sleuth.knowledge"))
    assert result.attempted > 0 and result.failed == 0
    assert knowledge.__all__


def test_the_epistemic_layer_and_listed_worlds_agree() -> None:
    """The same worlds through solver.epistemic (formulas) and sleuth.knowledge (observation keys): who knows
    the world, who knows x, and the nested "S knows that P does not know the world"."""
    from sleuth.epistemic import ExplicitState, WorldTable

    table = WorldTable.from_product({"x": range(2, 12), "y": range(2, 12)}, ["x < y", "x + y <= 14"])
    state = ExplicitState(table, {"S": ["x + y"], "P": ["x * y"]})
    xs, ys = table.column("x"), table.column("y")
    worlds = Worlds(np.stack([xs, ys], axis=1), {"S": xs + ys, "P": xs * ys})
    pair = xs * 100 + ys
    assert np.array_equal(worlds.knows("P", pair), state.truth("knows(P)"))
    assert np.array_equal(worlds.knows("S", xs), state.truth("knows(S, x)"))
    assert np.array_equal(worlds.everywhere("S", ~worlds.knows("P", pair)), state.truth("knows(S, not knows(P))"))
