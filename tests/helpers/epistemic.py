"""Epistemic: random world tables, action models and formulas (Hypothesis strategies)."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import assume
from hypothesis import strategies as st
from sleuth.epistemic import ActionModel, Domain, Event, WorldTable
from sleuth.formula import parse
from sleuth.models.epistemic import reference


def event_relation(data: st.DataObject, n: int, s5: bool) -> list[list[int]]:
    """Per event, the events considered possible: a partition, or belief cells (KD45) with outsiders."""
    cells = data.draw(st.lists(st.integers(0, n - 1), min_size=n, max_size=n), label="cell of each event")
    inside = [True] * n if s5 else data.draw(st.lists(st.booleans(), min_size=n, max_size=n), label="inside")
    if not any(inside):
        inside[0] = True
    members = {c: [e for e in range(n) if cells[e] == c and inside[e]] for c in set(cells)}
    live = [c for c, m in members.items() if m]
    return [members[cells[e]] if inside[e] else members[data.draw(st.sampled_from(live), label="outsider's cell")]
            for e in range(n)]

AGENTS = ("a", "b")

def numeric(doms: list[Domain]) -> list[str]:
    return [d.name for d in doms if d.labels is None]

@st.composite
def expressions(draw: Any, doms: list[Domain], depth: int = 2) -> str:
    names = numeric(doms)
    leaves = [str(draw(st.integers(-4, 4)))] + names
    if depth == 0 or draw(st.booleans()):
        return draw(st.sampled_from(leaves))
    op = draw(st.sampled_from(["+", "-", "*", "min", "max", "abs", "%", "//", "count"]))
    a, b = draw(expressions(doms, depth - 1)), draw(expressions(doms, depth - 1))
    if op in ("min", "max"):
        return f"{op}({a}, {b})"
    if op == "abs":
        return f"abs({a})"
    if op == "count":
        return f"count({a} > {b}, {a} == 1)"
    if op in ("%", "//"):
        return f"({a}) {op} {draw(st.sampled_from(['1', '2', '3', '4', '-2']))}"
    return f"({a}) {op} ({b})"


def random_worlds(data: st.DataObject) -> tuple[list[int], WorldTable, dict[str, list[str]], dict[str, Any],
                                                reference.Kripke]:
    """Random worlds over v0, v1, v2 (2-3 values each, a random subset kept), the variables agents a and b observe,
    their views and the plain Kripke model of that observation."""
    sizes = data.draw(st.lists(st.integers(2, 3), min_size=3, max_size=3), label="domain sizes")
    domains = {f"v{i}": range(s) for i, s in enumerate(sizes)}
    table = WorldTable.from_product(domains)
    keep = data.draw(st.lists(st.booleans(), min_size=len(table), max_size=len(table)), label="worlds kept")
    assume(any(keep))
    table = table.subset(np.array(keep, dtype=bool))
    obs = {a: data.draw(st.lists(st.sampled_from(list(domains)), unique=True, max_size=2), label=f"observed by {a}")
           for a in ("a", "b")}
    worlds = [tuple(r) for r in table.data.tolist()]
    views = {a: (lambda w, o=o: tuple(w[int(v[1:])] for v in o)) for a, o in obs.items()}
    return sizes, table, obs, views, reference.observation_model(worlds, views)


def random_action(data: st.DataObject, sizes: list[int], s5: bool, learn: bool
                  ) -> tuple[ActionModel, list[reference.RefEvent], dict[str, list[list[int]]], set[str]]:
    """A random action model over worlds (v0, v1, v2) for agents a and b (1-3 events, each with a random
    precondition, maybe the factual change v1 := v2 % size(v1), maybe designated; ``learn``: a learns v2), and the
    same events for the plain Kripke reference."""
    n_events = data.draw(st.integers(1, 3), label="events")
    events, ref_events = [], []
    for e in range(n_events):
        k = data.draw(st.integers(0, sizes[0] - 1))
        pre, pre_fn = (f"v0 != {k}", lambda w, k=k: w[0] != k) if data.draw(st.booleans(), label="precondition") \
            else ("true", lambda w: True)
        if data.draw(st.booleans(), label="factual change"):   # v1 := v2 % size(v1)
            post, post_fn = (("v1", parse(f"v2 % {sizes[1]}")),), (lambda w: (w[0], w[2] % sizes[1], w[2]))
        else:
            post, post_fn = (), (lambda w: w)
        designated = e == 0 or data.draw(st.booleans(), label="designated")
        events.append(Event(f"e{e}", parse(pre), post, designated))
        ref_events.append(reference.RefEvent(pre_fn, post_fn, designated))
    erel = {a: event_relation(data, n_events, s5) for a in ("a", "b")}
    told = {"a"} if learn else set()
    action = ActionModel(tuple(events), erel, (parse("v2"), tuple(told), tuple(range(n_events))) if learn else None)
    return action, ref_events, erel, told


@st.composite
def formulas(draw: Any, doms: list[Domain], depth: int = 3) -> str:
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        named = [d for d in doms if d.labels is not None]
        if named and draw(st.booleans()):
            d = draw(st.sampled_from(named))
            return f"{d.name} {draw(st.sampled_from(['==', '!=']))} '{draw(st.sampled_from(d.labels))}'"
        if not numeric(doms):
            return draw(st.sampled_from(["true", "false"]))
        op = draw(st.sampled_from(["==", "!=", "<", "<=", ">", ">="]))
        return f"{draw(expressions(doms))} {op} {draw(expressions(doms))}"
    kind = draw(st.sampled_from(["not", "and", "or", "implies", "knows", "knows_value", "knows_world",
                                 "common", "distributed", "after"]))
    sub = lambda: draw(formulas(doms, depth - 1))  # noqa: E731
    agent = draw(st.sampled_from(AGENTS))
    if kind == "not":
        return f"not ({sub()})"
    if kind in ("and", "or", "implies"):
        return f"({sub()}) {kind} ({sub()})"
    if kind == "knows":
        return f"knows({agent}, {sub()})"
    if kind == "knows_value":
        return f"knows({agent}, {draw(st.sampled_from([d.name for d in doms]))})"
    if kind == "knows_world":
        return f"knows({agent})"
    if kind == "common":
        return f"common(all, {sub()})"
    if kind == "distributed":
        return f"distributed([a, b], {sub()})"
    return f"after({sub()}, {sub()})"
