"""Issue 27, "advice".

Before: all five top Clue suggestions tied at 0.865 with nothing saying so; ``--show Knife`` was reported
under ``--set show`` and docs/cli.md documented ``--show CARD``; Wordle's suggestion line was jargon
(``sum 441, max 8, 42 classes, gini 0.326``); a guess that is not a word was accepted without a note; long
answer lists ended in ``...`` with no way to see them all.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction

from sleuth.results import decimal
from tests.conftest import ROOT, run_cli

FRESH = ('game = "clue"\nplayers = ["Ann", "Bob", "Cat"]\nviewer = "Ann"\n[hands]\n'
         'Ann = ["Scarlet", "Plum", "Candlestick", "Ballroom", "Dining Room", "Library"]\n')


def _file(tmp_path, text, name="g.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_clue_advice_says_when_suggestions_tie_and_what_the_score_means(tmp_path):
    path = _file(tmp_path, FRESH)
    ranking = json.loads(run_cli(["suggest", path, "--json", "--set", "top=1000"]).out)["ranking"]
    best = ranking[0]["information"]
    tied = sum(r["information"] == best for r in ranking)
    assert tied > 1  # this opening has ties: the case the issue met
    text = run_cli(["suggest", path]).out
    assert f"{tied} suggestions tie for the most information" in text
    assert text.count("(tie)") == min(tied, 5)
    assert "in bits" in text and "Higher is better" in text
    assert f"the 5 best of {len(ranking)} suggestions (--set top=N lists more" in text


def test_clue_show_errors_name_the_flag_and_the_docs_give_its_form():
    res = run_cli(["suggest", "example:clue/classic-3-players", "--show", "Knife"])
    assert res.code == 2 and ": --show: cannot read 'Knife'" in res.err and "--set show" not in res.err
    cli_md = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "--show CARD" not in cli_md and "--show 'PLAYER: C1, C2, C3'" in cli_md


def test_wordle_suggestion_is_in_plain_words_with_the_scores_in_json(tmp_path):
    path = _file(tmp_path, 'game = "wordle"\n[[guess]]\nword = "CRANE"\nfeedback = "BBBBB"\n')
    data = json.loads(run_cli(["suggest", path, "--json"]).out)
    text = run_cli(["suggest", path]).out
    assert data["scores"]["sum"] and data["scores"]["gini"] is not None  # technical scores: --json
    assert re.search(r"(sum|max|gini|entropy|information) \d|classes", text) is None  # no scores by name
    average = decimal(Fraction(data["scores"]["sum"], data["count"]))
    assert f"Next guess: {data['suggestion']}" in text
    assert f"on average {average} of them stay possible, at worst {data['scores']['max']}" in text
    assert f"into {data['scores']['classes']} groups" in text


def test_mastermind_ties_are_listed(tmp_path):
    data = json.loads(run_cli(["suggest", "example:mastermind/knuth", "--json"]).out)
    text = run_cli(["suggest", "example:mastermind/knuth"]).out
    assert len(data["tied"]) > 1 and f"({len(data['tied'])} tie" in text
    assert all(w in text for w in data["tied"])


def test_a_guess_outside_the_word_list_gets_a_note(tmp_path):
    path = _file(tmp_path, 'game = "wordle"\n[[guess]]\nword = "XYZZY"\nfeedback = "BBBBB"\n')
    res = run_cli(["solve", path])
    assert res.code == 0 and "guess[1].word: XYZZY is not in the word list" in res.err
    ok = run_cli(["solve", _file(tmp_path, 'game = "wordle"\n[[guess]]\nword = "CRANE"\nfeedback = "BBBBB"\n',
                                 "ok.toml")])
    assert "note:" not in ok.err


def test_every_cut_list_says_how_to_see_it_whole(tmp_path):
    path = _file(tmp_path, 'game = "wordle"\n[[guess]]\nword = "CRANE"\nfeedback = "BBBBB"\n')
    data = json.loads(run_cli(["solve", path, "--json"]).out)
    text = run_cli(["solve", path]).out
    assert data["count"] > 60 and f"({data['count'] - 60} more: --json lists them all)" in text
    clue = run_cli(["solve", "example:clue/classic-3-players", "--probabilities"]).out
    rows = json.loads(run_cli(["solve", "example:clue/classic-3-players", "--probabilities", "--json"]).out)
    rest = len(rows["envelope_probabilities"]) - 5
    assert f"... {rest} more envelopes (--json lists them all" in clue
