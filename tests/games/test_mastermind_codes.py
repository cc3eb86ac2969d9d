"""Issue 27, Mastermind: feedback as "BBW" strings, colours named in the file.

Before: ``feedback = "WW"`` got ``expected a table, got 'WW'`` without the expected form, and colours had to
be digits (``'RRGG' is not a code of 4 pegs``).
"""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest

from tests.conftest import run_cli

COLOURS = ["red", "green", "blue", "yellow", "white", "orange"]


def _pegs(guess: str, secret: str) -> tuple[int, int]:
    """Black and white pegs by the textbook rule (independent of sleuth's feedback module)."""
    black = sum(g == s for g, s in zip(guess, secret, strict=True))
    common = sum((Counter(guess) & Counter(secret)).values())
    return black, common - black


def _possible(rows: list[tuple[str, tuple[int, int]]]) -> list[str]:
    codes = ("".join(c) for c in itertools.product("123456", repeat=4))
    return sorted(c for c in codes if all(_pegs(g, c) == fb for g, fb in rows))


def _solve(tmp_path, text):
    path = tmp_path / "m.toml"
    path.write_text(text, encoding="utf-8")
    return run_cli(["solve", path, "--json"])


def test_named_colours_letters_and_peg_strings_give_the_brute_force_answer(tmp_path):
    text = (f'game = "mastermind"\ncolours = {json.dumps(COLOURS)}\n'
            '[[guess]]\ncode = "RRGG"\nfeedback = "B"\n'
            '[[guess]]\ncode = ["red", "blue", "yellow", "yellow"]\nfeedback = "BW"\n'
            '[[guess]]\ncode = "1535"\nfeedback = "-"\n')
    res = _solve(tmp_path, text)
    assert res.code == 0, res.err
    expected = _possible([("1122", (1, 0)), ("1344", (1, 1)), ("1535", (0, 0))])
    assert json.loads(res.out)["possible"] == expected


@pytest.mark.parametrize("text, black, white", [("BBW", 2, 1), ("W W", 0, 2), ("bwww", 1, 3), ("", 0, 0),
                                                 ("-", 0, 0), ("BBBB", 4, 0)])
def test_a_peg_string_means_the_same_as_the_table(tmp_path, text, black, white):
    as_string = _solve(tmp_path, f'game = "mastermind"\n[[guess]]\ncode = "1234"\nfeedback = "{text}"\n')
    as_table = _solve(tmp_path, f'game = "mastermind"\n[[guess]]\ncode = "1234"\n'
                                f'feedback = {{ black = {black}, white = {white} }}\n')
    assert as_string.code == as_table.code == 0
    assert json.loads(as_string.out)["possible"] == json.loads(as_table.out)["possible"] \
        == _possible([("1234", (black, white))])


@pytest.mark.parametrize("feedback, needle", [('"WX"', "a B per black peg and a W per white"),
                                              ('"BBWWW"', "at most 4 pegs"),
                                              ("3", '"BBW" (a B per black peg, a W per white) or { black')])
def test_a_bad_feedback_names_both_forms(tmp_path, feedback, needle):
    res = _solve(tmp_path, f'game = "mastermind"\n[[guess]]\ncode = "1234"\nfeedback = {feedback}\n')
    assert res.code == 2 and needle in res.err and len(res.err.strip().splitlines()) == 1


def test_letters_without_named_colours_say_how_to_name_them(tmp_path):
    res = _solve(tmp_path, 'game = "mastermind"\n[[guess]]\ncode = "RRGG"\nfeedback = "WW"\n')
    assert res.code == 2 and "colours = [" in res.err


def test_ambiguous_first_letters_ask_for_names(tmp_path):
    text = ('game = "mastermind"\ncolours = ["blue", "black", "red"]\npegs = 2\n'
            '[[guess]]\ncode = "BR"\nfeedback = "B"\n')
    res = _solve(tmp_path, text)
    assert res.code == 2 and "first letters repeat, so names only" in res.err
    ok = _solve(tmp_path, text.replace('"BR"', '["black", "red"]'))
    assert ok.code == 0, ok.err


def test_claims_read_named_codes(tmp_path):
    path = tmp_path / "m.toml"
    path.write_text(f'game = "mastermind"\ncolours = {json.dumps(COLOURS)}\n[[guess]]\ncode = "1122"\n'
                    'feedback = "BBBB"\n', encoding="utf-8")
    res = run_cli(["verify", path, "--claim", "answer is RRGG", "--json"])
    assert json.loads(res.out)["claims"][-1]["verdict"] == "entailed"
