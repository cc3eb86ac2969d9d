"""Every pointer the tool prints leads somewhere that exists for an installed user: each ``sleuth docs PAGE``
and ``docs/PAGE.md`` in a message of the product (and in the output of the commands that point to pages) names
a page that ships inside the package, and ``sleuth docs`` shows it."""

from __future__ import annotations

import ast
import re

import pytest

from sleuth.registry import all_games
from sleuth.resources import doc_pages, find_doc
from tests.conftest import ROOT, run_cli

POINTER = re.compile(r"sleuth docs ([A-Za-z][\w-]*)|docs/([\w-]+)\.md")


def _pointers(text: str) -> set[str]:
    return {a or b for a, b in POINTER.findall(text)} - {"PAGE", "GAME"}


def _product_strings() -> dict[str, str]:
    """Every string constant of the product's code that is not a docstring, by place."""
    found = {}
    for path in sorted((ROOT / "solver").rglob("*.py")) + sorted((ROOT / "models").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(n.body[0].value) for n in ast.walk(tree)
                      if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and n.body and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                found[f"{path.relative_to(ROOT)}:{node.lineno}"] = node.value
    return found


def test_every_page_named_in_the_code_ships():
    pages = doc_pages()
    missing = {place: name for place, text in _product_strings().items() for name in _pointers(text)
               if name not in pages}
    assert not missing, missing


@pytest.mark.parametrize("args", [["games"], *(["games", g.name] for g in all_games()),
                                  *(["new", g.name] for g in all_games()), ["docs"], ["--help"]],
                         ids=lambda a: " ".join(a))
def test_every_page_a_command_points_to_is_shown(args):
    res = run_cli(args)
    assert res.code == 0, res.err
    for name in _pointers(res.out + res.err):
        shown = run_cli(["docs", name])
        assert shown.code == 0 and shown.out.startswith("#"), (args, name, shown.err)


def test_every_game_has_its_page_and_docs_shows_it_by_game_name():
    for game in all_games():
        assert game.page in doc_pages(), game.name
        for key in (game.name, *game.aliases):
            assert find_doc(key).name == f"{game.page}.md"


def test_docs_lists_pages_and_refuses_an_unknown_one():
    listing = run_cli(["docs"]).out
    assert all(name in listing for name in doc_pages())
    res = run_cli(["docs", "nosuchpage"])
    assert res.code == 2 and "unknown page 'nosuchpage'" in res.err and "clue" in res.err
    path = run_cli(["docs", "clue", "--path"]).out.strip()
    assert path.endswith("clue.md")
