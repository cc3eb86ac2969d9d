"""Clue, what the other players know, by counting passes kept apart by a player's view: every view's weight
and every judgement against brute force over listed deals (small decks) and against counting each view's
own problem one by one (the classic deck)."""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import numpy as np
import pytest

from sleuth import knowledge as kn
from sleuth.models.clue import others
from sleuth.models.clue.counting import Problem, count_deals
from sleuth.models.clue.split import SplitCounter
from sleuth.models.clue.brute_force import listed_worlds
from sleuth.models.clue.others import envelope_beliefs, knows, player_problem, view_problem, views
from sleuth.models.clue.viewsplit import view_space
from sleuth.models.clue.simulate import simulate
from sleuth.models.clue.state import Deck, ClueState
from tests.helpers.clue import random_problem
from tests.helpers.clue import SMALL, small_states
from tests.helpers.clue import FOUR, brute_beliefs

def composition(game: ClueState, player: int, hand: frozenset[int]) -> tuple[int, ...]:
    """How many cards of each class of interchangeable cards a hand takes."""
    space = view_space(game, player)
    assert space is not None
    return tuple(len(hand & set(cards)) for cards, _ in space[2])


def brute_view_weights(game: ClueState, player: int) -> dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction]:
    """Per view (hand up to symmetry, cards shown at the unseen showings), its probability among the viewer's
    worlds, from every listed deal."""
    worlds, deals, viewer = listed_worlds(game, player)
    shows = others.showings_to(game, player)
    unseen = [i for i, s in enumerate(shows) if s.card is None]
    out: dict[tuple[tuple[int, ...], tuple[int, ...]], Fraction] = defaultdict(Fraction)
    total = Fraction(0)
    for i in map(int, viewer.nonzero()[0]):
        hand = frozenset(c for c, q in enumerate(deals[i]) if q == player)
        sigma = tuple(worlds.worlds[i][1][j] for j in unseen)
        w = worlds.weights[i]
        out[(composition(game, player, hand), sigma)] += w
        total += w
    return {k: v / total for k, v in out.items()}


def test_view_weights_match_brute_force() -> None:
    checked = 0
    for game in small_states(21, 3, 2, 2) + small_states(22, 2, 2, 2):
        for p in range(len(game.players)):
            if p == game.viewer:
                continue
            found, denominator = views(game, p)
            want = brute_view_weights(game, p)
            got = {(composition(game, p, hand), sigma): Fraction(info.weight, denominator)
                   for (hand, sigma), info in found.items()}
            assert got == want, (game, p)
            checked += len(want)
    assert checked > 100


@pytest.mark.parametrize(("deck", "seed", "players"), [(SMALL, 31, 3), (SMALL, 32, 2),
                                                      pytest.param(FOUR, 33, 3, marks=pytest.mark.slow)])
def test_envelope_beliefs_match_brute_force(deck: Deck, seed: int, players: int) -> None:
    rng = random.Random(seed)
    knowing = 0
    for _ in range(2):
        sim = simulate(players, rng, deck=deck)
        for k in range(0, len(sim.suggestions) + 1, 2):
            for v in (0, None):
                game = sim.view(v, k)
                for p in range(players):
                    if p == v:
                        continue
                    got = envelope_beliefs(game, p)
                    known, entropy = brute_beliefs(game, p)
                    assert got["knows"] == known, (game, p)
                    assert math.isclose(float(got["entropy"]), entropy, rel_tol=1e-9, abs_tol=1e-12), (game, p)
                    knowing += known > 0
    assert knowing


def classic_states() -> list[tuple[ClueState, int]]:
    """Player 1's and the observer's views of a few prefixes of classic games, with a player to judge."""
    out = []
    for players, seed, turns in ((3, 41, (3, 8)), (4, 42, (6,)), (6, 43, (4, 12))):
        sim = simulate(players, random.Random(seed))
        for k in turns:
            out += [(sim.view(0, k), 1), (sim.view(None, k), players - 1)]
    return out


@pytest.mark.slow
@pytest.mark.parametrize("index", range(10))
def test_each_view_judged_as_its_own_count_says(index: int) -> None:
    """Classic deck: the probability that the player knows each part, from the two split passes judged all
    at once, equals the expectation over the views (weights from :func:`views`) of what counting each
    view's own problem says."""
    game, p = classic_states()[index]
    found, denominator = views(game, p)
    want = kn.expectation(((view, info.weight) for view, info in found.items()),
                          lambda view: knows(count_deals(view_problem(game, p, view)), game.deck), denominator)
    assert others.chances_others_know(game, [p])[p] == {part: want.get(part, Fraction(0)) for part in others.PARTS}


def test_split_totals_match_the_count_and_python_integers_agree() -> None:
    """The split pass adds up to the plain count, per player, and the object-array path gives the same rows."""
    rng = random.Random(8)
    checked = 0
    for _ in range(40):
        problem = random_problem(rng).propagate()
        if problem is None:
            continue
        total = count_deals(problem).total
        for p in range(problem.n):
            watched = sorted({(c, q) for q, s in problem.some for c in s})
            narrow, wide = SplitCounter(problem, True), SplitCounter(problem, True, wide=True)
            got = narrow.split(p, watched, by_envelope=True)
            assert sum(got[1]) == total
            other = wide.split(p, watched, by_envelope=True)
            assert [x.tolist() if hasattr(x, "tolist") else x for x in got] == \
                [x.tolist() if hasattr(x, "tolist") else x for x in other]
            checked += total > 0
    assert checked > 20


def test_player_problem_keeps_the_viewers_views() -> None:
    """The player's problem, narrowed to the viewer's hands for them, still has a deal for every view."""
    for game in small_states(23, 3, 1, 1):
        for p in range(3):
            if p == game.viewer:
                continue
            space = view_space(game, p)
            if space is None:
                continue
            prob = player_problem(game, p, space[0])
            for view in views(game, p)[0]:
                assert count_deals(view_problem(game, p, view)).total
                assert prob is not None and count_deals(Problem(prob.sizes, prob.card_category, [
                    m & (1 << p) if c in view[0] else m & ~(1 << p) for c, m in enumerate(prob.allowed)],
                    prob.some, prob.excluded)).total


def test_split_cost_stopped_at_a_bound_decides_as_the_whole_estimate() -> None:
    """:meth:`.split.SplitCounter.split_cost` with ``below`` stops once its sum reaches the bound: it is then
    under the bound exactly when the whole estimate is (what the choice of card order asks), and without a
    bound it is the whole estimate."""
    rng = random.Random(71)
    checked = 0
    problems = [random_problem(rng).propagate() for _ in range(40)]
    for prob in (p for p in problems if p is not None):
        for reverse in (False, True):
            counter = SplitCounter(prob, True, reverse=reverse)
            player = rng.randrange(prob.n)
            watched = [(c, q) for c in range(len(prob.allowed)) for q in range(prob.n)
                       if len(counter.groups[counter.card_group[c]].cards) == 1 and rng.random() < 0.2]
            whole = counter.split_cost(player, watched)
            assert counter.split_cost(player, watched, math.inf) == whole
            for bound in (0.0, whole / 3, whole, whole * 1.01, whole + 1):
                assert (counter.split_cost(player, watched, bound) < bound) == (whole < bound)
            checked += 1
    assert checked > 40


def test_step_tables_read_from_the_estimate_are_those_computed_afresh() -> None:
    """The order estimate keeps each step's transitions (:meth:`.split.SplitCounter.split_cost` without a bound),
    and the compiled steps' tables read them again where the layer's states are the estimate's: every array of
    every table is the one a counter without the estimate computes, each kept step is read once (none left),
    layers of other states are computed afresh, and a bounded estimate (an order compared) keeps nothing."""
    rng = random.Random(72)
    checked = fresh_steps = 0
    problems = [random_problem(rng).propagate() for _ in range(40)]
    for prob in (p for p in problems if p is not None):
        for reverse in (False, True):
            counter, fresh = (SplitCounter(prob, True, reverse=reverse) for _ in range(2))
            player = rng.randrange(prob.n)
            watched = [(c, q) for c in range(len(prob.allowed)) for q in range(prob.n)
                       if len(counter.groups[counter.card_group[c]].cards) == 1 and rng.random() < 0.3][:20]
            whole = counter.split_cost(player, watched)
            counter.split_cost(player, watched, whole / 2)
            assert not counter._costed   # a bounded estimate keeps nothing (and drops what an earlier one kept)
            counter.split_cost(player, watched)
            steps = counter.group_steps()
            assert len(counter._costed) == len(steps)
            mine = [gi for gi, g in enumerate(counter.groups) if g.mask >> player & 1]
            shifts = {gi: 3 * k for k, gi in enumerate(mine)}
            bits = {pair: 40 + k for k, pair in enumerate(watched)}
            afresh: list[object] = []   # the steps whose transitions the counter computed again
            for name in ("placements", "transitions"):
                setattr(counter, name, _noting(getattr(counter, name), afresh))
            keys = np.array([counter.initial()], dtype=np.int64)
            for i, moves in enumerate(steps):
                if i == len(steps) // 2 and keys.size > 1:   # another layer (one state fewer): not the estimate's
                    keys = keys[1:]
                other = not np.array_equal(keys, counter._costed[moves[0][:2]].keys)
                got = counter._step_table(moves, keys, player, shifts, bits)
                assert (afresh[-1:] == [moves]) == other   # read from the estimate where the states are its own
                fresh_steps += other
                want = fresh._step_table(moves, keys, player, shifts, bits)
                for a, b in zip(got.arrays(), want.arrays(), strict=True):
                    assert np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype
                assert np.array_equal(got.states, want.states) and got.fan_out == want.fan_out
                keys = got.states
                checked += 1
            assert not counter._costed
    assert checked > 500 and 0 < fresh_steps < checked / 2


def _noting(method: Callable[..., Any], calls: list[object]) -> Callable[..., Any]:
    """``method``, noting the first argument of each call in ``calls``."""
    def noted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        return method(*args, **kwargs)
    return noted
