"""Wordle's shared grid as a puzzle: reading it (file key and standard input), reverse solving checked against a
brute force over a small list, and the review of a grid with its words."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from sleuth.cli import main
from sleuth.errors import PuzzleError
from sleuth.models.motus.grid import parse_grid
from tests.helpers.motus_brute import word_feedback as marks

GRID = "Wordle 1,234 3/6*\n\n⬛⬛🟨⬛🟨 crane\n🟩⬛⬛🟩⬛ ADIEU\n🟩🟩🟩🟩🟩 ABBEY\n"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], stdin: str | None = None,
         monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None and monkeypatch is not None:
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_parse_grid() -> None:
    g = parse_grid(GRID)
    assert g.rows == ("BBYBY", "GBBGB", "GGGGG") and g.words == ("CRANE", "ADIEU", "ABBEY")
    assert g.hard and g.score == 3 and g.answer is None
    g = parse_grid("🟧🟦⬜⬜⬜\n🟩\ufe0f🟩🟩🟩🟩\nanswer: abbey")
    assert g.rows == ("GYBBB", "GGGGG") and g.words == (None, None) and g.answer == "ABBEY" and not g.hard
    for bad in ("", "Wordle 1 2/6\n🟩🟩🟩🟩🟩", "🟩🟩🟩🟩🟩\n🟩🟩🟩", "🟩🟩x🟩🟩"):
        with pytest.raises(PuzzleError):
            parse_grid(bad)


@pytest.mark.parametrize("seed", range(4))
def test_reverse_solving_matches_brute_force(seed: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(seed)
    words = sorted({"".join(rng.choice("ABCDE") for _ in range(4)) for _ in range(14)})
    (tmp_path / "w.txt").write_text("\n".join(words) + "\n")
    secret = rng.choice(words)
    rows = [marks(rng.choice(words), secret) for _ in range(rng.randint(1, 3))]
    squares = {"G": "🟩", "Y": "🟨", "B": "⬛"}
    grid = "\n".join("".join(squares[c] for c in r) for r in rows)
    f = tmp_path / "g.toml"
    f.write_text(f'game = "wordle"\nlength = 4\ndictionary = "w.txt"\ngrid = """\n{grid}\n"""\n')
    code, out, _ = _run(["solve", str(f), "--json"], capsys)
    assert code == 0
    want = sorted(a for a in words if all(any(marks(g, a) == r for g in words) for r in rows))
    assert json.loads(out)["possible"] == want


def test_grid_from_standard_input_solve_and_review(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    plain = "Wordle 1,234 3/6\n\n⬛🟨⬛🟩⬛ SALET\n🟩⬛⬛🟩⬛ ADIEU\n🟩🟩🟩🟩🟩 ABBEY\n"  # SALET: the search is short
    code, out, _ = _run(["review", "-", "--json"], capsys, plain, monkeypatch)
    assert code == 0
    data = json.loads(out)
    assert [m["guess"] for m in data["moves"]] == ["SALET", "ADIEU", "ABBEY"]
    assert [m["feedback"] for m in data["moves"]] == ["BYBGB", "GBBGB", "GGGGG"]
    assert data["moves"][0]["played"] == "1584/463" and data["moves"][0]["regret"] == "0"
    assert data["moves"][0]["best"] == "1584/463" and data["moves"][0]["best_guesses"] == ["SALET"]
    assert data["solved"] and all(m["exact"] for m in data["moves"])
    wordless = "Wordle 1,234 3/6\n⬛⬛🟨⬛🟨\n🟩⬛⬛🟩⬛\n🟩🟩🟩🟩🟩\n"
    code, out, err = _run(["review", "-"], capsys, wordless, monkeypatch)
    assert code == 2 and "have no words" in err
    code, out, _ = _run(["solve", "-", "--json"], capsys, wordless + "\nanswer: abbey\n", monkeypatch)
    assert code == 0 and json.loads(out)["possible"] == ["ABBEY"]


def test_grid_key_checks_rows_against_the_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "g.toml"
    f.write_text('game = "wordle"\ngrid = """\n⬛⬛🟨⬛🟨\n🟩🟩🟩🟩🟩\n"""\nanswer = "ABBEY"\n'
                 'words = ["CRANE", "ABBOT"]\n')
    code, _, err = _run(["solve", str(f)], capsys)
    assert code == 2 and "ABBOT against ABBEY gives" in err
    f.write_text('game = "wordle"\ngrid = "🟩🟩🟩🟩🟩"\n[[guess]]\nword = "CRANE"\nfeedback = "BBBBB"\n')
    code, _, err = _run(["solve", str(f)], capsys)
    assert code == 2 and "either a grid or [[guess]]" in err
    f.write_text('game = "wordle"\ngrid = "⬛⬛🟨⬛🟨"\n')
    code, _, err = _run(["verify", str(f), "--claim", "answer is ABBEY"], capsys)
    assert code == 2 and "not on a shared grid" in err
