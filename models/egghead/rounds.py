"""One round of Egghead (the seed's Algorithm 1) on any tables object: the packed master table
(:class:`~.tables.PackedTables`), the listed worlds (:class:`~.tables.LayerTables`), the literal reference and
CP-SAT basic deduction all answer the :class:`RoundTables` protocol, so :func:`play_round` drives each of them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from .hands import Setup
from .questions import CompiledQuestion


@dataclass
class RoundRecord:
    """One round: the question, its answer, who solved at each stage, and the hands dealt to solvers."""

    question: str
    answer: int
    moderator: int | None
    stages: list[list[int]]              # who solved at each stage (trailing stages without solves left out)
    new_hands: dict[int, int | None]
    played: int = 0                      # stages played, including the last ones in which nobody solved
    solved_hands: dict[int, int] = field(default_factory=dict)   # the hand each solver named


class RoundTables(Protocol):
    """What the round driver needs: the packed tables, the literal reference and CP-SAT basic deduction."""

    setup: Setup

    def apply_answer(self, q: CompiledQuestion, answer: int, visible: Sequence[bool],
                     world: Sequence[int | None] = ...) -> None: ...

    def reaction(self, player: int, world: Sequence[int | None]) -> bool | None: ...

    def valids(self, player: int, world: Sequence[int | None]) -> np.ndarray | None: ...

    def apply_reactions(self, reactions: Sequence[bool | None]) -> bool: ...

    def apply_solve(self, player: int, hand: int) -> None: ...


class Inconsistent(Exception):
    """The stated answers or reactions admit no world (``observation`` names the first that broke)."""

    def __init__(self, observation: str, answer_false: bool = False) -> None:
        super().__init__(observation)
        self.observation = observation
        self.answer_false = answer_false   # the stated answer is false on the stated hands


MAX_STAGES = 10_000


def play_round(tables: RoundTables, world: list[int | None], q: CompiledQuestion, moderator: int | None,
               deal: Callable[[int], int | None], *, answer: int | None = None,
               stages: Sequence[Sequence[int]] | None = None, label: str = "round") -> RoundRecord:
    """Algorithm 1 for one round on any tables object (packed or reference).

    ``world`` holds the hand of each player (None where unknown; it is updated when players are re-dealt),
    ``deal(player)`` gives a solver's new hand (or None).  ``answer`` and ``stages`` may be given (a puzzle
    file); then they are checked against the world where it is known, else they are computed.
    """
    n = len(world)
    names = tables.setup.names
    visible = [p != moderator for p in range(n)]
    computed = None
    if all(world[p] is not None for p in range(n) if visible[p]):
        computed = q.answer([w if w is not None else 0 for w in world], visible)
    if answer is None:
        if computed is None:
            raise ValueError(f"{label}: the answer is needed (a hand the moderator sees is not on the table)")
        answer = computed
    elif computed is not None and computed != answer:
        raise Inconsistent(f"{label}: {q.qid} = {answer}", answer_false=True)
    tables.apply_answer(q, answer, visible, list(world))
    _check(tables, world, f"{label}: {q.qid} = {answer}")
    record = RoundRecord(q.qid, int(answer), moderator, [], {})
    # A hand dealt during this round and not known plays no role before the next answer: every table is
    # constant along that player's axis (eq. 5), so any stand-in hand gives the same rows.
    stand_in: set[int] = set()
    for stage in range(MAX_STAGES):
        view = [0 if p in stand_in else w for p, w in enumerate(world)]
        reals = [None if p == moderator or any(view[o] is None for o in range(n) if o != p)
                 else tables.reaction(p, view) for p in range(n)]
        if stages is not None and stage < len(stages) and stages[stage] and all(
                reals[p] is False for p in range(n) if p != moderator):
            meant = [*stages[:stage], [], *stages[stage:]]
            text = ", ".join("[" + ", ".join(f'"{names[p]}"' for p in st) + "]" for st in meant)
            raise ValueError(f"{label}: nobody can solve at stage {stage + 1}, yet solves lists "
                             f"{', '.join(names[p] for p in stages[stage])} there; a stage where nobody solves is "
                             f"written [] (if they solved after that silence: solves = [{text}])")
        shown: list[bool | None] = []
        for p in range(n):
            if p == moderator:
                shown.append(None)
                continue
            real = reals[p]
            if stages is not None:
                said = p in (stages[stage] if stage < len(stages) else ())
                if real is not None and real != said:
                    verb = "solves" if said else "does not solve"
                    raise Inconsistent(f"{label}: stage {stage + 1}: {names[p]} {verb}")
                real = said
            if real is None:
                raise ValueError(f"{label}: the solves are needed (a reaction depends on a hand not on the table)")
            shown.append(real)
        changed = tables.apply_reactions(shown)
        solvers = [p for p in range(n) if shown[p]]
        _check(tables, view, f"{label}: stage {stage + 1} reactions")
        record.stages.append(solvers)
        for p in solvers:
            hand = view[p]
            if hand is None:  # an unknown hand that was just solved: the solver's row names it
                row = tables.valids(p, view) if all(
                    view[o] is not None for o in range(n) if o != p) else None
                if row is None or len(row) != 1:
                    raise ValueError(f"{label}: the hand {names[p]} solved is not known")
                hand = int(row[0])
            tables.apply_solve(p, hand)
            record.solved_hands[p] = hand
        for p in solvers:
            world[p] = deal(p)
            record.new_hands[p] = world[p]
            if world[p] is None:
                stand_in.add(p)
            else:
                stand_in.discard(p)
        if not changed and not solvers and (stages is None or stage + 1 >= len(stages)):
            break
    else:
        raise RuntimeError("the reactions did not settle")
    record.played = len(record.stages)
    while record.stages and not record.stages[-1]:
        record.stages.pop()
    return record


def _check(tables: RoundTables, world: Sequence[int | None], observation: str) -> None:
    """Every row through the real world must stay non-empty and hold the real hand where it is known."""
    n = len(world)
    for p in range(n):
        if any(world[o] is None for o in range(n) if o != p):
            continue
        row = tables.valids(p, world)
        if row is None:  # depends on a hand nobody stated
            continue
        own = world[p]
        if len(row) == 0 or (own is not None and int(own) not in set(int(x) for x in row)):
            raise Inconsistent(observation)
