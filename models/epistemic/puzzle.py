"""The epistemic puzzle: the file read into domains, constraints, agents and steps; solve and verify.

The schema is in the package docstring (:mod:`sleuth.models.epistemic`) and docs/epistemic.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from sleuth.epistemic import DEFAULT_TABLE_LIMIT, Evaluator, ExplicitState, WorldTable
from sleuth.epistemic import symbolic
from sleuth.derive import Choice, find_derivation, handlers
from sleuth.claims import with_hint
from sleuth.errors import PuzzleError
from sleuth.explain import minimal_subset
from sleuth.formula import Arith, Node, names_in, parse, to_text, walk
from sleuth.limits import MAX_WORLDS_KEY, TooLarge, check_size, max_items
from sleuth.puzzle import Puzzle, PuzzleDoc, emit_notes
from sleuth.results import Labelled, optional, ClaimResult, ClaimSpec, Report, Status, Verdict
from sleuth.schema import Section

from .game import GAME
from .model import coded_rows
from .state import EpistemicState, Step, read_state


WORLD_BYTES = 24           # per variable and world (measured: 9 million worlds of 2 variables, 2 agents, 690 MB)
AGENT_BYTES = 16           # per agent and world (its class ids)
SOLVER_WORLD_FACTOR = 3    # a world enumerated by the solver passes through Python lists first
SOLVER_MAX_WORLDS = 200_000   # default cap of a solver enumeration (measured: about 3,000 worlds a second)
SHRINK_LIMIT = 2_000_000   # explanations rebuild world sets; above this, constraints are not shrunk
LIST_LIMIT = 100_000       # the symbolic engine lists this many worlds at most (the count is exact)
SAMPLE_WORLDS = 1 << 16   # worlds sampled from the domains' product before a solver enumeration past its limit
SYMBOLIC_FROM = 1 << 14    # auto: the symbolic engine from this many worlds (product of the domains), narrow domains
SYMBOLIC_NARROW = 16       # ... when no domain has more values (tests/bench/bench_symbolic.py: muddy, drinking)
SYMBOLIC_WIDE = 1 << 10    # auto past the table's limit: the symbolic engine when no domain has more values (10 bits)

State = ExplicitState | symbolic.SymbolicState
R = TypeVar("R")


@dataclass(frozen=True)
class Observation:
    """A constraint or an announcement round, as named in explanations."""

    name: str
    kind: str   # "constraint" | "announcement"
    node: Node


@dataclass(frozen=True)
class EpistemicAnswer(Labelled):
    """An epistemic puzzle's answer: the worlds left after every announcement or event, and the trace."""

    worlds: Sequence[Mapping[str, int | str]]
    count: int
    initial: int                                   # worlds at the start
    steps: Sequence[Mapping[str, Any]]             # one row per announcement or event: worlds left after it
    actual: Mapping[str, int | str] | None = optional()
    knowers: Sequence[Mapping[str, Any]] | None = optional()
    shared: Mapping[str, int | str] | None = optional()   # symbolic: the values every world left has
    listed: int | None = optional()                        # symbolic: how many of the worlds are listed


class EpistemicPuzzle(Puzzle):

    def __init__(self, doc: PuzzleDoc, state: EpistemicState) -> None:
        super().__init__(doc)
        self.state = state
        self.domains, self.constraints, self.explicit = state.domains, state.constraints, state.explicit
        self.agents, self.announcements, self.actual = state.agents, state.announcements, state.actual
        self._tables: dict[tuple[str, str, tuple[int, ...]], WorldTable] = {}
        self.options: Mapping[str, Any] | None = None   # the current command's (max_worlds)
        self._engine: symbolic.BddManager | None = None
        self._symbolic: dict[tuple[int, ...], symbolic.SymbolicState] = {}
        self._is_linear: bool | None = None
        self._no_symbolic = False   # auto: the symbolic engine refused a formula of this puzzle

    # -- worlds ---------------------------------------------------------------------------------------
    def product_size(self) -> int:
        if self.explicit is not None:
            return len(self.explicit)
        return int(np.prod([len(d.values) for d in self.domains], dtype=object))

    def world_method(self, opts: Mapping[str, Any], backend: str) -> Choice:
        """``--method``: table, model, symbolic, or auto (:meth:`auto_method`)."""
        return self.derivation(opts, backend, auto=self.auto_method(opts))

    def auto_method(self, options: Mapping[str, Any] | None) -> str:
        """What ``auto`` picks, from sizes known before any work (the product of the domains: the worlds
        before the constraints, an upper bound of the table's rows) and the formulas' shape.

        The symbolic engine, when it is installed (it serves every event, beliefs included) and every formula is
        linear (no product, ``//`` or ``%`` of two expressions of the variables: their diagrams can grow
        exponentially with the bits):

        - while the table fits, past :data:`SYMBOLIC_FROM` worlds when no domain has more than
          :data:`SYMBOLIC_NARROW` values (many small variables: measured 2.6x faster than the table at 2^14
          worlds of muddy children, 17x at 2^16; below, the table is as fast);
        - past the table's limit, when no domain has more than :data:`SYMBOLIC_WIDE` values (else CP-SAT
          enumerates the worlds, at most :data:`SOLVER_MAX_WORLDS` of them: three variables of 1,000 values and
          a sum, 10^9 worlds, answer symbolically in about 2.5 s, where the enumeration refuses after 8 s; two
          agents observing sums of two variables of 1,000 values took 9 s, wider ones far longer).

        And only where its decision-diagram manager fits the process's address-space limit
        (:func:`symbolic.fits`).

        Otherwise the table while it fits (on wide arithmetic, What Sum, Sum and Product, the vectorised table
        was faster at every size measured), else model."""
        fits = self._table_fits(options)
        widest = max((len(d.values) for d in self.domains), default=1)
        sized = (fits and self.product_size() >= SYMBOLIC_FROM and widest <= SYMBOLIC_NARROW) or \
            (not fits and widest <= SYMBOLIC_WIDE)
        if self.explicit is None and sized and not self._no_symbolic and symbolic.available() and symbolic.fits() \
                and self._linear():
            return "symbolic"
        return "table" if fits else "model"

    def _linear(self) -> bool:
        """No formula of the file multiplies or divides two expressions that depend on the variables."""
        if self._is_linear is None:
            self._is_linear = self._find_linear()
        return self._is_linear

    def _find_linear(self) -> bool:
        nodes = [n for _, n in self.constraints] + [x for exprs in self.agents.values() for x in exprs]
        for step, _ in self.announcements:
            nodes.append(step.formula)
            if step.action is not None:
                nodes += [ev.pre for ev in step.action.events] + [x for ev in step.action.events for _, x in ev.post]
                if step.action.learn is not None:
                    nodes.append(step.action.learn[0])
        for node in nodes:
            for n in walk(node):
                if isinstance(n, Arith):
                    varying = [bool(names_in(x)) for x in n.operands()]
                    for i, (op, _) in enumerate(n.rest):
                        if op != "+" and op != "-" and varying[i + 1] and any(varying[:i + 1]):
                            return False
        return True

    @staticmethod
    def _method(choice: Choice) -> str:
        return {"model": "solver"}.get(choice.name, choice.name)

    def _table_fits(self, options: Mapping[str, Any] | None) -> bool:
        """Whether the starting worlds are listed, or their product fits a table (what ``auto`` decides by)."""
        per_world = WORLD_BYTES * len(self.domains) + AGENT_BYTES * len(self.agents) + 16
        return self.explicit is not None or self.product_size() <= min(max_items(options, per_world),
                                                                        DEFAULT_TABLE_LIMIT)

    def _way(self, method: str, auto: str = "table") -> str:
        """The registered derivation ``method`` names (``solver`` is the model's; ``auto``: ``auto``)."""
        return find_derivation(self.doc.game.methods, method, auto=auto).name

    def initial_table(self, backend: str = "cpsat", method: str = "auto",
                      constraints: Sequence[int] | None = None) -> WorldTable:
        """The worlds allowed by the constraints (all, or the listed ones), built by ``method``."""
        chosen = tuple(range(len(self.constraints)) if constraints is None else constraints)
        options = self.options
        per_world = WORLD_BYTES * len(self.domains) + AGENT_BYTES * len(self.agents) + 16
        table_limit = max_items(options, per_world)
        way = self._way(method, auto="table" if self._table_fits(options) else "model")
        tabled = way in _TABLED
        solver_limit = SOLVER_MAX_WORLDS if MAX_WORLDS_KEY not in (options or {}) else table_limit
        solver_limit = min(solver_limit, max_items(options, SOLVER_WORLD_FACTOR * per_world))
        if self.explicit is None and (tabled or not chosen):
            check_size("worlds (the product of the domains)", self.product_size(), options, per_world)
        elif not tabled and self.explicit is None and self.product_size() > solver_limit:
            self._refuse_by_sample(chosen, solver_limit)
            self.doc.note(f"the domains have {self.product_size():,} combinations: CP-SAT enumerates the worlds "
                          f"the constraints leave and stops past {solver_limit:,} (--set {MAX_WORLDS_KEY}=N; "
                          "bound the time with --time-limit)", "variables")
            emit_notes(self)
        key = (backend, way, chosen)
        if key not in self._tables:
            nodes = [self.constraints[i][1] for i in chosen]
            if self.explicit is not None and not tabled:
                table = WorldTable.from_solver(self.domains, nodes, backend=backend, limit=solver_limit,
                                               rows=coded_rows(self.state))
            elif self.explicit is not None:
                # in value order, as the product and the symbolic engine list them (not the file's order)
                base = WorldTable.from_rows(self.domains, self.explicit).sorted()
                state = ExplicitState(base, {})
                mask = np.ones(len(base), dtype=bool)
                for node in nodes:
                    mask &= state.truth(node)
                table = base.subset(mask)
            elif tabled:
                table = WorldTable.from_product(self.domains, nodes)
            else:
                table = WorldTable.from_solver(self.domains, nodes, backend=backend, limit=solver_limit)
            self._tables[key] = table
        return self._tables[key]

    def _refuse_by_sample(self, chosen: Sequence[int], limit: int) -> None:
        """Before the solver enumerates: refuse when a uniform sample of the domains' product shows far more
        worlds satisfy the constraints than the enumeration may list (its estimate at least ten times the
        limit, on at least 100 sampled worlds: the enumeration would be refused, after its work)."""
        rng = np.random.default_rng(0)
        table = WorldTable(self.domains, np.stack([rng.integers(0, len(d.values), SAMPLE_WORLDS)
                                                   for d in self.domains], axis=1))
        mask = np.ones(len(table), dtype=bool)
        state = ExplicitState(table, {})
        for i in chosen:
            mask &= state.truth(self.constraints[i][1])
        hits = int(mask.sum())
        estimate = self.product_size() * hits // SAMPLE_WORLDS
        if hits >= 100 and estimate >= 10 * limit:
            raise TooLarge(f"about {estimate:,} worlds satisfy the constraints ({hits:,} of {SAMPLE_WORLDS:,} sampled "
                           f"from the {self.product_size():,} combinations of the domains), more than the limit of "
                           f"{limit:,} the solver lists; narrow the domains or the constraints (or raise --set "
                           f"{MAX_WORLDS_KEY}=N)")

    def start(self, table: WorldTable) -> ExplicitState:
        """The initial state, pointed at the actual world when the file gives one."""
        state = ExplicitState(table, self.agents)
        if self.actual is not None:
            mask = np.ones(len(table), dtype=bool)
            for d in self.domains:
                mask &= table.column(d.name) == d.code(self.actual[d.name])
            hit = np.flatnonzero(mask)
            state.point = int(hit[0]) if len(hit) else None
            state.point_lost = None if len(hit) else "the actual world breaks the constraints"
        return state

    def symbolic_start(self, constraints: Sequence[int] | None = None) -> symbolic.SymbolicState:
        """The starting knowledge structure (the constraints chosen, default all), pointed at the actual world."""
        chosen = tuple(range(len(self.constraints)) if constraints is None else constraints)
        if chosen not in self._symbolic:
            if self._engine is None:
                self._engine = symbolic.BddManager()
            actual = None if self.actual is None else {d.name: d.code(self.actual[d.name]) for d in self.domains}
            self._symbolic[chosen] = symbolic.SymbolicState.start(
                self.domains, [self.constraints[i][1] for i in chosen], self.agents,
                None if self.explicit is None else coded_rows(self.state), actual, self._engine)
        return self._symbolic[chosen]

    def start_state(self, backend: str, method: str, constraints: Sequence[int] | None = None) -> State:
        """The starting state by ``method`` (table, solver, symbolic or auto)."""
        if self._way(method) in _SYMBOLIC:
            return self.symbolic_start(constraints)
        return self.start(self.initial_table(backend, method, constraints))

    def steps(self, state: State, limit: int | None = None) -> list[tuple[Step, State]]:
        """Apply the announcement rounds in order (``limit``: only the first N rounds)."""
        return list(self._run(state, limit, None))

    def final_state(self, *, backend: str = "cpsat", method: str = "auto", after: int | None = None,
                    only: set[str] | None = None) -> State:
        """The state after the rounds (``only``: keep just the named observations, for explanations)."""
        idx = [i for i, (name, _) in enumerate(self.constraints) if only is None or name in only]
        state = self.start_state(backend, method, idx)
        for _, nxt_state in self._run(state, after, only):
            state = nxt_state
        return state

    def _run(self, state: State, after: int | None, only: set[str] | None) -> Iterator[tuple[Step, State]]:
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
                except symbolic.NotSymbolic as exc:   # stays a refusal of the method (auto picks another)
                    raise symbolic.NotSymbolic(exc.message, file=self.doc.file, place=name, allowed=exc.allowed) \
                        from None
                except PuzzleError as exc:
                    raise exc.located(self.doc.file, name) from None
                if repeat == "stable" and nxt.size == state.size:
                    break
                yield Step(step.formula, step.text, step.by, name, step.action, step.kind), nxt
                if step.action is None and nxt.count == state.count:
                    # a public announcement that removed nothing removes nothing again: the same state for
                    # the rounds left (not computed again)
                    for later in range(r + 1, rounds):
                        if after is not None and taken >= after:
                            return
                        taken += 1
                        name = f"{step.name}, round {later + 1}"
                        if only is None or name in only:
                            yield Step(step.formula, step.text, step.by, name, step.action, step.kind), nxt
                    state = nxt
                    break
                state = nxt

    def observations(self, after: int | None = None, backend: str = "cpsat", method: str = "auto") -> list[str]:
        """Names of the constraints and of the announcement rounds (up to ``after``)."""
        names = [name for name, _ in self.constraints]
        state = self.start_state(backend, method)
        names += [s.name for s, _ in self._run(state, after, None)]
        return names

    # -- solve ----------------------------------------------------------------------------------------
    def _or_table(self, opts: Mapping[str, Any], run: Callable[[], R]) -> R:
        """``run``; when ``auto`` picked the symbolic engine and it refuses a formula, ``run`` again on what
        ``auto`` picks without it (the table while it fits, else model), with a note."""
        try:
            return run()
        except symbolic.NotSymbolic as exc:
            if opts.get("method") not in (None, "auto") or self.auto_method(opts) != "symbolic":
                raise
            self._no_symbolic = True
            self.doc.note(f"auto: the symbolic engine does not take {exc.message.split(':', 1)[0]} "
                          f"({exc.place or 'a formula'}); the {self.auto_method(opts)} answers", "--method")
            return run()

    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = dict(options or {})
        return self._or_table(opts, lambda: self._solve(backend, opts))

    def _solve(self, backend: str, opts: dict[str, Any]) -> Report:
        self.options = opts
        choice = self.world_method(opts, backend)
        method = self._method(choice)
        start = self.start_state(backend, method)
        # streamed: each state is dropped once its row is written (the states of a long run do not all fit)
        state, trace = start, []
        knowers = [self._knower_row("start", start)] if self.actual is not None else []
        for s, st in self._run(start, None, None):
            trace.append({"announcement": to_text(s.formula), "by": s.by, "name": s.name, "worlds": st.count}
                         if s.action is None else
                         {"event": s.text, "kind": s.kind, "by": s.by, "name": s.name, "worlds": st.count,
                          "model": st.size})
            if self.actual is not None:   # the same state again (a round that removed nothing): the same row
                knowers.append({**knowers[-1], "after": s.name} if st is state else self._knower_row(s.name, st))
            state = st
        if state.count == 0:
            conflict = self.minimal_conflict(backend, method)
            return Report(self.game, Status.CONTRADICTION,
                          {"worlds": [], "count": 0, "initial": start.count, "steps": trace}, conflict=conflict)
        fields: dict[str, Any] = {"count": state.count, "initial": start.count, "steps": trace, **choice.fields()}
        if isinstance(state, symbolic.SymbolicState):
            fields["worlds"] = state.rows(LIST_LIMIT)
            fields["listed"] = len(fields["worlds"])
            fields["shared"] = state.shared()
        else:
            fields["worlds"] = state.rows()
        if self.actual is not None:
            fields["actual"] = self.actual
            fields["knowers"] = knowers
        return Report.of(self.game, EpistemicAnswer(**fields), self._text(start.count, state, fields))

    def _knower_row(self, label: str, state: State) -> dict[str, Any]:
        """At the actual world: which agents know the whole world (and who is certain of a wrong one)."""
        if state.point is None:
            return {"after": label, "actual_possible": False, "know": [], "why": state.point_lost}
        views = {a: state.sure_at_point(a) for a in self.agents}
        sure = [a for a in self.agents if views[a][0]]
        right = {a for a in sure if views[a][1]}
        row = {"after": label, "actual_possible": True, "know": [a for a in sure if a in right]}
        if len(right) < len(sure):   # certain of a world that is not the actual one (a false belief)
            row["mistaken"] = [a for a in sure if a not in right]
        return row

    def _text(self, initial: int, state: State, fields: Mapping[str, Any]) -> str:
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
        shown = state.rows(20)
        lines.append(f"worlds left: {state.count}")
        if fields.get("shared") and state.count > len(shown):
            lines.append("  in every one: " + ", ".join(f"{k} = {v}" for k, v in fields["shared"].items()))
        lines += ["  " + ", ".join(f"{k} = {v}" for k, v in row.items()) for row in shown]
        if state.count > len(shown):
            listed = fields.get("listed")
            more = "--json lists all" if listed is None or listed >= state.count else f"--json lists {listed:,}"
            lines.append(f"  ... and {state.count - len(shown)} more ({more})")
        return "\n".join(lines)

    # -- verify ---------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = dict(options or {})

        def run() -> list[ClaimResult]:
            self.options = opts
            choice = self.world_method(opts, backend)
            return [self.verify_one(c, backend, self._method(choice)) for c in claims]
        return self._or_table(opts, run)

    def parse_claim(self, claim: ClaimSpec) -> tuple[Node, int | None, bool]:
        try:
            node = parse(claim.text)
            self._typecheck(node, boolean=True)
        except PuzzleError as exc:
            raise with_hint(exc.located(self.doc.file, claim.place), claim.text) from None
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
            return ClaimResult(claim.text, Verdict.CONTRADICTION, self.minimal_conflict(backend, method),
                               expect=claim.expect, detail="no world is left")
        if at_actual:
            if state.point is None:
                return ClaimResult(claim.text, Verdict.CONTRADICTION, expect=claim.expect,
                                   detail=f"no actual world: {state.point_lost}")
            value = state.at_point(node)
            return ClaimResult(claim.text, Verdict.ENTAILED if value else Verdict.REFUTED,
                               expect=claim.expect, detail="judged at the actual world")
        true, total = state.judge(node)
        if true == total:
            because = self.explain(node, after, want=True, backend=backend, method=method)
            return ClaimResult(claim.text, Verdict.ENTAILED, because, expect=claim.expect,
                               detail=f"true in all {state.count} worlds")
        if not true:
            because = self.explain(node, after, want=False, backend=backend, method=method)
            return ClaimResult(claim.text, Verdict.REFUTED, because, state.witness(node, False),
                               expect=claim.expect, detail=f"false in all {state.count} worlds")
        witness = {"true": state.witness(node, True), "false": state.witness(node, False)}
        return ClaimResult(claim.text, Verdict.OPEN, (), witness, expect=claim.expect,
                           detail=f"true in {true} of {state.count} worlds")

    def _shrink(self, names: list[str], still: Any) -> tuple[str, ...]:
        """Drop every observation whose removal keeps ``still(kept)`` true (:func:`sleuth.explain.minimal_subset`)."""
        return tuple(minimal_subset(names, lambda trial: bool(still(set(trial)))))

    def explain(self, node: Node, after: int | None, *, want: bool, backend: str, method: str) -> tuple[str, ...]:
        """A minimal list of observations (constraints, announcement rounds) that, applied in order, already
        make the claim true (``want``) or false in every world left."""
        names = self.observations(after, backend, method)
        fixed = [] if self.product_size() <= SHRINK_LIMIT or self._way(method) in _SYMBOLIC else \
            [n for n, _ in self.constraints]

        def still(kept: set[str]) -> bool:
            state = self.final_state(backend=backend, method=method, after=after, only=kept | set(fixed))
            if state.count == 0:
                return False
            true, total = state.judge(node)
            return true == total if want else not true

        free = [n for n in names if n not in fixed]
        return tuple(fixed) + self._shrink(free, lambda kept: still(kept))

    def minimal_conflict(self, backend: str = "cpsat", method: str = "auto") -> tuple[str, ...]:
        names = self.observations(None, backend, method)

        def empty(kept: set[str]) -> bool:
            return self.final_state(backend=backend, method=method, only=kept).count == 0

        return self._shrink(names, empty)

    # -- checking formulas at load time ----------------------------------------------------------------
    def _typecheck(self, node: Node, *, boolean: bool) -> None:
        """Evaluate on an empty world table: names, agents and types are checked, nothing is computed."""
        empty = ExplicitState(WorldTable(self.domains, np.zeros((0, len(self.domains)), dtype=np.int64)),
                               self.agents)
        ev = Evaluator(empty)
        ev.truth(node) if boolean else ev.value(node)


# -- loading --------------------------------------------------------------------------------------------

def _worlds(n: int) -> str:
    return f"{n} world" if n == 1 else f"{n} worlds"



def load(doc: PuzzleDoc) -> EpistemicPuzzle:
    puzzle = EpistemicPuzzle(doc, read_state(doc))
    for claim in doc.claims:  # solve does not judge claims: one that does not read is a note (verify refuses it)
        try:
            puzzle.parse_claim(claim)
        except PuzzleError as exc:
            doc.note(f"this claim does not read, so sleuth verify will refuse it: {exc.message}", claim.place)
    return puzzle


# Epistemic's code for its registered derivations (models/epistemic/game.py): which start from the product of the
# domains as a table, which from knowledge structures (the rest enumerate the model's worlds).
_TABLED = handlers(GAME.methods, {"table": True})
_SYMBOLIC = handlers(GAME.methods, {"symbolic": True})
