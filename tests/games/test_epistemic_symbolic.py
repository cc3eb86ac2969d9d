"""The symbolic engine (knowledge structures on decision diagrams) against the explicit one.

Random formulas on random small puzzles (drawn as structure: domains, observations, formula trees), random
puzzle files with announcements and events solved both ways, and the muddy children at a size explicit
enumeration cannot reach, checked against what the theory says (counts from binomials, who knows when).
"""

from __future__ import annotations

import math
from typing import Any

import pytest

pytest.importorskip("oxidd")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sleuth.epistemic import Domain, ExplicitState, WorldTable  # noqa: E402
from sleuth.epistemic.symbolic import DiagramLimit, NotSymbolic, SymbolicState  # noqa: E402
from sleuth.formula import parse  # noqa: E402
from sleuth.models.epistemic import classic  # noqa: E402
from sleuth.loading import load_data  # noqa: E402
from tests.helpers.epistemic import formulas
from tests.helpers.epistemic import AGENTS, expressions

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def domains(draw: Any) -> list[Domain]:
    out = []
    for name in ("x", "y", "z")[:draw(st.integers(2, 3))]:
        kind = draw(st.sampled_from(["range", "sparse", "names", "wide"]))
        if kind == "range":
            lo = draw(st.integers(-3, 3))
            out.append(Domain(name, tuple(range(lo, lo + draw(st.integers(1, 5))))))
        elif kind == "sparse":
            out.append(Domain.of(name, draw(st.lists(st.integers(-20, 20), min_size=1, max_size=4, unique=True))))
        elif kind == "wide":   # values far from zero: products leave 64 bits
            base = draw(st.sampled_from([2 ** 40, -(2 ** 45), 10 ** 12]))
            out.append(Domain.of(name, [base + d for d in draw(st.lists(st.integers(0, 3), min_size=1,
                                                                            max_size=2, unique=True))]))
        else:
            out.append(Domain.of(name, ["red", "green", "blue"][:draw(st.integers(1, 3))]))
    return out


@st.composite
def puzzles(draw: Any) -> tuple[list[Domain], dict[str, list[str]], list[str]]:
    doms = draw(domains())
    observe = {a: draw(st.lists(st.one_of(st.sampled_from([d.name for d in doms]), expressions(doms, 1)),
                                max_size=2)) for a in AGENTS}
    constraints = draw(st.lists(formulas(doms, 0), max_size=1))
    return doms, observe, constraints


def both(doms: list[Domain], observe: dict[str, list[str]], constraints: list[str]) -> tuple[ExplicitState,
                                                                                            SymbolicState]:
    table = WorldTable.from_product(doms, constraints)
    agents = {a: [parse(e) for e in exprs] for a, exprs in observe.items()}
    return ExplicitState(table, agents), SymbolicState.start(doms, [parse(c) for c in constraints], agents)


def holding(state: ExplicitState | SymbolicState, text: str) -> list[dict[str, int | str]]:
    """The worlds where the formula holds, in listing order."""
    node = parse(text)
    if isinstance(state, SymbolicState):
        return list(state._walk(state.designated & state.truth(node)))
    return state.worlds().subset(state.truth(node)).rows()


@SETTINGS
@given(st.data())
def test_random_formulas_hold_in_the_same_worlds(data: Any) -> None:
    doms, observe, constraints = data.draw(puzzles())
    explicit, symbolic = both(doms, observe, constraints)
    assert symbolic.count == explicit.count and symbolic.rows() == explicit.rows()
    for _ in range(3):
        text = data.draw(formulas(doms))
        try:
            want = holding(explicit, text)
        except Exception as exc:   # a division by zero in some world: the symbolic engine says the same
            with pytest.raises(type(exc)):
                holding(symbolic, text)
            continue
        try:
            got = holding(symbolic, text)
        except NotSymbolic as exc:   # the one declared limit: // and % over wide operand ranges
            assert "not yet symbolic" in exc.message and ("%" in text or "//" in text)
            continue
        assert got == want, text


@pytest.mark.parametrize("text", ["count(x > 0, y == 1) % 1 == 0", "(x + y) % 1 == 0", "x // 1 == x",
                                  "(x - y) % 2 == 1", "count(x > 0, y == 1, x == y) % 4 == 2"])
def test_modulo_by_a_power_of_two_including_one(text: str) -> None:
    """``% 2^k`` takes k low bits (k = 0 included: ``% 1`` is 0, the case found by the random formulas)."""
    doms = [Domain("x", tuple(range(-2, 3))), Domain("y", (0, 1, 5))]
    explicit, symbolic = both(doms, {"a": ["x"], "b": []}, [])
    assert holding(symbolic, text) == holding(explicit, text)


@SETTINGS
@given(st.data())
def test_announcements_leave_the_same_worlds(data: Any) -> None:
    doms, observe, constraints = data.draw(puzzles())
    explicit, symbolic = both(doms, observe, constraints)
    for _ in range(data.draw(st.integers(1, 3))):
        text = data.draw(formulas(doms, 2))
        try:
            explicit = explicit.announce(text)
        except Exception:
            return
        symbolic = symbolic.announce(text)
        assert (symbolic.count, symbolic.rows()) == (explicit.count, explicit.rows()), text


@st.composite
def event_files(draw: Any) -> dict[str, Any]:
    """A puzzle file over three small variables with public, semi-private and action events (S5 observers,
    factual change)."""
    variables = {"p": [0, 1], "q": [0, 1, 2], "r": ["left", "right"]}
    doc: dict[str, Any] = {"game": "epistemic", "variables": variables,
                           "agents": {"a": draw(st.sampled_from([["p"], ["p + q"], []])),
                                      "b": draw(st.sampled_from([["q"], ["r == 'left'"], ["p", "r"]]))},
                           "actual": {"p": 1, "q": 2, "r": "left"}, "event": []}
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["public", "learn", "semi", "action", "set"]))
        if kind == "public":
            doc["event"].append({"formula": draw(st.sampled_from(["not knows(a, q)", "knows(b, p == 1) or q > 0",
                                                                  "p + q >= 1", "not knows(b)"]))})
        elif kind == "learn":
            doc["event"].append({"learn": draw(st.sampled_from(["p", "(p + q) % 2", "r == 'right'"]))})
        elif kind == "semi":
            doc["event"].append({"kind": "semi-private", "to": [draw(st.sampled_from(AGENTS))],
                                 "learn": draw(st.sampled_from(["q", "p * q", "min(p, q)"]))})
        elif kind == "set":
            doc["event"].append({"set": {"q": draw(st.sampled_from(["p", "min(q + 1, 2)", "0"]))}})
        else:
            doc["event"].append({"kind": "action", "actual": "e1", "events": [
                {"name": "e1", "pre": draw(st.sampled_from(["true", "p == 1", "q != 1"])),
                 "set": {"p": draw(st.sampled_from(["1 - p", "p", "0"]))}},
                {"name": "e2", "pre": "q >= 1", "set": {"r": "right"}},
                {"name": "e3", "designated": draw(st.booleans())}],
                "observers": {"a": [["e1"], ["e2", "e3"]], "b": draw(st.sampled_from(
                    [[["e1", "e2", "e3"]], [["e1", "e3"], ["e2"]]]))}})
    return doc


@SETTINGS
@given(event_files())
def test_events_give_the_same_answer(doc: dict[str, Any]) -> None:
    got = {}
    for method in ("table", "symbolic"):
        try:
            report = load_data(doc, file="<drawn>").solve(options={"method": method}).to_json()
        except Exception as exc:   # e.g. a factual change leaving a domain: both engines refuse alike
            got[method] = type(exc).__name__
            continue
        got[method] = {k: report.get(k) for k in ("status", "worlds", "count", "initial", "steps", "knowers")}
    assert got["symbolic"] == got["table"]


@pytest.mark.parametrize("muddy", [1, 3, 5])
def test_muddy_children_at_forty_follow_the_theory(muddy: int) -> None:
    """2^40 worlds: after the father and r rounds of silence, the worlds left are those with more than r
    muddy children; the muddy ones know after muddy - 1 rounds, not before, and the clean ones do not."""
    n = 40
    puzzle = load_data(classic.muddy_children(n, muddy), file="<muddy>")
    for rounds in range(muddy):
        state = puzzle.final_state(method="symbolic", after=1 + rounds)
        assert state.count == sum(math.comb(n, j) for j in range(rounds + 1, n + 1))
        know = [i for i in range(1, n + 1) if state.at_point(parse(f"knows(c{i}, m{i})"))]
        assert know == (list(range(1, muddy + 1)) if rounds == muddy - 1 else [])
    assert state.shared() == {}   # no child's state is settled in every world left


def test_a_diagram_past_the_memory_budget_stops_with_the_size_reached(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "1M")   # the floor: 65,536 nodes
    doc = classic.sum_and_product(400)
    with pytest.raises(DiagramLimit, match="nodes"):
        load_data(doc, file="<big>").final_state(method="symbolic")


def _auto(doc: dict[str, Any], **options: Any) -> tuple[str, int]:
    report = load_data(doc, file="<auto>").solve(options=options)
    return report.fields["method"], report.fields["count"]


def test_auto_picks_the_symbolic_engine_past_its_size_on_narrow_domains() -> None:
    """2^15 worlds of two values each: symbolic, with the table's answer; 2^8: the table."""
    method, count = _auto(classic.muddy_children(15, 2))
    assert method == "symbolic"
    assert count == _auto(classic.muddy_children(15, 2), method="table")[1] == 2 ** 15 - 1 - 15
    assert _auto(classic.muddy_children(8, 2))[0] == "table"


def test_auto_keeps_the_table_on_wide_or_non_linear_arithmetic() -> None:
    assert _auto(classic.what_sum(30))[0] == "table"   # 27,000 worlds, domains of 30 values
    doc = classic.muddy_children(15, 2)
    doc["constraints"] = ["m1 * m2 <= 1"]              # a product of two variables: not estimated
    assert _auto(doc)[0] == "table"


def test_auto_past_the_table_limit_is_symbolic_on_narrow_domains_else_model() -> None:
    doc = classic.muddy_children(10, 2)
    assert _auto(doc, max_worlds=100) == ("symbolic", 2 ** 10 - 1 - 10)
    doc = {"game": "epistemic", "variables": {"p": [0, 1], "q": [0, 1], "z": "1..300"},
           "constraints": ["z == 1"], "agents": {"a": ["p"], "b": ["q"]}}
    assert _auto(doc, max_worlds=100) == ("symbolic", 4)   # 300 values: 9 bits, within the wide rule
    doc["variables"]["z"] = "1..1025"                          # past 1,024 values: the solver's enumeration
    assert _auto(doc, max_worlds=100) == ("model", 4)


def test_dining_cryptographers_past_enumeration_as_smcdel() -> None:
    """SMCDEL's benchmark at 20 agents (190 shared coins, 2^190 * 21 worlds): after the XOR of all reveals is
    announced every world is left (the XOR says whether the NSA paid, which is true in each world), and the
    first agent, if it did not pay, knows that nobody did or that another did without knowing which."""
    n = 20
    state = load_data(classic.dining_cryptographers(n), file="<dining>").final_state(method="symbolic")
    assert state.count == (n + 1) * 2 ** 190
    others = [f"paid == 'A{i}'" for i in range(2, n + 1)]
    check = (f"paid != 'A1' implies (knows(A1, paid == 'NSA') or (knows(A1, {' or '.join(others)}) and "
             + " and ".join(f"not knows(A1, {o})" for o in others) + "))")
    assert state.judge(parse(check)) == (state.count, state.count)
    # A1 knows the NSA paid exactly where it did (the XOR is 0 there, 1 elsewhere); A2 never knows A3 paid
    assert state.judge(parse("knows(A1, paid == 'NSA')"))[0] == 2 ** 190
    assert state.judge(parse("knows(A2, paid == 'A3')"))[0] == 0


def test_drinking_logicians_past_enumeration() -> None:
    """2^200 worlds: the i-th "I don't know" leaves the worlds where the first i want beer; the last knows."""
    n = 200
    puzzle = load_data(classic.drinking_logicians(n), file="<drinking>")
    for said in (1, 50, n - 1):
        state = puzzle.final_state(method="symbolic", after=said)
        assert state.count == 2 ** (n - said)
    assert state.at_point(parse(f"knows(L{n}, min({', '.join(f'w{i}' for i in range(1, n + 1))}) == 1)"))


def test_russian_cards_102_safe_announcements_symbolically() -> None:
    from sleuth.models.epistemic import russian
    safe = russian.safe_announcements(method="symbolic")
    assert len(safe) == 102 and all((0, 1, 2) in s for s in safe)
    lists = list(russian.hand_lists())
    for hands in lists[::97]:   # the checks as trees are the checks as text
        assert russian.check_nodes(hands) == [parse(t) for t in russian.check_set(hands)]
