"""The epistemic puzzle: the file read into domains, constraints, agents and steps; solve and verify.

The schema is in the package docstring (:mod:`sleuth.models.epistemic`) and docs/epistemic.md.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sleuth.epistemic import (DEFAULT_TABLE_LIMIT, Evaluator, KnowledgeState, WorldTable)
from sleuth.derive import Choice
from sleuth.errors import PuzzleError
from sleuth.explain import minimal_subset
from sleuth.formula import Knows, Node, parse, to_text
from sleuth.limits import MAX_WORLDS_KEY, check_size, max_items
from sleuth.puzzle import Puzzle, PuzzleDoc, emit_notes
from sleuth.results import Answer, optional, ClaimResult, ClaimSpec, Report, Status, Verdict
from sleuth.schema import Section

from .model import coded_rows
from .state import EpistemicState, Step, read_state


WORLD_BYTES = 24           # per variable and world (measured: 9 million worlds of 2 variables, 2 agents, 690 MB)
AGENT_BYTES = 16           # per agent and world (its class ids)
SOLVER_WORLD_FACTOR = 3    # a world enumerated by the solver passes through Python lists first
SOLVER_MAX_WORLDS = 200_000   # default cap of a solver enumeration (measured: about 3,000 worlds a second)
SHRINK_LIMIT = 2_000_000   # explanations rebuild world sets; above this, constraints are not shrunk


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

    def __init__(self, doc: PuzzleDoc, state: EpistemicState) -> None:
        super().__init__(doc)
        self.state = state
        self.domains, self.constraints, self.explicit = state.domains, state.constraints, state.explicit
        self.agents, self.announcements, self.actual = state.agents, state.announcements, state.actual
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
                                               rows=coded_rows(self.state))
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
        opts = dict(options or {})
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
        opts = dict(options or {})
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



def load(doc: PuzzleDoc) -> EpistemicPuzzle:
    puzzle = EpistemicPuzzle(doc, read_state(doc))
    for claim in doc.claims:
        puzzle.parse_claim(claim)
    return puzzle
