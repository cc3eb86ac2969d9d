"""The tests themselves: named and placed by what they test, sharing helpers through tests/helpers/ (a test
module imports no other test module), and run afresh every time (no cache around a test function)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from tests.conftest import ROOT

TESTS = ROOT / "tests"
# Imports of one test module by another that are still allowed: none (the browser helpers moved to
# tests/helpers/browser.py). This list must stay empty.
KNOWN_TEST_MODULE_IMPORTS: set[tuple[str, str]] = set()
GAMES = ("bulls", "cardguess", "clue", "egghead", "epistemic", "mascarade", "mastermind", "motus", "wordle")


def _modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("*.py") if ".venv" not in p.parts)


def test_no_test_module_imports_another() -> None:
    found = set()
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else \
                [a.name for a in node.names] if isinstance(node, ast.Import) else []
            found |= {(path.relative_to(ROOT).as_posix(), n) for n in names
                      if re.fullmatch(r"tests(\.\w+)*\.test_\w+", n)}
    assert found - KNOWN_TEST_MODULE_IMPORTS == set(), "shared helpers go into tests/helpers/"
    assert KNOWN_TEST_MODULE_IMPORTS - found == set(), "fixed: remove it from KNOWN_TEST_MODULE_IMPORTS"


def test_no_cache_around_a_test_function() -> None:
    """A cached test would not run again when called a second time in the same process."""
    cached = []
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test"):
                for deco in node.decorator_list:
                    text = ast.unparse(deco)
                    if re.search(r"\b(cache|lru_cache|cached_property)\b", text):
                        cached.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} @{text}")
    assert cached == []


def test_files_are_named_by_subject() -> None:
    """No test file is named after an issue or a persona; every file in games/ starts with the game it tests."""
    names = [p.relative_to(TESTS).as_posix() for p in TESTS.rglob("test_*.py")]
    assert [n for n in names if re.search(r"test_(newcomer|issue)", n)] == []
    assert [n for n in names if n.startswith("games/") and not n.removeprefix("games/test_").startswith(GAMES)] == []
