"""The declaration is what the code reads: its code pointers are checked, derivations dispatched by registration."""

from __future__ import annotations

import dataclasses
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
    with pytest.raises(InternalError, match="kernels = 'tests.toygame.world' is not a 'module:function'"):
        Game("toy2", "a toy", "tests.toygame", kernels="tests.toygame.world")
