"""Clue's compiled kernels warmed up for ``sleuth cache compile`` (the declaration's ``warm_kernels``).

The kernels are declared in :mod:`.game` (``sleuth cache compile`` loads them first); the warm-up runs a bundled
example through the counting passes and the advice (:mod:`.suggest`, which builds on them), so it is a module of
its own: the lower modules never call the upper one.
"""

from __future__ import annotations

from sleuth.loading import loads
from sleuth.resources import find_example

from .game import ADVICE_KERNEL, SPLIT_KERNEL


def compile_kernels() -> None:
    """``sleuth cache compile``: Clue's kernels (the split passes and the advice's inner loop), loaded, and compiled
    where the cache lacks them, by the bundled example whose answers need them all: what the others know, the
    advice, and which card to show (where a player between passed: its shared pass resolves the showings late;
    where nobody passed: one pass per card)."""
    SPLIT_KERNEL.load()  # loaded first: the passes below then run compiled from KERNEL_FROM entries
    ADVICE_KERNEL.load()
    example = find_example("clue/master-detective")
    puzzle = loads(example.text(), name=example.ref)
    puzzle.solve(options={"others": True})
    puzzle.suggest(method="information", options={})
    puzzle.suggest(method="information", options={"show": "Dan: White, Wrench, Trophy Room"})
    puzzle.suggest(method="information", options={"show": "Bob: Scarlet, Knife, Trophy Room"})
