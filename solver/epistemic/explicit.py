"""The explicit engine (``--method table``): an epistemic state on a world table (:class:`ExplicitState`: the
worlds listed as rows, each agent's belief cells, action models and the state's updates).  The knowledge and
belief operators are a grouping and a reduction on :mod:`sleuth.knowledge`, the one layer for what a player
knows in each world; :mod:`.symbolic` is the same on decision diagrams."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import PuzzleError
from ..formula import BoolConst, FormulaError, Knows, Node, Str, parse, to_text
from ..knowledge import class_all, class_constant, group_ids
from ..names import unique_keys
from ..schema import fold

from .evaluation import BOOL, INT, Evaluator
from .tables import WorldTable, range_text

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
        if values.dtype == object:   # exact integers past int64: their ranks, which are equal where they are
            values = np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64)
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


class ExplicitState:
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

    def distributed(self, agents: Sequence[str] | None) -> Relation:
        """What the group knows together (distributed knowledge): the meet of its members' relations."""
        return Relation.meet([(self.relation(a), None) for a in self.group(agents)])

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

    def _child(self, table: WorldTable, relations: dict[str, Relation]) -> ExplicitState:
        child = ExplicitState(table, {})
        child.agents, child._agent_names = self.agents, self._agent_names
        child._relations = relations
        child.distinct = self.distinct
        return child

    def restrict(self, mask: np.ndarray) -> ExplicitState:
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

    # -- what a puzzle asks of a state (the symbolic engine answers the same) ------------------------------
    def judge(self, node: Node) -> tuple[int, int]:
        """In how many of the worlds that may be the actual one the formula holds, and how many there are."""
        return int(np.count_nonzero(self.truth(node)[self.designated_mask()])), self.count

    def at_point(self, node: Node) -> bool:
        assert self.point is not None
        return bool(self.truth(node)[self.point])

    def witness(self, node: Node, value: bool) -> dict[str, int | str]:
        """The first world that may be the actual one where the formula has this truth value."""
        holds = self.truth(node)[self.designated_mask()]
        return self.worlds().subset(holds == value).rows(1)[0]

    def rows(self, limit: int | None = None) -> list[dict[str, int | str]]:
        return self.worlds().rows(limit)

    def sure_at_point(self, agent: str) -> tuple[bool, bool]:
        """At the actual world: the agent is certain of the whole world, and its view includes the actual one
        (certain and not right: a false belief)."""
        assert self.point is not None
        w, rel = self.point, self.relation(agent)
        return bool(self.truth(Knows(agent, None))[w]), bool(rel.member[w] == rel.target[w])

    def truth(self, formula: str | Node) -> np.ndarray:
        return Evaluator(self).truth(parse(formula) if isinstance(formula, str) else formula)

    def announce(self, formula: str | Node) -> ExplicitState:
        """A truthful public announcement: keep the worlds where the formula holds (evaluated now)."""
        return self.restrict(self.truth(formula))

    def announce_until_stable(self, formula: str | Node, max_rounds: int = 10_000) -> tuple[ExplicitState, int]:
        """Repeat an announcement until the world set stops changing; returns the state and the rounds."""
        state = self
        for rounds in range(1, max_rounds + 1):
            nxt = state.announce(formula)
            if nxt.size == state.size:
                return nxt, rounds
            state = nxt
        return state, max_rounds

    def update(self, action: ActionModel) -> ExplicitState:
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
            values = ev.value(expr)[1][src_w]
            # exact integers past int64 by their ranks (equal where they are): the key only tells values apart
            values = np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64) \
                if values.dtype == object else values.astype(np.int64)
            learnt = np.where(np.isin(src_e, where), values, values.min() - 1 if len(values) else 0)
        relations = {}
        after = Evaluator(ExplicitState(table, {})) if any(e.post for e in action.events) else None
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

    def common_knowledge(self, formula: str | Node | np.ndarray, agents: Sequence[str] | None = None) -> np.ndarray:
        """Worlds where the formula is common knowledge (common belief) among ``agents``: it holds in every
        world reachable in one step or more through the group's relations."""
        holds = self.truth(formula) if isinstance(formula, (str, Node)) else formula
        return common(self, holds, agents)


def common(state: ExplicitState, holds: np.ndarray, agents: Sequence[str] | None) -> np.ndarray:
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
    out: np.ndarray = val[rows]
    if out.dtype != object and table.dtype is not object:
        out = out.astype(np.int64)
        ok = np.isin(out, np.array(dom.values, dtype=np.int64))
    else:   # values past int64: exact Python integers, stored as the table stores them
        out = np.array([int(v) for v in out.tolist()], dtype=object)
        values = set(dom.values)
        ok = np.array([v in values for v in out.tolist()], dtype=bool)
        if ok.all() and table.dtype is not object:
            out = out.astype(np.int64)
    if not ok.all():
        raise FormulaError(f"setting {var!r} to {to_text(node)!r} gives {dom.show(int(out[~ok][0]))}, outside its "
                           "domain", allowed=dom.labels if dom.labels is not None else range_text(dom.values))
    return out
