"""The python-constraint backend: an independent engine for small models and cross-checks.

Every constraint becomes a function constraint over its variables (the guard literals included), so the
semantics is exactly :meth:`solver.model.Guarded.holds`; nothing is shared with the CP-SAT translation.
Cores are not minimised here: the whole assumption set is returned and the engine shrinks it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence

import constraint as pc

from ..limits import SolverTimeout, expired
from ..model import Guarded, LinearExpr, Lit, Var
from . import Backend, Outcome, SolveStatus


def _checker(g: Guarded, variables: Sequence[Var]) -> Callable[..., bool]:
    def check(*values: int) -> bool:
        return g.holds(dict(zip(variables, values, strict=True)))
    return check


class PythonConstraintBackend(Backend):
    name = "python-constraint"

    def _problem(self, assumptions: Sequence[Lit]) -> pc.Problem:
        problem = pc.Problem()
        fixed = {a.var.index: int(a.positive) for a in assumptions}
        for v in self.model.variables:
            domain = [fixed[v.index]] if v.index in fixed else list(range(v.lo, v.hi + 1))
            problem.addVariable(v.index, domain)
        for g in self.model.constraints:
            variables = tuple(dict.fromkeys(g.constraint.scope() + tuple(x.var for x in g.enforce)))
            if variables:
                problem.addConstraint(pc.FunctionConstraint(_checker(g, variables)), [v.index for v in variables])
            elif not g.holds({}):
                problem.addConstraint(lambda *_: False, [self.model.variables[0].index])
        return problem

    def _conflicting(self, assumptions: Sequence[Lit]) -> bool:
        """Two assumptions on one variable disagree, or one asks for a value outside the domain."""
        seen: dict[int, bool] = {}
        return any(seen.setdefault(a.var.index, a.positive) != a.positive
                   or not a.var.lo <= int(a.positive) <= a.var.hi for a in assumptions)

    def solutions(self, assumptions: Sequence[Lit] = (), *, limit: int | None = None,
                  project: Sequence[Var] | None = None) -> Iterator[dict[Var, int]]:
        if self._conflicting(assumptions) or not self.model.variables:
            return
        if expired():  # the command's deadline passed while another solve swallowed the interrupt
            raise SolverTimeout("the time limit was reached")
        deadline = None if self.time_limit is None else time.monotonic() + self.time_limit
        variables = self.model.variables if project is None else project
        for count, sol in enumerate(self._problem(assumptions).getSolutionIter(), start=1):
            yield {v: sol[v.index] for v in variables}
            if limit is not None and count >= limit:
                return
            if deadline is not None and time.monotonic() > deadline:
                raise SolverTimeout("python-constraint enumeration reached the time limit")

    def solve(self, assumptions: Sequence[Lit] = (), *, minimize: LinearExpr | None = None) -> Outcome:
        best: dict[Var, int] | None = None
        best_value: int | None = None
        try:
            for sol in self.solutions(assumptions, limit=None if minimize is not None else 1):
                if minimize is None:
                    return Outcome(SolveStatus.FEASIBLE, sol)
                value = minimize.value(sol)
                if best_value is None or value < best_value:
                    best, best_value = sol, value
        except SolverTimeout:
            return Outcome(SolveStatus.UNKNOWN, best)
        if best is not None:
            return Outcome(SolveStatus.FEASIBLE, best, objective=best_value)
        return Outcome(SolveStatus.INFEASIBLE, core=tuple(assumptions))
