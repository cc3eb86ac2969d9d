"""Card guessing from the command line: solve / verify / suggest / experiment, plots, and broken input."""

from __future__ import annotations

import json
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import PUZZLES, run_cli

SEED = PUZZLES / "cardguess" / "seed_example.toml"
DATA = Path(__file__).resolve().parents[1] / "data" / "cardguess"


@pytest.mark.parametrize("path", sorted((PUZZLES / "cardguess").glob("*.toml")), ids=lambda p: p.name)
def test_puzzle_claims_hold(path):
    r = run_cli(["verify", path])
    assert r.code == 0, r.out + r.err


def test_solve_json_fields_follow_design():
    r = run_cli(["solve", SEED, "--json"])
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert out["game"] == "cardguess" and out["status"] == "ok"
    assert out["remaining"] == [
        {"composition": {"J": 0, "Q": 1, "K": 2}, "p": "3/10"},
        {"composition": {"J": 1, "Q": 1, "K": 1}, "p": "3/5"},
        {"composition": {"J": 2, "Q": 1, "K": 0}, "p": "1/10"}]
    assert out["next"] == {"J": "4/15", "Q": "1/3", "K": "2/5"}


@pytest.mark.parametrize("method", ["enumerate", "filter"])
def test_solve_methods_agree(method):
    base = json.loads(run_cli(["solve", SEED, "--json"]).out)
    other = json.loads(run_cli(["solve", SEED, "--json", "--method", method]).out)
    assert other["remaining"] == base["remaining"] and other["next"] == base["next"]


def test_suggest_optimal_and_greedy():
    r = run_cli(["suggest", SEED, "--json"])
    out = json.loads(r.out)
    assert out["guess"] == "Q" and out["expected"] == "8/5"
    assert Fraction(out["cards"]["K"]["value"]) < Fraction(out["cards"]["Q"]["value"])
    g = json.loads(run_cli(["suggest", SEED, "--method", "greedy", "--json"]).out)
    assert g["guess"] == "K" and Fraction(g["expected"]) < Fraction(8, 5)
    e = json.loads(run_cli(["suggest", SEED, "--method", "entropy", "--set", "gamma=0.15", "--json"]).out)
    assert e["guess"] == "Q"
    text = run_cli(["suggest", SEED]).out
    assert "Guess Q" in text and "1.6  <- guess" in text  # 8/5 as a decimal (exact in --json)


def test_contradiction_names_conflicting_guesses(tmp_path):
    path = tmp_path / "four_jacks.toml"
    path.write_text('game = "cardguess"\ndeck = { J = 3, Q = 3 }\n'
                    + '[[guess]]\ncard = "Q"\ncorrect = false\n'
                    + '[[guess]]\ncard = "J"\ncorrect = true\n' * 3)
    r = run_cli(["solve", path, "--json"])
    out = json.loads(r.out)
    assert out["status"] == "contradiction"
    assert set(out["conflict"]) == {"deck: 3 J, 3 Q", "guess 1: Q wrong", "guess 2: J right", "guess 3: J right",
                                    "guess 4: J right"}
    v = run_cli(["verify", path, "--claim", "P(next is J) = 0"])
    assert v.code == 4 and "contradiction" in v.out


def test_plot_writes_png(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "posterior.png"
    r = run_cli(["solve", SEED, "--plot", out])
    assert r.code == 0, r.err
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plot_without_matplotlib_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import fails as if not installed
    r = run_cli(["solve", SEED, "--plot", tmp_path / "x.png"])
    assert r.code == 2 and "matplotlib" in r.err and "plot" in r.err and "Traceback" not in r.err


def test_experiment_prints_exact_scores_and_distribution():
    r = run_cli(["experiment", "cardguess", "--deck", "3,3,3", "--strategy", "optimal"])
    assert r.code == 0, r.err
    assert "2383/560" in r.out and "4.255357" in r.out and "score distribution" in r.out
    j = json.loads(run_cli(["experiment", "cardguess", "--deck", "1,1,1,1", "--strategy", "greedy",
                            "--feedback", "complete", "--json"]).out)
    assert j["strategies"]["greedy"]["expected"] == "25/12"  # H_4
    assert sum(Fraction(q) for q in j["strategies"]["greedy"]["distribution"].values()) == 1


def test_experiment_bounds_and_sweep():
    b = run_cli(["experiment", "cardguess", "--bounds"]).out
    assert "lower 4.70" in b and "4021/840" in b
    s = run_cli(["experiment", "cardguess", "--gamma-sweep"]).out
    assert "gamma 0.15          2383/560" in s


@pytest.mark.parametrize("args, place", [
    (["--deck", "3,x"], "--deck"),
    (["--deck", "0,3"], "--deck"),
    (["--strategy", "psychic"], "--strategy"),
    (["--feedback", "maybe"], "experiment cardguess"),
    (["--gamma", "-1"], "--gamma"),
])
def test_experiment_bad_arguments(args, place):
    r = run_cli(["experiment", "cardguess", *args])
    assert r.code == 2 and place in r.err and "allowed" in r.err
    assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err


# -- broken puzzle files: exit 2, one line naming the file, the place and what is allowed ------------------

HEAD = 'game = "cardguess"\n'
DECK = 'deck = { J = 3, Q = 3, K = 3 }\n'
BROKEN = {
    "no_deck": (HEAD, "deck", "is required"),
    "deck_list": (HEAD + "deck = [3, 3]\n", "deck", "allowed"),
    "deck_zero": (HEAD + "deck = { J = 0, Q = 3 }\n", "deck.J", "allowed: 1 to"),
    "deck_text": (HEAD + 'deck = { J = "three" }\n', "deck.J", "expected an integer"),
    "deck_huge": (HEAD + "deck = { J = 100000000000 }\n", "deck.J", "allowed"),
    "deck_twice": (HEAD + "deck = { J = 3, j = 3 }\n", "deck", "listed twice"),
    "feedback": (HEAD + DECK + 'feedback = "some"\n', "feedback", "allowed: partial, complete"),
    "unknown_card": (HEAD + DECK + '[[guess]]\ncard = "A"\ncorrect = true\n', "guess[1].card",
                     "allowed: J, Q, K"),
    "no_correct": (HEAD + DECK + '[[guess]]\ncard = "J"\n', "guess[1].correct", "allowed: true, false"),
    "correct_text": (HEAD + DECK + '[[guess]]\ncard = "J"\ncorrect = "yes"\n', "guess[1].correct",
                     "true or false"),
    "actual_partial": (HEAD + DECK + '[[guess]]\ncard = "J"\ncorrect = true\nactual = "J"\n',
                       "guess[1].actual", "complete feedback"),
    "no_actual": (HEAD + DECK + 'feedback = "complete"\n[[guess]]\ncard = "J"\n', "guess[1].actual",
                  "allowed: J, Q, K"),
    "actual_contradicts": (HEAD + DECK + 'feedback = "complete"\n[[guess]]\ncard = "J"\ncorrect = true\n'
                           'actual = "Q"\n', "guess[1].correct", "allowed: false"),
    "unknown_key": (HEAD + DECK + '[[guess]]\ncard = "J"\ncorrect = true\nshown = "Q"\n', "guess[1].shown",
                    "allowed"),
    "too_many": (HEAD + "deck = { J = 1 }\n" + '[[guess]]\ncard = "J"\ncorrect = true\n' * 2, "guess",
                 "at most 1"),
    "bad_claim": (HEAD + DECK + '[[claim]]\ntext = "J is lucky"\n', "claim[1]", "allowed: P(next is"),
    "claim_card": (HEAD + DECK + '[[claim]]\ntext = "P(next is A) = 1/3"\n', "claim[1]", "allowed: J, Q, K"),
    "claim_value": (HEAD + DECK + '[[claim]]\ntext = "P(next is J) = lots"\n', "claim[1]", "p/q"),
    "claim_method": (HEAD + DECK + '[[claim]]\ntext = "best guess is J"\nmethod = "luck"\n', "claim[1]",
                     "allowed: greedy, optimal"),
    "claim_gamma": (HEAD + DECK + '[[claim]]\ntext = "best guess is J"\nmethod = "entropy"\ngamma = -2\n',
                    "claim[1]", "allowed: 0 to 100"),
    "claim_remaining": (HEAD + DECK + '[[claim]]\ntext = "P(remaining is J=1 Q=1) = 1"\n', "claim[1]",
                        "K=0"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_broken_puzzle_files(tmp_path, name):
    text, place, allowed = BROKEN[name]
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    for command in (["verify", path, "--claim", "P(next is J) = 1/3"], ["solve", path]):
        if name.startswith("claim") or name == "bad_claim":
            command = ["verify", path]
        r = run_cli(command)
        assert r.code == 2, (name, r.out, r.err)
        assert len(r.err.strip().splitlines()) == 1 and "Traceback" not in r.err
        assert str(path) in r.err and place in r.err and allowed in r.err, r.err


@pytest.mark.parametrize("args, text", [
    (["suggest", SEED, "--method", "psychic"], "allowed: greedy, optimal, entropy"),
    (["suggest", SEED, "--method", "entropy", "--set", "gamma=lots"], "p/q"),
    (["solve", SEED, "--method", "guess"], "allowed: auto, count, model, filter"),
    (["solve", SEED, "--set", "colour=red"], "--set colour=VALUE"),
])
def test_bad_options(args, text):
    r = run_cli(args)
    assert r.code == 2 and text in r.err and "Traceback" not in r.err, r.err


def test_deliberately_wrong_claims_fail():
    r = run_cli(["verify", DATA / "wrong_claims.toml"])
    assert r.code == 1
    assert r.out.count("FAIL") == 2
