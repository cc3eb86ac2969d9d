"""Exact at the edges: arithmetic never wraps, deep formulas fail clearly, big sums stay flat (issues 13, 18)."""

from __future__ import annotations

import itertools
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.epistemic import Evaluator, ExplicitState, WorldTable
from sleuth.errors import PuzzleError
from sleuth.formula import MAX_DEPTH, FormulaError, parse, to_text
from sleuth.loading import load_data, load_puzzle, loads
from sleuth.results import ClaimSpec, Verdict

BACKENDS = ["cpsat", "python-constraint"]


def verdict(puzzle, text: str, **options) -> tuple[Verdict, str]:
    result = puzzle.verify([ClaimSpec(text, Verdict.ENTAILED, "claim", options)])[0]
    return result.verdict, result.detail


# -- arithmetic ----------------------------------------------------------------------------------------

def test_cheryl_product_beyond_64_bits_is_entailed_in_all_ten_worlds():
    puzzle = load_puzzle("example:epistemic/cheryl")
    v, detail = verdict(puzzle, "day * 1000000000000000 * 1000000000000000 > 0", after=0)
    assert v is Verdict.ENTAILED and "all 10" in detail
    with pytest.raises(PuzzleError, match="integer larger than 1000000000000000 at column 52"):
        verdict(puzzle, "day * 1000000000000000 * 1000000000000000 == day * 1000000000000000000000000000000")
    v, detail = verdict(puzzle, "day * 1000000000000000 * 1000000000000000 // 1000000000000000 "
                                "// 1000000000000000 == day", after=0)
    assert v is Verdict.ENTAILED


BIG = 2 ** 63


def two_worlds(values: list[int]) -> str:
    return f"""
game = "epistemic"
[variables]
m1 = {values}
m2 = [1, 2]
[agents]
A = ["m1"]
B = ["m2"]
"""


@pytest.mark.parametrize("backend", BACKENDS)
def test_domain_value_two_to_the_63_is_exact(backend):
    puzzle = loads(two_worlds([BIG, 1]))
    report = puzzle.solve(backend=backend)
    assert report.fields["count"] == 4
    assert sorted(r["m1"] for r in report.fields["worlds"]) == [1, 1, BIG, BIG]
    assert verdict(puzzle, f"m1 * m1 >= {10 ** 15} or m1 == 1")[0] is Verdict.ENTAILED
    assert verdict(puzzle, "m1 - 1 > 0")[1] == "true in 2 of 4 worlds"
    assert verdict(puzzle, "-m1 < 0")[0] is Verdict.ENTAILED
    assert verdict(puzzle, "abs(-m1) == m1 and max(m1, m2) >= m2 and min(m1, 0) == 0")[0] is Verdict.ENTAILED
    assert verdict(puzzle, "knows(B, m1 % 2 == 0 or m1 == 1)")[0] is Verdict.ENTAILED
    assert verdict(puzzle, "knows(A, m1 * 3)")[0] is Verdict.ENTAILED


def test_a_world_row_with_ten_to_the_30():
    text = """
game = "epistemic"
worlds = [{ day = 1000000000000000000000000000000, m = 1 }, { day = 2, m = 1 }, { day = 2, m = 2 }]
[agents]
A = ["day"]
B = ["m"]
"""
    puzzle = loads(text)
    assert puzzle.solve().fields["count"] == 3
    assert verdict(puzzle, "day >= 1000000000000000 * 1000000000000000")[1] == "true in 1 of 3 worlds"
    assert verdict(puzzle, "knows(A) or day == 2")[0] is Verdict.ENTAILED
    assert verdict(puzzle, "knows(B, day)")[1] == "true in 1 of 3 worlds"   # only where m = 2


def test_the_solver_refuses_ranges_beyond_its_bound_naming_the_expression():
    table = {"x": range(1, 4), "y": range(1, 4)}
    with pytest.raises(PuzzleError, match=r"'x \* 1000000000000000 \* 1000000000000000' ranges over"):
        WorldTable.from_solver(table, ["x * 1000000000000000 * 1000000000000000 > y"])
    with pytest.raises(PuzzleError, match="beyond what the constraint solvers take"):
        WorldTable.from_solver({"x": [BIG, 1]}, ["x > 0"])
    # the exact table answers the same question
    assert len(WorldTable.from_product(table, ["x * 1000000000000000 * 1000000000000000 > y"])) == 9


def test_solver_and_table_agree_where_the_range_fits():
    for backend in BACKENDS:
        doms = {"x": range(-3, 4), "y": range(0, 5)}
        cons = ["x * 1000000000000 - y * 999999999999 > 5", "x + y + x - y - 1 != 0"]
        a = WorldTable.from_product(doms, cons).sorted().as_set()
        b = WorldTable.from_solver(doms, cons, backend=backend).as_set()
        assert a == b and a


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(-(2 ** 70), 2 ** 70), min_size=1, max_size=4, unique=True),
       st.sampled_from(["+", "-", "*", "//", "%"]), st.integers(-(10 ** 15), 10 ** 15).filter(bool))
def test_evaluation_matches_python_integers(values, op, k):
    """Brute force: every world's value equals Python's exact arithmetic."""
    table = WorldTable.from_product({"x": values, "y": [k, 1]}, [])
    ev = Evaluator(ExplicitState(table, {}))
    for text, fn in [(f"x {op} y", lambda x, y: _py(op, x, y)), (f"x {op} y {op} (y * y)",
                                                                  lambda x, y: _py(op, _py(op, x, y), y * y)),
                     ("-x * y - abs(x)", lambda x, y: -x * y - abs(x)), ("max(x, y * x)", lambda x, y: max(x, y * x))]:
        got = ev.number(parse(text)).tolist()
        want = [fn(r["x"], r["y"]) for r in table.rows()]
        assert got == want, text


def _py(op: str, a: int, b: int) -> int:
    return {"+": a + b, "-": a - b, "*": a * b, "//": a // b if b else 0, "%": a % b if b else 0}[op]


def test_int64_is_kept_where_the_range_fits():
    table = WorldTable.from_product({"x": range(0, 100), "y": range(1, 3)}, [])
    ev = Evaluator(ExplicitState(table, {}))
    assert ev.number(parse("x * y + 7")).dtype == np.int64
    assert ev.number(parse("x * 1000000000000000 * 1000000000000000")).dtype == object
    assert table.data.dtype == np.int64


# -- nesting ----------------------------------------------------------------------------------------------

def test_deep_parentheses_fail_with_one_clear_line():
    with pytest.raises(FormulaError, match=f"nested more than {MAX_DEPTH} levels deep") as err:
        parse("(" * 150 + "x" + ")" * 150 + " == 1")
    assert "\n" not in str(err.value) and len(str(err.value)) < 400


@pytest.mark.parametrize("text", [
    "not " * 500 + "x == 1",
    "-" * 500 + "x == 1",
    " implies ".join(["x == 1"] * 500),
    "abs(" * 300 + "x" + ")" * 300 + " == 1",
    "x" + " * (x" * 200 + ")" * 200 + " == 1",
])
def test_every_kind_of_deep_nesting_is_refused_clearly(text):
    with pytest.raises(FormulaError, match="nested more than"):
        parse(text)


def test_nesting_up_to_the_limit_parses_prints_and_evaluates():
    depth = MAX_DEPTH - 5
    text = "(" * depth + "x" + ")" * depth + " == 1"
    assert parse(text) == parse("x == 1")
    chain = "not " * (MAX_DEPTH - 3) + "x == 1"
    tree = parse(chain)
    assert parse(to_text(tree)) == tree and hash(tree) == hash(parse(chain))
    table = WorldTable.from_product({"x": range(0, 3)}, [])
    assert Evaluator(ExplicitState(table, {})).truth(tree).tolist() == [(MAX_DEPTH - 3) % 2 == 1, False, True][
        :0] + [bool((MAX_DEPTH - 3) % 2) ^ (v == 1) for v in range(3)]


def test_a_sum_of_thousands_of_terms_is_flat():
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(300)   # nothing below may recurse per term
    try:
        terms = " + ".join(f"x{i % 3}" for i in range(3000))
        conj = " and ".join(f"x{i % 3} >= 0" for i in range(1000))
        disj = " or ".join(f"x{i % 3} == {i}" for i in range(1000))
        prod = " * ".join(["x0"] * 400)
        trees = [parse(f"{terms} == 3000"), parse(conj), parse(disj), parse(f"{prod} >= 0")]
        assert {hash(t) for t in trees} and all(parse(to_text(t)) == t for t in trees)
    finally:
        sys.setrecursionlimit(old)
    table = WorldTable.from_product({"x0": [1, 2], "x1": [1], "x2": [1]}, [])
    ev = Evaluator(ExplicitState(table, {}))
    assert ev.truth(trees[0]).tolist() == [True, False]
    assert ev.truth(trees[1]).all() and ev.truth(trees[2]).all()
    assert ev.truth(trees[3]).all()   # 2^400 is exact
    assert ev.number(parse(prod)).tolist() == [1, 2 ** 400]


@pytest.mark.parametrize("backend", BACKENDS)
def test_a_long_sum_compiles_for_the_solvers(backend):
    terms = " + ".join(["x"] * 450) + " - " + " - ".join(["y"] * 449)
    doms = {"x": range(0, 3), "y": range(0, 3)}
    a = WorldTable.from_product(doms, [f"{terms} == 2"]).as_set()
    assert a == WorldTable.from_solver(doms, [f"{terms} == 2"], backend=backend).as_set()
    assert len(a) == 1   # 450x - 449y = 2 only at x = y = 2


def test_files_with_deep_formulas_exit_cleanly(tmp_path):
    doc = {"game": "epistemic", "variables": {"x": "1..3"}, "agents": {"A": ["x"]},
           "constraints": ["(" * 200 + "x == 1" + ")" * 200]}
    with pytest.raises(PuzzleError, match=r"constraints\[1\].*nested more than"):
        load_data(doc)


def test_all_pairs_of_big_values_compare_exactly():
    values = [-(2 ** 64), -(2 ** 63), -(2 ** 63) + 1, -1, 0, 1, 2 ** 63 - 1, 2 ** 63, 2 ** 64]
    table = WorldTable.from_product({"a": values, "b": values}, [])
    ev = Evaluator(ExplicitState(table, {}))
    got = ev.truth(parse("a < b")).tolist()
    assert got == [a < b for a, b in itertools.product(values, values)]
    assert ev.number(parse("a - b")).tolist() == [a - b for a, b in itertools.product(values, values)]
