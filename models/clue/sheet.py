"""The knowledge sheet: yes / no / maybe for every (card, place), computed three interchangeable ways.

- :func:`counted_sheet` (the fast path): the support of the exact deal counts of :mod:`.counting`.
- :func:`backbone_sheet`: the engine's solution-guided backbone over every (card, place) literal.
- :func:`naive_sheet`: two solves per cell (the reference the benchmark compares against).
All three are exact; the tests check that they agree.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sleuth.backends import SolverTimeout, SolveStatus

from .counting import Counts, Problem, LayerTooLarge, count_deals
from .state import CATEGORIES, ClueState
from .model import ClueModel


class Mark(enum.Enum):
    YES = "yes"
    NO = "no"
    MAYBE = "maybe"


@dataclass(frozen=True)
class Sheet:
    marks: tuple[tuple[Mark, ...], ...]   # [card][place]; the last place is the envelope
    consistent: bool = True

    def mark(self, card: int, place: int) -> Mark:
        return self.marks[card][place]

    def envelope(self, game: ClueState) -> dict[str, str | None]:
        env = game.envelope
        out: dict[str, str | None] = {}
        for k, name in enumerate(CATEGORIES):
            known = [c for c in game.deck.members(k) if self.marks[c][env] is Mark.YES]
            out[name] = game.card(known[0]) if known else None
        return out

    def known(self) -> int:
        return sum(m is not Mark.MAYBE for row in self.marks for m in row)

    def table(self, game: ClueState) -> dict[str, dict[str, Mark]]:
        """card -> place -> mark, by name."""
        places = game.places
        return {game.card(c): {places[q]: m for q, m in enumerate(row)} for c, row in enumerate(self.marks)}

    def to_json(self, game: ClueState) -> dict[str, dict[str, str]]:
        return {card: {place: m.value for place, m in row.items()} for card, row in self.table(game).items()}


def counted_sheet(counts: Counts) -> Sheet:
    if counts.total == 0:
        return Sheet((), False)
    marks = tuple(tuple(Mark.YES if x == counts.total else Mark.NO if x == 0 else Mark.MAYBE for x in row)
                  for row in counts.cells)
    return Sheet(marks)


def exact_sheet(problem: Problem, model: Callable[[], ClueModel], options: Mapping[str, Any] | None = None
                ) -> tuple[Sheet, str]:
    """The exact sheet by counting; when the counting would keep more than the memory budget allows (or
    ``--set max_worlds`` in ``options``; never seen on classic decks, a large custom deck with many shown-card
    sets could), by the engine backbone instead.  Returns the sheet and the method used."""
    try:
        return counted_sheet(count_deals(problem, options=options)), "count"
    except LayerTooLarge:
        return backbone_sheet(model()), "backbone"


def _from_fixed(cm: ClueModel, fixed: dict[tuple[int, int], bool]) -> Sheet:
    rows = []
    for c, row in enumerate(cm.holds):
        rows.append(tuple(Mark.MAYBE if (c, q) not in fixed else Mark.YES if fixed[(c, q)] else Mark.NO
                          for q in range(len(row))))
    return Sheet(tuple(rows))


def backbone_sheet(cm: ClueModel, backend: str = "cpsat", time_limit: float | None = None) -> Sheet:
    """The engine's backbone over all (card, place) literals."""
    engine = cm.engine(backend, time_limit)
    cells = [(c, q) for c, row in enumerate(cm.holds) for q in range(len(row))]
    bb = engine.backbone([cm.lit(c, q) for c, q in cells])
    if not bb.consistent:
        return Sheet((), False)
    fixed = {}
    for c, q in cells:
        value = bb.value(cm.lit(c, q))
        if value is not None:
            fixed[(c, q)] = value
    return _from_fixed(cm, fixed)


def naive_sheet(cm: ClueModel, backend: str = "cpsat", cells: Sequence[tuple[int, int]] | None = None) -> Sheet:
    """Two solves per cell: can the card be there, can it be elsewhere."""
    engine = cm.engine(backend)
    first = engine.solve()
    if first.status is SolveStatus.UNKNOWN:
        raise SolverTimeout("naive sheet: the consistency check reached the time limit")
    if not first.feasible:
        return Sheet((), False)
    fixed = {}
    for c, q in cells or [(c, q) for c, row in enumerate(cm.holds) for q in range(len(row))]:
        lit = cm.lit(c, q)
        can = [engine.solve([x]).status for x in (lit, ~lit)]
        if SolveStatus.UNKNOWN in can:
            raise SolverTimeout("naive sheet: a solve reached the time limit")
        if can[0] is SolveStatus.INFEASIBLE:
            fixed[(c, q)] = False
        elif can[1] is SolveStatus.INFEASIBLE:
            fixed[(c, q)] = True
    return _from_fixed(cm, fixed)
