"""A game is one package implementing the interface, found through the ``sleuth.games`` entry points."""

from __future__ import annotations

import json
import sys

import pytest

from tests.conftest import run_cli
from tests.toygame import all_worlds

FILE = """game = "toy"
[[fact]]
position = 1
not = "A"
[[fact]]
position = 2
not = "B"
[[claim]]
text = "position 3 holds C"
expect = "open"
"""




@pytest.mark.parametrize("backend", ["cpsat", "python-constraint"])
def test_plugin_game_solves_like_brute_force(registered, tmp_path, backend):
    f = tmp_path / "toy.toml"
    f.write_text(FILE, encoding="utf-8")
    res = run_cli(["solve", f, "--json", "--backend", backend])
    assert res.code == 0, res.err
    got = json.loads(res.out)["valids"]
    from sleuth import load_puzzle

    puzzle = load_puzzle(f)
    expected = sorted([["ABC"[c] for c in w] for w in all_worlds() if puzzle.check(w)])
    assert got == expected and len(got) == 3
    assert run_cli(["verify", f, "--backend", backend, "--claim", "position 1 holds A"]).out.count("refuted")


def test_plugin_game_is_listed_with_its_spec(registered, tmp_path):
    assert "three-cards" in run_cli(["games"]).out
    assert "position <n> holds <card>" in run_cli(["games", "toy"]).out
    f = tmp_path / "bad.toml"
    f.write_text(FILE.replace("not = \"A\"", "nor = \"A\""), encoding="utf-8")
    res = run_cli(["solve", f])
    assert res.code == 2 and "allowed: not, position" in res.err


IMPOSTOR = None  # set below: a plug-in that claims a built-in name


def test_plugin_cannot_take_a_builtin_name(monkeypatch):
    from sleuth import registry
    from sleuth.game import Game

    monkeypatch.setattr(sys.modules[__name__], "IMPOSTOR", Game("clue", "an impostor", "tests.toygame"))
    real = registry.plugin_points(registry.ENTRY_POINT_GROUP)
    monkeypatch.setattr(registry, "plugin_points",
                        lambda group: [("impostor", "clue", "tests.e2e.test_plugin_game:IMPOSTOR"), *real])
    assert [g.package for g in registry.all_games() if g.name == "clue"] == ["sleuth.models.clue"]
    assert registry.find_game("clue").package == "sleuth.models.clue"


def test_builtin_games_are_registered_as_entry_points():
    """The built-in games come through the same entry points as a plug-in, each one its package's GAME."""
    from sleuth import registry

    points = [p for p in registry.plugin_points(registry.ENTRY_POINT_GROUP) if p[0] == "sleuth"]
    assert {name for _, name, _ in points} == {g.name for g in registry.builtin_games()}
    assert all(target.startswith(f"sleuth.models.{g.package.rsplit('.', 1)[-1]}.game:")
               for (_, _, target), g in zip(points, registry.builtin_games(), strict=True))


def test_an_option_is_declared_once_in_the_game(registered, tmp_path):
    """The toy game declares one flag for solve: the command line offers it, solve reads it, and another
    command refuses it, naming what that command takes; no engine file names the game or its option."""
    f = tmp_path / "toy.toml"
    f.write_text(FILE, encoding="utf-8")
    assert "--first" in run_cli(["solve", "--help"]).out
    assert "--first" not in run_cli(["verify", "--help"]).out
    every = json.loads(run_cli(["solve", f, "--json"]).out)["valids"]
    first = run_cli(["solve", f, "--json", "--first"])
    assert first.code == 0 and json.loads(first.out)["valids"] == every[:1] and len(every) > 1
    refused = run_cli(["verify", f, "--set", "first=1"])
    assert refused.code == 2 and "option --first does not apply to verify" in refused.err


@pytest.mark.parametrize("backend", ["cpsat", "python-constraint"])
def test_plugin_statements_combine_in_the_claim_language(registered, tmp_path, backend):
    """The game gives one statement; the engine's claim language combines it, judged like brute force."""
    from sleuth import load_puzzle
    from sleuth.claims import evaluate, parse
    from sleuth.results import ClaimSpec

    f = tmp_path / "toy.toml"
    f.write_text(FILE, encoding="utf-8")
    puzzle = load_puzzle(f)
    worlds = [w for w in all_worlds() if puzzle.check(w)]
    texts = ["position 1 holds B or position 1 holds C", "position 3 holds C implies position 1 holds B",
             "not (position 2 holds A and position 3 holds C)", "position 1 holds A or position 2 holds B"]
    results = puzzle.verify([ClaimSpec(t) for t in texts], backend=backend)
    for text, result in zip(texts, results, strict=True):
        claim = parse(text)
        truths = {evaluate(claim, lambda a, w=w: w[puzzle.statement(a.text)[0]] == puzzle.statement(a.text)[1])
                  for w in worlds}
        expected = "entailed" if truths == {True} else "refuted" if truths == {False} else "open"
        assert result.verdict.value == expected, (text, result)
    assert {r.verdict.value for r in results} == {"entailed", "open", "refuted"}
    bad = run_cli(["verify", f, "--claim", "position 1 holds A and (position 2 holds B"])
    assert bad.code == 2 and "expected ')'" in bad.err and "--claim[1]" in bad.err


def test_the_engine_names_no_game():
    """The engine's code (strings and names, docstrings and comments aside) names no built-in game: everything
    it knows of a game comes from the game's declaration."""
    import ast

    from sleuth import registry
    from tests.conftest import ROOT

    names = {key for g in registry.builtin_games() for key in (g.name, *g.aliases)}
    found = []
    for path in sorted((ROOT / "solver").glob("*.py")) + sorted((ROOT / "solver" / "backends").glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)
                      and isinstance(node.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                text: str | None = node.value.casefold()
            else:  # an identifier: the game's own spelling (EPISTEMIC, the formula language's operators, is not one)
                text = node.id if isinstance(node, ast.Name) else None
            if text is not None and (text in names or any(f"models.{n}" in text for n in names)):
                found.append(f"{path.name}:{node.lineno}: {text!r}")
    assert not found, found
