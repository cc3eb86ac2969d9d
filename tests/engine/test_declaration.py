"""The declaration is what the code reads: its code pointers are checked, derivations dispatched by registration."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from sleuth.errors import InternalError
from sleuth.game import Experiment, Game
from sleuth.registry import all_games

MODELS = Path(__file__).resolve().parents[2] / "models"


@pytest.mark.parametrize("game", all_games(), ids=lambda g: g.name)
def test_every_code_pointer_of_an_installed_game_imports(game: Game) -> None:
    assert game.pointers()
    game.check_modules()
    game.check_code()


def test_a_wrong_function_name_fails_the_check() -> None:
    clue = next(g for g in all_games() if g.name == "clue")
    typo = dataclasses.replace(clue, help="sleuth.models.clue.state:deck_linez")
    typo.check_modules()                      # the module exists: only importing it finds the typo
    with pytest.raises(InternalError, match=r"help = 'sleuth\.models\.clue\.state:deck_linez' names nothing"):
        typo.check_code()


def test_a_wrong_module_fails_when_the_game_registers() -> None:
    clue = next(g for g in all_games() if g.name == "clue")
    typo = dataclasses.replace(clue, experiments=(Experiment("x", "sleuth.models.clue.experimentz:main", "x"),))
    with pytest.raises(InternalError, match="experiment 'x' = 'sleuth.models.clue.experimentz:main' names no module"):
        typo.check_modules()
    with pytest.raises(InternalError, match="names nothing callable"):
        typo.check_code()


def test_a_pointer_without_its_function_fails_at_declaration() -> None:
    with pytest.raises(InternalError, match="warm_kernels = 'tests.toygame.world' is not a 'module:function'"):
        Game("toy2", "a toy", "tests.toygame", warm_kernels="tests.toygame.world")
    older = Game("toy2", "a toy", "tests.toygame", kernels="tests.toygame:load")  # type: ignore[arg-type]
    assert (older.kernels, older.warm_kernels) == ((), "tests.toygame:load")  # a plug-in's warm-up, as before


# -- compiled kernels: declared once, in the game ------------------------------------------------------------------
KERNEL_POLICY = re.compile(r"os\.environ.*_KERNEL|find_spec\(\"numba\"\)|^\s*(import|from) numba\b")


def test_a_kernel_declared_with_a_typo_fails_the_check() -> None:
    clue = next(g for g in all_games() if g.name == "clue")
    split = clue.kernels[0]
    for typo, said in ((dataclasses.replace(split, functions=(*split.functions, "split_layerz")),
                        r"kernels\[0\] \(sleuth\.models\.clue\._split_kernel\) has no function split_layerz"),
                       (dataclasses.replace(split, module="sleuth.models.clue._split_kernelz"),
                        r"kernels\[0\] = 'sleuth\.models\.clue\._split_kernelz:.*' names no module")):
        game = dataclasses.replace(clue, kernels=(typo,))
        with pytest.raises(InternalError, match=said):
            game.check_modules()
            game.check_code()


def test_the_kernel_policy_is_written_once_in_the_engine() -> None:
    """Whether a compiled kernel runs is asked of its declaration (:class:`sleuth.jit.Kernel`): no game reads a
    kernel switch, looks for numba or imports it outside its kernel modules (which numba compiles)."""
    found = [f"{path.relative_to(MODELS)}:{n}: {line.strip()}" for path in sorted(MODELS.rglob("*.py"))
             if not path.name.endswith("_kernel.py")
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if KERNEL_POLICY.search(line)]
    assert found == []
    declared = {k.switch for g in all_games() for k in g.kernels}
    assert {"SLEUTH_CLUE_KERNEL", "SLEUTH_EGGHEAD_KERNEL", "SLEUTH_MOTUS_KERNEL"} <= declared


# -- suggest methods: declared once, checked by the engine ------------------------------------------------------
def _game(name: str) -> Game:
    return next(g for g in all_games() if g.name == name)


def test_declared_suggest_methods_are_what_the_games_implement() -> None:
    from sleuth.models.cardguess.strategies import STRATEGIES
    from sleuth.models.motus.strategy import Method

    for name in ("motus", "wordle", "mastermind"):
        assert [d.name for d in _game(name).suggest_methods] == [m.value for m in Method]
    assert [d.name for d in _game("cardguess").suggest_methods] == list(STRATEGIES)
    assert [_game(g).suggest_method(None).name for g in ("motus", "mastermind", "cardguess", "clue")] == \
        ["sumgini", "max", "optimal", "information"]
    assert _game("mastermind").suggest_method("Knuth").name == "max"
    assert _game("motus").suggest_method("Sum_Gini").name == "sumgini"


@pytest.mark.parametrize(("ref", "allowed"), [("clue/classic-3-players", "information, sampled"),
                                              ("cardguess/seed_example", "greedy, optimal, entropy")])
def test_an_unknown_suggest_method_is_bad_input_naming_the_declared_ones(ref: str, allowed: str) -> None:
    from sleuth import load_puzzle
    from sleuth.errors import UnknownNameError

    puzzle = load_puzzle(f"example:{ref}")
    with pytest.raises(UnknownNameError, match="unknown method 'luck'") as info:
        puzzle.suggest(method="luck")
    assert info.value.place == "--method" and allowed in str(info.value)


def test_a_plugin_may_declare_its_suggest_methods_as_a_table() -> None:
    toy = Game("toy2", "a toy", "tests.toygame", suggest_methods={"first": "the first", "last": "the last"})  # type: ignore[arg-type]
    assert [d.name for d in toy.suggest_methods] == ["first", "last"]
    assert toy.suggest_method(None).name == "first" and toy.suggest_method("LAST").meaning == "the last"
    with pytest.raises(InternalError, match="suggest_default 'middle'"):
        Game("toy3", "a toy", "tests.toygame", suggest_methods=toy.suggest_methods, suggest_default="middle")


# -- derivations: dispatched through what is registered --------------------------------------------------------
STRING_DISPATCH = re.compile(r"\bmethod\s*(==|!=|in\s*\(|not\s+in\s*\()")


def test_no_game_dispatches_a_method_by_comparing_strings() -> None:
    """Each game dispatches its derivations by what it registers (:func:`sleuth.derive.handlers`), its suggest
    methods by :meth:`Game.suggest_method`: no ``method == "rules"`` nor ``method in (...)`` in models/."""
    found = [f"{path.relative_to(MODELS)}:{n}: {line.strip()}" for path in sorted(MODELS.rglob("*.py"))
             for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if STRING_DISPATCH.search(line)]
    assert found == []


def test_code_for_a_derivation_the_game_does_not_register_fails_when_its_module_loads() -> None:
    from sleuth.derive import handlers

    clue = _game("clue")
    assert set(handlers(clue.methods, {"rules": 1, "count": 2})) == {"rules", "count"}
    with pytest.raises(InternalError, match=r"code for 'rule', which is not a registered derivation \(count, "):
        handlers(clue.methods, {"rule": 1})


# -- answer labels: declared once ------------------------------------------------------------------------------
def test_every_answer_of_a_derivation_takes_its_labels_from_one_place() -> None:
    import importlib

    from sleuth.derive import Choice, find_derivation
    from sleuth.results import LABELS, Labelled

    for g in all_games():
        importlib.import_module(g.package + ".puzzle")
    answers = Labelled.__subclasses__()
    assert len(answers) >= 6
    assert all(not set(LABELS) & set(vars(cls).get("__annotations__", {})) for cls in answers)
    assert not [p for p in MODELS.rglob("*.py") if p.name != "review.py"  # a review's per-move `exact` is its own
                and re.search(r"\n    exact: bool\n", p.read_text(encoding="utf-8"))]
    motus = next(cls for cls in answers if cls.__name__ == "SecretAnswer")
    choice = Choice(find_derivation(_game("motus").methods, "model"), "cpsat")
    answer = motus(["ABC"], 1, **choice.fields())  # type: ignore[call-arg]
    assert list(answer.fields()) == ["possible", "count", "method", "exact", "backend"]
    assert (answer.method, answer.exact, answer.backend) == ("model", True, "cpsat")
