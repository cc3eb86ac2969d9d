"""Clue's page in the table companion (``sleuth serve``): the data the page reads and the warm-up of the process
the background answers are forked from (both named by the ``Companion`` of :mod:`.game`)."""

from __future__ import annotations

import contextlib
from typing import Any

from .state import CATEGORIES, NAMED_DECKS

WARM_EXAMPLE = "clue/classic-3-players"


def page_info() -> dict[str, Any]:
    """The named decks, by category (``{"decks": {"classic": {"suspects": [...], ...}, ...}}``)."""
    return {"decks": {name: {cat + "s": list(cards) for cat, cards in zip(CATEGORIES, cats, strict=True)}
                      for name, cats in NAMED_DECKS.items()}}


def warm() -> None:
    """Load the compiled kernels of the slow answers (what the others know, advice) where numba is installed,
    then give one answer of each kind on the bundled example, so that what a first answer builds once is
    built before any child is forked.  Best effort: what fails here is loaded again by the child that needs it."""
    from sleuth.loading import loads
    from sleuth.resources import find_example

    from .game import ADVICE_KERNEL, SPLIT_KERNEL

    with contextlib.suppress(Exception):
        if SPLIT_KERNEL.available():
            SPLIT_KERNEL.load()
            ADVICE_KERNEL.load()
    example = find_example(WARM_EXAMPLE)
    with contextlib.suppress(Exception):
        loads(example.text(), name=example.ref).solve(options={"others": True})
    with contextlib.suppress(Exception):
        loads(example.text(), name=example.ref).suggest(method="information", options={})
