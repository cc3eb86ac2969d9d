"""A backend-neutral constraint model: finite-domain variables and named, guardable constraints.

The model knows nothing of any solver.  Backends (``sleuth.backends``) translate it.  Every observation of
a puzzle becomes one *observation literal*; the constraints it implies are enforced only when that literal
is true, so the engine can switch observations off, explain verdicts by them and find conflicting sets.

>>> m = Model()
>>> x, y = m.int_var(0, 3, "x"), m.int_var(0, 3, "y")
>>> with m.observation("x plus y is 5"):
...     _ = m.add(x + y == 5)
>>> len(m.constraints), m.observations[0].name
(1, 'x plus y is 5')
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from functools import cached_property
from dataclasses import dataclass, field


class Var:
    """An integer variable with the domain ``lo..hi``; booleans are ``0..1`` variables."""

    __slots__ = ("index", "lo", "hi", "name", "aux")

    def __init__(self, index: int, lo: int, hi: int, name: str, aux: bool = False) -> None:
        self.index, self.lo, self.hi, self.name = index, lo, hi, name
        self.aux = aux  # helper variable of the engine (observation, indicator...): not shown in worlds

    @property
    def is_bool(self) -> bool:
        return self.lo >= 0 and self.hi <= 1

    def __repr__(self) -> str:
        return self.name

    def __hash__(self) -> int:
        return hash(("var", self.index))

    # Literals -------------------------------------------------------------------------------------
    def negated(self) -> Lit:
        return Lit(self, False)

    def __invert__(self) -> Lit:
        return Lit(self, False)

    def lit(self) -> Lit:
        return Lit(self, True)

    # Arithmetic builds linear expressions ---------------------------------------------------------
    def expr(self) -> LinearExpr:
        return LinearExpr({self: 1}, 0)

    def __add__(self, o: Operand) -> LinearExpr: return self.expr() + o
    def __radd__(self, o: Operand) -> LinearExpr: return self.expr() + o
    def __sub__(self, o: Operand) -> LinearExpr: return self.expr() - o
    def __rsub__(self, o: Operand) -> LinearExpr: return as_expr(o) - self.expr()
    def __mul__(self, k: int) -> LinearExpr: return self.expr() * k
    def __rmul__(self, k: int) -> LinearExpr: return self.expr() * k
    def __neg__(self) -> LinearExpr: return self.expr() * -1
    def __le__(self, o: Operand) -> Linear: return self.expr() <= o
    def __ge__(self, o: Operand) -> Linear: return self.expr() >= o
    def __lt__(self, o: Operand) -> Linear: return self.expr() < o
    def __gt__(self, o: Operand) -> Linear: return self.expr() > o
    def __eq__(self, o: object) -> Linear: return self.expr() == o  # type: ignore[override]
    def __ne__(self, o: object) -> Linear: return self.expr() != o  # type: ignore[override]


@dataclass(frozen=True)
class Lit:
    """A boolean variable or its negation; constraints are guarded by literals."""

    var: Var
    positive: bool = True

    def __invert__(self) -> Lit:
        return Lit(self.var, not self.positive)

    def negated(self) -> Lit:
        return ~self

    def value_in(self, values: Mapping[Var, int]) -> bool:
        return bool(values[self.var]) == self.positive

    def __repr__(self) -> str:
        return self.var.name if self.positive else f"~{self.var.name}"


def as_lit(x: Var | Lit) -> Lit:
    if isinstance(x, Lit):
        return x
    if isinstance(x, Var) and x.is_bool:
        return Lit(x, True)
    raise TypeError(f"{x!r} is not a boolean literal")


class LinearExpr:
    """``sum(coef * var) + const`` with integer coefficients."""

    __slots__ = ("terms", "const")

    def __init__(self, terms: Mapping[Var, int] | None = None, const: int = 0) -> None:
        self.terms: dict[Var, int] = {v: c for v, c in (terms or {}).items() if c}
        self.const = const

    @staticmethod
    def sum_of(items: Iterable[Operand]) -> LinearExpr:
        """The sum of the operands (an empty sum is ``0``)."""
        total = LinearExpr()
        for it in items:
            total = total._plus(as_expr(it), 1)
        return total

    def _plus(self, other: LinearExpr, sign: int) -> LinearExpr:
        terms = dict(self.terms)
        for v, c in other.terms.items():
            terms[v] = terms.get(v, 0) + sign * c
        return LinearExpr(terms, self.const + sign * other.const)

    def __add__(self, o: Operand) -> LinearExpr: return self._plus(as_expr(o), 1)
    def __radd__(self, o: Operand) -> LinearExpr: return self._plus(as_expr(o), 1)
    def __sub__(self, o: Operand) -> LinearExpr: return self._plus(as_expr(o), -1)
    def __rsub__(self, o: Operand) -> LinearExpr: return as_expr(o)._plus(self, -1)
    def __neg__(self) -> LinearExpr: return self * -1

    def __mul__(self, k: int) -> LinearExpr:
        if not isinstance(k, int):
            raise TypeError("linear expressions multiply by integers only")
        return LinearExpr({v: c * k for v, c in self.terms.items()}, self.const * k)

    __rmul__ = __mul__

    def _cmp(self, o: Operand | object, op: str) -> Linear:
        diff = self._plus(as_expr(o), -1)
        return Linear(LinearExpr(diff.terms, 0), op, -diff.const)

    def __le__(self, o: Operand) -> Linear: return self._cmp(o, "<=")
    def __ge__(self, o: Operand) -> Linear: return self._cmp(o, ">=")
    def __lt__(self, o: Operand) -> Linear: return self._cmp(as_expr(o) - 1, "<=")
    def __gt__(self, o: Operand) -> Linear: return self._cmp(as_expr(o) + 1, ">=")
    # Comparisons build constraints (as in CP-SAT), so ``__eq__`` cannot return ``bool`` as ``object`` says.
    def __eq__(self, o: object) -> Linear: return self._cmp(o, "==")  # type: ignore[override]
    def __ne__(self, o: object) -> Linear: return self._cmp(o, "!=")  # type: ignore[override]
    __hash__ = None  # type: ignore[assignment]

    def value(self, values: Mapping[Var, int]) -> int:
        return self.const + sum(c * values[v] for v, c in self.terms.items())

    @property
    def variables(self) -> tuple[Var, ...]:
        return tuple(self.terms)

    def bounds(self) -> tuple[int, int]:
        lo = hi = self.const
        for v, c in self.terms.items():
            lo += min(c * v.lo, c * v.hi)
            hi += max(c * v.lo, c * v.hi)
        return lo, hi

    def __repr__(self) -> str:
        parts = [f"{c}*{v.name}" if c != 1 else v.name for v, c in self.terms.items()]
        if self.const or not parts:
            parts.append(str(self.const))
        return " + ".join(parts)



Operand = int | Var | Lit | LinearExpr
When = Lit | Var | Sequence[Lit | Var]  # the literals that guard a constraint


def as_expr(x: Operand | object) -> LinearExpr:
    if isinstance(x, LinearExpr):
        return x
    if isinstance(x, Var):
        return x.expr()
    if isinstance(x, Lit):
        return x.var.expr() if x.positive else 1 - x.var.expr()
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"cannot use {x!r} in a linear expression")
    return LinearExpr({}, x)


# -- constraints ------------------------------------------------------------------------------------

class Constraint:
    """Base class.  ``holds`` evaluates it on a full assignment; ``negation`` is its exact complement."""

    def scope(self) -> tuple[Var, ...]:
        """The variables the constraint reads."""
        raise NotImplementedError

    def holds(self, values: Mapping[Var, int]) -> bool:
        raise NotImplementedError

    def negation(self) -> Constraint:
        raise NotImplementedError(f"{type(self).__name__} cannot be negated")


_NEG_OP = {"==": "!=", "!=": "==", "<=": ">=+1", ">=": "<=-1"}


@dataclass(frozen=True, eq=False)
class Linear(Constraint):
    """``expr op rhs`` with op one of ``== != <= >=``."""

    expr: LinearExpr
    op: str
    rhs: int

    def scope(self) -> tuple[Var, ...]:
        return self.expr.variables

    def holds(self, values: Mapping[Var, int]) -> bool:
        lhs = self.expr.value(values)
        return {"==": lhs == self.rhs, "!=": lhs != self.rhs,
                "<=": lhs <= self.rhs, ">=": lhs >= self.rhs}[self.op]

    def negation(self) -> Linear:
        if self.op == "<=":
            return Linear(self.expr, ">=", self.rhs + 1)
        if self.op == ">=":
            return Linear(self.expr, "<=", self.rhs - 1)
        return Linear(self.expr, _NEG_OP[self.op], self.rhs)

    def __bool__(self) -> bool:
        # Lets ``x == y`` on variables answer identity questions (dict keys, ``in``) as CP-SAT does.
        if not self.expr.terms:
            return self.holds({})
        if self.op in ("==", "!="):
            return self.op == "!="
        raise TypeError("a linear inequality has no truth value; add it to a model")

    def __repr__(self) -> str:
        return f"{self.expr!r} {self.op} {self.rhs}"


@dataclass(frozen=True, eq=False)
class Clause(Constraint):
    """At least one of the literals is true (``any``); with ``all_of=True`` all of them are."""

    lits: tuple[Lit, ...]
    all_of: bool = False

    def scope(self) -> tuple[Var, ...]:
        return tuple(dict.fromkeys(lit.var for lit in self.lits))

    def holds(self, values: Mapping[Var, int]) -> bool:
        test = all if self.all_of else any
        return test(lit.value_in(values) for lit in self.lits)

    def negation(self) -> Clause:
        return Clause(tuple(~lit for lit in self.lits), not self.all_of)


@dataclass(frozen=True, eq=False)
class Table(Constraint):
    """The tuple of variables takes one of the listed tuples (``forbidden=True``: none of them)."""

    variables: tuple[Var, ...]
    tuples: tuple[tuple[int, ...], ...]
    forbidden: bool = False

    def scope(self) -> tuple[Var, ...]:
        return self.variables

    def holds(self, values: Mapping[Var, int]) -> bool:
        row = tuple(values[v] for v in self.variables)
        return (row in self._rows) != self.forbidden

    @cached_property
    def _rows(self) -> frozenset[tuple[int, ...]]:
        """The tuples as a set, built once (python-constraint checks a table row by row)."""
        return frozenset(self.tuples)

    def negation(self) -> Table:
        return Table(self.variables, self.tuples, not self.forbidden)


@dataclass(frozen=True, eq=False)
class AllDifferent(Constraint):
    variables: tuple[Var, ...]

    def scope(self) -> tuple[Var, ...]:
        return self.variables

    def holds(self, values: Mapping[Var, int]) -> bool:
        vals = [values[v] for v in self.variables]
        return len(set(vals)) == len(vals)


@dataclass(frozen=True)
class Guarded:
    """A constraint in the model, with its name and the literals that must all hold for it to apply."""

    constraint: Constraint
    enforce: tuple[Lit, ...] = ()
    name: str | None = None

    def holds(self, values: Mapping[Var, int]) -> bool:
        return not all(lit.value_in(values) for lit in self.enforce) or self.constraint.holds(values)


@dataclass(frozen=True)
class Observation:
    """A named observation of the puzzle (``suggestion 3``, ``hand size of Ann``) and its literal."""

    name: str
    lit: Lit
    detail: str = ""


@dataclass
class Model:
    """Variables, constraints and observations, independent of any solver."""

    variables: list[Var] = field(default_factory=list)
    constraints: list[Guarded] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    _guards: list[Lit] = field(default_factory=list)
    _indicators: dict[tuple[int, int], Lit] = field(default_factory=dict)

    # -- variables ----------------------------------------------------------------------------------
    def int_var(self, lo: int, hi: int, name: str | None = None, *, aux: bool = False) -> Var:
        if lo > hi:
            raise ValueError(f"empty domain {lo}..{hi} for {name}")
        v = Var(len(self.variables), lo, hi, name or f"x{len(self.variables)}", aux)
        self.variables.append(v)
        return v

    def bool_var(self, name: str | None = None, *, aux: bool = False) -> Var:
        return self.int_var(0, 1, name, aux=aux)

    def false_lit(self) -> Lit:
        """A literal that is false in every solution (a helper variable whose domain is ``0..0``)."""
        key = (-1, 0)
        if key not in self._indicators:
            self._indicators[key] = self.int_var(0, 0, "false", aux=True).lit()
        return self._indicators[key]

    def world(self, values: Mapping[Var, int]) -> dict[str, int]:
        """An assignment as ``{name: value}`` over the puzzle's own variables (helpers left out)."""
        return {v.name: values[v] for v in self.variables if not v.aux}

    def indicator(self, var: Var, value: int) -> Lit:
        """A literal true exactly when ``var == value`` (the variable itself for booleans).

        A value outside the domain gives the constant false literal: a ``0..1`` (or ``1..1``) variable is
        only a boolean for the values it can take, so ``x == 2`` must never become ``x == 1``.
        """
        if not var.lo <= value <= var.hi:
            return self.false_lit()
        if var.is_bool:
            return Lit(var, bool(value))
        key = (var.index, value)
        if key not in self._indicators:
            b = self.bool_var(f"{var.name}=={value}", aux=True)
            with self.unguarded():
                self.add(var == value, when=b.lit())
                self.add(var != value, when=~b)
            self._indicators[key] = b.lit()
        return self._indicators[key]

    # -- constraints --------------------------------------------------------------------------------
    def add(self, constraint: Constraint, *, name: str | None = None, when: When = ()) -> Guarded:
        """Add a constraint, enforced only when every ``when`` literal (and every open guard) is true."""
        if isinstance(constraint, bool):
            raise TypeError("a comparison of plain values was added as a constraint")
        extra = [when] if isinstance(when, (Lit, Var)) else list(when)
        enforce = tuple(self._guards) + tuple(as_lit(x) for x in extra)
        g = Guarded(constraint, enforce, name)
        self.constraints.append(g)
        return g

    def add_any(self, lits: Iterable[Lit | Var], *, name: str | None = None, when: When = ()) -> Guarded:
        return self.add(Clause(tuple(as_lit(x) for x in lits)), name=name, when=when)

    def add_all(self, lits: Iterable[Lit | Var], *, name: str | None = None, when: When = ()) -> Guarded:
        return self.add(Clause(tuple(as_lit(x) for x in lits), all_of=True), name=name, when=when)

    def add_exactly(self, k: int, lits: Iterable[Lit | Var], *, name: str | None = None,
                    when: When = ()) -> Guarded:
        return self.add(LinearExpr.sum_of(as_lit(x) for x in lits) == k, name=name, when=when)

    def add_table(self, variables: Sequence[Var], tuples: Iterable[Sequence[int]], *,
                  forbidden: bool = False, name: str | None = None, when: When = ()) -> Guarded:
        table = Table(tuple(variables), tuple(tuple(t) for t in tuples), forbidden)
        return self.add(table, name=name, when=when)

    def add_all_different(self, variables: Sequence[Var], *, name: str | None = None,
                          when: When = ()) -> Guarded:
        return self.add(AllDifferent(tuple(variables)), name=name, when=when)

    def reify(self, constraint: Constraint, name: str | None = None) -> Lit:
        """A fresh literal equivalent to the constraint (the constraint must be negatable)."""
        b = self.bool_var(name or f"[{constraint!r}]", aux=True)
        with self.unguarded():
            self.add(constraint, when=b.lit())
            self.add(constraint.negation(), when=~b)
        return b.lit()

    # -- observations -------------------------------------------------------------------------------
    @contextlib.contextmanager
    def observation(self, name: str, detail: str = "") -> Iterator[Lit]:
        """Constraints added inside are enforced by a new observation literal named ``name``."""
        if any(o.name == name for o in self.observations):
            raise ValueError(f"observation {name!r} is defined twice")
        lit = self.bool_var(f"obs:{name}", aux=True).lit()
        self.observations.append(Observation(name, lit, detail))
        self._guards.append(lit)
        try:
            yield lit
        finally:
            self._guards.pop()

    @contextlib.contextmanager
    def unguarded(self) -> Iterator[None]:
        saved, self._guards = self._guards, []
        try:
            yield
        finally:
            self._guards = saved

    def observation_lits(self, active: Iterable[str] | None = None) -> list[Lit]:
        """Assumptions that switch the named observations (default: all) on."""
        names = None if active is None else set(active)
        return [o.lit for o in self.observations if names is None or o.name in names]

    # -- checking -----------------------------------------------------------------------------------
    def check(self, values: Mapping[Var, int]) -> list[Guarded]:
        """The constraints a full assignment violates (used by tests and brute force)."""
        return [g for g in self.constraints if not g.holds(values)]
