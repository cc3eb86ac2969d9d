"""Hostile input: every generated case ends in a clean refusal (exit 2, one line) or a reported timeout (exit 3).

The cases come from :mod:`tests.hostile_cases`.  Most run in-process; resource bombs run the CLI in a
subprocess under RLIMIT_AS = 1 GB.  Each checks: the exit status, one line on stderr (notes aside) and no
traceback, nothing on stdout for a refusal, bounded work, the input unchanged.  Work is bounded by a step
budget (:data:`STEPS` Python calls, :mod:`tests.steps`), not by seconds; a case that carries a time limit is
bounded by that limit instead, and its check is the timeout's exit status 3.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import resource
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import PUZZLES, ROOT, run_cli
from tests.hostile_cases import SAMPLES, Case, all_cases, binary_cases, bombs, write
from tests.steps import EXCEEDED, StepBudgetExceeded, call_budget

CASES = all_cases() + list(binary_cases())
STEPS = 10 ** 7         # Python calls a case may make (the largest refusal here makes about 1.2 million)
HANG_GUARD = 600        # seconds: a subprocess stuck this long is killed (a guard against a hang, not a measure)
ADDRESS_SPACE = 1024 ** 3


def _time_limited(case: Case) -> bool:
    return any(a.startswith(("--time-limit", "time-limit")) for a in case.args)


def _args(case: Case, tmp_path: Path) -> tuple[list[str], Path | None]:
    path = write(case, tmp_path)
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"game = \"clue\"\n\xff\xfe\x00garbage")
    subst = {"{file}": str(path), "{dir}": str(tmp_path), "{binary}": str(binary)}
    return [subst.get(a, a) for a in case.args], path


def _digest(path: Path | None) -> str | None:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path is not None else None


def _check(case: Case, code: int, out: str, err: str) -> None:
    lines = [ln for ln in err.splitlines() if ln.strip() and not ln.startswith("sleuth: note:")]
    assert "Traceback" not in err, err[-2000:]
    assert code in ({case.expect, 2} if case.or_refused else {case.expect}), (code, out[-500:], err[-1000:])
    if code == 2:
        # argparse prints its usage line before the one-line message
        message = [ln for ln in lines if not ln.startswith("usage:") and not ln.startswith("  ")]
        assert len(message) == 1, err[-2000:]
        assert out == "", out[-500:]
    else:
        assert len(lines) <= 1, err[-2000:]


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
        request.applymarker(pytest.mark.xfail(reason=case.pending, strict=True))
    args, path = _args(case, tmp_path)
    before = _digest(path)
    old = {k: os.environ.get(k) for k in case.env}
    os.environ.update(case.env)
    try:
        with contextlib.nullcontext() if _time_limited(case) else call_budget(STEPS):
            res = run_cli(args)
    except StepBudgetExceeded as exc:
        pytest.fail(f"{case.case_id}: {exc} (work that should have been refused or bounded)")
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    _check(case, res.code, res.out, res.err)
    assert _digest(path) == before


@pytest.mark.parametrize("value", [0, -1, 0.0, float("nan"), float("inf"), "soon", True])
def test_time_limit_refused_by_every_game_api(value: object) -> None:
    from sleuth.errors import PuzzleError
    from sleuth.loading import load_puzzle

    for sample in SAMPLES.values():
        with pytest.raises(PuzzleError, match="time-limit"):
            load_puzzle(PUZZLES / sample).solve(options={"time-limit": value})


def _limits() -> None:  # pragma: no cover - runs in the child
    resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))


def run_limited(args: list[str], env: dict[str, str], stdin: str | None = None,
                steps: int | None = STEPS) -> tuple[int, str, str, int]:
    """The CLI in a subprocess under 1 GB of address space and a budget of ``steps`` Python calls (None: none):
    exit status, output, peak RSS (KB)."""
    command = ["-m", "tests.steps", str(steps)] if steps is not None else ["-m", "sleuth"]
    with open(stdin or os.devnull, "rb") as source:
        proc = subprocess.run([sys.executable, *command, *args], capture_output=True, text=True,
                              timeout=HANG_GUARD, cwd=ROOT, env={**os.environ, **env}, preexec_fn=_limits,
                              stdin=source)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return proc.returncode, proc.stdout, proc.stderr, peak


@pytest.mark.parametrize("case", [pytest.param(c, marks=pytest.mark.slow) if c.slow else c for c in bombs()],
                         ids=lambda c: c.case_id)
def test_resource_bomb_in_subprocess(case: Case, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if case.pending:
        request.applymarker(pytest.mark.xfail(reason=case.pending, strict=True))
    args, path = _args(case, tmp_path)
    before = _digest(path)
    code, out, err, peak = run_limited(args, case.env, case.stdin, None if _time_limited(case) else STEPS)
    print(f"{case.case_id}: exit {code}, peak RSS of children so far {peak // 1024} MB")
    assert code != EXCEEDED, err[-2000:]
    _check(case, code, out, err)
    assert _digest(path) == before


def test_the_step_budget_stops_work_that_was_not_refused(tmp_path: Path) -> None:
    """A real solve under a budget far too small: stopped in-process and in a subprocess (the check can fail)."""
    with pytest.raises(StepBudgetExceeded), call_budget(1000) as count:
        run_cli(["solve", PUZZLES / "clue" / "classic-3-players.toml"])
    assert count[0] == 1001
    with call_budget(STEPS) as count:
        assert run_cli(["solve", PUZZLES / "clue" / "classic-3-players.toml"]).code == 0
    assert 1000 < count[0] < STEPS
    code, _, err, _ = run_limited(["solve", str(PUZZLES / "clue" / "classic-3-players.toml")], {}, steps=1000)
    assert code == EXCEEDED and "more than 1,000 Python calls" in err, err[-2000:]
