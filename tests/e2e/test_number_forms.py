"""Issue 27, "numbers in three forms": text output uses decimals, --json the exact fractions, in every game.

Before: the Clue sheet showed decimals, the envelope list fractions (``175/1578`` beside ``97/526``) and
``--others`` fractions (``5115/12604``); Mascarade's matrix and card guessing's tables showed fractions.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

import pytest

from sleuth.results import decimal
from tests.conftest import run_cli

FRACTION = re.compile(r"(?<![\w/])\d+/\d+(?![\w/])")
CASES = [
    ["solve", "example:clue/classic-3-players", "--probabilities", "--others"],
    ["solve", "example:clue/small-deck", "--probabilities", "--others"],
    ["solve", "example:mascarade/seed-figure2"],
    ["solve", "example:mascarade/seed-figure3"],
    ["solve", "example:cardguess/outreach"],
    ["suggest", "example:cardguess/outreach"],
    ["solve", "example:cardguess/seed_example"],
]


@pytest.mark.parametrize("args", CASES, ids=lambda a: " ".join(a[:2]))
def test_text_output_has_no_fractions(args):
    res = run_cli(args)
    assert res.code == 0, res.err
    body = "\n".join(ln for ln in res.out.splitlines() if not ln.startswith(("Title", "Seed")))
    assert FRACTION.search(body) is None, FRACTION.search(body)
    assert FRACTION.search(res.err) is None  # notes too


def test_clue_text_decimals_are_the_json_fractions_rounded():
    args = ["solve", "example:clue/classic-3-players", "--probabilities", "--others"]
    text = run_cli(args).out
    data = json.loads(run_cli([*args, "--json"]).out)
    for row in data["envelope_probabilities"][:5]:
        assert f"{decimal(Fraction(row['p'])):>8}  {row['suspect']}, {row['weapon']}, {row['room']}" in text
    for player, row in data["others"].items():
        cells = " ".join(f"{decimal(Fraction(row[part])):>10}" for part in ("envelope", "suspect", "weapon", "room"))
        assert f"  {player:<12} {cells}" in text
    hall = data["probabilities"]["Hall"]
    line = next(ln for ln in text.splitlines() if ln.startswith("Hall "))
    assert [decimal(Fraction(hall[p])) for p in ("Cat", "envelope")] == line.split()[-2:]


def test_mascarade_matrix_decimals_match_the_json():
    text = run_cli(["solve", "example:mascarade/seed-figure2"]).out
    data = json.loads(run_cli(["solve", "example:mascarade/seed-figure2", "--json"]).out)
    for pos, row in data["marginals"].items():
        line = next(ln for ln in text.splitlines() if ln.startswith(pos + " "))
        assert line.split()[1:] == [decimal(Fraction(row[c])) if Fraction(row[c]) else "." for c in row]
