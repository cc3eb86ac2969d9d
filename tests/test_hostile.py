"""Hostile input: every generated case ends in a clean refusal (exit 2, one line) or a reported timeout (exit 3).

The cases come from :mod:`tests.hostile_cases`.  Most run in-process; resource bombs run the CLI in a
subprocess under RLIMIT_AS = 1 GB and a 30 s wall-clock limit.  Each checks: the exit status, one line on
stderr (notes aside) and no traceback, nothing on stdout for a refusal, bounded time, the input unchanged.
"""

from __future__ import annotations

import hashlib
import os
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import PUZZLES, ROOT, run_cli
from tests.hostile_cases import SAMPLES, Case, all_cases, binary_cases, bombs, write

CASES = all_cases() + list(binary_cases())
WALL = 30.0
ADDRESS_SPACE = 1024 ** 3


def _args(case: Case, tmp_path: Path) -> tuple[list[str], Path | None]:
    path = write(case, tmp_path)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"game = \"clue\"\n\xff\xfe\x00garbage")
    subst = {"{file}": str(path), "{dir}": str(tmp_path), "{binary}": str(binary)}
    return [subst.get(a, a) for a in case.args], path


def _digest(path: Path | None) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else None


def _check(case: Case, code: int, out: str, err: str, seconds: float) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("sleuth: note:")]
    assert "Traceback" not in err, err[-2000:]
    assert code == case.expect, (code, out[-500:], err[-1000:])
    if case.expect == 2:
        # argparse prints its usage line before the one-line message
        message = [ln for ln in lines if not ln.startswith("usage:") and not ln.startswith("  ")]
        assert len(message) == 1, err[-2000:]
        assert out == "", out[-500:]
    else:
        assert len(lines) <= 1, err[-2000:]
    assert seconds < WALL, seconds


def test_the_suite_is_large_and_covers_every_game() -> None:
    ids = [c.case_id for c in CASES]
    assert len(ids) == len(set(ids))
    assert len(CASES) + len(bombs()) >= 300
    games = Counter(c.name.split("-")[0] for c in CASES)
    for game in ("clue", "egghead", "motus", "wordle", "mastermind", "mascarade", "cardguess", "epistemic"):
        assert games[game] >= 20, (game, games[game])


@pytest.mark.parametrize("game", list(SAMPLES))
def test_unmutated_samples_load_from_a_temporary_folder(game: str, tmp_path: Path) -> None:
    """The baseline: each sample is valid where the cases are written, so a refusal is the mutation's."""
    path = tmp_path / "case.toml"
    path.write_text((PUZZLES / SAMPLES[game]).read_text(encoding="utf-8"), encoding="utf-8")
    res = run_cli(["solve", path])
    assert res.code == 0, res.err


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.case_id)
def test_hostile_case_in_process(case: Case, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if case.pending:
        request.applymarker(pytest.mark.xfail(reason=case.pending, strict=False))
    args, path = _args(case, tmp_path)
    before = _digest(path)
    old = {k: os.environ.get(k) for k in case.env}
    os.environ.update(case.env)
    try:
        start = time.monotonic()
        res = run_cli(args)
        seconds = time.monotonic() - start
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    _check(case, res.code, res.out, res.err, seconds)
    assert _digest(path) == before


@pytest.mark.parametrize("value", [0, -1, 0.0, float("nan"), float("inf"), "soon", True])
def test_time_limit_refused_by_every_game_api(value: object) -> None:
    from sleuth.errors import PuzzleError
    from sleuth.puzzle import load_puzzle

    for sample in SAMPLES.values():
        with pytest.raises(PuzzleError, match="time-limit"):
            load_puzzle(PUZZLES / sample).solve(options={"time-limit": value})


def _limits() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_limited(args: list[str], env: dict[str, str], stdin: str | None = None) -> tuple[int, str, str, float, int]:
    """The CLI in a subprocess under 1 GB of address space: exit status, output, seconds, peak RSS (KB)."""
    start = time.monotonic()
    with open(stdin or os.devnull, "rb") as source:
        proc = subprocess.run([sys.executable, "-m", "sleuth", *args], capture_output=True, text=True,
                              timeout=WALL + 15, cwd=ROOT, env={**os.environ, **env}, preexec_fn=_limits,
                              stdin=source)
    seconds = time.monotonic() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return proc.returncode, proc.stdout, proc.stderr, seconds, peak


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c.slow else c for c in bombs()],
                         ids=lambda c: c.case_id)
def test_resource_bomb_in_subprocess(case: Case, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if case.pending:
        request.applymarker(pytest.mark.xfail(reason=case.pending, strict=False))
    args, path = _args(case, tmp_path)
    before = _digest(path)
    code, out, err, seconds, peak = run_limited(args, case.env, case.stdin)
    print(f"{case.case_id}: exit {code}, {seconds:.1f} s, peak RSS of children so far {peak // 1024} MB")
    _check(case, code, out, err, seconds)
    assert _digest(path) == before
