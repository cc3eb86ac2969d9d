"""The import rules of the house: the front ends over the games over the engine, no game importing another, no
import circle (imports under TYPE_CHECKING aside), no private name imported across modules.

The contracts are import-linter's, in pyproject.toml ([tool.importlinter]), run by CI as .ci/lint-imports; here
they are run too, and broken on purpose in a scratch copy of the package tree to show that they fail.
"""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

pytest.importorskip("importlinter", reason="import-linter is not installed (the 'test' extra)")

LINT_IMPORTS = [sys.executable, "-c", "import sys; from importlinter.cli import lint_imports_command; "
                "sys.exit(lint_imports_command())"]


def _tree(folder: Path) -> Path:
    """The package laid out as `sleuth` under ``folder`` (what .ci/lint-imports and .ci/mypy read)."""
    subprocess.run(["bash", str(ROOT / ".ci" / "package-tree"), str(folder)], check=True)
    return folder


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run([*LINT_IMPORTS, "--no-cache"], cwd=ROOT, env=env, capture_output=True, text=True)


def test_the_import_contracts_hold(tmp_path: Path) -> None:
    proc = _lint(_tree(tmp_path))
    assert proc.returncode == 0 and "4 kept, 0 broken" in proc.stdout, proc.stdout + proc.stderr


def test_no_import_circle_among_the_modules(tmp_path: Path) -> None:
    """Every module of `sleuth` (the games too): the import graph's strongly connected parts are single modules."""
    code = ("import json, grimp, networkx as nx\n"
            "g = grimp.build_graph('sleuth', exclude_type_checking_imports=True, cache_dir=None)\n"
            "d = nx.DiGraph((m, i) for m in g.modules for i in g.find_modules_directly_imported_by(m))\n"
            "print(json.dumps([len(g.modules), [sorted(c) for c in nx.strongly_connected_components(d) "
            "if len(c) > 1]]))\n")
    env = {**os.environ, "PYTHONPATH": str(_tree(tmp_path))}
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    modules, circles = json.loads(proc.stdout)
    assert modules > 100 and circles == []


def _own_copy(tree: Path, module: str) -> Path:
    """``module`` (a path under ``tree``/sleuth) made a real copy, each folder on the way a real folder of links
    into the checkout: what is written there changes the scratch tree, never the checkout."""
    here = tree / "sleuth"
    for part in Path(module).parts:
        here = here / part
        if here.is_symlink():
            target = here.resolve()
            here.unlink()
            if target.is_dir():
                here.mkdir()
                for child in target.iterdir():
                    (here / child.name).symlink_to(child)
            else:
                shutil.copyfile(target, here)
    assert not here.is_symlink() and here.resolve().is_relative_to(tree.resolve())
    return here


@pytest.mark.parametrize(("module", "line", "broken"), [
    ("limits.py", "from . import backends", "no import circle"),   # backends imports limits
    ("models/clue/sheet.py", "from . import suggest", "no import circle"),   # suggest imports sheet
    ("errors.py", "from .models.clue import state", "front ends over games over the engine"),
    ("models/motus/words.py", "from ..clue import state", "a game imports no other game"),
])
def test_a_deliberate_break_fails_the_contracts(tmp_path: Path, module: str, line: str, broken: str) -> None:
    """One import added to a copy of one module: the contract it breaks says so, and lint-imports fails."""
    tree = _tree(tmp_path)
    path = _own_copy(tree, module)
    path.write_text(path.read_text(encoding="utf-8") + f"\n{line}\n", encoding="utf-8")
    proc = _lint(tree)
    assert proc.returncode != 0, proc.stdout
    assert broken in proc.stdout and "BROKEN" in proc.stdout.split(broken, 1)[1].splitlines()[0], proc.stdout


def _private_imports() -> set[tuple[str, str]]:
    found = set()
    for folder in ("solver", "models"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom):
                    found |= {(path.relative_to(ROOT).as_posix(), a.name) for a in node.names
                              if a.name.startswith("_") and not a.name.startswith("__")}
    return found


def test_no_private_name_is_imported_across_modules() -> None:
    """No `from module import _name` in the product (a private name used elsewhere gets a public name)."""
    assert _private_imports() == set(), "a private name imported from another module: give it a public name"
