"""Issue 27, "a question reads as a failure": ``verify --claim`` without an expectation is answered, exit 0.

Before: ``[FAIL] Bob holds the Rope: open (expected entailed)``, exit 1, no probability, and the witness
deals printed as one JSON dict cut with ``...``.
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest

import sleuth
from sleuth.results import Verdict, decimal
from tests.conftest import run_cli

SMALL = "example:clue/small-deck"
DECK = ["Ash", "Birch", "Cedar", "Axe", "Bow", "Club", "Attic", "Barn", "Cellar", "Den"]


def _small_deck_deals() -> list[dict[str, str]]:
    """Every deal of puzzles/clue/small-deck.toml that its observations allow, by brute force (4200 deals)."""
    out = []
    for env in itertools.product(DECK[:3], DECK[3:6], DECK[6:]):
        rest = [c for c in DECK if c not in env]
        for ann in itertools.combinations(rest, 4):
            bob = [c for c in rest if c not in ann]
            deal = {c: "Ann" for c in ann} | {c: "Bob" for c in bob} | {c: "envelope" for c in env}
            if deal["Ash"] != "Ann":
                continue
            if not any(deal[c] == "Bob" for c in ("Birch", "Axe", "Attic")):
                continue
            if any(deal[c] == "Ann" for c in ("Birch", "Bow", "Barn")):
                continue
            if deal["Club"] != "Bob":
                continue
            if set(env) == {"Cedar", "Bow", "Barn"}:
                continue
            out.append(deal)
    return out


def test_a_claim_without_expectation_is_a_question_answered_with_exit_0():
    deals = _small_deck_deals()
    p = Fraction(sum(d["Birch"] == "Bob" for d in deals), len(deals))
    assert 0 < p < 1  # the claim is open: the question's interesting case
    res = run_cli(["verify", SMALL, "--claim", "Bob holds the Birch"])
    assert res.code == 0, res.out + res.err
    line = next(ln for ln in res.out.splitlines() if "Bob holds the Birch" in ln)
    assert "FAIL" not in line and "expected" not in line
    assert f"open (probability {decimal(p)})" in line
    assert "1 question(s) answered" in res.out
    assert "..." not in res.out and "{" not in res.out  # witnesses drawn whole, as hands, not JSON cut short


def test_witness_worlds_are_deals_drawn_hand_by_hand_and_are_consistent():
    deals = _small_deck_deals()
    res = run_cli(["verify", SMALL, "--claim", "Bob holds Birch", "--json"])
    claim = json.loads(res.out)["claims"][-1]
    assert claim["question"] is True and claim["expect"] is None and claim["ok"] is True
    assert Fraction(claim["probability"]) == Fraction(sum(d["Birch"] == "Bob" for d in deals), len(deals))
    assert claim["witness"]["true"] in deals and claim["witness"]["false"] in deals
    assert claim["witness"]["true"]["Birch"] == "Bob" != claim["witness"]["false"]["Birch"]
    text = run_cli(["verify", SMALL, "--claim", "Bob holds Birch"]).out
    world = claim["witness"]["true"]
    assert "a world where it holds: Ann: " + ", ".join(c for c in DECK if world[c] == "Ann") in text
    assert "envelope: " + ", ".join(c for c in DECK if world[c] == "envelope") in text


@pytest.mark.parametrize("expect, code", [("open", 0), ("entailed", 1), ("refuted", 1)])
def test_an_explicit_expectation_is_a_check(expect, code):
    res = run_cli(["verify", SMALL, "--claim", "Bob holds Birch", "--expect", expect])
    assert res.code == code
    assert ("[FAIL] Bob holds Birch: open (expected" in res.out) == (code == 1)


def test_a_files_claim_that_fails_still_exits_1(tmp_path):
    path = tmp_path / "g.toml"
    text = run_cli(["new", "clue"]).out + '\n[[claim]]\ntext = "Bob holds Rope"\n'
    path.write_text(text, encoding="utf-8")
    assert run_cli(["verify", path]).code == 1
    assert run_cli(["verify", path, "--claim", "Bob holds Wrench"]).code == 1  # the question does not hide it


def test_the_api_answers_questions_given_as_strings():
    puzzle = sleuth.load_puzzle(SMALL)
    deals = _small_deck_deals()
    [r] = puzzle.verify(["Bob holds Birch"])  # before: AttributeError: 'str' object has no attribute 'text'
    assert r.question and r.ok and r.verdict is Verdict.OPEN
    assert r.probability == Fraction(sum(d["Birch"] == "Bob" for d in deals), len(deals))
    assert set(r.shown) == {"true", "false"} and r.shown["true"].startswith("Ann: ")
    [checked] = puzzle.verify([sleuth.claim_spec("Bob holds Birch", "entailed")])
    assert not checked.ok and not checked.question
    [one] = puzzle.verify("Bob holds Club")  # one text alone is one question
    assert one.verdict is Verdict.ENTAILED


def test_mascarade_question_has_its_exact_marginal():
    # the seed's figure 2: three swaps of unknown outcome from the identity; P(J0 holds C0) is 3/8 by the
    # doubly stochastic matrix [[1/2 1/2 0] [1/2 1/2 0] [0 0 1]] . [[1 0 0] [0 1/2 1/2] [0 1/2 1/2]] . first
    half = Fraction(1, 2)
    a = [[half, half, 0], [half, half, 0], [0, 0, 1]]
    b = [[1, 0, 0], [0, half, half], [0, half, half]]

    def mul(x, y):
        return [[sum(x[i][k] * y[k][j] for k in range(3)) for j in range(3)] for i in range(3)]

    m = mul(mul(a, b), a)
    [r] = sleuth.load_puzzle("example:mascarade/seed-figure2").verify(["J0 holds C0"])
    assert r.probability == m[0][0] and r.verdict is Verdict.OPEN


def test_decimal_is_exact_when_short_and_never_rounds_to_certainty():
    assert decimal(Fraction(3, 8)) == "0.375"
    assert decimal(Fraction(1, 3)) == "0.333"
    assert decimal(Fraction(1, 10 ** 6)) == "<0.001"
    assert decimal(Fraction(10 ** 6 - 1, 10 ** 6)) == ">0.999"
    assert decimal(1) == "1" and decimal(0) == "0"
