"""The CI scripts fail when what they check fails: each is broken on purpose in a scratch copy.

.ci/run stops at a failing install (no test, lint or smoke step after it); .ci/verify-examples (the wheel
smoke's check) fails unless it verified every listed example; .ci/count-tests fails when no test ran.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.e2e.test_readme import command_lines

CI = ROOT / ".ci"
SCRIPTS = sorted(p for p in CI.iterdir() if p.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash"))


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_step_fails_the_script(script: Path) -> None:
    """Strict mode first; no `a && b` chain (a failure before its last command would not stop the script)."""
    lines = command_lines(script)
    assert lines[0] == ["set", "-euo", "pipefail"], script.name
    assert not [line for line in lines if "&&" in line], script.name


def test_a_failing_install_stops_the_run(tmp_path: Path) -> None:
    """A scratch copy whose package cannot be installed: .ci/run exits non-zero before running the tests."""
    shutil.copytree(CI, tmp_path / ".ci")
    shutil.copy(ROOT / "README.md", tmp_path)
    (tmp_path / "pyproject.toml").write_text("[project\nname = 'broken on purpose'\n", encoding="utf-8")
    proc = subprocess.run(["bash", str(tmp_path / ".ci" / "run")], capture_output=True, text=True, cwd=tmp_path,
                          timeout=600)
    assert proc.returncode != 0, proc.stdout[-2000:]
    assert "ci: set-up" in proc.stdout
    assert "pytest" not in proc.stdout.replace("(.ci/setup)", "") and "ci: ruff" not in proc.stdout, proc.stdout


def _fake_sleuth(tmp_path: Path, examples: str, fail_on: str = "", status: int = 0) -> Path:
    """A stand-in for an installed `sleuth`: `examples` prints EXAMPLES (exit STATUS); `verify` fails on FAIL_ON."""
    path = tmp_path / "sleuth"
    path.write_text(f"""#!/usr/bin/env bash
if [ "$1" = examples ]; then printf '{examples}'; exit {status}; fi
if [ "$1" = verify ] && [ "$2" = "example:{fail_on}" ]; then echo "1 claim failed"; exit 1; fi
echo "all claims as expected"
""", encoding="utf-8")
    path.chmod(0o755)
    return path


@pytest.mark.parametrize(("examples", "fail_on", "status", "says"), [
    ("", "", 0, "0 bundled puzzles verified, 0 listed"),
    ("clue/a\nclue/b\n", "", 1, ""),
    ("clue/a\nclue/b\nclue/c\n", "clue/b", 0, "verify example:clue/b failed"),
])
def test_verify_examples_fails_unless_every_example_is_verified(tmp_path: Path, examples: str, fail_on: str,
                                                                 status: int, says: str) -> None:
    proc = subprocess.run(["bash", str(CI / "verify-examples"), str(_fake_sleuth(tmp_path, examples, fail_on,
                                                                                  status))],
                          capture_output=True, text=True)
    assert proc.returncode != 0 and says in proc.stderr, (proc.stdout, proc.stderr)


def test_verify_examples_counts_what_it_verified(tmp_path: Path) -> None:
    proc = subprocess.run(["bash", str(CI / "verify-examples"), str(_fake_sleuth(tmp_path, "clue/a\nclue/b\n"))],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stdout == "2 bundled puzzles verified\n", proc.stderr


@pytest.mark.parametrize(("suites", "code"), [
    ('<testsuite tests="0" failures="0" errors="0" skipped="0"/>', 1),
    ('<testsuite tests="4" failures="0" errors="0" skipped="4"/>', 1),
    ('<testsuite tests="4" failures="1" errors="0" skipped="0"/>', 1),
    ('<testsuite tests="4" failures="0" errors="0" skipped="1"/>', 0),
])
def test_count_tests_fails_when_nothing_passed(tmp_path: Path, suites: str, code: int) -> None:
    report = tmp_path / "report.xml"
    report.write_text(f"<testsuites>{suites}</testsuites>", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(CI / "count-tests"), str(report)], capture_output=True, text=True)
    assert proc.returncode == code, (proc.stdout, proc.stderr)
    assert " tests: " in proc.stdout


def test_ci_replays_the_same_property_examples() -> None:
    """.ci/run exports CI before the tests; with CI set, tests/conftest.py loads a derandomized profile."""
    lines = command_lines(CI / "run")
    assert lines.index(["export", "CI=true"]) < lines.index(["python", "-m", "pytest", "-q"])
    code = "import tests.conftest; from hypothesis import settings; print(settings().derandomize)"
    plain = {k: v for k, v in os.environ.items() if k != "CI"}
    for env, want in (({**plain, "CI": "true"}, "True"), (plain, "False")):
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
        assert proc.stdout.strip() == want, proc.stderr
