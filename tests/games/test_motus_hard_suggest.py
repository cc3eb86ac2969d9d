"""``hard = true`` in a Wordle or Motus file: ``suggest`` picks only guesses that keep every hint so far (its
heuristic methods and its exact ``top=N`` ranking), ``solve`` says hard mode is on and lists the same answers.
Checked against a brute force over tiny word lists (the hint rule and the feedback written in
:mod:`tests.helpers.motus_brute`, independent of sleuth's)."""

from __future__ import annotations

import json
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from sleuth.cli import main

from tests.helpers.motus_brute import brute_total, keeps_hints, word_feedback


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, object]:
    assert main(argv) == 0
    out = capsys.readouterr().out
    return json.loads(out) if "--json" in argv else {"text": out}


def _game(rng: random.Random) -> tuple[list[str], str, list[str]]:
    """A tiny word list, a secret and two or three guesses of hard mode that leave at least two answers."""
    while True:
        words = sorted({"".join(rng.choice("ABCDE") for _ in range(4)) for _ in range(rng.randint(10, 16))})
        secret = rng.choice(words)
        played: list[str] = []
        allowed = list(words)
        for _ in range(rng.randint(1, 3)):
            g = rng.choice([w for w in allowed if w != secret])
            played.append(g)
            allowed = [w for w in allowed if keeps_hints(w, g, word_feedback(g, secret))]
        left = [w for w in words if all(word_feedback(g, w) == word_feedback(g, secret) for g in played)]
        if len(left) >= 2:
            return words, secret, played


def _file(tmp_path: Path, words: list[str], secret: str, played: list[str], hard: bool) -> Path:
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    f = tmp_path / "g.toml"
    f.write_text(f'game = "wordle"\nlength = 4\ndictionary = "w.txt"\nhard = {str(hard).lower()}\n'
                 + "".join(f'[[guess]]\nword = "{g}"\nfeedback = "{word_feedback(g, secret)}"\n' for g in played))
    return f


def _brute(words: list[str], secret: str, played: list[str], hard: bool) -> tuple[list[str], list[str]]:
    """The answers left, and the guesses suggest may pick: not played unless still possible, and in hard mode
    keeping the hints of every guess made."""
    left = [w for w in words if all(word_feedback(g, w) == word_feedback(g, secret) for g in played)]
    pool = [w for w in words if (w not in played or w in left)
            and (not hard or all(keeps_hints(w, g, word_feedback(g, secret)) for g in played))]
    return left, pool


@pytest.mark.parametrize("seed", range(8))
def test_suggest_keeps_the_hints_in_hard_mode(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(seed)
    words, secret, played = _game(rng)
    f = _file(tmp_path, words, secret, played, True)
    left, pool = _brute(words, secret, played, True)
    got = _run(["suggest", str(f), "--json", "--method", "sum"], capsys)
    assert got["hard"] is True
    tied = got["tied"]
    assert isinstance(tied, list) and set(tied) <= set(pool)
    assert got["suggestion"] in pool
    assert got["scores"]["sum"] == sum(n * n for n in Counter(  # type: ignore[index]
        word_feedback(str(got["suggestion"]), s) for s in left).values())
    assert min(sum(n * n for n in Counter(word_feedback(g, s) for s in left).values()) for g in pool) \
        == got["scores"]["sum"]  # type: ignore[index]
    text = _run(["suggest", str(f), "--method", "sum"], capsys)["text"]
    assert "Hard mode (hard = true)" in str(text)
    # solve: the same answers as without hard mode, and it says hard mode is on
    solved = _run(["solve", str(f), "--json"], capsys)
    assert solved["possible"] == left
    assert "hard mode is on" in str(_run(["solve", str(f)], capsys)["text"])
    f.write_text(f.read_text().replace("hard = true", "hard = false"))
    assert _run(["solve", str(f), "--json"], capsys)["possible"] == left
    assert "hard mode" not in str(_run(["solve", str(f)], capsys)["text"])


@pytest.mark.parametrize("seed", range(6))
def test_exact_top_plays_hard_mode_throughout(seed: int, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(100 + seed)
    words, secret, played = _game(rng)
    f = _file(tmp_path, words, secret, played, True)
    left, _ = _brute(words, secret, played, True)
    # the exact ranking's pool: every guess not played yet, keeping the hints; each guess after it keeps them too
    pool = tuple(w for w in words if w not in played
                 and all(keeps_hints(w, g, word_feedback(g, secret)) for g in played))
    found = word_feedback(left[0], left[0])

    def total(g: str) -> float:
        parts: dict[str, list[str]] = {}
        for s in left:
            parts.setdefault(word_feedback(g, s), []).append(s)
        out: float = len(left)
        for code, part in parts.items():
            if code != found:
                sub = tuple(w for w in pool if keeps_hints(w, g, code))
                out += brute_total(tuple(part), sub, hard=True)
        return out

    want = sorted((total(g), g) for g in pool)
    got = _run(["suggest", str(f), "--json", "--set", "top=3"], capsys)
    assert got["ranking"] == "exact" and got["hard"] is True
    rows = got["top"]
    assert isinstance(rows, list)
    assert [r["total"] for r in rows] == [int(t) for t, _ in want[:len(rows)]]
    assert all(r["guess"] in pool and total(r["guess"]) == r["total"] for r in rows)
    assert all(Fraction(r["total"], len(left)) == Fraction(str(r["expected"])).limit_denominator(len(left))
               for r in rows)


def test_hard_mode_changes_the_pick(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tests above could fail: here the best split breaks hard mode (BCFH tells seven *ALL words apart), so
    the normal game suggests it and hard mode does not, heuristic and exact alike."""
    words = ["BALL", "BCFH", "CALL", "FALL", "HALL", "MALL", "TALL", "WALL", "XALL"]
    normal = _file(tmp_path, words, "TALL", ["XALL"], False)
    assert _run(["suggest", str(normal), "--json", "--method", "sum"], capsys)["suggestion"] == "BCFH"
    assert _run(["suggest", str(normal), "--json", "--set", "top=1"], capsys)["top"][0]["guess"] == "BCFH"  # type: ignore[index]
    hard = _file(tmp_path, words, "TALL", ["XALL"], True)
    got = _run(["suggest", str(hard), "--json", "--method", "sum"], capsys)
    assert got["suggestion"] == "BALL" and "BCFH" not in got["tied"]  # type: ignore[operator]
    top = _run(["suggest", str(hard), "--json", "--set", "top=8"], capsys)["top"]
    assert isinstance(top, list) and {r["guess"] for r in top} == set(words) - {"BCFH", "XALL"}
