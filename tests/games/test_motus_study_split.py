"""The Motus study's tasks: large cells split into groups of methods give the same tallies as one task per cell."""

from __future__ import annotations

import pytest

from sleuth.models.motus import experiment as mx
from sleuth.models.motus import strategy as st
from sleuth.models.motus.space import cell_spaces

METHODS = [st.Method.SUM, st.Method.GINI, st.Method.ENTROPY, st.Method.BOBO]


def _summary(tallies: dict[st.Method, mx.Tally]) -> dict[str, tuple[int, int, int, int, dict[int, int]]]:
    return {m.value: (t.words, t.total, t.fails, t.worst, t.histogram) for m, t in tallies.items()}


def test_split_tasks_give_the_per_cell_tallies(monkeypatch: pytest.MonkeyPatch) -> None:
    spaces = cell_spaces("wordle", [5], ["J", "K", "Q"])
    whole = mx.merge([mx.study_cell(s, METHODS) for s in cell_spaces("wordle", [5], ["J", "K", "Q"])], METHODS)
    monkeypatch.setattr(mx, "PARTS", 12)  # small cells: force a split
    monkeypatch.setattr(mx, "MIN_TASK_COST", 0.0)
    jobs, weights, costs = mx.study_jobs(spaces, METHODS, 60.0)
    assert len(jobs) > len(spaces)
    per_cell: dict[tuple[int, str], list[str]] = {}
    for job in jobs:
        per_cell.setdefault((job[0].length, job[0].first), []).extend(job[1])
    assert all(sorted(v) == sorted(m.value for m in METHODS) for v in per_cell.values())  # each method once
    assert sum(weights) == pytest.approx(sum(len(s.answers) for s in spaces))
    assert all(c > 0 for c in costs)
    parts = [mx._study_task(job) for job in reversed(jobs)]  # any order: a cell's groups need not be adjacent
    mx._PREPARED.clear()
    split = mx.merge(parts, METHODS)
    assert _summary(split[0]) == _summary(whole[0])
    assert split[1]["pairs"] == whole[1]["pairs"]  # each cell's pairs counted once

