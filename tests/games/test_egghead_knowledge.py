"""Egghead's behavioural analysis on the knowledge layer: the packed master table (the fast path) against
the listed worlds of sleuth.knowledge, table by table, reaction by reaction, and on a whole study."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sleuth.knowledge import Worlds
from sleuth.models.egghead.experiment import simulate
from sleuth.models.egghead.hands import Setup
from sleuth.models.egghead.questions import load_catalogue
from sleuth.models.egghead.tables import DERIVATIONS, LayerTables, PackedSpace, PackedTables
from tests.helpers.egghead import play, random_game


@pytest.mark.parametrize("shape", [(3, 3, 2), (2, 4, 2), (4, 2, 2)])
def test_packed_reactions_are_the_layers_knowledge(shape: tuple[int, int, int]) -> None:
    """eq. 3 packed (``singleton_keep``) is "the player knows their own hand" on the layer, for random tables."""
    s = Setup(*shape)
    sp = PackedSpace(s)
    rng = np.random.default_rng(sum(shape))
    grid = np.indices((s.n_hands,) * s.players).reshape(s.players, -1).T
    for density in (0.05, 0.3, 0.9):
        cube = rng.random((s.n_hands,) * s.players) < density
        table = sp.pack(cube)
        listed = Worlds(grid[cube.reshape(-1)], {p: np.delete(grid[cube.reshape(-1)], p, axis=1)
                                                 for p in range(s.players)})
        for p in range(s.players):
            knows = listed.knows(p, listed.worlds[:, p])
            for solved in (True, False):
                kept = sp.unpack(table & sp.singleton_keep(table, p, solved)).reshape(-1)[cube.reshape(-1)]
                assert np.array_equal(kept, knows == solved), (shape, density, p, solved)


def test_layer_tables_play_like_the_packed_ones() -> None:
    rng = np.random.default_rng(77)
    for game in range(12):
        players, values, size = [(3, 3, 2), (3, 4, 2), (3, 2, 3), (4, 3, 2)][game % 4]
        s = Setup(players, values, size)
        qs, ba, moderator, world0, deals, order = random_game(rng, s, game)
        fast, layer = PackedTables(s, ba), LayerTables(s, ba)
        assert play(fast, s, qs, world0, deals, order, moderator) == \
            play(layer, s, qs, world0, deals, order, moderator), (game, ba, moderator)
        tables = ([(fast.master, layer.master)] if fast.master is not None else []) + \
            [(fast.own[p], layer.own[p]) for p in fast.own]
        for packed, listed in tables:
            assert np.array_equal(fast.space.unpack(packed).reshape(-1), listed)


def test_a_study_gives_the_same_figures_on_both_derivations() -> None:
    s = Setup(3, 4, 2)
    qs = [q.compile_for(s) for q in load_catalogue(4)]
    flags = [True, True, False]
    games = {name: simulate(s, qs, flags, 60, 5, tables=cls(s, flags)) for name, cls in DERIVATIONS.items()}
    assert games["packed"].solve_rounds == games["layer"].solve_rounds
    assert [(r.answer, r.stages, r.new_hands) for r in games["packed"].records] == \
        [(r.answer, r.stages, r.new_hands) for r in games["layer"].records]
    assert sum(len(x) for x in games["layer"].solve_rounds) > 10


def test_experiment_on_the_layer_prints_the_same_study(cli) -> None:  # type: ignore[no-untyped-def]
    args = ["experiment", "egghead", "--players", "3", "--values", "3", "--hand-size", "2", "--rounds", "40",
            "--ba", "0,2,3", "--json", "--quiet"]
    out = {}
    for name in ("packed", "layer"):
        res = cli([*args, "--knowledge", name])
        assert res.code == 0, res.err
        data = json.loads(res.out)
        for r in data["results"]:
            del r["seconds"], r["median_round_seconds"]
        out[name] = data
    assert out["packed"] == out["layer"] and out["layer"]["results"][1]["types"][0]["solves"] > 0
    bad = cli(["experiment", "egghead", "--players", "5", "--knowledge", "layer"])
    assert bad.code == 2 and "--knowledge layer" in bad.err and "Traceback" not in bad.err
    assert len(bad.err.strip().splitlines()) == 1
