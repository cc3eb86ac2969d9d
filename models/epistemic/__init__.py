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
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sleuth.epistemic import DEFAULT_TABLE_LIMIT, Domain, Evaluator, KnowledgeState, WorldTable
from sleuth.errors import PuzzleError
from sleuth.names import first_repeat, unique_names
from sleuth.formula import FormulaError, Knows, Node, is_epistemic, parse, to_text
from sleuth.puzzle import Puzzle, PuzzleDoc
from sleuth.results import ClaimResult, ClaimSpec, Report, Status, Verdict
from sleuth.schema import Section, choose, describe

CLAIM_KEYS = ("after", "at")
MAX_DOMAIN = 10_000_000
SHRINK_LIMIT = 2_000_000   # explanations rebuild world sets; above this, constraints are not shrunk


@dataclass(frozen=True)
class Step:
    """One announcement round: the formula, who made it, and its place in the file."""

    formula: Node
    text: str
    by: str | None
    name: str


@dataclass(frozen=True)
class Observation:
    """A constraint or an announcement round, as named in explanations."""

    name: str
    kind: str   # "constraint" | "announcement"
    node: Node


class EpistemicPuzzle(Puzzle):
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

    # -- worlds ---------------------------------------------------------------------------------------
    def product_size(self) -> int:
        if self.explicit is not None:
            return len(self.explicit)
        return int(np.prod([len(d.values) for d in self.domains], dtype=object))

    def initial_table(self, backend: str = "cpsat", method: str = "auto",
                      constraints: Sequence[int] | None = None) -> WorldTable:
        """The worlds allowed by the constraints (all, or the listed ones), built by ``method``."""
        chosen = tuple(range(len(self.constraints)) if constraints is None else constraints)
        if method == "auto":
            method = "table" if self.explicit is not None or self.product_size() <= DEFAULT_TABLE_LIMIT \
                else "solver"
        key = (backend, method, chosen)
        if key not in self._tables:
            nodes = [self.constraints[i][1] for i in chosen]
            if self.explicit is not None:
                base = WorldTable.from_rows(self.domains, self.explicit)
                state = KnowledgeState(base, {})
                mask = np.ones(len(base), dtype=bool)
                for node in nodes:
                    mask &= state.truth(node)
                table = base.subset(mask)
            elif method == "table":
                table = WorldTable.from_product(self.domains, nodes)
            else:
                table = WorldTable.from_solver(self.domains, nodes, backend=backend)
            self._tables[key] = table
        return self._tables[key]

    def steps(self, state: KnowledgeState, limit: int | None = None) -> list[tuple[Step, KnowledgeState]]:
        """Apply the announcement rounds in order (``limit``: only the first N rounds)."""
        return list(self._run(state, limit, None))

    def final_state(self, *, backend: str = "cpsat", method: str = "auto", after: int | None = None,
                    only: set[str] | None = None) -> KnowledgeState:
        """The state after the rounds (``only``: keep just the named observations, for explanations)."""
        idx = [i for i, (name, _) in enumerate(self.constraints) if only is None or name in only]
        state = KnowledgeState(self.initial_table(backend, method, idx), self.agents)
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
                nxt = state.announce(step.formula)
                if repeat == "stable" and nxt.count == state.count:
                    break
                yield Step(step.formula, step.text, step.by, name), nxt
                state = nxt

    def observations(self, after: int | None = None) -> list[str]:
        """Names of the constraints and of the announcement rounds (up to ``after``)."""
        names = [name for name, _ in self.constraints]
        state = KnowledgeState(self.initial_table(), self.agents)
        names += [s.name for s, _ in self.steps(state, after)]
        return names

    # -- solve ----------------------------------------------------------------------------------------
    def solve(self, *, backend: str = "cpsat", options: Mapping[str, Any] | None = None) -> Report:
        opts = self.reject_options(options, ["worlds"])
        method = choose(str(opts.get("worlds", "auto")), ["auto", "table", "solver"], "world-building method",
                        key="--set worlds")
        start = KnowledgeState(self.initial_table(backend, method), self.agents)
        history = self.steps(start)
        state = history[-1][1] if history else start
        trace = [{"announcement": to_text(s.formula), "by": s.by, "name": s.name, "worlds": st.count}
                 for s, st in history]
        if state.count == 0:
            conflict = self.minimal_conflict()
            return Report(self.game, Status.CONTRADICTION,
                          {"worlds": [], "count": 0, "initial": start.count, "steps": trace}, conflict=conflict)
        fields: dict[str, Any] = {"worlds": state.table.rows(), "count": state.count,
                                  "initial": start.count, "steps": trace}
        if self.actual is not None:
            fields["actual"] = self.actual
            fields["knowers"] = self._knowers(start, history)
        return Report(self.game, Status.OK, fields, self._text(start, history, state, fields))

    def _actual_mask(self, state: KnowledgeState) -> np.ndarray:
        assert self.actual is not None
        mask = np.ones(state.count, dtype=bool)
        for d in self.domains:
            mask &= state.table.column(d.name) == d.code(self.actual[d.name])
        return mask

    def _knowers(self, start: KnowledgeState, history: list[tuple[Step, KnowledgeState]]) -> list[dict[str, Any]]:
        """At the actual world, after each round: which agents know the whole world."""
        out = []
        for label, state in [("start", start)] + [(s.name, st) for s, st in history]:
            mask = self._actual_mask(state)
            if not mask.any():
                out.append({"after": label, "actual_possible": False, "know": []})
                continue
            w = int(np.flatnonzero(mask)[0])
            know = [a for a in self.agents if bool(state.truth(Knows(a, None))[w])]   # no text: any name works
            out.append({"after": label, "actual_possible": True, "know": know})
        return out

    def _text(self, start: KnowledgeState, history: list[tuple[Step, KnowledgeState]], state: KnowledgeState,
              fields: Mapping[str, Any]) -> str:
        lines = [self.title or "epistemic puzzle", f"worlds at the start: {start.count}"]
        for s, st in history:
            lines.append(f"  {s.name}  -> {_worlds(st.count)}")
        if "knowers" in fields:
            lines.append("at the actual world, who knows it:")
            for row in fields["knowers"]:
                know = ", ".join(row["know"]) or "nobody"
                lines.append(f"  after {row['after']}: {know}" if row["actual_possible"]
                             else f"  after {row['after']}: the actual world was ruled out")
        shown = state.table.rows(20)
        lines.append(f"worlds left: {state.count}")
        lines += ["  " + ", ".join(f"{k} = {v}" for k, v in row.items()) for row in shown]
        if state.count > len(shown):
            lines.append(f"  ... and {state.count - len(shown)} more (--json lists all)")
        return "\n".join(lines)

    # -- verify ---------------------------------------------------------------------------------------
    def verify(self, claims: Sequence[ClaimSpec], *, backend: str = "cpsat",
               options: Mapping[str, Any] | None = None) -> list[ClaimResult]:
        opts = self.reject_options(options, ["worlds", "time-limit"])
        method = choose(str(opts.get("worlds", "auto")), ["auto", "table", "solver"], "world-building method",
                        key="--set worlds")
        return [self.verify_one(c, backend, method) for c in claims]

    def parse_claim(self, claim: ClaimSpec) -> tuple[Node, int | None, bool]:
        try:
            node = parse(claim.text)
            self._typecheck(node, boolean=True)
        except PuzzleError as exc:
            raise exc.located(self.doc.file, claim.place) from None
        sec = Section(dict(claim.options), file=self.doc.file, place=claim.place)
        after = sec.int("after", None, lo=0, hi=10_000)
        at = sec.str("at", None, choices=["actual", "all"])
        if at == "actual" and self.actual is None:
            raise sec.error("at = 'actual' needs an 'actual' world in the file", "at")
        return node, after, at == "actual"

    def verify_one(self, claim: ClaimSpec, backend: str = "cpsat", method: str = "auto") -> ClaimResult:
        node, after, at_actual = self.parse_claim(claim)
        state = self.final_state(backend=backend, method=method, after=after)
        if state.count == 0:
            return ClaimResult(claim.text, Verdict.CONTRADICTION, self.minimal_conflict(), expect=claim.expect,
                               detail="no world is left")
        holds = state.truth(node)
        if at_actual:
            mask = self._actual_mask(state)
            if not mask.any():
                return ClaimResult(claim.text, Verdict.CONTRADICTION, expect=claim.expect,
                                   detail="the actual world was ruled out by the announcements")
            value = bool(holds[np.flatnonzero(mask)[0]])
            return ClaimResult(claim.text, Verdict.ENTAILED if value else Verdict.REFUTED,
                               expect=claim.expect, detail="judged at the actual world")
        rows = state.table
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
        """Deletion-based: drop every observation whose removal keeps ``still(kept)`` true."""
        kept = list(names)
        i = 0
        while i < len(kept):
            trial = kept[:i] + kept[i + 1:]
            if still(set(trial)):
                kept = trial
            else:
                i += 1
        return tuple(kept)

    def explain(self, node: Node, after: int | None, *, want: bool, backend: str, method: str) -> tuple[str, ...]:
        """A minimal list of observations (constraints, announcement rounds) that, applied in order, already
        make the claim true (``want``) or false in every world left."""
        names = self.observations(after)
        fixed = [] if self.product_size() <= SHRINK_LIMIT else [n for n, _ in self.constraints]

        def still(kept: set[str]) -> bool:
            state = self.final_state(backend=backend, method=method, after=after, only=kept | set(fixed))
            if state.count == 0:
                return False
            holds = state.truth(node)
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
        lo, hi = s.int("min"), s.int("max")
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


def load(doc: PuzzleDoc) -> EpistemicPuzzle:
    top = doc.section
    explicit_raw = top.list("worlds", dict, None, min_len=1, max_len=MAX_DOMAIN)
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
    for i, text in enumerate(top.list("constraints", str, [])):
        node = _formula(text, top, f"constraints[{i}]", lambda n: Evaluator(KnowledgeState(empty, {})).truth(n))
        if is_epistemic(node):
            raise top.error("constraints cannot mention knows()", f"constraints[{i}]")
        constraints.append((f"constraint {i + 1}: {text}", node))

    agents: dict[str, list[Node]] = {}
    agent_sec = top.section("agents")
    for name in agent_sec.data:
        spec = agent_sec.raw(name)
        exprs = [spec] if isinstance(spec, str) else spec
        if not isinstance(exprs, list) or not exprs:
            raise agent_sec.error("expected the expressions the agent observes", name,
                                  allowed="a list of expressions such as ['x + y']")
        agents[name] = [_formula(e, agent_sec, name, lambda n: Evaluator(KnowledgeState(empty, {})).value(n))
                        for e in exprs]
    agent_sec.finish()
    if not agents:
        raise top.error("no agents", "agents", allowed="at least one agent")
    state0 = KnowledgeState(empty, agents)

    announcements: list[tuple[Step, int | str]] = []
    for i, a in enumerate(top.sections("announcement")):
        text = a.str("formula")
        node = _formula(text, a, "formula", lambda n: Evaluator(state0).truth(n))
        by = a.str("by", None)
        if by is not None:
            by = choose(by, list(agents), "agent", a, "by")
        repeat = a.raw("repeat", 1)
        if repeat != "stable":
            repeat = a.int("repeat", 1, lo=0, hi=10_000)
        a.finish()
        label = f"announcement {i + 1} ({by + ': ' if by else ''}{text})"
        announcements.append((Step(node, text, by, label), repeat))

    actual_sec = top.section("actual", None)
    actual = None if actual_sec is None else _world(actual_sec, domains)
    puzzle = EpistemicPuzzle(doc, domains, constraints, explicit, agents, announcements, actual)
    for claim in doc.claims:
        puzzle.parse_claim(claim)
    return puzzle


__all__ = ["EpistemicPuzzle", "load", "FormulaError"]
