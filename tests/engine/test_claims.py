"""The one claim language (sleuth.claims): grammar, natural phrasings, and combined claims judged on the model
against the claim evaluated in every world the model leaves."""

from __future__ import annotations

import random

import pytest

from sleuth.claims import And, Atom, Implies, Not, Or, combine, evaluate, normalise_holding, parse, read, verdict_of
from sleuth.errors import PuzzleError
from sleuth.loading import load_puzzle
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


def test_claims_are_the_formula_parser_with_statements() -> None:
    """The claim grammar is sleuth.formula's: implies (right-associative), its depth limit, its round trip."""
    from itertools import product

    from sleuth.formula import MAX_DEPTH, FormulaError, parse_claim, to_text

    assert parse("a implies b -> c") == Implies(Atom("a"), Implies(Atom("b"), Atom("c")))
    assert parse("P(next is Q) = 1/4 and best guess is K") == And((Atom("P(next is Q) = 1/4"),
                                                                     Atom("best guess is K")))
    claim = parse("not (Bob has the Rope or x y) implies z and not w", normalise_holding)
    assert parse_claim(to_text(claim)) == claim
    with pytest.raises(FormulaError, match="nested more than"):
        parse("(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1))
    # implies is "not a or b", in one world and on three values (open = unknown)
    for a, b in product([True, False], repeat=2):
        world = {"a": a, "b": b}
        assert evaluate(parse("a implies b"), lambda x, w=world: w[x.text]) == ((not a) or b)
    v = {"t": Verdict.ENTAILED, "f": Verdict.REFUTED, "u": Verdict.OPEN}
    cases = {"t and u": "u", "f and u": "f", "t or u": "t", "f or u": "u", "not u": "u", "u implies t": "t",
             "f implies u": "t", "t implies f": "f", "not (f or f) and t": "t"}
    for text, want in cases.items():
        assert combine(parse(text), lambda x: v[x.text]) is v[want], text


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


def test_combined_egghead_claims_agree_between_the_model_and_the_tables() -> None:
    """The model judges a combined claim by reification, the tables by evaluating it on every valid hand."""
    rng = random.Random(3)
    atoms = ["A has a 1", "A has no 3", "A has a 6", "A holds 1 1 2", "A holds 1 2 3", "A has a 2"]
    texts = []
    for _ in range(12):
        a, b, c = rng.sample(atoms, 3)
        texts.append(rng.choice([f"{a} and not ({b} or {c})", f"({a} or {b}) and {c}", f"not {a} or {b}"]))
    puzzle = load_puzzle(PUZZLES / "egghead" / "seed_example_basic.toml")
    by_model = puzzle.verify([ClaimSpec(t) for t in texts], options={"method": "model"})
    by_tables = puzzle.verify([ClaimSpec(t) for t in texts], options={"method": "tables"})
    assert [r.verdict for r in by_model] == [r.verdict for r in by_tables]
    assert len({r.verdict for r in by_model}) >= 2


@pytest.mark.parametrize("backend", ["cpsat", "python-constraint"])
def test_combined_motus_and_mascarade_claims_match_every_world(backend: str) -> None:
    from sleuth.game import world_module

    cases = [("mastermind/knuth", ["answer is 1122 or answer is not 3456", "not (answer is 1344 or answer is 1355)",
                                   "answer is not 1122 and answer is not 1344"]),
             ("mascarade/seed-figure2", ["J0 holds C0 or J1 holds C2", "not (J2 holds C2 and J0 holds C1)",
                                         "J0 has the C0 and J1 has the C1"])]
    for ref, texts in cases:
        puzzle = load_puzzle(f"example:{ref}")
        mod = world_module(puzzle)
        worlds = [w for w in mod.candidates(puzzle) if mod.check(puzzle, w)]
        results = puzzle.verify([ClaimSpec(t) for t in texts], backend=backend)
        for text, result in zip(texts, results, strict=True):
            claim = parse(text)
            if ref.startswith("mastermind"):
                truths = [evaluate(claim, lambda a, w=w: (w == a.text.split()[-1]) != (" not " in a.text))
                          for w in worlds]
            else:
                truths = [evaluate(claim, lambda a, w=w, p=puzzle: _holds(p, w, normalise_holding(a.text)))
                          for w in worlds]
            want = Verdict.ENTAILED if all(truths) else Verdict.REFUTED if not any(truths) else Verdict.OPEN
            assert result.verdict is want, (ref, text)


def _holds(puzzle, history, atom: str) -> bool:
    """Mascarade: replay the history and read 'Jx holds Cy' in the final placement."""
    from sleuth.models.mascarade.state import SwapStep

    g = puzzle.state
    cards, bits = list(g.initial), iter(history)
    for step in g.steps_for(puzzle.viewer):
        if isinstance(step, SwapStep):
            swapped = next(bits) if step.outcome is None else step.outcome
            if swapped:
                cards[step.a], cards[step.b] = cards[step.b], cards[step.a]
    who, _, card = atom.split(" ", 2)
    return cards[list(g.positions).index(who)] == list(g.identities).index(card)


def test_card_guessing_claims_combine_exact_statements() -> None:
    """Each card-guessing statement is an exact comparison; a combined claim's verdict is its truth table."""
    puzzle = load_puzzle(PUZZLES / "cardguess" / "complete_feedback.toml")
    rng = random.Random(5)
    statements = ["P(next is J) = 1/3", "P(next is Q) > 1/2", "P(next is K) <= 1/2", "best guess is K",
                  "E(further correct) >= 3", "P(remaining is J=2 Q=1 K=3) = 1"]
    alone = {s: r.verdict for s, r in zip(statements, puzzle.verify([ClaimSpec(s) for s in statements]),
                                          strict=True)}
    assert set(alone.values()) == {Verdict.ENTAILED, Verdict.REFUTED}
    for _ in range(25):
        a, b, c = rng.sample(statements, 3)
        text = rng.choice([f"{a} and ({b} or not {c})", f"not {a} implies {b}", f"({a} or {b}) and {c}"])
        got = puzzle.verify([ClaimSpec(text)])[0]
        truth = evaluate(parse(text), lambda atom: alone[atom.text] is Verdict.ENTAILED)
        assert got.verdict is (Verdict.ENTAILED if truth else Verdict.REFUTED), text


def test_claim_errors_name_the_statement_or_the_combination() -> None:
    """A statement the game cannot read keeps the game's error; a broken combination gets the parser's."""
    def statement(text: str) -> str:
        if text not in ("Ann holds Rope", "Bob holds Knife"):
            raise PuzzleError(f"unknown statement {text!r}")
        return text

    with pytest.raises(PuzzleError, match="unknown statement 'Ann holds Nothing'"):
        read("Ann holds Nothing", statement)
    with pytest.raises(PuzzleError, match="unknown statement 'Cy holds Rope'"):
        read("Ann holds Rope and Cy holds Rope", statement)
    with pytest.raises(PuzzleError, match=r"expected '\)' at column 35"):
        read("(Ann holds Rope or Bob holds Knife", statement)
    with pytest.raises(PuzzleError, match="unexpected text at column 15"):
        read("Ann holds Rope)", statement)
    assert read("(Ann holds Rope)", statement)[0] == Atom("Ann holds Rope")
