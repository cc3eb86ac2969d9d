"""Warnings instead of silent drops (issue 13): a note on stderr and in ``--json``'s ``notes``; limits named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from sleuth.errors import PuzzleError
from sleuth.loading import load_data, loads
from sleuth.results import Status
from tests.conftest import PUZZLES, run_cli

CLUE_SHORT = """game = "clue"
players = ["Ann", "Bob", "Cat"]
viewer = "Ann"
[hands]
Ann = ["Plum", "Rope", "Hall", "Study", "Knife"]
[[suggestion]]
by = "Bob"
cards = ["Scarlet", "Rope", "Kitchen"]
shown_by = "Cat"
card = "Rope"
"""


def _notes(tmp_path: Path, text: str, *args: str) -> tuple[list[str], list[str]]:
    f = tmp_path / "p.toml"
    f.write_text(text, encoding="utf-8")
    r = run_cli(["solve", f, "--json", *args])
    assert r.code == 0, r.err
    stderr = [ln for ln in r.err.splitlines() if ln.startswith("sleuth: note: ")]
    return json.loads(r.out)["notes"], stderr


def test_clue_short_hand_and_unseen_shown_card_are_noted(tmp_path: Path) -> None:
    notes, stderr = _notes(tmp_path, CLUE_SHORT)
    assert len(notes) == 3 and len(stderr) == 3
    assert "hands.Ann" in notes[0] and "5 of 6 cards" in notes[0]
    assert "suggestion[1].card" in notes[1] and "ignored for viewer Ann" in notes[1]
    assert "suggestion[1].card" in notes[2] and "Rope is in Ann's own hand" in notes[2]


def test_clue_full_hand_has_no_note(tmp_path: Path) -> None:
    text = CLUE_SHORT.replace('"Knife"]', '"Knife", "Lounge"]').replace('card = "Rope"\n', "")
    notes, stderr = _notes(tmp_path, text)
    assert notes == [] and stderr == []


def test_mascarade_private_outcome_is_noted(tmp_path: Path) -> None:
    text = ('game = "mascarade"\nplayers = ["Ann", "Bob", "Cat"]\ncards = ["King", "Queen", "Judge"]\n'
            'viewer = "Ann"\n[[event]]\nswap = ["Bob", "Cat"]\nswapped = true\n')
    notes, _ = _notes(tmp_path, text)
    assert len(notes) == 1 and "event[1].swapped" in notes[0] and "public = true" in notes[0]
    notes, _ = _notes(tmp_path, text.replace("swapped = true", "swapped = true\npublic = true"))
    assert notes == []


def test_viewer_on_wordle_is_noted(tmp_path: Path) -> None:
    text = (PUZZLES / "wordle" / "example.toml").read_text(encoding="utf-8")
    notes, stderr = _notes(tmp_path, text, "--viewer", "Ann")
    assert len(notes) == 1 and "--viewer" in notes[0] and "no viewer" in notes[0] and stderr


def test_max_worlds_where_it_does_not_apply_is_noted(tmp_path: Path) -> None:
    text = (PUZZLES / "mastermind" / "knuth.toml").read_text(encoding="utf-8")
    notes, _ = _notes(tmp_path, text, "--set", "max_worlds=10")
    assert any("max_worlds does not apply" in n for n in notes)


def test_api_puzzle_notes_and_report_notes_agree() -> None:
    puzzle = loads(CLUE_SHORT, name="short.toml")
    report = puzzle.solve()
    assert report.status is Status.OK and list(report.notes) == puzzle.notes and len(puzzle.notes) == 3


# -- egghead: a silent stage before the solvers --------------------------------------------------------

EGG = {"game": "egghead", "analysis": "behavioural", "values": 4, "hand_size": 3, "players": ["A", "B", "C"],
       "moderator": "external", "table": {"A": [3, 3, 4], "B": [2, 3, 4], "C": [2, 4, 4]},
       "round": [{"question": q} for q in ("sum", "big-hands", "big-hands", "highest", "distinct")]}


def _egg(solves: object) -> dict:
    doc = json.loads(json.dumps(EGG))
    doc["round"][4]["solves"] = solves
    return doc


def test_egghead_computes_a_silent_first_stage() -> None:
    rounds = load_data(EGG).solve().fields["rounds"]
    assert rounds[4]["solves"] == [[], ["B"], ["A"], ["C"]]
    assert load_data(_egg([[], ["B"], ["A"], ["C"]])).solve().status is Status.OK


@pytest.mark.parametrize("solves", [[["B"], ["A"], ["C"]], ["B"]])
def test_egghead_solvers_without_the_silent_stage_get_the_list_meant(solves: object) -> None:
    with pytest.raises(PuzzleError) as err:
        load_data(_egg(solves), file="e.toml").solve()
    text = str(err.value)
    assert text.startswith("e.toml: round[5]: nobody can solve at stage 1")
    assert '[[], ["B"]' in text


# -- input limits at the API --------------------------------------------------------------------------

def test_api_tables_are_checked_like_files() -> None:
    deep: object = 1
    for _ in range(200):
        deep = [deep]
    with pytest.raises(PuzzleError, match="nested more than"):
        load_data({"game": "clue", "zz": deep}, file="api")
    with pytest.raises(PuzzleError, match="integer of 140 digits"):
        load_data({"game": "clue", "zz": 10 ** 139}, file="api")
