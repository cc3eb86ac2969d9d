"""sleuth: a declarative constraint-solver backend for games of hidden information.

The API in five lines::

    import solver
    puzzle = sleuth.load_puzzle("puzzles/epistemic/cheryl.toml")
    report = puzzle.solve()                       # Report: status, fields (as in --json), text
    for result in puzzle.verify(puzzle.claims):   # ClaimResult: verdict, because, witness
        print(result.text, result.verdict.value)
"""

from importlib.metadata import PackageNotFoundError, version

from .engine import Backbone, Engine
from .errors import PuzzleError, SleuthError, UnknownNameError
from .hitting import all_minimum_hitting_sets, minimum_hitting_set, union_of_minimum_hitting_sets
from .model import Lit, Model, Var
from .puzzle import Puzzle, PuzzleDoc, claim_spec, load_data, load_puzzle, loads
from .results import ClaimResult, ClaimSpec, Report, Status, Verdict

try:
    __version__ = version("sleuth")
except PackageNotFoundError:  # imported from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "__version__",
    "Backbone", "ClaimResult", "ClaimSpec", "Engine", "Lit", "Model", "Puzzle", "PuzzleDoc", "PuzzleError",
    "Report", "SleuthError", "Status", "UnknownNameError", "Var", "Verdict", "all_minimum_hitting_sets",
    "claim_spec", "load_data", "load_puzzle", "loads", "minimum_hitting_set", "union_of_minimum_hitting_sets",
]
