"""The hostile-input survey's three long runs (issue 48): each answered exactly or refused in one line."""

from __future__ import annotations

import subprocess
import sys

import pytest

from sleuth.loading import load_data
from tests.conftest import run_cli

WIDE3 = ('game = "epistemic"\nconstraints = ["x + y + z > 5"]\n[variables]\nx = "1..1000"\ny = "1..1000"\n'
         'z = "1..1000"\n[agents]\nS = ["x + y"]\n')


def test_three_variables_of_a_thousand_values_past_the_solver_limit_are_refused_before_enumerating(tmp_path):
    """10^9 worlds on the solver path: a sample of the product shows the constraints leave far more worlds
    than the enumeration may list."""
    f = tmp_path / "wide.toml"
    f.write_text(WIDE3, encoding="utf-8")
    res = run_cli(["solve", f, "--method", "model"])
    assert res.code == 2 and len(res.err.strip().splitlines()) == 1, res.err
    assert "worlds satisfy the constraints" in res.err and "200,000" in res.err and "max_worlds" in res.err


def test_the_sample_does_not_refuse_what_the_solver_can_list(tmp_path):
    """Constraints that leave few worlds: the enumeration runs and answers (the sample finds under 100)."""
    f = tmp_path / "narrow.toml"
    f.write_text(WIDE3.replace("x + y + z > 5", "x + y + z < 8"), encoding="utf-8")
    res = run_cli(["solve", f, "--method", "model", "--json"])
    assert res.code == 0 and '"count": 35' in res.out, res.err   # x + y + z <= 7 over positive integers: C(7, 3)


def test_three_variables_of_a_thousand_values_are_symbolic_under_auto():
    pytest.importorskip("oxidd")
    doc = {"game": "epistemic", "constraints": ["x + y + z > 5"],
           "variables": {"x": "1..1000", "y": "1..1000", "z": "1..1000"}, "agents": {"S": ["x + y"], "P": ["z"]},
           "announcement": [{"formula": "knows(S, z > 3) or not knows(P)"}]}
    report = load_data(doc, file="<wide>").solve()
    # P never knows z (x + y never fixes it); the constraint removes x + y + z <= 5: 10 worlds
    assert report.fields["method"] == "symbolic" and report.fields["count"] == 10 ** 9 - 10


def test_symbolic_under_a_small_address_space_is_refused_in_one_line(tmp_path):
    pytest.importorskip("oxidd")
    f = tmp_path / "wide.toml"
    f.write_text(WIDE3, encoding="utf-8")
    code = ("import resource, sys; resource.setrlimit(resource.RLIMIT_AS, (1 << 30, resource.RLIM_INFINITY)); "
            "from sleuth.cli import run; sys.argv = ['sleuth'] + sys.argv[1:]; run()")
    proc = subprocess.run([sys.executable, "-c", code, "solve", str(f), "--method", "symbolic"], capture_output=True,
                          text=True, check=False, timeout=120)
    assert proc.returncode == 2 and "address space" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1, \
        proc.stderr[-2000:]
    proc = subprocess.run([sys.executable, "-c", code, "solve", str(f)], capture_output=True, text=True, check=False,
                          timeout=120)
    assert proc.returncode == 2 and "worlds satisfy the constraints" in proc.stderr, proc.stderr[-2000:]
    roomy = code.replace("1 << 30", "3 << 30")   # room for the manager: auto picks it and answers
    proc = subprocess.run([sys.executable, "-c", roomy, "solve", str(f), "--json"], capture_output=True, text=True,
                          check=False, timeout=120)
    assert proc.returncode == 0 and '"method": "symbolic"' in proc.stdout, proc.stderr[-2000:]


def test_rounds_after_a_round_that_removed_nothing_are_the_same_state():
    """The rounds of a repeated announcement that no longer changes anything are reported, not computed: the
    trace equals applying the announcement round by round."""
    base = {"game": "epistemic", "variables": {"x": "1..12", "y": "1..12"}, "agents": {"S": ["x + y"], "P": ["x"]},
            "actual": {"x": 3, "y": 7}}
    for formula in ("not knows(S)", "not knows(P) or x > 6", "knows(S) or x + y > 9"):
        long = load_data({**base, "announcement": [{"formula": formula, "repeat": 40}]}, file="<rep>").solve()
        one = [{"formula": formula}] * 40
        step = load_data({**base, "announcement": one}, file="<one>").solve()
        assert [r["worlds"] for r in long.fields["steps"]] == [r["worlds"] for r in step.fields["steps"]]
        assert long.fields["worlds"] == step.fields["worlds"]
        assert [r["know"] for r in long.fields["knowers"]] == [r["know"] for r in step.fields["knowers"]]


def test_ten_thousand_rounds_over_a_million_worlds():
    doc = {"game": "epistemic", "variables": {"x": "1..1000", "y": "1..1000"}, "agents": {"S": ["x + y"]},
           "announcement": [{"formula": "not knows(S)", "repeat": 10_000}]}
    report = load_data(doc, file="<rep>").solve()
    assert report.fields["count"] == 10 ** 6 - 2 and len(report.fields["steps"]) == 10_000


def test_the_optimal_suggestion_on_a_large_deck_is_refused_at_its_state_limit(tmp_path, monkeypatch):
    from sleuth.models.cardguess import state

    monkeypatch.setattr(state, "MAX_STATES", 2_000)
    f = tmp_path / "deck.toml"
    f.write_text('game = "cardguess"\ndeck = { A = 28, B = 28, C = 28, D = 28 }\n', encoding="utf-8")
    res = run_cli(["suggest", f])
    assert res.code == 2 and len(res.err.strip().splitlines()) == 1, res.err
    assert "too large for the exact optimal strategy" in res.err and "--method greedy" in res.err
    assert run_cli(["suggest", f, "--method", "greedy"]).code == 0
