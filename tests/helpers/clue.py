"""Clue: random counting problems, small decks and simulated states, brute-force beliefs (shared by the Clue tests)."""

from __future__ import annotations

import random
from collections import defaultdict
from fractions import Fraction

from sleuth import knowledge as kn
from sleuth.models.clue.counting import Problem
from sleuth.models.clue.brute_force import listed_worlds
from sleuth.models.clue.simulate import simulate
from sleuth.models.clue.state import ClueState, Deck


def random_problem(rng: random.Random) -> Problem:
    ns, nw, nr = rng.randint(2, 3), rng.randint(2, 3), rng.randint(2, 4)
    cats = (0,) * ns + (1,) * nw + (2,) * nr
    n = rng.randint(2, 3)
    free = len(cats) - 3
    sizes = tuple(free // n + (1 if i < free % n else 0) for i in range(n))
    allowed = [(1 << (n + 1)) - 1] * len(cats)
    for _ in range(rng.randint(0, 4)):
        allowed[rng.randrange(len(cats))] &= ~(1 << rng.randrange(n + 1))
    some = [(rng.randrange(n), frozenset(rng.sample(range(len(cats)), 3))) for _ in range(rng.randint(0, 4))]
    excluded = {(rng.randrange(ns), ns + rng.randrange(nw), ns + nw + rng.randrange(nr))
                for _ in range(rng.randint(0, 2))}
    return Problem(sizes, cats, allowed, some, excluded)


SMALL = Deck(("Ash", "Birch", "Cedar"), ("Axe", "Bow", "Club"), ("Attic", "Barn", "Cellar"))


def small_states(seed: int, players: int, every: int, games: int) -> list[ClueState]:
    rng = random.Random(seed)
    out = []
    for _ in range(games):
        sim = simulate(players, rng, deck=SMALL)
        for k in range(0, len(sim.suggestions) + 1, every):
            out.extend(sim.view(v, k) for v in (0, None))
    return out


FOUR = Deck(("Ash", "Birch", "Cedar", "Dogwood"), ("Axe", "Bow", "Club"), ("Attic", "Barn", "Cellar", "Den"))


def brute_beliefs(game: ClueState, player: int) -> tuple[Fraction, float]:
    """The viewer's probability that the player knows the envelope, and expectation of the entropy of the
    player's envelope distribution (uniform over the deals of their cell), from every listed deal."""
    worlds, deals, viewer = listed_worlds(game, player)
    n = len(game.players)
    cells = worlds.cells("player")
    envs: dict[int, dict[tuple[int, ...], int]] = defaultdict(lambda: defaultdict(int))
    for i, d in enumerate(deals):
        envs[int(cells[i])][tuple(c for c, q in enumerate(d) if q == n)] += 1
    known, entropy, total = Fraction(0), 0.0, Fraction(0)
    for i in map(int, viewer.nonzero()[0]):
        w = worlds.weights[i]
        cell = envs[int(cells[i])]
        known += w * kn.knows(cell)
        entropy += float(w) * kn.entropy(cell)
        total += w
    return known / total, entropy / float(total)
