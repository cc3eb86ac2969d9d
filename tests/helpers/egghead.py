"""Egghead: random games on a setup and playing them on a table (shared by the Egghead tests)."""

from __future__ import annotations

import numpy as np
from sleuth.models.egghead.hands import Setup
from sleuth.models.egghead.questions import load_catalogue
from sleuth.models.egghead.rounds import play_round


def random_game(rng: np.random.Generator, s: Setup, game: int) -> tuple[list, list[bool], str, list, list, list[int]]:
    """A random game on setup ``s``: questions, BA flags (all on every third game), moderator, first hands,
    the hands dealt after solves, and the order of questions."""
    qs = [q.compile_for(s) for q in load_catalogue(s.values)]
    ba = [bool(x) for x in rng.integers(0, 2, s.players)] if game % 3 else [True] * s.players
    moderator = "rotating" if game % 2 else "external"
    world0 = [s.deal(rng) for _ in range(s.players)]
    deals = [s.deal(rng) for _ in range(100)]
    order = [int(x) for x in rng.integers(len(qs), size=8)]
    return qs, ba, moderator, world0, deals, order


def play(tables, setup, questions, world0, deals, order, moderator):  # type: ignore[no-untyped-def]
    world, it, log = list(world0), iter(deals), []
    for r, qi in enumerate(order):
        rec = play_round(tables, world, questions[qi], r % setup.players if moderator == "rotating" else None,
                         lambda p: next(it))
        log.append((rec.answer, rec.stages, [tuple(tables.valids(p, world)) for p in range(setup.players)]))
    return log
