"""The Evil Motus Index search: the compiled kernel against the numpy one and a plain minimax."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hst

from sleuth.models.motus import feedback as fb
from sleuth.models.motus import words
from sleuth.models.motus.emi import GameTree, SearchTimeout
from sleuth.models.motus.space import WordSpace
from tests.helpers.motus import brute_value, games

pytest.importorskip("numba")

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games(), hst.randoms(use_true_random=False))
def test_kernels_agree_with_brute_force(game: tuple[np.ndarray, int], rnd) -> None:
    matrix, found = game
    n = matrix.shape[1]
    truth = brute_value(matrix, found, tuple(range(n)))
    fast = GameTree(matrix, found, kernel="numba")
    slow = GameTree(matrix, found, kernel="numpy")
    assert fast.kernel == "numba" and slow.kernel == "numpy"
    assert fast.value().lower == slow.value().lower == truth
    # the same trees on subsets and every depth: kept witnesses must stay right for later questions
    for _ in range(6):
        sub = np.array(sorted(rnd.sample(range(n), rnd.randint(1, n))), dtype=np.int64)
        v = brute_value(matrix, found, tuple(int(x) for x in sub))
        for k in range(max(v - 2, 1), v + 2):
            assert fast.fits(sub, k) == slow.fits(sub, k) == (k >= v)


@settings(max_examples=40, deadline=None)
@given(games())
def test_kept_witnesses_are_proven(game: tuple[np.ndarray, int]) -> None:
    matrix, found = game
    tree = GameTree(matrix, found, kernel="numba")
    tree.value()
    for depth, witness in tree._kernel.witnesses():
        assert brute_value(matrix, found, tuple(int(x) for x in witness)) > depth


def test_deeper_witnesses_are_proven() -> None:
    # two codes only: values 4 and 5, so refutations at depth 3 keep witnesses of depth 3 too
    rng = np.random.default_rng(1)
    depths: set[int] = set()
    for _ in range(40):
        n = int(rng.integers(8, 16))
        matrix = rng.integers(0, 2, size=(n + int(rng.integers(0, 4)), n)).astype(np.uint16)
        matrix[np.arange(n), np.arange(n)] = 2
        tree = GameTree(matrix, 2, kernel="numba")
        assert tree.value().lower == brute_value(matrix, 2, tuple(range(n)))
        for depth, witness in tree._kernel.witnesses():
            depths.add(depth)
            assert brute_value(matrix, 2, tuple(int(x) for x in witness)) > depth
    assert {2, 3} <= depths


def test_long_codes_are_renumbered() -> None:
    rng = np.random.default_rng(3)
    matrix = rng.integers(0, 3, size=(12, 10)).astype(np.uint64)
    matrix[np.arange(10), np.arange(10)] = 3
    wide = matrix * np.uint64(1 << 40) + np.uint64(7)
    found = 3 * (1 << 40) + 7
    assert GameTree(wide, found, kernel="numba").value().lower == brute_value(matrix, 3, tuple(range(10)))


def test_french_cells_agree() -> None:
    # the bundled cell of the seed's example (value 2), and words around a cluster that needs refutations
    space = WordSpace(words.from_file(str(PUZZLES / "motus" / "seed-d7l.txt")).cell(7, "L"))
    m = space.matrix()
    assert GameTree(m, space.found, kernel="numba").value().lower == \
        GameTree(m, space.found, kernel="numpy").value().lower == 2
    cluster = ["BALLE", "BELLE", "BULLE", "BOLLE", "BILLE", "BALAI", "BIAIS", "BOUEE", "BULBE", "BILAN"]
    space = WordSpace(words.from_words(cluster).cell(5, "B"))
    m = space.matrix()
    truth = brute_value(m, space.found, tuple(range(len(cluster))))
    assert GameTree(m, space.found, kernel="numba").value().lower == truth
    assert GameTree(m, space.found, kernel="numpy").value().lower == truth


def test_timeout_reports_bounds_only() -> None:
    space = WordSpace(words.french().cell(6, "B"))
    tree = GameTree(space.matrix(), space.found, kernel="numba", time_limit=0.0)
    with pytest.raises(SearchTimeout) as info:
        tree.value()
    assert info.value.lower in (2, 3) and info.value.upper is None  # 3 only if the first bound was done
    assert fb.found_code(6) == space.found


@pytest.mark.slow  # --jobs is --workers: a Dask cluster whose fresh workers compile the numba kernel
def test_experiment_emi_jobs(capsys) -> None:
    from sleuth.models.motus import experiment

    path = str(PUZZLES / "motus" / "seed-d7l.txt")
    assert experiment.main_emi(["--dictionary", path, "--lengths", "7", "--letters", "K-L", "--jobs", "2",
                                "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["exact"] == 1 and out["cells"]["7L"]["value"] == 2 and out["cpu_seconds"] >= 0


def test_a_commands_one_search_runs_numpy_unless_the_kernel_is_compiled(cli) -> None:
    """``suggest --method minimax`` in a fresh process does not compile the kernel (it cannot be cached: 10 s in
    every process); in a process that compiled it (here: this test session), it runs compiled, same answer."""
    import subprocess
    import sys

    from sleuth.models.motus import emi

    code = ("import sys, sleuth.cli\n"
            "rc = sleuth.cli.main(['suggest', 'example:mastermind/knuth', '--method', 'minimax', '--json'])\n"
            "print('compiled kernel loaded:', 'sleuth.models.motus._emi_kernel' in sys.modules, file=sys.stderr)\n"
            "sys.exit(rc)")
    fresh = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert fresh.returncode == 0, fresh.stderr
    assert "compiled kernel loaded: False" in fresh.stderr
    GameTree(np.array([[0, 1], [2, 2]], dtype=np.uint16), 2, kernel="numba").value()
    assert emi.kernel_compiled() and emi.one_search_kernel() == "numba"
    here = cli(["suggest", "example:mastermind/knuth", "--method", "minimax", "--json"])
    assert json.loads(here.out) == json.loads(fresh.stdout)
