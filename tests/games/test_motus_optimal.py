"""The exact optimal-average search against brute force on small random dictionaries, both kernels."""

from __future__ import annotations

import importlib.util
import json
import random
from typing import Any

import numpy as np
import pytest

from sleuth.models.motus import optimal as optimal_module
from sleuth.models.motus.game import OPTIMAL_KERNEL
from sleuth.models.motus.optimal import Optimal, distribution, replay, to_dot
from sleuth.models.motus.space import CodeSpace, WordSpace, game_space
from sleuth.models.motus.words import from_words
from tests.helpers.motus_brute import pegs_feedback
from tests.helpers.motus import INF, brute, random_words

HAS_NUMBA = importlib.util.find_spec("numba") is not None
# The compiled kernel is what users run by default, so it is checked against brute force in the default run
# (numba is in the test extra); compiling it takes 20-50 s once per run on a loaded 2-core machine.
KERNELS = ["python", "numba"]


def _space(seed: int, answers: int = 7, extra: int = 6) -> WordSpace:
    rng = random.Random(seed)
    words = random_words(rng, answers + extra)
    chosen = sorted(rng.sample(words, answers))
    base = from_words(words)
    wl = type(base)(base.name, base.key + "-sub", tuple(chosen), tuple(words), "test")
    return WordSpace(wl.cell(4), 6)


@pytest.mark.parametrize("kernel", KERNELS)
@pytest.mark.parametrize("seed", range(6))
def test_matches_brute_force(kernel: str, seed: int) -> None:
    space = _space(seed)
    for guesses in ("all", "answers"):
        pool = space.guesses if guesses == "all" else space.answers
        for hard in (False, True):
            for cap in (None, 3):
                opt = Optimal(space, guesses=guesses, hard=hard, cap=cap, kernel=kernel)
                assert opt.value() == brute(space.answers, pool, hard=hard, cap=cap), (seed, guesses, hard, cap)


@pytest.mark.parametrize("kernel", KERNELS)
def test_a_cache_that_grows_during_the_search(kernel: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Starting from a 2-slot cache, the search doubles it several times while it runs (the kernel hands the
    grown table back): the value of brute force, the same tree as with the default cache; in hard mode too
    (Wordle's 43 answers starting with V, against the default cache)."""
    mm = CodeSpace(pegs=2, colours=4)
    wordle = game_space("wordle")
    cases = [(mm, False, brute(mm.answers, mm.guesses, feedback=pegs_feedback)),
             (WordSpace(wordle.cell.dictionary.cell(5, "V"), 6), True, None)]
    for space, hard, expected in cases:
        default = Optimal(space, hard=hard, kernel=kernel)
        with monkeypatch.context() as m:
            m.setattr(optimal_module, "MEMO_SLOTS", 2)
            small = Optimal(space, hard=hard, kernel=kernel)
        assert small.memo.shape == (3, 3)
        assert small.value() == default.value() == (expected or default.value())
        slots = small.memo.shape[0] - 1
        assert slots >= 16 and 2 * small.memo[0, 0] <= slots
        assert small.memo[0, 0] == (small.memo[1:, 2] >= 0).sum() == default.memo[0, 0]
        assert small.tree().to_json() == default.tree().to_json()


@pytest.mark.parametrize("kernel", KERNELS)
def test_mastermind_small_matches_brute_force(kernel: str) -> None:
    space = CodeSpace(pegs=2, colours=4)
    assert Optimal(space, kernel=kernel).value() == brute(space.answers, space.guesses, feedback=pegs_feedback)
    assert Optimal(space, kernel=kernel, cap=3).value() == brute(space.answers, space.guesses, feedback=pegs_feedback,
                                                                 cap=3)


@pytest.mark.skipif(not HAS_NUMBA, reason="numba is not installed")
def test_kernels_agree_on_openers_and_larger_sets() -> None:   # 6 s of CPU, compiling included: in the default run
    space = _space(11, answers=20, extra=20)
    for opener in space.guesses[:4]:
        values = {k: Optimal(space, kernel=k).guess_value(space.guess_index[opener]) for k in ("python", "numba")}
        assert len(set(values.values())) == 1, values


@pytest.mark.parametrize("hard", [False, True])
def test_tree_export_replays_to_its_total(hard: bool) -> None:
    space = _space(3, answers=25, extra=30)
    opt = Optimal(space, hard=hard, kernel="python")
    tree = opt.tree()
    assert tree.total == opt.value()
    exported = json.loads(json.dumps(tree.to_json()))
    played = replay(exported, space)
    assert sum(k * v for k, v in played.items()) == tree.total
    assert played == distribution(tree)
    assert sum(played.values()) == len(space.answers)
    dot = to_dot(tree)
    assert dot.startswith("digraph") and dot.count("->") == _edges(exported)


def _edges(node: dict) -> int:
    return sum(1 + _edges(c) for c in node["next"].values())


def test_opener_tree_and_cap() -> None:
    space = _space(5, answers=20, extra=20)
    opt = Optimal(space, kernel="python")
    best = opt.value()
    totals = [opt.guess_value(i) for i in range(len(space.guesses))]
    assert min(totals) == best
    first = space.guesses[int(np.argmin(totals))]
    assert opt.tree(first).total == best
    capped = Optimal(space, cap=max(distribution(opt.tree())), kernel="python")
    assert capped.value() == best  # the optimal tree meets its own worst case
    assert Optimal(space, cap=1, kernel="python").value() >= INF


def test_rank_lists_exact_totals_best_first() -> None:
    space = _space(8, answers=15, extra=15)
    opt = Optimal(space, kernel="python")
    answers = np.arange(len(space.answers))
    top = opt.rank(answers, opt.pool, 5)
    assert [t for _, t in top] == sorted(opt.guess_value(i) for i in range(len(space.guesses)))[:5]
    assert all(opt.guess_value(g) == t for g, t in top)


def test_node_limit_raises_instead_of_guessing() -> None:
    from sleuth.models.motus.emi import SearchTimeout

    space = _space(9, answers=200, extra=30)
    with pytest.raises(SearchTimeout):
        Optimal(space, node_limit=1, kernel="python").value()


def test_cell_value_is_exact_or_proven_bounds() -> None:
    from sleuth.models.motus.optimal_study import cell_value

    space = _space(4, answers=40, extra=0)
    truth = Optimal(space, kernel="python").value()
    full = cell_value(space, kernel="python")
    assert full["exact"] and full["total"] == truth and full["sum_total"] >= truth
    cut = cell_value(space, kernel="python", node_limit=1)
    assert cut["lower"] <= truth <= cut["upper"]
    assert cut["exact"] == (cut["lower"] == cut["upper"]) and (cut["total"] is None) == (not cut["exact"])


@pytest.mark.parametrize("kernel", KERNELS)
def test_kernel_sort_and_cache_helpers(kernel: str) -> None:
    """The kernel's own heapsort sorts like ``sorted`` (duplicates, negatives, empty, one); its cache (a hash
    table that doubles when half full) is keyed by both 64-bit hashes: an entry is found only under the pair it
    was kept under, and every entry survives the growth."""
    if kernel == "numba" and not HAS_NUMBA:
        pytest.skip("numba is not installed")
    sort_keys, memo_get, memo_put = _helpers(kernel)
    rng = random.Random(5)
    for n in (0, 1, 2, 7, 64, 301):
        keys = [rng.randint(-50, 50) for _ in range(n)]
        assert sort_keys(np.array(keys, dtype=np.int64)).tolist() == sorted(keys)
    memo = Optimal(CodeSpace(pegs=2, colours=3), kernel=kernel).memo
    memo = memo_put(memo, 11, 22, 5 << 33)
    assert memo_get(memo, 11, 22) == 5 << 33
    assert memo_get(memo, 11, 23) == -1 and memo_get(memo, 12, 22) == -1
    memo = memo_put(memo, 11, 23, 7 << 33)  # the same first hash, another set: kept apart, never mixed
    assert memo_get(memo, 11, 22) == 5 << 33 and memo_get(memo, 11, 23) == 7 << 33
    memo = memo_put(memo, 11, 22, 6 << 33)  # the same key: replaced
    assert memo_get(memo, 11, 22) == 6 << 33 and memo[0, 0] == 2
    # past half full the table doubles and keeps every entry (keys that collide in the first slots included)
    slots = memo.shape[0] - 1
    keys = [(rng.randint(-2**63, 2**63 - 1), rng.randint(-2**63, 2**63 - 1)) for _ in range(3 * slots)]
    keys += [(slots * i + 3, i) for i in range(slots)]
    for i, (h1, h2) in enumerate(keys):
        memo = memo_put(memo, h1, h2, i)
    assert memo.shape[0] - 1 >= 2 * len(keys) and memo[0, 0] == len(keys) + 2
    assert all(memo_get(memo, h1, h2) == i for i, (h1, h2) in enumerate(keys))
    assert memo_get(memo, 11, 22) == 6 << 33 and memo_get(memo, 11, 24) == -1


@pytest.mark.parametrize("kernel", KERNELS)
def test_a_cap_that_cannot_be_met_is_cached_without_wrapping(kernel: str) -> None:
    """A node that cannot be solved under the cap is kept in the cache with the bound INF: its packed entry is
    a positive int64 (no wrap into the "free slot" sign), decodes to INF, and the table's entry count equals
    its occupied slots."""
    if kernel == "numba" and not HAS_NUMBA:
        pytest.skip("numba is not installed")
    opt = Optimal(CodeSpace(pegs=3, colours=3), kernel=kernel, cap=3)
    inf = OPTIMAL_KERNEL.plain().INF
    assert opt.value() >= inf   # 27 codes cannot all be found within three guesses
    entries = opt.memo[1:, 2]
    kept = entries[entries >= 0]
    assert opt.memo[0, 0] == len(kept) > 0
    assert int(entries.min()) >= -1 and (kept >> opt.k.VALUE).max() == inf


def _helpers(kernel: str) -> tuple[Any, Any, Any]:
    """The kernel's ``sort_keys``, ``memo_get`` and ``memo_put``; for numba, compiled functions that call the
    kernel's own (compiled without the wrappers Python would need to call them)."""
    k = OPTIMAL_KERNEL.load(switch=False) if kernel == "numba" else OPTIMAL_KERNEL.plain()
    if kernel == "python":
        return k.sort_keys, k.memo_get, k.memo_put
    import numba

    sort_keys, memo_get, memo_put = k.sort_keys, k.memo_get, k.memo_put

    def sort(keys):  # type: ignore[no-untyped-def]
        return sort_keys(keys)

    def get(memo, h1, h2):  # type: ignore[no-untyped-def]
        return memo_get(memo, np.int64(h1), np.int64(h2))

    def put(memo, h1, h2, packed):  # type: ignore[no-untyped-def]
        return memo_put(memo, np.int64(h1), np.int64(h2), np.int64(packed))

    return numba.njit(sort), numba.njit(get), numba.njit(put)
