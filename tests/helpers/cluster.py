"""The experiments on Dask: a loopback cluster fixture and the runs the cluster tests compare."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.conftest import PUZZLES, run_cli

TIMING = re.compile(r"second|_s$|_ms$|time|peak|cpu|workers|memory|_over_|slower")  # measured values


def loopback_cluster() -> Any:
    """A module-scoped fixture: the address of a 2-worker Dask cluster on 127.0.0.1 (start-up costs seconds,
    so one per test module)."""

    @pytest.fixture(scope="module")
    def address():  # type: ignore[no-untyped-def]
        distributed = pytest.importorskip("distributed")
        import logging

        with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                      dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster:
            yield cluster.scheduler_address

    return address


D7L = str(PUZZLES / "motus" / "seed-d7l.txt")


RUNS: dict[str, tuple[list[str], str]] = {
    "motus": (["motus", "--dictionary", D7L, "--lengths", "7", "--json"], "json"),
    "emi": (["emi", "--dictionary", D7L, "--lengths", "7", "--letters", "K-L", "--json"], "json"),
    "wordle": (["wordle", "--games", "mastermind", "--pegs", "3", "--colours", "3", "--methods", "max,sum",
                "--json"], "json"),
    "egghead": (["egghead", "--players", "3", "--values", "3", "--hand-size", "2", "--rounds", "40", "--batch", "10",
                 "--ba", "0,2", "--json"], "json"),
    "clue": (["clue", "--games", "2", "--players", "3", "--every", "50", "--json"], "json"),
    "mascarade": (["mascarade", "--players", "4", "--events", "12", "--games", "2", "--repeat", "1",
                   "--methods", "states,matrix", "--crossover-players", "4", "--crossover-swaps", "4",
                   "--crossover-runs", "2", "--json"], "json-last"),
    "cardguess": (["cardguess", "--deck", "2,2,2", "--json"], "json"),
    "cardguess-sweep": (["cardguess", "--deck", "2,2,2", "--gamma-sweep", "--json"], "json"),
    "epistemic": (["epistemic", "--runs", "1", "--bounds", "5,8", "--children", "3", "--no-events"], "text"),
}


FAST = [n if n != "emi" else pytest.param(n, marks=pytest.mark.slow) for n in RUNS]


def strip_times(obj: Any) -> Any:
    """The output without its timings (which differ between runs)."""
    if isinstance(obj, dict):
        return {k: strip_times(v) for k, v in obj.items() if not TIMING.search(str(k))}
    if isinstance(obj, list):
        return [strip_times(v) for v in obj]
    return obj


def result(argv: list[str], how: str, *extra: str) -> Any:
    r = run_cli(["experiment", *argv, *extra])
    assert r.code == 0, r.err
    assert "Traceback" not in r.err
    if how == "json":
        return strip_times(json.loads(r.out))
    if how == "json-last":
        return strip_times(json.loads(r.out.strip().splitlines()[-1]))
    # text tables: keep the words and the world counts, drop the times
    return [line.split()[:-3] if "muddy" in line or "sum" in line else line.split()
            for line in r.out.splitlines()[1:] if "SMCDEL" not in line]
