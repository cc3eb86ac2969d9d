"""The minimax search under the memory budget: estimated before it allocates, refused past the budget with the
estimate and the way to raise it, and exact whatever size its witness ring is given."""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

from sleuth.limits import TooLarge, check_bytes
from sleuth.models.motus import strategy as st
from sleuth.models.motus.emi import GameTree, plan_search
from tests.helpers.motus import brute_value, games

pytest.importorskip("numba")


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games())
def test_a_tiny_witness_ring_gives_the_same_values(game: tuple[np.ndarray, int]) -> None:
    """Two witnesses per depth (the oldest overwritten all the time) still give the brute-force value."""
    from sleuth.models.motus._emi_kernel import Kernel

    matrix, found = game
    kernel = Kernel(matrix, found, time.monotonic, slots=2)
    everything = np.arange(matrix.shape[1])
    k = 1
    while kernel.fits(everything, k, None) != 1:
        k += 1
    assert k == brute_value(matrix, found, tuple(range(matrix.shape[1])))


def test_the_ring_shrinks_to_fit_a_small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    from sleuth.models.motus._emi_kernel import NW

    assert plan_search(300, 300).slots == NW
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "8M")
    plan = plan_search(300, 300)
    assert 0 < plan.slots < NW and plan.buffers + plan.room == 8 * 1024 ** 2
    rng = np.random.default_rng(3)
    matrix = rng.integers(0, 3, size=(9, 7)).astype(np.uint16)
    matrix[np.arange(7), np.arange(7)] = 3
    tree = GameTree(matrix, 3)
    assert tree._kernel is not None and tree.cache_limit == plan_search(9, 7).room
    assert tree.value().lower == brute_value(matrix, 3, tuple(range(7)))


@pytest.mark.parametrize("kernel", ["numba", "numpy"])
def test_a_search_past_the_budget_is_refused_before_allocating(monkeypatch: pytest.MonkeyPatch, kernel: str) -> None:
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "8M")
    with pytest.raises(TooLarge, match=r"minimax search needs about [\d.]+ MB \(3,000 proposals x 1,000 answers.*"
                                        r"budget of 8\.0 MB; raise it with SLEUTH_MEMORY_BUDGET=\d+M"):
        plan_search(3000, 1000, kernel=kernel, matrix=True)
    with pytest.raises(TooLarge):
        GameTree(np.zeros((3000, 1000), dtype=np.uint16), 5, kernel=kernel)


def test_the_suggested_budget_is_enough(monkeypatch: pytest.MonkeyPatch) -> None:
    """The budget the refusal names lets the same search start."""
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "8M")
    with pytest.raises(TooLarge) as info:
        plan_search(3000, 1000, matrix=True)
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", str(info.value).rsplit("SLEUTH_MEMORY_BUDGET=", 1)[1].split(",")[0])
    assert plan_search(3000, 1000, matrix=True).slots > 0


def test_feedback_matrix_check(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "100M")
    assert st.check_matrix(1000, 1000, 2) < 100 * 1024 ** 2
    with pytest.raises(TooLarge, match="feedback matrix needs about 2.4 GB"):
        st.check_matrix(30_000, 20_000, 2)
    assert check_bytes("x", 10) == 100 * 1024 ** 2 - 10
