"""Mastermind's symmetries in the review's search (models/motus/stabiliser.py): the stabiliser against every colour
and peg permutation tried one by one, and the values searched one guess per orbit against the plain search (which
the brute-force tests of the review check) on random positions."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from sleuth.models.motus.optimal import Optimal
from sleuth.models.motus.space import CodeSpace
from sleuth.models.motus.stabiliser import CodeSymmetries, StabiliserSearch


def _brute_stabiliser(pegs: int, colours: int, codes: set[tuple[int, ...]]) -> set[tuple[tuple[int, ...], ...]]:
    out = set()
    for peg in itertools.permutations(range(pegs)):
        for colour in itertools.permutations(range(colours)):
            if {tuple(colour[c[p]] for p in peg) for c in codes} == codes:
                out.add((colour, peg))
    return out


@pytest.mark.parametrize("pegs,colours,seed", [(3, 3, 0), (3, 4, 1), (2, 5, 2), (4, 3, 3)])
def test_stabiliser_is_every_symmetry_keeping_the_set(pegs: int, colours: int, seed: int) -> None:
    rng = random.Random(seed)
    sym = CodeSymmetries(pegs, colours)
    space = CodeSpace(pegs=pegs, colours=colours, tries=10)
    m = space.matrix()
    everything = list(itertools.product(range(colours), repeat=pegs))
    for _ in range(6):  # positions a game reaches: the codes left after a random guess or two
        left = np.arange(len(everything))
        for _ in range(rng.randint(1, 2)):
            g, secret = rng.randrange(len(everything)), rng.choice(left.tolist())
            left = left[m[g, left] == m[g, secret]]
        got = {(tuple(c.tolist()), tuple(p.tolist())) for c, p in sym.stabiliser(left)}
        assert got == _brute_stabiliser(pegs, colours, {everything[i] for i in left.tolist()})
        rep, sizes = sym.orbits(left, np.arange(len(everything)))
        assert sizes.sum() == len(everything) and (rep[np.flatnonzero(sizes)] == np.flatnonzero(sizes)).all()


@pytest.mark.parametrize("pegs,colours,seed", [(3, 4, 0), (4, 3, 1), (3, 5, 2)])
def test_orbit_search_values_equal_the_plain_search(pegs: int, colours: int, seed: int) -> None:
    rng = random.Random(seed)
    space = CodeSpace(pegs=pegs, colours=colours, tries=rng.choice([4, 5, 10]))
    plain = Optimal(space, cap=space.tries, kernel="python")
    sym = StabiliserSearch(Optimal(space, cap=space.tries, kernel="python"), small=2)
    m = plain.matrix
    n = len(space.answers)
    for _ in range(4):
        g, secret = rng.randrange(n), rng.randrange(n)
        left = np.flatnonzero(m[g] == m[g, secret])
        used = rng.randint(1, 2)
        assert sym.value(left, used) == plain.value(left, None, used)
        for h in rng.sample(range(n), 3):
            want = plain.guess_value(h, left, None, used)
            assert sym.guess_value(h, left, used) == want
            assert sym.guess_value(h, left, used, want + 1) == want   # exact below beta
            assert sym.guess_value(h, left, used, want) >= want       # else a bound at least beta
    assert sym.guess_value(0, np.arange(n), 0) == plain.guess_value(0)


@pytest.mark.parametrize("pegs,colours,played,secret", [
    pytest.param(4, 4, ["1122", "1341", "2314"], "2314", marks=pytest.mark.slow),
    (3, 5, ["123", "245", "425"], "452"), (3, 5, ["112", "334", "345"], "543")])
def test_review_with_orbits_equals_the_review_without(pegs: int, colours: int, played: list[str], secret: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every field of a Mastermind review (best guesses and their count too: whole orbits) is the same with the
    positions' symmetries used and without."""
    from sleuth.models.motus import review as rv
    from sleuth.models.motus.state import MotusState, Proposal

    space = CodeSpace(pegs=pegs, colours=colours, tries=10)
    props = []
    for i, g in enumerate(played, 1):
        code = int(space.codes(space.encode([g]), space.encode([secret]))[0, 0])
        props.append(Proposal(i, g, code, space.show(code), True))
    state = MotusState(space, tuple(props))
    with_orbits = rv.review_state(state, time_limit=10**6, node_limit=10**7)
    assert with_orbits.exact and any(len(m.best_guesses) > 1 for m in with_orbits.moves)
    monkeypatch.setattr(rv, "StabiliserSearch", lambda search: None)
    without = rv.review_state(state, time_limit=10**6, node_limit=10**7)
    assert [m.to_json() for m in with_orbits.moves] == [m.to_json() for m in without.moves]
