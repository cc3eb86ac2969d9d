"""The README's commands and examples, and the docstring examples of the engine, run as tests."""

from __future__ import annotations

import doctest
import importlib
import re

import pytest

from tests.conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


def test_ci_runs_the_readme_test_command():
    commands = [b.strip() for b in code_blocks("sh") if "pytest" in b and "venv" in b]
    assert commands, "README has no test command"
    ci = (ROOT / ".ci" / "run").read_text()
    assert commands[0] in ci


def test_readme_main_command_uses_a_bundled_puzzle():
    (main,) = [b.strip() for b in code_blocks("sh") if "venv" in b and "sleuth solve" in b]
    path = main.split("sleuth solve", 1)[1].split()[0]
    assert (ROOT / path).is_file()


def test_readme_python_example_runs(monkeypatch, capsys):
    monkeypatch.chdir(ROOT)
    for block in code_blocks("python"):
        exec(compile(block, "README.md", "exec"), {})  # the README's own example, as a user would run it
    assert "entailed" in capsys.readouterr().out


@pytest.mark.parametrize("module", ["sleuth.bench", "sleuth.schema", "sleuth.model", "sleuth.hitting", "sleuth.formula",
                                    "sleuth.epistemic", "sleuth.explain", "sleuth.claims", "sleuth.derive",
                                    "sleuth.spec"])
def test_docstring_examples(module):
    result = doctest.testmod(importlib.import_module(module))
    assert result.attempted > 0 and result.failed == 0
