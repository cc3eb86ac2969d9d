"""``--optimal`` honours --pegs, --colours, --guesses, --cap and --hard: exact totals against a brute force over
every decision tree, written here independently of the search (its own feedback rules, no bound, no cut-off),
on small Mastermind sizes (through the command line) and random small Wordle dictionaries (every opener ranked)."""

from __future__ import annotations

import json
import random

import pytest

from sleuth.models.motus.optimal_study import mastermind_openers, rank_openers
from sleuth.models.motus.space import CodeSpace

from tests.helpers.motus_brute import INF, brute_total, pegs_feedback, word_feedback


def test_openers_up_to_symmetry() -> None:
    assert mastermind_openers(4, 6) == ("1111", "1112", "1122", "1123", "1234")
    assert mastermind_openers(3, 2) == ("111", "112")
    assert mastermind_openers(5, 9) == ("11111", "11112", "11122", "11123", "11223", "11234", "12345")


@pytest.mark.parametrize("pegs,colours,cap", [(2, 2, None), (2, 3, None), (2, 4, None), (3, 2, None), (3, 3, None),
                                              (2, 4, 3), (3, 3, 4), (3, 3, 3), (2, 3, 2),
                                              pytest.param(3, 4, None, marks=pytest.mark.slow)])
def test_mastermind_sizes_from_the_command_line(cli, pegs: int, colours: int, cap: int | None) -> None:
    argv = ["experiment", "wordle", "--games", "mastermind", "--optimal", "--pegs", pegs, "--colours", colours,
            "--json"] + (["--cap", cap] if cap else [])
    r = cli(argv)
    assert r.code == 0, r.err
    out = json.loads(r.out)
    codes = CodeSpace(pegs=pegs, colours=colours).answers
    want = brute_total(codes, codes, pegs_feedback, cap=cap)
    assert out["game"] == f"{pegs} pegs, {colours} colours" and out["every_opener"]
    if want == INF:
        assert out["total"] is None and not out["proven"]
    else:
        assert out["proven"] and out["total"] == want, (pegs, colours, cap, out["ranking"])
    for guesses in ("answers",):  # every code may be the secret: the same game
        again = json.loads(cli([*argv, "--guesses", guesses]).out)
        assert again["total"] == out["total"]


def test_pegs_and_colours_are_refused_without_mastermind(cli) -> None:
    r = cli(["experiment", "wordle", "--games", "wordle", "--optimal", "--pegs", "3"])
    assert r.code == 2 and r.err.count("\n") == 1 and "--pegs" in r.err


def test_too_many_codes_are_refused_before_the_search(cli) -> None:
    r = cli(["experiment", "wordle", "--games", "mastermind", "--optimal", "--pegs", "6", "--colours", "9"])
    assert r.code == 2 and r.err.count("\n") == 1 and "codes" in r.err


def test_large_mastermind_needs_a_node_limit(cli) -> None:
    r = cli(["experiment", "wordle", "--games", "mastermind", "--optimal", "--pegs", "4", "--colours", "7"])
    assert r.code == 2 and r.err.count("\n") == 1 and "--node-limit" in r.err


def test_matrices_over_the_memory_budget_are_refused_before_work(cli, monkeypatch) -> None:
    """The search's matrices (4 pegs, 6 colours: 3 x 1296 x 1296 x 2 bytes, about 10 MB) are estimated
    first: over the budget, one line and exit 2 rather than a MemoryError once the work has begun."""
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "4M")
    r = cli(["experiment", "wordle", "--games", "mastermind", "--optimal", "--opener", "1122"])
    assert r.code == 2 and r.err.count("\n") == 1 and "memory budget" in r.err and "1296 guesses" in r.err
    assert r.out == ""


def _dictionary(seed: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    rng = random.Random(seed)
    words: set[str] = set()
    while len(words) < 9:
        words.add("".join(rng.choice("ABCDE") for _ in range(3)))
    guesses = tuple(sorted(words))
    return tuple(sorted(rng.sample(guesses, 6))), guesses


@pytest.mark.parametrize("seed", range(4))
def test_random_wordle_dictionaries_every_option(seed: int) -> None:
    answers, guesses = _dictionary(seed)
    game = ("words", answers, guesses)
    for pool_name, pool in (("all", guesses), ("answers", answers)):
        for hard in (False, True):
            for cap in (None, 3, 2):
                ranked = rank_openers(pool, game, hard=hard, cap=cap, guesses=pool_name, kernel="python")
                exact = [r["total"] for r in ranked if r["status"] == "exact"]
                want = brute_total(answers, pool, word_feedback, cap=cap, hard=hard)
                if want == INF:
                    assert not exact, (seed, pool_name, hard, cap)
                else:
                    assert min(exact) == want, (seed, pool_name, hard, cap, ranked)
