"""docs/architecture.md is a true map: its list of modules names every module of the engine (solver/ and its
packages) and every game package, and nothing that does not exist."""

from __future__ import annotations

import re

from tests.conftest import ROOT

START, END = "The engine, `solver/`", "## A game is one object"


def _listed() -> set[str]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert START in text and END in text
    section = text.split(START, 1)[1].split(END, 1)[0]
    return {t for t in re.findall(r"`([^`]+)`", section) if re.fullmatch(r"\w+\.py|\w+/", t)}


def _tree() -> set[str]:
    solver = ROOT / "solver"
    names = {p.name for p in solver.glob("*.py")} | {p.name for p in solver.glob("*/*.py")}
    names |= {f"{p.name}/" for p in solver.iterdir() if (p / "__init__.py").exists()}
    names |= {f"{p.name}/" for p in (ROOT / "models").iterdir() if (p / "game.py").exists()}
    return (names - {"__init__.py"}) | {"models/"}


def test_every_module_is_on_the_map() -> None:
    assert sorted(_tree() - _listed()) == []


def test_nothing_on_the_map_is_missing_from_the_tree() -> None:
    assert sorted(_listed() - _tree()) == []
