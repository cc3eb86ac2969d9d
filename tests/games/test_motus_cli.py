"""Motus / Wordle / Mastermind from the command line: puzzles, suggestions, experiments and bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sleuth.models.motus.feedback import feedback

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


GAME_DIRS = ("motus", "wordle", "mastermind")


@pytest.mark.parametrize("path", sorted(p for d in GAME_DIRS for p in (PUZZLES / d).glob("*.toml")),
                         ids=lambda p: f"{p.parent.name}/{p.name}")
def test_puzzle_claims_hold(cli, path) -> None:
    r = cli(["verify", path, "--json"])
    assert r.code == 0, r.out + r.err
    assert all(c["ok"] for c in json.loads(r.out)["claims"])


def test_suggest_methods_on_seed_example(cli) -> None:
    table2 = PUZZLES / "motus" / "seed-table2.toml"
    for method in ("sum", "max", "gmax", "gini", "sumgini", "possible-gmax", "bobo", "minimax"):
        out = json.loads(cli(["suggest", table2, "--method", method, "--json"]).out)
        assert out["suggestion"] == "LIGNINE" and out["count"] == 2 and out["possible_word"] is True
    out = json.loads(cli(["suggest", table2, "--method", "entropy", "--json"]).out)
    assert out["suggestion"] == "LIGNINE"  # (1,1) and (2,2) both have entropy 1: the possible word wins


def test_suggest_knuth_first_move(cli, tmp_path) -> None:
    f = tmp_path / "mm.toml"
    f.write_text('game = "mastermind"\npegs = 4\ncolours = 6\n', encoding="utf-8")
    out = json.loads(cli(["suggest", f, "--method", "knuth", "--json"]).out)
    assert out["suggestion"] == "1122" and out["scores"]["max"] == 256


def test_verify_cli_claim_and_backends(cli) -> None:
    table2 = PUZZLES / "motus" / "seed-table2.toml"
    r = cli(["verify", table2, "--claim", "answer is not LIGUIEZ", "--json"])
    claims = json.loads(r.out)["claims"]
    assert r.code == 0 and claims[-1]["verdict"] == "entailed" and claims[-1]["because"]
    r = cli(["verify", table2, "--backend", "python-constraint"])
    assert r.code == 0
    r = cli(["verify", table2, "--claim", "answer is LIGNITE"])
    assert r.code == 0  # a question: open, answered
    r = cli(["verify", table2, "--claim", "answer is LIGNITE", "--expect", "entailed"])
    assert r.code == 1  # open, expected entailed


def test_experiment_study_small(cli) -> None:
    r = cli(["experiment", "motus", "--dictionary", str(PUZZLES / "motus" / "seed-d7l.txt"), "--lengths", "7",
             "--letters", "L", "--json"])
    out = json.loads(r.out)
    assert r.code == 0 and out["words"] == 8 and set(out["methods"]) == {
        "sum", "max", "gmax", "gini", "entropy", "bobo", "sumgini", "possible-gmax", "information"}
    assert all(1 <= m["average"] <= m["worst"] for m in out["methods"].values())


def test_experiment_emi_small(cli) -> None:
    r = cli(["experiment", "emi", "--dictionary", str(PUZZLES / "motus" / "seed-d7l.txt"), "--lengths", "7",
             "--letters", "L", "--json"])
    out = json.loads(r.out)
    seed_words = [ln for ln in (PUZZLES / "motus" / "seed-d7l.txt").read_text().split("\n") if ln[:1].isalpha()]
    # value 2 exactly when one proposal gives each of the 8 words its own feedback
    separating = [g for g in seed_words if len({feedback(g, w) for w in seed_words}) == len(seed_words)]
    assert separating
    assert r.code == 0 and out["cells"]["7L"]["value"] == 2 and out["cells"]["7L"]["exact"]


BAD = [
    ('game = "motus"\nlength = 1\nfirst = "L"\n', "length", "2 to 30"),
    ('game = "motus"\nlength = 7\nfirst = "12"\n', "first", "one letter"),
    ('game = "motus"\nlength = 7\n', "first", "one letter"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[guess]]\nword = "LOGIQ"\nfeedback = "GGGGG"\n', "guess[1].word",
     "7 letters"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[guess]]\nword = "MAISONS"\nfeedback = "GGGGGGG"\n',
     "guess[1].word", "starting with L"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[guess]]\nword = "LOGIQUE"\nfeedback = "GXGGGGG"\n',
     "guess[1].feedback", "G (right place)"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[guess]]\nword = "LOGIQUE"\nfeedback = "GG"\n',
     "guess[1].feedback", "7 marks"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[guess]]\nword = "LOGIQUE"\n', "guess[1]", "feedback, secret"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[guess]]\nword = "LOGIQUE"\nfeedbak = "GGGGGGG"\n',
     "guess[1]", "feedback"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[guess]]\nword = 7\nfeedback = "GGGGGGG"\n', "guess[1].word",
     None),
    ('game = "motus"\ndictionary = "no-such-list.txt"\nlength = 7\nfirst = "L"\n', "dictionary", "fr, wordle"),
    ('game = "motus"\nlength = 30\nfirst = "L"\n', "length", None),
    ('game = "wordle"\nfirst = "A"\n', "first", None),
    ('game = "mastermind"\npegs = 4\ncolours = 6\n[[guess]]\ncode = "1172"\nfeedback = { black = 1 }\n',
     "guess[1].code", "digits from 1 to 6"),
    ('game = "mastermind"\n[[guess]]\ncode = "1122"\nfeedback = { black = 3, white = 2 }\n',
     "guess[1].feedback", "black + white <= 4"),
    ('game = "mastermind"\n[[guess]]\ncode = "1122"\nfeedback = { black = 5 }\n', "guess[1].feedback.black",
     "0 to 4"),
    ('game = "mastermind"\n[[guess]]\ncode = "1122"\nfeedback = { black = 1, grey = 1 }\n',
     "guess[1].feedback", "black"),
    ('game = "mastermind"\npegs = 8\ncolours = 9\n', "pegs", "at most"),
    ('game = "mastermind"\ncolours = 12\n', "colours", "2 to 9"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[claim]]\ntext = "LOGIQUE wins"\n', "claim[1]",
     "answer is <WORD>"),
    ('game = "motus"\nlength = 7\nfirst = "L"\n[[claim]]\ntext = "answer is LOGIQ"\n', "claim[1]", "7 letters"),
]


@pytest.mark.parametrize("text, place, allowed", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_input_is_one_line(cli, tmp_path, text: str, place: str, allowed: str | None) -> None:
    f = tmp_path / "bad.toml"
    f.write_text(text, encoding="utf-8")
    r = cli(["verify" if "claim" in text else "solve", f])
    assert r.code == 2, r.out + r.err
    lines = r.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.err
    assert str(f) in lines[0] and place in lines[0]
    if allowed:
        assert allowed in lines[0]


def test_bad_method_and_options(cli) -> None:
    table2 = PUZZLES / "motus" / "seed-table2.toml"
    r = cli(["suggest", table2, "--method", "median"])
    assert r.code == 2 and "sumgini" in r.err and len(r.err.strip().splitlines()) == 1
    r = cli(["solve", table2, "--method", "magic"])
    assert r.code == 2 and "auto, table, model" in r.err and "--method" in r.err
    r = cli(["experiment", "motus", "--lengths", "3-40"])
    assert r.code == 2 and "--lengths" in r.err


@pytest.mark.parametrize("cell, why", [("fr:99Z", "no word of 99 letters"), ("fr:Z", "cannot read"),
                                       ("fr:-3A", "no word of -3 letters")])
def test_throughput_bad_cell_refused_before_the_games(cli, cell: str, why: str) -> None:
    """An empty or unreadable ``--throughput`` cell is one line, exit 2, before any game is played."""
    r = cli(["experiment", "wordle", "--games", "mastermind", "--methods", "max", "--throughput", cell])
    assert r.code == 2 and why in r.err and "--throughput" in r.err, r.out + r.err
    assert len(r.err.strip().splitlines()) == 1 and "Max" not in r.out
