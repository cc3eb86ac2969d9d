"""Evaluating formulas over every world of a knowledge state at once, with exact integer arithmetic.

The bottom of the epistemic layer: it reads the worlds through :class:`Worlds` (a knowledge state, or a table's
:class:`PlainWorlds`), so neither :mod:`.tables` nor :mod:`.explicit`, which build on it, is imported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..errors import PuzzleError
from ..formula import (After, And, Arith, BoolConst, Call, Common, Compare, Distributed, FormulaError, Implies, Int,
                       Knows, Name, Neg, Node, Not, Or, Str, to_text)
from ..schema import fold

if TYPE_CHECKING:
    from .explicit import Relation
    from .tables import Domain, WorldTable

INT64_MAX = 2 ** 63 - 1


def fits_int64(lo: int, hi: int) -> bool:
    """Whether every integer in ``lo..hi`` is an exact ``int64``."""
    return lo >= -INT64_MAX and hi <= INT64_MAX


class Worlds(Protocol):
    """What an :class:`Evaluator` reads: the worlds (``table``, ``size``, ``distinct``: no two alike) and, for
    the formulas that name agents, their relations (:class:`~.explicit.ExplicitState` has them all)."""

    table: WorldTable
    distinct: bool

    @property
    def size(self) -> int: ...

    def relation(self, agent: str) -> Relation: ...

    def group(self, names: Sequence[str] | None) -> list[str]: ...

    def distributed(self, agents: Sequence[str] | None) -> Relation: ...

    def common_knowledge(self, formula: np.ndarray, agents: Sequence[str] | None = None) -> np.ndarray: ...

    def restrict(self, mask: np.ndarray) -> Worlds: ...


@dataclass
class PlainWorlds:
    """A table's worlds with no agent (what :meth:`.WorldTable.filter` evaluates a constraint on): a formula
    about what someone knows is an error there."""

    table: WorldTable
    distinct: bool = True

    @property
    def size(self) -> int:
        return len(self.table)

    def relation(self, agent: str) -> Relation:
        raise FormulaError(f"unknown agent {agent!r}: a constraint on the worlds names no agent", allowed=[])

    def group(self, names: Sequence[str] | None) -> list[str]:
        for name in names or ("everyone",):
            self.relation(name)
        return []

    def distributed(self, agents: Sequence[str] | None) -> Relation:
        return self.relation(next(iter(agents or ()), "everyone"))

    def common_knowledge(self, formula: np.ndarray, agents: Sequence[str] | None = None) -> np.ndarray:
        return self.distributed(agents).all(formula)

    def restrict(self, mask: np.ndarray) -> PlainWorlds:
        return PlainWorlds(self.table.subset(mask), self.distinct)

# -- evaluation ---------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Kind:
    """The type of an expression: ``bool``, ``int``, or a named domain (its variable's labels)."""

    name: str
    domain: Domain | None = None


BOOL, INT = Kind("bool"), Kind("int")


@dataclass
class Evaluator:
    """Evaluates formulas over every world of a state at once; type errors name the formula."""

    state: Worlds
    _cache: dict[int, tuple[Node, Kind, np.ndarray]] = field(default_factory=dict)
    _bounds: dict[int, tuple[Node, tuple[int, int]]] = field(default_factory=dict)

    def truth(self, node: Node) -> np.ndarray:
        kind, val = self.value(node)
        if kind is not BOOL:
            raise FormulaError(f"{to_text(node)!r} is {kind.name}-valued, not a condition")
        return val

    def number(self, node: Node) -> np.ndarray:
        kind, val = self.value(node)
        if kind is not INT:
            raise FormulaError(f"{to_text(node)!r} is not a number (it is {kind.name}-valued)")
        return val

    def value(self, node: Node) -> tuple[Kind, np.ndarray]:
        # keyed by identity: hashing a frozen tree walks it, which made deep formulas quadratic
        hit = self._cache.get(id(node))
        if hit is None or hit[0] is not node:
            kind, val = self._value(node)
            hit = self._cache[id(node)] = (node, kind, val)
        return hit[1], hit[2]

    def bounds(self, node: Node) -> tuple[int, int]:
        """The smallest and largest value an integer expression can take over the domains (exact)."""
        hit = self._bounds.get(id(node))   # by identity, as values are: hashing a frozen tree walks it
        if hit is None or hit[0] is not node:
            hit = self._bounds[id(node)] = (node, self._bounds_of(node))
        return hit[1]

    def _bounds_of(self, node: Node) -> tuple[int, int]:
        if isinstance(node, Int):
            return node.value, node.value
        if isinstance(node, Name):
            dom = self._domain(node.name)
            return min(dom.values), max(dom.values)
        if isinstance(node, Neg):
            lo, hi = self.bounds(node.operand)
            return -hi, -lo
        if isinstance(node, Arith):
            acc = self.bounds(node.first)
            for op, x in node.rest:
                acc = interval(op, acc, self.bounds(x))
            return acc
        if isinstance(node, Call):
            if node.func == "count":
                return 0, len(node.args)
            parts = [self.bounds(a) for a in node.args]
            if node.func == "abs":
                lo, hi = parts[0]
                return (0 if lo <= 0 <= hi else min(abs(lo), abs(hi))), max(abs(lo), abs(hi))
            pick = min if node.func == "min" else max
            return pick(p[0] for p in parts), pick(p[1] for p in parts)
        raise FormulaError(f"{to_text(node)!r} is not a number")  # pragma: no cover (type-checked first)

    def _domain(self, name: str) -> Domain:
        table = self.state.table
        if name not in table.index:
            match = [d.name for d in table.domains if fold(d.name) == fold(name)]
            if not match:
                raise FormulaError(f"unknown variable {name!r}", allowed=[d.name for d in table.domains])
            name = match[0]
        return table.domains[table.index[name]]

    def _value(self, node: Node) -> tuple[Kind, np.ndarray]:
        n = self.state.size
        table = self.state.table
        if isinstance(node, Int):
            return INT, np.full(n, node.value, dtype=np.int64)
        if isinstance(node, BoolConst):
            return BOOL, np.full(n, node.value, dtype=bool)
        if isinstance(node, Str):
            raise FormulaError(f"the name '{node.value}' can only be compared with a variable")
        if isinstance(node, Name):
            dom = self._domain(node.name)
            kind = INT if dom.labels is None else Kind(dom.name, dom)
            col = table.column(dom.name)
            if col.dtype == object and fits_int64(min(dom.values), max(dom.values)):
                col = col.astype(np.int64)
            return kind, col
        if isinstance(node, Neg):
            val = self.number(node.operand)
            return INT, _fit(-_exact(val, self.bounds(node)), self.bounds(node))
        if isinstance(node, Arith):
            acc, acc_b = self.number(node.first), self.bounds(node.first)
            for op, x in node.rest:
                val = self.number(x)
                if op in ("//", "%") and np.any(val == 0):
                    raise FormulaError(f"division by zero in {to_text(node)!r}")
                res_b = interval(op, acc_b, self.bounds(x))
                acc = _apply(op, acc, val, res_b)
                acc_b = res_b
            return INT, acc
        if isinstance(node, Compare):
            return BOOL, self._compare(node)
        if isinstance(node, (And, Or)):
            out = self.truth(node.args[0]).copy()
            for arg in node.args[1:]:
                out = (out & self.truth(arg)) if isinstance(node, And) else (out | self.truth(arg))
            return BOOL, out
        if isinstance(node, Implies):
            return BOOL, ~self.truth(node.left) | self.truth(node.right)
        if isinstance(node, Not):
            return BOOL, ~self.truth(node.operand)
        if isinstance(node, Knows):
            return BOOL, self._knows(self.state.relation(node.agent), node.what)
        if isinstance(node, Distributed):
            rel = self.state.distributed(node.agents)
            return BOOL, self._knows(rel, node.what)
        if isinstance(node, Common):
            return BOOL, self.state.common_knowledge(self.truth(node.what), node.agents)
        if isinstance(node, After):
            told = self.truth(node.announcement)
            out = ~told
            out[told] = Evaluator(self.state.restrict(told)).truth(node.what)
            return BOOL, out
        if isinstance(node, Call):
            if node.func == "count":
                return INT, sum((self.truth(a).astype(np.int64) for a in node.args), np.zeros(n, np.int64))
            nums = [self.number(a) for a in node.args]
            if node.func == "abs":
                return INT, _fit(np.abs(_exact(nums[0], self.bounds(node))), self.bounds(node))
            reduce = np.minimum if node.func == "min" else np.maximum
            extreme: np.ndarray = nums[0]
            for other in nums[1:]:   # fitted once at the end: a partial extreme may not fit the whole's range
                extreme = reduce(*_common(extreme, other))
            return INT, _fit(extreme, self.bounds(node))
        raise FormulaError(f"cannot evaluate {node!r}")  # pragma: no cover

    def _knows(self, rel: Relation, what: Node | None) -> np.ndarray:
        """Knows the whole world (None), that a formula holds, or an expression's value."""
        if what is None:
            if self.state.distinct:
                return rel.size() <= 1
            out = np.ones(self.state.size, dtype=bool)
            for d in self.state.table.domains:
                out &= rel.constant(self.state.table.column(d.name))
            return out
        kind, val = self.value(what)
        if kind is BOOL:
            return rel.all(val)
        return rel.constant(val)

    def _compare(self, node: Compare) -> np.ndarray:
        left, right = node.left, node.right
        if isinstance(left, Str) and not isinstance(right, Str):
            left, right = right, left
            op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(node.op, node.op)
        else:
            op = node.op
        lk, lv = self.value(left)
        if isinstance(right, Str):
            if lk.domain is None or lk.domain.labels is None:
                raise FormulaError(f"{to_text(left)!r} is not a named value; it cannot equal '{right.value}'")
            try:
                code = lk.domain.code(right.value)
            except PuzzleError as exc:
                raise FormulaError(f"'{right.value}' is not a value of {lk.domain.name!r}",
                                   allowed=exc.allowed) from None
            rk, rv = lk, np.full_like(lv, code)
        else:
            rk, rv = self.value(right)
        if lk != rk:
            raise FormulaError(f"cannot compare {lk.name} with {rk.name} in {to_text(node)!r}")
        if lk is not INT and op not in ("==", "!="):
            raise FormulaError(f"only == and != compare {lk.name} values, in {to_text(node)!r}")
        lv, rv = _common(lv, rv)
        out = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
               ">=": np.greater_equal}[op](lv, rv)
        return np.asarray(out, dtype=bool)


def interval(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    """The exact range of ``x op y`` for ``x`` in ``a`` and ``y`` in ``b`` (a superset for ``//`` and ``%``)."""
    if op == "+":
        return a[0] + b[0], a[1] + b[1]
    if op == "-":
        return a[0] - b[1], a[1] - b[0]
    if op == "*":
        corners = [x * y for x in a for y in b]
        return min(corners), max(corners)
    if op == "//":   # |x // y| <= |x| when y != 0
        m = max(abs(a[0]), abs(a[1]))
        return -m, m
    m = max(abs(b[0]), abs(b[1]))   # %: |x % y| < |y|
    return -m, m


def _exact(values: np.ndarray, result: tuple[int, int]) -> np.ndarray:
    """The operand as exact Python integers when the result's range leaves ``int64``."""
    return values if fits_int64(*result) else values.astype(object)


def _fit(values: np.ndarray, result: tuple[int, int]) -> np.ndarray:
    """Back to ``int64`` when the result's range fits."""
    return values.astype(np.int64) if values.dtype == object and fits_int64(*result) else values


def _common(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both as ``int64``, or both as exact objects when either is."""
    if a.dtype == object or b.dtype == object:
        return a.astype(object), b.astype(object)
    return a, b


def _apply(op: str, a: np.ndarray, b: np.ndarray, result: tuple[int, int]) -> np.ndarray:
    """``a op b`` exactly: in ``int64`` when the operands and the result fit, else on Python integers."""
    if not fits_int64(*result):
        a, b = a.astype(object), b.astype(object)
    else:
        a, b = _common(a, b)
    out = {"+": np.add, "-": np.subtract, "*": np.multiply, "//": np.floor_divide, "%": np.remainder}[op](a, b)
    return _fit(np.asarray(out), result)
