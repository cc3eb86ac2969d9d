"""The opener ranking (``experiment wordle --optimal`` without ``--opener``) against brute force on small random
dictionaries: every opener's exact total, the cut-off between openers, bounds past a node limit, and the same
ranking serially and on a 2-worker local cluster."""

from __future__ import annotations

import json

import pytest

from sleuth.executor import Executor
from sleuth.models.motus.optimal_study import rank_openers

from tests.helpers.motus import INF, opener_totals as _opener_totals, random_game as _game


@pytest.mark.parametrize("seed", range(4))
def test_every_opener_exact_without_the_cut_off(seed: int) -> None:
    game = _game(seed)
    truth = _opener_totals(game)
    ranked = rank_openers(game[2], game, cap=None, kernel="python", cutoff=False, wave=3)
    assert {r["opener"]: r["total"] for r in ranked} == truth
    assert all(r["status"] == "exact" and r["lower"] == r["upper"] == r["total"] for r in ranked)
    assert [r["total"] for r in ranked] == sorted(truth.values())
    for r in ranked:
        assert sum(int(k) * v for k, v in r["distribution"].items()) == r["total"]


@pytest.mark.parametrize("seed", range(4, 8))
@pytest.mark.parametrize("cap", [None, 3])
def test_the_cut_off_refutes_only_worse_openers(seed: int, cap: int | None) -> None:
    game = _game(seed, answers=10)
    truth = _opener_totals(game, cap)
    ranked = rank_openers(game[2], game, cap=cap, kernel="python", wave=2)
    best = min(truth.values())
    assert ranked[0]["status"] == "exact" and ranked[0]["total"] == best < INF
    for r in ranked:
        if r["status"] == "exact":
            assert r["total"] == truth[r["opener"]]
        elif r["status"] == "refuted":
            assert best < r["beta"] <= r["lower"] <= truth[r["opener"]]
        else:
            assert r["status"] == "impossible" and truth[r["opener"]] >= INF
    assert len(ranked) == len(game[2])


def test_a_refutation_inside_the_search_is_a_proven_bound() -> None:
    game = _game(5, answers=30, extra=5)  # one opener passes the class-size test and is cut off while searched
    every = {r["opener"]: r["total"] for r in rank_openers(game[2], game, cap=None, kernel="python", cutoff=False)}
    ranked = rank_openers(game[2], game, cap=None, kernel="python", wave=1)
    searched = [r for r in ranked if r["status"] == "refuted" and r["searched"]]
    assert searched and ranked[0]["total"] == min(every.values())
    for r in ranked:
        assert r["total"] == every[r["opener"]] if r["status"] == "exact" else \
            ranked[0]["total"] < r["lower"] <= every[r["opener"]]


def test_node_limit_gives_proven_bounds() -> None:
    game = _game(21, answers=30, extra=10)
    truth = _opener_totals(game)
    ranked = rank_openers(game[2], game, cap=None, kernel="python", node_limit=2, cutoff=False)
    cut = [r for r in ranked if r["status"] == "bounds"]
    assert cut, "a limit of 2 nodes stops some opener"
    for r in ranked:
        assert r["lower"] <= truth[r["opener"]] <= (r["upper"] if r["upper"] is not None else INF)
        assert (r["total"] is not None) == (r["status"] == "exact")


def test_serial_and_local_cluster_rank_alike() -> None:
    pytest.importorskip("distributed")
    game = _game(3, answers=9)
    serial = rank_openers(game[2], game, cap=6, kernel="python", wave=3)
    with Executor(workers=2, quiet=True) as ex:
        spread = rank_openers(game[2], game, cap=6, kernel="python", wave=3, executor=ex)
    strip = lambda rs: [{k: v for k, v in r.items() if k not in ("cpu_seconds",)} for r in rs]  # noqa: E731
    assert strip(serial) == strip(spread)


@pytest.mark.slow  # the numba kernel compiles in the CLI process
def test_ranking_cli_json(cli) -> None:
    r = cli(["experiment", "wordle", "--games", "wordle", "--optimal", "--openers", "SALET,XYLYL", "--node-limit",
             "1", "--json", "--quiet"])
    out = json.loads(r.out)
    assert r.code == 0 and out["candidates"] == 2 and not out["proven"] and out["best"] is None
    assert {x["status"] for x in out["ranking"]} == {"bounds"}
    assert all(x["lower"] <= x["upper"] for x in out["ranking"])
