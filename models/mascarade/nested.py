"""What the other players believe, seen from the viewer's side (second-order beliefs), exact.

A *world* is an outcome for every swap the viewer did not see, weighted by the swap probability and kept
when it agrees with every card the viewer saw.  In a world, a player saw the outcomes of their own swaps,
the public ones and their own looks; their belief is the exact belief (:func:`.analysis.run_steps`) from
those steps, computed once per distinct set of steps.  For each other player the viewer gets the
probability that the player is certain of their own card (a player who can claim safely), and the
expected belief of that player about their own card and about the viewer's card.

The worlds are listed one by one: 2^k of them for k swaps the viewer did not see, so at most
:data:`MAX_HIDDEN` such swaps.  :func:`brute_force_nested` (the tests' reference) lists every outcome of
every swap as listed worlds of the knowledge layer (:class:`sleuth.knowledge.Worlds`).
"""

from __future__ import annotations

import dataclasses
import itertools
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

from sleuth.errors import InternalError
from sleuth.knowledge import Worlds

from .analysis import run_steps
from .components import ComponentLimit

from .state import Event, EventKind, MascaradeState, Step, SwapStep

MAX_HIDDEN = 16


@dataclass(frozen=True)
class Nested:
    """The viewer's view of one other player's beliefs (every number exact)."""

    player: int
    knows_own: Fraction                      # P(the player is certain of their own card)
    own: dict[int, Fraction]                 # identity -> E[P_player(own card = identity)]
    about: dict[int, dict[int, Fraction]]    # position -> identity -> E[P_player(position holds identity)]


def completed(game: MascaradeState, outcomes: Sequence[bool]) -> MascaradeState:
    """The game with every swap's outcome (one per swap event, in order) and every card looked at or
    revealed filled in as they would be in that world (whatever the file records)."""
    state = list(game.initial)
    events: list[Event] = []
    it = iter(outcomes)
    for e in game.events:
        seen = [(pos, state[pos]) for pos, _ in e.seen]
        swapped = e.swapped
        if e.pair is not None:
            swapped = happened = next(it)
            if happened:
                a, b = e.pair
                state[a], state[b] = state[b], state[a]
        events.append(dataclasses.replace(e, seen=tuple(seen), swapped=swapped))
    return dataclasses.replace(game, events=events)


def worlds(game: MascaradeState, viewer: int | None) -> Iterator[tuple[MascaradeState, Fraction]]:
    """The viewer's worlds (completed games) with their unnormalised weights, in the order of the hidden
    swaps' outcomes (not swapped first).

    Depth first over the events, both outcomes at each swap the viewer did not see: a branch ends as soon as
    a card the viewer saw (a reveal, or their own look) differs from the card there in that branch, or its
    weight is 0, so only the worlds that agree with the viewer are completed (six-players.toml: 64 of 4,096)."""
    game.steps_for(viewer)   # raises MissingFact when the file lacks what the viewer saw
    swaps = [e for e in game.events if e.pair is not None]
    hidden = [k for k, e in enumerate(swaps) if not (e.public or (viewer is not None and e.actor == viewer))]
    if len(hidden) > MAX_HIDDEN:
        raise ComponentLimit(f"{len(hidden)} swaps the viewer did not see (at most {MAX_HIDDEN} are listed one by one)")
    prior = game.swap_probability
    unseen = set(hidden)
    # per event: the cards the viewer saw there (before its swap), as (position, identity)
    saw = [[(e.seen[0][0], e.card_seen())] if e.kind is EventKind.REVEAL else
           [(pos, card) for pos, card in e.seen] if e.kind in (EventKind.LOOK, EventKind.SPY) and viewer is not None
           and e.actor == viewer else [] for e in game.events]
    found: list[tuple[list[bool], Fraction]] = []

    def walk(i: int, state: list[int], outcomes: list[bool], w: Fraction) -> None:
        while i < len(game.events):
            e = game.events[i]
            i += 1
            if any(state[pos] != card for pos, card in saw[i - 1]):
                return
            if e.pair is None:
                continue
            a, b = e.pair
            if len(outcomes) in unseen:
                for happened in (False, True):
                    wb = w * (prior if happened else 1 - prior)
                    if wb:
                        after = list(state)
                        if happened:
                            after[a], after[b] = after[b], after[a]
                        walk(i, after, [*outcomes, happened], wb)
                return
            outcomes.append(bool(e.swapped))
            if e.swapped:
                state[a], state[b] = state[b], state[a]
        found.append((outcomes, w))

    walk(0, list(game.initial), [], Fraction(1))
    for outcomes, w in found:
        yield completed(game, outcomes), w


def _steps_key(steps: Sequence[Step]) -> tuple[object, ...]:
    return tuple((s.a, s.b, s.outcome) if isinstance(s, SwapStep) else (s.position, s.identity) for s in steps)


def nested(game: MascaradeState, viewer: int | None, players: Sequence[int] | None = None,
           belief_of: Callable[[MascaradeState, int], list[dict[int, Fraction]]] | None = None) -> list[Nested]:
    """Every other player's beliefs as the viewer sees them; [] when no world agrees with the viewer.

    ``belief_of(world, player)`` gives the player's marginals in a world (default: the exact belief of
    :func:`.analysis.run_steps`, cached per distinct steps)."""
    if players is None:
        players = [p for p in range(len(game.players)) if p != viewer]
    cache: dict[tuple[int, tuple[object, ...]], list[dict[int, Fraction]]] = {}

    def exact(world: MascaradeState, p: int) -> list[dict[int, Fraction]]:
        steps = world.steps_for(p)
        key = (p, _steps_key(steps))
        if key not in cache:
            cache[key] = run_steps(world.initial, steps, world.swap_probability).marginals
        return cache[key]

    belief_of = belief_of or exact
    found = list(worlds(game, viewer))
    total = sum((w for _, w in found), Fraction(0))
    if not total:
        return []
    out = []
    for p in players:
        knows = Fraction(0)
        about: dict[int, dict[int, Fraction]] = defaultdict(lambda: defaultdict(Fraction))
        for world, w in found:
            marg = belief_of(world, p)
            knows += w * any(x == 1 for x in marg[p].values())
            for pos, row in enumerate(marg):
                for card, x in row.items():
                    if x:
                        about[pos][card] += w * x
        table = {pos: {c: x / total for c, x in sorted(row.items())} for pos, row in sorted(about.items())}
        out.append(Nested(p, knows / total, table.get(p, {}), table))
    return out


def brute_force_nested(game: MascaradeState, viewer: int | None) -> list[Nested]:
    """:func:`nested` on the knowledge layer (tests only): every outcome of every swap is a world of
    :class:`sleuth.knowledge.Worlds` weighted by the swap probabilities, each player observes the steps they
    saw, a belief is the player's weighted distribution over their cell and the viewer's figures are the
    viewer's expectations of those beliefs (:meth:`~sleuth.knowledge.Worlds.expectation`)."""
    swaps = [e for e in game.events if e.pair is not None]
    prior = game.swap_probability
    rows, weights = [], []
    for bits in itertools.product((False, True), repeat=len(swaps)):
        w = Fraction(1)
        for b in bits:
            w *= prior if b else 1 - prior
        if w:   # a swap that cannot happen (or must) leaves no world behind
            rows.append(completed(game, bits))
            weights.append(w)
    players = list(range(len(game.players)))
    everyone = [*players, None]
    keys = {p: [_steps_key(world.steps_for(p)) for world in rows] for p in everyone}
    worlds: Worlds[int | None] = Worlds(rows, keys, weights)
    mine = [k == _steps_key(game.steps_for(viewer)) for k in keys[viewer]]
    if not any(mine):
        return []
    here = mine.index(True)   # a world of the viewer's cell (the viewer's expectations are the same in all)
    cards = [_placement(world) for world in rows]
    out = []
    for p in (q for q in players if q != viewer):
        knows = worlds.knows(p, [c[p] for c in cards])
        about: dict[int, dict[int, Fraction]] = {}
        for pos in range(game.n_positions):
            at = [c[pos] for c in cards]
            row = {c: worlds.expectation(viewer, worlds.belief(p, at, c))[here] for c in range(len(game.identities))}
            about[pos] = {c: x for c, x in row.items() if x}
        out.append(Nested(p, worlds.probability(knows, given=mine), about[p], about))
    return out


def _placement(world: MascaradeState) -> tuple[int, ...]:
    """The final placement of a completed world (every swap's outcome known)."""
    placement = world.true_placement()
    if placement is None:
        raise InternalError("a listed world has a swap of unknown outcome")
    return placement


__all__ = ["MAX_HIDDEN", "Nested", "brute_force_nested", "completed", "nested", "worlds"]
