"""What the other players know, seen from the viewer's side: nested exact counting over their views.

A *world* is a deal consistent with the viewer's observations (uniform) together with the card shown at
every showing the viewer did not see (uniform among the suggested cards the shower holds).  A player's
*view* in a world is their own hand and the cards shown to them; the public log is common to all.  The
player knows a part of the envelope in a world when every deal consistent with their view and the public
log has the same answer for that part.

Nested counting, not enumeration of deals: for one player, the views are listed (their possible hands, and
for each showing to them that the viewer did not see, which suggested cards the shower holds and which one
was shown); each view's probability is an exact deal count of :mod:`.counting` (the viewer's problem with
that hand and those holdings fixed, times 1/|held| per unseen showing); what the player knows in a view is
read off the deal counts of the player's own problem (cached per view).  Both steps are the knowledge
layer's (:mod:`sleuth.knowledge`) counted form: a view's deal counts split by an envelope part are the
player's cell, :func:`sleuth.knowledge.knows` reads it, :func:`sleuth.knowledge.expectation` averages over
the views.  :func:`brute_force_others` lists every deal and every shown card as :class:`sleuth.knowledge.Worlds`
instead (the tests' reference on small decks).
"""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np

from sleuth.errors import InternalError
from sleuth import knowledge as kn

from .counting import Counts, Problem, count_deals, sample_deals
from .state import CATEGORIES, Deck, Game, Obs, ObsKind, Suggestion

PARTS = ("envelope", *CATEGORIES)
WITNESSES = 2000     # deals drawn (once per state) to rule out views where a player knows nothing
WITNESS_FROM = 150   # ... when a player has more (hand, holdings) problems to count than this
Deal = tuple[int, ...]
T = TypeVar("T")

View = tuple[frozenset[int], tuple[int, ...]]   # (hand, card shown at each unseen showing to the player)


@dataclass
class ViewInfo:
    weight: int = 0
    envelope: tuple[frozenset[int], ...] = (frozenset(), frozenset(), frozenset())


@dataclass(frozen=True)
class Showing:
    """A showing to the player: suggestion ``index``; ``card`` is None when the viewer did not see it."""

    index: int
    shower: int
    cards: tuple[int, int, int]
    card: int | None


def showings_to(game: Game, player: int) -> list[Showing]:
    v = game.viewer
    out = []
    for k, s in enumerate(game.suggestions):
        if s.by == player and s.shown_by is not None:
            seen = s.card is not None and (v is None or v in (s.by, s.shown_by))
            out.append(Showing(k, s.shown_by, s.cards, s.card if seen else None))
    return out


def player_game(game: Game, player: int, hand: frozenset[int], shown: dict[int, int]) -> Game:
    """The game as ``player`` sees it: their hand, the cards shown to them (``shown``: suggestion index ->
    card), the public log."""
    hands = tuple(hand if p == player else frozenset() for p in range(len(game.players)))
    sugg = tuple(Suggestion(s.by, s.cards, s.shown_by, shown.get(k)) for k, s in enumerate(game.suggestions))
    return Game(game.deck, game.players, game.hand_sizes, hands, sugg, game.accusations, None, player,
                game.card_names)


def _restrict(prob: Problem, cards: Sequence[int], place: int, *, only: bool) -> Problem:
    """``only``: the cards are in ``place``; else they are not."""
    allowed = list(prob.allowed)
    for c in cards:
        allowed[c] = allowed[c] & (1 << place) if only else allowed[c] & ~(1 << place)
    return Problem(prob.sizes, prob.card_category, allowed, prob.some, prob.excluded)


def views(game: Game, player: int, *, witnesses: Callable[[], Sequence[Deal]] | None = None
          ) -> tuple[dict[View, ViewInfo], int]:
    """The views of ``player`` the viewer considers possible, up to symmetry, with their weights: a view
    stands for ``weight / denominator`` of the worlds (exact integers; the weights add up to the
    denominator), and the envelope cards the viewer's own worlds with that view leave possible (a part
    with two of them is a part the player cannot know in that view).

    Cards that share a category, their place masks in the viewer's and in the public problem, and that no
    shown-card set or accusation names are interchangeable in every problem involved, so hands are listed
    as how many cards they take of each such class (one representative hand, weighted by the number of
    hands it stands for).

    ``witnesses()`` gives deals of the viewer's worlds (any deals would do: they are witnesses, not
    estimates), asked for when there are more than :data:`WITNESS_FROM` (hand, holdings) problems to count:
    a hand is then left out, and its views with it, when for every shown-card choice the witnesses with
    that view already put two cards of every category in the envelope: the player knows no part in those
    views, and only views where the player may know a part need their weight (:func:`others_knowledge`).
    The weights then add up to less than the denominator."""
    space = _view_space(game, player)
    if space is None:
        return {}, 0
    total, scale, unseen, hand_list, reduced, classes = space
    hands = [(hand, ways, list(_holdings(ph, unseen, 0, ()))) for hand, ways, ph in hand_list]
    seen: dict[View, tuple[set[int], set[int], set[int]]] = {}
    if witnesses is not None and sum(len(leaves) for _, _, leaves in hands) > WITNESS_FROM:
        seen = _witnessed(player, reduced, classes, unseen, witnesses())
    none: tuple[set[int], ...] = (set(),)

    def ruled_out(view: View) -> bool:
        return all(len(e) > 1 for e in seen.get(view, none))

    found: dict[View, ViewInfo] = {}
    for hand, ways, leaves in hands:
        if seen and all(ruled_out((hand, sigma)) for held, _ in leaves for sigma in itertools.product(*held)):
            continue
        for held, sub in leaves:
            counts = count_deals(sub)
            if not counts.total:
                continue
            share = ways * counts.total * scale // math.prod(len(h) for h in held)
            env = tuple(frozenset(c for c in game.deck.members(k) if counts.cells[c][-1]) for k in range(3))
            for sigma in itertools.product(*held):
                info = found.setdefault((hand, sigma), ViewInfo())
                info.weight += share
                info.envelope = tuple(a | b for a, b in zip(info.envelope, env, strict=True))
    return found, total * scale


Hands = Iterator[tuple[frozenset[int], int, Problem]]


Classes = list[tuple[list[int], bool]]


def _view_space(game: Game, player: int) -> tuple[int, int, list[Showing], Hands, Problem, Classes] | None:
    """What :func:`views` lists: the viewer's deal count, the scale of the view weights (a common multiple
    of every product of |held|: 1, 2 or 3 per unseen showing), the unseen showings to the player, the
    player's hands up to symmetry (hand, hands it stands for, the viewer's problem with that hand fixed),
    the viewer's problem and the classes of interchangeable cards; None when no deal is consistent."""
    pv = Problem.from_observations(game, game.observations())
    reduced = pv.propagate()
    if reduced is None:
        return None
    total = count_deals(reduced).total
    if total == 0:
        return None
    unseen = [s for s in showings_to(game, player) if s.card is None]
    classes = _classes(game, pv, reduced, player)
    others = set(range(len(pv.allowed)))

    def hands() -> Hands:
        for takes in _compositions([len(c) for c, _ in classes], reduced.sizes[player],
                                   [fixed for _, fixed in classes]):
            hand = frozenset(c for (cards, _), m in zip(classes, takes, strict=True) for c in cards[:m])
            ways = math.prod(math.comb(len(cards), m) for (cards, _), m in zip(classes, takes, strict=True))
            ph = _restrict(_restrict(reduced, sorted(hand), player, only=True), sorted(others - hand), player,
                           only=False).propagate()
            if ph is not None:
                yield hand, ways, ph

    return total, 6 ** len(unseen), unseen, hands(), reduced, classes


def _witnessed(player: int, reduced: Problem, classes: Classes, unseen: Sequence[Showing],
               deals: Iterable[Deal]) -> dict[View, tuple[set[int], set[int], set[int]]]:
    """Per view (representative hand, cards shown), the envelope cards of the given deals of the viewer's
    worlds with that view: each deal is carried to the representative hand by swapping interchangeable
    cards (same class: a deal of the viewer's worlds again), its envelope cards swapped alike."""
    env_place = reduced.n
    category = {c: reduced.card_category[c] for c in range(len(reduced.allowed))}
    out: dict[View, tuple[set[int], set[int], set[int]]] = {}
    for deal in set(deals):
        swap: dict[int, int] = {}
        for cards, _ in classes:
            mine = [c for c in cards if deal[c] == player]
            rep = cards[:len(mine)]
            for a, b in zip([c for c in mine if c not in rep], [c for c in rep if c not in mine], strict=True):
                swap[a], swap[b] = b, a
        hand = frozenset(swap.get(c, c) for c, q in enumerate(deal) if q == player)
        env = [swap.get(c, c) for c, q in enumerate(deal) if q == env_place]
        held = [[c for c in s.cards if deal[c] == s.shower] for s in unseen]
        for sigma in itertools.product(*held):
            sets = out.setdefault((hand, sigma), (set(), set(), set()))
            for c in env:
                sets[category[c]].add(c)
    return out


def _classes(game: Game, pv: Problem, reduced: Problem, player: int) -> Classes:
    """The player's possible cards in classes of interchangeable cards, each with whether it is certainly
    in the player's hand (then every card of the class is)."""
    public = public_problem(game)
    named = {c for p in (pv, public) for _, s in p.some for c in s} | {c for t in public.excluded for c in t}
    bit = 1 << player
    groups: dict[tuple[int, ...], list[int]] = defaultdict(list)
    for c, m in enumerate(reduced.allowed):
        if m & bit:
            key = (-1, c) if c in named else (pv.card_category[c], pv.allowed[c], public.allowed[c])
            groups[key].append(c)
    return [(cards, reduced.allowed[cards[0]] == bit) for cards in groups.values()]


def _compositions(sizes: Sequence[int], total: int, fixed: Sequence[bool]) -> Iterator[tuple[int, ...]]:
    """How many cards to take of each class: all of a fixed class, 0..size of the others, ``total`` in all."""
    if not sizes:
        if total == 0:
            yield ()
        return
    options = [sizes[0]] if fixed[0] else range(min(sizes[0], total) + 1)
    for m in options:
        if m <= total:
            for rest in _compositions(sizes[1:], total - m, fixed[1:]):
                yield (m, *rest)


def public_problem(game: Game) -> Problem:
    """The problem of the public log alone: hand sizes, passes, who showed, accusations."""
    pg = Game(game.deck, game.players, game.hand_sizes, tuple(frozenset() for _ in game.players),
              tuple(Suggestion(s.by, s.cards, s.shown_by, None) for s in game.suggestions), game.accusations,
              None, None, game.card_names)
    return Problem.from_observations(pg, pg.observations())


def _holdings(prob: Problem, unseen: Sequence[Showing], i: int,
              held: tuple[tuple[int, ...], ...]) -> Iterator[tuple[tuple[tuple[int, ...], ...], Problem]]:
    """Which suggested cards each shower holds (one choice per unseen showing), with the problem so
    restricted (propagated; it may still have no deal)."""
    if i == len(unseen):
        yield held, prob
        return
    s = unseen[i]
    cands = [c for c in s.cards if prob.allowed[c] >> s.shower & 1]
    for r in range(1, len(cands) + 1):
        for subset in itertools.combinations(cands, r):
            rest = [c for c in s.cards if c not in subset]
            sub = _restrict(_restrict(prob, subset, s.shower, only=True), rest, s.shower, only=False).propagate()
            if sub is not None:
                yield from _holdings(sub, unseen, i + 1, (*held, subset))


def view_problem(game: Game, player: int, view: View) -> Problem:
    hand, sigma = view
    shown = {s.index: s.card for s in showings_to(game, player) if s.card is not None}
    shown.update({s.index: c for s, c in zip((s for s in showings_to(game, player) if s.card is None), sigma,
                                              strict=True)})
    pg = player_game(game, player, hand, shown)
    return Problem.from_observations(pg, pg.observations())


def part_counts(counts: Counts, deck: Deck, k: int) -> dict[int, int]:
    """The counted cell split by the envelope's card of category ``k`` (every deal has one there)."""
    return {c: counts.cells[c][-1] for c in deck.members(k)}


def knows(counts: Counts, deck: Deck) -> dict[str, bool]:
    """Which parts of the envelope are the same in every counted deal (:func:`sleuth.knowledge.knows` on the
    cell split by each part)."""
    out = {name: kn.knows(part_counts(counts, deck, k)) for k, name in enumerate(CATEGORIES)}
    return {"envelope": all(out.values()), **out}


def expectation(game: Game, player: int, value: Callable[[Counts], dict[str, T]]) -> dict[str, Fraction]:
    """The viewer's exact expectation of ``value`` (numbers or booleans per key) of the player's own deal
    counts; {} when no world is consistent."""
    found, denominator = views(game, player)
    return kn.expectation(((view, info.weight) for view, info in found.items()),
                          lambda view: value(count_deals(view_problem(game, player, view), triples=True)),
                          denominator)


def others_knowledge(game: Game, players: Sequence[int] | None = None) -> dict[int, dict[str, Fraction]]:
    """For every other player: the probability that they know the envelope and each of its parts."""
    if players is None:
        players = [p for p in range(len(game.players)) if p != game.viewer]
    out = {}
    nobody = dict.fromkeys(PARTS, False)

    @functools.cache
    def witnesses() -> list[Deal]:
        reduced = Problem.from_observations(game, game.observations()).propagate()
        return sample_deals(reduced, WITNESSES, random.Random(0)) if reduced is not None else []

    for p in players:
        found, denominator = views(game, p, witnesses=witnesses)

        def judge(view: View, p: int = p, found: dict[View, ViewInfo] = found) -> dict[str, bool]:
            if all(len(e) > 1 for e in found[view].envelope):
                return nobody   # two of the viewer's own worlds with this view differ in every part
            return knows(count_deals(view_problem(game, p, view)), game.deck)

        sums = kn.expectation(((view, info.weight) for view, info in found.items()), judge, denominator)
        out[p] = {part: sums.get(part, Fraction(0)) for part in PARTS}
    return out


def envelope_entropy(counts: Counts) -> float:
    """The entropy (bits) of the envelope over the counted deals (uniform)."""
    return kn.entropy(counts.triples or {})


# -- reference: every deal and every shown card (tests only: small decks) -------------------------------

def all_deals(game: Game) -> Iterator[tuple[int, ...]]:
    """Every deal of the deck (place per card) with the game's hand sizes."""
    deck, n = game.deck, len(game.players)
    for env in itertools.product(*(deck.members(k) for k in range(3))):
        rest = [c for c in range(len(deck)) if c not in env]
        for places in _fill(rest, list(game.hand_sizes)):
            deal = [n] * len(deck)
            for c, p in zip(rest, places, strict=True):
                deal[c] = p
            yield tuple(deal)


def _fill(cards: list[int], sizes: list[int]) -> Iterator[tuple[int, ...]]:
    if not cards:
        yield ()
        return
    for p, left in enumerate(sizes):
        if left:
            sizes[p] -= 1
            for rest in _fill(cards[1:], sizes):
                yield (p, *rest)
            sizes[p] += 1


def satisfies(deal: Sequence[int], obs: Sequence[Obs]) -> bool:
    """Whether the deal agrees with every observation (read literally, one by one)."""
    n = max(deal)
    env = tuple(sorted(c for c, p in enumerate(deal) if p == n))
    for o in obs:
        if o.kind is ObsKind.HOLDS and any(deal[c] != o.player for c in o.cards):
            return False
        if o.kind is ObsKind.LACKS and any(deal[c] == o.player for c in o.cards):
            return False
        if o.kind is ObsKind.SOME and not any(deal[c] == o.player for c in o.cards):
            return False
        if o.kind is ObsKind.HAND_SIZE and sum(1 for p in deal if p == o.player) != o.size:
            return False
        if o.kind is ObsKind.NOT_TRIPLE and env == tuple(sorted(o.cards)):
            return False
        if o.kind is ObsKind.ENVELOPE and env != tuple(sorted(o.cards)):
            return False
    return True


def listed_worlds(game: Game, player: int) -> tuple[kn.Worlds[str], list[tuple[int, ...]], np.ndarray]:
    """Every deal the public log allows, with every card that may have been shown to ``player``, as
    :class:`sleuth.knowledge.Worlds`: the player observes their hand and the cards shown to them; a world's
    weight is 1 / (product of |held| over the showings the viewer did not see).  Also the deals (one per
    world) and the viewer's cell (a mask: deals the viewer's observations allow, seen cards as seen)."""
    shows = showings_to(game, player)
    obs = game.observations()
    rows: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    weights: list[Fraction] = []
    viewer: list[bool] = []
    for deal in all_deals(game):
        if not satisfies(deal, player_game(game, player, frozenset(), {}).observations()):
            continue
        held = [[c for c in s.cards if deal[c] == s.shower] for s in shows]
        mine = satisfies(deal, obs)
        w = Fraction(1, math.prod(len(h) for h, s in zip(held, shows, strict=True) if s.card is None))
        for cards in itertools.product(*held):
            rows.append((deal, cards))
            weights.append(w)
            viewer.append(mine and all(s.card in (None, c) for s, c in zip(shows, cards, strict=True)))
    keys = [(frozenset(c for c, p in enumerate(d) if p == player), cards) for d, cards in rows]
    return kn.Worlds(rows, {"player": keys}, weights), [d for d, _ in rows], np.array(viewer, dtype=bool)


def brute_force_others(game: Game, player: int) -> dict[str, Fraction]:
    """:func:`others_knowledge` for one player on listed worlds (:func:`listed_worlds`): the viewer's
    probability that the player knows each part (:meth:`sleuth.knowledge.Worlds.knows`)."""
    worlds, deals, viewer = listed_worlds(game, player)
    if not viewer.any():
        return {}
    n = len(game.players)
    envs = [tuple(c for c, p in enumerate(d) if p == n) for d in deals]
    known: dict[str, Any] = {name: worlds.knows("player", [e[i] for e in envs]) for i, name in enumerate(CATEGORIES)}
    known["envelope"] = worlds.knows("player", envs)
    return {part: worlds.probability(known[part], given=viewer) for part in PARTS}


def show_advice(game: Game, by: int, cards: tuple[int, int, int]) -> list[dict[str, object]]:
    """The viewer must show one of ``cards`` to ``by``: for each card they hold, what ``by`` then knows,
    in expectation over the viewer's worlds: the entropy (bits) of ``by``'s envelope distribution (uniform
    over the deals ``by`` considers possible) and the probability that ``by`` knows the envelope.  Least
    revealing first; [] when no world is consistent with the suggestion being answered by the viewer."""
    v = game.viewer
    if v is None:
        raise InternalError("advice on what others learn needs a viewer")
    rows = []
    for c in cards:
        if c not in game.hands[v]:
            continue
        after = Game(game.deck, game.players, game.hand_sizes, game.hands,
                     (*game.suggestions, Suggestion(by, cards, v, c)), game.accusations, game.file_viewer, v,
                     game.card_names)
        values = expectation(after, by, lambda counts: {"entropy": envelope_entropy(counts),
                                                        "knows": knows(counts, game.deck)["envelope"]})
        if values:
            rows.append({"card": c, "entropy": float(values["entropy"]), "knows": values["knows"]})
    rows.sort(key=lambda r: (-r["entropy"], r["knows"], r["card"]))  # type: ignore[operator]
    return rows
