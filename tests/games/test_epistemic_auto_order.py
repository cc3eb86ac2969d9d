"""``auto`` falls back when the symbolic engine refuses a formula; answers do not depend on the method or on
the order the worlds are listed in (issue 48)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from sleuth.claims import question_specs
from sleuth.loading import load_data

pytest.importorskip("oxidd")


def test_auto_uses_the_table_when_the_symbolic_engine_refuses_a_formula() -> None:
    doc = {"game": "epistemic", "variables": {"a": "0..15", "b": "0..15", "c": "0..15", "d": "0..3", "e": "0..3"},
           "agents": {"A": ["a"], "B": ["b"]},
           "announcement": [{"formula": "(a * 100000 + b + c) % 7 == 1"}]}
    puzzle = load_data(doc, file="<auto>")
    assert puzzle.auto_method(None) == "symbolic"   # 65,536 worlds of narrow domains
    report = puzzle.solve()
    table = load_data(doc, file="<table>").solve(options={"method": "table"})
    assert report.fields["method"] == "table" and report.fields["count"] == table.fields["count"]
    assert any("symbolic engine does not take" in n for n in report.notes)
    (claim,) = load_data(doc, file="<auto>").verify(question_specs(["knows(A, b + c > 3)"]))
    (want,) = load_data(doc, file="<table>").verify(question_specs(["knows(A, b + c > 3)"]),
                                                    options={"method": "table"})
    assert claim.verdict == want.verdict and claim.witness == want.witness


CLAIMS = ["knows(A, y == 1)", "x > 1", "not knows(B)", "knows(A) or knows(B)", "y == 2"]


def _answers(worlds: list[dict[str, Any]], method: str) -> tuple[Any, ...]:
    doc = {"game": "epistemic", "worlds": worlds, "agents": {"A": ["x"], "B": ["y"]},
           "announcement": [{"formula": "not knows(B)"}]}
    solved = load_data(doc, file="<w>").solve(options={"method": method}).to_json()
    verified = load_data(doc, file="<w>").verify(question_specs(CLAIMS), options={"method": method})
    return solved["worlds"], [(r.verdict, r.witness) for r in verified]


@pytest.mark.parametrize("seed", range(4))
def test_witnesses_and_world_order_do_not_depend_on_the_method_or_the_listing(seed: int) -> None:
    rng = random.Random(seed)
    worlds = [{"x": x, "y": y} for x in range(1, 5) for y in range(1, 4) if rng.random() < 0.7]
    first = _answers(worlds, "table")
    for method in ("table", "symbolic", "model"):
        for _ in range(2):
            rng.shuffle(worlds)
            assert _answers(worlds, method) == first, method
