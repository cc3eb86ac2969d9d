"""The CI scripts fail when what they check fails: each is broken on purpose in a scratch copy.

.ci/run stops at a failing install (no test, lint or smoke step after it); .ci/verify-examples (the wheel
smoke's check) fails unless it verified every listed example; .ci/count-tests fails when no test ran, or when
a test was skipped for a reason tests/README.md does not accept.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.helpers.scripts import command_lines

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


SKIPS = ('<testsuite tests="4" failures="0" errors="0" skipped="3">'
         '<testcase classname="t" name="a"/>'
         '<testcase classname="t" name="b"><skipped type="pytest.skip" message="{reason}">t.py:3: {reason}'
         '</skipped></testcase>'
         '<testcase classname="t" name="c"><skipped type="pytest.xfail" message="a known gap"/></testcase>'
         '<testcase classname="" name="t2"><skipped message="collection skipped">'
         "('t2.py', 2, 'Skipped: {module}')</skipped></testcase></testsuite>")


@pytest.mark.parametrize(("reason", "module", "code"), [
    ("named pipes", "setrlimit (Linux)", 0),   # both on the list (a prefix of the reason is enough)
    ("python-constraint ran past its 20 s budget (a labelled timeout)", "named pipes", 0),
    ("numba is not installed", "named pipes", 1),   # an installed engine's test must run
    ("named pipes", "could not import 'oxidd': No module named 'oxidd'", 1),   # a whole module skipped
])
def test_count_tests_fails_on_a_skip_it_does_not_accept(tmp_path: Path, reason: str, module: str,
                                                       code: int) -> None:
    """A skip passes only with a reason from tests/README.md's list; a strict xfail is counted apart."""
    report = tmp_path / "report.xml"
    report.write_text(f"<testsuites>{SKIPS.format(reason=reason, module=module)}</testsuites>", encoding="utf-8")
    proc = subprocess.run([sys.executable, str(CI / "count-tests"), str(report)], capture_output=True, text=True)
    assert proc.returncode == code, (proc.stdout, proc.stderr)
    assert proc.stdout == "4 tests: 1 passed, 2 skipped, 1 xfailed, 0 failed, 0 errors\n"
    unlisted = module if code and "oxidd" in module else reason
    assert (unlisted in proc.stderr) == bool(code), proc.stderr


def test_the_accepted_skips_name_no_missing_package() -> None:
    """The list CI accepts is about the platform or the machine: no reason says a package is not installed."""
    text = (ROOT / "tests" / "README.md").read_text(encoding="utf-8")
    block = text.split("<!-- allowed-skips -->", 1)[1].split("<!-- /allowed-skips -->", 1)[0]
    reasons = [r for r in block.split("`")[1::2]]
    assert reasons and not [r for r in reasons if "install" in r or "import" in r], reasons


def test_ci_replays_the_same_property_examples() -> None:
    """.ci/run exports CI before the tests; with CI set, tests/conftest.py loads a derandomized profile."""
    lines = command_lines(CI / "run")
    assert lines.index(["export", "CI=true"]) < lines.index(["python", "-m", "pytest", "-q"])
    code = "import tests.conftest; from hypothesis import settings; print(settings().derandomize)"
    plain = {k: v for k, v in os.environ.items() if k != "CI"}
    for env, want in (({**plain, "CI": "true"}, "True"), (plain, "False")):
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, env=env)
        assert proc.stdout.strip() == want, proc.stderr
