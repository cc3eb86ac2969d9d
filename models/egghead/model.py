"""Basic deduction (the seed's eq. 1) as CP-SAT models whose enumerated solutions are a player's valids.

A player's model has one sorted value variable per card of their own hand.  Every round since they were last
dealt a hand adds one named observation ``round k: <question> = <answer>``: the question compiled to linear
constraints over their hand and the hands they saw then, which are fixed by observations ``B holds 4 5 6``.
:class:`EggheadModel` offers the interface of :class:`~models.egghead.tables.PackedTables`, so the same round
driver (:func:`~models.egghead.rounds.play_round`) runs it; it ignores reactions (no behavioural analysis).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from sleuth.engine import Engine
from sleuth.model import Model, Var

from .hands import Setup, format_hand
from .questions import CompiledQuestion, hand_variables


@dataclass(frozen=True)
class Heard:
    """One answer a player heard about their current hand."""

    round: int
    question: CompiledQuestion
    answer: int
    visible: tuple[bool, ...]
    hands: tuple[int | None, ...]   # everyone's hand when the question was answered


class EggheadModel:
    """Each player's valids from the answers alone, one CP-SAT model per player and hand."""

    def __init__(self, setup: Setup, backend: str = "cpsat") -> None:
        self.setup = setup
        self.backend = backend
        self.heard: list[list[Heard]] = [[] for _ in range(setup.players)]
        self.round = 0
        self._cache: dict[tuple[int, int], np.ndarray | None] = {}

    def apply_answer(self, q: CompiledQuestion, answer: int, visible: Sequence[bool],
                     world: Sequence[int | None] = ()) -> None:
        """Every player hears the answer; ``world`` holds the hands at that moment (None: not known)."""
        self.round += 1
        snap = tuple(world)
        for p in range(self.setup.players):
            self.heard[p].append(Heard(self.round, q, answer, tuple(visible), snap))
        self._cache.clear()

    def apply_reactions(self, reactions: Sequence[bool | None]) -> bool:
        return False

    def apply_solve(self, player: int, hand: int) -> None:
        self.heard[player] = []
        self._cache.clear()

    def determined(self, player: int) -> bool:
        """Whether every hand this player saw while answers were given is known."""
        return all(h.hands[o] is not None for h in self.heard[player] for o in range(self.setup.players)
                   if o != player and h.visible[o])

    def model(self, player: int) -> tuple[Model, list[Var]]:
        """The player's model: their hand variables, the hands they saw, the answers they heard."""
        s = self.setup
        m = Model()
        mine = hand_variables(m, s, s.names[player])
        fixed: dict[tuple[int, int], list[Var]] = {}
        for h in self.heard[player]:
            hands: list[list[Var]] = []
            for o in range(s.players):
                if not h.visible[o]:
                    continue
                if o == player:
                    hands.append(mine)
                    continue
                key = (o, int(h.hands[o]))  # type: ignore[arg-type]
                if key not in fixed:
                    xs = hand_variables(m, s, f"{s.names[o]}#{len(fixed)}")
                    cards = s.hands[key[1]]
                    with m.observation(f"{s.names[o]} holds {format_hand(cards)}"):
                        for x, c in zip(xs, cards, strict=False):
                            m.add(x == c)
                    fixed[key] = xs
                hands.append(fixed[key])
            with m.observation(f"round {h.round}: {h.question.qid} = {h.answer}"):
                m.add(h.question.cpsat(m, hands) == h.answer)
        return m, mine

    def valids(self, player: int, world: Sequence[int | None] | None = None) -> np.ndarray | None:
        """The player's valids (hand indices), or None when they depend on a hand that is not known."""
        if not self.determined(player):
            return None
        key = (player, len(self.heard[player]))
        if key not in self._cache:
            m, mine = self.model(player)
            found = Engine(m, self.backend).valids(mine)
            self._cache[key] = np.array(sorted(self.setup.hand_of(v) for v in found), dtype=np.int64)
        return self._cache[key]

    def reaction(self, player: int, world: Sequence[int | None]) -> bool | None:
        v = self.valids(player, world)
        return None if v is None else len(v) == 1
