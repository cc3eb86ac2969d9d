"""Clue's deal counting and Egghead's packed tables under the shared limits of :mod:`sleuth.limits`.

Each is estimated before it allocates and refused past the memory budget (``SLEUTH_MEMORY_BUDGET``) or
``--set max_worlds`` with the estimate, the limit and the way to raise it; the Clue sheet falls back to the
engine backbone instead (same sheet).
"""

from __future__ import annotations

import pytest

from sleuth.limits import TooLarge
from sleuth.models.clue.counting import LayerTooLarge, count_deals
from sleuth.models.egghead.hands import Setup
from sleuth.models.egghead.tables import PackedTables, check_tables, table_bytes
from sleuth.loading import load_puzzle
from tests.conftest import PUZZLES, run_cli

CLUE = PUZZLES / "clue" / "rules-stop-short.toml"
EGGHEAD_BA = PUZZLES / "egghead" / "seed_example.toml"


def _one_line(err: str) -> str:
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("sleuth: note:")]
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


def test_clue_counting_honours_max_worlds() -> None:
    problem = load_puzzle(CLUE).problem()
    full = count_deals(problem)
    assert count_deals(problem, options={"max_worlds": 10**9}) == full
    with pytest.raises(LayerTooLarge, match=r"Clue states and transitions .* more than the limit of 50 .*"
                                                  r"--set max_worlds=N or SLEUTH_MEMORY_BUDGET"):
        count_deals(problem, options={"max_worlds": 50})
    assert issubclass(LayerTooLarge, TooLarge)


def test_clue_advice_budget_is_a_refusal_of_the_limits_family() -> None:
    """The exact advice's budget error is :class:`sleuth.limits.PastBudget`, refused before the work (a
    ``TooLarge``: exit 2 if it ever reached the user), naming the estimated work and the budget."""
    import itertools
    import random

    from sleuth import limits
    from sleuth.models.clue import suggest
    from sleuth.models.clue.counting import Problem
    from sleuth.models.clue.simulate import simulate

    game = simulate(4, random.Random(3)).view(None, 6)
    problem = Problem.from_observations(game, game.observations())
    triples = list(itertools.product(*(game.deck.members(c) for c in range(3))))
    work = suggest.exact_work(problem, triples)
    with pytest.raises(limits.PastBudget, match=f"about {work:,} counts, more than {work - 1:,}") as past:
        suggest.exact_information(problem, 2, triples, budget=work - 1, compiled_budget=work - 1)
    assert isinstance(past.value, TooLarge) and not isinstance(past.value, limits.LimitReached)
    assert (past.value.work, past.value.budget) == (work, work - 1)


def test_clue_counting_honours_the_memory_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    problem = load_puzzle(CLUE).problem()
    count_deals(problem)
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "2K")
    with pytest.raises(LayerTooLarge, match=r"memory budget 2\.0 KB"):
        count_deals(problem)


def test_clue_cli_under_a_small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sheet falls back to the backbone (same marks); probabilities need the counts: one-line refusal."""
    plain = run_cli(["solve", str(CLUE), "--json"])
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "4K")
    small = run_cli(["solve", str(CLUE), "--json"])
    assert plain.code == small.code == 0
    import json
    assert json.loads(plain.out)["sheet"] == json.loads(small.out)["sheet"]
    res = run_cli(["solve", str(CLUE), "--probabilities"])
    assert res.code == 2 and res.out == ""
    assert "SLEUTH_MEMORY_BUDGET" in _one_line(res.err)


def test_egghead_tables_estimate() -> None:
    s = Setup(4, 6, 3)
    assert table_bytes(s) == 56 ** 3 * 8  # one 64-bit word per row holds 56 hands
    t = PackedTables(s, [True] * 4)
    assert t.nbytes() == table_bytes(s)
    check_tables(Setup(5, 6, 3), [True] * 5)  # 79 MB per table: fits the default budget
    with pytest.raises(TooLarge, match=r"30,840,979,456 Egghead worlds \(56 hands \*\* 6 players.*memory budget"):
        check_tables(Setup(6, 6, 3), [True] * 6)
    with pytest.raises(TooLarge, match="more than the limit of 1,000 "):
        PackedTables(Setup(3, 6, 3), [True] * 3, options={"max_worlds": 1000})
    more = pytest.raises(TooLarge, match=r"4 packed tables")  # the master and three players without BA
    with more:
        check_tables(Setup(4, 6, 3), [True, False, False, False], {"max_worlds": 1000})


def test_egghead_cli_under_a_small_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "16K")
    res = run_cli(["solve", str(EGGHEAD_BA)])
    assert res.code == 2 and res.out == ""
    assert "175,616 Egghead worlds" in _one_line(res.err)
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "1M")
    assert run_cli(["solve", str(EGGHEAD_BA)]).code == 0
