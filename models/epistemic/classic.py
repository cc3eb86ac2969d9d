"""The classic puzzles as puzzle documents built in code, for any size (the benchmark and tests use them;
the files under puzzles/epistemic/ are the same puzzles at fixed sizes, with comments and claims)."""

from __future__ import annotations

from typing import Any


def sum_and_product(limit: int = 100) -> dict[str, Any]:
    return {
        "game": "epistemic", "title": f"Sum and Product (x + y <= {limit})",
        "constraints": ["x < y", f"x + y <= {limit}"],
        "variables": {"x": f"2..{limit - 2}", "y": f"3..{limit - 1}"},
        "agents": {"S": ["x + y"], "P": ["x * y"]},
        "announcement": [{"by": "S", "formula": "knows(S, not knows(P))"},
                         {"by": "P", "formula": "knows(P)"}, {"by": "S", "formula": "knows(S)"}],
    }


def what_sum(bound: int) -> dict[str, Any]:
    return {
        "game": "epistemic", "title": f"What Sum (1..{bound})",
        "constraints": ["a == b + c or b == a + c or c == a + b"],
        "variables": {v: f"1..{bound}" for v in "abc"},
        "agents": {"A": ["b", "c"], "B": ["a", "c"], "C": ["a", "b"]},
        "announcement": [{"by": x, "formula": f"not knows({x})"} for x in "ABC"],
    }


def muddy_children(n: int, muddy: int) -> dict[str, Any]:
    """``n`` children, the first ``muddy`` of them muddy; the father's announcement and ``muddy - 1`` rounds
    of silence."""
    ms = [f"m{i}" for i in range(1, n + 1)]
    nobody = " and ".join(f"not knows(c{i}, m{i})" for i in range(1, n + 1))
    return {
        "game": "epistemic", "title": f"Muddy children (n = {n}, {muddy} muddy)",
        "variables": {m: [0, 1] for m in ms},
        "agents": {f"c{i}": [m for j, m in enumerate(ms, 1) if j != i] for i in range(1, n + 1)},
        "actual": {m: int(i < muddy) for i, m in enumerate(ms)},
        "announcement": [{"formula": " + ".join(ms) + " >= 1"},
                         {"formula": nobody, "repeat": muddy - 1}],
    }
