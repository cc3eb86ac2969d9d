"""Solver backends behind one small interface.

A backend takes a :class:`~sleuth.model.Model` and answers three questions, each under assumptions (literals
taken as true for that call only): is there a solution (optionally an optimal one), which assumptions are
enough for infeasibility, and what are all solutions.  Backend modules are imported lazily, so a missing
optional solver only matters when it is asked for.
"""

from __future__ import annotations

import enum
import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..errors import UnknownNameError
from ..limits import SolverTimeout as SolverTimeout  # defined with the other limits; still importable from here

if TYPE_CHECKING:  # the model is imported by whoever builds one; naming a backend needs none of it
    from ..model import LinearExpr, Lit, Model, Var


class SolveStatus(enum.Enum):
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    UNKNOWN = "unknown"  # time limit reached without an answer


@dataclass(frozen=True)
class Outcome:
    status: SolveStatus
    values: dict[Var, int] | None = None
    core: tuple[Lit, ...] = field(default_factory=tuple)  # with INFEASIBLE: assumptions that suffice
    objective: int | None = None

    @property
    def feasible(self) -> bool:
        return self.status is SolveStatus.FEASIBLE


class Backend(ABC):
    """One model, solved many times under different assumptions (constraints may be added in between)."""

    name: str = ""

    def __init__(self, model: Model, *, time_limit: float | None = None, workers: int = 1) -> None:
        self.model = model
        self.time_limit = time_limit
        self.workers = workers

    @abstractmethod
    def solve(self, assumptions: Sequence[Lit] = (), *, minimize: LinearExpr | None = None) -> Outcome:
        """One solution (optimal for ``minimize`` if given), or infeasible with a sufficient core."""

    @abstractmethod
    def solutions(self, assumptions: Sequence[Lit] = (), *, limit: int | None = None,
                  project: Sequence[Var] | None = None) -> Iterator[dict[Var, int]]:
        """All solutions, streamed; stops after ``limit``.  Each is a full assignment, or its values on
        ``project`` only (a projection may repeat: the search still runs over every variable)."""


BACKENDS = {"cpsat": "sleuth.backends.cpsat:CpSatBackend",
            "python-constraint": "sleuth.backends.pyconstraint:PythonConstraintBackend"}
ALIASES = {"cp-sat": "cpsat", "ortools": "cpsat", "or-tools": "cpsat",
           "constraint": "python-constraint", "python_constraint": "python-constraint", "pc": "python-constraint"}


def backend_name(name: str) -> str:
    """The canonical name of a backend (aliases accepted); nothing is imported."""
    key = ALIASES.get(name.lower(), name.lower())
    if key not in BACKENDS:
        raise UnknownNameError("backend", name, BACKENDS, place="--backend")
    return key


def backend_class(name: str = "cpsat") -> type[Backend]:
    """The backend class for a name or alias, imported on first use."""
    module, _, cls = BACKENDS[backend_name(name)].partition(":")
    found: type[Backend] = getattr(importlib.import_module(module), cls)
    return found


def make_backend(model: Model, name: str = "cpsat", *, time_limit: float | None = None,
                 workers: int = 1) -> Backend:
    return backend_class(name)(model, time_limit=time_limit, workers=workers)
