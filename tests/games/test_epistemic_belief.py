"""Belief in the symbolic engine (observation laws over a doubled vocabulary) against the explicit engines.

Random action models whose observers are belief cells (KD45, not partitions), chained with factual change and
learnt values, checked world by world against the plain Kripke reference; random puzzle files with private,
semi-private and action events solved by the table and symbolically, with random formulas judged on the
result; and a private announcement among 40 muddy children, past the table, against what the story implies.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("oxidd")

from hypothesis import HealthCheck, assume, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sleuth.epistemic import Domain, ExplicitState  # noqa: E402
from sleuth.epistemic.symbolic import SymbolicState  # noqa: E402
from sleuth.formula import parse  # noqa: E402
from sleuth.models.epistemic import reference  # noqa: E402
from sleuth.loading import load_data  # noqa: E402
from tests.helpers.epistemic import random_action, random_worlds  # noqa: E402
from tests.helpers.epistemic import formulas  # noqa: E402

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def truths(state: SymbolicState, text: str) -> list[bool]:
    """Per world of the structure (designated or not), in listing order: does the formula hold there?"""
    f = state.truth(parse(text))
    e, out = state.engine, []
    stack = [(state.law, 0)]
    while stack:
        g, i = stack.pop()
        if i == len(state.key):
            out.append(bool((g & f).satisfiable()))
            continue
        x = e.var(state.key[i])
        stack += [(b, i + 1) for b in (g & x, g & ~x) if b.satisfiable()]
    return out


def holding(state: ExplicitState | SymbolicState, text: str) -> list[dict[str, int | str]]:
    """The worlds that may be the actual one where the formula holds, in listing order."""
    node = parse(text)
    if isinstance(state, SymbolicState):
        return list(state._walk(state.designated & state.truth(node)))
    return state.table.subset(state.truth(node) & state.designated_mask()).rows()


def worlds_of(state: SymbolicState) -> list[tuple[int, ...]]:
    rows: list[tuple[int, ...]] = []
    for name in state.variables:
        col = [int(v) for v in _column(state, name)]
        rows = [r + (c,) for r, c in zip(rows, col, strict=True)] if rows else [(c,) for c in col]
    return rows


def _column(state: SymbolicState, name: str) -> list[int]:
    values = state.variables[name].domain.values
    cols = [truths(state, f"{name} == {v}") for v in values]
    return [values[[c[w] for c in cols].index(True)] for w in range(len(cols[0]))]


@SETTINGS
@given(st.data())
def test_chained_belief_updates_match_the_reference(data: st.DataObject) -> None:
    """Two random action models in a row (belief cells with outsiders, preconditions, factual change, a learnt
    value), then an announcement: every operator agrees with the plain Kripke model, world by world."""
    sizes, table, obs, views, kripke = random_worlds(data)
    worlds = [tuple(r) for r in table.data.tolist()]
    state = SymbolicState.start(table.domains, [], {a: [parse(v) for v in o] for a, o in obs.items()},
                                [tuple(r) for r in worlds])
    for _ in range(2):
        action, ref_events, erel, told = random_action(data, sizes, data.draw(st.booleans(), label="s5"),
                                                       data.draw(st.booleans(), label="a learns v2"))
        state = state.update(action)
        kripke = reference.product(kripke, ref_events, {a: [set(r) for r in rs] for a, rs in erel.items()},
                                   (lambda w: w[2], told) if told else None, views)
    assume(kripke.worlds)
    assert worlds_of(state) == kripke.worlds
    assert state.size == len(kripke.worlds) and state.count == len(kripke.designated)
    for model, ref in ((state, kripke), (state.announce("v0 != 1"), reference.restrict(
            kripke, {w for w, x in enumerate(kripke.worlds) if x[0] != 1}))):
        p = lambda v, ref=ref: ref.worlds[v][0] == 1   # noqa: E731
        assert truths(model, "knows(a, v0 == 1)") == reference.k(ref, "a", p)
        assert truths(model, "believes(b, not (v0 == 1))") == reference.k(ref, "b", lambda v, p=p: not p(v))
        inner = reference.k(ref, "b", p)
        assert truths(model, "knows(a, knows(b, v0 == 1))") == reference.k(ref, "a", inner.__getitem__)
        assert truths(model, "common([a, b], v0 == 1)") == reference.common(ref, ["a", "b"], p)
        assert truths(model, "common(all, v0 != 1)") == reference.common(ref, ["a", "b"], lambda v, p=p: not p(v))
        assert truths(model, "distributed(all, v0 == 1)") == reference.distributed(ref, ["a", "b"], p)
        for agent in ("a", "b"):
            assert truths(model, f"knows({agent}, v1)") == \
                [len({ref.worlds[v][1] for v in ref.rel[agent][w]}) <= 1 for w in range(len(ref.worlds))]
            assert truths(model, f"knows({agent})") == \
                [len({ref.worlds[v] for v in ref.rel[agent][w]}) <= 1 for w in range(len(ref.worlds))]


AGENTS = ("a", "b", "c")


@st.composite
def belief_files(draw: Any) -> dict[str, Any]:
    """A puzzle file over three small variables with private, semi-private, public and action events (belief
    cells as observers), factual change, and announcements that speak of beliefs."""
    variables = {"p": [0, 1], "q": [0, 1, 2], "r": ["left", "right"]}
    doc: dict[str, Any] = {"game": "epistemic", "variables": variables,
                           "agents": {"a": draw(st.sampled_from([["p"], ["p + q"], []])),
                                      "b": draw(st.sampled_from([["q"], ["r == 'left'"], ["p", "r"]])),
                                      "c": draw(st.sampled_from([[], ["r"]]))},
                           "actual": {"p": 1, "q": 2, "r": "left"}, "event": []}
    to = st.lists(st.sampled_from(AGENTS), min_size=1, max_size=2, unique=True)
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["private", "private-set", "semi", "action", "public", "set"]))
        if kind == "private":
            doc["event"].append({"kind": "private", "to": draw(to),
                                 **draw(st.sampled_from([{"formula": "p == 1"}, {"learn": "q"},
                                                         {"formula": "q >= 1", "learn": "r"}]))})
        elif kind == "private-set":
            doc["event"].append({"kind": "private", "to": draw(to), "set": draw(st.sampled_from(
                [{"q": "min(q + 1, 2)"}, {"r": "right"}, {"p": "1 - p", "q": "0"}]))})
        elif kind == "semi":
            doc["event"].append({"kind": "semi-private", "to": draw(to),
                                 "learn": draw(st.sampled_from(["q", "p * q", "r == 'right'"]))})
        elif kind == "public":
            doc["event"].append({"formula": draw(st.sampled_from(
                ["not believes(a, q == 2)", "believes(b, p == 1) or q > 0", "p + q >= 1",
                 "not knows(c)", "believes(c, believes(a, p == 1)) or r == 'left'"]))})
        elif kind == "set":
            doc["event"].append({"set": {"q": draw(st.sampled_from(["p", "min(q + 1, 2)", "0"]))}})
        else:
            doc["event"].append({"kind": "action", "actual": "e1", "events": [
                {"name": "e1", "pre": draw(st.sampled_from(["true", "p == 1", "q != 1"])),
                 "set": {"p": draw(st.sampled_from(["1 - p", "p", "0"]))}},
                {"name": "e2", "pre": "q >= 1", "set": {"r": "right"}},
                {"name": "e3", "designated": draw(st.booleans())}],
                "observers": {"a": draw(st.sampled_from([[["e1"], ["e2", "e3"]], {"e1": ["e1"], "e2": ["e1"],
                                                                                   "e3": ["e1"]}])),
                              "b": draw(st.sampled_from([{"e1": ["e3"], "e2": ["e3"], "e3": ["e3"]},
                                                         {"e1": ["e1", "e2"], "e2": ["e1", "e2"],
                                                          "e3": ["e1", "e2"]}, [["e1", "e3"], ["e2"]]]))}})
    return doc


def _answer(doc: dict[str, Any], method: str) -> Any:
    try:
        report = load_data(doc, file="<drawn>").solve(options={"method": method}).to_json()
    except Exception as exc:   # e.g. a factual change leaving a domain: both engines refuse alike
        return type(exc).__name__
    return {k: report.get(k) for k in ("status", "worlds", "count", "initial", "steps", "knowers")}


@settings(SETTINGS, max_examples=25)   # both engines and three formulas per file: the slowest here
@given(belief_files(), st.data())
def test_private_events_give_the_same_answer(doc: dict[str, Any], data: st.DataObject) -> None:
    assert _answer(doc, "symbolic") == _answer(doc, "table")
    puzzle = load_data(doc, file="<drawn>")
    try:
        explicit = puzzle.final_state(method="table")
    except Exception:
        return
    symbolic = puzzle.final_state(method="symbolic")
    doms = [Domain.of(k, v) for k, v in doc["variables"].items()]
    for _ in range(3):
        text = data.draw(formulas(doms))
        assert holding(symbolic, text) == holding(explicit, text), text


def test_outsiders_get_an_observation_law_and_insiders_keep_observing() -> None:
    """After a private announcement to a, only b (who believes nothing happened) has a relation over the doubled
    vocabulary; a stays on the fast path (observed variables), and b's belief at the actual world is wrong."""
    doc = {"game": "epistemic", "variables": {"p": [0, 1]}, "agents": {"a": [], "b": []},
           "actual": {"p": 1}, "event": [{"kind": "private", "to": ["a"], "formula": "p == 1"}]}
    puzzle = load_data(doc, file="<private>")
    state = puzzle.final_state(method="symbolic")
    assert isinstance(state, SymbolicState) and set(state.beliefs) == {"b"}
    table = puzzle.final_state(method="table")
    assert isinstance(table, ExplicitState)
    for agent in ("a", "b"):
        assert state.sure_at_point(agent) == table.sure_at_point(agent)
    assert state.sure_at_point("b") == (False, False)   # b considers only the "nothing happened" copies
    assert state.at_point(parse("knows(a, p == 1) and not believes(b, knows(a, p == 1))"))


@pytest.mark.parametrize("n", [3, 40])
def test_a_private_announcement_among_muddy_children(n: int) -> None:
    """The father whispers "at least one of you is muddy" to child 1 only (the others believe nothing was
    said); child 1 alone is muddy.  Child 1 then knows it is muddy; child 2 (who sees child 1 muddy, and
    cannot tell its own state) believes nothing was said, so that child 1 knows there is a muddy child in one
    of its worlds and not in the other: it believes neither; that child 1 does not know its state is common
    belief of the others (they consider only the "nothing" copies); the model holds the told copies and the
    "nothing" copies.  At n = 40 (2^41 worlds in the model) checked against those counts; at n = 3 also
    against the table."""
    names = [f"m{i}" for i in range(1, n + 1)]
    doc = {"game": "epistemic", "variables": {m: [0, 1] for m in names},
           "agents": {f"c{i}": [m for m in names if m != f"m{i}"] for i in range(1, n + 1)},
           "actual": {m: int(m == "m1") for m in names},
           "event": [{"kind": "private", "to": ["c1"], "formula": " + ".join(names) + " >= 1"}]}
    puzzle = load_data(doc, file="<muddy>")
    state = puzzle.final_state(method="symbolic")
    assert (state.count, state.size) == (2 ** n - 1, 2 ** n - 1 + 2 ** n)
    some = " + ".join(names) + " >= 1"
    checks = {"knows(c1, m1)": True, f"believes(c2, knows(c1, {some}))": False,
              f"believes(c2, not knows(c1, {some}))": False, "believes(c2, knows(c1, m1))": False,
              "common([c2, c3], not knows(c1, m1))": True, "knows(c3, m3)": False}
    got = {text: state.at_point(parse(text)) for text in checks}
    assert got == checks
    if n <= 3:
        table = puzzle.final_state(method="table")
        assert {text: table.at_point(parse(text)) for text in checks} == checks
        assert holding(state, f"believes(c2, knows(c1, {some}))") == holding(table, f"believes(c2, knows(c1, {some}))")


def test_beliefs_past_the_memory_budget_stop_with_the_size_reached(cli: Any, tmp_path: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The primed copies and observation laws are nodes like any other: at the budget's floor (65,536 nodes) a
    belief about a product over 1..40 stops at the limit (exit 3, one line saying the nodes reached)."""
    import tomli_w

    from sleuth.models.epistemic import classic

    monkeypatch.setenv("SLEUTH_MEMORY_BUDGET", "1M")
    doc = classic.sum_and_product(40)
    doc.pop("announcement")
    doc["event"] = [{"kind": "private", "to": ["S"], "formula": "x + y >= 7"}]
    doc["claim"] = [{"text": "believes(P, knows(S, x * y > 20))"}]
    path = tmp_path / "big.toml"
    path.write_text(tomli_w.dumps(doc))
    res = cli(["verify", path, "--method", "symbolic"])
    assert res.code == 3 and "nodes" in res.err and len(res.err.strip().splitlines()) == 1, res.err


def test_auto_picks_the_symbolic_engine_for_beliefs_too() -> None:
    """A private event no longer keeps ``auto`` on the table: 2^15 worlds of muddy children, a private event to
    child 1 (the others get observation laws): symbolic, with the table's answer (the worlds where m2 == 1)."""
    from sleuth.models.epistemic import classic

    doc = classic.muddy_children(15, 2)
    del doc["announcement"]
    doc["event"] = [{"kind": "private", "to": ["c1"], "formula": "m2 == 1"}]
    answers = {m: load_data(doc, file="<auto>").solve(options={"method": m}).fields for m in ("auto", "table")}
    assert answers["auto"]["method"] == "symbolic" and answers["table"]["method"] == "table"
    assert answers["auto"]["count"] == answers["table"]["count"] == 2 ** 14
