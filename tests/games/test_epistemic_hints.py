"""Issue 27, epistemic files.

Before: ``by`` was documented as for display but a name that is not an agent was refused
(``unknown agent 'father'``); ``m1 = 1`` in a formula got no "did you mean ==" hint; a broken claim stopped
``solve``, which does not judge claims.
"""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

MUDDY = ('game = "epistemic"\nconstraints = ["m1 + m2 >= 1"]\n[variables]\nm1 = [0, 1]\nm2 = [0, 1]\n'
         '[agents]\nA = ["m2"]\nB = ["m1"]\n')


def _file(tmp_path, text):
    path = tmp_path / "e.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_by_accepts_any_speaker_for_display(tmp_path):
    text = MUDDY + '[[announcement]]\nby = "father"\nformula = "not knows(A)"\n'
    res = run_cli(["solve", _file(tmp_path, text), "--json"])
    assert res.code == 0, res.err
    data = json.loads(res.out)
    # brute force: worlds with m1 + m2 >= 1 where A (who sees m2) cannot tell m1: m2 = 1 leaves m1 in {0, 1}
    assert sorted((w["m1"], w["m2"]) for w in data["worlds"]) == [(0, 1), (1, 1)]
    assert "father: not knows(A)" in run_cli(["solve", _file(tmp_path, text)]).out
    agent = run_cli(["solve", _file(tmp_path, text.replace('"father"', '"a"')), "--json"])
    assert json.loads(agent.out)["steps"][0]["by"] == "A"  # an agent keeps its own spelling


@pytest.mark.parametrize("formula, hint", [
    ("m1 = 1", "did you mean '=='?"), ("m1 == 1 && m2 == 1", "write 'and' for &&"),
    ("m1 == 1 || m2 == 1", "write 'or' for ||"), ("!knows(A)", "write 'not' for !"),
    ("m1 =< 1", "write '<=' for =<"), ("m1 <> 1", "write '!=' for <>"),
    ("knows A", "knows(A)"), ("m1 == true", "true or false by itself"),
])
def test_common_slips_get_a_hint(tmp_path, formula, hint):
    res = run_cli(["solve", _file(tmp_path, MUDDY + f'[[announcement]]\nformula = "{formula}"\n')])
    assert res.code == 2 and hint in res.err and len(res.err.strip().splitlines()) == 1, res.err
    asked = run_cli(["verify", _file(tmp_path, MUDDY), "--claim", formula])
    assert asked.code == 2 and hint in asked.err


def test_solve_notes_a_claim_it_does_not_judge_and_verify_refuses_it(tmp_path):
    path = _file(tmp_path, MUDDY + '[[claim]]\ntext = "m1 = 1"\n')
    solved = run_cli(["solve", path, "--json"])
    assert solved.code == 0
    [note] = json.loads(solved.out)["notes"]
    assert "claim[1]" in note and "did you mean '=='?" in note
    checked = run_cli(["verify", path])
    assert checked.code == 2 and "claim[1]" in checked.err and "did you mean '=='?" in checked.err


def test_a_correct_formula_gets_no_hint(tmp_path):
    res = run_cli(["verify", _file(tmp_path, MUDDY), "--claim", "m1 == 1 or m2 == 1"])
    assert res.code == 0 and "did you mean" not in res.out + res.err


def test_other_games_claims_get_the_operator_hints_but_not_the_equals_one():
    res = run_cli(["verify", "example:clue/small-deck", "--claim", "Bob holds Ash && Ann holds Axe"])
    assert res.code == 2 and "write 'and' for &&" in res.err
    res = run_cli(["verify", "example:mascarade/seed-figure2", "--claim", "P(J0 holds C9) = 1/2"])
    assert res.code == 2 and "'=='" not in res.err  # Mascarade's own claims use =
