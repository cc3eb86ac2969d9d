"""Clue, which card to show (``suggest --set show=...``): the cards' worlds judged from one pair of passes (the
suggester's deals with the card shown left unknown, each card's read off them by leaving out the envelopes
that hold it) give what each card judged on its own gives (:func:`.others.envelope_beliefs` of the game after
showing it, the algorithm before) and brute force over every deal, compiled and in numpy."""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from sleuth.loading import load_puzzle
from sleuth.models.clue import compiled, others
from sleuth.models.clue.others import envelope_beliefs, show_advice
from sleuth.models.clue.simulate import simulate
from sleuth.models.clue.game import SPLIT_KERNEL
from sleuth.models.clue.state import ClueState, Deck, Suggestion
from tests.helpers.clue import FOUR, SMALL, brute_beliefs


@contextmanager
def counted_passes(engine: str) -> Iterator[list[int]]:
    """The split passes of :mod:`.others` counted (one entry each: 2 for a pass of the shared way, else 1);
    ``compiled``: from the first layer on (as in a
    process that has loaded the kernel), ``numpy``: never compiled."""
    made: list[int] = []
    original = others.ViewSplit

    def counted(*args: Any, **kw: Any) -> Any:
        made.append(2 if kw.get("watch") is not None else 1)   # 2: a pass of the shared way
        return original(*args, **kw)

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(others, "ViewSplit", counted)
        if engine == "numpy":
            mp.setenv(SPLIT_KERNEL.switch, "numpy")
        else:
            mp.setattr(compiled, "KERNEL_FROM", 0)
            mp.setattr(compiled, "COLD_KERNEL_WORK", 0)
        yield made


def answered(game: ClueState, by: int, triple: tuple[int, int, int], card: int) -> ClueState:
    return ClueState(game.deck, game.players, game.hand_sizes, game.hands,
                     (*game.suggestions, Suggestion(by, triple, game.viewer, card)), game.accusations,
                     game.file_viewer, game.viewer, game.card_names)


def show_cases(deck: Deck, players: int, seed: int, games: int,
               every: int) -> Iterator[tuple[ClueState, int, tuple[int, int, int]]]:
    """Simulated states seen by player 0 with a suggestion of the next player's naming two or more of the viewer's
    cards (every player between them passes: the cards' worlds share their passes) and one of a later player's
    (nobody passes when the suggester sits right before the viewer: each card judged on its own)."""
    rng = random.Random(seed)
    for _ in range(games):
        sim = simulate(players, rng, deck=deck)
        for k in range(0, len(sim.suggestions) + 1, every):
            game = sim.view(0, k)
            hand = game.hands[0]
            triples = [(s, w, r) for s in deck.members(0) for w in deck.members(1) for r in deck.members(2)
                       if len(hand & {s, w, r}) >= 2]
            if triples:
                triple = rng.choice(triples)
                yield game, 1, triple
                yield game, players - 1, triple


@pytest.mark.parametrize("engine", ["compiled", "numpy"])
@pytest.mark.parametrize(("deck", "players", "seed", "games", "every"), [
    (SMALL, 3, 61, 1, 4), (SMALL, 4, 62, 1, 6), pytest.param(SMALL, 3, 64, 3, 2, marks=pytest.mark.slow),
    pytest.param(FOUR, 3, 63, 1, 3, marks=pytest.mark.slow)])
def test_show_advice_matches_each_card_and_brute_force(engine: str, deck: Deck, players: int, seed: int,
                                                       games: int, every: int) -> None:
    shared = alone = 0
    for game, by, triple in show_cases(deck, players, seed, games, every):
        held = game.hands[0] & set(triple)
        with counted_passes(engine) as made:
            rows = show_advice(game, by, triple)
        if not rows:   # the players between them hold one of the cards in every world: no deal lets it reach the viewer
            with counted_passes(engine):
                assert all(envelope_beliefs(answered(game, by, triple, c), by) == {} for c in held)
            continue
        assert {r["card"] for r in rows} == held
        if 2 in made:   # one pass over the suggester's deals and one over the viewer's for every card
            assert made == [2, 2] and len(held) > 1
            shared += 1
        else:
            assert 1 < len(made) <= 2 * len(held)
            alone += 1
        for r in rows:
            after = answered(game, by, triple, r["card"])
            with counted_passes(engine):
                each = envelope_beliefs(after, by)   # the card judged on its own
            want_known, want_entropy = brute_beliefs(after, by)
            assert r["knows"] == each["knows"] == want_known, (game, by, triple, r)
            assert math.isclose(r["entropy"], each["entropy"], rel_tol=1e-12, abs_tol=1e-12), (game, by, triple, r)
            assert math.isclose(r["entropy"], want_entropy, rel_tol=1e-9, abs_tol=1e-12), (game, by, triple, r)
        entropies = [r["entropy"] for r in rows]
        assert entropies == sorted(entropies, reverse=True)
    assert shared and alone   # both ways are exercised


@pytest.mark.slow
def test_master_detective_show_matches_each_card() -> None:
    """The bundled example's show advice (one pair of passes) against each card judged on its own."""
    game = load_puzzle("example:clue/master-detective").state
    triple = tuple(sorted(game.card_names.index(x) for x in ("Scarlet", "Knife", "Trophy Room")))
    assert len(triple) == 3
    rows = show_advice(game, 1, (triple[0], triple[1], triple[2]))
    assert [game.card(r["card"]) for r in rows] == ["Trophy Room", "Scarlet", "Knife"]
    for r in rows:
        each = envelope_beliefs(answered(game, 1, (triple[0], triple[1], triple[2]), r["card"]), 1)
        assert r["knows"] == each["knows"]
        assert math.isclose(r["entropy"], each["entropy"], rel_tol=1e-12)


@pytest.mark.parametrize(("deck", "players", "seed"), [(SMALL, 3, 65), (SMALL, 4, 66)])
def test_cards_judged_together_as_one_by_one(deck: Deck, players: int, seed: int,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The compiled judgement of the cards' variants in one call (one table of the player's deals per hand, each
    cell left out of the variants whose card its envelope holds) gives, bit for bit, what one call per card
    gives."""
    if not SPLIT_KERNEL.available():
        pytest.skip("numba is not installed")
    original = others._Beliefs.judge
    compared = []

    def judge(self: Any, drops: Any = ((),)) -> Any:
        got = original(self, drops)
        if self.args is not None and len(drops) > 1:
            one_by_one = [self._kernel_judge([drop]) for drop in drops]
            assert all(x is not None for x in one_by_one)
            assert got == [x[0] for x in one_by_one if x is not None]
            compared.append(len(drops))
        return got

    monkeypatch.setattr(others._Beliefs, "judge", judge)
    with counted_passes("compiled"):
        for game, by, triple in show_cases(deck, players, seed, 2, 2):
            show_advice(game, by, triple)
    assert len(compared) > 3


@pytest.mark.parametrize(("deck", "players", "seed"), [(SMALL, 4, 68)])
def test_shared_pass_resolved_late_as_unresolved(deck: Deck, players: int, seed: int,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The shared way's pass over the suggester's deals resolves the unseen showings to them in the order of a pass
    that does not resolve (its records then views): bit for bit what the same pass gives without resolving."""
    if not SPLIT_KERNEL.available():
        pytest.skip("numba is not installed")
    original = others.ViewSplit
    resolve: list[bool] = []
    passes: list[Any] = []

    def own_pass(*args: Any, **kw: Any) -> Any:
        if kw.get("watch") is not None and kw.get("envelopes"):   # the suggester's own pass of the shared way
            kw["resolve"] = resolve[0]
            passes.append(original(*args, **kw))
            return passes[-1]
        return original(*args, **kw)

    monkeypatch.setattr(others, "ViewSplit", own_pass)
    resolved = 0
    with counted_passes("compiled"):
        for game, by, triple in show_cases(deck, players, seed, 2, 2):
            got = []
            for flag in (True, False):
                resolve[:], passes[:] = [flag], []
                got.append(show_advice(game, by, triple))
                if flag and passes and passes[0].form is not None and passes[0].form.resolved:
                    resolved += 1
            assert got[0] == got[1], (game, by, triple)
    assert resolved >= 2   # the path is taken
