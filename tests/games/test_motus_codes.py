"""The code-breaking families of :mod:`sleuth.models.motus.codes` (Mastermind, black pegs only, Bulls and Cows)
and ``experiment wordle --mastermind-table``: feedback and exact optima against brute force on small cells."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from sleuth.models.motus.codes import PegSpace, size, table_cells
from sleuth.models.motus.optimal import Optimal
from sleuth.models.motus.space import CodeSpace

from tests.conftest import run_cli
from tests.helpers.motus_brute import brute_total, pegs_feedback


def _black(guess: str, secret: str) -> int:
    return sum(g == s for g, s in zip(guess, secret, strict=True))


FEEDBACK = {"mastermind": pegs_feedback, "black": _black, "bullscows": pegs_feedback}


@pytest.mark.parametrize(("family", "pegs", "colours"), [("mastermind", 2, 3), ("black", 3, 2), ("black", 2, 4),
                                                         ("bullscows", 3, 4), ("bullscows", 2, 5),
                                                         ("mastermind", 3, 3)])
def test_cells_against_brute_force(family: str, pegs: int, colours: int) -> None:
    space = PegSpace(pegs=pegs, colours=colours, family=family)
    codes = space.answers
    assert len(codes) == size(family, pegs, colours) == len(set(codes))
    if family == "bullscows":
        assert all(len(set(c)) == pegs for c in codes)
    m = space.matrix()
    shown = {}
    for i, g in enumerate(codes):  # one feedback code per brute-force feedback, and back
        for j, s in enumerate(codes):
            shown.setdefault(int(m[i, j]), set()).add(FEEDBACK[family](g, s))
    assert all(len(v) == 1 for v in shown.values())
    assert int(m[0, 0]) == space.found
    truth = brute_total(codes, codes, FEEDBACK[family])
    for kernel in ("python", "numba"):
        assert Optimal(space, kernel=kernel).value() == truth


def test_the_mastermind_family_is_classic_mastermind() -> None:
    a, b = PegSpace(pegs=3, colours=4), CodeSpace(pegs=3, colours=4)
    assert a.answers == b.answers and (a.matrix() == b.matrix()).all()
    assert Optimal(a).value() == Optimal(b).value()


def test_bulls_and_cows_symbols_past_nine() -> None:
    space = PegSpace(pegs=2, colours=10, family="bullscows")
    assert space.answers[0] == "01" and len(space.answers) == 90
    assert Counter(len(set(c)) for c in space.answers) == {2: 90}


def test_table_cli() -> None:
    cells = table_cells(max_codes=30)
    assert all(size(*c) <= 30 for c in cells)
    assert ("bullscows", 2, 5) in cells and ("black", 4, 2) in cells and ("mastermind", 3, 3) in cells
    r = run_cli(["experiment", "wordle", "--mastermind-table", "--max-codes", "30", "--json"])
    assert r.code == 0, r.err
    rows = json.loads(r.out)["cells"]
    assert [(x["family"], x["pegs"], x["colours"]) for x in rows] == cells
    for x in rows:
        assert x["exact"] and x["total"] >= 2 * x["codes"] - 1
    r = run_cli(["experiment", "wordle", "--mastermind-table", "--families", "chess"])
    assert r.code == 2 and "--families" in r.err
