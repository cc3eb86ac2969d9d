"""Hostile claims: any text given as a claim, in any game, is judged or refused with a one-line SleuthError
(exit 2 on the command line), never another exception.  Claims are built from each game's own statements
combined at random (these must be judged), then corrupted by inserting, deleting or replacing a token (these
must be judged or refused), so that many texts almost parse."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sleuth.errors import SleuthError
from sleuth.puzzle import Puzzle
from sleuth.loading import load_puzzle
from sleuth.results import ClaimSpec, Verdict
from tests.conftest import run_cli

STATEMENTS = {  # a small bundled puzzle per game, and statements it reads
    "clue/small-deck": ["Bob holds Club", "envelope holds Bow", "Ann lacks Birch", "Bob has the Axe",
                        "the Axe is in the envelope", "Ann doesn't have Club"],
    "motus/logique": ["answer is LOGIQUE", "answer is not LIGNINE", "answer is LIGNINE"],
    "mastermind/knuth": ["answer is 1535", "answer is not 1122", "answer is 3456"],
    "mascarade/seed-figure2": ["J0 holds C0", "J1 lacks C1", "J0 has the C2", "J1 holds C2"],
    "egghead/seed_example_basic": ["A has a 1", "A has no 4", "A holds 1 2 2", "A has a 6"],
    "cardguess/complete_feedback": ["P(next is K) = 1/2", "best guess is K", "E(further correct) >= 3",
                                    "P(remaining is J=2 Q=1 K=3) = 1", "P(next is J) < 1/4"],
    "epistemic/cheryl": ["month == 'July'", "day == 16", "knows(Albert)", "not knows(Bernard, month)"],
}
JUNK = ["and", "or", "not", "implies", "->", "(", ")", '"', "`", "'", "%", "\u00e9", "=", "holds", "1/0", ""]


@st.composite
def combined(draw: st.DrawFn, statements: list[str], depth: int = 0) -> str:
    """A claim: a statement, or a combination of claims (always well formed)."""
    if depth >= 2 or draw(st.booleans()):
        return draw(st.sampled_from(statements))
    op = draw(st.sampled_from(["and", "or", "implies", "not"]))
    left = draw(combined(statements, depth + 1))
    if op == "not":
        return f"not ({left})"
    return f"({left}) {op} ({draw(combined(statements, depth + 1))})"


@st.composite
def corrupted(draw: st.DrawFn, statements: list[str]) -> str:
    tokens = draw(combined(statements)).replace("(", " ( ").replace(")", " ) ").split()
    i = draw(st.integers(0, len(tokens)))
    edit = draw(st.sampled_from(["insert", "delete", "replace"]))
    junk = draw(st.sampled_from(JUNK))
    if edit == "insert" or not tokens:
        tokens.insert(i, junk)
    elif edit == "delete":
        del tokens[min(i, len(tokens) - 1)]
    else:
        tokens[min(i, len(tokens) - 1)] = junk
    return " ".join(tokens)


EXAMPLES = {"motus/logique": 5}  # a French dictionary cell: each verdict is a few CP-SAT solves of 0.4 s


def _for_each_text(ref: str, texts: st.SearchStrategy[str], check: Callable[[Puzzle, str], None]) -> None:
    """Run ``check(puzzle, text)`` on the drawn texts (derandomized: the same texts every run)."""
    puzzle = load_puzzle(f"example:{ref}")

    @settings(max_examples=EXAMPLES.get(ref, 25), deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
    @given(texts)
    def run(text: str) -> None:
        check(puzzle, text)

    run()


def _judged(puzzle: Puzzle, text: str) -> None:
    (result,) = puzzle.verify([ClaimSpec(text)])
    assert result.verdict in (Verdict.ENTAILED, Verdict.REFUTED, Verdict.OPEN), text


OPPOSITE = {Verdict.ENTAILED: Verdict.REFUTED, Verdict.REFUTED: Verdict.ENTAILED, Verdict.OPEN: Verdict.OPEN}


def _judged_or_refused(puzzle: Puzzle, text: str) -> None:
    """Refused in one line, or judged (entailed, refuted or open: the puzzles are consistent, with no time
    limit) and its negation judged the opposite way."""
    try:
        results = puzzle.verify([ClaimSpec(text)])
    except SleuthError as exc:
        assert str(exc).strip() and "\n" not in str(exc).strip(), text
        return
    assert len(results) == 1 and results[0].verdict in OPPOSITE, (text, results)
    (negated,) = puzzle.verify([ClaimSpec(f"not ({text})")])
    assert negated.verdict is OPPOSITE[results[0].verdict], (text, results[0].verdict, negated.verdict)


@pytest.mark.parametrize("ref", sorted(STATEMENTS))
def test_combined_statements_are_judged(ref: str) -> None:
    _for_each_text(ref, combined(STATEMENTS[ref]), _judged)


@pytest.mark.parametrize("ref", sorted(STATEMENTS))
def test_a_corrupted_claim_is_judged_or_refused_in_one_line(ref: str) -> None:
    _for_each_text(ref, corrupted(STATEMENTS[ref]), _judged_or_refused)


def test_a_refused_claim_is_one_line_and_exit_2() -> None:
    res = run_cli(["verify", "example:clue/small-deck", "--claim", "Ann holds Club and (Bob holds"])
    assert res.code == 2 and res.err.count("\n") == 1 and "--claim[1]" in res.err and "Traceback" not in res.err
