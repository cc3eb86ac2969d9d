"""Egghead's behavioural analysis as ``--method model``: the worlds the engine enumerates from each answer's
declarative model, with the reactions read as knowledge of others, against the packed and layer tables."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sleuth.engine import Engine
from sleuth.models.egghead.behaviour_model import ModelTables
from sleuth.models.egghead.hands import Setup
from sleuth.models.egghead.questions import load_catalogue
from sleuth.models.egghead.rounds import play_round
from sleuth.models.egghead.tables import LayerTables, PackedTables
from tests.helpers.egghead import play, random_game

SHAPES = [(3, 3, 2), (2, 4, 2), (3, 4, 1), (2, 3, 2), (3, 3, 1), (2, 4, 1)]


@pytest.mark.parametrize("backend", ["cpsat", "python-constraint"])
def test_model_plays_like_the_tables_and_the_layer(backend: str) -> None:
    """Random small games (computed answers, solves, re-deals, both moderators, BA for some players): the same
    answers, solves and valids as ``tables`` and ``layer``, and the same tables as the layer."""
    rng = np.random.default_rng(12)
    solves = informative = 0
    for game in range(12):
        s = Setup(*SHAPES[game % len(SHAPES)])
        qs, ba, moderator, world0, deals, order = random_game(rng, s, game)
        order = order[:5]
        model = ModelTables(s, ba, backend)
        got = play(model, s, qs, world0, deals, order, moderator)
        assert got == play(LayerTables(s, ba), s, qs, world0, deals, order, moderator), (game, ba, moderator)
        assert got == play(PackedTables(s, ba), s, qs, world0, deals, order, moderator), (game, ba, moderator)
        layer = LayerTables(s, ba)
        play(layer, s, qs, world0, deals, order, moderator)
        for mine, theirs in zip(model.tables(), ([layer.master] if layer.master is not None else [])
                                + list(layer.own.values()), strict=True):
            assert np.array_equal(mine, theirs), game
        assert model.solutions > 0
        solves += sum(len(stage) for _, stages, _ in got for stage in stages)
        basic = play(LayerTables(s, [False] * s.players), s, qs, world0, deals, order, moderator)
        informative += got != basic
    assert solves >= 5 and informative >= 1, (solves, informative)


def test_each_answer_is_a_model_the_engine_solves() -> None:
    """The answer's model: its solutions are the seen hands that give the answer (brute force), restricted
    to the worlds still possible once a reaction has removed some."""
    s = Setup(3, 3, 2)
    qs = {q.qid: q.compile_for(s) for q in load_catalogue(3)}
    q = qs["sum"]
    tables = ModelTables(s, [True] * 3)
    visible = [False, True, True]
    m, index = tables.answer_model(q, 7, visible)
    assert [o.name for o in m.observations] == ["answer 1: sum = 7"]   # every world still possible
    got = set(Engine(m, "cpsat").valids(index))
    want = {(b, c) for b in range(s.n_hands) for c in range(s.n_hands) if q.answer([0, b, c], visible) == 7}
    assert got == want and 0 < len(got) < s.n_hands ** 2
    tables.apply_answer(q, 7, visible)
    tables.apply_reactions([None, False, False])
    m, index = tables.answer_model(qs["distinct"], 2, [True, False, True])
    assert [o.name for o in m.observations] == ["worlds still possible", "answer 2: distinct = 2"]


def test_a_wrong_reaction_or_answer_changes_the_answer() -> None:
    """The comparison can fail: the model's worlds follow the reactions and answers they are given."""
    s = Setup(3, 4, 2)
    qs = {q.qid: q.compile_for(s) for q in load_catalogue(4)}
    world = [s.hand_of((1, 2)), s.hand_of((3, 4)), s.hand_of((1, 1))]   # the seed's example 3.1, smaller

    def valids(tables: LayerTables, reactions: list[bool | None], answer: int = 0) -> list[tuple[int, ...]]:
        tables.apply_answer(qs["missing"], answer, [True] * 3)
        tables.apply_reactions(reactions)
        return [tuple(int(h) for h in tables.valids(p, world)) for p in range(3)]

    rec = play_round(LayerTables(s, [True] * 3), list(world), qs["missing"], None, lambda p: None)
    assert (rec.answer, rec.stages) == (0, [[1]])                   # B solves at once
    right = valids(ModelTables(s, [True] * 3), [False, True, False])
    assert right == valids(LayerTables(s, [True] * 3), [False, True, False])
    assert [len(v) for v in right] == [2, 1, 3]   # A: 1 2 | 2 2; C: no 3 or 4, else B could not solve
    assert valids(ModelTables(s, [True] * 3), [False, False, False]) != right   # nobody solves
    assert valids(ModelTables(s, [True] * 3), [False, True, False], answer=1) != right   # another answer


def test_model_method_on_the_command_line(cli) -> None:  # type: ignore[no-untyped-def]
    res = cli(["solve", "example:egghead/rotating_two_stages", "--method", "model", "--json"])
    assert res.code == 0, res.err
    data = json.loads(res.out)
    assert (data["method"], data["backend"], data["exact"]) == ("model", "cpsat", True)
    want = json.loads(cli(["solve", "example:egghead/rotating_two_stages", "--json"]).out)
    assert want["method"] == "tables" and data["valids"] == want["valids"] and data["rounds"] == want["rounds"]
    bad = cli(["solve", "example:egghead/seed_example", "--method", "model", "--set", "max_worlds=1000"])
    assert bad.code == 2 and "max_worlds" in bad.err and "Traceback" not in bad.err
    assert len(bad.err.strip().splitlines()) == 1
