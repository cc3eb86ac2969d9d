"""Golden ``solve --json`` snapshots of every bundled puzzle, so that a change to the JSON contract shows in review.

After an intended change: ``SLEUTH_UPDATE_GOLDEN=1 python -m pytest tests/conformance/test_snapshots.py`` rewrites the
snapshots that changed, and each of those tests then fails, naming the file, so that the change is reviewed as a
diff (``git diff tests/golden``) and committed; a second run passes. Regeneration is refused under CI.
"""

from __future__ import annotations

import json
import os

import pytest

from pathlib import Path

from sleuth.resources import examples
from tests.conftest import ROOT, run_cli

GOLDEN = ROOT / "tests" / "golden"


def _normalised(text: str) -> object:
    """The JSON with machine-specific paths (the file a message names) cut to the puzzle's own name."""
    data = json.loads(text)
    return json.loads(json.dumps(data).replace(str(ROOT / "puzzles") + os.sep, "puzzles/"))


@pytest.mark.parametrize("ref", [e.ref for e in examples()])
def test_solve_json_matches_the_snapshot(ref):
    res = run_cli(["solve", f"example:{ref}", "--json"])
    assert res.code in (0, 3, 4), res.err
    got = _normalised(res.out)
    check_snapshot(GOLDEN / f"{ref}.json", got)


def check_snapshot(path: Path, got: object) -> None:
    """``got`` equals the snapshot at ``path``; with ``SLEUTH_UPDATE_GOLDEN=1``, a changed or missing snapshot is
    rewritten and the test fails saying so (never under CI, where regeneration is refused)."""
    update = os.environ.get("SLEUTH_UPDATE_GOLDEN") == "1"
    if update and os.environ.get("CI"):
        pytest.fail("SLEUTH_UPDATE_GOLDEN=1 is refused under CI: regenerate the snapshots locally, review the diff")
    old = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None
    if update and old != got:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
        pytest.fail(f"{path.name}: snapshot {'rewritten' if old is not None else 'written'}: review the diff "
                    "(git diff tests/golden), commit it and run again")
    assert old is not None, f"no snapshot {path.name}: run with SLEUTH_UPDATE_GOLDEN=1"
    assert got == old, f"solve --json changed ({path.name})"


def test_regeneration_writes_then_fails_and_a_change_never_passes(tmp_path, monkeypatch):
    path = tmp_path / "g" / "x.json"
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setenv("SLEUTH_UPDATE_GOLDEN", "1")
    with pytest.raises(pytest.fail.Exception, match="written"):
        check_snapshot(path, {"a": 1})
    check_snapshot(path, {"a": 1})            # unchanged: passes
    with pytest.raises(pytest.fail.Exception, match="rewritten"):
        check_snapshot(path, {"a": 2})
    assert json.loads(path.read_text()) == {"a": 2}
    monkeypatch.delenv("SLEUTH_UPDATE_GOLDEN")
    with pytest.raises(AssertionError, match="changed"):
        check_snapshot(path, {"a": 3})
    assert json.loads(path.read_text()) == {"a": 2}


def test_regeneration_is_refused_under_ci(tmp_path, monkeypatch):
    monkeypatch.setenv("CI", "true")
    monkeypatch.setenv("SLEUTH_UPDATE_GOLDEN", "1")
    with pytest.raises(pytest.fail.Exception, match="refused under CI"):
        check_snapshot(tmp_path / "x.json", {"a": 1})
    assert not (tmp_path / "x.json").exists()
