"""Every experiment, small: serial, on a Dask cluster this module starts on 127.0.0.1, and on its own local
workers (``--workers 2``) give the same results; ``--plot`` writes a PNG for each."""

from __future__ import annotations

import os
import sys
from importlib.util import find_spec

import pytest

from sleuth.executor import Executor, _chunks
from tests.conftest import run_cli
from tests.helpers.cluster import loopback_cluster
from tests.helpers.cluster import FAST, RUNS, result

address = loopback_cluster()

# Small runs of every experiment; the second item says how to read the output.

# numba compiles the EMI kernel in every fresh worker process (tens of CPU seconds): only in the slow run


@pytest.mark.parametrize("name", FAST)
def test_experiment_on_a_loopback_cluster_equals_serial(name, address, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Serial (drawing its figure) and on the module's cluster: the same results."""
    argv, how = RUNS[name]
    figure = tmp_path / f"{name}.png"
    serial = result(argv, how, *(["--plot", str(figure)] if find_spec("matplotlib") else []))
    assert serial
    if find_spec("matplotlib"):
        assert figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and figure.stat().st_size > 10_000
    assert result(argv, how, "--cluster", address) == serial


@pytest.mark.parametrize("name", FAST)
def test_experiment_on_its_own_local_workers_equals_serial(name) -> None:  # type: ignore[no-untyped-def]
    """``--workers 2`` (forked processes, no Dask): the results of a serial run, for every experiment."""
    argv, how = RUNS[name]
    assert result(argv, how, "--workers", "2") == result(argv, how)


PREPARED: list[str] = []  # what Executor's ``prepare`` left in this process


def _prepared(item: int) -> tuple[int, list[str]]:
    return item, list(PREPARED)


def _pid(item: str) -> tuple[str, int]:
    return item, os.getpid()


@pytest.mark.skipif(sys.platform != "linux", reason="local workers are forked on Linux only")
def test_local_workers_inherit_what_prepare_built() -> None:
    """``--workers N`` forks its workers after ``prepare`` ran: they have what it built (a spawned worker
    would import this module afresh, empty); serially ``prepare`` is not called (the tasks build it)."""
    with Executor(prepare=lambda: PREPARED.append("built")) as ex:
        assert ex.map_tasks(_prepared, [1, 2]) == [(1, []), (2, [])]
    try:
        with Executor(workers=2, prepare=lambda: PREPARED.append("built")) as ex:
            assert ex.map_tasks(_prepared, [1, 2, 3]) == [(i, ["built"]) for i in (1, 2, 3)]
    finally:
        PREPARED.clear()


def test_chunks_keep_a_group_together_while_it_is_small() -> None:
    groups, costs, todo = ["a", "b", "a", "a", "c"], [1.0, 10.0, 1.0, 1.0, 1.0], [1, 3, 0, 2, 4]
    # total 14: 2 workers may take a group costing up to 14 / 4; 8 workers, up to 14 / 16 (group a costs 3)
    assert _chunks(todo, groups, costs, 2) == [[1], [0, 2, 3], [4]]
    assert _chunks(todo, groups, costs, 8) == [[1], [3], [0], [2], [4]]
    assert _chunks(todo, None, costs, 2) == [[1], [3], [0], [2], [4]]


def test_a_group_runs_in_one_process_on_a_cluster(address) -> None:  # type: ignore[no-untyped-def]
    items = [f"{g}{k}" for g in "abcd" for k in range(3)]
    with Executor(cluster=address) as ex:
        out = ex.map_tasks(_pid, items, groups=[x[0] for x in items])
    assert [x for x, _ in out] == items
    for g in "abcd":
        assert len({pid for x, pid in out if x[0] == g}) == 1  # the group's tasks ran one after the other


def test_emi_heat_map(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The EMI figure from cells as the experiment makes them (one search cut short by its time limit)."""
    pytest.importorskip("matplotlib")
    from sleuth.models.motus.emi import Value
    from sleuth.models.motus.experiment import EmiCell
    from sleuth.models.motus.plot import plot_emi

    cells = {(n, x): EmiCell(f"{n}{x}", 10, Value(n - 4 + (x == "B"), n - 4 + (x == "B"), 0.1))
             for n in (7, 8) for x in "ABC"}
    cells[(8, "C")] = EmiCell("8C", 10, Value(3, None, 1.0), heuristic_upper=5)
    out = tmp_path / "emi.png"
    plot_emi(str(out), cells, "EMI")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and cells[(8, "C")].show() == "3-5?"


def test_resume_file_from_the_command_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    argv, how = RUNS["egghead"]
    path = tmp_path / "egghead.results"
    first = result(argv, how, "--resume", path)
    assert path.stat().st_size > 0
    assert result(argv, how, "--resume", path) == first
    r = run_cli(["experiment", *argv[:-1], "--seed", "5", "--resume", path])
    assert r.code == 2 and "--resume" in r.err and "other options" in r.err


def test_clue_solve_plot_and_games_that_refuse_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("matplotlib")
    out = tmp_path / "clue.png"
    r = run_cli(["solve", "example:clue/classic-3-players", "--plot", out])
    assert r.code == 0, r.err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    r = run_cli(["solve", "example:clue/classic-3-players", "--plot", out, "--method", "rules"])
    assert r.code == 2 and "--plot" in r.err and len(r.err.strip().splitlines()) == 1
    for example in ("epistemic/cheryl", "mascarade/seed-figure2", "egghead/seed_example", "motus/logique"):
        r = run_cli(["solve", f"example:{example}", "--plot", out])
        assert r.code == 2 and "--plot does not apply" in r.err, (example, r.err)
