"""One viewer's belief by any method, and what every player knows of their own card.

:func:`belief` is the API: the game, whose eyes, which method; it returns a :class:`BeliefResult` with exact
marginals (or the matrix estimate, labelled), the support size and what the method can say besides (the
components, the posterior of each unknown swap for the tree, the number of histories for CP-SAT).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TypedDict, TypeVar, Unpack

from sleuth.explain import minimal_subset

from .components import DEFAULT_TREE_CAP, ComponentBelief, Method, ComponentLimit
from .model import build_model, enumerate_belief
from .state import MascaradeState, MissingFact, SeeStep, Step, SwapStep
from .matrix import MatrixBelief
from .reference import marginals_of

DEFAULT_CPSAT_LIMIT = 1 << 16
T = TypeVar("T", bound=ComponentBelief | MatrixBelief)


class BeliefOptions(TypedDict, total=False):
    """The settings of :func:`belief` besides the game, the viewer and the method."""

    backend: str
    tree_cap: int
    max_rows: int | None
    cpsat_limit: int


@dataclass(frozen=True)
class BeliefResult:
    """A viewer's belief: ``marginals[position][identity]`` (identities with P > 0) and the support size."""

    viewer: int | None
    method: Method
    consistent: bool
    marginals: list[dict[int, Fraction]]
    support: int | None                      # None: the matrix method does not know it
    exact: bool = True
    note: str = ""
    components: list[list[int]] = field(default_factory=list)      # positions mixed together (2 or more)
    swap_posteriors: dict[int, Fraction] | None = None              # event index -> P(it swapped), tree only
    histories: int | None = None                                    # cpsat: consistent histories enumerated
    distribution: dict[tuple[int, ...], Fraction] | None = None     # cpsat: the whole posterior

    def p(self, position: int, identity: int) -> Fraction:
        return self.marginals[position].get(identity, Fraction(0))

    def certain(self, position: int) -> int | None:
        row = self.marginals[position]
        return next((c for c, p in row.items() if p == 1), None)


def make_tracker(initial: Sequence[int], prior: Fraction, method: Method, *, tree_cap: int = DEFAULT_TREE_CAP,
                 max_rows: int | None = None, factor: bool = True) -> ComponentBelief | MatrixBelief:
    """An incremental belief (``swap`` / ``see``) for the methods that update event by event."""
    if method is Method.MATRIX:
        return MatrixBelief(initial, prior)
    if method is Method.CPSAT:
        raise ValueError("the CP-SAT method solves the whole history at once; use run_steps")
    return ComponentBelief(initial, prior, method, tree_cap=tree_cap, max_rows=max_rows, factor=factor)


def replay(tracker: T, steps: Sequence[Step]) -> T:
    """Feed a viewer's steps to a tracker (stops at the first contradiction)."""
    for s in steps:
        if isinstance(s, SwapStep):
            tracker.swap(s.a, s.b, s.outcome)
        elif not tracker.see(s.position, s.identity):
            break
    return tracker


def run_steps(initial: Sequence[int], steps: Sequence[Step], prior: Fraction, method: Method = Method.AUTO, *,
              viewer: int | None = None, backend: str = "cpsat", tree_cap: int = DEFAULT_TREE_CAP,
              max_rows: int | None = None, cpsat_limit: int = DEFAULT_CPSAT_LIMIT,
              names: Sequence[str] | None = None) -> BeliefResult:
    """The belief after ``steps`` (what one viewer saw), by ``method``."""
    if method is Method.CPSAT:
        gm = build_model(initial, steps, prior, names)
        dist, count = enumerate_belief(gm, prior, backend, limit=cpsat_limit)
        return BeliefResult(viewer, method, bool(dist), marginals_of(dist, len(initial)) if dist else
                            [{} for _ in initial], len(dist), histories=count, distribution=dist)
    tracker = replay(make_tracker(initial, prior, method, tree_cap=tree_cap, max_rows=max_rows), steps)
    if isinstance(tracker, MatrixBelief):
        return BeliefResult(viewer, method, tracker.consistent, tracker.marginals(), None, tracker.exact,
                            tracker.note)
    posteriors = tracker.swap_posteriors()
    if posteriors is not None:
        events = [s.event for s in steps if isinstance(s, SwapStep) and s.outcome is None]
        posteriors = {events[k]: p for k, p in posteriors.items()}
    components = sorted(sorted(c.positions) for c in tracker.components if len(c.positions) > 1)
    return BeliefResult(viewer, method, tracker.consistent, tracker.marginals(), tracker.support(),
                        components=components, swap_posteriors=posteriors)


def belief(game: MascaradeState, viewer: int | None = None, method: Method = Method.AUTO,
           **options: Unpack[BeliefOptions]) -> BeliefResult:
    """``viewer``'s exact belief (a player index; None for an observer of public events only)."""
    return run_steps(game.initial, game.steps_for(viewer), game.swap_probability, method, viewer=viewer,
                     names=game.positions, **options)


def observation_names(steps: Sequence[Step]) -> list[str]:
    """The observations among a viewer's steps: the cards seen and the swap outcomes known."""
    return [s.name for s in steps if isinstance(s, SeeStep) or s.outcome is not None]


def without(steps: Sequence[Step], dropped: set[str]) -> list[Step]:
    """The steps with the named observations switched off (a card not seen, a swap's outcome not known)."""
    out: list[Step] = []
    for s in steps:
        if s.name not in dropped:
            out.append(s)
        elif isinstance(s, SwapStep):
            out.append(SwapStep(s.a, s.b, None, s.name, s.event))
    return out


EXPLAIN_ROWS = 50_000


@dataclass(frozen=True)
class Explanation:
    """Observations under which a test still holds; ``minimal`` unless some try outgrew the row cap."""

    names: tuple[str, ...]
    minimal: bool


def minimal_observations(initial: Sequence[int], steps: Sequence[Step], prior: Fraction,
                         test: Callable[[ComponentBelief], bool], *, max_rows: int = EXPLAIN_ROWS) -> Explanation:
    """A small set of observations under which ``test`` still holds (deletion, one exact belief per try).

    ``test`` must be monotone in the observations (true with some, true with more), as entailment and
    inconsistency are: every observation only removes histories.  Switching observations off can make the
    belief grow; a try whose belief outgrows ``max_rows`` keeps its observation, and the set is then only
    known to be sufficient, not minimal.
    """
    complete = True

    def holds(dropped: set[str]) -> bool:
        nonlocal complete
        try:
            return test(replay(ComponentBelief(initial, prior, max_rows=max_rows), without(steps, dropped)))
        except ComponentLimit:
            complete = False
            return False

    names = observation_names(steps)
    kept = minimal_subset(names, lambda trial: holds(set(names) - set(trial)), last_first=True)
    return Explanation(tuple(kept), complete)


@dataclass(frozen=True)
class OwnCard:
    """How sure a player is of their own card, from their own information."""

    player: int
    available: bool
    row: dict[int, Fraction] = field(default_factory=dict)
    reason: str = ""

    @property
    def best(self) -> tuple[int, Fraction] | None:
        if not self.row:
            return None
        card = max(self.row, key=lambda c: (self.row[c], -c))
        return card, self.row[card]

    @property
    def certain(self) -> bool:
        best = self.best
        return best is not None and best[1] == 1


def own_card(game: MascaradeState, player: int, **options: Unpack[BeliefOptions]) -> OwnCard:
    """``player``'s belief about their own card, computed from what that player saw (method auto)."""
    name = game.players[player]
    try:
        result = belief(game, player, Method.AUTO, **options)
    except MissingFact as exc:
        return OwnCard(player, False, reason=f"the file lacks what {name} saw: {exc.place or ''} ({exc.message})")
    if not result.consistent:
        return OwnCard(player, False, reason=f"{name}'s own observations contradict each other")
    return OwnCard(player, True, dict(result.marginals[player]))


def own_card_beliefs(game: MascaradeState, **options: Unpack[BeliefOptions]) -> list[OwnCard]:
    """For every player: how sure they are of their own card, each from their own information."""
    return [own_card(game, p, **options) for p in range(len(game.players))]


__all__ = ["BeliefResult", "OwnCard", "belief", "make_tracker", "own_card", "own_card_beliefs", "run_steps", "SeeStep",
           "SwapStep"]
