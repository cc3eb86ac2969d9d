"""Every puzzle file under puzzles/ carries claims it is known to satisfy: `sleuth verify` must agree."""

from __future__ import annotations

import json
import tomllib

import pytest

from tests.conftest import PUZZLES, run_cli


def puzzle_files():
    """Puzzle files (data files such as question catalogues have no 'game' key and are skipped)."""
    for path in sorted(PUZZLES.rglob("*")):
        if path.suffix == ".toml":
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        elif path.suffix == ".json":
            data = json.loads(path.read_text(encoding="utf-8"))
        else:
            continue
        if isinstance(data, dict) and "game" in data:
            yield path


FILES = list(puzzle_files())


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(PUZZLES)) for p in FILES])
def test_golden_puzzle_claims_hold(path):
    res = run_cli(["verify", path, "--json"])
    assert res.code == 0, res.out[-2000:] + res.err
    claims = json.loads(res.out)["claims"]
    assert claims and all(c["ok"] for c in claims)


def test_every_game_ships_puzzles():
    from sleuth.registry import all_games

    games = {tomllib.loads(p.read_text())["game"] for p in FILES if p.suffix == ".toml"}
    assert games == {g.name for g in all_games()}
