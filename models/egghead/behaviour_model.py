"""Behavioural analysis whose worlds come from the declarative model on the engine (``--method model``).

A world is one hand per player; the tables are sets of worlds, masks over every world as in
:class:`~.tables.LayerTables`.  Each answer is decided by the engine: :meth:`ModelTables.answer_model` builds a
:class:`~sleuth.model.Model` over the hands the moderator saw (a hand-index variable per player tied to the
sorted card variables of :func:`~.questions.hand_variables`) with two named observations,

- ``worlds still possible``: the combinations of those hands that some world of the tables still allows (a
  table constraint, left out while every combination is possible), and
- ``answer k: <question> = <answer>``: the question compiled onto those hands
  (:meth:`~.questions.CompiledQuestion.cpsat`),

and the engine (CP-SAT or python-constraint, ``--backend``) enumerates its solutions.  A world survives the
answer when its seen hands are one of them (the moderator's own hand, not seen, plays no part: eq. 6).  The
reactions ("player p knows / does not know their own hand", eq. 3 and 4) are knowledge of others over the
listed worlds with :mod:`sleuth.knowledge`, and a solve re-deals (eq. 5), both exactly as
:class:`~.tables.LayerTables` does them.  Small setups only: every world is listed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from sleuth.engine import Engine
from sleuth.limits import check_size
from sleuth.model import Model, Var

from .hands import Setup
from .questions import CompiledQuestion, hand_variables
from .tables import LayerTables, PackedSpace


def check_model_size(setup: Setup, options: Mapping[str, Any] | None = None) -> None:
    """Refuse before starting when the listed worlds (``hands ** players``: a row of hand indices, a mask
    byte per table and a projection each) are past the shared limit (``--set max_worlds``)."""
    n = setup.players
    check_size("Egghead worlds (one hand per player, listed; answers from the model)", setup.n_hands ** n,
               options, 8 * (n + 2))


class ModelTables(LayerTables):
    """Behavioural analysis on listed worlds, each answer enumerated by the engine from a declarative model.

    Same methods as :class:`~.tables.PackedTables` (the :class:`~.rounds.RoundTables` protocol); only eq. 2 (the
    answers) differs from :class:`~.tables.LayerTables`: it runs on the engine, not on a numpy table."""

    def __init__(self, setup: Setup, behavioural: Sequence[bool], backend: str = "cpsat",
                 space: PackedSpace | None = None, options: Mapping[str, Any] | None = None) -> None:
        check_model_size(setup, options)
        super().__init__(setup, behavioural, space)
        self.backend = backend
        self.answers = 0
        self.solutions = 0          # solutions the engine listed, over every answer so far
        self._hand_rows = [(i, *hand) for i, hand in enumerate(setup.hands)]

    def tables(self) -> list[np.ndarray]:
        """The master table (when someone analyses) and the tables of the players who do not."""
        return ([self.master] if self.master is not None else []) + list(self.own.values())

    def possible(self) -> np.ndarray:
        """The worlds some table still allows (their union), as a mask over every world."""
        out: np.ndarray = np.logical_or.reduce(self.tables())
        return out

    def answer_model(self, q: CompiledQuestion, answer: int, visible: Sequence[bool]) -> tuple[Model, list[Var]]:
        """The model of one answer over the hands the moderator saw, and their hand-index variables."""
        s = self.setup
        seen = [p for p in range(s.players) if visible[p]]
        m = Model()
        index: list[Var] = []
        cards: list[list[Var]] = []
        for p in seen:
            xs = hand_variables(m, s, s.names[p])
            i = m.int_var(0, s.n_hands - 1, f"{s.names[p]}:hand")
            with m.unguarded():
                m.add_table([i, *xs], self._hand_rows)
            index.append(i)
            cards.append(xs)
        unseen = tuple(p for p in range(s.players) if not visible[p])
        still = self.possible().reshape((s.n_hands,) * s.players).any(axis=unseen)
        if not still.all():
            with m.observation("worlds still possible"):
                m.add_table(index, [tuple(int(h) for h in row) for row in np.argwhere(still)])
        with m.observation(f"answer {self.answers + 1}: {q.qid} = {answer}"):
            m.add(q.cpsat(m, cards) == answer)
        return m, index

    def apply_answer(self, q: CompiledQuestion, answer: int, visible: Sequence[bool],
                     world: Sequence[int | None] = ()) -> None:
        """eq. 2 (eq. 6 with a rotating moderator): keep the worlds whose seen hands solve the answer's model."""
        s = self.setup
        m, index = self.answer_model(q, answer, visible)
        rows = list(Engine(m, self.backend).valids(index))
        self.answers += 1
        self.solutions += len(rows)
        seen = np.zeros((s.n_hands,) * len(index), dtype=bool)
        if rows:
            seen[tuple(np.asarray(rows, dtype=np.int64).T)] = True
        unseen = tuple(p for p in range(s.players) if not visible[p])
        mask = np.broadcast_to(np.expand_dims(seen, unseen), (s.n_hands,) * s.players).reshape(-1)
        for t in self.tables():
            t &= mask
