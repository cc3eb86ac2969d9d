"""Epistemic values past 64 bits (issue 48): the table's arrays hold exact Python integers where int64 cannot,
and every method gives the symbolic engine's verdicts and worlds."""

from __future__ import annotations

from typing import Any

import pytest

from sleuth.claims import question_specs
from sleuth.loading import load_data

pytest.importorskip("oxidd")

BIG = 10 ** 20
HUGE = 2 ** 70 + 1
VARIABLES = {"x": [0, 1, BIG, HUGE], "y": [2, 3], "z": [-BIG, 5]}
AGENTS = {"A": ["x"], "B": ["y"], "C": ["z + y"]}

FORMULAS = [
    "min(x, x, 1) == 1", "max(x, z, 2) > 3", "abs(z) > 10", "x + z == 0", "x - y > 5", "x * y > x + 1",
"count(x > 5, z < 0, y == 2) >= 2", "x + z == 0 or x == 1",
    "knows(A)", "knows(B, x)", "knows(C, x > 1)", "knows(B, z + y > 0)", "not knows(C, y)",
    "distributed([A, B], x)", "common([A, B], x >= 0)", "after(x > 1, knows(B, x > 1))",
    "knows(A, knows(B, y == 2))",
]

EVENTS: list[list[dict[str, Any]]] = [
    [{"formula": "x > 1 or y == 3"}],
    [{"kind": "private", "to": ["A"], "formula": "y == 2"}],
    [{"kind": "private", "to": ["B"], "learn": "x"}],
    [{"kind": "semi-private", "to": ["C"], "learn": "x + z"}],
    [{"learn": "x"}],
    [{"set": {"x": 0}}],
    [{"set": {"x": "max(x, 1) + z - z"}}],
    [{"kind": "private", "to": ["A"], "set": {"z": 5}}],
    [{"kind": "action", "events": [{"name": "big", "pre": "x > y", "set": {"y": 2}},
                                   {"name": "small", "pre": "x <= y"}],
      "observers": {"A": [["big"], ["small"]]}}],
]


def _doc(events: list[dict[str, Any]], variables: dict[str, Any] | None = None) -> dict[str, Any]:
    doc: dict[str, Any] = {"game": "epistemic", "variables": variables or VARIABLES, "agents": AGENTS}
    if events:
        doc["event"] = events
    return doc


def _verdicts(doc: dict[str, Any], method: str) -> list[str]:
    results = load_data(doc, file="<big>").verify(question_specs(FORMULAS), options={"method": method})
    return [r.verdict.value for r in results]


def _solved(doc: dict[str, Any], method: str) -> tuple[int, list[dict[str, Any]], list[int]]:
    out = load_data(doc, file="<big>").solve(options={"method": method}).to_json()
    return out["count"], out["worlds"], [s["worlds"] for s in out["steps"]]


@pytest.mark.parametrize("index", range(len(EVENTS) + 1))
def test_values_past_int64_agree_with_the_symbolic_engine(index: int) -> None:
    doc = _doc(EVENTS[index - 1] if index else [])
    assert _verdicts(doc, "table") == _verdicts(doc, "symbolic")
    assert _solved(doc, "table") == _solved(doc, "symbolic")


def test_a_factual_change_loads_on_a_domain_past_int64() -> None:
    doc = _doc([{"set": {"x": 0}}])
    count, worlds, _ = _solved(doc, "table")
    assert count == 16 and all(w["x"] == 0 for w in worlds)


def test_the_solver_refuses_values_past_its_range_in_one_line() -> None:
    from sleuth.errors import PuzzleError

    with pytest.raises(PuzzleError, match="--method table"):
        _verdicts(_doc([{"formula": "x > 1"}]), "model")


def test_floor_division_and_remainder_past_int64_on_the_table() -> None:
    """// and % over such ranges are not symbolic: the table against Python's own integers."""
    import itertools

    for formula, holds in (("x // y > 1", lambda x, y, z: x // y > 1), ("x % 3 == 1", lambda x, y, z: x % 3 == 1),
                           ("(x + z) % y == 0", lambda x, y, z: (x + z) % y == 0)):
        count, worlds, _ = _solved(_doc([{"formula": formula}]), "table")
        want = [w for w in itertools.product(*VARIABLES.values()) if holds(*w)]
        assert count == len(want)
        assert sorted((w["x"], w["y"], w["z"]) for w in worlds) == sorted(want)
