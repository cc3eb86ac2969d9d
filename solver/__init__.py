"""sleuth: a declarative constraint-solver backend for games of hidden information.

The API in five lines::

    import sleuth
    puzzle = sleuth.load_puzzle("puzzles/epistemic/cheryl.toml")
    report = puzzle.solve()                       # Report: status, fields (as in --json), text
    for result in puzzle.verify(puzzle.claims):   # ClaimResult: verdict, because, witness
        print(result.text, result.verdict.value)

The names below are imported on first use, so ``import sleuth`` (and the command line) pay only for what
they use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"  # the same as pyproject.toml (a test checks)

_EXPORTS = {
    "Backbone": "engine", "Engine": "engine",
    "PuzzleError": "errors", "SleuthError": "errors", "UnknownNameError": "errors",
    "all_minimum_hitting_sets": "hitting", "minimum_hitting_set": "hitting",
    "union_of_minimum_hitting_sets": "hitting",
    "Lit": "model", "Model": "model", "Var": "model",
    "Puzzle": "puzzle", "PuzzleDoc": "puzzle", "claim_spec": "puzzle", "load_data": "loading",
    "load_puzzle": "loading", "loads": "loading",
    "ClaimResult": "results", "ClaimSpec": "results", "Report": "results", "Status": "results",
    "Verdict": "results",
}

__all__ = [
    "__version__",
    "Backbone", "ClaimResult", "ClaimSpec", "Engine", "Lit", "Model", "Puzzle", "PuzzleDoc", "PuzzleError",
    "Report", "SleuthError", "Status", "UnknownNameError", "Var", "Verdict", "all_minimum_hitting_sets",
    "claim_spec", "load_data", "load_puzzle", "loads", "minimum_hitting_set", "union_of_minimum_hitting_sets",
]

if TYPE_CHECKING:
    from .engine import Backbone, Engine
    from .errors import PuzzleError, SleuthError, UnknownNameError
    from .hitting import all_minimum_hitting_sets, minimum_hitting_set, union_of_minimum_hitting_sets
    from .loading import load_data, load_puzzle, loads
    from .model import Lit, Model, Var
    from .puzzle import Puzzle, PuzzleDoc, claim_spec
    from .results import ClaimResult, ClaimSpec, Report, Status, Verdict


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sleuth' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})
