"""Golden ``solve --json`` snapshots of every bundled puzzle, so that a change to the JSON contract shows in review.

After an intended change: ``SLEUTH_UPDATE_GOLDEN=1 python -m pytest tests/test_snapshots.py`` rewrites them.
"""

from __future__ import annotations

import json
import os

import pytest

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
    path = GOLDEN / f"{ref}.json"
    if os.environ.get("SLEUTH_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(got, indent=1, ensure_ascii=False, sort_keys=True) + "\n", encoding="utf-8")
    assert path.is_file(), f"no snapshot for {ref}: run with SLEUTH_UPDATE_GOLDEN=1"
    assert got == json.loads(path.read_text(encoding="utf-8")), f"solve --json of {ref} changed"
