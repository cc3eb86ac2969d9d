"""Compiling non-epistemic formulas to the constraints of a declarative model (CP-SAT, python-constraint)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any


from ..errors import PuzzleError
from ..formula import (And, Arith, BoolConst, Call, Compare, FormulaError, Implies, Int,
                       Name, Neg, Node, Not, Or, Str, is_epistemic, to_text)
from ..schema import fold

if TYPE_CHECKING:
    from .tables import Domain

SOLVER_LIMIT = 2 ** 62             # |value| bound of every expression compiled for CP-SAT / python-constraint

# -- compiling non-epistemic formulas to a constraint model ------------------------------------------------

class NotCompilable(FormulaError):
    """The formula uses something the linear constraint model cannot express."""


class ModelCompiler:
    """Turns non-epistemic formulas into constraints of a :class:`sleuth.model.Model`."""

    def __init__(self, model: Any, variables: Mapping[str, Any], domains: Mapping[str, Domain]) -> None:
        self.model = model
        self.variables = dict(variables)
        self.domains = dict(domains)
        self._folded = {fold(k): k for k in self.variables}

    def require(self, node: Node) -> None:
        if is_epistemic(node):
            raise NotCompilable(f"{to_text(node)!r} mentions knowledge; constraints cannot")
        if isinstance(node, And):
            for arg in node.args:
                self.require(arg)
        elif isinstance(node, Compare):
            self.model.add(self.linear_compare(node))
        else:
            self.model.add_any([self.lit(node)])

    def lit(self, node: Node) -> Any:
        from ..model import Clause

        if isinstance(node, Compare):
            return self.model.reify(self.linear_compare(node))
        if isinstance(node, Not):
            return ~self.lit(node.operand)
        if isinstance(node, (And, Or)):
            return self.model.reify(Clause(tuple(self.lit(a) for a in node.args), all_of=isinstance(node, And)))
        if isinstance(node, Implies):
            return self.model.reify(Clause((~self.lit(node.left), self.lit(node.right)), all_of=False))
        if isinstance(node, BoolConst):
            b = self.model.bool_var(aux=True)
            self.model.add(b == int(node.value))
            return b.lit()
        raise NotCompilable(f"{to_text(node)!r} is not a condition the model can express")

    def linear_compare(self, node: Compare) -> Any:
        left, right = node.left, node.right
        if isinstance(left, Str) or isinstance(right, Str):
            name_node, text = (left, right) if isinstance(right, Str) else (right, left)
            if not isinstance(name_node, Name) or node.op not in ("==", "!="):
                raise NotCompilable(f"{to_text(node)!r}: names compare with == or != to a variable only")
            var = self._var(name_node.name)
            if not isinstance(text, Str):
                raise NotCompilable(f"{to_text(node)!r}: names compare with == or != to a variable only")
            code = self._domain(name_node.name).code(text.value)
            return (var == code) if node.op == "==" else (var != code)
        a, b = self.linear(left), self.linear(right)
        self._check(Arith(left, (("-", right),)), a - b)
        return {"==": lambda: a == b, "!=": lambda: a != b, "<": lambda: a < b, "<=": lambda: a <= b,
                ">": lambda: a > b, ">=": lambda: a >= b}[node.op]()

    def _var(self, name: str) -> Any:
        """The variable (or, for a sparse domain, the expression) named ``name``."""
        return self.variables[self._key(name)]

    def _domain(self, name: str) -> Domain:
        return self.domains[self._key(name)]

    def _key(self, name: str) -> str:
        key = self._folded.get(fold(name))
        if key is None:
            raise FormulaError(f"unknown variable {name!r}", allowed=list(self.variables))
        return key

    @staticmethod
    def _check(node: Node, expr: Any) -> Any:
        """Refuse an expression whose range (or whose sum of absolute terms) leaves the solvers' bound."""
        lo, hi = expr.bounds()
        spread = abs(expr.const) + sum(abs(c) * max(abs(v.lo), abs(v.hi)) for v, c in expr.terms.items())
        if spread > SOLVER_LIMIT:
            raise PuzzleError(f"{to_text(node)!r} ranges over {lo}..{hi}, beyond what the constraint solvers take"
                              f" exactly (|value| <= 2^62)", allowed="--method table, or smaller values")
        return expr

    def linear(self, node: Node) -> Any:
        return self._check(node, self._linear(node))

    def _linear(self, node: Node) -> Any:
        from ..model import LinearExpr, as_expr

        if isinstance(node, Int):
            return LinearExpr({}, node.value)
        if isinstance(node, Name):
            if self._domain(node.name).labels is not None:
                raise NotCompilable(f"{node.name!r} is a named value, not a number")
            return as_expr(self._var(node.name))
        if isinstance(node, Neg):
            return -self.linear(node.operand)
        if isinstance(node, Arith):
            acc = self.linear(node.first)
            for i, (op, x) in enumerate(node.rest):
                done = Arith(node.first, node.rest[:i + 1])
                if op in ("+", "-"):
                    acc = acc + self.linear(x) if op == "+" else acc - self.linear(x)
                elif op == "*" and not acc.terms:
                    acc = self.linear(x) * acc.const
                elif op == "*" and isinstance(x, Int):
                    acc = acc * x.value
                else:
                    raise NotCompilable(f"{to_text(node)!r} is not linear")
                self._check(done, acc)
            return acc
        if isinstance(node, Call) and node.func == "count":
            return LinearExpr.sum_of(self.lit(a) for a in node.args)
        if isinstance(node, Call) and node.func in ("abs", "min", "max"):
            return self._extremum(node.func, [self.linear(a) for a in node.args])
        raise NotCompilable(f"{to_text(node)!r} is not a linear expression")

    def _extremum(self, func: str, args: Sequence[Any]) -> Any:
        """``abs(a)``, ``min(a, ...)`` or ``max(a, ...)`` as a fresh variable defined by guarded equalities.

        ``abs`` is ``max(a, -a)``.  Each argument gets a literal "the result is this argument", with one chosen
        when several are equal: the first (so a world has exactly one solution and enumeration lists it once).
        """
        from ..model import LinearExpr, as_expr

        if func == "abs":
            func, args = "max", [args[0], -args[0]]
        sign = 1 if func == "max" else -1
        bounds = [a.bounds() for a in args]
        lo = max(b[0] for b in bounds) if sign > 0 else min(b[0] for b in bounds)
        hi = max(b[1] for b in bounds) if sign > 0 else min(b[1] for b in bounds)
        m = self.model
        result = m.int_var(lo, hi, f"{func}(...)", aux=True)
        picks = [m.bool_var(f"{func} is argument {i + 1}", aux=True) for i in range(len(args))]
        with m.unguarded():
            m.add(LinearExpr.sum_of(p.lit() for p in picks) == 1)
            for i, (a, pick) in enumerate(zip(args, picks, strict=True)):
                m.add(as_expr(result) == a, when=pick)
                for j, b in enumerate(args):  # the picked argument is the extreme; earlier ones strictly below
                    if j != i:
                        m.add(sign * (a - b) >= (1 if j < i else 0), when=pick)
        return as_expr(result)
