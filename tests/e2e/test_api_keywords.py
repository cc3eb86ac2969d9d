"""Issue 27, "the API's natural call crashes": claim texts as strings, options as keyword arguments.

Before: ``puzzle.verify(["Bob holds Rope"])`` raised ``AttributeError: 'str' object has no attribute 'text'``
and the option names ``solve`` takes had to be guessed.
"""

from __future__ import annotations

import re
from fractions import Fraction

import pytest

import sleuth
from sleuth.registry import all_games
from sleuth.results import Verdict
from tests.conftest import ROOT

CLUE = "example:clue/small-deck"


def test_keyword_options_mean_the_same_as_the_options_mapping():
    puzzle = sleuth.load_puzzle(CLUE)
    by_keyword = puzzle.solve(probabilities=True, time_limit=60)
    by_mapping = puzzle.solve(options={"probabilities": True, "time-limit": 60})
    assert by_keyword.fields == by_mapping.fields
    assert by_keyword.fields["deals"] == by_mapping.fields["deals"] > 0
    probs = by_keyword.fields["probabilities"]
    assert all(sum(row.values()) == 1 for row in probs.values())  # each card is somewhere


def test_keyword_and_mapping_combine_and_the_keyword_wins():
    puzzle = sleuth.load_puzzle("example:clue/classic-3-players")
    report = puzzle.suggest(options={"top": 5}, top=2, samples=50)
    assert len(report.fields["ranking"]) == 2


def test_an_unknown_keyword_names_the_options_the_game_takes():
    puzzle = sleuth.load_puzzle(CLUE)
    with pytest.raises(sleuth.PuzzleError) as info:
        puzzle.solve(probabilites=True)  # misspelt
    assert "probabilites" in str(info.value) and "--probabilities" in str(info.value)


def test_verify_takes_strings_and_claim_specs_together():
    puzzle = sleuth.load_puzzle("example:epistemic/cheryl")
    question, check = puzzle.verify(["month == 'July'", sleuth.claim_spec("month == 'May'", "refuted")])
    assert question.question and question.ok and question.verdict is Verdict.ENTAILED
    assert not check.question and check.ok and check.verdict is Verdict.REFUTED
    assert question.probability is None  # epistemic puzzles have worlds, no probability


def test_verify_refuses_a_claim_that_is_neither_text_nor_claim_spec():
    with pytest.raises(sleuth.PuzzleError, match=r"claims\[1\]"):
        sleuth.load_puzzle(CLUE).verify([42])


def test_api_docs_list_the_keyword_options_of_every_game():
    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    for game in all_games():
        block = re.search(rf"<!-- keywords:{game.name} -->\n(.*?)<!-- /keywords:{game.name} -->", text, re.S)
        assert block, f"docs/api.md has no keyword table for {game.name}"
        for option in game.all_options():
            assert f"`{option.name.replace('-', '_')}=`" in block.group(1)


def test_mascarade_probability_is_a_fraction_in_the_api():
    [r] = sleuth.load_puzzle("example:mascarade/seed-figure2").verify(["J2 holds C2"])
    assert isinstance(r.probability, Fraction) and 0 < r.probability < 1
