"""The engine against brute force: random small models on both backends (hypothesis)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.backends import SolveStatus, make_backend
from sleuth.engine import Engine
from sleuth.model import Clause, LinearExpr, Model, Table
from tests.conftest import BACKENDS


def brute_force(model: Model, assumptions=()) -> list[dict]:
    """Every full assignment that satisfies the model and the assumptions."""
    out = []
    for values in itertools.product(*[range(v.lo, v.hi + 1) for v in model.variables]):
        sol = dict(zip(model.variables, values, strict=True))
        if all(a.value_in(sol) for a in assumptions) and not model.check(sol):
            out.append(sol)
    return out


@st.composite
def random_models(draw):
    """2-3 small integer variables, a few observations each adding a random linear, clause or table
    constraint (so observations can conflict)."""
    m = Model()
    xs = [m.int_var(0, draw(st.integers(1, 3)), f"x{i}") for i in range(draw(st.integers(2, 3)))]
    bs = [m.bool_var(f"b{i}") for i in range(draw(st.integers(0, 2)))]
    for k in range(draw(st.integers(1, 4))):
        with m.observation(f"obs {k}"):
            kind = draw(st.sampled_from(["linear", "clause", "table"]))
            if kind == "linear":
                coefs = [draw(st.integers(-2, 2)) for _ in xs]
                expr = LinearExpr.sum_of(c * x for c, x in zip(coefs, xs, strict=False))
                op = draw(st.sampled_from(["<=", ">=", "==", "!="]))
                rhs = draw(st.integers(-3, 5))
                m.add({"<=": expr <= rhs, ">=": expr >= rhs, "==": expr == rhs, "!=": expr != rhs}[op])
            elif kind == "clause" and bs:
                lits = [b.lit() if draw(st.booleans()) else ~b for b in bs]
                m.add(Clause(tuple(lits), all_of=draw(st.booleans())))
            else:
                v = draw(st.sampled_from(xs))
                allowed = draw(st.lists(st.integers(v.lo, v.hi), min_size=1, max_size=3, unique=True))
                m.add(Table((v,), tuple((a,) for a in allowed), forbidden=draw(st.booleans())))
    return m, xs


FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(random_models())
def test_both_backends_enumerate_exactly_the_brute_force_solutions(case):
    model, xs = case
    expected = {tuple(s[v] for v in model.variables) for s in brute_force(model, model.observation_lits())}
    for name in BACKENDS:
        got = [tuple(s[v] for v in model.variables)
               for s in make_backend(model, name).solutions(model.observation_lits())]
        assert len(got) == len(set(got)), name
        assert set(got) == expected, name


@FAST
@given(random_models())
def test_backbone_matches_brute_force(case):
    model, xs = case
    sols = brute_force(model, model.observation_lits())  # before the indicators exist: fewer variables
    cells = [(x, v) for x in xs for v in range(x.lo, x.hi + 1)]
    lits = [model.indicator(x, v) for x, v in cells]
    for name in BACKENDS:
        bb = Engine(model, name).backbone(lits)
        assert bb.consistent == bool(sols)
        if not sols:
            continue
        for lit, (x, v) in zip(lits, cells, strict=True):
            values = {s[x] == v for s in sols}
            expected = values.pop() if len(values) == 1 else None
            assert bb.value(lit) == expected, (name, lit)
        assert bb.solves <= len(lits) + 2


@FAST
@given(random_models(), st.data())
def test_verify_verdicts_explanations_and_witnesses(case, data):
    model, xs = case
    x = data.draw(st.sampled_from(xs))
    v = data.draw(st.integers(x.lo, x.hi))
    claim = x == v
    sols = brute_force(model, model.observation_lits())
    engine = Engine(model, data.draw(st.sampled_from(BACKENDS)))
    result = engine.verify(claim, "claim")
    if not sols:
        assert result.verdict.value == "contradiction"
        return
    truths = {s[x] == v for s in sols}
    expected = {frozenset({True}): "entailed", frozenset({False}): "refuted"}.get(frozenset(truths), "open")
    assert result.verdict.value == expected
    obs = {o.name: o.lit for o in model.observations}
    if expected in ("entailed", "refuted"):
        # the named observations alone already force the verdict, and none of them can be dropped
        def forced(names):
            rest = brute_force(model, [obs[n] for n in names])
            return all((s[x] == v) == (expected == "entailed") for s in rest)
        assert forced(result.because)
        for i in range(len(result.because)):
            assert not forced(result.because[:i] + result.because[i + 1:])
    if expected == "open":
        assert result.witness["true"][x.name] == v and result.witness["false"][x.name] != v
        for w in result.witness.values():
            assert any(all(s[var] == w[var.name] for var in xs) for s in sols)


@FAST
@given(random_models())
def test_conflicts_are_minimal(case):
    model, _ = case
    obs = {o.name: o.lit for o in model.observations}
    conflict = Engine(model, "cpsat").conflict()
    if brute_force(model, model.observation_lits()):
        assert conflict is None
        return
    assert conflict and not brute_force(model, [obs[n] for n in conflict])
    for i in range(len(conflict)):
        assert brute_force(model, [obs[n] for n in conflict[:i] + conflict[i + 1:]])


def test_valids_are_distinct_projections_and_streamed_with_a_limit():
    m = Model()
    x, y = m.int_var(0, 4, "x"), m.int_var(0, 4, "y")
    with m.observation("x below y"):
        m.add(x <= y - 1)
    for name in BACKENDS:
        e = Engine(m, name)
        assert sorted(e.valids([x])) == [(0,), (1,), (2,), (3,)]
        assert e.count([x, y]) == 10
        assert len(list(e.valids([x, y], limit=3))) == 3


def test_abandoned_stream_stops_the_search_thread():
    import threading

    m = Model()
    for i in range(6):  # a million solutions
        m.int_var(0, 9, f"x{i}")
    before = threading.active_count()
    stream = make_backend(m, "cpsat").solutions()
    first = [next(stream) for _ in range(5)]
    stream.close()
    assert len(first) == 5 and threading.active_count() == before


def test_unsatisfiable_assumptions_give_a_core_of_assumptions():
    m = Model()
    x = m.int_var(0, 5, "x")
    with m.observation("big") as big:
        m.add(x >= 4)
    with m.observation("small") as small:
        m.add(x <= 1)
    with m.observation("odd") as odd:
        m.add_table([x], [(1,), (3,), (5,)])
    for name in BACKENDS:
        out = make_backend(m, name).solve([big, small, odd])
        assert out.status is SolveStatus.INFEASIBLE
        assert {big, small} <= set(out.core)
        assert Engine(m, name).conflict() == ("big", "small")


@pytest.mark.parametrize("backend", BACKENDS)
def test_minimize(backend):
    m = Model()
    x, y = m.int_var(0, 5, "x"), m.int_var(0, 5, "y")
    m.add(x + y >= 7)
    out = make_backend(m, backend).solve(minimize=x * 3 + y)
    assert out.objective == 11 and out.values[x] == 2 and out.values[y] == 5
