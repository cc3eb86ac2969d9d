"""Metamorphic tests, Motus / Wordle / Mastermind: one letter (or colour) permutation applied to the dictionary,
the secret and the guesses keeps the feedback, the possible secrets (mapped), their count, the claim verdicts
and the suggestion's own score under its method (ties are broken alphabetically, so the rest of the
pick's scores may differ)."""

from __future__ import annotations

import copy
import string
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from sleuth.models.motus.feedback import feedback, matrix_reference, to_code
from sleuth.loading import load_data
from sleuth.resources import find_example

from tests.conftest import BACKENDS
from tests.metamorphic_util import example, via_json_and_toml

QUICK = [Phase.explicit, Phase.reuse, Phase.generate]
CLAIM_KEYS = ("method",)


def answer(doc: dict[str, Any], backend: str = "cpsat", suggest: str | None = "sum") -> dict[str, Any]:
    from tests.metamorphic_util import verdicts

    puzzle = load_data(doc, file=doc.pop("_file", None))
    f = puzzle.solve(backend=backend).fields
    claims = [(c["text"], {k: c[k] for k in CLAIM_KEYS if k in c}) for c in doc.get("claim", [])]
    out = {"possible": set(f["possible"]), "count": f["count"], "verdicts": verdicts(doc, claims, backend)}
    if suggest:
        s = puzzle.suggest(method=suggest).fields
        # ties are broken alphabetically (a convention a renamed alphabet changes): of the pick's scores only
        # the method's own is invariant, and whether a possible word is among the best
        own = {k: v for k, v in s["scores"].items() if k == suggest}
        out["suggest"] = (s["count"], s["possible_word"], own)
    return out


def permute(doc: dict[str, Any], sigma: dict[str, str], words: list[str], folder: Path) -> dict[str, Any]:
    """The puzzle with every letter passed through ``sigma``; the dictionary is written to ``folder``."""
    f = lambda w: "".join(sigma.get(c, c) for c in w)  # noqa: E731
    doc = copy.deepcopy(doc)
    path = folder / "permuted.txt"
    path.write_text("\n".join(f(w) for w in words) + "\n", encoding="utf-8")
    doc["dictionary"] = str(path)
    if "first" in doc:
        doc["first"] = f(doc["first"])
    key = "code" if doc["game"] == "mastermind" else "word"
    for g in doc.get("guess", []):
        g[key] = f(g[key])
        if "secret" in g:
            g["secret"] = f(g["secret"])
    for c in doc.get("claim", []):
        head, _, item = c["text"].rpartition(" ")
        c["text"] = f"{head} {f(item)}"
    return doc


def mapped(ans: dict[str, Any], sigma: dict[str, str]) -> dict[str, Any]:
    out = dict(ans)
    out["possible"] = {"".join(sigma.get(c, c) for c in w) for w in ans["possible"]}
    return out


def seed_words() -> list[str]:
    text = find_example("example:motus/seed-table2").resource.parent.joinpath("seed-d7l.txt").read_text("utf-8")
    return [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]


LETTERS = st.permutations(list(string.ascii_uppercase)).map(lambda p: dict(zip(string.ascii_uppercase, p,
                                                                                strict=True)))


@pytest.mark.parametrize("backend", BACKENDS)
@settings(max_examples=3, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sigma=LETTERS)
def test_a_letter_permutation_on_the_seed_dictionary(tmp_path, backend, sigma):
    doc, words = example("motus/seed-table2"), seed_words()
    base = dict(doc, dictionary=str(tmp_path / "plain.txt"))
    (tmp_path / "plain.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    moved = via_json_and_toml(permute(doc, sigma, words, tmp_path))
    assert answer(moved, backend) == mapped(answer(base, backend), sigma)


@settings(max_examples=3, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(sigma=st.permutations("123456").map(lambda p: dict(zip("123456", p, strict=True))))
def test_a_colour_permutation_on_mastermind(tmp_path, sigma):
    doc = example("mastermind/knuth")
    moved = permute(doc, sigma, [], tmp_path)
    moved.pop("dictionary")
    assert answer(moved, suggest="max") == mapped(answer(doc, suggest="max"), sigma)


@st.composite
def small_games(draw: Any, method: str = "max") -> tuple[dict[str, Any], list[str]]:
    words = draw(st.lists(st.text("ABCDE", min_size=4, max_size=4).map(lambda w: "A" + w[1:]), min_size=2,
                          max_size=12, unique=True))
    secret = draw(st.sampled_from(words))
    guesses = [{"word": draw(st.sampled_from(words)), "secret": secret} for _ in range(draw(st.integers(0, 2)))]
    claims = [{"text": f"answer is {draw(st.sampled_from(words))}"},
              {"text": f"best guess is {draw(st.sampled_from(words))}", "method": method}]
    return {"game": "motus", "length": 4, "first": "A", "guess": guesses, "claim": claims}, words


@settings(max_examples=8, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=small_games(), sigma=LETTERS, backend=st.sampled_from(BACKENDS))
def test_generated_dictionaries(tmp_path, game, sigma, backend):
    check_generated(tmp_path, game, sigma, backend)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, phases=QUICK, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=small_games("minimax"), sigma=LETTERS, backend=st.sampled_from(BACKENDS))   # the compiled game tree
def test_generated_dictionaries_more(tmp_path, game, sigma, backend):
    check_generated(tmp_path, game, sigma, backend)


def check_generated(tmp_path: Path, game: tuple[dict[str, Any], list[str]], sigma: dict[str, str],
                    backend: str) -> None:
    doc, words = game
    (tmp_path / "plain.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    base = answer(dict(doc, dictionary=str(tmp_path / "plain.txt")), backend)
    assert answer(permute(doc, sigma, words, tmp_path), backend) == mapped(base, sigma)


def test_feedback_codes_are_invariant_under_a_permutation():
    sigma = dict(zip("ABCDEFG", "GFEDCBA", strict=True))
    f = lambda w: "".join(sigma[c] for c in w)  # noqa: E731
    for guess, secret in [("ABBA", "BABA"), ("ACDC", "ADDA"), ("GGGA", "AGGG")]:
        assert feedback(f(guess), f(secret)) == feedback(guess, secret)
        assert to_code(feedback(guess, secret)) == to_code(feedback(f(guess), f(secret)))
    words = ["ABBA", "BABA", "ACDC", "GGGA", "AGGG"]
    assert (matrix_reference(words, words) == matrix_reference([f(w) for w in words], [f(w) for w in words])).all()
