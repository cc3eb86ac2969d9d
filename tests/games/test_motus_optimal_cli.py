"""The optimal search from the command line: suggest --set top=N, emoji feedback, the information method,
experiment --optimal (bad input here; the published anchors as slow tests)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from sleuth.models.motus import strategy as st
from sleuth.models.motus.optimal import Optimal
from sleuth.models.motus.space import game_space


def _puzzle(tmp_path, marks: str, word: str = "CRANE", more: str = "") -> str:
    f = tmp_path / "w.toml"
    f.write_text(f'game = "wordle"\n[[guess]]\nword = "{word}"\nfeedback = "{marks}"\n{more}', encoding="utf-8")
    return str(f)


def test_emoji_feedback_reads_as_letters(cli, tmp_path) -> None:
    emoji = json.loads(cli(["solve", _puzzle(tmp_path, "⬛🟨⬜🟩\ufe0f⬛"), "--json"]).out)
    letters = json.loads(cli(["solve", _puzzle(tmp_path, "BYBGB"), "--json"]).out)
    assert emoji["possible"] == letters["possible"] and emoji["count"] > 0
    bad = cli(["solve", _puzzle(tmp_path, "🟩🟩🟥🟩🟩")])
    assert bad.code == 2 and "feedback" in bad.err and "🟩" in bad.err and "Traceback" not in bad.err


def test_suggest_top_is_exact_on_small_states(cli, tmp_path) -> None:
    f = tmp_path / "mm.toml"
    f.write_text('game = "mastermind"\n[[guess]]\ncode = "1122"\nfeedback = { black = 1, white = 0 }\n'
                 '[[guess]]\ncode = "1344"\nfeedback = { black = 1, white = 1 }\n', encoding="utf-8")
    path = str(f)
    out = json.loads(cli(["suggest", path, "--set", "top=3", "--json"]).out)
    assert out["ranking"] == "exact" and len(out["top"]) == 3
    space = game_space("mastermind")
    possible = set(json.loads(cli(["solve", path, "--json"]).out)["possible"])
    poss = np.flatnonzero([w in possible for w in space.answers])
    assert out["count"] == poss.size
    search = Optimal(space, kernel="python")
    proposed = {space.guess_index["1122"], space.guess_index["1344"]}
    allowed = np.array([g for g in range(len(space.guesses)) if g not in proposed])
    totals = [search.guess_value(space.guess_index[r["guess"]], poss, allowed, 2) for r in out["top"]]
    assert totals == [r["total"] for r in out["top"]] == sorted(totals)
    assert totals[0] == search.value(poss, allowed, 2)  # the first is optimal


def test_suggest_top_falls_back_to_a_labelled_heuristic(cli, tmp_path) -> None:
    f = tmp_path / "start.toml"
    f.write_text('game = "wordle"\n', encoding="utf-8")
    r = cli(["suggest", str(f), "--set", "top=2", "--json"])
    out = json.loads(r.out)
    assert r.code == 0 and out["ranking"] == "heuristic" and out["count"] == 2315
    assert [x["guess"] for x in out["top"]] == ["SOARE", "ROATE"]  # the best-known information openers
    assert cli(["suggest", str(f), "--set", "top=0"]).code == 2


def test_information_is_the_highest_partition_entropy() -> None:
    codes = np.array([[0, 0, 1, 2, 2, 2], [0, 1, 2, 3, 4, 4], [0, 0, 0, 0, 0, 1]])
    stats = st.row_stats(codes)
    expected = [-sum(c / 6 * np.log2(c / 6) for c in sizes) for sizes in ([2, 1, 3], [1, 1, 1, 1, 2], [5, 1])]
    assert np.allclose(stats.information, expected)
    assert st.choose(codes, np.zeros(3, dtype=bool), st.parse_method("information")) == 1
    assert st.choose(codes, np.zeros(3, dtype=bool), st.Method.ENTROPY) == 2  # the seed's: lowest first


@pytest.mark.parametrize("argv", [
    ["--games", "mastermind", "--hard"],
    ["--games", "wordle", "--opener", "ZZZZZ"],
    ["--games", "wordle", "--cap", "x"],
    ["--games", "chess"],
])
def test_experiment_optimal_bad_input(cli, argv) -> None:
    r = cli(["experiment", "wordle", "--optimal", *argv])
    assert r.code == 2 and r.err.count("\n") == 1 and "Traceback" not in r.err


def test_published_wordle_anchors(cli, tmp_path) -> None:   # 13 s of CPU: in the default run
    tree = tmp_path / "salet.json"
    out = json.loads(cli(["experiment", "wordle", "--games", "wordle", "--optimal", "--opener", "SALET", "--json",
                          "--tree", str(tree)]).out)
    assert (out["opener"], out["total"], out["games"], out["max"]) == ("SALET", 7920, 2315, 5)
    assert sum(int(k) * v for k, v in out["distribution"].items()) == 7920
    from sleuth.models.motus.optimal import replay
    played = replay(json.loads(tree.read_text()), game_space("wordle"))
    assert sum(k * v for k, v in played.items()) == 7920
    hard = json.loads(cli(["experiment", "wordle", "--games", "wordle", "--optimal", "--opener", "SALET", "--hard",
                           "--json"]).out)
    assert (hard["total"], hard["max"]) == (8122, 6)


@pytest.mark.slow
def test_published_mastermind_anchors(cli) -> None:
    out = json.loads(cli(["experiment", "wordle", "--games", "mastermind", "--optimal", "--json"]).out)
    assert out["ranking"][0]["total"] == 5625 and out["ranking"][0]["opener"] == "1123"
    capped = json.loads(cli(["experiment", "wordle", "--games", "mastermind", "--optimal", "--cap", "5",
                             "--json"]).out)
    assert capped["ranking"][0]["total"] == 5626


def test_an_opener_names_its_game_when_games_are_left_out(cli) -> None:
    """A Mastermind code means Mastermind only, a Wordle word Wordle only: one whole answer per run."""
    r = cli(["experiment", "wordle", "--optimal", "--opener", "12", "--pegs", "2", "--colours", "3", "--json"])
    assert r.code == 0, r.err
    (line,) = r.out.strip().splitlines()
    out = json.loads(line)
    assert out["opener"] == "12" and out["games"] == 9
    r = cli(["experiment", "wordle", "--optimal", "--opener", "ZZZZZ"])
    assert r.code == 2 and "wordle" in r.err and r.out == ""
