"""Names that do not mislead (issue 47): one class called ``Engine``, "knowledge" for one thing only (what a
player knows in each world: :mod:`sleuth.knowledge`), and a saved companion table called a table, not a game.
The renames are listed here, old name beside new, so a name that comes back fails."""

from __future__ import annotations

import ast
import importlib

import pytest

from tests.conftest import ROOT

SOURCES = [p for folder in ("solver", "models") for p in sorted((ROOT / folder).rglob("*.py"))
           if not p.name.endswith("_kernel.py")]   # compiled kernels keep their loops' names


def _defined(path) -> list[tuple[str, str]]:
    """(kind, name) of every class and function defined in a source file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [(type(n).__name__, n.name) for n in ast.walk(tree)
            if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))]


def test_one_class_is_called_engine() -> None:
    where = [str(p.relative_to(ROOT)) for p in SOURCES for kind, name in _defined(p)
             if kind == "ClassDef" and name == "Engine"]
    assert where == ["solver/engine.py"]


def test_knowledge_names_only_the_knowledge_layer() -> None:
    modules = [str(p.relative_to(ROOT)) for p in SOURCES if "knowledge" in p.stem]
    assert modules == ["solver/knowledge.py"]
    named = [f"{p.relative_to(ROOT)}:{name}" for p in SOURCES if p.stem != "knowledge"
             for _, name in _defined(p) if "knowledge" in name.lower() and name != "common_knowledge"]
    assert named == []   # common knowledge is the epistemic operator over that same layer


RENAMED = [  # module, old name, new name
    ("sleuth.epistemic", "KnowledgeState", "ExplicitState"),
    ("sleuth.epistemic.symbolic", "Engine", "BddManager"),
    ("sleuth.models.mascarade.analysis", "knowledge", "own_card_beliefs"),
    ("sleuth.models.clue.others", "others_knowledge", "chances_others_know"),
    ("sleuth.models.egghead.rounds", "Knowledge", "RoundTables"),
    ("sleuth.models.cardguess.counting", "Knowledge", "Statistic"),
    ("sleuth.serve.store", "GameInfo", "TableInfo"),
    ("sleuth.serve.store", "games_folder", "tables_folder"),
    ("sleuth.serve.store", "MAX_GAME_BYTES", "MAX_TABLE_BYTES"),
    ("sleuth.serve.app", "game_name", "table_name"),
    ("sleuth.serve.validate", "new_game", "new_table"),
]


@pytest.mark.parametrize("module,old,new", RENAMED)
def test_renamed(module: str, old: str, new: str) -> None:
    if module.startswith("sleuth.serve"):
        pytest.importorskip("starlette")
    m = importlib.import_module(module)
    assert hasattr(m, new) and not hasattr(m, old)


def test_the_store_lists_tables() -> None:
    pytest.importorskip("starlette")
    from sleuth.serve.store import Store

    assert hasattr(Store, "tables") and not hasattr(Store, "games")
    assert importlib.import_module("sleuth.epistemic.explicit").ExplicitState.__name__ == "ExplicitState"
