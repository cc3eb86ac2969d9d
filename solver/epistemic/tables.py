"""World tables: domains, worlds as rows of a vectorised table, and the declarative model of the starting worlds."""

from __future__ import annotations

import functools

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import PuzzleError
from ..formula import (Compare, Name, Node, Or, Str, is_epistemic, parse)
from ..schema import fold
from .compilation import SOLVER_LIMIT, ModelCompiler
from .evaluation import Evaluator, PlainWorlds, fits_int64

DEFAULT_TABLE_LIMIT = 50_000_000   # largest domain product built by brute force
CHUNK = 2_000_000


def table_dtype(domains: Sequence[Domain]) -> Any:
    """``int64`` when every domain value fits, else ``object`` (exact Python integers)."""
    return np.int64 if all(fits_int64(min(d.values), max(d.values)) for d in domains if d.values) else object


@dataclass(frozen=True)
class Domain:
    """A variable's values: integers, or names (stored as their index in ``labels``)."""

    name: str
    values: tuple[int, ...]
    labels: tuple[str, ...] | None = None

    @staticmethod
    def of(name: str, values: Iterable[int | str]) -> Domain:
        vals = list(values)
        if not vals:
            raise PuzzleError(f"variable {name!r} has an empty domain")
        names = [v for v in vals if isinstance(v, str)]
        if len(names) == len(vals):
            if any(not fold(v) for v in names):
                raise PuzzleError(f"variable {name!r} has an empty name among its values",
                                  allowed="names with a letter or digit")
            first: dict[str, str] = {}
            for v in names:
                first.setdefault(fold(v), v)   # names compare case-insensitively; the first spelling is kept
            labels = tuple(first.values())
            return Domain(name, tuple(range(len(labels))), labels)
        if all(isinstance(v, int) and not isinstance(v, bool) for v in vals):
            return Domain(name, tuple(sorted(set(vals))))  # type: ignore[arg-type]
        raise PuzzleError(f"variable {name!r} mixes names and numbers in its domain")

    def code(self, value: int | str) -> int:
        if self.labels is None:
            if isinstance(value, int) and not isinstance(value, bool) and value in self.values:
                return value
        elif isinstance(value, str):
            found = self._folded.get(fold(value))
            if found is not None:
                return found
        raise PuzzleError(f"{value!r} is not a value of {self.name!r}",
                          allowed=self.labels if self.labels is not None else range_text(self.values))

    @functools.cached_property
    def _folded(self) -> dict[str, int]:
        """Each label's folded spelling -> its code (the first label that folds to it)."""
        out: dict[str, int] = {}
        for i, label in enumerate(self.labels or ()):
            out.setdefault(fold(label), i)
        return out

    def show(self, code: int) -> int | str:
        return self.labels[code] if self.labels is not None else int(code)


def range_text(values: Sequence[int]) -> str:
    if values and list(values) == list(range(values[0], values[-1] + 1)):
        return f"{values[0]}..{values[-1]}"
    return ", ".join(map(str, values))


# -- world tables -------------------------------------------------------------------------------------

class WorldTable:
    """Worlds as rows of an array with one column per variable (``int64``, or exact objects when a domain
    value leaves ``int64``)."""

    def __init__(self, domains: Sequence[Domain], data: np.ndarray | Sequence[Sequence[int]]) -> None:
        self.domains = tuple(domains)
        self.dtype = table_dtype(self.domains)
        self.data = np.ascontiguousarray(np.asarray(data, dtype=self.dtype)).reshape(-1, len(self.domains))
        self.index = {d.name: i for i, d in enumerate(self.domains)}

    def __len__(self) -> int:
        return int(self.data.shape[0])

    def column(self, name: str) -> np.ndarray:
        return self.data[:, self.index[name]]

    def subset(self, mask: np.ndarray) -> WorldTable:
        return WorldTable(self.domains, self.data[mask])

    def rows(self, limit: int | None = None) -> list[dict[str, int | str]]:
        data = self.data if limit is None else self.data[:limit]
        return [{d.name: d.show(int(v)) for d, v in zip(self.domains, row, strict=True)} for row in data]

    def as_set(self) -> set[tuple[int, ...]]:
        return set(map(tuple, self.data.tolist()))

    def sorted(self) -> WorldTable:
        if self.dtype is object:
            order = np.array(sorted(range(len(self)), key=lambda i: tuple(self.data[i])), dtype=np.int64)
        else:
            order = np.lexsort(self.data.T[::-1]) if len(self) else np.arange(0)
        return WorldTable(self.domains, self.data[order])

    # -- building -----------------------------------------------------------------------------------
    @classmethod
    def from_rows(cls, domains: Sequence[Domain], rows: Iterable[Mapping[str, int | str]]) -> WorldTable:
        data = [[d.code(row[d.name]) for d in domains] for row in rows]
        return cls(domains, np.array(data, dtype=table_dtype(domains)).reshape(-1, len(domains)))

    @classmethod
    def from_product(cls, domains: Mapping[str, Iterable[int | str]] | Sequence[Domain],
                     constraints: Sequence[str | Node] = (), *, limit: int = DEFAULT_TABLE_LIMIT) -> WorldTable:
        """Every combination of domain values that satisfies the constraints, built vectorised.

        Propagation first: a constraint that is a disjunction of definitions (``a == b + c or b == a + c``)
        is not filtered over the whole product; each definition computes its variable from the others.
        Everything else is filtered over the product, in chunks.
        """
        doms = _domains(domains)
        nodes = [parse(c) if isinstance(c, str) else c for c in constraints]
        for i, node in enumerate(nodes):
            defs = _definitions(node, {d.name for d in doms})
            if defs is not None:
                return cls._from_definitions(doms, defs, nodes[:i] + nodes[i + 1:], limit)
        return cls._filtered_product(doms, nodes, limit)

    @classmethod
    def _filtered_product(cls, doms: Sequence[Domain], nodes: Sequence[Node], limit: int) -> WorldTable:
        sizes = [len(d.values) for d in doms]
        total = int(np.prod(sizes, dtype=object))
        if total > limit:
            raise PuzzleError(f"the domains have {total} combinations, more than the table limit {limit}",
                              allowed="a solver-built world set (--method model) or smaller domains")
        dtype = table_dtype(doms)
        values = [np.array(d.values, dtype=dtype) for d in doms]
        kept = []
        for start in range(0, total, CHUNK):
            idx = np.arange(start, min(start + CHUNK, total), dtype=np.int64)
            data = np.empty((len(idx), len(doms)), dtype=dtype)
            for j in range(len(doms) - 1, -1, -1):
                data[:, j] = values[j][idx % sizes[j]]
                idx //= sizes[j]
            kept.append(cls(doms, data).filter(nodes).data)
        data = np.concatenate(kept) if kept else np.zeros((0, len(doms)), dtype=dtype)
        return cls(doms, data)

    @classmethod
    def _from_definitions(cls, doms: Sequence[Domain], defs: Sequence[tuple[str, Node]],
                          rest: Sequence[Node], limit: int) -> WorldTable:
        parts = []
        for var, expr in defs:
            others = [d for d in doms if d.name != var]
            free = [n for n in rest if var not in _names(n)]
            sub = cls.from_product(others, free, limit=limit)
            defined = Evaluator(PlainWorlds(sub)).number(expr)
            dom = next(d for d in doms if d.name == var)
            ok = np.isin(defined, np.array(dom.values, dtype=defined.dtype))
            cols = {d.name: sub.column(d.name)[ok] for d in others}
            cols[var] = defined[ok]
            dtype = table_dtype(doms)
            table = cls(doms, np.stack([np.asarray(cols[d.name], dtype=dtype) for d in doms], axis=1))
            parts.append(table.filter([n for n in rest if var in _names(n)]).data)
        table = cls(doms, np.concatenate(parts))
        if table.dtype is object:
            return cls(doms, list(dict.fromkeys(map(tuple, table.data.tolist())))).sorted()
        return cls(doms, np.unique(table.data, axis=0))

    def filter(self, nodes: Sequence[Node]) -> WorldTable:
        """The worlds where every (non-epistemic) formula holds."""
        if not nodes or not len(self):
            return self
        ev = Evaluator(PlainWorlds(self))
        mask = np.ones(len(self), dtype=bool)
        for node in nodes:
            mask &= ev.truth(node)
        return self.subset(mask)

    @classmethod
    def from_solver(cls, domains: Mapping[str, Iterable[int | str]] | Sequence[Domain],
                    constraints: Sequence[str | Node] = (), *, backend: str = "cpsat",
                    limit: int | None = None, rows: Sequence[Sequence[int]] | None = None) -> WorldTable:
        """The same set, enumerated by a constraint solver from the compiled constraints.

        ``rows`` (coded values, one per domain) restricts the worlds to an explicit list: a table constraint.
        More than ``limit`` worlds raise :class:`~sleuth.limits.TooLarge` (the enumeration stops there).
        """
        from ..backends import make_backend

        doms = _domains(domains)
        model, order = world_model(doms, constraints, rows)
        found = [[e.value(sol) for e in order]
                 for sol in make_backend(model, backend).solutions(limit=None if limit is None else limit + 1)]
        if limit is not None and len(found) > limit:
            from ..limits import TooLarge
            raise TooLarge(f"more than {limit:,} worlds satisfy the constraints, more than the limit (--set "
                           "max_worlds, else the memory budget); raise either, or narrow the domains")
        return cls(doms, np.array(found, dtype=table_dtype(doms)).reshape(-1, len(doms))).sorted()


def world_model(domains: Sequence[Domain], constraints: Sequence[str | Node] = (),
                rows: Sequence[Sequence[int]] | None = None) -> tuple[Any, list[Any]]:
    """The declarative model of the starting worlds: a variable per domain (a boolean per value for a sparse
    one), the listed ``rows`` as a table constraint, the constraints compiled.  Returns the model and, per
    domain, the linear expression that is its value."""
    from ..model import LinearExpr, Model, as_expr

    for d in domains:
        lo, hi = min(d.values), max(d.values)
        if max(-lo, hi) > SOLVER_LIMIT:
            raise PuzzleError(f"variable {d.name!r} ranges over {lo}..{hi}, beyond what the constraint solvers"
                              f" take (|value| <= 2^62)", allowed="--method table, or smaller values")
    model = Model()
    variables: dict[str, Any] = {}
    for d in domains:
        lo, hi = min(d.values), max(d.values)
        if len(d.values) == hi - lo + 1 or rows is not None:  # a listed world fixes every value
            variables[d.name] = model.int_var(lo, hi, d.name)
        else:   # a sparse domain: one boolean per value (no backend enumerates the gaps)
            picks = [model.bool_var(f"{d.name}={v}") for v in d.values]
            model.add(LinearExpr.sum_of(picks) == 1)
            variables[d.name] = LinearExpr({b: v for b, v in zip(picks, d.values, strict=True)}, 0)
    if rows is not None:
        model.add_table([variables[d.name] for d in domains], rows)
    compiler = ModelCompiler(model, variables, {d.name: d for d in domains})
    for c in constraints:
        compiler.require(parse(c) if isinstance(c, str) else c)
    return model, [as_expr(variables[d.name]) for d in domains]


def _names(node: Node) -> set[str]:
    from ..formula import names_in
    return names_in(node)


def _definitions(node: Node, variables: set[str]) -> list[tuple[str, Node]] | None:
    """``[(v, e), ...]`` when the formula is ``v1 == e1 or v2 == e2 ...`` with each ``v`` a variable that its
    ``e`` does not mention (a disjunction of definitions), else None."""
    if isinstance(node, Or):
        out: list[tuple[str, Node]] = []
        for arg in node.args:
            part = _definitions(arg, variables)
            if part is None:
                return None
            out += part
        return out
    if isinstance(node, Compare) and node.op == "==":
        for side, other in ((node.left, node.right), (node.right, node.left)):
            if isinstance(side, Name) and side.name in variables and side.name not in _names(other) \
                    and not isinstance(other, Str) and not is_epistemic(other):
                return [(side.name, other)]
    return None


def _domains(domains: Mapping[str, Iterable[int | str]] | Sequence[Domain]) -> list[Domain]:
    if isinstance(domains, Mapping):
        return [Domain.of(name, vals) for name, vals in domains.items()]
    return list(domains)
