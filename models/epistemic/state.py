"""An epistemic puzzle as written in its file: domains, constraints, agents, announcements and events.

:func:`read_state` reads the file (the schema is in the package docstring and docs/epistemic.md) into an
:class:`EpistemicState`; every formula is parsed and checked against the variables and agents here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from sleuth.epistemic import ActionModel, Domain, Evaluator, Event, ExplicitState, WorldTable, assigned
from sleuth.errors import PuzzleError
from sleuth.formula import BoolConst, Node, Str, is_epistemic, parse, to_text
from sleuth.names import first_repeat, unique_names
from sleuth.puzzle import PuzzleDoc
from sleuth.claims import with_hint
from sleuth.schema import Section, choose, describe, fold

EVENT_KINDS = ("public", "private", "semi-private", "action")
MAX_DOMAIN = 10_000_000


@dataclass(frozen=True)
class Step:
    """One announcement round or event: the formula (or the event model), who made it, its place in the file."""

    formula: Node
    text: str
    by: str | None
    name: str
    action: ActionModel | None = None
    kind: str = "public"

    def apply(self, state: Any) -> Any:
        """The step on a state of either engine (explicit :class:`ExplicitState` or symbolic)."""
        return state.announce(self.formula) if self.action is None else state.update(self.action)



@dataclass(frozen=True)
class EpistemicState:
    """The puzzle: the variables' domains (or the listed worlds), the constraints, what each agent observes,
    the steps in order (with their repeat: a count or ``"stable"``) and the actual world if given."""

    domains: list[Domain]
    constraints: list[tuple[str, Node]]
    explicit: list[dict[str, Any]] | None
    agents: dict[str, list[Node]]
    announcements: list[tuple[Step, int | str]]
    actual: dict[str, Any] | None


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
            raise sec.error(f"the value {spec[rep[1]]} is listed twice (also at [{rep[0] + 1}])",
                            f"{name}[{rep[1] + 1}]")
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
        raise with_hint(PuzzleError(exc.message, file=sec.file, place=sec.path(key), allowed=exc.allowed), text) \
            from None


def _by(sec: Section, agents: Sequence[str]) -> str | None:
    """Who speaks or acts, for display only: an agent's name in its own spelling, or any other speaker as written
    (the father of the muddy children, a referee)."""
    by = sec.string("by", None)
    if by is None:
        return None
    if not by.strip():
        raise sec.error("is empty", "by", allowed="the speaker's name (an agent's, or anyone's: it is only shown)")
    if by in agents:   # as spelt (not folding every agent's name for each of hundreds of announcements)
        return by
    folded = {fold(a): a for a in agents}
    return folded.get(fold(by), " ".join(by.split()))


def _announcement(a: Section, label: str, state0: ExplicitState) -> tuple[Step, int | str]:
    text = a.string("formula")
    node = _formula(text, a, "formula", lambda n: Evaluator(state0).truth(n))
    by = _by(a, list(state0.agents))
    repeat = a.raw("repeat", 1)
    if repeat != "stable":
        repeat = a.integer("repeat", 1, lo=0, hi=10_000)
    return Step(node, text, by, f"{label} ({by + ': ' if by else ''}{text})"), repeat


def _posts(sec: Section, key: str, state0: ExplicitState) -> tuple[tuple[str, Node], ...]:
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
    return tuple(dict.fromkeys(choose(n, agents, "agent", sec, f"{key}[{j}]") for j, n in enumerate(names, 1)))


def _event(e: Section, number: int, state0: ExplicitState) -> tuple[Step, int | str]:
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


def _action_model(e: Section, state0: ExplicitState) -> ActionModel:
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

    def index(name: object, key: str) -> int:
        return names.index(choose(str(name), names, "event", obs, key))

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


def read_state(doc: PuzzleDoc) -> EpistemicState:
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
    for i, text in enumerate(top.array("constraints", str, []), 1):
        node = _formula(text, top, f"constraints[{i}]", lambda n: Evaluator(ExplicitState(empty, {})).truth(n))
        if is_epistemic(node):
            raise top.error("constraints cannot mention knows()", f"constraints[{i}]")
        constraints.append((f"constraint {i}: {text}", node))

    agents: dict[str, list[Node]] = {}
    agent_sec = top.section("agents")
    for name in agent_sec.data:
        spec = agent_sec.raw(name)
        exprs = [spec] if isinstance(spec, str) else spec
        if not isinstance(exprs, list):
            raise agent_sec.error("expected the expressions the agent observes", name,
                                  allowed="a list of expressions such as ['x + y'], or [] (observes nothing)")
        agents[name] = [_formula(e, agent_sec, name, lambda n: Evaluator(ExplicitState(empty, {})).value(n))
                        for e in exprs]
    agent_sec.finish()
    if not agents:
        raise top.error("no agents", "agents", allowed="at least one agent")
    state0 = ExplicitState(empty, agents)

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
    return EpistemicState(domains, constraints, explicit, agents, announcements, actual)
