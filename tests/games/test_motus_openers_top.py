"""Issue 51: the exact totals of every opener below a cut-off (``--all-openers --above N``), built on an earlier
certificate (``--reuse``), against brute force (:func:`tests.helpers.motus.opener_totals`) on small random
dictionaries, normal and hard mode; the ranked table for the docs."""

from __future__ import annotations

from pathlib import Path

import pytest

from sleuth.executor import Executor
from sleuth.models.motus import openers as op

from tests.helpers.motus import INF, opener_totals, random_game


@pytest.mark.parametrize(("seed", "hard", "cap"), [(21, False, 6), (22, True, 6), (23, False, None)])
def test_every_opener_below_the_cut_off_is_exact_and_a_wider_run_reuses_the_narrower(
        tmp_path: Path, seed: int, hard: bool, cap: int | None) -> None:
    game = random_game(seed, answers=11, extra=8)
    truth = opener_totals(game, hard, cap)
    finite = sorted(v for v in truth.values() if v < INF)
    narrow, wide = finite[len(finite) // 4], finite[(3 * len(finite)) // 4]
    first = tmp_path / "first.jsonl"
    out = op.prove_all(game, hard, cap, Executor(quiet=True), above=narrow, certificate=str(first), kernel="python")
    assert out["complete"] and out["reused"] == 0
    assert {e["opener"]: e["total"] for e in out["exact"]} == {w: t for w, t in truth.items() if t <= narrow}
    second = tmp_path / "second.jsonl"
    with Executor(quiet=True) as ex:
        wider = op.prove_all(game, hard, cap, ex, above=wide, certificate=str(second), kernel="python",
                             reuse=str(first))
        done = ex.stats.tasks
    assert {e["opener"]: e["total"] for e in wider["exact"]} == {w: t for w, t in truth.items() if t <= wide}
    head, rows = op.read_certificate(str(first))
    kept = op.reusable(head, rows, wider["beta"])
    assert wider["reused"] == len(kept) and done == len(game[2]) - len(kept)
    assert any(how == "exact" for how, _ in kept.values())
    head2, rows2 = op.read_certificate(str(second))
    p = op.OpenerProver(game, hard, cap, kernel="python")
    for record in rows2:  # every record of the wider certificate, copied or not, derives again at its cut-off
        assert op.recheck(p, head2, record), record
        opener, how, value = record
        assert value == truth[opener] if how == "exact" else head2["beta"] <= value <= truth[opener]
    table = op.ranked_table(wider).splitlines()
    assert len(table) == 2 + len(wider["exact"])
    best = min(finite)
    assert table[2].startswith("| 1 | ") and f"| {best:,} |" in table[2]


def test_a_foreign_certificate_is_refused(tmp_path: Path) -> None:
    a, b = random_game(31, answers=9, extra=5), random_game(32, answers=9, extra=5)
    cert = tmp_path / "a.jsonl"
    op.prove_all(a, True, 6, Executor(quiet=True), certificate=str(cert), kernel="python")
    with pytest.raises(ValueError, match="not this run's game"):
        op.prove_all(b, False, 6, Executor(quiet=True), reuse=str(cert), kernel="python")


def test_a_wrong_reuse_file_is_one_line_before_the_run(tmp_path: Path) -> None:
    from tests.conftest import run_cli

    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"x": 1}\n', encoding="utf-8")
    base = ["experiment", "wordle", "--games", "wordle", "--optimal", "--all-openers", "--reuse"]
    for path, extra, needle in ((bad, [], "as a certificate"), (tmp_path / "none.jsonl", [], "as a certificate"),
                                ("models/motus/data/wordle-openers-normal.jsonl", ["--hard"], "hard False")):
        from tests.conftest import ROOT

        res = run_cli([*base, ROOT / path if isinstance(path, str) else path, *extra])
        assert res.code == 2 and needle in res.err and len(res.err.strip().splitlines()) == 1, res.err
