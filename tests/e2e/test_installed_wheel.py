"""Issue 27, a newcomer's path from the installed tool alone: the wheel, built from this checkout and installed
in a fresh virtual environment, taken through a new user's session per game (write a file from
``sleuth new``, solve it, ask a question, fix a file with several mistakes in one round).

Slow (it builds and installs the wheel with its dependencies): ``python -m pytest -m slow
tests/e2e/test_installed_wheel.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytestmark = pytest.mark.slow

QUESTIONS = {
    "clue": "Bob holds the Rope", "egghead": "A has a 1", "motus": "answer is LOGIQUE",
    "wordle": "answer is GHOST", "mastermind": "answer is 1535", "mascarade": "J0 holds C0",
    "cardguess": "P(next is J) = 1/3", "epistemic": "month == 'July'",
}


@pytest.fixture(scope="module")
def sleuth_bin(tmp_path_factory) -> Path:
    """The ``sleuth`` script of a fresh venv where only the built wheel (and its dependencies) is installed."""
    work = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w",
                    str(work / "dist"), str(ROOT)], check=True, timeout=600)
    [wheel] = (work / "dist").glob("sleuth-*.whl")
    venv.create(work / "venv", with_pip=True)
    bin_dir = work / "venv" / ("Scripts" if os.name == "nt" else "bin")
    subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", str(wheel)], check=True, timeout=1200)
    return bin_dir / "sleuth"


def _run(sleuth: Path, args: list[str], cwd: Path, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["SLEUTH_CACHE"] = str(cwd / "cache")
    return subprocess.run([str(sleuth), *args], cwd=cwd, capture_output=True, text=True, input=stdin,
                          timeout=600, check=False, env=env)


@pytest.mark.parametrize("game", list(QUESTIONS))
def test_a_new_users_session(sleuth_bin, tmp_path, game):
    new = _run(sleuth_bin, ["new", game], tmp_path)
    assert new.returncode == 0 and new.stdout.startswith("#")
    (tmp_path / "my.toml").write_text(new.stdout, encoding="utf-8")
    solved = _run(sleuth_bin, ["solve", "my.toml"], tmp_path)
    assert solved.returncode == 0 and "note:" not in solved.stderr, solved.stderr
    asked = _run(sleuth_bin, ["verify", "my.toml", "--claim", QUESTIONS[game]], tmp_path)
    assert asked.returncode == 0, asked.stdout + asked.stderr
    # the last verdict line: the file's own claims come first
    line = [ln for ln in asked.stdout.splitlines() if ln.startswith("[") and QUESTIONS[game] in ln][-1]
    assert line.startswith("[?") and "FAIL" not in line
    assert "..." not in asked.stdout  # witnesses are drawn whole


def test_clue_file_with_several_mistakes_is_fixed_in_one_round(sleuth_bin, tmp_path):
    text = ('game = "clue"\nplayers = ["Ann", "Bob", "Cat"]\nviewer = "Ann"\n'
            'hands = { Ann = ["Miss Scarlet", "Professor Plum", "Candlestik", "Ballrom", "Dining Room", "Library"] }\n'
            'suggestion = [{ by = "Bobb", cards = ["Colonel Mustard", "Lead Pipe", "Kitchn"], shown_by = "Cat" }]\n')
    (tmp_path / "g.toml").write_text(text, encoding="utf-8")
    first = _run(sleuth_bin, ["solve", "g.toml"], tmp_path)
    lines = first.stderr.strip().splitlines()
    assert first.returncode == 2 and len(lines) == 4, first.stderr
    fixed = text
    for line in lines:  # the user applies every "did you mean" of the one run
        wrong, near = line.split("unknown ")[1].split(" (did you mean ")
        fixed = fixed.replace(f'"{wrong.split(" ", 1)[1][1:-1]}"', f'"{near.split("?")[0][1:-1]}"')
    (tmp_path / "g.toml").write_text(fixed, encoding="utf-8")
    second = _run(sleuth_bin, ["solve", "g.toml"], tmp_path)
    assert second.returncode == 0 and "note:" not in second.stderr, second.stderr


def test_mastermind_and_epistemic_slips_are_explained(sleuth_bin, tmp_path):
    (tmp_path / "m.toml").write_text('game = "mastermind"\n[[guess]]\ncode = "1122"\nfeedback = "WW"\n',
                                     encoding="utf-8")
    assert _run(sleuth_bin, ["solve", "m.toml"], tmp_path).returncode == 0
    (tmp_path / "e.toml").write_text('game = "epistemic"\n[variables]\nx = [1, 2]\n[agents]\nA = ["x"]\n'
                                     '[[announcement]]\nby = "father"\nformula = "x = 1"\n', encoding="utf-8")
    res = _run(sleuth_bin, ["solve", "e.toml"], tmp_path)
    assert res.returncode == 2 and "did you mean '=='?" in res.stderr


def test_live_entry_through_a_pipe(sleuth_bin, tmp_path):
    stdin = ('game = "wordle"\n'
             'guess = [{ word = "CRANE", feedback = "BBBBB" }, { word = "MOIST", feedback = "BGBGG" }]\n')
    res = _run(sleuth_bin, ["solve", "-"], tmp_path, stdin)
    assert res.returncode == 0 and res.stdout.splitlines()[1] == "BOOST, JOUST"


def test_review_without_numba_answers_with_labelled_bounds(sleuth_bin, tmp_path):
    """Issue 49: the wheel installs no numba; the review of the bundled Wordle example stops at its default time
    limit and labels what it could not search with proven bounds (before: more than 10 minutes of searching)."""
    import json

    res = _run(sleuth_bin, ["review", "example:wordle/example", "--json"], tmp_path)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["kernel"] == "python" and not data["exact"]
    for m in data["moves"]:
        assert m["exact"] or ("time limit" in m["note"] and m["best_low"] is not None and m["played_low"] is not None)
