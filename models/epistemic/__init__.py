"""Generic epistemic puzzles: variables, constraints, agents who observe expressions, public announcements.

Schema (see README, "Epistemic puzzles")::

    game = "epistemic"
    constraints = ["x < y", "x + y <= 100"]      # optional, formulas without knows()
    actual = { x = 4, y = 13 }                   # optional: the real world, for claims with at = "actual"
    [variables]                                  # name = [values] | "lo..hi" | { min = lo, max = hi }
    x = "2..98"
    [agents]                                     # name = the expressions the agent observes
    S = ["x + y"]
    [[announcement]]
    formula = "knows(S, not knows(P))"
    by = "S"                                     # optional, for display
    repeat = 1                                   # or "stable": repeat until nothing changes
    [[claim]]
    text = "x == 4 and y == 13"
    after = 3                                    # optional: after the first N announcement rounds
    at = "actual"                                # optional: judge at the actual world only

Instead of ``[[announcement]]``, ``[[event]]`` tables (in order) with ``kind`` = ``"public"`` (an
announcement: ``formula``, ``repeat``; or a public ``learn`` / ``set``), ``"private"`` (the agents ``to``
learn ``formula`` / the value of ``learn`` and see ``set`` happen; the others believe nothing happened),
``"semi-private"`` (the others know that ``to`` learnt the value of ``learn``, not which), or ``"action"``
(an action model: ``events = [{ name, pre, set, designated }]``, ``observers = { agent = [[e1, e2], [e3]] }``
or ``{ agent = { e1 = ["e2"], ... } }``, optional ``actual = "e1"``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sleuth.epistemic import (DEFAULT_TABLE_LIMIT, ActionModel, Domain, Evaluator, Event, KnowledgeState, WorldTable,
                              assigned)
from sleuth.derive import Choice
from sleuth.errors import PuzzleError
from sleuth.explain import minimal_subset
from sleuth.formula import BoolConst, FormulaError, Knows, Node, Str, is_epistemic, parse, to_text
from sleuth.limits import MAX_WORLDS_KEY, check_size, max_items
from sleuth.names import first_repeat, unique_names
from sleuth.puzzle import Puzzle, PuzzleDoc, emit_notes
from sleuth.results import Answer, optional, ClaimResult, ClaimSpec, Report, Status, Verdict
from sleuth.schema import Section, choose, describe, fold

CLAIM_KEYS = ("after", "at")
EVENT_KINDS = ("public", "private", "semi-private", "action")
HAS_VIEWER = False  # knowledge is per agent, in formulas: a viewer is noted as ignored
MAX_DOMAIN = 10_000_000
WORLD_BYTES = 24           # per variable and world (measured: 9 million worlds of 2 variables, 2 agents, 690 MB)
AGENT_BYTES = 16           # per agent and world (its class ids)
SOLVER_WORLD_FACTOR = 3    # a world enumerated by the solver passes through Python lists first
SOLVER_MAX_WORLDS = 200_000   # default cap of a solver enumeration (measured: about 3,000 worlds a second)
SHRINK_LIMIT = 2_000_000   # explanations rebuild world sets; above this, constraints are not shrunk


@dataclass(frozen=True)
class Step:
    """One announcement round or event: the formula (or the event model), who made it, its place in the file."""

    formula: Node
    text: str
    by: str | None
    name: str
    action: ActionModel | None = None
    kind: str = "public"

    def apply(self, state: KnowledgeState) -> KnowledgeState:
        return state.announce(self.formula) if self.action is None else state.update(self.action)


@dataclass(frozen=True)
class Observation:
    """A constraint or an announcement round, as named in explanations."""

    name: str
    kind: str   # "constraint" | "announcement"
    node: Node


@dataclass(frozen=True)
class EpistemicAnswer(Answer):
    """An epistemic puzzle's answer: the worlds left after every announcement or event, and the trace."""

    worlds: Sequence[Mapping[str, int | str]]
    count: int
    initial: int                                   # worlds at the start
    steps: Sequence[Mapping[str, Any]]             # one row per announcement or event: worlds left after it
    method: str
    exact: bool
    backend: str | None
    actual: Mapping[str, int | str] | None = optional()
    knowers: Sequence[Mapping[str, Any]] | None = optional()


class EpistemicPuzzle(Puzzle):
    uses_max_worlds = True

    def __init__(self, doc: PuzzleDoc, domains: list[Domain], constraints: list[tuple[str, Node]],
                 explicit: list[dict[str, Any]] | None, agents: dict[str, list[Node]],
                 announcements: list[tuple[Step, int | str]], actual: dict[str, Any] | None) -> None:
        super().__init__(doc)
        self.domains = domains
        self.constraints = constraints
        self.explicit = explicit
        self.agents = agents
        self.announcements = announcements
        self.actual = actual
        self._tables: dict[tuple[str, str, tuple[int, ...]], WorldTable] = {}
        self.options: Mapping[str, Any] | None = None   # the current command's (max_worlds)

    # -- worlds ---------------------------------------------------------------------------------------
    def product_size(self) -> int:
        if self.explicit is not None:
            return len(self.explicit)
        return int(np.prod([len(d.values) for d in self.domains], dtype=object))

    def world_method(self, opts: Mapping[str, Any], backend: str) -> Choice:
        """``--method``: table, model, or auto (table while the product of the domains fits, else model)."""
        return self.derivation(opts, backend, auto="table" if self._table_fits(opts) else "model")

    def _table_fits(self, options: Mapping[str, Any] | None) -> bool:
        """Whether the starting worlds are listed, or their product fits a table (what ``auto`` decides by)."""
        per_world = WORLD_BYTES * len(self.domains) + AGENT_BYTES * len(self.agents) + 16
        return self.explicit is not None or self.product_size() <= min(max_items(options, per_world),
                                                                        DEFAULT_TABLE_LIMIT)

    def coded_rows(self) -> list[tuple[int, ...]]:
        """The listed worlds, one coded value per domain (names as their index)."""
        return [tuple(d.code(row[d.name]) for d in self.domains) for row in self.explicit or ()]

    def initial_table(self, backend: str = "cpsat", method: str = "auto",
                      constraints: Sequence[int] | None = None) -> WorldTable:
        """The worlds allowed by the constraints (all, or the listed ones), built by ``method``."""
        chosen = tuple(range(len(self.constraints)) if constraints is None else constraints)
        options = self.options
        per_world = WORLD_BYTES * len(self.domains) + AGENT_BYTES * len(self.agents) + 16
        table_limit = max_items(options, per_world)
        if method == "auto":
            method = "table" if self._table_fits(options) else "solver"
        solver_limit = SOLVER_MAX_WORLDS if MAX_WORLDS_KEY not in (options or {}) else table_limit
        solver_limit = min(solver_limit, max_items(options, SOLVER_WORLD_FACTOR * per_world))
        if self.explicit is None and (method == "table" or not chosen):
            check_size("worlds (the product of the domains)", self.product_size(), options, per_world)
        elif method == "solver" and self.explicit is None and self.product_size() > solver_limit:
            self.doc.note(f"the domains have {self.product_size():,} combinations: CP-SAT enumerates the worlds "
                          f"the constraints leave and stops past {solver_limit:,} (--set {MAX_WORLDS_KEY}=N; "
                          "bound the time with --time-limit)", "variables")
            emit_notes(self)
        key = (backend, method, chosen)
        if key not in self._tables:
            nodes = [self.constraints[i][1] for i in chosen]
            if self.explicit is not None and method == "solver":
                table = WorldTable.from_solver(self.domains, nodes, backend=backend, limit=solver_limit,
                                               rows=self.coded_rows())
            elif self.explicit is not None:
                base = WorldTable.from_rows(self.domains, self.explicit)
                state = KnowledgeState(base, {})
                mask = np.ones(len(base), dtype=bool)
                for node in nodes:
                    mask &= state.truth(node)
                table = base.subset(mask)
            elif method == "table":
                table = WorldTable.from_product(self.domains, nodes)
            else:
                table = WorldTable.from_solver(self.domains, nodes, backend=backend, limit=solver_limit)
            self._tables[key] = table
        return self._tables[key]

    def start(self, table: WorldTable) -> KnowledgeState:
        """The initial state, pointed at the actual world when the file gives one."""
        state = KnowledgeState(table, self.agents)
        if self.actual is not None:
            mask = np.ones(len(table), dtype=bool)
            for d in self.domains:
                mask &= table.column(d.name) == d.code(self.actual[d.name])
            hit = np.flatnonzero(mask)
            state.point = int(hit[0]) if len(hit) else None
            state.point_lost = None if len(hit) else "the actual world breaks the constraints"
        return state

    def steps(self, state: KnowledgeState, limit: int | None = None) -> list[tuple[Step, KnowledgeState]]:
        """Apply the announcement rounds in order (``limit``: only the first N rounds)."""
        return list(self._run(state, limit, None))

    def final_state(self, *, backend: str = "cpsat", method: str = "auto", after: int | None = None,
                    only: set[str] | None = None) -> KnowledgeState:
        """The state after the rounds (``only``: keep just the named observations, for explanations)."""
        idx = [i for i, (name, _) in enumerate(self.constraints) if only is None or name in only]
        state = self.start(self.initial_table(backend, method, idx))
        for _, nxt_state in self._run(state, after, only):
            state = nxt_state
        return state

    def _run(self, state: KnowledgeState, after: int | None,
             only: set[str] | None) -> Iterator[tuple[Step, KnowledgeState]]:
        """Announcement rounds in order, each named; ``only`` skips rounds not named in it."""
        taken = 0
        for step, repeat in self.announcements:
            rounds = 10_000 if repeat == "stable" else int(repeat)
            for r in range(rounds):
                if after is not None and taken >= after:
                    return
                name = step.name if rounds == 1 else f"{step.name}, round {r + 1}"
                taken += 1
                if only is not None and name not in only:
                    continue
                try:
                    nxt = step.apply(state)
                except PuzzleError as exc:
                    raise exc.located(self.doc.file, name) from None
                if repeat == "stable" and nxt.size == state.size:
                    break
                yield Step(step.formula, step.text, step.by, name, step.action, step.kind), nxt
                state = nxt

    def observations(self, after: int | None = None) -> list[str]:
        """Names of the constraints and of the announcement rounds (up to ``after``)."""
        names = [name for name, _ in self.constraints]
        state = self.start(self.initial_table())
        names += [s.name for s, _ in self._run(state, after, None)]
        return names

    # -- solve ----------------------------------------------------------------------------------------
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = self.reject_options(options, ["method", "time-limit"])
        self.options = opts
        choice = self.world_method(opts, backend)
        method = "solver" if choice.name == "model" else "table"
        start = self.start(self.initial_table(backend, method))
        # streamed: each state is dropped once its row is written (the states of a long run do not all fit)
        state, trace = start, []
        knowers = [self._knower_row("start", start)] if self.actual is not None else []
        for s, st in self._run(start, None, None):
            trace.append({"announcement": to_text(s.formula), "by": s.by, "name": s.name, "worlds": st.count}
                         if s.action is None else
                         {"event": s.text, "kind": s.kind, "by": s.by, "name": s.name, "worlds": st.count,
                          "model": st.size})
            if self.actual is not None:
                knowers.append(self._knower_row(s.name, st))
            state = st
        if state.count == 0:
            conflict = self.minimal_conflict()
            return Report(self.game, Status.CONTRADICTION,
                          {"worlds": [], "count": 0, "initial": start.count, "steps": trace}, conflict=conflict)
        fields: dict[str, Any] = {"worlds": state.worlds().rows(), "count": state.count,
                                  "initial": start.count, "steps": trace, **choice.fields()}
        if self.actual is not None:
            fields["actual"] = self.actual
            fields["knowers"] = knowers
        return Report.of(self.game, EpistemicAnswer(**fields), self._text(start.count, state, fields))

    def _knower_row(self, label: str, state: KnowledgeState) -> dict[str, Any]:
        """At the actual world: which agents know the whole world (and who is certain of a wrong one)."""
        if state.point is None:
            return {"after": label, "actual_possible": False, "know": [], "why": state.point_lost}
        w = state.point
        sure = [a for a in self.agents if bool(state.truth(Knows(a, None))[w])]   # no text: any name works
        right = {a for a in sure if state.relation(a).member[w] == state.relation(a).target[w]}
        row = {"after": label, "actual_possible": True, "know": [a for a in sure if a in right]}
        if len(right) < len(sure):   # certain of a world that is not the actual one (a false belief)
            row["mistaken"] = [a for a in sure if a not in right]
        return row

    def _text(self, initial: int, state: KnowledgeState, fields: Mapping[str, Any]) -> str:
        lines = [self.title or "epistemic puzzle", f"worlds at the start: {initial}"]
        for step in fields["steps"]:
            extra = f" (model: {step['model']}, with the worlds only believed possible)" \
                if step.get("model", step["worlds"]) != step["worlds"] else ""
            lines.append(f"  {step['name']}  -> {_worlds(step['worlds'])}{extra}")
        if "knowers" in fields:
            lines.append("at the actual world, who knows it:")
            for row in fields["knowers"]:
                know = ", ".join(row["know"]) or "nobody"
                if row.get("mistaken"):
                    know += f" (certain but wrong: {', '.join(row['mistaken'])})"
                lines.append(f"  after {row['after']}: {know}" if row["actual_possible"]
                             else f"  after {row['after']}: {row['why']}")
        shown = state.worlds().rows(20)
        lines.append(f"worlds left: {state.count}")
        lines += ["  " + ", ".join(f"{k} = {v}" for k, v in row.items()) for row in shown]
        if state.count > len(shown):
            lines.append(f"  ... and {state.count - len(shown)} more (--json lists all)")
        return "\n".join(lines)

    # -- verify ---------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = self.reject_options(options, ["method", "time-limit"])
        self.options = opts
        choice = self.world_method(opts, backend)
        method = "solver" if choice.name == "model" else "table"
        return [self.verify_one(c, backend, method) for c in claims]

    def parse_claim(self, claim: ClaimSpec) -> tuple[Node, int | None, bool]:
        try:
            node = parse(claim.text)
            self._typecheck(node, boolean=True)
        except PuzzleError as exc:
            raise exc.located(self.doc.file, claim.place) from None
        sec = Section(dict(claim.options), file=self.doc.file, place=claim.place)
        after = sec.integer("after", None, lo=0, hi=10_000)
        at = sec.string("at", None, choices=["actual", "all"])
        if at == "actual" and self.actual is None:
            raise sec.error("at = 'actual' needs an 'actual' world in the file", "at")
        return node, after, at == "actual"

    def verify_one(self, claim: ClaimSpec, backend: str = "cpsat", method: str = "auto") -> ClaimResult:
        node, after, at_actual = self.parse_claim(claim)
        state = self.final_state(backend=backend, method=method, after=after)
        if state.count == 0:
            return ClaimResult(claim.text, Verdict.CONTRADICTION, self.minimal_conflict(), expect=claim.expect,
                               detail="no world is left")
        if at_actual:
            if state.point is None:
                return ClaimResult(claim.text, Verdict.CONTRADICTION, expect=claim.expect,
                                   detail=f"no actual world: {state.point_lost}")
            value = bool(state.truth(node)[state.point])
            return ClaimResult(claim.text, Verdict.ENTAILED if value else Verdict.REFUTED,
                               expect=claim.expect, detail="judged at the actual world")
        holds = _judged(state, node)
        rows = state.worlds()
        if holds.all():
            because = self.explain(node, after, want=True, backend=backend, method=method)
            return ClaimResult(claim.text, Verdict.ENTAILED, because, expect=claim.expect,
                               detail=f"true in all {state.count} worlds")
        if not holds.any():
            because = self.explain(node, after, want=False, backend=backend, method=method)
            return ClaimResult(claim.text, Verdict.REFUTED, because, rows.subset(~holds).rows(1)[0],
                               expect=claim.expect, detail=f"false in all {state.count} worlds")
        witness = {"true": rows.subset(holds).rows(1)[0], "false": rows.subset(~holds).rows(1)[0]}
        return ClaimResult(claim.text, Verdict.OPEN, (), witness, expect=claim.expect,
                           detail=f"true in {int(holds.sum())} of {state.count} worlds")

    def _shrink(self, names: list[str], still: Any) -> tuple[str, ...]:
        """Drop every observation whose removal keeps ``still(kept)`` true (:func:`sleuth.explain.minimal_subset`)."""
        return tuple(minimal_subset(names, lambda trial: bool(still(set(trial)))))

    def explain(self, node: Node, after: int | None, *, want: bool, backend: str, method: str) -> tuple[str, ...]:
        """A minimal list of observations (constraints, announcement rounds) that, applied in order, already
        make the claim true (``want``) or false in every world left."""
        names = self.observations(after)
        fixed = [] if self.product_size() <= SHRINK_LIMIT else [n for n, _ in self.constraints]

        def still(kept: set[str]) -> bool:
            state = self.final_state(backend=backend, method=method, after=after, only=kept | set(fixed))
            if state.count == 0:
                return False
            holds = _judged(state, node)
            return bool(holds.all()) if want else not bool(holds.any())

        free = [n for n in names if n not in fixed]
        return tuple(fixed) + self._shrink(free, lambda kept: still(kept))

    def minimal_conflict(self) -> tuple[str, ...]:
        names = self.observations()

        def empty(kept: set[str]) -> bool:
            return self.final_state(only=kept).count == 0

        return self._shrink(names, empty)

    # -- checking formulas at load time ----------------------------------------------------------------
    def _typecheck(self, node: Node, *, boolean: bool) -> None:
        """Evaluate on an empty world table: names, agents and types are checked, nothing is computed."""
        empty = KnowledgeState(WorldTable(self.domains, np.zeros((0, len(self.domains)), dtype=np.int64)),
                               self.agents)
        ev = Evaluator(empty)
        ev.truth(node) if boolean else ev.value(node)


def _judged(state: KnowledgeState, node: Node) -> np.ndarray:
    """The formula's truth in each world that may be the actual one."""
    holds = state.truth(node)
    return holds if state.designated is None else holds[state.designated]


# -- loading --------------------------------------------------------------------------------------------

def _worlds(n: int) -> str:
    return f"{n} world" if n == 1 else f"{n} worlds"


def _domain(name: str, spec: object, sec: Section) -> Domain:
    if isinstance(spec, str):
        lo, sep, hi = spec.partition("..")
        try:
            if not sep:
                raise ValueError
            bounds = int(lo), int(hi)
        except ValueError:
            raise sec.error(f"bad range {spec!r}", name, allowed="'lo..hi', a list, or { min, max }") from None
        return _int_range(name, *bounds, sec)
    if isinstance(spec, dict):
        s = Section(spec, file=sec.file, place=sec.path(name))
        lo, hi = s.integer("min"), s.integer("max")
        s.finish()
        return _int_range(name, lo, hi, sec)
    if isinstance(spec, list):
        if not spec:
            raise sec.error("empty domain", name, allowed="at least one value")
        if len(spec) > MAX_DOMAIN:
            raise sec.error(f"{len(spec)} values", name, allowed=f"at most {MAX_DOMAIN}")
        ok = all(isinstance(v, str) for v in spec) or all(isinstance(v, int) and not isinstance(v, bool)
                                                          for v in spec)
        if not ok:
            raise sec.error("values must be all integers or all names", name)
        if isinstance(spec[0], str):
            unique_names("value", spec, sec.path(name), file=sec.file)
        elif (rep := first_repeat(spec)) is not None:
            raise sec.error(f"the value {spec[rep[1]]} is listed twice (also at [{rep[0]}])", f"{name}[{rep[1]}]")
        return Domain.of(name, spec)
    raise sec.error(f"expected a domain, got {describe(spec)}", name,
                    allowed="'lo..hi', a list of integers or names, or { min = lo, max = hi }")


def _int_range(name: str, lo: int, hi: int, sec: Section) -> Domain:
    if hi < lo:
        raise sec.error(f"empty range {lo}..{hi}", name, allowed="lo <= hi")
    if hi - lo + 1 > MAX_DOMAIN or abs(lo) > 10 ** 15 or abs(hi) > 10 ** 15:
        raise sec.error(f"range {lo}..{hi} is too large", name, allowed=f"at most {MAX_DOMAIN} values")
    return Domain(name, tuple(range(lo, hi + 1)))


def _world(sec: Section, domains: Sequence[Domain]) -> dict[str, Any]:
    """A world written as a table: one value per variable, each checked against its domain."""
    row = {}
    for d in domains:
        try:
            row[d.name] = d.show(d.code(sec.raw(d.name)))
        except PuzzleError as exc:
            raise sec.error(exc.message, d.name, allowed=exc.allowed) from None
    sec.finish()
    return row


def _formula(text: object, sec: Section, key: str | int, check: Any) -> Node:
    if not isinstance(text, str):
        raise sec.error(f"expected a formula (a string), got {describe(text)}", key)
    try:
        node = parse(text)
        check(node)
        return node
    except PuzzleError as exc:
        raise PuzzleError(exc.message, file=sec.file, place=sec.path(key), allowed=exc.allowed) from None


def _by(sec: Section, agents: Sequence[str]) -> str | None:
    by = sec.string("by", None)
    return None if by is None else choose(by, list(agents), "agent", sec, "by")


def _announcement(a: Section, label: str, state0: KnowledgeState) -> tuple[Step, int | str]:
    text = a.string("formula")
    node = _formula(text, a, "formula", lambda n: Evaluator(state0).truth(n))
    by = _by(a, list(state0.agents))
    repeat = a.raw("repeat", 1)
    if repeat != "stable":
        repeat = a.integer("repeat", 1, lo=0, hi=10_000)
    return Step(node, text, by, f"{label} ({by + ': ' if by else ''}{text})"), repeat


def _posts(sec: Section, key: str, state0: KnowledgeState) -> tuple[tuple[str, Node], ...]:
    """``set = { var = "expression" }``: a factual change, each value computed before the event."""
    spec = sec.section(key, None)
    if spec is None:
        return ()
    table = state0.table
    out: list[tuple[str, Node]] = []
    for var in spec.data:
        name = choose(var, [d.name for d in table.domains], "variable", spec, var)
        value = spec.raw(var)
        if isinstance(value, (bool, int)):
            value = str(int(value))
        dom = table.domains[table.index[name]]
        if isinstance(value, str) and dom.labels is not None and fold(value) in {fold(x) for x in dom.labels}:
            out.append((name, Str(value)))   # a bare value of a named domain: set = { marble = "box" }
            continue
        node = _formula(value, spec, var,
                        lambda n, name=name: assigned(Evaluator(state0), table, name, n, np.zeros(0, np.int64)))
        out.append((name, node))
    return tuple(out)


def _agent_list(sec: Section, key: str, agents: Sequence[str]) -> tuple[str, ...]:
    names = sec.raw(key)
    if names == "all":
        return tuple(agents)
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not names:
        raise sec.error("expected agents", key, allowed="a list of agents, or 'all'")
    return tuple(dict.fromkeys(choose(n, agents, "agent", sec, f"{key}[{j}]") for j, n in enumerate(names)))


def _event(e: Section, number: int, state0: KnowledgeState) -> tuple[Step, int | str]:
    """One ``[[event]]`` table as an announcement step or an action model."""
    agents = list(state0.agents)
    kind = e.string("kind", "public", choices=EVENT_KINDS)
    if kind == "public" and not e.has("set") and not e.has("learn"):
        step, repeat = _announcement(e, f"event {number}", state0)
        e.finish()
        return step, repeat
    by = _by(e, agents)
    truth = lambda n: Evaluator(state0).truth(n)  # noqa: E731
    if kind == "action":
        action = _action_model(e, state0)
        text = "action " + ", ".join(ev.name for ev in action.events)
    else:
        pre_text = e.string("formula", None)
        pre = BoolConst(True) if pre_text is None else _formula(pre_text, e, "formula", truth)
        learn_text = e.string("learn", None if kind != "semi-private" else ...)
        if learn_text is ...:
            raise e.error("is required for a semi-private event", "learn",
                          allowed="the expression or formula whose value the agents `to` learn")
        learn = None if learn_text is None else _formula(learn_text, e, "learn", Evaluator(state0).value)
        posts = _posts(e, "set", state0)
        to = tuple(agents) if kind == "public" else _agent_list(e, "to", agents)
        events: tuple[Event, ...]
        if kind == "private":
            events = (Event("happens", pre, posts), Event("nothing", designated=False))
            rel = {a: ([0], [1]) if a in to else ([1], [1]) for a in agents}
        else:
            events = (Event("happens", pre, posts),)
            rel = {}
        action = ActionModel(events, rel, None if learn is None else (learn, to, (0,)))
        parts = [f"{', '.join(to)} learn {learn_text}" if learn_text else "",
                 f"that {pre_text}" if pre_text else "",
                 "set " + ", ".join(f"{v} = {to_text(n)}" for v, n in posts) if posts else ""]
        text = f"{kind}: " + "; ".join(p for p in parts if p)
    e.finish()
    label = f"event {number} ({by + ': ' if by else ''}{text})"
    return Step(BoolConst(True), text, by, label, action, kind), 1


def _action_model(e: Section, state0: KnowledgeState) -> ActionModel:
    """``events = [{ name, pre, set, designated }]``, ``observers``, ``actual``."""
    raw = e.array("events", dict, min_len=1, max_len=1000)
    events = []
    for j, spec in enumerate(raw):
        s = Section(spec, file=e.file, place=e.path(f"events[{j + 1}]"))
        name = s.string("name")
        pre_text = s.string("pre", None)
        pre = BoolConst(True) if pre_text is None else _formula(pre_text, s, "pre", Evaluator(state0).truth)
        events.append(Event(name, pre, _posts(s, "set", state0), s.boolean("designated", True)))
        s.finish()
    names = [ev.name for ev in events]
    if len({n.casefold() for n in names}) != len(names):
        raise e.error("two events have the same name", "events")
    relations: dict[str, list[list[int]]] = {}
    obs = e.section("observers", None)
    if obs is not None:
        for agent in obs.data:
            a = choose(agent, list(state0.agents), "agent", obs, agent)
            relations[a] = _event_relation(obs, agent, names)
        obs.finish()
    actual = e.string("actual", None)
    model = ActionModel(tuple(events), relations,
                        actual=None if actual is None else names.index(choose(actual, names, "event", e, "actual")))
    for a in relations:
        try:
            model.relation(a)
        except PuzzleError as exc:
            raise e.error(exc.message, f"observers.{a}", allowed=exc.allowed) from None
    return model


def _event_relation(obs: Section, agent: str, names: list[str]) -> list[list[int]]:
    """An agent's view of the events: a partition ``[[e1, e2], [e3]]`` or a table ``{ e1 = [e2], ... }``."""
    spec = obs.raw(agent)
    index = lambda n, key: names.index(choose(n, names, "event", obs, key))  # noqa: E731
    if isinstance(spec, list):
        sets: list[list[int] | None] = [None] * len(names)
        for block in spec:
            if not isinstance(block, list) or not block:
                raise obs.error("expected blocks of event names", agent, allowed="[['e1', 'e2'], ['e3']]")
            members = [index(n, agent) for n in block]
            for m in members:
                if sets[m] is not None:
                    raise obs.error(f"event {names[m]!r} is in two blocks", agent)
                sets[m] = members
        missing = [names[i] for i, x in enumerate(sets) if x is None]
        if missing:
            raise obs.error(f"event {missing[0]!r} is in no block", agent, allowed="every event in one block")
        return [x for x in sets if x is not None]
    if isinstance(spec, dict):
        table = Section(spec, file=obs.file, place=obs.path(agent))
        out: list[list[int]] = [[] for _ in names]
        for key in spec:
            targets = table.array(key, str, min_len=1)
            out[index(key, agent)] = [index(t, agent) for t in targets]
        table.finish()
        missing = [names[i] for i, x in enumerate(out) if not x]
        if missing:
            raise obs.error(f"event {missing[0]!r} has no events it considers possible", agent,
                            allowed="every event mapped to a non-empty list of events")
        return out
    raise obs.error(f"expected a partition or a table of events, got {describe(spec)}", agent,
                    allowed="[['e1', 'e2'], ['e3']] or { e1 = ['e1'], e2 = ['e1'] }")


def load(doc: PuzzleDoc) -> EpistemicPuzzle:
    top = doc.section
    explicit_raw = top.array("worlds", dict, None, min_len=1, max_len=MAX_DOMAIN)
    var_sec = top.section("variables", None)
    domains: list[Domain] = []
    if var_sec is not None:
        for name in var_sec.data:
            domains.append(_domain(name, var_sec.raw(name), var_sec))
        var_sec.finish()
    explicit = None
    if explicit_raw is not None:
        if not domains:
            names = list(explicit_raw[0])
            try:
                domains = [Domain.of(n, [w.get(n) for w in explicit_raw if isinstance(w.get(n), (int, str))])
                           for n in names]
            except PuzzleError as exc:
                raise top.error(exc.message, "worlds", allowed=exc.allowed) from None
        explicit = [_world(Section(w, file=doc.file, place=f"worlds[{i + 1}]"), domains)
                    for i, w in enumerate(explicit_raw)]
        rows = [tuple(d.code(w[d.name]) for d in domains) for w in explicit]
        if (rep := first_repeat(rows)) is not None:
            raise top.error(f"repeats worlds[{rep[0] + 1}] (a world is listed once: counts and probabilities"
                            " are over distinct worlds)", f"worlds[{rep[1] + 1}]")
    if not domains:
        raise top.error("needs [variables] or a 'worlds' list", "variables",
                        allowed="[variables] name = 'lo..hi' | [values]")
    empty = WorldTable(domains, np.zeros((0, len(domains)), dtype=np.int64))

    constraints: list[tuple[str, Node]] = []
    for i, text in enumerate(top.array("constraints", str, [])):
        node = _formula(text, top, f"constraints[{i}]", lambda n: Evaluator(KnowledgeState(empty, {})).truth(n))
        if is_epistemic(node):
            raise top.error("constraints cannot mention knows()", f"constraints[{i}]")
        constraints.append((f"constraint {i + 1}: {text}", node))

    agents: dict[str, list[Node]] = {}
    agent_sec = top.section("agents")
    for name in agent_sec.data:
        spec = agent_sec.raw(name)
        exprs = [spec] if isinstance(spec, str) else spec
        if not isinstance(exprs, list):
            raise agent_sec.error("expected the expressions the agent observes", name,
                                  allowed="a list of expressions such as ['x + y'], or [] (observes nothing)")
        agents[name] = [_formula(e, agent_sec, name, lambda n: Evaluator(KnowledgeState(empty, {})).value(n))
                        for e in exprs]
    agent_sec.finish()
    if not agents:
        raise top.error("no agents", "agents", allowed="at least one agent")
    state0 = KnowledgeState(empty, agents)

    announcements: list[tuple[Step, int | str]] = []
    plain, events = top.sections("announcement"), top.sections("event")
    if plain and events:
        raise top.error("a file has [[announcement]] or [[event]] tables, not both", "event",
                        allowed="[[event]] with kind = 'public' for the announcements")
    for i, a in enumerate(plain):
        announcements.append(_announcement(a, f"announcement {i + 1}", state0))
        a.finish()
    for i, e in enumerate(events):
        announcements.append(_event(e, i + 1, state0))

    actual_sec = top.section("actual", None)
    actual = None if actual_sec is None else _world(actual_sec, domains)
    puzzle = EpistemicPuzzle(doc, domains, constraints, explicit, agents, announcements, actual)
    for claim in doc.claims:
        puzzle.parse_claim(claim)
    return puzzle


__all__ = ["EpistemicPuzzle", "load", "FormulaError"]
