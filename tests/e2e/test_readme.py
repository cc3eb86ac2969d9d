"""The README's commands and examples, and the docstring examples of the engine, run as tests."""

from __future__ import annotations

import doctest
import importlib
import re
import shlex

import pytest

from tests.conftest import ROOT
from tests.helpers.scripts import command_lines

README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def runs_in_order(steps: list[list[str]], lines: list[list[str]]) -> bool:
    """Whether every step is one of the lines, in this order (other lines may come between)."""
    rest = iter(lines)
    return all(any(line == step for line in rest) for step in steps)


def readme_test_steps() -> list[list[str]]:
    """The README's test command (``a && b && c``) as its steps, each a list of words."""
    commands = [b.strip() for b in code_blocks("sh") if "pytest" in b and "venv" in b]
    assert len(commands) == 1, "README has no test command, or more than one"
    steps: list[list[str]] = [[]]
    for word in shlex.split(commands[0]):
        if word == "&&":
            steps.append([])
        else:
            steps[-1].append(word)
    return steps


def test_ci_runs_the_readme_test_command():
    steps = readme_test_steps()
    assert steps[-1][:3] == ["python", "-m", "pytest"] and len(steps) >= 3
    assert runs_in_order(steps, command_lines(ROOT / ".ci" / "run"))


@pytest.mark.parametrize("script", [
    "# python3 -m venv .venv\n# . .venv/bin/activate\n# pip install -q -e '.[test]'\n# python -m pytest -q\n",
    "echo python3 -m venv .venv && . .venv/bin/activate && pip install -q -e '.[test]' && python -m pytest -q\n",
    "python -m pytest -q\npython3 -m venv .venv\n. .venv/bin/activate\npip install -q -e '.[test]'\n",
    "python3 -m venv .venv\n. .venv/bin/activate\npip install -q -e .\npython -m pytest -q\n",
])
def test_the_ci_check_is_not_fooled(tmp_path, script):
    """Commented out, echoed, out of order or with another install: not the README's test command."""
    path = tmp_path / "run"
    path.write_text("set -euo pipefail\n" + script, encoding="utf-8")
    assert not runs_in_order(readme_test_steps(), command_lines(path))


def test_readme_main_command_uses_a_bundled_puzzle():
    (main,) = [b.strip() for b in code_blocks("sh") if "venv" in b and "sleuth solve" in b]
    path = main.split("sleuth solve", 1)[1].split()[0]
    assert (ROOT / path).is_file()


def test_readme_python_example_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    for block in code_blocks("python"):
        exec(compile(block, "README.md", "exec"), {})  # the README's own example, as a user would run it
    assert "entailed" in capsys.readouterr().out


@pytest.mark.parametrize("module", ["sleuth.timing", "sleuth.schema", "sleuth.model", "sleuth.hitting",
                                    "sleuth.formula", "sleuth.epistemic", "sleuth.explain", "sleuth.claims",
                                    "sleuth.derive", "sleuth.spec"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
