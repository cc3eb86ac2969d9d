"""Egghead: broken puzzle files and claims give one line naming the file, the place and what is allowed."""

from __future__ import annotations

import pytest

from tests.conftest import ROOT

GOOD = {
    "head": 'game = "egghead"\nplayers = ["A", "B", "C"]\n',
    "table": "[table]\nA = [1, 2, 2]\nB = [4, 5, 6]\nC = [3, 3, 3]\n",
    "round": '[[round]]\nquestion = "missing"\n',
}


def doc(head: str = GOOD["head"], table: str = GOOD["table"], rnd: str = GOOD["round"], extra: str = "") -> str:
    return head + extra + "\n" + table + rnd


CASES = [
    # (puzzle text, fragments the message must contain)
    (doc(extra="values = 1\n"), ["values", "out of range", "2 to 12"]),
    (doc(extra='values = "six"\n'), ["values", "expected an integer"]),
    (doc(extra="hand_size = 0\n"), ["hand_size", "1 to 8"]),
    (doc(head='game = "egghead"\n'), ["players", "required"]),
    (doc(head='game = "egghead"\nplayers = ["A", "a", "C"]\n'), ["players", "listed twice"]),
    (doc(extra='moderator = "random"\n'), ["moderator", "external", "rotating"]),
    (doc(extra='analysis = "deep"\n'), ["analysis", "basic", "behavioural"]),
    (doc(extra='analysis = "basic"\nanalysts = ["A"]\n'), ["analysts", "behavioural"]),
    (doc(extra='analysts = ["Zed"]\n'), ["analysts[1]", "Zed", "A, B, C"]),
    (doc(extra="players_ = 3\n"), ["unknown key", "players_"]),
    (doc(head='game = "egghead"\nplayers = ["A", "B", "C", "D", "E", "F", "G", "H"]\n',
         table="[table]\n" + "".join(f"{p} = [1, 1, 1]\n" for p in "ABCDEFGH")), ["worlds", "too many"]),
    (doc(table="[table]\nA = [1, 2]\nB = [4, 5, 6]\nC = [3, 3, 3]\n"), ["table.A", "exactly 3 items"]),
    (doc(table="[table]\nA = [1, 2, 7]\nB = [4, 5, 6]\nC = [3, 3, 3]\n"), ["table.A[3]", "card 7", "1 to 6"]),
    (doc(table="[table]\nA = [1, 2, 2]\nC = [3, 3, 3]\n"), ["table", "hand of B is missing", "viewer"]),
    (doc(table="[table]\nA = [1, 2, 2]\nB = [4, 5, 6]\nC = [3, 3, 3]\nZed = [1, 1, 1]\n"),
     ["table.Zed", "unknown player"]),
    (doc(rnd='[[round]]\nquestion = "nope"\n'), ["round[1].question", "nope", "missing, sum"]),
    (doc(rnd='[[round]]\nquestion = "sum"\nanswer = "zero"\n'), ["round[1].answer", "expected an integer"]),
    (doc(rnd='[[round]]\nquestion = "sum"\nsolves = [["Zed"]]\n'), ["round[1].solves[1][1]", "Zed"]),
    (doc(rnd='[[round]]\nquestion = "sum"\nsolves = "B"\n'), ["round[1].solves", "expected a list"]),
    (doc(rnd='[[round]]\nquestion = "sum"\nsolves = [[1]]\n'), ["round[1].solves[1][1]", "expected a string"]),
    (doc(rnd='[[round]]\nquestion = "sum"\nsolves = []\nnew_hands = { B = [1, 1, 1] }\n'),
     ["round[1].new_hands.B", "did not solve"]),
    (doc(rnd='[[round]]\nquestion = "sum"\nnew_hands = { A = [1, 1, 1] }\n'),
     ["round[1].new_hands", "A did not solve"]),
    (doc(rnd='[[round]]\nquestion = "sum"\nanwser = 3\n'), ["round[1]", "unknown key", "anwser"]),
    (doc(extra='moderator = "rotating"\n', rnd='[[round]]\nquestion = "sum"\nsolves = [["A"]]\n'),
     ["round[1].solves[1][1]", "moderates"]),
    (doc(extra='viewer = "A"\n', table="[table]\nB = [4, 5, 6]\nC = [3, 3, 3]\n"),
     ["round[1]", "answer is needed"]),
    (doc(extra='viewer = "A"\n', table="[table]\nB = [4, 5, 6]\nC = [3, 3, 3]\n",
         rnd='[[round]]\nquestion = "missing"\nanswer = 0\n'), ["round[1]", "solves are needed"]),
    (doc(extra='viewer = "Zed"\n'), ["viewer", "Zed", "A, B, C"]),
]


@pytest.mark.parametrize("text,fragments", CASES)
def test_broken_puzzle(cli, tmp_path, text: str, fragments: list[str]) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "broken.toml"
    path.write_text(text)
    res = cli(["solve", path])
    assert res.code == 2, (res.out, res.err)
    lines = res.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in res.err
    assert str(path) in lines[0]
    for f in fragments:
        assert f in lines[0], (f, lines[0])


@pytest.mark.parametrize("claim,fragments", [
    ("A is clever", ["--claim[1]", "cannot read", "holds 1 2 2"]),
    ("Zed has a 4", ["--claim[1]", "Zed", "A, B, C"]),
    ("A has a 9", ["--claim[1]", "1 to 6"]),
    ("A holds 1 2", ["--claim[1]", "3 cards"]),
])
def test_broken_claims(cli, claim: str, fragments: list[str]) -> None:  # type: ignore[no-untyped-def]
    res = cli(["verify", ROOT / "puzzles" / "egghead" / "seed_example.toml", "--claim", claim])
    assert res.code == 2 and len(res.err.strip().splitlines()) == 1, res.err
    for f in fragments:
        assert f in res.err, (f, res.err)


def test_contradiction_names_the_observation(cli) -> None:  # type: ignore[no-untyped-def]
    path = ROOT / "tests" / "data" / "egghead" / "contradiction.toml"
    res = cli(["solve", path])
    assert res.code == 4 and "CONTRADICTION" in res.out and "round 1: missing = 1" in res.out
    res = cli(["verify", path])
    assert res.code == 4 and "contradiction" in res.out
