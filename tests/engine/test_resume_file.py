"""``--resume`` files hold results as JSON lines (sleuth.records): every result type of the experiments comes
back equal, and nothing in a file (an old pickle, a crafted record) can run code when it is read."""

from __future__ import annotations

import json
import math
import os
import pickle
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from sleuth import records
from sleuth.errors import PuzzleError
from sleuth.executor import Executor, task_seed
from sleuth.models.cardguess.scores import ScoreDistribution
from sleuth.models.motus import strategy as st
from sleuth.models.motus.emi import Value
from sleuth.models.motus.experiment import EmiCell, Tally

from tests.conftest import run_cli


def _same(a: Any, b: Any) -> bool:
    """Equal, of the same types all the way down (NaN equal to NaN, arrays by dtype, shape and values)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=a.dtype.kind in "fc")
    if isinstance(a, float | np.floating):
        return (math.isnan(a) and math.isnan(b)) or a == b
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(k, j) for k, j in zip(a, b, strict=True)) \
            and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


SAMPLES: list[Any] = [
    None, True, 0, -(2**100), 0.1, float("nan"), float("inf"), "", "é\n\"$",
    [1, [2.5, "x"]], (1, (2, 3)), {1, 2}, frozenset({"a"}), {"a": 1, "$": 2}, {3: "x", (1, 2): [None]},
    Fraction(-7, 3), Fraction(10**40 + 1, 3),
    np.arange(6, dtype=np.int16).reshape(2, 3), np.array([0.1, np.nan, -np.inf]), np.zeros((0, 4), np.uint64),
    np.array([True, False]), np.array([1 + 2j]), np.int64(-5), np.float32(0.25), np.bool_(True),
    {st.Method.GINI: Tally(3, 9, 1, 4, 0.5, {1: 2, 4: 1}), st.Method.MAX: Tally()},
    EmiCell("8C", 10, Value(3, None, 1.0), heuristic_upper=5), ScoreDistribution((0, 3, 1)),
    ({"solves": [[1, 2], []]}, [0.01, 0.02]),
]


@pytest.mark.parametrize("value", SAMPLES, ids=lambda v: type(v).__name__)
def test_every_result_type_round_trips_through_json(value: Any) -> None:
    text = json.dumps(records.encode(value))
    assert _same(records.decode(json.loads(text)), value)


def test_what_cannot_be_written_is_refused() -> None:
    for value in (object(), np.array([object()]), {1j}, Path(".")):
        with pytest.raises(TypeError, match="cannot write"):
            records.encode(value)


def test_crafted_records_are_refused_without_running_anything(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    for data in ({"$": "dataclass", "cls": "os:system", "v": {}},
                 {"$": "namedtuple", "cls": "subprocess:Popen", "v": [["touch", str(marker)]]},
                 {"$": "enum", "cls": "sleuth.records:_sleuth_class", "v": "x"},
                 {"$": "dataclass", "cls": "sleuth.models.motus.experiment:Tally", "v": {"words": 1}},
                 {"$": "dataclass", "cls": "sleuth.x:<lambda>", "v": {}},
                 {"$": "ndarray", "dtype": "O", "shape": [1], "v": ""},
                 {"$": "ndarray", "dtype": "<i8", "shape": [3], "v": "AAAA"},
                 {"$": "pickle", "v": "gASVAA=="}, {"$": "tuple", "v": "abc"}, 3 + 0j):
        with pytest.raises((ValueError, TypeError)):
            records.decode(data)
    assert not marker.exists()


# -- the results file --------------------------------------------------------------------------------------

def _square(n: int) -> dict[int, Fraction]:
    return {n: Fraction(n * n, 3)}


class _Boom:
    """Unpickling this runs ``os.mkdir(path)``: the test checks the folder never appears."""

    def __init__(self, path: str) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return os.mkdir, (self.path,)


def test_results_file_holds_json_lines_and_resumes(tmp_path: Path) -> None:
    path = str(tmp_path / "r.jsonl")
    with Executor(resume=path, name="t") as ex:
        first = ex.map_tasks(_square, [1, 2, 3])
    lines = Path(path).read_text().splitlines()
    assert json.loads(lines[0])["experiment"] == "t" and len(lines) == 4
    assert all(json.loads(line)["i"] in (0, 1, 2) for line in lines[1:])
    with Executor(resume=path, name="t") as ex:
        again = ex.map_tasks(_square, [1, 2, 3])
    assert ex.stats.tasks == 0 and ex.stats.resumed == 3 and again == first == [_square(n) for n in (1, 2, 3)]


@pytest.mark.parametrize("protocol", [0, 2, pickle.HIGHEST_PROTOCOL])
def test_an_old_or_malicious_pickle_is_refused_and_never_run(tmp_path: Path, protocol: int) -> None:
    marker = tmp_path / "ran"
    path = tmp_path / "old.results"
    with open(path, "wb") as f:  # what an older sleuth wrote, with a payload in the first record
        pickle.dump(("t", "digest"), f, protocol=protocol)
        pickle.dump((0, _Boom(str(marker))), f, protocol=protocol)
    with pytest.raises(PuzzleError) as info, Executor(resume=str(path), name="t") as ex:
        ex.map_tasks(_square, [1])
    assert "--resume" in str(info.value) and "\n" not in str(info.value)
    assert ("older sleuth" if protocol >= 2 else "not a sleuth results file") in str(info.value)
    assert not marker.exists()
    assert path.read_bytes()[:1] in (b"\x80", b"(")  # refused, not overwritten


def test_a_crafted_record_in_a_results_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "r.jsonl"
    argv = ["experiment", "cardguess", "--deck", "2,2", "--json", "--resume", str(path)]
    assert run_cli(argv).code == 0
    marker = tmp_path / "ran"
    with open(path, "a") as f:
        f.write(json.dumps({"i": 0, "r": {"$": "namedtuple", "cls": "subprocess:Popen",
                                          "v": [["touch", str(marker)]]}}) + "\n")
    n = len(path.read_text().splitlines())
    r = run_cli(argv)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
    assert f"--resume: line {n}: not a result of this sleuth" in r.err and str(path) in r.err
    assert not marker.exists()


def test_seeded_tasks_resume_to_the_same_results(tmp_path: Path) -> None:
    """A partial run, then the rest: the same as one run (seeds per task index)."""
    items = list(range(6))
    path = str(tmp_path / "s.jsonl")
    with Executor(resume=path, name="s") as ex:
        for i, _ in ex.completed(task_seed, items):
            if i == 2:
                break
    with Executor(resume=path, name="s") as ex:
        assert ex.map_tasks(task_seed, items) == [task_seed(i) for i in items]
        assert ex.stats.resumed == 3 and ex.stats.tasks == 3
