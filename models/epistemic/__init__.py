"""Generic epistemic puzzles: variables, constraints, agents who observe expressions, public announcements.

The package has the shape every game has: :mod:`.state` (the file below read into an
:class:`~.state.EpistemicState`), :mod:`.model` (the starting worlds as a declarative model), :mod:`.world`
(the declarative side), :mod:`.puzzle` (solve, verify; the typed answer) and :mod:`.game` (the game's
declaration); the knowledge operators are the engine's (:mod:`sleuth.epistemic`). :mod:`.classic` and
:mod:`.russian` build the classic puzzles in code, :mod:`.reference` is a plain re-implementation for the
tests, :mod:`.experiment` the benchmark.

Schema (see docs/epistemic.md)::

    game = "epistemic"
    constraints = ["x < y", "x + y <= 100"]      # optional, formulas without knows()
    actual = { x = 4, y = 13 }                   # optional: the real world, for claims with at = "actual"
    [variables]                                  # name = [values] | "lo..hi" | { min = lo, max = hi }
    x = "2..98"
    [agents]                                     # name = the expressions the agent observes
    S = ["x + y"]
    [[announcement]]
    formula = "knows(S, not knows(P))"
    by = "S"                                     # optional, for display
    repeat = 1                                   # or "stable": repeat until nothing changes
    [[claim]]
    text = "x == 4 and y == 13"
    after = 3                                    # optional: after the first N announcement rounds
    at = "actual"                                # optional: judge at the actual world only

Instead of ``[[announcement]]``, ``[[event]]`` tables (in order) with ``kind`` = ``"public"`` (an
announcement: ``formula``, ``repeat``; or a public ``learn`` / ``set``), ``"private"`` (the agents ``to``
learn ``formula`` / the value of ``learn`` and see ``set`` happen; the others believe nothing happened),
``"semi-private"`` (the others know that ``to`` learnt the value of ``learn``, not which), or ``"action"``
(an action model: ``events = [{ name, pre, set, designated }]``, ``observers = { agent = [[e1, e2], [e3]] }``
or ``{ agent = { e1 = ["e2"], ... } }``, optional ``actual = "e1"``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sleuth.puzzle import Puzzle, PuzzleDoc



def load(doc: PuzzleDoc) -> Puzzle:
    from .puzzle import load as load_puzzle
    return load_puzzle(doc)
