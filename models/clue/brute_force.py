"""The reference for what the others know: every deal and every shown card listed as
:class:`sleuth.knowledge.Worlds` (tests only: small decks); :func:`brute_force_others` is
:func:`.others.chances_others_know` for one player, computed so.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from sleuth import knowledge as kn

from .viewsplit import PARTS, player_game, showings_to
from .state import CATEGORIES, ClueState, Obs, ObsKind


def all_deals(game: ClueState) -> Iterator[tuple[int, ...]]:
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


def listed_worlds(game: ClueState, player: int) -> tuple[kn.Worlds[str], list[tuple[int, ...]], np.ndarray]:
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


def brute_force_others(game: ClueState, player: int) -> dict[str, Fraction]:
    """:func:`chances_others_know` for one player on listed worlds (:func:`listed_worlds`): the viewer's
    probability that the player knows each part (:meth:`sleuth.knowledge.Worlds.knows`)."""
    worlds, deals, viewer = listed_worlds(game, player)
    if not viewer.any():
        return {}
    n = len(game.players)
    envs = [tuple(c for c, p in enumerate(d) if p == n) for d in deals]
    known: dict[str, Any] = {name: worlds.knows("player", [e[i] for e in envs]) for i, name in enumerate(CATEGORIES)}
    known["envelope"] = worlds.knows("player", envs)
    return {part: worlds.probability(known[part], given=viewer) for part in PARTS}
