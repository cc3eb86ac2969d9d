"""Imported once by the fork server of ``sleuth serve``'s background answers (:mod:`.jobs`) before it forks
them: the games' modules, then each game's own warm-up routine (its declaration's ``Companion.warm``: compiled
kernels, what a first answer builds once), so that every child starts with them.  Best effort: what fails here
is loaded again by the child that needs it, which reports any error itself."""

from __future__ import annotations

import contextlib
import importlib


def warm() -> None:
    from ..notes import NOTES
    from ..registry import all_games
    from . import jobs  # noqa: F401 - what runs every background answer, loaded once here

    NOTES.disabled = True  # a warm-up's notes are nobody's
    games = all_games()
    for game in games:
        with contextlib.suppress(Exception):
            importlib.import_module(f"{game.package}.puzzle")
    for game in games:
        with contextlib.suppress(Exception):
            game.warm_companion()


with contextlib.suppress(Exception):
    warm()
