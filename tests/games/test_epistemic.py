"""The epistemic layer and the `epistemic` game: classic puzzles, cross-checks and the formula language."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sleuth.models.epistemic import classic, reference
from sleuth.epistemic import ExplicitState, WorldTable, group_ids
from sleuth.formula import FormulaError, parse, to_text
from sleuth.loading import load_data, load_puzzle
from tests.conftest import BACKENDS, PUZZLES, ROOT, run_cli

EPI = PUZZLES / "epistemic"


def solved(doc_or_path, **kw):
    puzzle = load_puzzle(doc_or_path) if not isinstance(doc_or_path, dict) else load_data(doc_or_path)
    return puzzle.solve(**kw)


def test_cheryl_is_july_16():
    report = solved(EPI / "cheryl.toml")
    assert report.fields["worlds"] == [{"month": "July", "day": 16}]
    assert [s["worlds"] for s in report.fields["steps"]] == [5, 3, 1]


def test_sum_and_product_is_4_and_13():
    report = solved(EPI / "sum-and-product.toml")
    assert report.fields["worlds"] == [{"x": 4, "y": 13}]
    assert report.fields["initial"] == 2352


@pytest.mark.parametrize("bound,left", [(10, 2), (20, 36), (30, 100), (40, 198), (50, 330)])
def test_what_sum_worlds_left(bound, left):
    report = solved(EPI / f"what-sum-{bound}.toml")
    assert report.fields["count"] == left
    assert len(reference.what_sum(bound)) == left  # the plain reference agrees


@pytest.mark.parametrize("n", range(3, 9))
def test_muddy_children_know_after_k_minus_1_rounds(n):
    """With k muddy children nobody knows for k-1 rounds, then exactly the muddy ones know."""
    for k in range(1, n + 1):
        report = solved(classic.muddy_children(n, k))
        knowers = report.fields["knowers"]   # start, after the father, then each round of silence
        assert len(knowers) == k + 1
        assert all(row["know"] == [] for row in knowers[:-1])
        assert knowers[-1]["know"] == [f"c{i}" for i in range(1, k + 1)]
        assert reference.muddy_children(n, k) == (k - 1, list(range(k)))


@pytest.mark.parametrize("path", sorted(EPI.glob("*.toml")), ids=lambda p: p.name)
def test_every_epistemic_puzzle_verifies(path):
    res = run_cli(["verify", path, "--json"])
    assert res.code == 0, res.out + res.err
    assert all(c["ok"] for c in json.loads(res.out)["claims"])


def test_a_false_claim_exits_1_with_a_witness():
    res = run_cli(["verify", ROOT / "tests/data/epistemic/false-claim.toml", "--json"])
    assert res.code == 1
    (claim,) = json.loads(res.out)["claims"]
    assert claim["verdict"] == "refuted" and claim["witness"] == {"month": "July", "day": 16}


def test_explanations_are_sufficient_and_minimal():
    puzzle = load_puzzle(EPI / "cheryl.toml")
    (result,) = puzzle.verify([puzzle.claims[1]])  # month == 'August' is refuted
    assert result.verdict.value == "refuted"
    assert result.because == ("announcement 2 (Bernard: knows(Bernard))",)


def test_contradiction_names_a_minimal_conflict():
    res = run_cli(["solve", ROOT / "tests/data/epistemic/sum-and-product-misordered.toml", "--json"])
    out = json.loads(res.out)
    assert res.code == 4 and out["status"] == "contradiction" and out["worlds"] == []
    assert out["conflict"] == ["announcement 1 (not knows(P))", "announcement 4 (knows(S))"]
    text = run_cli(["solve", ROOT / "tests/data/epistemic/sum-and-product-misordered.toml"]).out
    assert text.startswith("CONTRADICTION") and "announcement 4" in text


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("doc", [classic.what_sum(10), classic.sum_and_product(30), classic.muddy_children(4, 2)],
                         ids=["what-sum-10", "sum-and-product-30", "muddy-4"])
def test_world_tables_agree_with_solver_enumeration(doc, backend):
    """The vectorised table and the CP-SAT / python-constraint enumeration give the same worlds."""
    table = load_data(doc).solve(options={"method": "table"})
    by_solver = load_data(doc).solve(backend=backend, options={"method": "model"})
    assert table.fields["initial"] == by_solver.fields["initial"]
    assert sorted(map(str, table.fields["worlds"])) == sorted(map(str, by_solver.fields["worlds"]))


def test_definitions_propagate_like_the_plain_product():
    constraint = [parse("a == b + c or b == a + c or c == a + b")]
    domains = {v: range(1, 16) for v in "abc"}
    fast = WorldTable.from_product(domains, constraint)
    plain = WorldTable._filtered_product(fast.domains, constraint, 10 ** 9)
    assert fast.as_set() == plain.as_set() and len(fast) == len(fast.as_set())


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_knowledge_operators_match_the_explicit_reference(data):
    """knows(), knows(a, f) and knows(a, e) on random world sets, against python loops over worlds."""
    sizes = data.draw(st.lists(st.integers(1, 4), min_size=1, max_size=3), label="domain sizes")
    names = [f"v{i}" for i in range(len(sizes))]
    domains = {n: range(k) for n, k in zip(names, sizes, strict=True)}
    table = WorldTable.from_product(domains)
    keep = data.draw(st.lists(st.booleans(), min_size=len(table), max_size=len(table)), label="worlds kept")
    table = table.subset(np.array(keep, dtype=bool))
    observed = data.draw(st.lists(st.sampled_from(names), unique=True), label="observed by a")
    state = ExplicitState(table, {"a": observed or ["0"]})
    worlds = [tuple(r) for r in table.data.tolist()]
    view = (lambda w: tuple(w[names.index(n)] for n in observed))
    holds = {w for w in worlds if w[0] >= 1}
    assert {w for w, k in zip(worlds, state.truth("knows(a)"), strict=True) if k} == \
        reference.knows_world(worlds, view)
    assert {w for w, k in zip(worlds, state.truth("knows(a, v0 >= 1)"), strict=True) if k} == \
        reference.knows_that(worlds, view, holds)
    assert {w for w, k in zip(worlds, state.truth("knows(a, v0)"), strict=True) if k} == \
        reference.knows_value(worlds, view, lambda w: w[0])


def test_accessibility_graph_components_are_the_agents_classes():
    state = load_puzzle(EPI / "cheryl.toml").final_state(after=0)
    for agent in ("Albert", "Bernard"):
        import networkx as nx

        graph = state.accessibility_graph([agent])
        comps = {frozenset(w for w in c if isinstance(w, int)) for c in nx.weakly_connected_components(graph)}
        ids = state.classes(agent)
        assert comps == {frozenset(np.flatnonzero(ids == c).tolist()) for c in set(ids.tolist())}
    # "July or August" is common knowledge in no world at the start, and everywhere after announcement 1
    assert not state.common_knowledge("month == 'July' or month == 'August'").any()
    after = load_puzzle(EPI / "cheryl.toml").final_state(after=1)
    assert after.common_knowledge("month == 'July' or month == 'August'").all()


def test_group_ids_with_and_without_packing():
    cols = [np.array([3, 3, 1, 3]), np.array([2 ** 40, 2 ** 40, 5, 7])]
    ids = group_ids(cols, 4)
    assert ids[0] == ids[1] and len(set(ids.tolist())) == 3
    huge = [np.array([0, 2 ** 61, 0]), np.array([0, 2 ** 61, 0])]  # cannot pack into one int64
    ids = group_ids(huge, 3)
    assert ids[0] == ids[2] != ids[1]


# -- the formula language ------------------------------------------------------------------------------

def formulas():
    names = st.sampled_from(["x", "y", "z"])
    atoms = st.one_of(st.integers(0, 99).map(str), names)
    exprs = st.recursive(atoms, lambda e: st.tuples(e, st.sampled_from(["+", "-", "*", "//", "%"]), e)
                         .map(lambda t: f"({t[0]} {t[1]} {t[2]})"), max_leaves=4)
    comps = st.tuples(exprs, st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), exprs).map(" ".join)
    return st.recursive(comps, lambda f: st.one_of(
        f.map(lambda a: f"not ({a})"), st.tuples(f, st.sampled_from(["and", "or", "implies"]), f)
        .map(lambda t: f"({t[0]}) {t[1]} ({t[2]})"), st.tuples(st.sampled_from(["A", "B"]), f)
        .map(lambda t: f"knows({t[0]}, {t[1]})")), max_leaves=5)


@settings(max_examples=200, deadline=None)
@given(formulas())
def test_formulas_print_and_parse_back_to_the_same_tree(text):
    tree = parse(text)
    assert parse(to_text(tree)) == tree


def test_precedence():
    assert to_text(parse("not a == 1 and b == 2 or c == 3 implies d == 4")) == \
        "(((not (a == 1)) and (b == 2)) or (c == 3)) implies (d == 4)"
    assert to_text(parse("1 + 2 * 3 - 4")) == "1 + (2 * 3) - 4"   # chains of one level are flat


@pytest.mark.parametrize("text,needle", [
    ("x + ", "expected a value"), ("x == 1 == 2", "do not chain"), ("foo(x)", "unknown function"),
    ("x $ 1", "unexpected character"), ("(x == 1", "expected ')'"), ("knows(1)", "agent name"),
    ("", "empty formula"), ("x == 99999999999999999999", "integer larger"),
])
def test_parse_errors_quote_the_formula(text, needle):
    with pytest.raises(FormulaError) as err:
        parse(text)
    assert needle in str(err.value)


def test_formulas_are_never_evaluated_as_python():
    with pytest.raises(FormulaError):
        parse("__import__('os').system('true')")


def test_repeat_until_stable_matches_the_api_fixpoint():
    """`repeat = "stable"` in a file and ExplicitState.announce_until_stable reach the same worlds."""
    doc = classic.what_sum(20)
    doc["announcement"] = [{"formula": "not knows(A) and not knows(B)", "repeat": "stable"}]
    report = load_data(doc).solve()
    start = load_data(doc).final_state(after=0)
    state, rounds = start.announce_until_stable("not knows(A) and not knows(B)")
    assert report.fields["count"] == state.count < start.count
    assert len(report.fields["steps"]) == rounds - 1 >= 2   # the last round changed nothing
