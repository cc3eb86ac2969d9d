"""Clue's compiled kernels warmed up for ``sleuth cache compile`` (the declaration's ``kernels``).

Its own module because it reaches both the counting passes (:mod:`.counting`) and the advice (:mod:`.suggest`,
which builds on them): the lower module never calls the upper one.
"""

from __future__ import annotations

from sleuth.loading import loads
from sleuth.resources import find_example

from .counting import split_kernel
from .suggest import advice_kernel


def compile_kernels() -> None:
    """``sleuth cache compile``: Clue's kernels (the split passes and the advice's inner loop), loaded, and compiled
    where the cache lacks them, by the bundled example whose answers need them all: what the others know, the
    advice, and which card to show."""
    split_kernel()  # loaded first: the passes below then run compiled from KERNEL_FROM entries (not COLD_KERNEL_WORK)
    advice_kernel()
    example = find_example("clue/master-detective")
    puzzle = loads(example.text(), name=example.ref)
    puzzle.solve(options={"others": True})
    puzzle.suggest(method="information", options={})
    puzzle.suggest(method="information", options={"show": "Dan: White, Wrench, Trophy Room"})
