"""Imported once by the fork server of ``sleuth serve``'s background answers (:mod:`.jobs`) before it forks
them: the games' modules, the compiled kernels of Clue's slow answers (what the others know, advice) where numba
is installed, and what a first answer builds once (one answer of each kind on the bundled Clue example), so
that every child starts with them.  Best effort: what fails here is loaded again by the child that needs it,
which reports any error itself."""

from __future__ import annotations

import contextlib
import importlib


def warm() -> None:
    from ..registry import all_games
    from ..resources import find_example
    from .jobs import run_command

    for game in all_games():
        with contextlib.suppress(Exception):
            importlib.import_module(f"{game.package}.puzzle")
    with contextlib.suppress(Exception):
        from ..models.clue.counting import kernel_available, split_kernel
        from ..models.clue.suggest import advice_kernel

        if kernel_available():
            split_kernel()
            advice_kernel()
    with contextlib.suppress(Exception):
        example = find_example("clue/classic-3-players")
        run_command(example.text(), example.ref, "solve", {"others": True})
        run_command(example.text(), example.ref, "suggest", {"method": "information"})


with contextlib.suppress(Exception):
    warm()
