"""The command line: bad input gets one clear line and exit 2; the commands and their JSON."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
import textwrap

import pytest

from tests.conftest import PUZZLES, run_cli

GOOD = textwrap.dedent('''
    game = "epistemic"
    [variables]
    x = "1..3"
    [agents]
    A = ["x % 2"]
    [[announcement]]
    by = "A"
    formula = "not knows(A)"
''')

# (name, file text or None for no file, extra CLI args, substrings the one error line must contain)
CASES = [
    ("missing file", None, [], ["no such file"]),
    ("broken toml", "game = \"epistemic\nx = 1", [], ["broken TOML", "line 1"]),
    ("broken json", '{"game": "epistemic",}', [], ["broken JSON", "line 1"]),
    ("empty file", "   \n", [], ["is empty", "allowed"]),
    ("unknown game", 'game = "chess"', [], ["game", "unknown game 'chess'",
                                             "allowed: bulls, cardguess, clue, egghead"]),
    ("game not a string", "game = 3", [], ["game", "expected a game name"]),
    ("no game", "title = 'x'", [], ["game", "is required"]),
    ("unknown key", GOOD + "anouncement = 1\n", [], ["anouncement", "unknown key", "allowed"]),
    ("unknown key in a table", GOOD.replace('by = "A"', 'by = "A"\nwho = "A"'), [],
     ["announcement[1].who", "unknown key", "allowed: by, formula, repeat"]),
    ("empty speaker", GOOD.replace('by = "A"', 'by = " "'), [],
     ["announcement[1].by", "is empty", "only shown"]),  # any other name is a speaker for display
    ("wrong type", GOOD + "[[announcement]]\nformula = 'knows(A)'\nrepeat = 'twice'\n", [],
     ["announcement[2].repeat", "expected an integer"]),
    ("out of range", GOOD + "[[announcement]]\nformula = 'knows(A)'\nrepeat = -1\n", [],
     ["announcement[2].repeat", "out of range", "0 to 10000"]),
    ("huge number", GOOD + "[[announcement]]\nformula = 'knows(A)'\nrepeat = 9223372036854775807\n", [],
     ["announcement[2].repeat", "out of range"]),
    ("huge domain", GOOD.replace('"1..3"', '"1..100000000000000000000"'), [], ["variables.x", "too large"]),
    ("formula syntax", GOOD.replace("not knows(A)", "not knows(A) and"), [],
     ["announcement[1].formula", "expected a value", "column"]),
    ("unknown variable", GOOD.replace("not knows(A)", "y == 1"), [],
     ["announcement[1].formula", "unknown variable 'y'", "allowed: x"]),
    ("unknown agent in knows", GOOD.replace("not knows(A)", "knows(B)"), [],
     ["announcement[1].formula", "unknown agent 'B'"]),
    ("type error", GOOD.replace("not knows(A)", "x + 1"), [], ["announcement[1].formula", "not a condition"]),
    ("bad claim text", GOOD, ["--claim", "x =="], ["--claim[1]", "expected a value"]),
    ("claim at actual without actual", GOOD + "[[claim]]\ntext = 'x == 1'\nat = 'actual'\n", [],
     ["claim[1].at", "needs an 'actual' world"]),
    ("bad expect", GOOD + "[[claim]]\ntext = 'x == 1'\nexpect = 'maybe'\n", [],
     ["claim[1].expect", "allowed: entailed, refuted, open"]),
    ("not utf-8", b"game = \"epistemic\"\n\xff\xfe", [], ["not UTF-8"]),
    ("unknown backend", GOOD, ["--backend", "gurobi"], ["--backend", "unknown backend", "cpsat"]),
    ("unknown option", GOOD, ["--set", "colour=red"],
     ["--set colour=VALUE", "does not apply", "allowed: --method, --time-limit"]),
]


@pytest.mark.parametrize("name,text,extra,needles", CASES, ids=[c[0] for c in CASES])
def test_bad_input_gets_one_line_and_exit_2(tmp_path, name, text, extra, needles):
    path = tmp_path / "puzzle.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    elif text is not None:
        path.write_text(text)
    before = hashlib.sha256(path.read_bytes()).hexdigest() if path.exists() else None
    command = "verify" if "--claim" in extra or "claim" in name or "expect" in name else "solve"
    res = run_cli([command, path, *extra])
    assert res.code == 2, (res.out, res.err)
    assert "Traceback" not in res.err and res.out == ""
    lines = res.err.strip().splitlines()
    assert len(lines) == 1, res.err
    if "--backend" not in extra:  # a bad command-line value is named by its option, not by the file
        assert str(path) in lines[0], res.err
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    if before is not None:
        assert hashlib.sha256(path.read_bytes()).hexdigest() == before  # nothing the user wrote is changed


def test_a_directory_is_not_a_puzzle(tmp_path):
    res = run_cli(["solve", tmp_path])
    assert res.code == 2 and "is a directory" in res.err and "Traceback" not in res.err


def test_unknown_command_and_experiment_exit_2():
    assert run_cli(["frobnicate"]).code == 2
    res = run_cli(["experiment", "chess"])
    assert res.code == 2 and "unknown experiment 'chess'" in res.err


def test_verify_needs_a_claim(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(GOOD)
    res = run_cli(["verify", path])
    assert res.code == 2 and "no [[claim]]" in res.err


def test_json_input_is_accepted(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"game": "epistemic", "variables": {"x": "1..3"}, "agents": {"A": ["x % 2"]},
                                "announcement": [{"formula": "not knows(A)"}]}))
    out = json.loads(run_cli(["solve", path, "--json"]).out)
    assert out["game"] == "epistemic" and out["status"] == "ok" and out["worlds"] == [{"x": 1}, {"x": 3}]


def test_verify_claims_from_the_command_line():
    path = PUZZLES / "epistemic" / "cheryl.toml"
    res = run_cli(["verify", path, "--claim", "day == 16", "--claim", "day == 14", "--json"])
    claims = json.loads(res.out)["claims"]
    assert [c["verdict"] for c in claims[-2:]] == ["entailed", "refuted"] and res.code == 0
    # without --expect a --claim is a question: answered, exit 0; with it, a check: the refuted one fails
    res = run_cli(["verify", path, "--claim", "day == 16", "--claim", "day == 14", "--expect", "entailed"])
    assert res.code == 1 and "[FAIL] day == 14: refuted (expected entailed)" in res.out


def test_games_lists_every_game_with_aliases():
    out = run_cli(["games"]).out
    for name in ("clue", "egghead", "motus", "wordle", "mastermind", "mascarade", "cardguess", "epistemic", "bulls",
                 "lingo"):
        assert name in out


def test_game_aliases_find_the_game(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text(GOOD.replace('game = "epistemic"', 'game = "Knowledge"'))
    assert json.loads(run_cli(["solve", path, "--json"]).out)["game"] == "epistemic"


# -- the program's exit ------------------------------------------------------------------------------------

# ``python -m sleuth ARGS`` (the console script's ``sleuth.cli.run``) with an atexit handler that reports whether
# the collector's objects were frozen by the time the interpreter ran its handlers
PROGRAM = """
import atexit, gc, runpy, sys
atexit.register(lambda: sys.stderr.write(f"frozen: {gc.get_freeze_count() > 0}\\n"))
sys.argv[0] = "sleuth"
runpy.run_module("sleuth", run_name="__main__")
"""


@pytest.mark.parametrize("args", [["solve", PUZZLES / "clue" / "six-players.toml", "--json"],
                                  ["solve", "no-such-file.toml"]], ids=["answer", "bad input"])
def test_the_program_exits_with_mains_status_and_whole_output_without_the_last_collection(args):
    done = subprocess.run([sys.executable, "-c", PROGRAM, *map(str, args)], capture_output=True, text=True,
                          timeout=300)
    expected = run_cli(args)
    assert done.returncode == expected.code and done.stdout == expected.out
    assert done.stderr == expected.err + "frozen: True\n"  # atexit ran, after gc.freeze()
