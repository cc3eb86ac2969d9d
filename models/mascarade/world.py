"""Mascarade's worlds, from the viewer's side: a world is a history, the outcome of every swap-or-not whose
outcome the viewer does not know (the cards' final placement follows from it)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from sleuth.game import WorldModel, per_puzzle

from .model import build_model
from .state import SeeStep, Step, SwapStep
from .puzzle import MascaradePuzzle

World = tuple[int, ...]  # 1: swapped, 0: not, one per unknown swap in order


@per_puzzle
def _steps(puzzle: MascaradePuzzle) -> list[Step]:
    return list(puzzle.state.steps_for(puzzle.viewer))


def _unknown(puzzle: MascaradePuzzle, step: Step) -> bool:
    return isinstance(step, SwapStep) and step.outcome is None and puzzle.state.swap_probability not in (0, 1)


def model(puzzle: MascaradePuzzle) -> WorldModel:
    g = puzzle.state
    gm = build_model(g.initial, _steps(puzzle), g.swap_probability, g.positions)
    return WorldModel(gm.model, gm.unknown, tuple)


def check(puzzle: MascaradePuzzle, history: World) -> bool:
    """Replay the viewer's steps with these outcomes: every card the viewer saw is where it was seen."""
    g = puzzle.state
    cards = list(g.initial)
    bits = iter(history)
    for step in _steps(puzzle):
        if isinstance(step, SwapStep):
            swapped = next(bits) if _unknown(puzzle, step) else (
                step.outcome if step.outcome is not None else g.swap_probability == 1)
            if swapped:
                cards[step.a], cards[step.b] = cards[step.b], cards[step.a]
        elif isinstance(step, SeeStep) and cards[step.position] != step.identity:
            return False
    return True


def candidates(puzzle: MascaradePuzzle) -> Iterator[World]:
    """Every outcome of the unknown swaps (2 ** swaps: short histories only)."""
    return itertools.product((0, 1), repeat=sum(_unknown(puzzle, s) for s in _steps(puzzle)))
