"""The OR-Tools CP-SAT backend (the default).

The model is translated incrementally: constraints added after a solve are translated before the next one.
Assumptions are passed as CP-SAT assumptions, so infeasibility comes with
``sufficient_assumptions_for_infeasibility``.
"""

from __future__ import annotations

import contextlib
import queue
import threading
from collections.abc import Iterator, Sequence

from ortools.sat.python import cp_model
from ortools.sat.python import cp_model_helper as cmh

from ..limits import SolverTimeout, remaining
from ..model import AllDifferent, Clause, Linear, LinearExpr, Lit, Model, Table, Var
from . import Backend, Outcome, SolveStatus

_STATUS = {cp_model.OPTIMAL: SolveStatus.FEASIBLE, cp_model.FEASIBLE: SolveStatus.FEASIBLE,
           cp_model.INFEASIBLE: SolveStatus.INFEASIBLE}


class CpSatBackend(Backend):
    name = "cpsat"

    def __init__(self, model: Model, *, time_limit: float | None = None, workers: int = 1) -> None:
        super().__init__(model, time_limit=time_limit, workers=workers)
        self.cp = cp_model.CpModel()
        self._vars: list[cp_model.IntVar] = []
        self._done = 0

    # -- translation --------------------------------------------------------------------------------
    def _sync(self) -> None:
        for v in self.model.variables[len(self._vars):]:
            self._vars.append(self.cp.new_int_var(v.lo, v.hi, v.name))
        for g in self.model.constraints[self._done:]:
            ct = self._translate(g.constraint)
            if g.enforce:
                ct.only_enforce_if([self.lit(x) for x in g.enforce])
            if g.name:
                ct.with_name(g.name)
        self._done = len(self.model.constraints)

    def lit(self, lit: Lit) -> cmh.Literal:
        v = self._vars[lit.var.index]
        return v if lit.positive else v.negated()

    def expr(self, e: LinearExpr) -> cp_model.LinearExprT:
        return sum((c * self._vars[v.index] for v, c in e.terms.items()), e.const)

    def _translate(self, c: object) -> cp_model.Constraint:
        if isinstance(c, Linear):
            lhs = self.expr(c.expr)
            return self.cp.add({"==": lhs == c.rhs, "!=": lhs != c.rhs,
                                "<=": lhs <= c.rhs, ">=": lhs >= c.rhs}[c.op])
        if isinstance(c, Clause):
            lits = [self.lit(x) for x in c.lits]
            return self.cp.add_bool_and(lits) if c.all_of else self.cp.add_bool_or(lits)
        if isinstance(c, Table):
            vs = [self._vars[v.index] for v in c.variables]
            add = self.cp.add_forbidden_assignments if c.forbidden else self.cp.add_allowed_assignments
            return add(vs, list(c.tuples))
        if isinstance(c, AllDifferent):
            return self.cp.add_all_different([self._vars[v.index] for v in c.variables])
        raise TypeError(f"CP-SAT backend cannot translate {type(c).__name__}")

    def _solver(self) -> cp_model.CpSolver:
        s = cp_model.CpSolver()
        s.parameters.num_workers = max(1, self.workers)
        limit = min((x for x in (self.time_limit, remaining()) if x is not None), default=None)
        if limit is not None:
            s.parameters.max_time_in_seconds = float(limit)
        return s

    def _assume(self, assumptions: Sequence[Lit]) -> None:
        self.cp.clear_assumptions()
        if assumptions:
            self.cp.add_assumptions([self.lit(x) for x in assumptions])

    # -- interface ----------------------------------------------------------------------------------
    def solve(self, assumptions: Sequence[Lit] = (), *, minimize: LinearExpr | None = None) -> Outcome:
        self._sync()
        self._assume(assumptions)
        if minimize is not None:
            self.cp.minimize(self.expr(minimize))
        solver = self._solver()
        try:
            code = solver.solve(self.cp)
        finally:
            if minimize is not None:
                self.cp.clear_objective()
        status = _STATUS.get(code, SolveStatus.UNKNOWN)
        if status is SolveStatus.FEASIBLE:
            values = dict(zip(self.model.variables, map(int, solver.values(self._vars)), strict=True))
            if minimize is not None and code != cp_model.OPTIMAL:
                return Outcome(SolveStatus.UNKNOWN, values)
            obj = int(round(solver.objective_value)) if minimize is not None else None
            return Outcome(status, values, objective=obj)
        if status is SolveStatus.INFEASIBLE:
            return Outcome(status, core=self._core(solver, assumptions))
        return Outcome(status)

    def _core(self, solver: cp_model.CpSolver, assumptions: Sequence[Lit]) -> tuple[Lit, ...]:
        if not assumptions:
            return ()
        by_index = {self.lit(x).index: x for x in assumptions}
        core = tuple(by_index[i] for i in solver.sufficient_assumptions_for_infeasibility() if i in by_index)
        return core or tuple(assumptions)

    def solutions(self, assumptions: Sequence[Lit] = (), *, limit: int | None = None,
                  project: Sequence[Var] | None = None) -> Iterator[dict[Var, int]]:
        """Stream solutions: the search runs in a thread and hands them over through a bounded queue (only
        the ``project`` variables are read in the callback, when given)."""
        self._sync()
        self._assume(assumptions)
        variables = self.model.variables if project is None else list(project)
        cp_vars = [self._vars[v.index] for v in variables]
        out: queue.Queue[list[int] | None] = queue.Queue(maxsize=4096)  # None: the search ended
        stop = threading.Event()

        class Collector(cp_model.CpSolverSolutionCallback):
            def on_solution_callback(self) -> None:
                if stop.is_set():
                    self.stop_search()
                    return
                out.put([int(self.value(v)) for v in cp_vars])

        solver = self._solver()
        solver.parameters.enumerate_all_solutions = True
        solver.parameters.num_workers = 1
        errors: list[BaseException] = []

        def run() -> None:
            try:
                code = solver.solve(self.cp, Collector())
                if code == cp_model.UNKNOWN or code == cp_model.MODEL_INVALID:
                    errors.append(SolverTimeout("enumeration stopped at the time limit before it was complete"))
            except BaseException as exc:  # pragma: no cover - re-raised in the consumer
                errors.append(exc)
            finally:
                out.put(None)

        thread = threading.Thread(target=run, daemon=True)
        thread.start()
        count, finished = 0, False
        try:
            while True:
                item = out.get()
                if item is None:
                    finished = True
                    break
                yield dict(zip(variables, item, strict=True))
                count += 1
                if limit is not None and count >= limit:
                    break
        finally:
            stop.set()
            while thread.is_alive():  # drain, so that a callback blocked on a full queue sees the flag
                with contextlib.suppress(queue.Empty):
                    out.get(timeout=0.05)
            thread.join()
        if finished and errors:
            raise errors[0]
