"""The one claim language (sleuth.claims): grammar, natural phrasings, and combined claims judged on the model
against the claim evaluated in every world the model leaves."""

from __future__ import annotations

import random

import pytest

from sleuth.claims import And, Atom, Not, Or, evaluate, normalise_holding, parse, read, verdict_of
from sleuth.errors import PuzzleError
from sleuth.puzzle import load_puzzle
from sleuth.results import ClaimSpec, Verdict
from tests.conftest import PUZZLES



def test_precedence_quotes_and_parentheses() -> None:
    assert parse("a x or b y and not c z") == Or((Atom("a x"), And((Atom("b y"), Not(Atom("c z"))))))
    assert parse("(a or b) and c") == And((Or((Atom("a"), Atom("b"))), Atom("c")))
    assert parse('"Salt and Pepper" holds Rope') == Atom('"Salt and Pepper" holds Rope')
    for bad in ("a and", "(a or b", "a )", "not", "and a"):
        with pytest.raises(PuzzleError):
            parse(bad)


@pytest.mark.parametrize(("text", "canonical"), [
    ("Bob has the Rope", "Bob holds Rope"), ("Bob has Rope", "Bob holds Rope"),
    ("Bob holds the Rope", "Bob holds Rope"), ("Bob does not have the Rope", "Bob lacks Rope"),
    ("Bob doesn't hold Rope", "Bob lacks Rope"), ("Bob has no Rope", "Bob lacks Rope"),
    ("the Rope is in the envelope", "envelope holds Rope"), ("Rope is not in the envelope", "envelope lacks Rope"),
    ("Bob knows the envelope", "Bob knows the envelope"), ('"Bob has" holds Rope', '"Bob has" holds Rope'),
])
def test_holding_phrasings(text: str, canonical: str) -> None:
    assert normalise_holding(text) == canonical


def test_a_whole_atom_wins_over_the_combinators() -> None:
    names = {"Salt and Pepper holds Rope", "Ann holds Rope"}

    def atom(text: str) -> str:
        if text not in names:
            raise PuzzleError(f"unknown {text!r}")
        return text

    claim, payload = read("Salt and Pepper holds Rope", atom)
    assert claim == Atom("Salt and Pepper holds Rope")
    claim, payload = read("Ann holds Rope or not Ann holds Rope", atom)
    assert isinstance(claim, Or) and set(payload.values()) == {"Ann holds Rope"}


def test_verdict_of_probabilities() -> None:
    from fractions import Fraction
    assert verdict_of(Fraction(1)) is Verdict.ENTAILED and verdict_of(Fraction(0)) is Verdict.REFUTED
    assert verdict_of(Fraction(1, 3)) is Verdict.OPEN and verdict_of(Fraction(1), negated=True) is Verdict.REFUTED


def _random_claim(rng: random.Random, players: list[str], cards: list[str], depth: int = 0) -> str:
    if depth >= 2 or rng.random() < 0.4:
        verb = rng.choice(["holds", "lacks", "has the"])
        return f"{rng.choice(players)} {verb} {rng.choice(cards)}"
    op = rng.choice(["and", "or", "not"])
    if op == "not":
        return f"not ({_random_claim(rng, players, cards, depth + 1)})"
    return f"({_random_claim(rng, players, cards, depth + 1)} {op} {_random_claim(rng, players, cards, depth + 1)})"


@pytest.mark.parametrize("backend", ["cpsat", "python-constraint"])
def test_combined_clue_claims_match_every_world(backend: str) -> None:
    """Each combined claim's verdict is what evaluating it in every consistent deal gives."""
    puzzle = load_puzzle(PUZZLES / "clue" / "small-deck.toml")
    game = puzzle.state
    cm = puzzle.clue_model()
    flat = [v for row in cm.holds for v in row]
    deals = [dict(zip(flat, d, strict=True)) for d in cm.engine("cpsat").valids(flat)]
    places = {p.casefold(): q for q, p in enumerate(game.places)}
    rng = random.Random(5)
    count = 25 if backend == "cpsat" else 8   # python-constraint explains by deletion: slower per claim
    texts = [_random_claim(rng, [*game.players, "envelope"], list(game.deck.cards)) for _ in range(count)]
    results = puzzle.verify([ClaimSpec(t) for t in texts], backend=backend)
    for text, result in zip(texts, results, strict=True):
        claim = parse(text)

        def truth(atom: Atom, deal: dict) -> bool:
            who, verb, card = normalise_holding(atom.text).split(" ", 2)
            held = deal[cm.holds[game.card_names.index(card)][places[who.casefold()]]] == 1
            return held if verb == "holds" else not held

        values = [evaluate(claim, lambda a, d=deal: truth(a, d)) for deal in deals]
        want = Verdict.ENTAILED if all(values) else Verdict.REFUTED if not any(values) else Verdict.OPEN
        assert result.verdict is want, text
    assert len({r.verdict for r in results}) >= 2


def test_claim_errors_name_the_place(cli) -> None:
    small = PUZZLES / "clue" / "small-deck.toml"
    for claim, needle in [("Ann holds Axe and", "statements joined by and"),
                          ("Zed holds Axe or Ann holds Axe", "unknown player 'Zed'"),
                          ("Ann knows the envelope and Ann holds Axe", "one at a time")]:
        res = cli(["verify", small, "--claim", claim])
        assert res.code == 2 and needle in res.err and "--claim[1]" in res.err, res.err
        assert len(res.err.strip().splitlines()) == 1
