"""Behavioural analysis whose worlds come from the declarative model on the engine (``--method model``).

A world is one hand per player.  :class:`ModelTables` keeps one :class:`~sleuth.model.Model` of the public
facts, one named observation per fact, over each player's current hand (a hand-index variable tied to the
sorted card variables of :func:`~.questions.hand_variables`):

- ``answer k: <question> = <answer>``: the question compiled onto the hands the moderator saw
  (:meth:`~.questions.CompiledQuestion.cpsat`);
- ``answer k, stage j: reactions``: the worlds the reactions left, a table constraint on the hand indices
  (only when the reactions removed worlds);
- ``<player> solved holding <cards> (solve i)``: the solver's old hand fixed; a fresh, unconstrained hand
  takes its place (eq. 5: every world keeps the row it had when the solver held that hand).

Each answer adds its observation and the engine (CP-SAT or python-constraint, ``--backend``) enumerates the
model's solutions: those are the listed worlds.  The reactions ("player p knows / does not know their own
hand") are knowledge of others, applied over the listed worlds with :mod:`sleuth.knowledge` exactly as
:class:`~.tables.LayerTables` does (eq. 3 and 4); a non-analysing player's own table is reset to the
model's worlds when they solve.  Invariant: the model's solutions are the union of the tables (every table
lies within them, and a reaction that shrinks the union is added to the model), so each enumeration lists
only the worlds still possible.  Small setups only: every world is listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sleuth.engine import Engine
from sleuth.limits import check_size
from sleuth.model import Model, Var

from .hands import Setup, format_hand
from .questions import CompiledQuestion, hand_variables
from .tables import LayerTables, PackedSpace


def check_model_size(setup: Setup, options: Mapping[str, Any] | None = None) -> None:
    """Refuse before starting when the listed worlds (``hands ** players``, a row of hand indices, a mask
    bit per table and an enumerated key each) are past the shared limit (``--set max_worlds``)."""
    n = setup.players
    check_size("Egghead worlds (one hand per player, listed from the model)", setup.n_hands ** n, options,
               8 * (n + 3))


class ModelTables(LayerTables):
    """Behavioural analysis on the worlds the engine enumerates from the declarative model of the facts.

    Same methods as :class:`~.tables.PackedTables` (the :class:`~.tables.Knowledge` protocol); the tables
    are masks over every world, as in :class:`~.tables.LayerTables`, but the answers are decided by the
    engine on the model, not by a numpy table of answers."""

    def __init__(self, setup: Setup, behavioural: Sequence[bool], backend: str = "cpsat",
                 space: PackedSpace | None = None, options: Mapping[str, Any] | None = None) -> None:
        check_model_size(setup, options)
        super().__init__(setup, behavioural, space)
        self.backend = backend
        self.model = Model()
        self._hand_rows = [(i, *hand) for i, hand in enumerate(setup.hands)]
        self.answers = self.stage = self.solves = self.enumerations = 0
        self.slots: list[tuple[Var, list[Var]]] = [self._deal(p) for p in range(setup.players)]
        self.listed = np.ones(len(self.grid), dtype=bool)   # the model's solutions (no fact yet: every world)

    # -- the model -----------------------------------------------------------------------------------
    def _deal(self, player: int) -> tuple[Var, list[Var]]:
        """A fresh hand for ``player``: its index variable, tied to sorted card variables."""
        s = self.setup
        name = f"{s.names[player]}#{self.solves}"
        cards = hand_variables(self.model, s, name)
        index = self.model.int_var(0, s.n_hands - 1, f"{name}:hand")
        with self.model.unguarded():
            self.model.add_table([index, *cards], self._hand_rows)
        return index, cards

    @property
    def hands(self) -> list[Var]:
        """Each player's current hand-index variable (a world is one value of each)."""
        return [index for index, _ in self.slots]

    def enumerate(self) -> np.ndarray:
        """The model's solutions on the engine, as a mask over every world (one hand index per player)."""
        self.enumerations += 1
        rows = list(Engine(self.model, self.backend).valids(self.hands))
        mask = np.zeros(len(self.grid), dtype=bool)
        if rows:
            keys = np.ravel_multi_index(np.asarray(rows, dtype=np.int64).T, (self.setup.n_hands,) * self.setup.players)
            mask[keys] = True
        return mask

    def _tables(self) -> list[np.ndarray]:
        return ([self.master] if self.master is not None else []) + list(self.own.values())

    # -- the Knowledge protocol ---------------------------------------------------------------------
    def apply_answer(self, q: CompiledQuestion, answer: int, visible: Sequence[bool],
                     world: Sequence[int | None] = ()) -> None:
        """eq. 2 (eq. 6 with a rotating moderator: only the visible hands are asked about)."""
        self.answers += 1
        self.stage = 0
        seen = [self.slots[p][1] for p in range(self.setup.players) if visible[p]]
        with self.model.observation(f"answer {self.answers}: {q.qid} = {answer}"):
            self.model.add(q.cpsat(self.model, seen) == answer)
        self.listed = self.enumerate()
        for t in self._tables():
            t &= self.listed

    def apply_reactions(self, reactions: Sequence[bool | None]) -> bool:
        """eq. 3 and 4 over the listed worlds; a union of tables that shrank becomes a fact of the model."""
        changed = super().apply_reactions(reactions)
        self.stage += 1
        union = np.logical_or.reduce(self._tables())
        if not np.array_equal(union, self.listed):
            rows = self.grid[union]
            with self.model.observation(f"answer {self.answers}, stage {self.stage}: reactions"):
                self.model.add_table(self.hands, [tuple(int(x) for x in r) for r in rows])
            self.listed = union
        return changed

    def apply_solve(self, player: int, hand: int) -> None:
        """eq. 5: the solver's hand is fixed in the model and a fresh one dealt; the tables follow."""
        s = self.setup
        self.solves += 1
        with self.model.observation(f"{s.names[player]} solved holding {format_hand(s.hands[hand])} "
                                    f"(solve {self.solves})"):
            self.model.add(self.hands[player] == hand)
        self.slots[player] = self._deal(player)
        shape = (s.n_hands,) * s.players

        def fix(t: np.ndarray) -> np.ndarray:
            cube = t.reshape(shape)
            return np.broadcast_to(np.take(cube, [hand], axis=player), shape).reshape(-1).copy()

        # The model's new solutions are exactly these (the old hand fixed, the new one free): no enumeration.
        self.listed = fix(self.listed)
        if self.master is not None:
            self.master = fix(self.master)
        for p in self.own:
            self.own[p] = self.listed.copy() if p == player else fix(self.own[p])
