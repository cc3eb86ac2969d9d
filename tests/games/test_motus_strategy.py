"""Scoring methods and whole-cell play against plain references; exact minimax against brute force;
Mastermind (Knuth's 5801) and Wordle."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from functools import cache

import numpy as np
import pytest

from sleuth.models.motus import feedback as fb
from sleuth.models.motus import strategy as st
from sleuth.models.motus import words
from sleuth.models.motus.emi import GameTree
from sleuth.models.motus.model import build_model
from sleuth.models.motus.space import CodeSpace, WordSpace
from sleuth.engine import Engine
from sleuth.loading import loads

PLAIN = [m for m in st.Method if m is not st.Method.MINIMAX]


def _alpha(g: str, poss: list[str]) -> list[int]:
    marks = [fb.feedback(g, p) for p in poss]
    return [marks.count(x) for x in marks]


def reference_choose(guesses: list[str], poss: list[str], proposed: set[str], method: st.Method) -> str:
    """The seed's definitions, word by word, with exact arithmetic."""
    cands = [g for g in guesses if g not in proposed]
    if method is st.Method.BOBO:
        return min(poss)
    if method is st.Method.POSSIBLE_GMAX:
        cands = [g for g in cands if g in poss]
    m = len(poss)

    def gini(a: list[int]) -> Fraction:
        s = sorted(a)
        return Fraction(2 * sum((i + 1) * x for i, x in enumerate(s)), m * sum(s)) - Fraction(m + 1, m)

    def entropy(a: list[int]) -> float:
        return -sum(x / sum(a) * math.log2(x / sum(a)) for x in a)

    keys = {}
    for g in cands:
        a = _alpha(g, poss)
        if g not in poss and max(a) == m and method not in (st.Method.GMAX, st.Method.POSSIBLE_GMAX):
            continue  # splits nothing, cannot win
        keys[g] = {st.Method.SUM: sum(a), st.Method.MAX: max(a), st.Method.GMAX: sorted(a, reverse=True),
                   st.Method.POSSIBLE_GMAX: sorted(a, reverse=True), st.Method.GINI: gini(a),
                   st.Method.ENTROPY: round(entropy(a), 9), st.Method.SUMGINI: (sum(a), gini(a)),
                   # information, highest first: the partition's entropy is -(1/m) sum log2(alpha_i / m)
                   st.Method.INFORMATION: round(sum(math.log2(x / len(a)) for x in a) / len(a), 9)}[method]
    best = min(keys.values())
    return min((g not in poss, g) for g, k in keys.items() if k == best)[1]


def reference_game(guesses: list[str], secret: str, method: st.Method) -> int:
    poss, proposed = sorted(guesses), set()
    while True:
        g = reference_choose(guesses, poss, proposed, method)
        proposed.add(g)
        if g == secret:
            return len(proposed)
        mark = fb.feedback(g, secret)
        poss = [p for p in poss if fb.feedback(g, p) == mark]


@pytest.fixture(scope="module")
def cell_words() -> list[str]:
    cell = words.french().cell(6, "K")
    return sorted(random.Random(3).sample(cell.answers, 45))


@pytest.mark.parametrize("method", PLAIN, ids=lambda m: m.value)
def test_play_all_matches_word_by_word_reference(cell_words, method: st.Method) -> None:
    space = WordSpace(words.from_words(cell_words).cell(6, "K"), tries=6)
    result = st.play_all(space.matrix(), space.answer_rows, space.found, method, 6)
    expected = [reference_game(cell_words, s, method) for s in cell_words]
    assert result.tries.tolist() == expected


@pytest.mark.parametrize("seed", range(4))
def test_choose_matches_reference_on_random_positions(cell_words, seed: int) -> None:
    rng = random.Random(seed)
    poss = sorted(rng.sample(cell_words, rng.randint(3, 12)))
    proposed = set(rng.sample([w for w in cell_words if w not in poss], 2))
    rows = [w for w in cell_words if w not in proposed]
    codes = fb.matrix(words.encode(rows, 6), words.encode(poss, 6))
    mask = np.array([w in poss for w in rows])
    for method in PLAIN:
        assert rows[st.choose(codes, mask, method)] == reference_choose(cell_words, poss, proposed, method), method


def brute_value(guesses: list[str], poss: frozenset[str]) -> int:
    @cache
    def value(p: frozenset[str]) -> int:
        if len(p) == 1:
            return 1
        best = math.inf
        for g in guesses:
            parts: dict[str, set[str]] = {}
            for w in p:
                parts.setdefault(fb.feedback(g, w), set()).add(w)
            if len(parts) == 1 and g not in p:
                continue
            worst = max(0 if mark == "G" * len(g) else value(frozenset(part)) for mark, part in parts.items())
            best = min(best, 1 + worst)
        return int(best)
    return value(poss)


@pytest.mark.parametrize("seed", range(5))
def test_minimax_matches_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    cell = words.french().cell(5, "B")
    guesses = sorted(rng.sample(cell.answers, 18))
    answers = sorted(rng.sample(guesses, 10))
    matrix = fb.matrix(words.encode(guesses, 5), words.encode(answers, 5))
    tree = GameTree(matrix, fb.found_code(5))
    assert tree.value().lower == brute_value(guesses, frozenset(answers))
    sub = sorted(rng.sample(range(10), 6))
    assert GameTree(matrix, fb.found_code(5)).value(np.array(sub)).lower == \
        brute_value(guesses, frozenset(answers[i] for i in sub))


def test_minimax_on_a_cluster_needs_three() -> None:
    # five words differing in one letter only
    cluster = ["BALLE", "BELLE", "BULLE", "BOLLE", "BILLE"]
    ws = words.from_words(cluster + ["BIAIS", "BOUEE"])
    space = WordSpace(ws.cell(5, "B"))
    got = GameTree(space.matrix(), space.found).value(np.array([space.answers.index(w) for w in cluster]))
    assert got.lower == brute_value(list(space.guesses), frozenset(cluster))


def test_minimax_method_plays_its_value(cell_words) -> None:
    space = WordSpace(words.from_words(cell_words[:20]).cell(6, "K"), tries=6)
    tree = GameTree(space.matrix(), space.found)
    value = tree.value().lower
    result = st.play_all(space.matrix(), space.answer_rows, space.found, st.Method.MINIMAX, 6,
                         minimax=lambda rows, poss: tree.optimal_rows(rows, poss))
    assert result.worst == value == brute_value(list(space.guesses), frozenset(space.answers))


# -- Mastermind -----------------------------------------------------------------------------------------

def test_knuth_5801() -> None:
    space = CodeSpace(pegs=4, colours=6)
    matrix = space.matrix()
    first = st.choose(matrix, np.ones(len(space.guesses), dtype=bool), st.Method.MAX)
    assert space.guesses[first] == "1122"
    result = st.play_all(matrix, space.answer_rows, space.found, st.Method.MAX, 5)
    assert len(space.answers) == 1296 and result.total == 5801 and result.worst == 5 and result.fails == 0


def test_mastermind_feedback_matrix() -> None:
    space = CodeSpace(pegs=4, colours=6)
    rng = random.Random(1)
    pairs = [(rng.choice(space.answers), rng.choice(space.answers)) for _ in range(300)]
    for g, s in pairs:
        black, white = fb.mastermind_feedback(tuple(g), tuple(s))
        assert space.codes(space.encode([g]), space.encode([s]))[0, 0] == space.code_of(black, white)
    assert fb.mastermind_feedback((1, 1, 2, 2), (1, 2, 3, 4)) == (1, 1)


@pytest.mark.parametrize("pegs, colours", [(3, 4), (2, 9), (5, 2)])
def test_mastermind_matrix_in_blocks_is_every_pair(monkeypatch, pegs: int, colours: int) -> None:
    """The matrix computed a few rows at a time (its working memory bounded) is the pairwise feedback."""
    monkeypatch.setattr(fb, "BLOCK_PAIRS", 50)
    space = CodeSpace(pegs=pegs, colours=colours)
    got = space.matrix()
    for i, g in enumerate(space.guesses):
        for j, s in enumerate(space.answers):
            assert got[i, j] == space.code_of(*fb.mastermind_feedback(tuple(g), tuple(s)))


@pytest.mark.parametrize("seed", range(4))
def test_mastermind_model_matches_table(seed: int) -> None:
    rng = random.Random(seed)
    pegs, colours = 3 + seed % 2, 4 + seed % 3
    symbols = "123456789"[:colours]
    secret = "".join(rng.choice(symbols) for _ in range(pegs))
    lines = ['game = "mastermind"', f"pegs = {pegs}", f"colours = {colours}"]
    for _ in range(2):
        lines += ["[[guess]]", f'code = "{"".join(rng.choice(symbols) for _ in range(pegs))}"',
                  f'secret = "{secret}"']
    puzzle = loads("\n".join(lines))
    table = puzzle.possible()
    assert secret in table
    sm = build_model(puzzle.space, puzzle.proposals)
    for backend in ("cpsat", "python-constraint"):
        got = sorted(sm.decode(v) for v in Engine(sm.model, backend).valids(sm.variables))
        assert got == table


# -- Wordle ---------------------------------------------------------------------------------------------

def test_wordle_lists() -> None:
    w = words.wordle()
    assert len(w.answers) == 2315 and len(w.guesses) == 12972
    assert set(w.answers) <= set(w.guesses)
    cell = w.cell(5)
    assert len(cell.answers) == 2315 and len(cell.guesses) == 12972


def test_wordle_possible_answers() -> None:
    puzzle = loads('game = "wordle"\n[[guess]]\nword = "crane"\nfeedback = "BBBBB"\n'
                   '[[guess]]\nword = "sloth"\nfeedback = "YBGYY"\n')
    expect = [a for a in words.wordle().answers
              if fb.feedback("CRANE", a) == "BBBBB" and fb.feedback("SLOTH", a) == "YBGYY"]
    assert puzzle.possible() == expect and "GHOST" in expect


def test_wordle_opening_moves() -> None:
    """Known results on the official lists: ROATE leaves 139883 / 2315 = 60.42 answers on average (the best
    expected size), and no opening leaves fewer than 168 answers in its largest class."""
    puzzle = loads('game = "wordle"\n')
    by_sum = puzzle.best(st.Method.SUM)
    assert by_sum.word == "ROATE" and by_sum.sumsq == 139883 and not by_sum.possible
    by_max = puzzle.best(st.Method.MAX)
    assert by_max.largest == 168 and by_max.possible
