"""The epistemic layer: worlds, agents who observe parts of a world, knowledge, announcements and events.

Knowledge of others is modelled as nested models per agent: what agent *a* knows in world *w* is what holds
in every world *a* considers possible from *w*.  At the start that is every world with the same observed
values (a partition, S5).  Events (action models with preconditions and factual change, private and
semi-private announcements) replace worlds by (world, event) pairs, and an agent's relation by the product
of its relation and its relation over the events; a private event can leave an agent believing something
false, so a relation is stored as *belief cells* (:class:`Relation`, KD45), a partition being the special
case.  Worlds are rows of a vectorised table (numpy), so the knowledge operators are a grouping and a
reduction, and announcements are row filters; the set of worlds a puzzle starts from can be built by brute
force over the product of the domains (vectorised, chunked) or enumerated by a constraint solver, and the
two must agree.

Arithmetic is exact.  Every integer expression has a range computed from the domains (:meth:`Evaluator.bounds`);
it is evaluated in ``int64`` only where that range (and its operands') fits, otherwise on object arrays of
Python integers.  Tables whose values leave ``int64`` are object arrays.  Formulas compiled for a constraint
solver are refused, with the expression and its range, when a range leaves :data:`SOLVER_LIMIT`.

>>> table = WorldTable.from_product({"x": range(1, 4), "y": range(1, 4)}, ["x <= y"])
>>> state = KnowledgeState(table, {"S": ["x + y"], "P": ["x * y"]})
>>> state.count, state.announce("knows(S)").count
(6, 4)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .errors import PuzzleError
from .formula import (After, And, Arith, BoolConst, Call, Common, Compare, Distributed, FormulaError, Implies, Int,
                      Knows, Name, Neg, Node, Not, Or, Str, is_epistemic, parse, to_text)
from .knowledge import class_all, class_constant, group_ids
from .names import unique_keys
from .schema import fold

DEFAULT_TABLE_LIMIT = 50_000_000   # largest domain product built by brute force
CHUNK = 2_000_000
INT64_MAX = 2 ** 63 - 1
SOLVER_LIMIT = 2 ** 62             # |value| bound of every expression compiled for CP-SAT / python-constraint


def fits_int64(lo: int, hi: int) -> bool:
    """Whether every integer in ``lo..hi`` is an exact ``int64``."""
    return lo >= -INT64_MAX and hi <= INT64_MAX


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
            for i, label in enumerate(self.labels):
                if fold(label) == fold(value):
                    return i
        raise PuzzleError(f"{value!r} is not a value of {self.name!r}",
                          allowed=self.labels if self.labels is not None else _range_text(self.values))

    def show(self, code: int) -> int | str:
        return self.labels[code] if self.labels is not None else int(code)


def _range_text(values: Sequence[int]) -> str:
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

    def duplicate(self) -> tuple[int, int] | None:
        """The first pair of equal rows ``(i, j)``, ``i < j``, or None."""
        seen: dict[tuple[int, ...], int] = {}
        for j, row in enumerate(map(tuple, self.data.tolist())):
            if row in seen:
                return seen[row], j
            seen[row] = j
        return None

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
            defined = Evaluator(KnowledgeState(sub, {})).number(expr)
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
        ev = Evaluator(KnowledgeState(self, {}))
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
        from .backends import make_backend

        doms = _domains(domains)
        model, order = world_model(doms, constraints, rows)
        found = [[e.value(sol) for e in order]
                 for sol in make_backend(model, backend).solutions(limit=None if limit is None else limit + 1)]
        if limit is not None and len(found) > limit:
            from .limits import TooLarge
            raise TooLarge(f"more than {limit:,} worlds satisfy the constraints, more than the limit (--set "
                           "max_worlds, else the memory budget); raise either, or narrow the domains")
        return cls(doms, np.array(found, dtype=table_dtype(doms)).reshape(-1, len(doms))).sorted()


def world_model(domains: Sequence[Domain], constraints: Sequence[str | Node] = (),
                rows: Sequence[Sequence[int]] | None = None) -> tuple[Any, list[Any]]:
    """The declarative model of the starting worlds: a variable per domain (a boolean per value for a sparse
    one), the listed ``rows`` as a table constraint, the constraints compiled.  Returns the model and, per
    domain, the linear expression that is its value."""
    from .model import LinearExpr, Model, as_expr

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
    from .formula import names_in
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


# -- knowledge ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Relation:
    """An agent's accessibility as belief cells: world *w* considers possible exactly the worlds *v* with
    ``member[v] == target[w]`` (``member[v] == -1``: *v* is in no cell).  Euclidean and transitive (KD45 while
    no cell is empty); knowledge (S5, a partition) is the case ``target is member``."""

    target: np.ndarray
    member: np.ndarray

    @staticmethod
    def partition(ids: np.ndarray) -> Relation:
        return Relation(ids, ids)

    @property
    def s5(self) -> bool:
        return self.target is self.member

    def restrict(self, mask: np.ndarray) -> Relation:
        """The relation on the selected worlds (a boolean mask, or row indices, repeats allowed)."""
        if self.s5:
            return Relation.partition(self.target[mask])
        return Relation(self.target[mask], self.member[mask])

    def _cells(self) -> int:
        if not len(self.target):
            return 1
        return int(max(self.target.max(), self.member.max())) + 1

    def all(self, mask: np.ndarray) -> np.ndarray:
        """Per world: does the mask hold in every world it considers possible?"""
        if self.s5:
            return class_all(self.target, mask)
        if not len(self.target):
            return np.zeros(0, dtype=bool)
        inside = self.member >= 0
        bad = np.bincount(self.member[inside], weights=(~mask[inside]).astype(np.float64), minlength=self._cells())
        out: np.ndarray = bad[self.target] == 0
        return out

    def size(self) -> np.ndarray:
        """Per world: how many worlds it considers possible."""
        if not len(self.target):
            return np.zeros(0, dtype=np.int64)
        inside = self.member >= 0
        out: np.ndarray = np.bincount(self.member[inside], minlength=self._cells())[self.target]
        return out

    def constant(self, values: np.ndarray) -> np.ndarray:
        """Per world: is the value the same in every world it considers possible (vacuously, in none)?"""
        if self.s5:
            return class_constant(self.target, values)
        if not len(self.target):
            return np.zeros(0, dtype=bool)
        k = self._cells()
        inside = self.member >= 0
        lo = np.full(k, np.iinfo(np.int64).max, dtype=np.int64)
        hi = np.full(k, np.iinfo(np.int64).min, dtype=np.int64)
        np.minimum.at(lo, self.member[inside], values[inside])
        np.maximum.at(hi, self.member[inside], values[inside])
        out: np.ndarray = (lo >= hi)[self.target]
        return out

    @staticmethod
    def meet(parts: Sequence[tuple[Relation, np.ndarray | None]]) -> Relation:
        """The intersection of relations, each optionally refined by a key per world (``None``: no key)."""
        n = len(parts[0][0].target)
        if all(rel.s5 for rel, _ in parts):
            cols = [rel.target for rel, _ in parts] + [key for _, key in parts if key is not None]
            return Relation.partition(group_ids(cols, n))
        tcols = [rel.target for rel, _ in parts] + [key for _, key in parts if key is not None]
        mcols = [rel.member for rel, _ in parts] + [key for _, key in parts if key is not None]
        inside = np.ones(n, dtype=bool)
        for rel, _ in parts:
            inside &= rel.member >= 0
        ids = group_ids([np.concatenate([t, m[inside]]) for t, m in zip(tcols, mcols, strict=True)],
                        n + int(inside.sum()))
        member = np.full(n, -1, dtype=np.int64)
        member[inside] = ids[n:]
        return Relation(ids[:n], member)


@dataclass(frozen=True)
class Event:
    """One event of an action model: where it can happen (``pre``), what it sets (factual change, each value
    computed in the world before the event) and whether it may be the event that really happens."""

    name: str
    pre: Node = BoolConst(True)
    post: tuple[tuple[str, Node], ...] = ()
    designated: bool = True


@dataclass(frozen=True)
class ActionModel:
    """Events and, per agent, the events it considers possible when each one happens (an agent not listed
    cannot tell the events apart).  ``learn``: split every event by the value of an expression (taken before
    the event) for the named agents, as if it were one event per value told apart by them only."""

    events: tuple[Event, ...]
    relations: Mapping[str, Sequence[Sequence[int]]] = field(default_factory=dict)
    learn: tuple[Node, tuple[str, ...], tuple[int, ...]] | None = None   # (expression, agents, events)
    actual: int | None = None   # the event that happens at the actual world, when several could

    def relation(self, agent: str) -> Relation:
        """The agent's belief cells over the events; a partition when its relation is one."""
        n = len(self.events)
        sets = self.relations.get(agent)
        if sets is None:
            return Relation.partition(np.zeros(n, dtype=np.int64))
        cells: dict[frozenset[int], int] = {}
        target = np.array([cells.setdefault(frozenset(r), len(cells)) for r in sets], dtype=np.int64)
        member = np.full(n, -1, dtype=np.int64)
        for e, r in enumerate(sets):
            for f in r:
                if member[f] not in (-1, target[e]) or frozenset(sets[f]) != frozenset(r):
                    raise PuzzleError(f"agent {agent!r}: the events it considers possible are not a belief "
                                      "relation (what it considers possible from one event must be the same "
                                      "from every event it considers possible there)",
                                      allowed="a partition of the events, or event -> events (transitive, "
                                              "euclidean)")
                member[f] = target[e]
        if all(e in r for e, r in enumerate(sets)):
            return Relation.partition(target)
        return Relation(target, member)


class KnowledgeState:
    """The worlds of a model and the agents, each observing some expressions of the world.

    ``agents`` maps an agent's name to the expressions (text or parsed) it observes; two worlds are
    indistinguishable to an agent when all of them take the same values.  After an event the relations are
    explicit (:class:`Relation`); ``designated`` marks the worlds that may be the actual one (the others are
    only believed possible by someone, e.g. the "nothing happened" copy of a private event), and ``point``
    follows the actual world when one is given.
    """

    def __init__(self, table: WorldTable, agents: Mapping[str, Sequence[str | Node]]) -> None:
        self.table = table
        unique_keys("agent", agents, "agents")
        self.agents = {name: tuple(parse(e) if isinstance(e, str) else e for e in exprs)
                       for name, exprs in agents.items()}
        self._agent_names = {fold(a): a for a in self.agents}
        self._relations: dict[str, Relation] = {}
        self.designated: np.ndarray | None = None   # None: every world
        self.distinct = True                        # no two worlds share their values
        self.point: int | None = None
        self.point_lost: str | None = None          # why the actual world is no longer known

    @property
    def count(self) -> int:
        """The worlds that may be the actual one."""
        return len(self.table) if self.designated is None else int(self.designated.sum())

    @property
    def size(self) -> int:
        """Every world of the model, designated or not."""
        return len(self.table)

    def designated_mask(self) -> np.ndarray:
        return np.ones(len(self.table), dtype=bool) if self.designated is None else self.designated

    def worlds(self) -> WorldTable:
        """The worlds that may be the actual one."""
        return self.table if self.designated is None else self.table.subset(self.designated)

    def agent(self, name: str) -> str:
        found = self._agent_names.get(fold(name))
        if found is None:
            raise FormulaError(f"unknown agent {name!r}", allowed=list(self.agents))
        return found

    def group(self, names: Sequence[str] | None) -> list[str]:
        return list(self.agents) if names is None else list(dict.fromkeys(self.agent(a) for a in names))

    def relation(self, agent: str) -> Relation:
        agent = self.agent(agent)
        if agent not in self._relations:
            ev = Evaluator(self)
            cols = [ev.value(e)[1] for e in self.agents[agent]]
            self._relations[agent] = Relation.partition(group_ids(cols, len(self.table)))
        return self._relations[agent]

    def classes(self, agent: str) -> np.ndarray:
        """For each world, the id of the agent's indistinguishability class (small non-negative integers)."""
        rel = self.relation(agent)
        if not rel.s5:
            raise FormulaError(f"agent {agent!r} has beliefs, not a partition, after a private event")
        return rel.target

    def _child(self, table: WorldTable, relations: dict[str, Relation]) -> KnowledgeState:
        child = KnowledgeState(table, {})
        child.agents, child._agent_names = self.agents, self._agent_names
        child._relations = relations
        child.distinct = self.distinct
        return child

    def restrict(self, mask: np.ndarray) -> KnowledgeState:
        """The state with only the masked worlds.  What an agent considers possible does not grow, so the
        relations already computed are inherited (ids need not be dense: they index bincounts)."""
        child = self._child(self.table.subset(mask), {a: r.restrict(mask) for a, r in self._relations.items()})
        if self.designated is not None:
            child.designated = self.designated[mask]
        child.point_lost = self.point_lost
        if self.point is not None:
            if mask[self.point]:
                child.point = int(np.count_nonzero(mask[:self.point]))
            else:
                child.point_lost = "the actual world was ruled out"
        return child

    def truth(self, formula: str | Node) -> np.ndarray:
        return Evaluator(self).truth(parse(formula) if isinstance(formula, str) else formula)

    def announce(self, formula: str | Node) -> KnowledgeState:
        """A truthful public announcement: keep the worlds where the formula holds (evaluated now)."""
        return self.restrict(self.truth(formula))

    def announce_until_stable(self, formula: str | Node, max_rounds: int = 10_000) -> tuple[KnowledgeState, int]:
        """Repeat an announcement until the world set stops changing; returns the state and the rounds."""
        state = self
        for rounds in range(1, max_rounds + 1):
            nxt = state.announce(formula)
            if nxt.size == state.size:
                return nxt, rounds
            state = nxt
        return state, max_rounds

    def update(self, action: ActionModel) -> KnowledgeState:
        """The product update: a world per (world, event) where the event's precondition holds, with the
        event's factual change applied; an agent considers (v, f) possible from (w, e) when it considers v
        possible from w and f possible from e, the learnt values agree (``learn``) and, after a factual
        change, what the agent observes has the same values in both (it keeps observing its expressions)."""
        ev = Evaluator(self)
        n_events = len(action.events)
        pres = [ev.truth(e.pre) for e in action.events]
        rows_w = [np.flatnonzero(p) for p in pres]
        src_w = np.concatenate(rows_w) if rows_w else np.zeros(0, dtype=np.int64)
        src_e = np.concatenate([np.full(len(r), e, dtype=np.int64) for e, r in enumerate(rows_w)])
        data = self.table.data[src_w].copy()
        start = 0
        for e, event in enumerate(action.events):
            rows = slice(start, start + len(rows_w[e]))
            for var, node in event.post:
                data[rows, self.table.index[var]] = assigned(ev, self.table, var, node, rows_w[e])
            start += len(rows_w[e])
        table = WorldTable(self.table.domains, data)
        learnt: np.ndarray | None = None
        if action.learn is not None:
            expr, _, where = action.learn
            values = ev.value(expr)[1][src_w].astype(np.int64)
            learnt = np.where(np.isin(src_e, where), values, values.min() - 1 if len(values) else 0)
        relations = {}
        after = Evaluator(KnowledgeState(table, {})) if any(e.post for e in action.events) else None
        for agent in self.agents:
            key = learnt if action.learn is not None and agent in action.learn[1] else None
            # agents keep observing their expressions: after a factual change they see the new values
            seen = None if after is None or not self.agents[agent] else \
                group_ids([after.value(e)[1] for e in self.agents[agent]], len(table))
            relations[agent] = Relation.meet([(self.relation(agent).restrict(src_w), key),
                                              (action.relation(agent).restrict(src_e), seen)])
        child = self._child(table, relations)
        designated = np.array([e.designated for e in action.events], dtype=bool)[src_e]
        if self.designated is not None:
            designated &= self.designated[src_w]
        child.designated = None if designated.all() else designated
        changes = any(e.post for e in action.events)
        child.distinct = self.distinct and n_events == 1 and not changes
        child.point_lost = self.point_lost
        if self.point is not None:
            at = np.flatnonzero((src_w == self.point) & designated)
            if action.actual is not None:
                at = at[src_e[at] == action.actual]
            if len(at) == 1:
                child.point = int(at[0])
            else:
                child.point_lost = ("no event can happen at the actual world" if not len(at) else
                                    "several events can happen at the actual world; name the actual one")
        return child

    def accessibility_graph(self, agents: Sequence[str] | None = None) -> Any:
        """The Kripke structure as a networkx digraph: worlds are nodes ``0..n-1``; each belief cell of each
        agent is a node ``("cell", agent, id)`` with an edge from every world that considers the cell possible
        and an edge to every world in it (linear size; a world reaches v in one step iff some agent considers
        v possible from it)."""
        import networkx as nx

        graph = nx.DiGraph()
        graph.add_nodes_from(range(self.size))
        for agent in self.group(agents):
            rel = self.relation(agent)
            graph.add_edges_from(zip(range(self.size), (("cell", agent, int(c)) for c in rel.target),
                                     strict=True))
            inside = np.flatnonzero(rel.member >= 0)
            graph.add_edges_from(zip((("cell", agent, int(c)) for c in rel.member[inside]), inside.tolist(),
                                     strict=True))
        return graph

    def common_knowledge(self, formula: str | Node, agents: Sequence[str] | None = None) -> np.ndarray:
        """Worlds where the formula is common knowledge (common belief) among ``agents``: it holds in every
        world reachable in one step or more through the group's relations."""
        holds = self.truth(formula) if isinstance(formula, (str, Node)) else formula
        return common(self, holds, agents)


def common(state: KnowledgeState, holds: np.ndarray, agents: Sequence[str] | None) -> np.ndarray:
    """Per world: ``holds`` is true in every world reachable in >= 1 step through the agents' relations.
    The worlds that can reach a counterexample are the ancestors of its cells in the accessibility graph."""
    import networkx as nx

    names = state.group(agents)
    result = np.ones(state.size, dtype=bool)
    bad = np.flatnonzero(~holds)
    if not len(bad):
        return result
    if all(state.relation(a).s5 for a in names):   # reflexive, symmetric: components of the union
        graph = nx.Graph()
        graph.add_nodes_from(range(state.size))
        for a in names:
            graph.add_edges_from(zip(range(state.size), (("cell", a, int(c)) for c in state.relation(a).target),
                                     strict=True))
        for comp in nx.connected_components(graph):
            worlds = [w for w in comp if isinstance(w, int)]
            if not holds[worlds].all():
                result[worlds] = False
        return result
    graph = state.accessibility_graph(names)
    sources = {("cell", a, int(state.relation(a).member[w])) for a in names for w in bad.tolist()
               if state.relation(a).member[w] >= 0}
    reached: set[Any] = set()
    for src in sources:
        if src not in reached:
            reached |= nx.ancestors(graph, src) | {src}
    worlds = [w for w in reached if isinstance(w, int)]
    result[worlds] = False
    return result


def assigned(ev: Evaluator, table: WorldTable, var: str, node: Node, rows: np.ndarray) -> np.ndarray:
    """The values a factual change gives ``var`` in the worlds ``rows`` (computed before the event)."""
    dom = table.domains[table.index[var]]
    if isinstance(node, Str):
        try:
            return np.full(len(rows), dom.code(node.value), dtype=np.int64)
        except PuzzleError as exc:
            raise FormulaError(exc.message, allowed=exc.allowed) from None
    kind, val = ev.value(node)
    if (dom.labels is None) != (kind in (INT, BOOL)) or (dom.labels is not None and kind.domain != dom):
        raise FormulaError(f"{to_text(node)!r} is {kind.name}-valued; it cannot be assigned to {var!r}")
    out: np.ndarray = val[rows].astype(np.int64)
    ok = np.isin(out, np.array(dom.values, dtype=np.int64))
    if not ok.all():
        raise FormulaError(f"setting {var!r} to {to_text(node)!r} gives {dom.show(int(out[~ok][0]))}, outside its "
                           "domain", allowed=dom.labels if dom.labels is not None else _range_text(dom.values))
    return out


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

    state: KnowledgeState
    _cache: dict[int, tuple[Node, Kind, np.ndarray]] = field(default_factory=dict)
    _bounds: dict[Node, tuple[int, int]] = field(default_factory=dict)

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
        if node not in self._bounds:
            self._bounds[node] = self._bounds_of(node)
        return self._bounds[node]

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
                acc = _interval(op, acc, self.bounds(x))
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
                res_b = _interval(op, acc_b, self.bounds(x))
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
            rel = Relation.meet([(self.state.relation(a), None) for a in self.state.group(node.agents)])
            return BOOL, self._knows(rel, node.what)
        if isinstance(node, Common):
            return BOOL, common(self.state, self.truth(node.what), node.agents)
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
            for other in nums[1:]:
                extreme = _fit(reduce(*_common(extreme, other)), self.bounds(node))
            return INT, extreme
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


def _interval(op: str, a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
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
        from .model import Clause

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
        from .model import LinearExpr, as_expr

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
        from .model import LinearExpr, as_expr

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
