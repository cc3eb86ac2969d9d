"""Mascarade from the command line: JSON fields, methods, claims, and broken puzzle files."""

from __future__ import annotations

import json

import pytest

from tests.conftest import PUZZLES

BASE = """game = "mascarade"
players = ["A", "B", "C", "D"]
cards = ["King", "Queen", "Judge", "Thief"]
"""
SWAP = '[[event]]\nswap = ["A", "B"]\n'
REVEAL = '[[event]]\nreveal = "B"\ncard = "King"\n'


def write(tmp_path, text, name="p.toml"):
    f = tmp_path / name
    f.write_text(text)
    return f


@pytest.mark.parametrize("method", ["auto", "tree", "states", "cpsat", "matrix"])
def test_solve_json_every_method(cli, method):
    r = cli(["solve", PUZZLES / "mascarade" / "seed-figure3.toml", "--json", "--method", method])
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["game"] == "mascarade" and out["status"] == "ok"
    assert out["marginals"]["J1"] == {"C0": "1", "C1": "0", "C2": "0"}
    if method == "matrix":
        assert out["exact"] is False and out["support"] is None and "estimate" in out["note"]
        assert out["marginals"]["J0"]["C1"] == "3/5"
    else:
        assert out["exact"] is True and out["support"] == 2
        assert out["marginals"]["J0"] == {"C0": "0", "C1": "2/3", "C2": "1/3"}
    assert ("swaps" in out) == (method == "tree")
    assert ("histories" in out) == (method == "cpsat")


def test_solve_text_and_verify_claims(cli, tmp_path):
    f = write(tmp_path, BASE + SWAP + REVEAL)
    r = cli(["solve", f])
    assert r.code == 0 and "support: 1 placements" in r.out and "know their own card" in r.out
    r = cli(["verify", f, "--claim", "A holds Queen", "--claim", "P(A holds King) = 0", "--claim",
             "P(C holds Judge) >= 1/2", "--claim", "not D holds Thief", "--expect", "entailed"])
    assert r.code == 1                      # the last claim is refuted
    assert "because: event 2 (reveal B: King)" in r.out and "3 of 4 claims as expected" in r.out
    r = cli(["verify", f, "--claim", "A holds King", "--json"])
    out = json.loads(r.out)["claims"][0]
    assert out["verdict"] == "refuted" and out["because"] == ["event 2 (reveal B: King)"]


def test_swap_probability_option_and_python_constraint_backend(cli, tmp_path):
    f = write(tmp_path, BASE + SWAP)
    r = cli(["solve", f, "--json", "--set", "swap_probability=1/3", "--set", "knowledge=false"])
    out = json.loads(r.out)
    assert out["marginals"]["A"]["Queen"] == "1/3" and "knowledge" not in out
    r = cli(["solve", f, "--json", "--method", "cpsat", "--backend", "python-constraint"])
    assert json.loads(r.out)["marginals"]["A"]["King"] == "1/2"


def test_contradiction_exit_and_text(cli, tmp_path):
    f = write(tmp_path, BASE + '[[event]]\nreveal = "A"\ncard = "Queen"\n')
    r = cli(["solve", f])
    assert r.code == 4 and "CONTRADICTION" in r.out and "event 1 (reveal A: Queen)" in r.out
    r = cli(["solve", f, "--json"])
    assert json.loads(r.out)["status"] == "contradiction"


def test_too_large_is_reported_not_hidden(cli):
    r = cli(["solve", PUZZLES / "mascarade" / "thirteen-players.toml", "--method", "tree", "--set",
             "max_states=8", "--json"])
    assert r.code == 3 and json.loads(r.out)["status"] == "timeout"


BROKEN = [
    ('players = ["A"]\ncards = ["King"]', "players", "2 to 13 items"),
    ('players = ["A", "B"]\ncards = ["King"]', "cards", "one card per player"),
    ('players = ["A", "a"]\ncards = ["King", "Queen"]', "players", "listed twice"),
    (BASE.split("\n", 1)[1] + 'middle = ["Spy", "Fool", "Witch", "Cheat", "Bishop", "Widow", "Peasant", "Usurper", '
     '"Inquisitor", "Courtesan", "Beggar", "Actress", "Patron"]', "middle", "at most 15 positions"),
    (BASE.split("\n", 1)[1] + 'swap_probability = "3/2"', "swap_probability", "from 0 to 1"),
    (BASE.split("\n", 1)[1] + 'swap_probability = "often"', "swap_probability", "p/q"),
    (BASE.split("\n", 1)[1] + 'viewer = "Zed"', "viewer", "A, B, C, D"),
    (BASE.split("\n", 1)[1] + '[[event]]\ncard = "King"', "event[1]", "exactly one of swap"),
    (BASE.split("\n", 1)[1] + '[[event]]\nswap = ["A", "B"]\nlook = "A"', "event[1]", "several event kinds"),
    (BASE.split("\n", 1)[1] + '[[event]]\nswap = ["A", "Zed"]', "event[1].swap[1]", "Judge" if False else "A, B"),
    (BASE.split("\n", 1)[1] + '[[event]]\nswap = ["A", "A"]', "event[1].swap", "two different positions"),
    (BASE.split("\n", 1)[1] + '[[event]]\nswap = ["A", "B"]\nswapped = "yes"', "event[1].swapped", "true or false"),
    (BASE.split("\n", 1)[1] + '[[event]]\nswap = ["A", "B"]\npublic = true', "event[1].public", "swapped ="),
    (BASE.split("\n", 1)[1] + '[[event]]\nswap = ["A", "B"]\nswaped = true', "event[1].swaped", "swapped"),
    (BASE.split("\n", 1)[1] + '[[event]]\nreveal = "B"', "event[1].card", None),
    (BASE.split("\n", 1)[1] + '[[event]]\nreveal = "B"\ncard = "Joker"', "event[1].card", "King, Queen"),
    (BASE.split("\n", 1)[1] + '[[event]]\nlook = "Middle1"', "event[1].look", "A, B, C, D"),
    (BASE.split("\n", 1)[1] + '[[event]]\nspy = "A"\nwith = "A"', "event[1].with", "B, C, D"),
    (BASE.split("\n", 1)[1] + '[[event]]\nspy = "A"\nwith = "B"\ncards = ["King"]', "event[1].cards", "exactly 2"),
    (BASE.split("\n", 1)[1] + '[[event]]\nfool = "A"\nbetween = ["A", "B"]', "event[1].between", "neither"),
    (BASE.split("\n", 1)[1] + '[[claim]]\ntext = "A is the King"', "claim[1]", "holds"),
    (BASE.split("\n", 1)[1] + '[[claim]]\ntext = "A holds Joker"', "claim[1]", "King, Queen"),
    (BASE.split("\n", 1)[1] + '[[claim]]\ntext = "P(A holds King) = lots"', "claim[1]", "p/q"),
]


@pytest.mark.parametrize("body,place,allowed", BROKEN, ids=[b[1] + str(i) for i, b in enumerate(BROKEN)])
def test_broken_puzzles_exit_2_with_one_line(cli, tmp_path, body, place, allowed):
    f = write(tmp_path, 'game = "mascarade"\n' + body + "\n", "broken.toml")
    r = cli(["verify" if "claim" in body else "solve", f])
    assert r.code == 2, (r.out, r.err)
    line = r.err.strip()
    assert "\n" not in line and "Traceback" not in line
    assert str(f) in line and place in line, line
    if allowed:
        assert allowed in line, line


@pytest.mark.parametrize("args,place", [
    (["--method", "magic"], "tree"),
    (["--set", "colour=red"], "--set colour=VALUE"),
    (["--set", "max_states=many"], "max_states"),
    (["--set", "swap_probability=2"], "swap_probability"),
])
def test_bad_options_exit_2(cli, tmp_path, args, place):
    f = write(tmp_path, BASE + SWAP)
    r = cli(["solve", f, *args])
    assert r.code == 2 and place in r.err and "\n" not in r.err.strip()


def test_verify_rejects_the_matrix_method(cli):
    r = cli(["verify", PUZZLES / "mascarade" / "seed-figure3.toml", "--set", "method=matrix"])
    assert r.code == 2 and "exact method" in r.err
