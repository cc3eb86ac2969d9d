"""The Clue constraint model on the sleuth engine: one boolean per (card, place), one observation per fact.

Structure (always on): every card is in exactly one place; the envelope holds one card of each category.
Observations (each behind its own literal, named the way a player reads it): hand sizes, known hands,
passes, shown cards, wrong and right accusations.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from sleuth.engine import Engine
from sleuth.limits import MAX_WORLDS_KEY, TooLarge
from sleuth.model import LinearExpr, Lit, Model, Var

from .counting import Counts
from .state import ClueState, Obs, ObsKind


@dataclass
class ClueModel:
    game: ClueState
    model: Model
    holds: list[list[Var]]  # [card][place]

    def lit(self, card: int, place: int) -> Lit:
        return self.holds[card][place].lit()

    def deal(self, values: Mapping[Var, int]) -> dict[str, str]:
        """A solution as {card: place name} (the witness shown to users)."""
        places = self.game.places
        return {self.game.card(c): places[next(q for q, v in enumerate(row) if values[v])]
                for c, row in enumerate(self.holds)}

    def engine(self, backend: str = "cpsat", time_limit: float | None = None) -> Engine:
        return Engine(self.model, backend, time_limit=time_limit)


def build_model(game: ClueState, obs: Sequence[Obs]) -> ClueModel:
    m = Model()
    places = game.places
    holds = [[m.bool_var(f"{places[q]} holds {game.card(c)}") for q in range(len(places))]
             for c in range(len(game.deck))]
    env = game.envelope
    for row in holds:
        m.add_exactly(1, row)
    for k in range(3):
        m.add_exactly(1, [holds[c][env] for c in game.deck.members(k)])
    for o in obs:
        with m.observation(o.name):
            if o.kind is ObsKind.HAND_SIZE:
                m.add(LinearExpr.sum_of(holds[c][o.who] for c in range(len(game.deck))) == o.size)
            elif o.kind is ObsKind.HOLDS:
                m.add_all([holds[c][o.who] for c in o.cards])
            elif o.kind is ObsKind.LACKS:
                m.add_all([~holds[c][o.who] for c in o.cards])
            elif o.kind is ObsKind.SOME:
                m.add_any([holds[c][o.who] for c in o.cards])
            elif o.kind is ObsKind.NOT_TRIPLE:
                m.add_any([~holds[c][env] for c in o.cards])
            elif o.kind is ObsKind.ENVELOPE:
                m.add_all([holds[c][env] for c in o.cards])
    return ClueModel(game, m, holds)


def enumerated_counts(cm: ClueModel, backend: str = "cpsat", *, limit: int,
                      time_limit: float | None = None) -> Counts:
    """The deal counts of :mod:`.counting`, by enumerating the model's deals on ``backend`` (the reference).

    More than ``limit`` deals is refused (:class:`~sleuth.limits.TooLarge`) with the count reached.
    """
    game = cm.game
    n_places = len(game.places)
    cells = [[0] * n_places for _ in cm.holds]
    triples: dict[tuple[int, int, int], int] = {}
    flat = [v for row in cm.holds for v in row]
    total = 0
    for deal in cm.engine(backend, time_limit).valids(flat):
        total += 1
        if total > limit:
            raise TooLarge(f"the model has more than {limit:,} consistent deals to enumerate; raise it with "
                           f"--set {MAX_WORLDS_KEY}=N, or use --method count")
        env: list[int] = []
        for c in range(len(cm.holds)):
            q = deal[c * n_places: (c + 1) * n_places].index(1)
            cells[c][q] += 1
            if q == game.envelope:
                env.append(c)
        triple = (env[0], env[1], env[2])
        triples[triple] = triples.get(triple, 0) + 1
    return Counts(total, tuple(tuple(row) for row in cells), triples)
