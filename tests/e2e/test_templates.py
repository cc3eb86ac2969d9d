"""Issue 27, "the first template warns about itself".

Before: ``sleuth new clue`` printed a 3-player game whose solve said ``note: ... 4 shown card(s) ignored for
viewer Ann``, as did the README's first example; ``sleuth new wordle`` pointed to docs/wordle.md, which did
not exist; there was no template for 4 to 6 players.
"""

from __future__ import annotations

import json
import re
import tomllib

import pytest

from sleuth.registry import all_games
from sleuth.resources import examples, find_example
from tests.conftest import ROOT, run_cli

# Examples whose note is what they teach (each says so in a comment).
TEACHING_NOTES = {"mascarade/five-players-middle", "mascarade/six-players", "mascarade/thirteen-players"}


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_every_template_solves_without_a_note(game, tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(run_cli(["new", game]).out, encoding="utf-8")
    res = run_cli(["solve", path])
    assert res.code == 0 and "note:" not in res.err, res.err


@pytest.mark.parametrize("ref", [e.ref for e in examples()])
def test_bundled_examples_solve_without_a_note_unless_they_teach_it(ref):
    res = run_cli(["solve", f"example:{ref}", "--json"])
    notes = json.loads(res.out)["notes"]
    if ref in TEACHING_NOTES:
        assert notes and "prints a note" in find_example(ref).text()
    else:
        assert notes == [], notes


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_new_clue_players_n_is_a_game_of_n_players_that_solves_cleanly(n, tmp_path):
    res = run_cli(["new", "clue", "--players", str(n)])
    assert res.code == 0
    data = tomllib.loads(res.out)
    assert len(data["players"]) == n and sum(data["hand_sizes"]) == 18 and data["viewer"] == "Ann"
    assert len(data["hands"]["Ann"]) == data["hand_sizes"][0]
    for s in data["suggestion"]:  # Ann wrote only the cards she saw
        assert "card" not in s or "Ann" in (s["by"], s["shown_by"])
    path = tmp_path / "c.toml"
    path.write_text(res.out, encoding="utf-8")
    solved = run_cli(["solve", path])
    assert solved.code == 0 and "note:" not in solved.err, solved.err
    assert run_cli(["verify", path, "--claim", "Bob holds Rope"]).code == 0


@pytest.mark.parametrize(("args", "says"), [
    (["clue", "--players", "2"], "3 to 6"), (["clue", "--players", "7"], "3 to 6"),
    (["wordle", "--players", "3"], "no template by number of players")])
def test_new_players_out_of_range_is_one_line_exit_2(args, says):
    res = run_cli(["new", *args])
    assert res.code == 2 and len(res.err.strip().splitlines()) == 1 and says in res.err


@pytest.mark.parametrize("game", [g.name for g in all_games()])
def test_every_docs_pointer_of_new_and_games_exists(game):
    for out in (run_cli(["new", game]).out, run_cli(["games", game]).out):
        for page in re.findall(r"docs/([\w-]+\.md)", out):
            assert (ROOT / "docs" / page).is_file(), page
