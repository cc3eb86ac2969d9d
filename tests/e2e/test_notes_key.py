"""The common ``notes`` key (free text in any game's file, for the companion's notes box) and Clue's ``log`` key
(the companion's play order): accepted, checked for their type, and ignored by every command."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
import tomli_w

from sleuth.loading import load_data
from sleuth.registry import all_games
from sleuth.resources import example_path
from tests.conftest import run_cli

TEMPLATES = sorted({g.template for g in all_games() if g.template})


def solved(data: dict, real: Path) -> dict:
    report = load_data(data, file=str(real)).solve(options={"time-limit": 60})
    return report.to_json()


@pytest.mark.parametrize("ref", TEMPLATES)
def test_notes_are_accepted_and_ignored_by_every_game(ref):
    with example_path(ref) as real:
        data = tomllib.loads(real.read_text(encoding="utf-8"))
        plain = solved(data, real)
        noted = solved({**data, "notes": "Bob bluffs.\nAsk Cat about the Hall."}, real)
    assert noted == plain


def test_notes_and_log_are_checked_then_ignored_by_the_cli(tmp_path):
    with example_path("clue/six-players") as real:
        data = tomllib.loads(real.read_text(encoding="utf-8"))
    plain = tmp_path / "plain.toml"
    plain.write_text(tomli_w.dumps(data), encoding="utf-8")
    kept = tmp_path / "kept.toml"
    log = [f"suggestion {i + 1}" for i in reversed(range(len(data["suggestion"])))]
    kept.write_text(tomli_w.dumps({**data, "notes": "x", "log": log}), encoding="utf-8")
    a = run_cli(["solve", str(plain), "--json", "--probabilities"])
    b = run_cli(["solve", str(kept), "--json", "--probabilities"])
    assert a.code == b.code == 0 and json.loads(a.out) == json.loads(b.out)
    assert "Consistent deals: 2,604" in run_cli(["solve", str(kept), "--probabilities"]).out
    for key, value, place in (("notes", 3, "notes"), ("log", ["suggestion 1", 2], "log[2]")):
        bad = tmp_path / f"bad-{key}.toml"
        bad.write_text(tomli_w.dumps({**data, key: value}), encoding="utf-8")
        out = run_cli(["solve", str(bad)])
        assert out.code == 2 and place in out.err and len(out.err.strip().splitlines()) == 1, out.err
    schema = json.loads(run_cli(["schema", "clue"]).out)
    assert schema["properties"]["notes"]["type"] == "string" and "log" in schema["properties"]
