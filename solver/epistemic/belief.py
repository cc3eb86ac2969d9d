"""Belief on knowledge structures: observation laws over a doubled vocabulary.

After Gattinger's belief structures ("New Directions in Model Checking Dynamic Epistemic Logic", ch. 2; van
Benthem, van Eijck, Gattinger and Su, section 5): besides the variables it observes, an agent may have an
*observation law* Ω_a, a decision diagram over the vocabulary V and a primed copy V' relating a world (V) to
the worlds the agent considers possible (V').  What the agent considers possible from *s* is every world *t*
of the law that agrees with *s* on its observed variables and satisfies Ω_a(s, t), so

    believes(a, φ)  =  ∀V'. (θ' ∧ Ω_a ∧ (O_a = O_a') → φ')

and a knowledge structure is the case Ω_a = true (the fast path of :mod:`.symbolic`, untouched here).  An
agent gets an observation law when an event's relation for it is not a partition (a private event's
outsiders believe nothing happened; an action model's ``{ e = [f] }`` observers): the event's relation
R_a(e, e') over the event's bits and their primed copies is conjoined to it, exactly the product update's
"considers (v, f) possible from (w, e) when it considers v possible from w and f possible from e".  Later
events carry it over: a factual change renames the changed bits to their copies (the values before) in Ω_a
as in the law, primed bits included.

Primed copies are made on first use, each right below its variable in the order (relations between a world
and its neighbours stay small when a bit and its copy are adjacent); the memory budget bounds them as every
other node (:class:`~.bdd.DiagramLimit`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from oxidd.bdd import BDDFunction

    from .bdd import BddManager
    from .symbolic import SymbolicState

Box = Callable[["BDDFunction"], "BDDFunction"]


def primed(engine: BddManager, bits: Iterable[int]) -> dict[int, int]:
    """Each bit's primed copy, made on first use (all missing ones in one reordering) right below the bit."""
    wanted = list(dict.fromkeys(bits))
    missing = [v for v in wanted if v not in engine.primes]
    if missing:
        groups = engine.fresh_groups([([engine.names[v] + "'"], [v]) for v in missing])
        for v, (p,) in zip(missing, groups, strict=True):
            engine.primes[v] = p
    return {v: engine.primes[v] for v in wanted}


def renamer(engine: BddManager, mapping: Mapping[int, int]) -> Callable[[BDDFunction], BDDFunction]:
    """Simultaneous substitution of variables by variables (identity when there is nothing to rename)."""
    if not mapping:
        return lambda f: f
    from oxidd.bdd import BDDFunction as F
    sub = F.make_substitution([(v, engine.var(c)) for v, c in mapping.items()])
    return lambda f: f.substitute(sub)


def box(state: SymbolicState, agents: Sequence[str]) -> Box:
    """``f`` ↦ the worlds where ``f`` holds in every world the group considers possible together (one agent:
    its belief; several: distributed belief, the intersection of their relations).  Only the variables nobody
    in the group observes are primed: the worlds considered possible agree with this one on the others."""
    key = frozenset(agents)
    hit = state._relations.get(key)
    if hit is None:
        e = state.engine
        seen = frozenset().union(*(state.observed.get(a, frozenset()) for a in agents))
        hidden = [v for v in state.vocabulary if v not in seen]
        primes = primed(e, state.vocabulary)
        back = renamer(e, {primes[v]: v for v in seen})
        forward = renamer(e, {v: primes[v] for v in hidden})
        relation = e.true
        for a in agents:
            if a in state.beliefs:
                relation = relation & back(state.beliefs[a])
        hit = state._relations[key] = (relation & forward(state.law), forward, e.cube([primes[v] for v in hidden]))
    reach, forward, cube = hit
    return lambda f: ~(reach & forward(~f)).exists(cube)


def transform(state: SymbolicState, action_relations: Mapping[str, Sequence[Sequence[int]]],
              believers: Sequence[str], renaming: Mapping[int, int], event_bits: Sequence[int],
              is_event: Sequence[BDDFunction], vocabulary: Sequence[int]) -> dict[str, BDDFunction]:
    """The observation laws after an event: the old ones with the changed bits renamed to their copies (primed
    copies too), each ``believers`` agent's event relation conjoined (``action_relations``: per agent, the events
    it considers possible from each event).  When there are any, the new ``vocabulary`` gets its primed copies
    now, in one reordering (each costs one, whatever its size)."""
    e = state.engine
    if not state.beliefs and not believers:
        return {}
    old_primes = {v: e.primes[v] for v in renaming if v in e.primes}
    primes = primed(e, list(vocabulary) + [renaming[v] for v in old_primes] + list(event_bits))
    rename = renamer(e, {**renaming, **{p: primes[renaming[v]] for v, p in old_primes.items()}})
    out = {a: rename(omega) for a, omega in state.beliefs.items()}
    if believers:
        to_primed = renamer(e, {v: primes[v] for v in event_bits})
        after = [to_primed(f) for f in is_event]
        for a in believers:
            relation = e.false
            for i, targets in enumerate(action_relations[a]):
                possible = e.false
                for j in targets:
                    possible = possible | after[j]
                relation = relation | (is_event[i] & possible)
            out[a] = out[a] & relation if a in out else relation
    return out


def reflexive_at(state: SymbolicState, agent: str, point: BDDFunction) -> bool:
    """Whether the agent considers the world ``point`` itself possible (false: its belief there is wrong)."""
    omega = state.beliefs.get(agent)
    if omega is None:
        return True
    e = state.engine
    diagonal = renamer(e, {p: v for v, p in primed(e, state.vocabulary).items()})
    return bool((point & diagonal(omega)).satisfiable())
