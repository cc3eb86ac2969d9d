"""The seed's conditional information tables, implemented literally (eq. 2-5): small and slow, a reference.

``tables[i]`` maps every combination of the other players' hands (a tuple in player order without ``i``)
to the set of hands player ``i`` would still consider (the seed's V_{p_i}).  It offers the same methods as
:class:`~models.egghead.tables.PackedTables`, so :func:`~models.egghead.rounds.play_round` drives both.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np

from sleuth.errors import InternalError

from .hands import Setup
from .questions import CompiledQuestion

Row = tuple[int, ...]


class ReferenceTables:
    def __init__(self, setup: Setup, behavioural: Sequence[bool]) -> None:
        self.setup = setup
        self.n = setup.players
        self.behavioural = [bool(b) for b in behavioural]
        self.all_hands = frozenset(range(setup.n_hands))
        self.tables: list[dict[Row, frozenset[int]]] = [self._fresh() for _ in range(self.n)]

    def _fresh(self) -> dict[Row, frozenset[int]]:
        return {row: self.all_hands for row in itertools.product(range(self.setup.n_hands), repeat=self.n - 1)}

    @staticmethod
    def key(world: Sequence[int | None], i: int) -> Row:
        """The hands player ``i`` sees: every hand but their own (only their own may be unknown)."""
        row: list[int] = []
        for j, w in enumerate(world):
            if j == i:
                continue
            if w is None:
                raise InternalError(f"player {i + 1} sees hand {j + 1}, which is not known")
            row.append(int(w))
        return tuple(row)

    @staticmethod
    def join(row: Row, i: int, v: int) -> list[int]:
        return [*row[:i], v, *row[i:]]

    # eq. 2 (eq. 6 when a moderator is hidden)
    def apply_answer(self, q: CompiledQuestion, answer: int, visible: Sequence[bool],
                     world: Sequence[int | None] = ()) -> None:
        for i in range(self.n):
            self.tables[i] = {row: frozenset(v for v in valids if q.answer(self.join(row, i, v), visible) == answer)
                              for row, valids in self.tables[i].items()}

    def valids(self, player: int, world: Sequence[int | None]) -> np.ndarray:
        return np.array(sorted(self.tables[player][self.key(world, player)]), dtype=np.int64)

    def reaction(self, player: int, world: Sequence[int | None]) -> bool:
        return len(self.tables[player][self.key(world, player)]) == 1

    def apply_reactions(self, reactions: Sequence[bool | None]) -> bool:
        before = [dict(t) for t in self.tables]
        # eq. 3, all tables first
        prior: list[dict[Row, frozenset[int]]] = []
        for i, table in enumerate(self.tables):
            r = reactions[i]
            if r is None or not any(self.behavioural):
                prior.append(table)
                continue
            prior.append({row: (valids if (len(valids) == 1) == r else frozenset()) for row, valids in table.items()})
        # eq. 4, for the tables of the players who analyse behaviour
        posterior = []
        for i, table in enumerate(prior):
            if not self.behavioural[i]:
                posterior.append(table)
                continue
            new: dict[Row, frozenset[int]] = {}
            for row, valids in table.items():
                keep = []
                for v in valids:
                    world = self.join(row, i, v)
                    if all(world[k] in prior[k][self.key(world, k)] for k in range(self.n) if k != i):
                        keep.append(v)
                new[row] = frozenset(keep)
            posterior.append(new)
        self.tables = posterior
        return any(a != b for a, b in zip(before, self.tables, strict=False))

    # eq. 5
    def apply_solve(self, player: int, hand: int) -> None:
        for i in range(self.n):
            if i == player:
                self.tables[i] = self._fresh()
                continue
            k = player if player < i else player - 1  # position of the solver in i's row
            self.tables[i] = {row: self.tables[i][row[:k] + (hand,) + row[k + 1:]] for row in self.tables[i]}

    def world_set(self, player: int) -> set[tuple[int, ...]]:
        """Table ``player`` flattened to worlds (for comparing with the packed tables)."""
        return {tuple(self.join(row, player, v)) for row, valids in self.tables[player].items() for v in valids}
