"""Answer claims judged over the answers left (the table path of ``verify``) against the constraint model.

The table path gives the verdict the model gives; its explanation is a minimal set of guesses that forces
the verdict (the same set as the model's wherever only one minimal set exists), and its witnesses are answers
left where the claim is false (or true).
"""

from __future__ import annotations

import itertools
import random

import pytest

from sleuth.claims import question_specs
from sleuth.models.motus import feedback as fb
from sleuth.models.motus import words
from sleuth.loading import loads
from sleuth.results import Verdict


def _cell(tmp_path, n: int = 60, seed: int = 6) -> tuple[str, list[str]]:
    cell = words.french().cell(6, "M")
    chosen = sorted(random.Random(seed).sample(cell.answers, n))
    path = tmp_path / "m6.txt"
    path.write_text("\n".join(chosen), encoding="utf-8")
    return str(path), chosen


def _claim(rng: random.Random, pool: list[str], depth: int = 0) -> str:
    if depth >= 2 or rng.random() < 0.4:
        return f"answer is {'not ' if rng.random() < 0.3 else ''}{rng.choice(pool)}"
    op = rng.choice(["and", "or", "implies", "not"])
    if op == "not":
        return f"not ({_claim(rng, pool, depth + 1)})"
    return f"({_claim(rng, pool, depth + 1)}) {op} ({_claim(rng, pool, depth + 1)})"


def _holds(puzzle, claim_text: str, verdict: Verdict, chosen: tuple[str, ...], ws: list[str]) -> bool:
    """Whether the guesses named in ``chosen`` alone force ``verdict`` (brute force over the word list)."""
    from sleuth.claims import evaluate, parse

    tree = parse(claim_text)

    def truth(w: str) -> bool:
        def leaf(atom) -> bool:
            parts = atom.text.split()
            return (w != parts[-1]) if parts[2].lower() == "not" else (w == parts[-1])
        return evaluate(tree, leaf)

    props = [p for p in puzzle.proposals if p.name in chosen]
    left = [w for w in ws if all(fb.feedback(p.text, w) == p.marks for p in props)]
    want = verdict is Verdict.ENTAILED
    return all(truth(w) == want for w in left)


@pytest.mark.parametrize("seed", range(5))
def test_table_claims_match_the_model(tmp_path, seed: int) -> None:
    path, ws = _cell(tmp_path)
    rng = random.Random(seed)
    secret = rng.choice(ws)
    guesses = rng.sample(ws, 1 + seed % 3)
    lines = ['game = "motus"', f'dictionary = "{path}"', "length = 6", 'first = "M"']
    for g in guesses:
        lines += ["[[guess]]", f'word = "{g}"', f'feedback = "{fb.feedback(g, secret)}"']
    puzzle = loads("\n".join(lines))
    left = puzzle.possible()
    pool = left[:3] + rng.sample(ws, 3) + [guesses[0]]
    texts = [f"answer is {secret}", f"answer is not {secret}", f"answer is {guesses[-1]}"]
    texts += [_claim(rng, pool) for _ in range(12)]
    specs = question_specs(texts)
    new = puzzle.verify(specs)
    old = puzzle.verify_on_model(specs)
    names = [p.name for p in puzzle.proposals]
    for a, b in zip(new, old, strict=True):
        assert a.verdict == b.verdict, a.text
        if a.verdict in (Verdict.ENTAILED, Verdict.REFUTED):
            minimal = [set(c) for k in range(len(names) + 1) for c in itertools.combinations(names, k)
                       if _holds(puzzle, a.text, a.verdict, c, ws)
                       and not any(_holds(puzzle, a.text, a.verdict, tuple(x for x in c if x != y), ws) for y in c)]
            assert set(a.because) in minimal and set(b.because) in minimal, a.text
            if len(minimal) == 1:
                assert a.because == b.because
        if a.verdict is Verdict.REFUTED:
            assert a.witness in left
        if a.verdict is Verdict.OPEN:
            assert a.witness["true"] in left and a.witness["false"] in left and a.witness["true"] != a.witness["false"]


def test_mastermind_claims_match_the_model() -> None:
    doc = ('game = "mastermind"\n[[guess]]\ncode = "1122"\nsecret = "1344"\n'
           '[[guess]]\ncode = "1344"\nfeedback = "BB"\n')
    puzzle = loads(doc)
    left = puzzle.possible()
    texts = [f"answer is {left[0]}", f"answer is not {left[0]}", "answer is 1344", "answer is not 6666",
             f"answer is {left[0]} or answer is {left[-1]}", "answer is 1122 implies answer is 1344"]
    specs = question_specs(texts)
    for a, b in zip(puzzle.verify(specs), puzzle.verify_on_model(specs), strict=True):
        assert a.verdict == b.verdict, a.text
        assert set(a.because) <= {p.name for p in puzzle.proposals} and len(a.because) == len(b.because)


def test_no_answer_left_is_a_contradiction_either_way(tmp_path) -> None:
    path, ws = _cell(tmp_path)
    lines = ['game = "motus"', f'dictionary = "{path}"', "length = 6", 'first = "M"',
             "[[guess]]", f'word = "{ws[0]}"', 'feedback = "GGGGGG"',
             "[[guess]]", f'word = "{ws[1]}"', 'feedback = "GGGGGG"']
    puzzle = loads("\n".join(lines))
    specs = question_specs([f"answer is {ws[0]}"])
    (a,) = puzzle.verify(specs)
    assert a.verdict is Verdict.CONTRADICTION and len(a.because) == 2
