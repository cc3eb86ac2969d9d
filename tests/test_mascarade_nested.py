"""Mascarade, what the other players believe from the viewer's side: against brute force over every swap
outcome, the claims on nested beliefs and the command line."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from sleuth.models.mascarade.nested import brute_force_nested, nested
from sleuth.models.mascarade.simulation import simulate
from tests.conftest import PUZZLES

SIX = PUZZLES / "mascarade" / "six-players.toml"


@pytest.mark.parametrize(("players", "events", "middle", "seed"), [(3, 6, 0, 1), (3, 7, 1, 2), (4, 7, 0, 3)])
def test_nested_beliefs_match_brute_force(players: int, events: int, middle: int, seed: int) -> None:
    game = simulate(players, events, seed, middle=middle)
    certain = 0
    for viewer in (None, *range(players)):
        fast = nested(game, viewer)
        assert fast == brute_force_nested(game, viewer)
        for n in fast:
            assert sum(n.own.values()) == 1 and all(sum(row.values()) == 1 for row in n.about.values())
            certain += n.knows_own > 0
    assert certain   # some player may be sure of their card


def test_solve_others_json(cli) -> None:
    res = cli(["solve", SIX, "--viewer", "Ann", "--set", "others=true", "--json"])
    data = json.loads(res.out)
    assert res.code == 0
    assert data["safe_claims"] == ["Cat", "Dan"]
    assert data["others"]["Dan"]["own"] == {"Witch": "1"} and data["others"]["Dan"]["knows_own_card"] == "1"
    assert data["others"]["Bob"]["about_viewer"] == {"King": "1/2", "Thief": "1/2"}
    assert "others" not in json.loads(cli(["solve", SIX, "--json"]).out)


def test_nested_claims(cli) -> None:
    claims = ["P(Bob knows his card) = 0", "P(Cat knows her card) = 1", "P(Bob believes Ann holds King) = 1/2",
              "Dan may know his card", "not Bob may know his card", "P(Bob believes Ann holds King) > 1/2"]
    res = cli(["verify", SIX, "--viewer", "Ann", "--json", *(x for c in claims for x in ("--claim", c))])
    verdicts = [c["verdict"] for c in json.loads(res.out)["claims"]][-6:]
    assert verdicts == ["entailed"] * 5 + ["refuted"]


def test_second_order_belief_is_the_viewers_expectation() -> None:
    game = simulate(3, 6, 5)
    for n in nested(game, 0):
        assert all(p > 0 for p in n.about[0].values())
        assert sum(n.about[0].values()) == Fraction(1)


@pytest.mark.parametrize(("args", "words"), [
    (["solve", SIX, "--set", "others=maybe"], ["--set others", "true or false"]),
    (["verify", SIX, "--claim", "P(Zed knows his card) = 1"], ["Zed"]),
    (["verify", SIX, "--claim", "P(Bob believes Ann holds Crown) = 1"], ["Crown"]),
])
def test_bad_input_exit_2(cli, args: list[str], words: list[str]) -> None:
    res = cli(args)
    assert res.code == 2 and "Traceback" not in res.err
    assert all(w in res.err for w in words), res.err


def test_too_many_hidden_swaps_is_labelled(cli) -> None:
    res = cli(["solve", PUZZLES / "mascarade" / "thirteen-players.toml", "--set", "others=true", "--json"])
    data = json.loads(res.out)
    assert "others" not in data and "swaps the viewer did not see" in data["others_reason"]
