"""Events on knowledge structures: the action model's knowledge transformer (:meth:`.SymbolicState.update`).

After van Benthem, van Eijck, Gattinger and Su: an action model with S5 observers adds bits for the event
(and, per agent, for the block of events it cannot tell apart), a factual change renames the changed bits to
fresh copies (the values before the event) and defines the new ones, and an agent that learns an
expression's value observes fresh bits defined by it; observers that are not a partition get an observation
law (:mod:`.belief`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import PuzzleError
from ..formula import FormulaError, Name, Node, Str, to_text
from ..schema import fold
from . import belief
from .bdd import Encoded, Vec, eval_cube, index_bits, width
from .tables import Domain, range_text

if TYPE_CHECKING:
    from oxidd.bdd import BDDFunction

    from .explicit import ActionModel
    from .symbolic import SymbolicState


def update(state: SymbolicState, action: ActionModel) -> SymbolicState:
    """The structure after the action model's event (the caller guards the diagrams' size)."""
    e, ar = state.engine, state.arith
    believers = [a for a in action.relations if not action.relation(a).s5]   # get observation laws
    n = len(action.events)
    ebits = e.fresh([f"event[{i}]" for i in range(index_bits(n))])
    enc_e = Encoded(Domain("event", tuple(range(n))), tuple(ebits))
    is_event = [state.index_is(enc_e, i) for i in range(n)]
    changed = list(dict.fromkeys(v for ev in action.events for v, _ in ev.post))
    # everything about the world before the event is compiled now, then renamed to the copies
    pres = [state.truth(ev.pre) for ev in action.events]
    posts: list[dict[str, Vec]] = []
    for ev, pre in zip(action.events, pres, strict=True):
        posts.append({var: assigned(state, var, node, pre) for var, node in ev.post})
    defs = state.engine.true
    vocabulary = list(state.vocabulary) + ebits
    observed = {a: set(s) for a, s in state.observed.items()}
    if action.learn is not None:
        expr, learners, where = action.learn
        kind, val = state.value(expr)
        bits = [val] if kind == "bool" else list(val.bits)
        if set(where) != set(range(n)):
            inside = e.false
            for i in where:
                inside = inside | is_event[i]
            bits = [inside] + [b & inside for b in bits]
        fresh, definition = state.define(f"learn:{to_text(expr)}", bits, state.support(expr) + ebits)
        defs, vocabulary = defs & definition, vocabulary + fresh
        for a in learners:
            observed[a] |= set(fresh)
    for a in action.relations:   # an agent not listed cannot tell the events apart
        if a in believers:
            continue
        target = action.relation(a).target
        blocks = sorted(set(int(t) for t in target))
        if len(blocks) > 1:
            block_of = [blocks.index(int(t)) for t in target]
            bits = []
            for j in reversed(range(index_bits(len(blocks)))):
                b = e.false
                for i in range(n):
                    if (block_of[i] >> j) & 1:
                        b = b | is_event[i]
                bits.append(b)
            fresh, definition = state.define(f"{a}:event", bits, ebits)
            defs, vocabulary = defs & definition, vocabulary + fresh
            observed[a] |= set(fresh)
    # factual change: the changed variables' bits become copies (the values before), new bits take their place
    renaming: dict[int, int] = {}
    variables = dict(state.variables)
    for var in changed:
        enc = state.variables[var]
        copies = e.fresh([f"{var}[{i}]@{len(vocabulary)}" for i in range(len(enc.bits))], enc.bits)
        renaming.update(zip(enc.bits, copies, strict=True))
        vocabulary += copies
    rename = belief.renamer(state.engine, renaming)
    transition = e.false
    for i in range(n):
        step = is_event[i] & rename(pres[i])
        for var in changed:
            enc = state.variables[var]
            new = ar.unsigned([e.var(v) for v in enc.bits]) if enc.bits else ar.const(0)
            if var in posts[i]:
                value = posts[i][var]
                step = step & ar.eq(new, Vec(tuple(rename(b) for b in value.bits), value.lo, value.hi))
            else:
                for v in enc.bits:
                    step = step & e.var(v).equiv(e.var(renaming[v]))
        transition = transition | step
    law = rename(state.law) & transition & rename(defs)
    designated_events = e.false
    for i, ev in enumerate(action.events):
        if ev.designated:
            designated_events = designated_events | is_event[i]
    observed = {a: {renaming.get(v, v) for v in s} for a, s in observed.items()}
    beliefs = belief.transform(state, action.relations, believers, renaming, ebits, is_event, vocabulary)
    child = state.with_changes(variables=variables, observed={a: frozenset(s) for a, s in observed.items()},
                       vocabulary=tuple(vocabulary), law=law, designated=rename(state.designated) & law &
                       designated_events, key=tuple(ebits) + tuple(renaming.get(v, v) for v in state.key),
                       point=None, point_lost=state.point_lost, beliefs=beliefs)
    if changed:   # agents keep observing their expressions: they see the new values too
        child.observed = {a: s | frozenset(v for x in state.agents[a] if isinstance(x, Name)
                                           and state.variable(x.name).domain.name in changed
                                           for v in state.variable(x.name).bits)
                          for a, s in child.observed.items()}
        child = child.observe({a: tuple(x for x in exprs if not isinstance(x, Name))
                                for a, exprs in state.agents.items()}, {fold(v) for v in changed})
        child.agents = state.agents
    if state.point is not None:
        at = rename(state.point) & child.designated
        if action.actual is not None:
            at = at & is_event[action.actual]
        found = child.count_of(at)
        if found == 1:
            child.point = at
        else:
            child.point_lost = ("no event can happen at the actual world" if not found else
                                "several events can happen at the actual world; name the actual one")
    return child

def assigned(state: SymbolicState, var: str, node: Node, where: BDDFunction) -> Vec:
    """The index a factual change gives ``var`` (computed before the event), checked against its domain where
    the event can happen."""
    enc = state.variables[var]
    d, ar = enc.domain, state.arith
    if isinstance(node, Str):
        try:
            return ar.const(d.code(node.value))
        except PuzzleError as exc:
            raise FormulaError(exc.message, allowed=exc.allowed) from None
    kind, val = state.value(node)
    if (d.labels is None) != (kind in ("int", "bool")) or (d.labels is not None and kind != d):
        name = kind if isinstance(kind, str) else kind.name
        raise FormulaError(f"{to_text(node)!r} is {name}-valued; it cannot be assigned to {var!r}")
    if d.labels is not None:
        return Vec(val.bits, val.lo, val.hi)
    value = state.number(node)
    index = ar.const(0)
    valid = state.engine.false
    w = width(0, len(d.values) - 1)
    bits = [state.engine.false] * w
    for i, v in enumerate(d.values):
        if value.lo <= v <= value.hi:
            cond = ar.eq(value, ar.const(v))
            valid = valid | cond
            for j in range(w):
                if (i >> j) & 1:
                    bits[j] = bits[j] | cond
    bad = state.law & where & ~valid
    if bad.satisfiable():
        cube = bad.pick_cube()
        assert cube is not None
        got = sum(1 << i for i, b in enumerate(value.bits) if eval_cube(b, cube)) - \
            (1 << len(value.bits) if eval_cube(value.bits[-1], cube) else 0)
        raise FormulaError(f"setting {var!r} to {to_text(node)!r} gives {got}, outside its domain",
                           allowed=range_text(d.values))
    index = Vec(tuple(bits), 0, len(d.values) - 1)
    return index

